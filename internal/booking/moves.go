package booking

import (
	"context"
	"time"

	"emr/internal/appointment"
	"emr/internal/database"
)

// A patient moves their own appointment (the portal's "change time") only to a time the
// clinic publishes online: its doctor's slots of its visit type, under the same rules as a
// new booking (hours, breaks, holidays, days off, notice, how far ahead), the appointment's
// own time counted free; it keeps its length, so only a visit that fits the type's slot moves. A clinic that takes no bookings online, or a doctor who takes none
// of that type, offers no move: the patient calls the clinic.

// Moves lists the free times appointment a may move to, from the clinic's day from for days days.
func (s *Store) Moves(ctx context.Context, a appointment.Appointment, from string, days int) ([]Slot, error) {
	set, err := s.published(ctx, s.DB, a)
	if err != nil || set == nil {
		return []Slot{}, err
	}
	q := Query{DoctorID: a.DoctorID, Type: a.Type, From: from, Days: days}
	if err := cleanQuery(&q); err != nil {
		return nil, err
	}
	first, _ := time.ParseInLocation(time.DateOnly, q.From, s.loc())
	taken, err := s.taken(ctx, s.DB, []int64{a.DoctorID}, first, first.AddDate(0, 0, q.Days), &a)
	if err != nil {
		return nil, err
	}
	return FreeSlots(*set, q, s.loc(), s.now(), taken), nil
}

// MayMove reports whether a may move to start (one of Moves, read on q: the caller's
// transaction, which holds the doctor's lock).
func (s *Store) MayMove(ctx context.Context, q database.Querier, a appointment.Appointment, start time.Time) (bool, error) {
	set, err := s.published(ctx, q, a)
	if err != nil || set == nil {
		return false, err
	}
	day := start.In(s.loc()).Format(time.DateOnly)
	first, _ := time.ParseInLocation(time.DateOnly, day, s.loc())
	taken, err := s.taken(ctx, q, []int64{a.DoctorID}, first, first.AddDate(0, 0, 1), &a)
	if err != nil {
		return false, err
	}
	for _, slot := range FreeSlots(*set, Query{DoctorID: a.DoctorID, Type: a.Type, From: day, Days: 1}, s.loc(), s.now(), taken) {
		if slot.StartsAt.Equal(start) {
			return true, nil
		}
	}
	return false, nil
}

// Movable is, read once for a list of visits, whether the clinic publishes times a visit's
// doctor takes its type online in slots it fits in (published).
func (s *Store) Movable(ctx context.Context) (func(appointment.Appointment) bool, error) {
	set, err := s.rules(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	return func(a appointment.Appointment) bool { return fits(set, a) }, nil
}

// published is the settings when a's doctor takes a's visit type online in slots a fits in
// (the visit keeps its length: one booked longer than the slot is moved at the desk), else nil.
func (s *Store) published(ctx context.Context, q database.Querier, a appointment.Appointment) (*Settings, error) {
	set, err := s.rules(ctx, q)
	if err != nil || !fits(set, a) {
		return nil, err
	}
	return &set, nil
}

// rules are the online booking's rules of the doctors who take bookings now (bookable).
func (s *Store) rules(ctx context.Context, q database.Querier) (Settings, error) {
	set, err := ReadSettings(ctx, q)
	if err != nil {
		return set, err
	}
	set, _, err = s.bookable(ctx, q, set)
	return set, err
}

// fits says whether set publishes a's doctor's times of a's type in slots a fits in.
func fits(set Settings, a appointment.Appointment) bool {
	d := set.doctor(a.DoctorID)
	return d != nil && d.slotMinutes(a.Type) > 0 && d.slotMinutes(a.Type) >= a.DurationMinutes
}

// taken is what holds the doctors' time in [from, to) — appointments, holds, requests — less
// own's time (an appointment moving within it), when own is not nil.
func (s *Store) taken(ctx context.Context, q database.Querier, doctors []int64, from, to time.Time, own *appointment.Appointment) ([]Interval, error) {
	busy, err := appointment.BusyBetween(ctx, q, doctors, from, to)
	if err != nil {
		return nil, err
	}
	out, err := s.held(ctx, q, doctors, from, to)
	if err != nil {
		return nil, err
	}
	for _, b := range busy {
		if own != nil && b.DoctorID == own.DoctorID && b.Start.Equal(own.StartsAt) && b.End.Equal(own.StartsAt.Add(time.Duration(own.DurationMinutes)*time.Minute)) {
			own = nil // its own time, once: free to move within
			continue
		}
		out = append(out, Interval{DoctorID: b.DoctorID, Start: b.Start, End: b.End})
	}
	return out, nil
}
