package appointment

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

type storedVisit struct {
	exists  bool
	status  string
	content Content
	version int
}

func readVisit(ctx context.Context, tx *sql.Tx, id int64) (storedVisit, error) {
	var v storedVisit
	var content string
	err := tx.QueryRowContext(ctx, `SELECT status, content, version FROM visits WHERE appointment_id = $1`, id).Scan(&v.status, &content, &v.version)
	if errors.Is(err, sql.ErrNoRows) {
		return storedVisit{content: Content{Diagnoses: []Diagnosis{}, Orders: []Order{}}}, nil
	}
	if err != nil {
		return v, fmt.Errorf("read visit: %w", err)
	}
	v.exists = true
	if err := json.Unmarshal([]byte(content), &v.content); err != nil {
		return v, fmt.Errorf("visit %d content: %w", id, err)
	}
	return v, nil
}

// Visit returns an appointment's diagnosis form, with its amendments and follow-up; labels
// are in lang. An appointment without a saved form gives an empty one of version 0.
func (s *Store) Visit(ctx context.Context, id int64, lang string) (Visit, error) {
	var day string
	var patientID int64
	err := s.DB.QueryRowContext(ctx, `SELECT a.day, a.patient_id FROM appointments a WHERE a.id = $1`, id).Scan(&day, &patientID)
	if errors.Is(err, sql.ErrNoRows) {
		return Visit{}, apperr.NotFound("appointment.not_found")
	}
	if err != nil {
		return Visit{}, fmt.Errorf("read appointment: %w", err)
	}
	people, err := patient.Summaries(ctx, s.DB, []int64{patientID})
	if err != nil {
		return Visit{}, err
	}
	birth := people[patientID].BirthDate
	out := Visit{AppointmentID: id, Content: Content{Diagnoses: []Diagnosis{}, Orders: []Order{}}, Amendments: []Amendment{}}
	var content string
	var signedAt, updatedAt sql.NullTime
	var signedBy, updatedBy sql.NullInt64
	err = s.DB.QueryRowContext(ctx, `SELECT v.status, v.content, v.signed_at, v.signed_by, v.updated_at, v.updated_by, v.version
		FROM visits v WHERE v.appointment_id = $1`, id).Scan(&out.Status, &content, &signedAt, &signedBy, &updatedAt, &updatedBy, &out.Version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return out, fmt.Errorf("read visit: %w", err)
	default:
		if err := json.Unmarshal([]byte(content), &out.Content); err != nil {
			return out, fmt.Errorf("visit %d content: %w", id, err)
		}
		names, err := user.Names(ctx, s.DB, []int64{signedBy.Int64, updatedBy.Int64})
		if err != nil {
			return out, err
		}
		if signedAt.Valid {
			t := signedAt.Time.UTC()
			out.SignedAt, out.SignedBy = &t, names[signedBy.Int64]
		}
		if updatedAt.Valid {
			t := updatedAt.Time.UTC()
			out.UpdatedAt, out.UpdatedBy = &t, names[updatedBy.Int64]
		}
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT m.id, m.reason, m.previous, m.amended_at, COALESCE(m.amended_by, 0) FROM visit_amendments m
		WHERE m.appointment_id = $1 ORDER BY m.id`, id)
	if err != nil {
		return out, fmt.Errorf("read amendments: %w", err)
	}
	defer rows.Close()
	var codes []string
	for rows.Next() {
		var m Amendment
		var prev string
		if err := rows.Scan(&m.ID, &m.Reason, &prev, &m.AmendedAt, &m.amendedBy); err != nil {
			return out, err
		}
		if err := json.Unmarshal([]byte(prev), &m.Previous); err != nil {
			return out, fmt.Errorf("amendment %d: %w", m.ID, err)
		}
		m.AmendedAt = m.AmendedAt.UTC()
		for _, d := range m.Previous.Diagnoses {
			codes = append(codes, d.Code)
		}
		out.Amendments = append(out.Amendments, m)
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	rows.Close()
	if len(out.Amendments) > 0 {
		ids := make([]int64, len(out.Amendments))
		for i, m := range out.Amendments {
			ids[i] = m.amendedBy
		}
		names, err := user.Names(ctx, s.DB, ids)
		if err != nil {
			return out, err
		}
		for i := range out.Amendments {
			out.Amendments[i].AmendedBy = names[out.Amendments[i].amendedBy]
		}
	}
	for _, d := range out.Diagnoses {
		codes = append(codes, d.Code)
	}
	labels, err := s.Codes.Labels(ctx, s.DB, codes, lang)
	if err != nil {
		return out, err
	}
	labelDiagnoses(out.Diagnoses, labels)
	for i := range out.Amendments {
		labelDiagnoses(out.Amendments[i].Previous.Diagnoses, labels)
	}
	if len(out.Orders) > 0 {
		tests, err := s.Codes.LabTests(ctx, lang)
		if err != nil {
			return out, err
		}
		for i := range out.Orders {
			if j := slices.IndexFunc(tests, func(t catalogue.LabTest) bool { return t.Code == out.Orders[i].Code }); j >= 0 {
				out.Orders[i].Label = tests[j].Label
			}
		}
	}
	out.BMI = out.Vitals.BMI()
	out.VitalFlags = FlagVitals(out.Vitals, birth, day, lang)
	if months, ok := MonthsOld(birth, day); ok {
		out.VitalBands = VitalBandsAt(months, lang)
	} else {
		out.VitalBands = []VitalBand{}
	}
	var f FollowUp
	err = s.DB.QueryRowContext(ctx, `SELECT id, starts_at, status FROM appointments WHERE follow_up_of = $1`, id).Scan(&f.ID, &f.StartsAt, &f.Status)
	if err == nil {
		f.StartsAt = f.StartsAt.UTC()
		out.FollowUp = &f
	} else if !errors.Is(err, sql.ErrNoRows) {
		return out, fmt.Errorf("read follow-up: %w", err)
	}
	return out, nil
}

func (s *Store) cleanContent(ctx context.Context, tx *sql.Tx, c *Content, day string) error {
	return c.clean(day,
		func(code string) (bool, error) { return catalogue.CodeExists(ctx, tx, code) },
		func(code string) (bool, error) { return catalogue.LabTestExists(ctx, tx, code) })
}

// writeVisit inserts (version 0) or updates the visit's content if version is current.
func (s *Store) writeVisit(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, old storedVisit, version int, c Content, status string) error {
	if version != old.version {
		return apperr.Conflict("error.conflict")
	}
	now := s.now()
	seq := old.content.DiagnosisSeq
	if old.exists && seq == 0 && (len(old.content.Diagnoses) > 0 || len(c.Diagnoses) > 0) {
		// Keyed for the first time: above every place (and key) a kept version's list had, so
		// that a diagnosis taken off before keys were does not give its id to a new one.
		kept, err := database.ReadKept[Record](ctx, tx, VisitVersionKind, database.KeptQuery{ID: a.ID, Limit: math.MaxInt32})
		if err != nil {
			return err
		}
		for _, k := range kept {
			if k.Record.Content != nil {
				seq = max(seq, len(k.Record.Content.Diagnoses), k.Record.Content.DiagnosisSeq)
				for _, d := range k.Record.Content.Diagnoses {
					seq = max(seq, d.Key)
				}
			}
		}
	}
	c.Diagnoses, c.DiagnosisSeq = recordedSince(old.content.Diagnoses, c.Diagnoses, now, seq)
	body, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if !old.exists {
		_, err = tx.ExecContext(ctx, `INSERT INTO visits (appointment_id, patient_id, content, status, created_at, created_by,
			updated_at, updated_by, version) VALUES ($1, $2, $3, $4, $5, $6, $5, $6, 1)`, a.ID, a.PatientID, string(body), status, now, e.Actor())
		if err != nil {
			return fmt.Errorf("insert visit: %w", err)
		}
		return keep(ctx, tx, true, a.ID)
	}
	res, err := tx.ExecContext(ctx, `UPDATE visits SET content = $1, status = $2, updated_at = $3, updated_by = $4, version = version + 1
		WHERE appointment_id = $5 AND version = $6`, string(body), status, now, e.Actor(), a.ID, version)
	if err != nil {
		return fmt.Errorf("update visit: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Conflict("error.conflict")
	}
	return keep(ctx, tx, true, a.ID)
}

// auditVisit records action on the visit of appointment a (its id is the visit's), for a's patient.
func (s *Store) auditVisit(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, action, detail string) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = action, "visit", strconv.FormatInt(a.ID, 10), audit.Success, s.now(), detail
	e.PatientID = a.PatientID
	return audit.Record(ctx, tx, e)
}

// changedSections names the parts of the form that differ between a and b (for the audit
// log: names, never values), each in the reader's words (audit.section.*): a save that only
// added an order reads "Changed: tests ordered".
func changedSections(a, b Content) string {
	var out []string
	same := func(x, y any) bool {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		return string(bx) == string(by)
	}
	for _, f := range []struct {
		name string
		x, y any
	}{{"vitals", a.Vitals, b.Vitals}, {"vitals_copied_from", a.VitalsCopiedFrom, b.VitalsCopiedFrom}, {"chief_complaint", a.ChiefComplaint, b.ChiefComplaint},
		{"present_illness", a.PresentIllness, b.PresentIllness}, {"examination", a.Examination, b.Examination},
		{"diagnoses", unstamped(a.Diagnoses), unstamped(b.Diagnoses)}, {"orders", a.Orders, b.Orders}, {"plan", a.Plan, b.Plan},
		{"follow_up_date", a.FollowUpDate, b.FollowUpDate}} {
		if !same(f.x, f.y) {
			out = append(out, "audit.section."+f.name)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return audit.Phrases(audit.Phrase{Key: "audit.detail.changed", Terms: out})
}

// unstamped is ds without the times they were recorded and their keys (what the form says of them).
func unstamped(ds []Diagnosis) []Diagnosis {
	out := slices.Clone(ds)
	for i := range out {
		out[i].RecordedAt, out[i].Key = time.Time{}, 0
	}
	return out
}

// openDraft reads an appointment and its unsigned visit for a write that is allowed only
// while the appointment has one of statuses (otherwise the notNow message).
func openDraft(ctx context.Context, tx *sql.Tx, id int64, statuses []string, notNow string) (Appointment, storedVisit, error) {
	a, err := get(ctx, tx, id)
	if err != nil {
		return a, storedVisit{}, err
	}
	if !slices.Contains(statuses, a.Status) {
		return a, storedVisit{}, apperr.Conflict(notNow)
	}
	old, err := readVisit(ctx, tx, id)
	if err != nil {
		return a, old, err
	}
	if old.status == "signed" {
		return a, old, apperr.Conflict("visit.signed")
	}
	return a, old, nil
}

// SaveDraft saves the doctor's form while the visit is in progress or completed and not
// yet signed: the fields c sends, the others kept. version is the form's version as read (0
// for the first save).
func (s *Store) SaveDraft(ctx context.Context, e audit.Event, id int64, version int, c Change) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		return s.ChangeDraft(ctx, tx, e, id, version, func(old Content, _ string) (Content, error) { return c.apply(old), nil })
	})
}

// ChangeDraft saves, inside tx, the draft that change makes of the stored one (given the
// visit's day), under the same rules as SaveDraft: an order set's application writes the
// visit and its prescription in one transaction through it.
func (s *Store) ChangeDraft(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, change func(old Content, day string) (Content, error)) error {
	a, old, err := openDraft(ctx, tx, id, []string{InProgress, Completed}, "visit.not_started")
	if err != nil {
		return err
	}
	if version != old.version {
		return apperr.Conflict("error.conflict")
	}
	c, err := change(old.content, a.Day)
	if err != nil {
		return err
	}
	if err := s.cleanContent(ctx, tx, &c, a.Day); err != nil {
		return err
	}
	if err := s.writeVisit(ctx, tx, e, a, old, version, c, "draft"); err != nil {
		return err
	}
	if err := s.syncFollowUp(ctx, tx, e, a, old.content.FollowUpDate, c.FollowUpDate); err != nil {
		return err
	}
	if err := s.syncOrders(ctx, tx, e, a, c.Orders); err != nil {
		return err
	}
	return s.auditVisit(ctx, tx, e, a, "visit.save", changedSections(old.content, c))
}

// SaveVitals records only the vitals (a nurse's part), all of them replaced by v, while
// the patient is at the clinic and the form is not signed.
func (s *Store) SaveVitals(ctx context.Context, e audit.Event, id int64, version int, v Vitals) error {
	return s.changeVitals(ctx, e, id, version, v, func(Content) Vitals { return v })
}

// ChangeVitals records the measurements a nurse's save sends, under the rules of
// SaveVitals; the others are kept, unless they were copied forward from an earlier visit
// (what is measured now is this visit's alone).
func (s *Store) ChangeVitals(ctx context.Context, e audit.Event, id int64, version int, c VitalsChange) error {
	return s.changeVitals(ctx, e, id, version, c.Onto(Vitals{}), func(old Content) Vitals { return c.Onto(old.measured()) })
}

// changeVitals checks the measurements sent, then writes the vitals change makes of the
// stored form (checked again: a pressure sent may meet one kept).
func (s *Store) changeVitals(ctx context.Context, e audit.Event, id int64, version int, sent Vitals, change func(old Content) Vitals) error {
	var val apperr.Validation
	sent.check(&val)
	if err := val.Err(); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		_, err := s.writeVitals(ctx, tx, e, id, version, change)
		return err
	})
}

// AnyVersion is a version that matches the form's, whatever it is: a measurement added to
// the visit (a create) changes no one else's.
const AnyVersion = -1

// ChangeVitalsIn records, inside tx, the vitals change makes of the visit's measured ones
// (those copied forward from an earlier visit were not measured at this one), under the
// rules of SaveVitals; version is the form's as the caller read it, or AnyVersion. It
// answers the appointment as changed.
func (s *Store) ChangeVitalsIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, change func(measured Vitals) Vitals) (Appointment, error) {
	return s.writeVitals(ctx, tx, e, id, version, func(old Content) Vitals { return change(old.measured()) })
}

func (s *Store) writeVitals(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, change func(old Content) Vitals) (Appointment, error) {
	a, old, err := openDraft(ctx, tx, id, []string{Arrived, InProgress}, "visit.vitals_not_now")
	if err != nil {
		return a, err
	}
	if version == AnyVersion {
		version = old.version
	}
	v := change(old.content)
	var val apperr.Validation
	v.check(&val)
	if err := val.Err(); err != nil {
		return a, err
	}
	c := old.content
	c.Vitals, c.VitalsCopiedFrom = v, "" // measured now
	if err := s.writeVisit(ctx, tx, e, a, old, version, c, "draft"); err != nil {
		return a, err
	}
	return a, s.auditVisit(ctx, tx, e, a, "visit.vitals", audit.Phrases(audit.Phrase{Key: "audit.detail.changed", Terms: []string{"audit.section.vitals"}}))
}

// Sign makes the visit read-only; an in-progress appointment is completed with it.
func (s *Store) Sign(ctx context.Context, e audit.Event, id int64, version int) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		a, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		old, err := readVisit(ctx, tx, id)
		if err != nil {
			return err
		}
		switch {
		case !old.exists:
			return apperr.Conflict("visit.nothing_to_sign")
		case old.status == "signed":
			return apperr.Conflict("visit.signed")
		case old.version != version:
			return apperr.Conflict("error.conflict")
		}
		if err := old.content.checkSignable(); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE visits SET status = 'signed', signed_at = $1, signed_by = $2, updated_at = $1,
			updated_by = $2, version = version + 1 WHERE appointment_id = $3`, now, e.Actor(), id); err != nil {
			return fmt.Errorf("sign visit: %w", err)
		}
		if err := keep(ctx, tx, true, id); err != nil {
			return err
		}
		if a.Status == InProgress {
			if err := s.setStatus(ctx, tx, e, a, Complete, ""); err != nil {
				return err
			}
		}
		return s.auditVisit(ctx, tx, e, a, "visit.sign", "")
	})
}

