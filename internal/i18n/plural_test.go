package i18n

import "testing"

// TestPluralFormByLanguage: the CLDR plural rules of the four languages, at the numbers a
// Russian ending changes on (1, 2–4, 5–20, 11–14, 21, 22, 101, 111).
func TestPluralFormByLanguage(t *testing.T) {
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "one"}, {"ru", 21, "one"}, {"ru", 101, "one"}, {"ru", 11, "many"}, {"ru", 111, "many"},
		{"ru", 2, "few"}, {"ru", 3, "few"}, {"ru", 4, "few"}, {"ru", 22, "few"}, {"ru", 12, "many"}, {"ru", 14, "many"},
		{"ru", 0, "many"}, {"ru", 5, "many"}, {"ru", 10, "many"}, {"ru", 30, "many"},
		{"en", 1, "one"}, {"en", 0, "other"}, {"en", 2, "other"},
		{"zh", 1, "other"}, {"vi", 1, "other"},
	} {
		if got := PluralForm(c.lang, c.n); got != c.want {
			t.Errorf("%s %d: %s, want %s", c.lang, c.n, got, c.want)
		}
	}
}
