// Package textsearch folds text for searching (case, accents, tone marks), splits it into
// searchable tokens, and turns a prefix into an index range.
package textsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold makes a name comparable: lower case, accents and tone marks removed (Nguyễn → nguyen,
// Ёлкин → елкин), Vietnamese đ → d.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'đ' || r == 'Đ':
			b.WriteRune('d')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Tokens splits names into their searchable parts: folded words, and each Chinese, Japanese
// or Korean character on its own (such names are written without spaces).
func Tokens(parts ...string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, p := range parts {
		var word strings.Builder
		for _, r := range Fold(p) {
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
				add(word.String())
				word.Reset()
				add(string(r))
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				word.WriteRune(r)
			default:
				add(word.String())
				word.Reset()
			}
		}
		add(word.String())
	}
	return out
}

// Digits keeps only the digits of s (phone numbers and patient numbers are searched so).
func Digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// PrefixEnd returns the smallest string greater than every string starting with prefix,
// so that "token >= prefix AND token < PrefixEnd(prefix)" is an index range scan.
func PrefixEnd(prefix string) string {
	r, size := utf8.DecodeLastRuneInString(prefix)
	if r == utf8.RuneError || r == unicode.MaxRune {
		return prefix + string(rune(unicode.MaxRune))
	}
	next := r + 1
	if next >= 0xD800 && next <= 0xDFFF { // surrogates are not valid in UTF-8
		next = 0xE000
	}
	return prefix[:len(prefix)-size] + string(next)
}

// MaxPrefix is the longest word prefix PostgreSQL's search index holds; longer query words
// are cut to it.
const MaxPrefix = 20

// PrefixTerms lists every prefix (1 to MaxPrefix characters) of every token, once each,
// space-separated: PostgreSQL's search index then answers a prefix query by exact terms.
func PrefixTerms(tokens []string) string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tokens {
		r := []rune(t)
		for n := 1; n <= min(len(r), MaxPrefix); n++ {
			if p := string(r[:n]); !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return strings.Join(out, " ")
}