// Amend changes a signed visit: the content before is kept with the reason, who and when.
func (s *Store) Amend(ctx context.Context, e audit.Event, id int64, version int, change Change, reason string) error {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		a, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		old, err := readVisit(ctx, tx, id)
		if err != nil {
			return err
		}
		if old.status != "signed" {
			return apperr.Conflict("visit.not_signed")
		}
		c := change.apply(old.content)
		if err := s.cleanContent(ctx, tx, &c, a.Day); err != nil {
			return err
		}
		if err := c.checkSignable(); err != nil {
			return err
		}
		prev, _ := json.Marshal(old.content)
		if _, err := tx.ExecContext(ctx, `INSERT INTO visit_amendments (appointment_id, reason, previous, amended_at, amended_by)
			VALUES ($1, $2, $3, $4, $5)`, id, reason, string(prev), s.now(), e.Actor()); err != nil {
			return fmt.Errorf("record amendment: %w", err)
		}
		if err := s.writeVisit(ctx, tx, e, a, old, version, c, "signed"); err != nil {
			return err
		}
		if err := s.syncFollowUp(ctx, tx, e, a, old.content.FollowUpDate, c.FollowUpDate); err != nil {
			return err
		}
		if err := s.syncOrders(ctx, tx, e, a, c.Orders); err != nil {
			return err
		}
		return s.auditVisit(ctx, tx, e, a, "visit.amend", audit.WithPhrase(changedSections(old.content, c), audit.Phrase{Key: "audit.detail.reason_given"}))
	})
}

