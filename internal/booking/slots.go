package booking

import (
	"slices"
	"time"
)

// Slot is a free time a patient may book.
type Slot struct {
	DoctorID int64     `json:"doctor_id"`
	StartsAt time.Time `json:"starts_at"`
	Minutes  int       `json:"duration_minutes"`
	// Day and Time are the start on the clinic's calendar and clock (YYYY-MM-DD, HH:MM): the
	// page shows them as they are, wherever the patient's phone is.
	Day  string `json:"day"`
	Time string `json:"time"`
}

// Interval is a stretch of a doctor's time something holds (an appointment, a hold).
type Interval struct {
	DoctorID   int64
	Start, End time.Time
}

// Query is what a slot search asks: one doctor (0: any who offers the type), a visit type,
// and the days from From (YYYY-MM-DD, the clinic's) for Days days.
type Query struct {
	DoctorID int64
	Type     string
	From     string
	Days     int
}

// FreeSlots computes the free slots of q under the settings, in loc, at now: each offering
// doctor's weekday hours stepped by the type's slot from opening and from the end of each
// break, less the clinic's holidays and the doctor's days off, the days beyond AheadDays,
// the slots starting before now plus the notice, and every slot overlapping busy. Times
// follow the zone's rules: on a daylight-saving change a wall-clock time that does not exist
// is no slot, and a slot lasts its real minutes. Sorted by start, then doctor.
func FreeSlots(set Settings, q Query, loc *time.Location, now time.Time, busy []Interval) []Slot {
	today := now.In(loc).Format(time.DateOnly)
	first, err := time.ParseInLocation(time.DateOnly, q.From, loc)
	if err != nil {
		return []Slot{}
	}
	lastDay, _ := time.ParseInLocation(time.DateOnly, today, loc)
	lastDay = lastDay.AddDate(0, 0, set.AheadDays)
	earliest := now.Add(time.Duration(set.NoticeMinutes) * time.Minute)
	byDoctor := map[int64][]Interval{}
	for _, b := range busy {
		byDoctor[b.DoctorID] = append(byDoctor[b.DoctorID], b)
	}
	out := []Slot{}
	for _, d := range set.Doctors {
		if !d.Enabled || (q.DoctorID != 0 && d.DoctorID != q.DoctorID) {
			continue
		}
		minutes := d.slotMinutes(q.Type)
		if minutes == 0 {
			continue
		}
		length := time.Duration(minutes) * time.Minute
		taken := byDoctor[d.DoctorID]
		for i := 0; i < q.Days; i++ {
			date := first.AddDate(0, 0, i)
			day := date.Format(time.DateOnly)
			if day < today || date.After(lastDay) || off(set.Holidays, day) || off(d.DaysOff, day) {
				continue
			}
			rules := d.Week[(int(date.Weekday())+6)%7] // Monday first
			for _, seg := range segments(rules) {
				for m := seg[0]; m+minutes <= seg[1]; m += minutes {
					start := time.Date(date.Year(), date.Month(), date.Day(), m/60, m%60, 0, 0, loc)
					if local := start.In(loc); local.Hour()*60+local.Minute() != m || local.Day() != date.Day() {
						continue // skipped by a daylight-saving change
					}
					end := start.Add(length)
					if start.Before(earliest) || clashes(taken, start, end) {
						continue
					}
					out = append(out, Slot{DoctorID: d.DoctorID, StartsAt: start.UTC(), Minutes: minutes, Day: day, Time: start.In(loc).Format("15:04")})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Slot) int {
		if c := a.StartsAt.Compare(b.StartsAt); c != 0 {
			return c
		}
		return int(a.DoctorID - b.DoctorID)
	})
	return out
}

// segments are a day's working stretches in minutes: open to the first break, from each
// break's end to the next, the last to close.
func segments(d Day) [][2]int {
	open, ok1 := clock(d.Open)
	closing, ok2 := clock(d.Close)
	if !ok1 || !ok2 || closing <= open {
		return nil
	}
	var out [][2]int
	from := open
	for _, b := range d.Breaks {
		bf, _ := clock(b.From)
		bt, _ := clock(b.To)
		out = append(out, [2]int{from, bf})
		from = bt
	}
	return append(out, [2]int{from, closing})
}

func clashes(taken []Interval, start, end time.Time) bool {
	for _, t := range taken {
		if t.Start.Before(end) && start.Before(t.End) {
			return true
		}
	}
	return false
}

// offers reports whether the doctor's rules hold a slot of the type at start (a hold names
// one: it must be one the page could have shown, less what is taken).
func offers(set Settings, doctorID int64, visitType string, start time.Time, loc *time.Location, now time.Time) bool {
	day := start.In(loc).Format(time.DateOnly)
	for _, s := range FreeSlots(set, Query{DoctorID: doctorID, Type: visitType, From: day, Days: 1}, loc, now, nil) {
		if s.StartsAt.Equal(start) {
			return true
		}
	}
	return false
}
