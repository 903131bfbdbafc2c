package prescription

import "testing"

// TestSupplyDays: a line's duration as prescribers write it in the four languages, read as
// the days it supplies (0: cannot be told, so a recent prescription counts for 30 days).
func TestSupplyDays(t *testing.T) {
	for duration, want := range map[string]int{
		"7 days": 7, "7 day": 7, "10d": 10, "2 weeks": 14, "3 wk": 21, "1 month": 30, "3 months": 90,
		"10 дней": 10, "5 дня": 5, "1 день": 1, "7 суток": 7, "2 недели": 14, "1 мес": 30, "3 месяца": 90,
		"14天": 14, "7日": 7, "2周": 14, "1个月": 30, "3月": 90,
		"7 ngày": 7, "2 tuần": 14, "1 tháng": 30,
		"": 0, "until review": 0, "lifelong": 0, "as needed": 0,
	} {
		if got := supplyDays(duration); got != want {
			t.Errorf("%q: %d days, want %d", duration, got, want)
		}
	}
}
