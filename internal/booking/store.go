package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/reminder"
	"emr/internal/settings"
	"emr/internal/user"
)

// The statuses of a booking request.
const (
	Held      = "held"      // its code is out; it lapses at held_until
	Requested = "requested" // the code came back; the desk decides
	Accepted  = "accepted"  // an appointment was booked from it
	Declined  = "declined"  // the desk said no, with a reason
)

// MaxSearchDays bounds one slot search.
const MaxSearchDays = 14

// Store keeps the booking requests and computes free slots.
type Store struct {
	DB           *database.DB
	Loc          *time.Location
	Appointments *appointment.Store
	Patients     *patient.Store
	Codes        *reminder.Service
	Now          func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

// occupying is the condition of a request that holds its doctor's time at $N.
const occupying = `(status = 'requested' OR (status = 'held' AND held_until > $%d))`

// Occupied is the appointment store's hook, asked under the doctor's calendar lock before a
// booking takes the doctor's [start, end): a request whose code came back (the desk decides
// it) refuses, booking.slot_held; a hold whose code has not come back yields — it lapses now,
// audited, and its code's return is told the time is gone (Confirm) — so that the desk, with a
// patient in front of it, never waits out someone's ten minutes. (A patient's own booking or
// move never reaches a hold: both offer only the slots no hold takes.)
func (s *Store) Occupied(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time) error {
	return s.occupied(ctx, tx, doctorID, start, end, true)
}

// occupied is Occupied; a hold whose code is out yields when yield is set, else refuses too
// (an online hold's own check: one patient's hold never lapses another's).
func (s *Store) occupied(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time, yield bool) error {
	now := s.now()
	overlap := `doctor_id = $1 AND starts_at < $2 AND starts_at > $3 AND ends_at > $4`
	args := []any{doctorID, end.UTC(), start.UTC().Add(-MaxSlot * time.Minute), start.UTC()}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM booking_requests WHERE `+overlap+` AND status = 'requested' LIMIT 1`, args...).Scan(&id)
	if err == nil {
		return apperr.Conflict("booking.slot_held")
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("check online bookings: %w", err)
	}
	holds, err := database.Column[int64](tx.QueryContext(ctx, `SELECT id FROM booking_requests WHERE `+overlap+` AND status = 'held' AND held_until > $5`, append(args, now)...))
	if err != nil {
		return fmt.Errorf("check online holds: %w", err)
	}
	if len(holds) > 0 && !yield {
		return apperr.Conflict("booking.slot_held")
	}
	for _, h := range holds {
		if _, err := tx.ExecContext(ctx, `UPDATE booking_requests SET held_until = $1, updated_at = $1, version = version + 1 WHERE id = $2`, now, h); err != nil {
			return fmt.Errorf("release a hold: %w", err)
		}
		e := audit.Event{At: now, ActorName: "appointment book", Action: "booking.hold_released", EntityType: "booking",
			EntityID: strconv.FormatInt(h, 10), Outcome: audit.Success, Detail: "a hold whose code had not come back gave its time to a booking"}
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

// held lists the held and requested bookings of the doctors overlapping [from, to).
func (s *Store) held(ctx context.Context, q database.Querier, doctors []int64, from, to time.Time) ([]Interval, error) {
	if len(doctors) == 0 {
		return nil, nil
	}
	in, args := database.InIDs(q, "doctor_id", doctors, 4)
	rows, err := q.QueryContext(ctx, `SELECT doctor_id, starts_at, ends_at FROM booking_requests WHERE `+in+` AND starts_at < $1
		AND starts_at > $2 AND `+fmt.Sprintf(occupying, 3), append([]any{to.UTC(), from.UTC().Add(-MaxSlot * time.Minute), s.now()}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("read online bookings: %w", err)
	}
	defer rows.Close()
	var out []Interval
	for rows.Next() {
		var iv Interval
		if err := rows.Scan(&iv.DoctorID, &iv.Start, &iv.End); err != nil {
			return nil, err
		}
		out = append(out, iv)
	}
	return out, rows.Err()
}

// Option is a doctor the public page offers.
type Option struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Specialty string  `json:"specialty"`
	Offers    []Offer `json:"offers"`
}

// Options is what the public page starts from.
type Options struct {
	Enabled   bool     `json:"enabled"`
	Clinic    string   `json:"clinic"`
	Doctors   []Option `json:"doctors"`
	Types     []string `json:"visit_types"`
	Channels  []string `json:"channels"`
	AheadDays int      `json:"ahead_days"`
	Today     string   `json:"today"`
	// TimeZone is the clinic's zone by its IANA name ("" when the server runs in the machine's
	// zone without one): slots carry their day and time on the clinic's clock either way.
	TimeZone string `json:"time_zone"`
}

// bookable is the enabled rules of active doctors (an account closed since drops out).
func (s *Store) bookable(ctx context.Context, q database.Querier, set Settings) (Settings, map[int64]string, error) {
	active, err := user.ActiveHolders(ctx, q, "doctor")
	if err != nil {
		return set, nil, err
	}
	names := map[int64]string{}
	for _, d := range active {
		names[d.ID] = d.Name
	}
	kept := []Doctor{}
	for _, d := range set.Doctors {
		if _, ok := names[d.DoctorID]; ok && d.Enabled && len(d.Offers) > 0 {
			kept = append(kept, d)
		}
	}
	set.Doctors = kept
	if !set.Enabled {
		set.Doctors = []Doctor{}
	}
	return set, names, nil
}

// Options lists the doctors who take online bookings (name and specialty only), the visit
// types offered and the channels a code may go by.
func (s *Store) Options(ctx context.Context) (Options, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return Options{}, err
	}
	set, names, err := s.bookable(ctx, s.DB, set)
	if err != nil {
		return Options{}, err
	}
	clinic, err := settings.ReadClinic(ctx, s.DB)
	if err != nil {
		return Options{}, err
	}
	msg, err := reminder.ReadSettings(ctx, s.DB)
	if err != nil {
		return Options{}, err
	}
	o := Options{Enabled: set.Enabled && len(set.Doctors) > 0, Clinic: clinic.Name, Doctors: []Option{}, Types: []string{}, Channels: []string{},
		AheadDays: set.AheadDays, Today: s.now().In(s.loc()).Format(time.DateOnly), TimeZone: zoneName(s.loc())}
	for _, d := range set.Doctors {
		o.Doctors = append(o.Doctors, Option{ID: d.DoctorID, Name: names[d.DoctorID], Specialty: d.Specialty, Offers: d.Offers})
		for _, of := range d.Offers {
			if !slices.Contains(o.Types, of.Type) {
				o.Types = append(o.Types, of.Type)
			}
		}
	}
	slices.SortFunc(o.Types, func(a, b string) int { return slices.Index(VisitTypes, a) - slices.Index(VisitTypes, b) })
	if msg.Email {
		o.Channels = append(o.Channels, mail.Email)
	}
	if msg.SMS {
		o.Channels = append(o.Channels, mail.SMS)
	}
	return o, nil
}

// cleanQuery checks a slot search.
func cleanQuery(q *Query) error {
	var v apperr.Validation
	if !slices.Contains(VisitTypes, q.Type) {
		v.Add("type", "validation.invalid_choice")
	}
	if _, err := time.Parse(time.DateOnly, q.From); err != nil {
		v.Add("from", "validation.date_format")
	}
	if q.Days == 0 {
		q.Days = 7
	}
	if q.Days < 1 || q.Days > MaxSearchDays {
		v.Add("days", "booking.bad_days")
	}
	if q.DoctorID < 0 {
		v.Add("doctor_id", "validation.invalid_choice")
	}
	return v.Err()
}

// Slots lists the free slots of q: one doctor's, or every offering doctor's (q.DoctorID 0).
func (s *Store) Slots(ctx context.Context, q Query) ([]Slot, error) {
	if err := cleanQuery(&q); err != nil {
		return nil, err
	}
	set, err := s.rules(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	var doctors []int64
	for _, d := range set.Doctors {
		if (q.DoctorID == 0 || d.DoctorID == q.DoctorID) && d.slotMinutes(q.Type) > 0 {
			doctors = append(doctors, d.DoctorID)
		}
	}
	if len(doctors) == 0 {
		return []Slot{}, nil
	}
	from, _ := time.ParseInLocation(time.DateOnly, q.From, s.loc())
	to := from.AddDate(0, 0, q.Days)
	taken, err := s.taken(ctx, s.DB, doctors, from, to, nil)
	if err != nil {
		return nil, err
	}
	free := FreeSlots(set, q, s.loc(), s.now(), taken)
	if q.DoctorID == 0 {
		free = oncePerTime(free)
	}
	return free, nil
}

// oncePerTime keeps, of slots sorted by start then doctor, the first free doctor's slot of each
// time: "any doctor" is a time to choose, and the hold names that doctor (up to 50 doctors'
// copies of every time made the answer fifty times as long, for a page that showed each once).
func oncePerTime(slots []Slot) []Slot {
	out := slots[:0]
	for i, s := range slots {
		if i == 0 || !s.StartsAt.Equal(slots[i-1].StartsAt) {
			out = append(out, s)
		}
	}
	return out
}

// HoldInput is what the public page sends to hold a slot.
type HoldInput struct {
	DoctorID  int64  `json:"doctor_id"`
	Type      string `json:"type"`
	StartsAt  string `json:"starts_at"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	BirthDate string `json:"birth_date"`
	Channel   string `json:"channel"`
	Address   string `json:"address"`
	Language  string `json:"language"`
}

// Hold is a held slot as the page is told of it.
type Hold struct {
	ID        int64     `json:"id"`
	ExpiresAt time.Time `json:"expires_at"`
	Channel   string    `json:"channel"`
}

func name(v *apperr.Validation, field, s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		v.Add(field, "validation.required")
	case utf8.RuneCountInString(s) > 100:
		v.Add(field, "validation.too_long")
	case strings.ContainsFunc(s, unicode.IsControl) || strings.ContainsAny(s, "<>"):
		v.Add(field, "booking.bad_name")
	}
	return s
}

