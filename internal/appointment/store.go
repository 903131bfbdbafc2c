package appointment

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// Store reads and writes appointments and their visits. Loc is the clinic's time zone:
// it decides which day's queue an appointment stands in.
type Store struct {
	DB    *database.DB
	Loc   *time.Location
	Codes *catalogue.Store
	Now   func() time.Time
	// OrdersChanged, when set, is told the tests a visit's form orders at every save, inside
	// the save's transaction (the results domain keeps its lab orders in step; it may refuse).
	OrdersChanged func(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, orders []Order) error
	// Changed, when set, is told every booking (old nil), edit and status change inside its
	// transaction: the patient's messages (confirmation, change, cancellation, reminders)
	// are written or withdrawn with it. It may refuse, and then nothing changes.
	Changed func(ctx context.Context, tx *sql.Tx, old *Appointment, a Appointment) error
	// Occupied, when set, is asked inside the booking's transaction (the doctor's calendar
	// locked) whether anything else holds the doctor's time [start, end): an online booking
	// held or requested (ADR 43). An error refuses the booking.
	Occupied func(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time) error
}

// occupied asks Occupied, when set.
func (s *Store) occupied(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time) error {
	if s.Occupied == nil {
		return nil
	}
	return s.Occupied(ctx, tx, doctorID, start, end)
}

// changed tells Changed the appointment id as it now stands in tx.
func (s *Store) changed(ctx context.Context, tx *sql.Tx, old *Appointment, id int64) error {
	if s.Changed == nil {
		return nil
	}
	a, err := get(ctx, tx, id)
	if err != nil {
		return err
	}
	return s.Changed(ctx, tx, old, a)
}

