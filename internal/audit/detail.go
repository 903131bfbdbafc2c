package audit

import (
	"encoding/json"
	"strings"

	"emr/internal/i18n"
)

// Phrase is one part of an event's detail written so that each reader reads it in their own
// language: a server message key (audit.detail.*) with its arguments, kept verbatim (codes,
// counts), then its terms, message keys of words each given in the reader's language and
// listed together as the last argument.
type Phrase struct {
	Key   string   `json:"k"`
	Args  []string `json:"a,omitempty"`
	Terms []string `json:"t,omitempty"`
}

// phrasesMark starts a detail stored as phrases; any other detail is plain text, read as
// written (every event written before details had phrases, and those that name only codes).
const phrasesMark = `[{"k":`

// Phrases is the detail made of ps, as it is stored.
func Phrases(ps ...Phrase) string {
	if len(ps) == 0 {
		return ""
	}
	b, _ := json.Marshal(ps)
	return string(b)
}

// WithPhrase is detail with p after it: one more phrase of a detail of phrases (or of none),
// or p in English after a detail of plain text.
func WithPhrase(detail string, p Phrase) string {
	if detail == "" {
		return Phrases(p)
	}
	if ps, ok := phrasesOf(detail); ok {
		return Phrases(append(ps, p)...)
	}
	return detail + "; " + p.in("en")
}

// DetailIn is a stored detail as a reader of lang reads it: its phrases in lang, or its plain
// text as written.
func DetailIn(lang, detail string) string {
	ps, ok := phrasesOf(detail)
	if !ok {
		return detail
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.in(lang)
	}
	sep := "; "
	if lang == "zh" {
		sep = "；"
	}
	return strings.Join(out, sep)
}

func phrasesOf(detail string) ([]Phrase, bool) {
	if !strings.HasPrefix(detail, phrasesMark) {
		return nil, false
	}
	var ps []Phrase
	if err := json.Unmarshal([]byte(detail), &ps); err != nil {
		return nil, false // cut at the stored length: read as written
	}
	return ps, true
}

func (p Phrase) in(lang string) string {
	args := make([]any, 0, len(p.Args)+1)
	for _, a := range p.Args {
		args = append(args, a)
	}
	if len(p.Terms) > 0 {
		terms := make([]string, len(p.Terms))
		for i, t := range p.Terms {
			terms[i] = i18n.T(lang, t)
		}
		args = append(args, strings.Join(terms, i18n.ListSeparator(lang)))
	}
	return i18n.T(lang, p.Key, args...)
}