// clean checks the input against today (the clinic's date); it returns the parsed start.
func (in *HoldInput) clean(today string) (time.Time, error) {
	var v apperr.Validation
	in.FirstName, in.LastName = name(&v, "first_name", in.FirstName), name(&v, "last_name", in.LastName)
	in.BirthDate = strings.TrimSpace(in.BirthDate)
	if in.BirthDate == "" {
		v.Add("birth_date", "validation.required")
	} else if b, err := time.Parse(time.DateOnly, in.BirthDate); err != nil {
		v.Add("birth_date", "validation.date_format")
	} else if in.BirthDate > today {
		v.Add("birth_date", "booking.birth_in_future")
	} else if t, _ := time.Parse(time.DateOnly, today); b.Before(t.AddDate(-patient.MaxAge, 0, 0)) {
		v.Add("birth_date", "booking.birth_too_early")
	}
	if in.DoctorID <= 0 {
		v.Add("doctor_id", "validation.required")
	}
	if !slices.Contains(VisitTypes, in.Type) {
		v.Add("type", "validation.invalid_choice")
	}
	var start time.Time
	if t, err := time.Parse(time.RFC3339, in.StartsAt); err != nil {
		v.Add("starts_at", "validation.datetime_format")
	} else {
		start = t.UTC()
	}
	if in.Channel != mail.Email && in.Channel != mail.SMS {
		v.Add("channel", "validation.invalid_choice")
	} else if to, err := reminder.NormaliseAddress(in.Channel, in.Address); err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			v.Add("address", ae.Key)
		} else {
			return start, err
		}
	} else {
		in.Address = to
	}
	if !slices.Contains(i18n.Languages, in.Language) {
		in.Language = ""
	}
	return start, v.Err()
}