// syncFollowUp books the visit's follow-up appointment once: the first save with a date
// books it; a later save with another date than the form had (previous) moves it while it is
// still only booked; saving the same date again changes nothing — wherever the follow-up is
// now (the desk or the patient may have moved it since; the form's date is when the doctor
// asked for it, not a time to put it back to). A move goes through the appointment book's
// hook (Changed): the patient is told the new time and what was sent of the old one withdrawn.
func (s *Store) syncFollowUp(ctx context.Context, tx *sql.Tx, e audit.Event, a Appointment, previous, date string) error {
	if date == "" {
		return nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM appointments WHERE follow_up_of = $1`, a.ID).Scan(&id)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read follow-up: %w", err)
	}
	var existing Appointment
	if found {
		if existing, err = get(ctx, tx, id); err != nil {
			return err
		}
		if date == previous || existing.Day == date || existing.Status != Booked {
			return nil
		}
	}
	// The follow-up's own doctor and length once booked (the desk may have changed them).
	doctor, length := a.DoctorID, a.DurationMinutes
	if found {
		doctor, length = existing.DoctorID, existing.DurationMinutes
	}
	if err := s.lockDoctor(ctx, tx, doctor); err != nil {
		return err
	}
	start, err := s.freeSlot(ctx, tx, doctor, a.StartsAt, length, date, existing.ID)
	if err != nil {
		return err
	}
	if !found {
		in := Input{PatientID: a.PatientID, DoctorID: a.DoctorID, DurationMinutes: length, Type: "follow-up"}
		_, err := s.book(ctx, tx, e, in, start, a.ID)
		return err
	}
	queue, err := nextQueueNumber(ctx, tx, date, doctor)
	if err != nil {
		return err
	}
	now := s.now()
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET starts_at = $1, ends_at = $2, day = $3, queue_number = $4,
		updated_at = $5, updated_by = $6, version = version + 1, confirmed_at = NULL WHERE id = $7`,
		start, start.Add(time.Duration(length)*time.Minute), date, queue, now, e.Actor(), existing.ID); err != nil {
		return fmt.Errorf("move follow-up: %w", err)
	}
	if err := keep(ctx, tx, false, existing.ID); err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = "appointment.update", "appointment", strconv.FormatInt(existing.ID, 10),
		audit.Success, now, "changed: starts_at (follow-up date)"
	e.PatientID = existing.PatientID
	if err := audit.Record(ctx, tx, e); err != nil {
		return err
	}
	return s.changed(ctx, tx, &existing, existing.ID)
}

