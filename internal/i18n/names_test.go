package i18n

import (
	"context"
	"testing"
)

func TestPersonNameInEachLanguagesOrder(t *testing.T) {
	for _, c := range []struct{ lang, first, middle, last, want string }{
		{"en", "An", "Văn", "Nguyễn", "An Văn Nguyễn"},
		{"vi", "An", "Văn", "Nguyễn", "Nguyễn Văn An"},
		{"ru", "Иван", "Петрович", "Сидоров", "Сидоров Иван Петрович"},
		{"zh", "小明", "", "王", "王小明"},
		{"zh", "Ming", "", "Wang", "Wang Ming"},
		{"ru", "Anna", " ", "Lee", "Lee Anna"},
	} {
		if got := PersonName(c.lang, c.first, c.middle, c.last); got != c.want {
			t.Errorf("%s %q %q %q: %q, want %q", c.lang, c.first, c.middle, c.last, got, c.want)
		}
	}
	if FromContext(context.Background()) != "en" || FromContext(WithLanguage(context.Background(), "vi")) != "vi" {
		t.Error("the request's language is not carried")
	}
}

func TestDecimalsAndListsPerLanguage(t *testing.T) {
	for lang, want := range map[string]string{"en": "38.4", "zh": "38.4", "ru": "38,4", "vi": "38,4"} {
		if got := Decimal(lang, 38.4); got != want {
			t.Errorf("%s: %q", lang, got)
		}
	}
	if Decimal("ru", 120) != "120" || ListSeparator("zh") != "，" || ListSeparator("vi") != ", " {
		t.Error("whole numbers or separators")
	}
}

// Issue 35: a decimal comma is accepted in Russian and Vietnamese and refused, with its own
// message, in English and Chinese (where "5,6" could be read as fifty-six).
func TestParseDecimalByLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, in string
		want     float64
		err      error
	}{
		{"ru", "5,6", 5.6, nil},
		{"vi", " 5,6 ", 5.6, nil},
		{"ru", "5.6", 5.6, nil},
		{"en", "5.6", 5.6, nil},
		{"en", "5,6", 0, ErrDecimalComma},
		{"zh", "5,6", 0, ErrDecimalComma},
		{"en", "-0.5", -0.5, nil},
		{"ru", "1,234,5", 0, ErrNotANumber},
		{"ru", "1.234,5", 0, ErrNotANumber},
		{"en", "", 0, ErrNotANumber},
		{"en", "abc", 0, ErrNotANumber},
		{"en", "1e3", 0, ErrNotANumber},
		{"en", "NaN", 0, ErrNotANumber},
		{"en", "Inf", 0, ErrNotANumber},
		{"en", "0x10", 0, ErrNotANumber},
	} {
		got, err := ParseDecimal(c.lang, c.in)
		if err != c.err || got != c.want {
			t.Errorf("ParseDecimal(%s, %q) = %v, %v; want %v, %v", c.lang, c.in, got, err, c.want, c.err)
		}
	}
}
