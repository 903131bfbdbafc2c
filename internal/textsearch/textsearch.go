// Package textsearch folds text for searching (case, accents, tone marks), splits it into
// searchable tokens, and turns a prefix into an index range.
package textsearch

import (
	"slices"
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

// PhoneKey is a phone number's national digits, the key the search and the possible-duplicate
// check compare, so that a number is found however it was written: "+84 912 345 678",
// "0084 912 345 678" and "0912 345 678" are all "912345678". A number written with an
// international prefix (+ or 00) loses its country calling code; a domestic one loses its
// trunk prefix: the leading zeros, or the 8 of an eleven-digit Russian or Kazakh number
// ("8 912 345-67-89" and "+7 912 345-67-89" are both "9123456789").
func PhoneKey(s string) string {
	t := strings.TrimSpace(s)
	d := Digits(t)
	switch {
	case strings.HasPrefix(t, "+"):
		d = d[callingCodeLen(d):]
	case strings.HasPrefix(d, "00"):
		d = d[2:]
		d = d[callingCodeLen(d):]
	case len(d) == 11 && d[0] == '8':
		d = d[1:]
	}
	return strings.TrimLeft(d, "0")
}

// twoDigitCodes are the country calling codes of two digits; 1 and 7 are the only ones of
// one, every other code has three (E.164 codes are prefix-free, so the first digits tell
// the length).
var twoDigitCodes = strings.Fields("20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 " +
	"60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98")

// callingCodeLen is the length of the country calling code d starts with, at most len(d).
func callingCodeLen(d string) int {
	n := 3
	switch {
	case d == "":
		return 0
	case d[0] == '1' || d[0] == '7':
		n = 1
	case len(d) >= 2 && slices.Contains(twoDigitCodes, d[:2]):
		n = 2
	}
	return min(n, len(d))
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

// CallingCode is the country calling code of a number written internationally ("+84 28 …",
// "0084 …"), "" for one written domestically: how a clinic's own phone number names its
// country, whose code a domestic number of its patients has.
func CallingCode(s string) string {
	t := strings.TrimSpace(s)
	d := Digits(t)
	switch {
	case strings.HasPrefix(t, "+"):
	case strings.HasPrefix(d, "00"):
		d = d[2:]
	default:
		return ""
	}
	return d[:callingCodeLen(d)]
}

// PhoneIdentity is who a phone number reaches, for deciding that a code sent to one number
// may open a record that has another written down: "+" and the international digits when
// they are known (written with + or 00, or domestically in the country whose calling code is
// home), else "national:" and the national digits. Two numbers are the same line only when
// their identities are equal, so a domestic number of an unknown country never equals an
// international one, and "+1 912 345 6789" never equals "+7 912 345-67-89" (PhoneKey, which
// drops the country, is for finding and throttling, never for proving who someone is).
func PhoneIdentity(s, home string) string {
	key := PhoneKey(s)
	if key == "" {
		return ""
	}
	if cc := CallingCode(s); cc != "" {
		return "+" + cc + key
	}
	if home != "" {
		return "+" + home + key
	}
	return "national:" + key
}