// The requests still open (a live hold, or a request the desk has not answered, for a time
// still to come) one contact and one network may have (the attacker's review, M2): past
// them a new hold is refused, 429 booking.too_many_open, before any code is sent, so that
// nobody fills the calendar with requests the desk must decline one by one.
const (
	OpenPerContact = 3
	OpenPerNetwork = 10
	// OpenPerSite is the cap for an IPv6 /48 (auth.AddressSite), whose many /64s would
	// otherwise each have OpenPerNetwork.
	OpenPerSite = 30
)

// capOpen refuses a hold when the contact or the network already has its open requests.
// It reads outside the code's transaction: concurrent holds from one network may pass it
// together, within the code's own throttles (20 an hour per network, 5 per address).
func (s *Store) capOpen(ctx context.Context, contact, network, site string) error {
	now := s.now()
	caps := []struct {
		query, value string
		limit        int
	}{
		{`SELECT COUNT(*) FROM booking_requests WHERE contact_key = $1 AND starts_at > $2
			AND (status = 'requested' OR (status = 'held' AND held_until > $2))`, contact, OpenPerContact},
		{`SELECT COUNT(*) FROM booking_requests WHERE client_block = $1 AND starts_at > $2
			AND (status = 'requested' OR (status = 'held' AND held_until > $2))`, network, OpenPerNetwork},
	}
	if site != "" {
		caps = append(caps, struct {
			query, value string
			limit        int
		}{`SELECT COUNT(*) FROM booking_requests WHERE client_site = $1 AND starts_at > $2
			AND (status = 'requested' OR (status = 'held' AND held_until > $2))`, site, OpenPerSite})
	}
	for _, c := range caps {
		var n int
		err := s.DB.QueryRowContext(ctx, c.query, c.value, now).Scan(&n)
		if err != nil {
			return fmt.Errorf("count open requests: %w", err)
		}
		if n >= c.limit {
			// Retry-After: a hold lapses within the code's lifetime; a request waits for the desk.
			return &apperr.Error{Kind: apperr.KindThrottled, Key: "booking.too_many_open", RetryAfterSeconds: int(reminder.CodeLifetime / time.Second)}
		}
	}
	return nil
}

