// Package booking is the clinic's online booking (ADR 43): the hours each doctor takes
// bookings for each visit type, the free slots computed from them, and the public page's
// requests — a slot held while its one-time code is out, then requested (or booked, by the
// clinic's setting) — which the desk accepts, matched to a patient, or declines.
package booking

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/settings"
	"emr/internal/user"
)

// Slot lengths bound a visit type's slot, in minutes.
const (
	MinSlot = appointment.MinDuration
	MaxSlot = appointment.MaxDuration
)

// VisitTypes are the appointment types a patient may book online.
var VisitTypes = []string{"new", "follow-up"}

// Span is a stretch of a day, "HH:MM" to "HH:MM" in the clinic's time.
type Span struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Day is a weekday's bookable hours: open to close, less the breaks. Closed when Open is "".
type Day struct {
	Open   string `json:"open"`
	Close  string `json:"close"`
	Breaks []Span `json:"breaks"`
}

// DaysOff is a stretch of whole days (inclusive, YYYY-MM-DD) nothing is booked on.
type DaysOff struct {
	From string `json:"from"`
	To   string `json:"to"`
	Note string `json:"note"`
}

// Offer is a visit type a doctor takes online, with its slot length.
type Offer struct {
	Type        string `json:"type"`
	SlotMinutes int    `json:"slot_minutes"`
}

// Doctor is one doctor's online booking: what they offer, their week (Monday first) and
// their days off.
type Doctor struct {
	DoctorID  int64     `json:"doctor_id"`
	Enabled   bool      `json:"enabled"`
	Specialty string    `json:"specialty"`
	Offers    []Offer   `json:"offers"`
	Week      [7]Day    `json:"week"`
	DaysOff   []DaysOff `json:"days_off"`
}

// Settings are the clinic's online booking rules (an administrator's).
type Settings struct {
	Enabled bool `json:"enabled"`
	// AutoBook books a request whose patient matched one record beyond doubt at once;
	// otherwise (and always for a new or doubtful patient) it waits for the desk.
	AutoBook bool `json:"auto_book"`
	// AheadDays is how many days ahead a slot may be booked (today is day 0).
	AheadDays int `json:"ahead_days"`
	// NoticeMinutes is how soon a slot may start at the earliest.
	NoticeMinutes int       `json:"notice_minutes"`
	Holidays      []DaysOff `json:"holidays"`
	Doctors       []Doctor  `json:"doctors"`
	Version       int       `json:"version"`
}

const settingsKey = "online_booking"

// Defaults are the settings until an administrator saves others: booking off.
func Defaults() Settings {
	return Settings{AheadDays: 30, NoticeMinutes: 120, Holidays: []DaysOff{}, Doctors: []Doctor{}}
}

// ReadSettings returns the clinic's online booking settings (Defaults until saved).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	s := Defaults()
	version, err := settings.Read(ctx, q, settingsKey, &s)
	s.Version = version
	return s, err
}