// syncOrders tells OrdersChanged the visit's orders.
func (s *Store) syncOrders(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, orders []Order) error {
	if s.OrdersChanged == nil {
		return nil
	}
	return s.OrdersChanged(ctx, tx, e, a, orders)
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

// Location is the clinic's time zone.
func (s *Store) Location() *time.Location { return s.loc() }

// Today is the clinic's current date, YYYY-MM-DD.
func (s *Store) Today() string { return s.now().In(s.loc()).Format(time.DateOnly) }

// appointmentColumns are an appointment's columns and its visit's status, with "" for the
// visit's content; appointmentColumnsWithContent reads the content too. The content is a
// visit's largest column, and only a history listing diagnoses needs it.
const (
	columnsHead = `a.id, a.patient_id, a.doctor_id, a.starts_at, a.duration_minutes, a.day, a.queue_number, a.type,
	a.reason, a.remarks, a.status, a.cancel_reason, a.follow_up_of, a.confirmed_at, COALESCE(v.status, ''), `
	columnsTail                   = `, a.created_at, a.updated_at, a.version`
	appointmentColumns            = columnsHead + `''` + columnsTail
	appointmentColumnsWithContent = columnsHead + `COALESCE(v.content, '')` + columnsTail
)

const appointmentFrom = ` FROM appointments a LEFT JOIN visits v ON v.appointment_id = a.id`

// scanAppointment reads one row of appointmentColumns; content is the visit's JSON ("" when
// there is no visit yet). The patient and the doctor's name come from their owners (named).
func scanAppointment(row interface{ Scan(...any) error }) (a Appointment, content string, err error) {
	var followUp sql.NullInt64
	err = row.Scan(&a.ID, &a.PatientID, &a.DoctorID, &a.StartsAt, &a.DurationMinutes, &a.Day, &a.QueueNumber, &a.Type,
		&a.Reason, &a.Remarks, &a.Status, &a.CancelReason, &followUp, &a.ConfirmedAt, &a.VisitStatus, &content, &a.CreatedAt, &a.UpdatedAt, &a.Version)
	if followUp.Valid {
		a.FollowUpOf = &followUp.Int64
	}
	a.StartsAt = a.StartsAt.UTC()
	if a.ConfirmedAt != nil {
		t := a.ConfirmedAt.UTC()
		a.ConfirmedAt = &t
	}
	return a, content, err
}

// named fills in the appointments' patients and doctors' names, read from the patient and
// user stores (two reads for the whole list).
func named(ctx context.Context, q database.Querier, list []Appointment) error {
	if len(list) == 0 {
		return nil
	}
	patients, doctors := make([]int64, len(list)), make([]int64, len(list))
	for i, a := range list {
		patients[i], doctors[i] = a.PatientID, a.DoctorID
	}
	refs, err := patient.Summaries(ctx, q, patients)
	if err != nil {
		return err
	}
	names, err := user.Names(ctx, q, doctors)
	if err != nil {
		return err
	}
	for i := range list {
		p := refs[list[i].PatientID]
		list[i].Patient = PatientRef{MRN: p.MRN, FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName, Sex: p.Sex, BirthDate: p.BirthDate}
		list[i].DoctorName = names[list[i].DoctorID]
	}
	return nil
}

func get(ctx context.Context, q database.Querier, id int64) (Appointment, error) {
	a, _, err := scanAppointment(q.QueryRowContext(ctx, `SELECT `+appointmentColumns+appointmentFrom+` WHERE a.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, apperr.NotFound("appointment.not_found")
	}
	if err != nil {
		return a, fmt.Errorf("read appointment: %w", err)
	}
	one := []Appointment{a}
	err = named(ctx, q, one)
	return one[0], err
}

// GetIn returns one appointment, read in q (a caller's transaction).
func GetIn(ctx context.Context, q database.Querier, id int64) (Appointment, error) {
	return get(ctx, q, id)
}

// UpcomingOf lists the ids of the patient's booked appointments starting after now.
func UpcomingOf(ctx context.Context, q database.Querier, patientID int64, now time.Time) ([]int64, error) {
	return database.Column[int64](q.QueryContext(ctx,
		`SELECT id FROM appointments WHERE patient_id = $1 AND status = 'booked' AND starts_at > $2 ORDER BY id`, patientID, now.UTC()))
}

// Get returns one appointment.
func (s *Store) Get(ctx context.Context, id int64) (Appointment, error) { return get(ctx, s.DB, id) }

// lockDoctor serialises the writes that book a doctor's time, so that two concurrent
// bookings cannot both pass the overlap check. SQLite transactions already take the write
// lock when they begin (database.Open sets _txlock=immediate).
func (s *Store) lockDoctor(ctx context.Context, tx *sql.Tx, doctorID int64) error {
	if s.DB.Engine != database.Postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(1, $1::int)`, doctorID); err != nil {
		return fmt.Errorf("lock doctor's calendar: %w", err)
	}
	return nil
}

// LockDoctor takes the doctor's calendar lock in tx, as every booking does: another
// writer of the doctor's time (an online booking's hold) checks and writes under it too.
func (s *Store) LockDoctor(ctx context.Context, tx *sql.Tx, doctorID int64) error {
	return s.lockDoctor(ctx, tx, doctorID)
}

// CheckFree refuses, as a double booking, when an active appointment of the doctor overlaps
// [start, end); the caller holds the doctor's calendar lock (LockDoctor).
func (s *Store) CheckFree(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time) error {
	other, err := overlapping(ctx, tx, doctorID, start, end, 0)
	if err != nil || other == nil {
		return err
	}
	return s.doubleBooked(ctx, tx, doctorID, other)
}

// Busy is a stretch of a doctor's time an active appointment holds.
type Busy struct {
	DoctorID int64
	Start    time.Time
	End      time.Time
}

// BusyBetween lists the active (not cancelled, not no-show) appointments of the doctors that
// overlap [from, to), by start: one read of the doctors' index ranges (doctor_id, starts_at).
func BusyBetween(ctx context.Context, q database.Querier, doctors []int64, from, to time.Time) ([]Busy, error) {
	if len(doctors) == 0 {
		return nil, nil
	}
	in, args := database.InIDs(q, "doctor_id", doctors, 3)
	rows, err := q.QueryContext(ctx, `SELECT doctor_id, starts_at, ends_at FROM appointments WHERE `+in+` AND starts_at < $1
		AND starts_at > $2 AND status NOT IN ('cancelled', 'no-show') ORDER BY starts_at`, append([]any{to.UTC(), from.UTC().Add(-MaxDuration * time.Minute)}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("read busy times: %w", err)
	}
	defer rows.Close()
	var out []Busy
	for rows.Next() {
		var b Busy
		if err := rows.Scan(&b.DoctorID, &b.Start, &b.End); err != nil {
			return nil, err
		}
		b.Start, b.End = b.Start.UTC(), b.End.UTC()
		if b.End.After(from) {
			out = append(out, b)
		}
	}
	return out, rows.Err()
}

// overlapping returns the doctor's active appointment that overlaps [start, end), if any.
// Cancelled and no-show appointments free their time.
func overlapping(ctx context.Context, tx *sql.Tx, doctorID int64, start, end time.Time, except int64) (*Appointment, error) {
	var a Appointment
	// The lower bound on starts_at keeps this an index range: nothing longer than
	// MaxDuration can reach into [start, end) from further back.
	err := tx.QueryRowContext(ctx, `SELECT id, starts_at, duration_minutes, queue_number FROM appointments
		WHERE doctor_id = $1 AND starts_at < $2 AND starts_at > $3 AND ends_at > $4 AND status NOT IN ('cancelled', 'no-show')
		AND id <> $5 ORDER BY starts_at LIMIT 1`,
		doctorID, end, start.Add(-MaxDuration*time.Minute), start, except).Scan(&a.ID, &a.StartsAt, &a.DurationMinutes, &a.QueueNumber)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check double booking: %w", err)
	}
	return &a, nil
}

func (s *Store) doubleBooked(ctx context.Context, tx *sql.Tx, doctorID int64, other *Appointment) error {
	names, err := user.Names(ctx, tx, []int64{doctorID})
	if err != nil {
		return fmt.Errorf("read doctor: %w", err)
	}
	name := names[doctorID]
	from := other.StartsAt.In(s.loc())
	to := from.Add(time.Duration(other.DurationMinutes) * time.Minute)
	return apperr.Conflict("appointment.double_booked", name, from.Format("2006-01-02 15:04"), to.Format("15:04"))
}

// checkDoctor refuses a doctor who is not an active account holding the doctor role.
func checkDoctor(ctx context.Context, tx *sql.Tx, doctorID int64) error {
	ok, err := user.ActiveWithRole(ctx, tx, doctorID, "doctor")
	if err != nil {
		return fmt.Errorf("check doctor: %w", err)
	}
	if !ok {
		var v apperr.Validation
		v.Add("doctor_id", "appointment.not_a_doctor")
		return v.Err()
	}
	return nil
}

func nextQueueNumber(ctx context.Context, tx *sql.Tx, day string, doctorID int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(queue_number), 0) + 1 FROM appointments WHERE day = $1 AND doctor_id = $2`,
		day, doctorID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("next queue number: %w", err)
	}
	return n, nil
}

// book inserts an appointment in tx after the doctor and overlap checks; it audits too.
func (s *Store) book(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, start time.Time, followUpOf any) (int64, error) {
	if err := s.lockDoctor(ctx, tx, in.DoctorID); err != nil {
		return 0, err
	}
	if err := checkDoctor(ctx, tx, in.DoctorID); err != nil {
		return 0, err
	}
	if err := patient.CheckActive(ctx, tx, s.DB.Engine, in.PatientID); err != nil {
		return 0, err
	}
	end := start.Add(time.Duration(in.DurationMinutes) * time.Minute)
	if other, err := overlapping(ctx, tx, in.DoctorID, start, end, 0); err != nil {
		return 0, err
	} else if other != nil {
		return 0, s.doubleBooked(ctx, tx, in.DoctorID, other)
	}
	if err := s.occupied(ctx, tx, in.DoctorID, start, end); err != nil {
		return 0, err
	}
	day := start.In(s.loc()).Format(time.DateOnly)
	queue, err := nextQueueNumber(ctx, tx, day, in.DoctorID)
	if err != nil {
		return 0, err
	}
	now := s.now()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO appointments (patient_id, doctor_id, starts_at, ends_at, duration_minutes, day,
		queue_number, type, reason, remarks, status, follow_up_of, created_at, created_by, updated_at, updated_by, version)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'booked', $11, $12, $13, $12, $13, 1) RETURNING id`,
		in.PatientID, in.DoctorID, start, end, in.DurationMinutes, day, queue, in.Type, in.Reason, in.Remarks, followUpOf,
		now, e.Actor()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert appointment: %w", err)
	}
	if err := keep(ctx, tx, false, id); err != nil {
		return 0, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "appointment.create", "appointment", strconv.FormatInt(id, 10), audit.Success, now
	e.PatientID = in.PatientID
	e.Detail = "patient " + strconv.FormatInt(in.PatientID, 10)
	if followUpOf != nil {
		e.Detail += fmt.Sprintf(", follow-up of %v", followUpOf)
	}
	if err := audit.Record(ctx, tx, e); err != nil {
		return 0, err
	}
	return id, s.changed(ctx, tx, nil, id)
}

// Create books an appointment; a doctor's overlapping active appointment makes it a
// conflict (checked inside the write transaction).
func (s *Store) Create(ctx context.Context, e audit.Event, in Input) (Appointment, error) {
	var a Appointment
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = s.CreateIn(ctx, tx, e, in)
		return err
	})
	return a, err
}

