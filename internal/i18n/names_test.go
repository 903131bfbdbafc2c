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
