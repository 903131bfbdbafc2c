package prescription

import (
	"testing"
	"time"
)

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

// TestStillTaken: whether a line prescribed some days ago is still being taken, as a
// referral's current medicines and the duplicate-therapy check both count it (ADR 25, and the
// pharmacist's review of 2026-11-25: a finished course is no duplicate, an unknown one counts
// for 30 days).
func TestStillTaken(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		duration  string
		daysAgo   int
		taken     bool
		knownEnds bool
	}{
		{"30 days", 10, true, true},     // a month's course, ten days in
		{"7 days", 10, false, true},     // a week's course, finished
		{"7 days", 6, true, true},       // its last day
		{"2 недели", 13, true, true},    // Russian weeks
		{"1 tháng", 31, false, true},    // a Vietnamese month, over
		{"", 20, true, false},           // no duration: 30 days
		{"as needed", 30, false, false}, // and no longer
	} {
		end, known := supplyEnd(now.AddDate(0, 0, -c.daysAgo), supplyDays(c.duration))
		if taken := now.Before(end); taken != c.taken || known != c.knownEnds {
			t.Errorf("%q, %d days ago: taken %v (known %v), want %v (%v)", c.duration, c.daysAgo, taken, known, c.taken, c.knownEnds)
		}
	}
}