// freeSlot finds the first free time on date for doctor, starting at the visit's own time of
// day (clock) and trying later times, for a visit of minutes: free of the doctor's other
// appointments (except one, the follow-up itself) and of online requests the desk has not
// answered (Occupied; a hold whose code is out gives way, as to any booking of the book's).
func (s *Store) freeSlot(ctx context.Context, tx *sql.Tx, doctor int64, clock time.Time, minutes int, date string, except int64) (time.Time, error) {
	d, err := time.ParseInLocation(time.DateOnly, date, s.loc())
	if err != nil {
		return time.Time{}, err
	}
	clock = clock.In(s.loc())
	start := time.Date(d.Year(), d.Month(), d.Day(), clock.Hour(), clock.Minute(), 0, 0, s.loc())
	step := time.Duration(minutes) * time.Minute
	for start.In(s.loc()).Format(time.DateOnly) == date {
		other, err := overlapping(ctx, tx, doctor, start.UTC(), start.Add(step).UTC(), except)
		if err != nil {
			return time.Time{}, err
		}
		if other != nil {
			start = other.StartsAt.In(s.loc()).Add(time.Duration(other.DurationMinutes) * time.Minute)
			continue
		}
		err = s.occupied(ctx, tx, doctor, start.UTC(), start.Add(step).UTC())
		var refused *apperr.Error
		switch {
		case err == nil:
			return start.UTC(), nil
		case errors.As(err, &refused) && refused.Kind == apperr.KindConflict:
			start = start.Add(step) // an online request holds it: the next time
		default:
			return time.Time{}, err
		}
	}
	return time.Time{}, apperr.Conflict("visit.follow_up_day_full")
}

