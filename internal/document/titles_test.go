package document

import "testing"

// TestTitleIn: a starter template's name, in any language, or the kind's own name, reads as the
// kind's name in the reader's language; a title the clinic wrote stays as written.
func TestTitleIn(t *testing.T) {
	for _, c := range []struct{ lang, kind, title, want string }{
		{"ru", "lab_request", "Laboratory request", "Направление на анализы"},
		{"en", "lab_request", "Направление на анализы", "Laboratory request"},
		{"vi", "visit_summary", "门诊病历摘要", "Tóm tắt lần khám"},
		{"zh", "results_report", "Results report", "检验检查结果报告"},
		{"ru", "imaging_request", " imaging and functional tests request ", "Направление на инструментальное исследование"},
		{"ru", "medical_certificate", "Справка для бассейна", "Справка для бассейна"},
		{"en", "referral", "Laboratory request", "Laboratory request"}, // another kind's name is the clinic's choice
	} {
		if got := TitleIn(c.lang, c.kind, c.title); got != c.want {
			t.Errorf("TitleIn(%s, %s, %q) = %q, want %q", c.lang, c.kind, c.title, got, c.want)
		}
	}
}
