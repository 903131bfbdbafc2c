package catalogue

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading medicine names in text. Text is folded (case, accents, tone marks, đ) and split
// into words, and a word is split again where Chinese meets another script (青霉素G: 青霉素, g).
// Every name the knowledge holds is looked for; where two overlap the longer wins, so that
// 碘 inside 胺碘酮 (amiodarone), 红霉素 inside 罗红霉素 (roxithromycin) or "penicillin"
// inside "penicillin g" is not read on its own. Latin and Cyrillic names of five or more
// letters also match a word that adds at most three letters (a plural, a Russian case
// ending); class words below seven letters match whole words only ("sulfa" is no "sulfate").
// INN stems (-cillin, цеф-, 沙星) are read only in words no name has claimed (Цефекон is a
// paracetamol brand, nystatin no statin).

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// tokens folds text into words, Chinese split from other scripts.
func tokens(s string) []string {
	var out []string
	for _, w := range words(s) {
		start, han := 0, false
		for i, r := range w {
			h := isHan(r)
			if i > 0 && h != han {
				out = append(out, w[start:i])
				start = i
			}
			han = h
		}
		out = append(out, w[start:])
	}
	return out
}

func hanToken(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return isHan(r)
}

// What a name means.
const (
	mentionSubstance = iota // substances (a brand or combination names several)
	mentionClass            // a class named outright
	mentionVague            // "antibiotics", "painkillers"
	mentionExcipient        // an excipient or component: gelatin, egg, yeast (excipients.tsv)
)

// lexName is one name of a substance, alias or class, as written in the lists.
type lexName struct {
	name    string
	kind    int
	keys    []string
	inflect bool
}

type lexEntry struct {
	toks    []string
	kind    int
	keys    []string
	inflect bool
}

type stem struct {
	text string // folded
	at   string // start, end, han
	key  string // a class, or a substance (氨酚: paracetamol)
}

// lexicon finds names in text: Latin and Cyrillic names by their first word, Chinese ones
// by their first character.
type lexicon struct {
	entries []*lexEntry
	byFirst map[string][]*lexEntry // first word (not Chinese)
	byRune  map[rune][]*lexEntry   // one Chinese word, by its first character
	hanLead []*lexEntry            // several words, the first Chinese (维c银翘片)
	stems   []stem
}

func newLexicon(names []lexName, stems []stem) *lexicon {
	l := &lexicon{byFirst: map[string][]*lexEntry{}, byRune: map[rune][]*lexEntry{}, stems: stems}
	l.add(names)
	return l
}

// with returns a copy holding more names.
func (l *lexicon) with(names []lexName) *lexicon {
	c := &lexicon{byFirst: map[string][]*lexEntry{}, byRune: map[rune][]*lexEntry{}, stems: l.stems, hanLead: slices.Clone(l.hanLead)}
	for k, v := range l.byFirst {
		c.byFirst[k] = slices.Clone(v)
	}
	for k, v := range l.byRune {
		c.byRune[k] = slices.Clone(v)
	}
	c.entries = slices.Clone(l.entries)
	c.add(names)
	return c
}

func (l *lexicon) add(names []lexName) {
	for _, n := range names {
		toks := tokens(n.name)
		if len(toks) == 0 {
			continue
		}
		e := &lexEntry{toks: toks, kind: n.kind, keys: n.keys, inflect: n.inflect}
		l.entries = append(l.entries, e)
		switch {
		case len(toks) == 1 && hanToken(toks[0]):
			r, _ := utf8.DecodeRuneInString(toks[0])
			l.byRune[r] = append(l.byRune[r], e)
		case hanToken(toks[0]):
			l.hanLead = append(l.hanLead, e)
		default:
			l.byFirst[toks[0]] = append(l.byFirst[toks[0]], e)
		}
	}
}

// wordMatches reports whether a text word is a name's word, or (inflect) adds at most three
// letters to a name's word of five or more letters.
func wordMatches(w, n string, inflect bool) bool {
	if w == n {
		return true
	}
	if !inflect || !strings.HasPrefix(w, n) {
		return false
	}
	nl := utf8.RuneCountInString(n)
	return nl >= 5 && utf8.RuneCountInString(w)-nl <= 3
}

// mention is a name found in text, as a span of positions (runes, one between words).
type mention struct {
	start, end int
	e          *lexEntry
}

