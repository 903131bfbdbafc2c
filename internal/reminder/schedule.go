package reminder

import (
	"fmt"
	"time"
)

// Due is one reminder's time, or why none goes.
type Due struct {
	Offset int       // minutes before the appointment
	At     time.Time // when it goes (UTC); zero when dropped or skipped
	// Dropped says why none goes although its time was still ahead: quiet hours until the
	// appointment. Skipped reminders (their time already past at booking) are not listed.
	Dropped string
}

// quiet reports whether t (in loc) falls in the quiet hours [start, end) given in minutes of
// the day, and when they end.
func quiet(t time.Time, loc *time.Location, start, end int) (bool, time.Time) {
	if start == end {
		return false, time.Time{}
	}
	local := t.In(loc)
	m := local.Hour()*60 + local.Minute()
	y, mo, d := local.Date()
	var in bool
	var endDay int
	switch {
	case start < end: // e.g. 12:00–14:00
		in, endDay = m >= start && m < end, d
	case m >= start: // e.g. 21:00–08:00, evening part: ends the next morning
		in, endDay = true, d+1
	default:
		in, endDay = m < end, d
	}
	if !in {
		return false, time.Time{}
	}
	return true, time.Date(y, mo, endDay, end/60, end%60, 0, 0, loc)
}

// Schedule is when each of the settings' reminders for an appointment starting at start goes,
// written now: at start less its offset, moved to the end of quiet hours (in the clinic's
// zone loc) when it falls in them, dropped with a reason when that is not before the
// appointment, and left out when its time has passed already (booked less than the offset
// ahead: no reminder late).
func Schedule(s Settings, loc *time.Location, start, now time.Time) []Due {
	qs, _ := clock(s.QuietStart)
	qe, _ := clock(s.QuietEnd)
	var out []Due
	for _, off := range s.Offsets {
		at := start.Add(-time.Duration(off) * time.Minute)
		if !at.After(now) {
			continue
		}
		if in, end := quiet(at, loc, qs, qe); in {
			if !end.Before(start) {
				out = append(out, Due{Offset: off, Dropped: fmt.Sprintf("quiet hours %s–%s until the appointment", s.QuietStart, s.QuietEnd)})
				continue
			}
			at = end
		}
		if len(out) > 0 && out[len(out)-1].At.Equal(at.UTC()) {
			continue // two moved to the same end of quiet hours: one reminder
		}
		out = append(out, Due{Offset: off, At: at.UTC()})
	}
	return out
}