// CreateIn is Create inside the caller's transaction (a FHIR transaction Bundle writes the
// patient, the visit and the appointment in one).
func (s *Store) CreateIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input) (Appointment, error) {
	start, err := in.Clean(s.loc(), s.Today())
	if err != nil {
		return Appointment{}, err
	}
	id, err := s.book(ctx, tx, e, in, start, nil)
	if err != nil {
		return Appointment{}, err
	}
	return get(ctx, tx, id)
}

// Arrivals are the status changes that bring a visit booked now (a walk-in) to each status
// it may be registered in.
var Arrivals = map[string][]Action{Arrived: {Arrive}, InProgress: {Arrive, Start}, Completed: {Arrive, Start, Complete}}

// CreateVisitIn registers, inside tx, a visit the patient has come to (a walk-in): booked
// as Create books, then taken through Arrivals[status], each change audited as its own.
func (s *Store) CreateVisitIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, status string) (Appointment, error) {
	steps, ok := Arrivals[status]
	if !ok {
		return Appointment{}, apperr.Invalid("validation.invalid_choice")
	}
	a, err := s.CreateIn(ctx, tx, e, in)
	for _, act := range steps {
		if err != nil {
			return Appointment{}, err
		}
		if err = s.setStatus(ctx, tx, e, a, act, ""); err == nil {
			a, err = get(ctx, tx, a.ID)
		}
	}
	return a, err
}

