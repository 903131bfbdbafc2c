package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/reminder"
	"emr/internal/settings"
	"emr/internal/user"
)

// Request is a booking request as the desk sees it.
type Request struct {
	ID              int64     `json:"id"`
	DoctorID        int64     `json:"doctor_id"`
	DoctorName      string    `json:"doctor_name"`
	VisitType       string    `json:"visit_type"`
	StartsAt        time.Time `json:"starts_at"`
	DurationMinutes int       `json:"duration_minutes"`
	FirstName       string    `json:"first_name"`
	LastName        string    `json:"last_name"`
	BirthDate       string    `json:"birth_date"`
	Channel         string    `json:"channel"`
	Address         string    `json:"address"`
	Language        string    `json:"language"`
	Status          string    `json:"status"`
	MatchID         *int64    `json:"match_id"`
	AppointmentID   *int64    `json:"appointment_id"`
	DeclineReason   string    `json:"decline_reason"`
	CreatedAt       time.Time `json:"created_at"`
	Version         int       `json:"version"`
	// Matches are the registered patients the details may belong to (a requested one's).
	Matches []patient.Match `json:"matches"`
}

const requestColumns = `id, doctor_id, visit_type, starts_at, duration_minutes, first_name, last_name, birth_date, channel, address,
	language, status, match_id, appointment_id, decline_reason, created_at, version`

func scanRequest(row interface{ Scan(...any) error }) (Request, error) {
	var r Request
	var match, appt sql.NullInt64
	err := row.Scan(&r.ID, &r.DoctorID, &r.VisitType, &r.StartsAt, &r.DurationMinutes, &r.FirstName, &r.LastName, &r.BirthDate,
		&r.Channel, &r.Address, &r.Language, &r.Status, &match, &appt, &r.DeclineReason, &r.CreatedAt, &r.Version)
	if match.Valid {
		r.MatchID = &match.Int64
	}
	if appt.Valid {
		r.AppointmentID = &appt.Int64
	}
	r.StartsAt, r.CreatedAt = r.StartsAt.UTC(), r.CreatedAt.UTC()
	r.Matches = []patient.Match{}
	return r, err
}