// Hold checks in, then sends the one-time code and holds the slot in the code's own
// transaction, under the doctor's calendar lock: an appointment or another live hold over
// the time refuses it (booking.slot_gone), so two patients can never hold one slot.
func (s *Store) Hold(ctx context.Context, client string, in HoldInput) (Hold, error) {
	now := s.now()
	start, err := in.clean(now.In(s.loc()).Format(time.DateOnly))
	if err != nil {
		return Hold{}, err
	}
	set, err := s.rules(ctx, s.DB)
	if err != nil {
		return Hold{}, err
	}
	d := set.doctor(in.DoctorID)
	if d == nil || !offers(set, in.DoctorID, in.Type, start, s.loc(), now) {
		return Hold{}, apperr.Conflict("booking.slot_gone")
	}
	contact, network := reminder.ContactKey(in.Channel, in.Address), auth.AddressBlock(client)
	site := auth.AddressSite(network)
	if err := s.capOpen(ctx, contact, network, site); err != nil {
		return Hold{}, err
	}
	minutes := d.slotMinutes(in.Type)
	end := start.Add(time.Duration(minutes) * time.Minute)
	expires := now.Add(reminder.CodeLifetime)
	var id int64
	_, err = s.Codes.SendCode(ctx, reminder.CodeRequest{Purpose: reminder.CodeBook, Channel: in.Channel, Address: in.Address,
		Language: in.Language, Client: client}, func(tx *sql.Tx, codeID int64) error {
		if err := s.Appointments.LockDoctor(ctx, tx, in.DoctorID); err != nil {
			return err
		}
		if err := s.Appointments.CheckFree(ctx, tx, in.DoctorID, start, end); err != nil {
			return apperr.Conflict("booking.slot_gone")
		}
		if err := s.occupied(ctx, tx, in.DoctorID, start, end, false); err != nil {
			return apperr.Conflict("booking.slot_gone")
		}
		return tx.QueryRowContext(ctx, `INSERT INTO booking_requests (code_id, doctor_id, visit_type, starts_at, ends_at, duration_minutes,
			first_name, last_name, birth_date, channel, address, language, status, held_until, created_at, updated_at, client_block, contact_key, client_site)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'held', $13, $14, $14, $15, $16, $17) RETURNING id`,
			codeID, in.DoctorID, in.Type, start, end, minutes, in.FirstName, in.LastName, in.BirthDate, in.Channel, in.Address,
			in.Language, expires, now, network, contact, site).Scan(&id)
	})
	if err != nil {
		return Hold{}, err
	}
	return Hold{ID: id, ExpiresAt: expires, Channel: in.Channel}, nil
}