// RecordVisitIn registers, inside tx, a visit that has already happened and is recorded
// afterwards (a finished Encounter another system sends): booked on its own day — any day,
// as long as it began by now — then arrived and started, each change audited as its own, under
// the book's other rules (an active doctor and patient, no double booking, its length). It
// is left in progress so that what was measured at it is written under the visit's own rules
// (vitals are taken while the visit is open); the caller completes it (TransitionIn with
// Complete) in the same transaction, as the doctor would.
func (s *Store) RecordVisitIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input) (Appointment, error) {
	start, err := in.Clean(s.loc(), "") // no earliest day: it is over
	if err != nil {
		return Appointment{}, err
	}
	if start.After(s.now()) {
		var v apperr.Validation
		v.Add("starts_at", "appointment.not_over")
		return Appointment{}, v.Err()
	}
	id, err := s.book(ctx, tx, e, in, start, nil)
	if err != nil {
		return Appointment{}, err
	}
	a, err := get(ctx, tx, id)
	for _, act := range []Action{Arrive, Start} {
		if err != nil {
			return Appointment{}, err
		}
		if err = s.setStatus(ctx, tx, e, a, act, ""); err == nil {
			a, err = get(ctx, tx, a.ID)
		}
	}
	return a, err
}

// Update reschedules or edits a booked or arrived appointment (the patient stays); a new
// day or doctor puts it at the end of that queue.
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, version int, in Input) (Appointment, error) {
	var a Appointment
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = s.UpdateIn(ctx, tx, e, id, version, in)
		return err
	})
	return a, err
}