// clock is "HH:MM" as minutes of the day.
func clock(s string) (int, bool) {
	if len(s) != 5 {
		return 0, false
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

func validDaysOff(v *apperr.Validation, field string, list []DaysOff) []DaysOff {
	if list == nil {
		list = []DaysOff{}
	}
	if len(list) > 200 {
		v.Add(field, "validation.too_many")
	}
	for i := range list {
		d := &list[i]
		d.Note = strings.TrimSpace(d.Note)
		if d.To == "" {
			d.To = d.From
		}
		f, err1 := time.Parse(time.DateOnly, d.From)
		t, err2 := time.Parse(time.DateOnly, d.To)
		switch {
		case err1 != nil || err2 != nil:
			v.Add(field, "validation.date_format")
		case t.Before(f):
			v.Add(field, "booking.days_off_order")
		case utf8.RuneCountInString(d.Note) > 200:
			v.Add(field, "validation.too_long")
		}
	}
	return list
}

// cleanDay checks a weekday: open before close, breaks inside the hours, in order, apart.
func cleanDay(v *apperr.Validation, field string, d *Day) {
	if d.Breaks == nil {
		d.Breaks = []Span{}
	}
	if d.Open == "" && d.Close == "" {
		if len(d.Breaks) > 0 {
			v.Add(field, "booking.break_outside_hours")
		}
		return
	}
	open, ok1 := clock(d.Open)
	closing, ok2 := clock(d.Close)
	if !ok1 || !ok2 {
		v.Add(field, "validation.time_format")
		return
	}
	if closing <= open {
		v.Add(field, "booking.hours_order")
		return
	}
	if len(d.Breaks) > 10 {
		v.Add(field, "validation.too_many")
		return
	}
	slices.SortFunc(d.Breaks, func(a, b Span) int { return strings.Compare(a.From, b.From) })
	last := open
	for _, b := range d.Breaks {
		from, ok1 := clock(b.From)
		to, ok2 := clock(b.To)
		switch {
		case !ok1 || !ok2:
			v.Add(field, "validation.time_format")
			return
		case to <= from:
			v.Add(field, "booking.hours_order")
			return
		case from <= open || to >= closing:
			v.Add(field, "booking.break_outside_hours")
			return
		case from < last:
			v.Add(field, "booking.breaks_overlap")
			return
		}
		last = to
	}
}

// clean checks the settings; doctors is who holds the doctor role (a doctor's rules name one).
func (s *Settings) clean(doctors map[int64]bool) error {
	var v apperr.Validation
	if s.AheadDays < 1 || s.AheadDays > 365 {
		v.Add("ahead_days", "booking.bad_ahead_days")
	}
	if s.NoticeMinutes < 0 || s.NoticeMinutes > 14*24*60 {
		v.Add("notice_minutes", "booking.bad_notice")
	}
	s.Holidays = validDaysOff(&v, "holidays", s.Holidays)
	if s.Doctors == nil {
		s.Doctors = []Doctor{}
	}
	seen := map[int64]bool{}
	for i := range s.Doctors {
		d := &s.Doctors[i]
		field := "doctors." + itoa(i)
		if !doctors[d.DoctorID] {
			v.Add(field+".doctor_id", "appointment.not_a_doctor")
		} else if seen[d.DoctorID] {
			v.Add(field+".doctor_id", "booking.doctor_twice")
		}
		seen[d.DoctorID] = true
		d.Specialty = strings.TrimSpace(d.Specialty)
		if utf8.RuneCountInString(d.Specialty) > 100 {
			v.Add(field+".specialty", "validation.too_long")
		}
		if d.Offers == nil {
			d.Offers = []Offer{}
		}
		types := map[string]bool{}
		for j, o := range d.Offers {
			of := field + ".offers." + itoa(j)
			if !slices.Contains(VisitTypes, o.Type) {
				v.Add(of+".type", "validation.invalid_choice")
			} else if types[o.Type] {
				v.Add(of+".type", "booking.type_twice")
			}
			types[o.Type] = true
			if o.SlotMinutes < MinSlot || o.SlotMinutes > MaxSlot {
				v.Add(of+".slot_minutes", "booking.bad_slot")
			}
		}
		if d.Enabled && len(d.Offers) == 0 {
			v.Add(field+".offers", "booking.no_offers")
		}
		for w := range d.Week {
			cleanDay(&v, field+".week."+itoa(w), &d.Week[w])
		}
		d.DaysOff = validDaysOff(&v, field+".days_off", d.DaysOff)
	}
	return v.Err()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// SaveSettings stores the settings if in.Version is still the stored one.
func SaveSettings(ctx context.Context, db *database.DB, e audit.Event, in Settings) (Settings, error) {
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		list, err := user.ActiveHolders(ctx, tx, "doctor")
		if err != nil {
			return err
		}
		doctors := map[int64]bool{}
		for _, d := range list {
			doctors[d.ID] = true
		}
		if err := in.clean(doctors); err != nil {
			return err
		}
		e.Action = "settings.online_booking"
		stored := in
		stored.Version = 0
		version, err := settings.Save(ctx, tx, e, settingsKey, stored, in.Version)
		in.Version = version
		return err
	})
	return in, err
}

// doctor returns the enabled doctor's rules, or nil.
func (s Settings) doctor(id int64) *Doctor {
	for i := range s.Doctors {
		if s.Doctors[i].DoctorID == id && s.Doctors[i].Enabled {
			return &s.Doctors[i]
		}
	}
	return nil
}

// slotMinutes is the doctor's slot for a visit type, 0 when not offered.
func (d Doctor) slotMinutes(visitType string) int {
	for _, o := range d.Offers {
		if o.Type == visitType {
			return o.SlotMinutes
		}
	}
	return 0
}

func off(list []DaysOff, day string) bool {
	for _, d := range list {
		if d.From <= day && day <= d.To {
			return true
		}
	}
	return false
}
