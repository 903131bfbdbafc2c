package document

import (
	"testing"
	"time"

	"emr/internal/prescription"
)

// TestMedicineLine: a paper's current medicine in each language (the pharmacist's review of
// the current-medicines list, m4) — here with its last issue and supply, elsewhere with its
// prescriber, a month in words, an unknown start said, the last confirmation.
func TestMedicineLine(t *testing.T) {
	issued := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	confirmed := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	here := prescription.Current{Text: "Warfarin 5 mg", Since: issued, Source: "here", SupplyUntil: "2026-12-28"}
	elsewhere := prescription.Current{Text: "Warfarin 5 mg", Source: "elsewhere", Prescriber: "Dr Minh", Started: "2019-03", Confirmed: &confirmed}
	otc := prescription.Current{Text: "Omeprazole 20 mg", Source: "otc"}
	for _, c := range []struct {
		lang string
		m    prescription.Current
		want string
	}{
		{"en", here, "Warfarin 5 mg (prescribed here, last 29 November 2026, supplied until 28 December 2026)"},
		{"en", elsewhere, "Warfarin 5 mg (prescribed elsewhere by Dr Minh, since March 2019, last confirmed 29 November 2026)"},
		{"en", otc, "Omeprazole 20 mg (over the counter, start not known)"},
		{"ru", elsewhere, "Warfarin 5 mg (назначен в другом учреждении — Dr Minh, с марта 2019 г., последнее подтверждение 29.11.2026)"},
		{"zh", elsewhere, "Warfarin 5 mg（外院开具：Dr Minh，自 2019年3月 起，最近确认 2026年11月29日）"},
		{"vi", otc, "Omeprazole 20 mg (thuốc không kê đơn, không rõ thời điểm bắt đầu)"},
		{"vi", elsewhere, "Warfarin 5 mg (kê ở nơi khác bởi Dr Minh, từ tháng 3 năm 2019, xác nhận gần nhất 29/11/2026)"},
	} {
		if got := medicineLine(c.lang, c.m, time.UTC); got != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.lang, got, c.want)
		}
	}
}
