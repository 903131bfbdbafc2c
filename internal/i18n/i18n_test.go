package i18n

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestEveryLanguageHasEveryKey(t *testing.T) {
	en := Keys("en")
	slices.Sort(en)
	for _, lang := range Languages[1:] {
		got := Keys(lang)
		slices.Sort(got)
		if !slices.Equal(en, got) {
			t.Errorf("%s keys differ from en:\n en=%v\n %s=%v", lang, en, lang, got)
		}
		for _, k := range got {
			if strings.Count(T("en", k), "%") != strings.Count(T(lang, k), "%") {
				t.Errorf("%s %s: placeholders differ from English", lang, k)
			}
		}
	}
}

func TestFromRequest(t *testing.T) {
	for _, tc := range []struct{ cookie, accept, want string }{
		{"", "", "en"},
		{"ru", "vi", "ru"},
		{"xx", "vi-VN,vi;q=0.9", "vi"},
		{"", "zh-CN,zh;q=0.9,en;q=0.8", "zh"},
		{"", "de-DE", "en"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if tc.cookie != "" {
			r.Header.Set("Cookie", "language="+tc.cookie)
		}
		if tc.accept != "" {
			r.Header.Set("Accept-Language", tc.accept)
		}
		if got := FromRequest(r); got != tc.want {
			t.Errorf("cookie %q accept %q: got %s, want %s", tc.cookie, tc.accept, got, tc.want)
		}
	}
}

func TestTFormatsAndFallsBack(t *testing.T) {
	if got := T("ru", "auth.throttled", 30); !strings.Contains(got, "30") {
		t.Errorf("got %q", got)
	}
	if got := T("ru", "no.such.key"); got != "no.such.key" {
		t.Errorf("got %q", got)
	}
}