func readRequest(ctx context.Context, q database.Querier, id int64) (Request, error) {
	r, err := scanRequest(q.QueryRowContext(ctx, `SELECT `+requestColumns+` FROM booking_requests WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.NotFound("booking.not_found")
	}
	if err != nil {
		return r, fmt.Errorf("read a booking request: %w", err)
	}
	names, err := user.Names(ctx, q, []int64{r.DoctorID})
	r.DoctorName = names[r.DoctorID]
	return r, err
}

func (r Request) matches(ctx context.Context, q database.Querier) ([]patient.Match, error) {
	phone, email := "", ""
	if r.Channel == mail.SMS {
		phone = r.Address
	} else {
		email = r.Address
	}
	clinic, err := settings.ReadClinic(ctx, q)
	if err != nil {
		return nil, err
	}
	return patient.Matches(ctx, q, r.FirstName, r.LastName, r.BirthDate, phone, email, clinic.CallingCode())
}

// Requests lists the requests waiting for the desk (status requested), soonest first, with
// the patients each may be; from and to (YYYY-MM-DD, optional) bound their days.
func (s *Store) Requests(ctx context.Context, from, to string) ([]Request, error) {
	lo, hi := time.Time{}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	var v apperr.Validation
	for _, b := range []struct {
		field, day string
		at         *time.Time
		next       int
	}{{"from", from, &lo, 0}, {"to", to, &hi, 1}} {
		if b.day == "" {
			continue
		}
		t, err := time.ParseInLocation(time.DateOnly, b.day, s.loc())
		if err != nil {
			v.Add(b.field, "validation.date_format")
			continue
		}
		*b.at = t.AddDate(0, 0, b.next)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT `+requestColumns+` FROM booking_requests WHERE status = 'requested'
		AND starts_at >= $1 AND starts_at < $2 ORDER BY starts_at, id LIMIT 200`, lo.UTC(), hi.UTC())
	if err != nil {
		return nil, fmt.Errorf("list booking requests: %w", err)
	}
	list := []Request{}
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ids := make([]int64, len(list))
	for i, r := range list {
		ids[i] = r.DoctorID
	}
	names, err := user.Names(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].DoctorName = names[list[i].DoctorID]
		if list[i].Matches, err = list[i].matches(ctx, s.DB); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// AcceptInput is the desk's acceptance: the patient chosen, or a new one registered from
// the request's details (as the desk completed them).
type AcceptInput struct {
	Version   int            `json:"version"`
	PatientID int64          `json:"patient_id"`
	Register  *patient.Input `json:"register"`
	// DistinctFrom are the possible duplicates the desk saw and judged other people.
	DistinctFrom []int64 `json:"distinct_from"`
}

// decide moves a requested request of version to status in tx; anything else is a conflict.
func decide(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, status, reason string, now time.Time) (Request, error) {
	r, err := readRequest(ctx, tx, id)
	if err != nil {
		return r, err
	}
	if r.Status != Requested {
		return r, apperr.Conflict("booking.not_requested")
	}
	if r.Version != version {
		return r, apperr.Conflict("error.conflict")
	}
	res, err := tx.ExecContext(ctx, `UPDATE booking_requests SET status = $1, decline_reason = $2, decided_by = $3, updated_at = $4,
		version = version + 1 WHERE id = $5 AND version = $6`, status, reason, e.Actor(), now, id, version)
	if err != nil {
		return r, fmt.Errorf("decide a booking request: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return r, apperr.Conflict("error.conflict")
	}
	return r, nil
}

// Accept books the request's appointment for the chosen patient, or for a new patient
// registered from in.Register, in one transaction; the appointment's own hook sends the
// patient the usual confirmation. A slot taken meanwhile, or a patient's possible
// duplicate not yet judged, refuses and changes nothing.
func (s *Store) Accept(ctx context.Context, e audit.Event, id int64, in AcceptInput) (Request, error) {
	if (in.PatientID > 0) == (in.Register != nil) {
		var v apperr.Validation
		v.Add("patient_id", "booking.choose_patient")
		return Request{}, v.Err()
	}
	var out Request
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		r, err := decide(ctx, tx, e, id, in.Version, Accepted, "", now)
		if err != nil {
			return err
		}
		patientID := in.PatientID
		if in.Register != nil {
			p, err := s.Patients.CreateIn(ctx, tx, e, *in.Register, in.DistinctFrom)
			if err != nil {
				return err
			}
			patientID = p.ID
		}
		a, err := s.book(ctx, tx, e, r, patientID)
		if err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "booking.accept", "booking", strconv.FormatInt(id, 10), audit.Success, now
		e.PatientID, e.Detail = patientID, "appointment "+strconv.FormatInt(a.ID, 10)
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		out, err = readRequest(ctx, tx, id)
		return err
	})
	return out, err
}

// TopicDeclined is the outbox topic of the message telling a patient the clinic declined
// their online booking (topic_id: the request).
const TopicDeclined = reminder.TopicBookingDeclined

// Decline refuses the request with a reason (kept for the desk, never sent) and tells the
// patient, by the channel their code went, that the clinic could not take the booking.
func (s *Store) Decline(ctx context.Context, e audit.Event, id int64, version int, reason string) (Request, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Request{}, err
	}
	var out Request
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		r, err := decide(ctx, tx, e, id, version, Declined, reason, now)
		if err != nil {
			return err
		}
		if err := s.tellDeclined(ctx, tx, r, now); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "booking.decline", "booking", strconv.FormatInt(id, 10), audit.Success, now
		e.Detail = "reason given"
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		out, err = readRequest(ctx, tx, id)
		return err
	})
	return out, err
}

func (s *Store) tellDeclined(ctx context.Context, tx *sql.Tx, r Request, now time.Time) error {
	msg, clinic, lang, err := reminder.Addressing(ctx, tx, r.Language)
	if err != nil {
		return err
	}
	local := r.StartsAt.In(s.loc())
	when := reminder.DateIn(lang, local) + " " + local.Format("15:04")
	m := mail.Message{Topic: TopicDeclined, TopicID: r.ID, Channel: r.Channel, To: r.Address, ExpiresAt: r.StartsAt}
	var notTexted string
	if r.Channel == mail.SMS {
		// Texted to the number in the international form the code's check gave
		// (SMSCountry), never as stored: the number checked is the number texted. A number
		// the clinic no longer texts (its countries changed) is not texted at all.
		if to, err := reminder.SMSCountry(r.Address, clinic.CallingCode(), msg.SMSCountries); err == nil {
			m.To = to
		} else {
			notTexted = "the number is not of a country the clinic texts"
		}
		m.Body = i18n.T(lang, "message.sms.booking_declined", clinic.Name, when)
	} else {
		m.Subject = i18n.T(lang, "message.subject.booking_declined", clinic.Name)
		m.Body = i18n.T(lang, "message.email.booking_declined", clinic.Name, when)
	}
	if s.Codes != nil && s.Codes.CanSend != nil && !s.Codes.CanSend(r.Channel) {
		m.Unsendable = map[string]string{mail.Email: "no mail server is set (--smtp-url)", mail.SMS: "no SMS gateway is set (--sms-url)"}[r.Channel]
	}
	if notTexted != "" {
		m.Unsendable = notTexted
	}
	return mail.Enqueue(ctx, tx, now, m)
}
