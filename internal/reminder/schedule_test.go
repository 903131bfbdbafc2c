package reminder_test

import (
	"testing"
	"time"

	"emr/internal/reminder"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestSchedule: when each reminder goes, across time zones and a daylight-saving change,
// at both edges of the quiet hours, and never late.
func TestSchedule(t *testing.T) {
	set := reminder.Defaults() // 24 h and 2 h before; quiet 21:00–08:00
	at := func(loc *time.Location, s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name, zone, start, now string
		quietStart, quietEnd   string
		offsets                []int
		want                   []string // local times, or "dropped"
	}{
		{"Ho Chi Minh City, a morning appointment: the day before, and 2 h before", "Asia/Ho_Chi_Minh", "2026-12-03 10:30", "2026-12-01 09:00", "", "", nil,
			[]string{"2026-12-02 10:30", "2026-12-03 08:30"}},
		{"an early appointment: 2 h before falls in the quiet hours and moves to their end", "Asia/Ho_Chi_Minh", "2026-12-03 09:00", "2026-12-01 09:00", "", "", nil,
			[]string{"2026-12-02 09:00", "2026-12-03 08:00"}},
		{"quiet hours' end edge: 08:00 itself is not quiet", "Asia/Ho_Chi_Minh", "2026-12-03 10:00", "2026-12-01 09:00", "", "", nil,
			[]string{"2026-12-02 10:00", "2026-12-03 08:00"}},
		{"quiet hours' start edge: 20:59 goes, 21:00 moves to the morning", "Asia/Ho_Chi_Minh", "2026-12-03 22:59", "2026-12-01 09:00", "", "", []int{24 * 60, 2 * 60, 119},
			[]string{"2026-12-02 22:59 → 2026-12-03 08:00", "2026-12-03 20:59", "2026-12-03 21:00 → dropped"}},
		{"an appointment at 08:00: the 2 h reminder moved to the end of quiet hours is not before it: dropped with a reason", "Asia/Ho_Chi_Minh", "2026-12-03 08:00", "2026-12-01 09:00", "", "", []int{2 * 60},
			[]string{"dropped"}},
		{"booked less than 2 h ahead: no reminder at all, none late", "Asia/Ho_Chi_Minh", "2026-12-03 15:00", "2026-12-03 13:30", "", "", nil,
			nil},
		{"booked 3 h ahead: the 2 h one only", "Asia/Ho_Chi_Minh", "2026-12-03 15:00", "2026-12-03 12:00", "", "", nil,
			[]string{"2026-12-03 13:00"}},
		{"Berlin, the spring change (29 March 2026, 02:00 → 03:00): 24 h before is 23 real hours' wall clock apart", "Europe/Berlin", "2026-03-29 10:00", "2026-03-20 09:00", "", "", nil,
			[]string{"2026-03-28 09:00", "2026-03-29 08:00"}},
		{"New York, the autumn change (1 November 2026): 24 h is a day and an hour of wall clock", "America/New_York", "2026-11-01 12:00", "2026-10-25 09:00", "", "", nil,
			[]string{"2026-10-31 13:00", "2026-11-01 10:00"}},
		{"New York, a reminder in the night before the change waits for 08:00 after it", "America/New_York", "2026-11-01 09:00", "2026-10-25 09:00", "", "", []int{8 * 60},
			[]string{"2026-11-01 08:00"}},
		{"no quiet hours (equal ends): at 03:00 as computed", "Europe/Berlin", "2026-12-03 05:00", "2026-12-01 09:00", "00:00", "00:00", []int{2 * 60},
			[]string{"2026-12-03 03:00"}},
		{"daytime quiet hours (12:00–14:00)", "Europe/Berlin", "2026-12-03 15:00", "2026-12-01 09:00", "12:00", "14:00", []int{2 * 60},
			[]string{"2026-12-03 14:00"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			loc := zone(t, c.zone)
			s := set
			if c.quietStart != "" {
				s.QuietStart, s.QuietEnd = c.quietStart, c.quietEnd
			}
			if c.offsets != nil {
				s.Offsets = c.offsets
			}
			got := reminder.Schedule(s, loc, at(loc, c.start).UTC(), at(loc, c.now).UTC())
			var lines []string
			for _, d := range got {
				if d.Dropped != "" {
					lines = append(lines, "dropped")
					continue
				}
				lines = append(lines, d.At.In(loc).Format("2006-01-02 15:04"))
			}
			want := make([]string, 0, len(c.want))
			for _, w := range c.want {
				// "computed → result" documents a moved one; the result is what counts.
				if i := len(w) - len("dropped"); i > 0 && w[i:] == "dropped" {
					w = "dropped"
				} else if j := indexArrow(w); j >= 0 {
					w = w[j+len(" → "):]
				}
				want = append(want, w)
			}
			if len(lines) != len(want) {
				t.Fatalf("got %v, want %v", lines, want)
			}
			for i := range want {
				if lines[i] != want[i] {
					t.Fatalf("got %v, want %v", lines, want)
				}
			}
		})
	}
}

func indexArrow(s string) int {
	for i := 0; i+len(" → ") <= len(s); i++ {
		if s[i:i+len(" → ")] == " → " {
			return i
		}
	}
	return -1
}