// UpdateIn is Update inside the caller's transaction.
func (s *Store) UpdateIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, in Input) (Appointment, error) {
	err := func() error {
		old, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		in.PatientID = old.PatientID
		today := s.Today()
		if old.Day < today {
			today = old.Day // an appointment of an earlier day keeps its day valid
		}
		start, err := in.Clean(s.loc(), today)
		if err != nil {
			return err
		}
		if old.Version != version {
			return apperr.Conflict("error.conflict")
		}
		if old.Status != Booked && old.Status != Arrived {
			return apperr.Conflict("appointment.cannot_edit")
		}
		if err := s.lockDoctor(ctx, tx, in.DoctorID); err != nil {
			return err
		}
		if in.DoctorID != old.DoctorID {
			if err := checkDoctor(ctx, tx, in.DoctorID); err != nil {
				return err
			}
		}
		end := start.Add(time.Duration(in.DurationMinutes) * time.Minute)
		if other, err := overlapping(ctx, tx, in.DoctorID, start, end, id); err != nil {
			return err
		} else if other != nil {
			return s.doubleBooked(ctx, tx, in.DoctorID, other)
		}
		if err := s.occupied(ctx, tx, in.DoctorID, start, end); err != nil {
			return err
		}
		day := start.In(s.loc()).Format(time.DateOnly)
		queue := old.QueueNumber
		if day != old.Day || in.DoctorID != old.DoctorID {
			if queue, err = nextQueueNumber(ctx, tx, day, in.DoctorID); err != nil {
				return err
			}
		}
		now := s.now()
		confirmed := any(old.ConfirmedAt)
		if old.ConfirmedAt == nil || !start.Equal(old.StartsAt) || in.DoctorID != old.DoctorID {
			confirmed = nil // moved: what the patient confirmed no longer holds
		}
		// Only the row as it was read: a change committed since (the desk's arrival, another
		// save, a patient's move) is a conflict, never overwritten.
		res, err := tx.ExecContext(ctx, `UPDATE appointments SET doctor_id = $1, starts_at = $2, ends_at = $3, duration_minutes = $4,
			day = $5, queue_number = $6, type = $7, reason = $8, remarks = $9, updated_at = $10, updated_by = $11, version = version + 1,
			confirmed_at = $13 WHERE id = $12 AND version = $14 AND status = $15`, in.DoctorID, start, end, in.DurationMinutes, day, queue, in.Type, in.Reason, in.Remarks, now, e.Actor(), id, confirmed,
			old.Version, old.Status)
		if err != nil {
			return fmt.Errorf("update appointment: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return apperr.Conflict("error.conflict")
		}
		if err := keep(ctx, tx, false, id); err != nil {
			return err
		}
		var changed []string
		for name, diff := range map[string]bool{"doctor_id": in.DoctorID != old.DoctorID, "starts_at": !start.Equal(old.StartsAt),
			"duration_minutes": in.DurationMinutes != old.DurationMinutes, "type": in.Type != old.Type, "reason": in.Reason != old.Reason,
			"remarks": in.Remarks != old.Remarks} {
			if diff {
				changed = append(changed, name)
			}
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "appointment.update", "appointment", strconv.FormatInt(id, 10), audit.Success, now
		e.PatientID = old.PatientID
		slices.Sort(changed)
		for i, name := range changed {
			changed[i] = "audit.field." + name
		}
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.changed", Terms: changed})
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		return s.changed(ctx, tx, &old, id)
	}()
	if err != nil {
		return Appointment{}, err
	}
	return get(ctx, tx, id)
}

// Transition performs a status change. version, when not 0, must be the stored one.
func (s *Store) Transition(ctx context.Context, e audit.Event, id int64, act Action, version int, reason string) (Appointment, error) {
	var a Appointment
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = s.TransitionIn(ctx, tx, e, id, act, version, reason)
		return err
	})
	return a, err
}

// TransitionIn is Transition inside the caller's transaction.
func (s *Store) TransitionIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, act Action, version int, reason string) (Appointment, error) {
	reason = strings.TrimSpace(reason)
	if act.To == Cancelled {
		var err error
		if reason, err = apperr.Reason(reason); err != nil {
			return Appointment{}, err
		}
	}
	old, err := get(ctx, tx, id)
	if err != nil {
		return Appointment{}, err
	}
	if version != 0 && version != old.Version {
		return Appointment{}, apperr.Conflict("error.conflict")
	}
	if !act.Allowed(old.Status) {
		return Appointment{}, apperr.Conflict(act.NotAllowedKey)
	}
	if err := s.setStatus(ctx, tx, e, old, act, reason); err != nil {
		return Appointment{}, err
	}
	return get(ctx, tx, id)
}

