package i18n

import (
	"context"
	"strconv"
	"strings"
	"unicode"
)

// PersonName is a person's name in the order lang writes names — the one rule on the server,
// as the web app's fullName is on the screens: English "First Middle Last", Russian "Last
// First Middle", Vietnamese "Last Middle First", Chinese "Last First", without spaces when
// written in characters.
func PersonName(lang, first, middle, last string) string {
	parts := []string{last, first, middle}
	switch lang {
	case "en":
		parts = []string{first, middle, last}
	case "vi":
		parts = []string{last, middle, first}
	}
	var kept []string
	allHan := true
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
			allHan = allHan && strings.ContainsFunc(p, func(r rune) bool { return unicode.Is(unicode.Han, r) })
		}
	}
	if lang == "zh" && allHan {
		return strings.Join(kept, "")
	}
	return strings.Join(kept, " ")
}

type languageKey struct{}

// WithLanguage is ctx carrying the language of the request it serves.
func WithLanguage(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, languageKey{}, lang)
}

// FromContext is the language ctx carries (English when none): the caller's, for the names
// and words an answer holds.
func FromContext(ctx context.Context) string {
	if lang, ok := ctx.Value(languageKey{}).(string); ok {
		return lang
	}
	return "en"
}

// Decimal writes f as the language writes decimals: 38.4 in English and Chinese, 38,4 in
// Russian and Vietnamese (no grouping: the numbers printed are measurements).
func Decimal(lang string, f float64) string { return DecimalPlaces(lang, f, -1) }

// DecimalPlaces is Decimal with places decimals (-1: as many as f needs): 38.0 beside 35.5.
func DecimalPlaces(lang string, f float64, places int) string {
	s := strconv.FormatFloat(f, 'f', places, 64)
	if lang == "ru" || lang == "vi" {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// ListSeparator joins the items of a list in running text: a full-width comma in Chinese,
// ", " elsewhere.
func ListSeparator(lang string) string {
	if lang == "zh" {
		return "，"
	}
	return ", "
}
