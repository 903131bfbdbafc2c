package audit

import "testing"

// TestDetailInTheReadersLanguage: a detail of phrases reads in each reader's language, its
// codes as written and its terms in words; a detail of plain text, or one cut at the stored
// length, reads as written.
func TestDetailInTheReadersLanguage(t *testing.T) {
	results := Phrases(Phrase{Key: "audit.detail.results", Args: []string{"NA, K, CL"}}, Phrase{Key: "audit.detail.critical_alerts", Args: []string{"1"}})
	visit := WithPhrase(Phrases(Phrase{Key: "audit.detail.changed", Terms: []string{"audit.section.orders", "audit.section.plan"}}), Phrase{Key: "audit.detail.reason_given"})
	for _, c := range []struct{ lang, detail, want string }{
		{"en", results, "results: NA, K, CL; critical alerts: 1"},
		{"ru", results, "результаты: NA, K, CL; критических оповещений: 1"},
		{"zh", results, "结果：NA, K, CL；危急值警报：1"},
		{"vi", results, "kết quả: NA, K, CL; cảnh báo nguy kịch: 1"},
		{"en", visit, "changed: tests ordered, plan; reason given"},
		{"ru", visit, "изменено: назначенные исследования, план; указана причина"},
		{"zh", visit, "修改了：检验申请，诊疗计划；已填写原因"},
		{"en", "results: NA, K", "results: NA, K"},
		{"ru", "changed: phone", "changed: phone"},
		{"en", results[:20], results[:20]},
		{"ru", WithPhrase("changed: phone", Phrase{Key: "audit.detail.reason_given"}), "changed: phone; reason given"},
		{"en", WithPhrase("", Phrase{Key: "audit.detail.comment_given"}), "comment given"},
		{"en", "", ""},
	} {
		if got := DetailIn(c.lang, c.detail); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.lang, c.detail, got, c.want)
		}
	}
}