// Diagnoses reads a visit's diagnoses, the primary first, with the codes' labels in lang (none
// before the visit is first saved).
func Diagnoses(ctx context.Context, q database.Querier, appointmentID int64, lang string) ([]Diagnosis, error) {
	var content string
	err := q.QueryRowContext(ctx, `SELECT content FROM visits WHERE appointment_id = $1`, appointmentID).Scan(&content)
	if errors.Is(err, sql.ErrNoRows) {
		return []Diagnosis{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read visit: %w", err)
	}
	var c Content
	if err := json.Unmarshal([]byte(content), &c); err != nil {
		return nil, fmt.Errorf("visit %d content: %w", appointmentID, err)
	}
	codes := make([]string, 0, len(c.Diagnoses))
	for _, d := range c.Diagnoses {
		if d.Code != "" {
			codes = append(codes, d.Code)
		}
	}
	labels, err := catalogue.CodeLabels(ctx, q, codes, lang)
	if err != nil {
		return nil, err
	}
	out := make([]Diagnosis, 0, len(c.Diagnoses))
	for _, d := range c.Diagnoses {
		d.Label = labels[d.Code]
		out = append(out, d)
	}
	// The primary diagnosis is read, and printed, first; the others keep their order.
	slices.SortStableFunc(out, func(a, b Diagnosis) int {
		switch {
		case a.Primary == b.Primary:
			return 0
		case a.Primary:
			return -1
		}
		return 1
	})
	return out, nil
}

// DatedVitals are one visit's measurements, on the visit's day, flagged for the patient's
// age that day.
type DatedVitals struct {
	AppointmentID int64      `json:"appointment_id"`
	Day           string     `json:"day"`
	Vitals        Vitals     `json:"vitals"`
	BMI           *float64   `json:"bmi"`
	Flags         VitalFlags `json:"flags"`
}

// VitalsOf lists a patient's visits that measured anything, from day on (YYYY-MM-DD),
// oldest first: the vitals trend; the bands' names are in lang.
func VitalsOf(ctx context.Context, q database.Querier, patientID int64, from, lang string) ([]DatedVitals, error) {
	people, err := patient.Summaries(ctx, q, []int64{patientID})
	if err != nil {
		return nil, err
	}
	birth := people[patientID].BirthDate
	rows, err := q.QueryContext(ctx, `SELECT a.id, a.day, v.content FROM visits v JOIN appointments a ON a.id = v.appointment_id
		WHERE v.patient_id = $1 AND a.day >= $2 ORDER BY a.day, a.starts_at, a.id`, patientID, from)
	if err != nil {
		return nil, fmt.Errorf("read vitals: %w", err)
	}
	defer rows.Close()
	out := []DatedVitals{}
	for rows.Next() {
		var d DatedVitals
		var content string
		if err := rows.Scan(&d.AppointmentID, &d.Day, &content); err != nil {
			return nil, err
		}
		var c Content
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return nil, fmt.Errorf("visit %d content: %w", d.AppointmentID, err)
		}
		if c.Vitals == (Vitals{}) {
			continue
		}
		d.Vitals, d.BMI, d.Flags = c.Vitals, c.Vitals.BMI(), FlagVitals(c.Vitals, birth, d.Day, lang)
		out = append(out, d)
	}
	return out, rows.Err()
}

// Uses counts how often a doctor put each diagnosis code and each test on their visits
// that started from since on (the pickers' "most used"). One index range
// (appointments_doctor_time).
func Uses(ctx context.Context, q database.Querier, doctorID int64, since time.Time) (codes, tests map[string]int, err error) {
	rows, err := q.QueryContext(ctx, `SELECT v.content FROM appointments a JOIN visits v ON v.appointment_id = a.id
		WHERE a.doctor_id = $1 AND a.starts_at >= $2`, doctorID, since)
	if err != nil {
		return nil, nil, fmt.Errorf("read uses: %w", err)
	}
	defer rows.Close()
	codes, tests = map[string]int{}, map[string]int{}
	for rows.Next() {
		var content string
		if err := rows.Scan(&content); err != nil {
			return nil, nil, err
		}
		var c Content
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return nil, nil, fmt.Errorf("visit content: %w", err)
		}
		for _, d := range c.Diagnoses {
			if d.Code != "" {
				codes[d.Code]++
			}
		}
		for _, o := range c.Orders {
			tests[o.Code]++
		}
	}
	return codes, tests, rows.Err()
}