// scan finds every name in toks, keeps the longest where they overlap, and returns the
// mentions and which positions they cover.
func (l *lexicon) scan(toks []string) ([]mention, []int, []bool) {
	starts := make([]int, len(toks)+1)
	for i, t := range toks {
		starts[i+1] = starts[i] + utf8.RuneCountInString(t) + 1
	}
	var found []mention
	// follow matches toks[i+1:] against a name's further words.
	follow := func(e *lexEntry, i int) (int, bool) {
		if i+len(e.toks) > len(toks) {
			return 0, false
		}
		for j := 1; j < len(e.toks); j++ {
			w, n := toks[i+j], e.toks[j]
			last := j == len(e.toks)-1
			if hanToken(n) && last {
				if !strings.HasPrefix(w, n) {
					return 0, false
				}
				return starts[i+j] + utf8.RuneCountInString(n), true
			}
			if !wordMatches(w, n, e.inflect && !hanToken(n)) {
				return 0, false
			}
		}
		k := i + len(e.toks) - 1
		return starts[k] + utf8.RuneCountInString(toks[k]), true
	}
	for i, t := range toks {
		if hanToken(t) {
			rs := []rune(t)
			for p := range rs {
				for _, e := range l.byRune[rs[p]] {
					n := []rune(e.toks[0])
					if p+len(n) <= len(rs) && string(rs[p:p+len(n)]) == e.toks[0] {
						found = append(found, mention{starts[i] + p, starts[i] + p + len(n), e})
					}
				}
			}
			for _, e := range l.hanLead {
				if strings.HasSuffix(t, e.toks[0]) {
					if end, ok := follow(e, i); ok {
						found = append(found, mention{starts[i] + len(rs) - utf8.RuneCountInString(e.toks[0]), end, e})
					}
				}
			}
			continue
		}
		n := utf8.RuneCountInString(t)
		seen := map[string]bool{}
		for cut := 0; cut <= 3 && cut < n; cut++ {
			first := string([]rune(t)[:n-cut])
			if seen[first] {
				continue
			}
			seen[first] = true
			for _, e := range l.byFirst[first] {
				if !wordMatches(t, e.toks[0], e.inflect) {
					continue
				}
				if len(e.toks) == 1 {
					found = append(found, mention{starts[i], starts[i] + n, e})
				} else if end, ok := follow(e, i); ok {
					found = append(found, mention{starts[i], end, e})
				}
			}
		}
	}
	sort.SliceStable(found, func(a, b int) bool {
		la, lb := found[a].end-found[a].start, found[b].end-found[b].start
		if la != lb {
			return la > lb
		}
		return found[a].start < found[b].start
	})
	covered := make([]bool, starts[len(toks)])
	var kept []mention
	for _, m := range found {
		if slices.Contains(covered[m.start:m.end], true) {
			continue
		}
		for p := m.start; p < m.end; p++ {
			covered[p] = true
		}
		kept = append(kept, m)
	}
	sort.Slice(kept, func(a, b int) bool { return kept[a].start < kept[b].start })
	return kept, starts, covered
}

// reading is what a text names.
type reading struct {
	substances  []string
	classes     []string // named outright
	vague       []string // vague classes ("antibiotics")
	stemClasses []string // classes of unknown members, read from an INN stem
	unknown     []string // words no name or stem claimed
	excipients  []string // excipients and components named (excipients.tsv)
}

func addOnce(list *[]string, keys ...string) {
	for _, k := range keys {
		if !slices.Contains(*list, k) {
			*list = append(*list, k)
		}
	}
}

// cyrillicForms are a word and, for a Cyrillic one, the word less one or two letters of a
// Russian case ending.
func cyrillicForms(w string) []string {
	rs := []rune(w)
	out := []string{w}
	if len(rs) > 0 && unicode.Is(unicode.Cyrillic, rs[0]) {
		for cut := 1; cut <= 2 && cut < len(rs); cut++ {
			out = append(out, string(rs[:len(rs)-cut]))
		}
	}
	return out
}

// read finds what text names.
func (d *Drugs) read(text string) reading {
	var r reading
	toks := tokens(text)
	if len(toks) == 0 {
		return r
	}
	ms, starts, covered := d.lex.scan(toks)
	for _, m := range ms {
		switch m.e.kind {
		case mentionSubstance:
			addOnce(&r.substances, m.e.keys...)
		case mentionClass:
			addOnce(&r.classes, m.e.keys...)
		case mentionVague:
			addOnce(&r.vague, m.e.keys...)
		case mentionExcipient:
			addOnce(&r.excipients, m.e.keys...)
		}
	}
	stemHit := func(key string) {
		if d.byKey[key] != nil {
			addOnce(&r.substances, key)
		} else {
			addOnce(&r.stemClasses, key)
		}
	}
	for i, t := range toks {
		if hanToken(t) {
			// Chinese stems and leftover words, in the runs no name claimed.
			rs := []rune(t)
			run := []rune{}
			flush := func() {
				if len(run) > 0 {
					r.unknown = append(r.unknown, string(run))
					run = run[:0]
				}
			}
			for p, c := range rs {
				if covered[starts[i]+p] {
					flush()
					continue
				}
				run = append(run, c)
			}
			flush()
			continue
		}
		if slices.Contains(covered[starts[i]:starts[i]+utf8.RuneCountInString(t)], true) {
			continue
		}
		hit := false
		n := utf8.RuneCountInString(t)
		for _, st := range d.lex.stems {
			sl := utf8.RuneCountInString(st.text)
			switch st.at {
			case "start":
				hit = strings.HasPrefix(t, st.text) && n >= sl+3
			case "end":
				hit = slices.ContainsFunc(cyrillicForms(t), func(f string) bool {
					return strings.HasSuffix(f, st.text) && utf8.RuneCountInString(f) >= sl+2
				})
			}
			if hit {
				stemHit(st.key)
				r.unknown = append(r.unknown, t)
				break
			}
		}
		if !hit {
			r.unknown = append(r.unknown, t)
		}
	}
	// Chinese stems inside the unclaimed runs (美洛西林: 西林).
	for _, u := range r.unknown {
		for _, st := range d.lex.stems {
			if st.at == "han" && hanToken(u) && strings.Contains(u, st.text) {
				stemHit(st.key)
			}
		}
	}
	return r
}

// knows reports whether the knowledge reads name, whole, as medicines already: every word
// claimed by a substance, brand or combination name.
func (d *Drugs) knows(name string) bool {
	r := d.read(name)
	return len(r.substances) > 0 && len(r.unknown) == 0 && len(r.stemClasses) == 0
}
