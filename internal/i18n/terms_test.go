package i18n

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// verbs are a message's printf verbs in order.
var verbs = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// A translation takes the same arguments as English, in the same order (no positional
// verbs are used): a %d where English has %s would print the wrong value, or garbage.
func TestEveryTranslationTakesTheEnglishArgumentsInOrder(t *testing.T) {
	for _, lang := range Languages[1:] {
		for _, k := range Keys(lang) {
			want, got := verbs.FindAllString(T("en", k), -1), verbs.FindAllString(T(lang, k), -1)
			if !slices.Equal(want, got) {
				t.Errorf("%s %s: verbs %v, English %v", lang, k, got, want)
			}
		}
	}
}

// The FHIR API's and SMART's messages use the project's agreed terms (the translation
// reviews of 2026-11-23 to 11-28): one term for vital signs and for the patient number,
// the polite «Vui lòng» in Vietnamese, «权限范围» for a scope in Chinese, and no
// statistics jargon ("censored") for a value beyond the measuring range.
func TestFHIRAndSMARTMessagesKeepTheAgreedTerms(t *testing.T) {
	banned := map[string][]string{
		"en": {"censored"},
		"ru": {"жизнедеятельности", "жизненно важных функций", "Цензурир"},
		"zh": {"访问范围", "删失", "第 %d"},
		"vi": {"Hãy ", "hãy ", "sinh hiệu", "số bệnh nhân", "kiểm duyệt"},
	}
	families := []string{"fhir.", "smart.", "smart_app.", "scope.", "api_token.", "api_client.", "settings.bad_number_system"}
	for lang, words := range banned {
		for _, k := range Keys(lang) {
			if !slices.ContainsFunc(families, func(f string) bool { return strings.HasPrefix(k, f) }) {
				continue
			}
			for _, w := range words {
				if strings.Contains(T(lang, k), w) {
					t.Errorf("%s %s says %q: %s", lang, k, w, T(lang, k))
				}
			}
		}
	}
}

// A Bundle entry's number in a message is its index from 0, as in Bundle.entry[0]: Chinese
// names it «条目 0», never with the ordinal 第 (which would count from 1).
func TestBundleEntriesAreNamedByIndex(t *testing.T) {
	for _, got := range []string{T("zh", "fhir.entry_request", 0), T("zh", "fhir.fullurl_repeated", "urn:uuid:1", 0)} {
		if !strings.Contains(got, "条目 0") {
			t.Errorf("zh: %s", got)
		}
	}
}