func (s *Store) setStatus(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, act Action, reason string) error {
	now := s.now()
	res, err := tx.ExecContext(ctx, `UPDATE appointments SET status = $1, cancel_reason = $2, updated_at = $3, updated_by = $4,
		version = version + 1 WHERE id = $5 AND version = $6`, act.To, reason, now, e.Actor(), a.ID, a.Version)
	if err != nil {
		return fmt.Errorf("change status: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Conflict("error.conflict")
	}
	if err := keep(ctx, tx, false, a.ID); err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "appointment."+act.Name, "appointment", strconv.FormatInt(a.ID, 10), audit.Success, now
	e.PatientID = a.PatientID
	e.Detail = a.Status + " → " + act.To
	if reason != "" {
		e.Detail += ", reason given"
	}
	if err := audit.Record(ctx, tx, e); err != nil {
		return err
	}
	return s.changed(ctx, tx, &a, a.ID)
}

// ConfirmByPatientIn records, inside tx, that the patient confirmed a booked appointment
// (from a message's link), audited as e's (the patient as actor). One confirmed already
// stays so; any other status than booked is a conflict.
func (s *Store) ConfirmByPatientIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64) (Appointment, error) {
	old, err := get(ctx, tx, id)
	if err != nil {
		return Appointment{}, err
	}
	if old.Status != Booked {
		return Appointment{}, apperr.Conflict("appointment.cannot_confirm")
	}
	if old.ConfirmedAt != nil {
		return old, nil
	}
	now := s.now()
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET confirmed_at = $1, updated_at = $2, version = version + 1 WHERE id = $3 AND version = $4`,
		now, now, id, old.Version); err != nil {
		return Appointment{}, fmt.Errorf("confirm appointment: %w", err)
	}
	if err := keep(ctx, tx, false, id); err != nil {
		return Appointment{}, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "appointment.confirm", "appointment", strconv.FormatInt(id, 10), audit.Success, now
	e.PatientID = old.PatientID
	e.Detail = "confirmed by the patient"
	if err := audit.Record(ctx, tx, e); err != nil {
		return Appointment{}, err
	}
	return get(ctx, tx, id)
}

// Reorder sets the order of a doctor's queue for a day. ids must be exactly that queue's
// appointments; if the queue changed meanwhile it is a conflict and nothing changes.
func (s *Store) Reorder(ctx context.Context, e audit.Event, day string, doctorID int64, ids []int64) error {
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		var v apperr.Validation
		v.Add("date", "validation.date_format")
		return v.Err()
	}
	if doctorID <= 0 || len(ids) == 0 || len(ids) > 500 {
		return apperr.Invalid("appointment.bad_queue")
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockDoctor(ctx, tx, doctorID); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM appointments WHERE day = $1 AND doctor_id = $2`, day, doctorID)
		if err != nil {
			return fmt.Errorf("read queue: %w", err)
		}
		have := map[int64]bool{}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			have[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		seen := map[int64]bool{}
		for _, id := range ids {
			if !have[id] || seen[id] {
				return apperr.Conflict("appointment.queue_changed")
			}
			seen[id] = true
		}
		if len(seen) != len(have) {
			return apperr.Conflict("appointment.queue_changed")
		}
		now := s.now()
		var moved []int64
		for i, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE appointments SET queue_number = $1, version = version + 1, updated_at = $2,
				updated_by = $3 WHERE id = $4 AND queue_number <> $1`, i+1, now, e.Actor(), id)
			if err != nil {
				return fmt.Errorf("reorder queue: %w", err)
			}
			if n, _ := res.RowsAffected(); n > 0 {
				moved = append(moved, id)
			}
		}
		if err := keep(ctx, tx, false, moved...); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "appointment.reorder", "queue", fmt.Sprintf("%s/%d", day, doctorID), audit.Success, now
		return audit.Record(ctx, tx, e)
	})
}

// Doctor is a user who can be booked.
type Doctor = user.Named

// Doctors lists the active accounts holding the doctor role, by name.
func (s *Store) Doctors(ctx context.Context) ([]Doctor, error) {
	return user.ActiveHolders(ctx, s.DB, "doctor")
}