// Done is what the page is told once the code came back.
type Done struct {
	Status     string    `json:"status"` // requested, or booked
	StartsAt   time.Time `json:"starts_at"`
	DoctorName string    `json:"doctor_name"`
}

// Confirm checks the hold's code; right, the hold becomes a request for the desk, or — when
// the clinic books directly and the details match one patient beyond doubt — an appointment
// booked at once, in the code's transaction. Audited with the code as the credential.
func (s *Store) Confirm(ctx context.Context, e audit.Event, id int64, code string) (Done, error) {
	var codeID int64
	err := s.DB.QueryRowContext(ctx, `SELECT code_id FROM booking_requests WHERE id = $1 AND status = 'held'`, id).Scan(&codeID)
	if errors.Is(err, sql.ErrNoRows) {
		return Done{}, apperr.Conflict("reminder.code_expired")
	}
	if err != nil {
		return Done{}, fmt.Errorf("read a hold: %w", err)
	}
	var done Done
	_, err = s.Codes.CheckCode(ctx, codeID, reminder.CodeBook, code, func(tx *sql.Tx, c reminder.Code) error {
		r, err := readRequest(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Status != Held {
			return apperr.Conflict("reminder.code_expired")
		}
		// A hold the desk's booking took (Occupied) lapsed before its code came back.
		var until time.Time
		if err := tx.QueryRowContext(ctx, `SELECT held_until FROM booking_requests WHERE id = $1`, id).Scan(&until); err != nil {
			return fmt.Errorf("read a hold: %w", err)
		}
		if !until.After(s.now()) {
			return apperr.Conflict("booking.slot_gone")
		}
		set, err := ReadSettings(ctx, tx)
		if err != nil {
			return err
		}
		matches, err := r.matches(ctx, tx)
		if err != nil {
			return err
		}
		var sure int64
		if len(matches) > 0 && matches[0].Sure && (len(matches) == 1 || !matches[1].Sure) {
			sure = matches[0].ID
		}
		now := s.now()
		e.ActorID, e.ActorName, e.Credential = 0, "online booking", "code:"+strconv.FormatInt(codeID, 10)
		status, action := Requested, "booking.request"
		if set.AutoBook && sure != 0 {
			status, action = Accepted, "booking.book"
		}
		if _, err := tx.ExecContext(ctx, `UPDATE booking_requests SET status = $1, match_id = $2, updated_at = $3, version = version + 1
			WHERE id = $4`, status, nullID(sure), now, id); err != nil {
			return fmt.Errorf("request a booking: %w", err)
		}
		done = Done{Status: Requested, StartsAt: r.StartsAt, DoctorName: r.DoctorName}
		if status == Accepted {
			a, err := s.book(ctx, tx, e, r, sure)
			if err != nil {
				return err
			}
			done.Status = appointment.Booked
			e.PatientID = a.PatientID
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = action, "booking", strconv.FormatInt(id, 10), audit.Success, now
		e.Detail = "online booking " + status
		return audit.Record(ctx, tx, e)
	})
	return done, err
}

// book books r's appointment for the patient (r no longer occupies: its status has moved).
func (s *Store) book(ctx context.Context, tx *sql.Tx, e audit.Event, r Request, patientID int64) (appointment.Appointment, error) {
	a, err := s.Appointments.CreateIn(ctx, tx, e, appointment.Input{PatientID: patientID, DoctorID: r.DoctorID,
		StartsAt: r.StartsAt.Format(time.RFC3339), DurationMinutes: r.DurationMinutes, Type: r.VisitType, Reason: "", Remarks: "online booking"})
	if err != nil {
		return a, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE booking_requests SET appointment_id = $1, match_id = $2 WHERE id = $3`, a.ID, patientID, r.ID)
	if err != nil {
		return a, fmt.Errorf("link a booking: %w", err)
	}
	return a, nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// zoneName is loc's IANA name, or "" for the machine's unnamed zone.
func zoneName(loc *time.Location) string {
	if n := loc.String(); n != "Local" {
		return n
	}
	return ""
}
