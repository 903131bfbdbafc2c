package prescription

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
)

// The clinical pharmacist's review of the current-medicines list (ADR 25): what a
// reconciliation records of each medicine (route, indication, last dose, adherence, where
// the information came from), an entry entered in error (made by accident: it leaves the
// list, the check and the papers, its history keeps it), a stop's category, and the
// prescriber's review of what a nurse recorded.

// Adherence: how the patient takes it.
var Adherences = []string{"as_directed", "irregular", "not_taking"}

// InfoSources: who or what said the patient takes it.
var InfoSources = []string{"patient", "carer", "pharmacy", "other_clinic", "packet"}

// StopOther is the stop category whose free text is required.
const StopOther = "other"

// StopCategories: why a medicine was stopped, in a word.
var StopCategories = []string{"course_completed", "side_effect", "not_effective", "patient_choice", "replaced", "doctor_decision", StopOther}

// Reconciliation is what a reconciliation records of a medicine taken, all of it optional.
type Reconciliation struct {
	// Route is one of a prescription's Routes.
	Route string `json:"route"`
	// Indication is what the patient takes it for, in a few words.
	Indication string `json:"indication"`
	// LastDose is when the patient last took it: a date (2026-11-28) or a date and time
	// (2026-11-28T08:00).
	LastDose string `json:"last_dose"`
	// Adherence is one of Adherences.
	Adherence string `json:"adherence"`
	// InfoSource is one of InfoSources.
	InfoSource string `json:"information_source"`
}

// check cleans the fields and refuses what is not of their vocabulary; today is the
// clinic's date.
func (r *Reconciliation) check(v *apperr.Validation, today string) {
	r.Route, r.Indication = strings.TrimSpace(r.Route), strings.Join(strings.Fields(r.Indication), " ")
	r.LastDose, r.Adherence, r.InfoSource = strings.TrimSpace(r.LastDose), strings.TrimSpace(r.Adherence), strings.TrimSpace(r.InfoSource)
	if r.Route != "" && !slices.Contains(Routes, r.Route) {
		v.Add("route", "prescription.route")
	}
	if len([]rune(r.Indication)) > 200 {
		v.Add("indication", "validation.too_long")
	}
	if r.LastDose != "" {
		day, ok := lastDoseDay(r.LastDose)
		switch {
		case !ok:
			v.Add("last_dose", "medication.bad_last_dose")
		case day > today:
			v.Add("last_dose", "medication.last_dose_future")
		}
	}
	if r.Adherence != "" && !slices.Contains(Adherences, r.Adherence) {
		v.Add("adherence", "validation.invalid_choice")
	}
	if r.InfoSource != "" && !slices.Contains(InfoSources, r.InfoSource) {
		v.Add("information_source", "validation.invalid_choice")
	}
}

// lastDoseDay is the day of a last dose written as a date or a date and time; false when
// it is neither.
func lastDoseDay(s string) (string, bool) {
	for _, layout := range []string{time.DateOnly, "2006-01-02T15:04"} {
		if _, err := time.Parse(layout, s); err == nil && len(s) == len(layout) {
			return s[:len(time.DateOnly)], true
		}
	}
	return "", false
}

// review is how a record or a correction leaves an entry's review: reviewed by whoever
// may prescribe (now), else to be reviewed (at and by nil: the last review kept).
type review struct {
	needs bool
	at    *time.Time
	by    any
}

func reviewOf(byPrescriber bool, now time.Time, actor any) review {
	if !byPrescriber {
		return review{needs: true}
	}
	return review{at: &now, by: actor}
}

// stopVisit refuses a stop said to be at a visit that is not the patient's.
func stopVisit(ctx context.Context, q database.Querier, appointmentID *int64, patientID int64) error {
	if appointmentID == nil {
		return nil
	}
	visit, err := appointment.BasicsOf(ctx, q, *appointmentID)
	if errors.Is(err, apperr.ErrNotFound) || (err == nil && visit.PatientID != patientID) {
		return apperr.Invalid("medication.other_visit")
	}
	return err
}

// ErrorInput marks an entry entered in error, for a reason.
type ErrorInput struct {
	Reason  string `json:"reason"`
	Version int    `json:"version"`
}

// VersionInput is an entry's version, for a change that says nothing else.
type VersionInput struct {
	Version int `json:"version"`
}

// MarkInError marks a recorded entry entered in error (wrong patient, wrong medicine):
// distinct from stopped, it is no medicine the patient took. It leaves the list, the safety
// check, the list's review and the papers; its versions and the audit keep it. A stopped
// entry may be marked too (a stop of a medicine never taken is no history of the patient's).
func (s *Store) MarkInError(ctx context.Context, e audit.Event, id int64, in ErrorInput) (Taken, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	var v apperr.Validation
	switch {
	case in.Reason == "":
		v.Add("reason", "validation.reason_required")
	case apperr.ReasonTooShort(in.Reason): // a letter says nothing to whoever reads the record (m4)
		v.Add("reason", "medication.error_reason_short")
	case len([]rune(in.Reason)) > 500:
		v.Add("reason", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return Taken{}, err
	}
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := getTaken(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case old.InError():
			return apperr.Conflict("medication.in_error")
		case old.Version != in.Version:
			return apperr.Conflict("error.conflict")
		}
		if err := s.checkPatient(ctx, tx, old.PatientID); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE medicines_taken SET error_reason = $1, error_at = $2, error_by = $3, updated_at = $2,
			updated_by = $3, version = version + 1 WHERE id = $4`, in.Reason, now, e.Actor(), id); err != nil {
			return fmt.Errorf("mark a medicine taken in error: %w", err)
		}
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.entered_in_error", in.Reason)
	})
	return t, err
}

// ReviewTaken records that a prescriber reviewed an entry a nurse recorded or corrected.
func (s *Store) ReviewTaken(ctx context.Context, e audit.Event, id int64, in VersionInput) (Taken, error) {
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := openTaken(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		if err := s.checkPatient(ctx, tx, old.PatientID); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE medicines_taken SET needs_review = $1, reviewed_at = $2, reviewed_by = $3, updated_at = $2,
			updated_by = $3, version = version + 1 WHERE id = $4`, false, now, e.Actor(), id); err != nil {
			return fmt.Errorf("review a medicine taken: %w", err)
		}
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.review", "recorded by "+old.RecordedBy)
	})
	return t, err
}

// Stopped is a medicine stopped at a visit, as its summary prints it: what, in which
// category, why.
type Stopped struct {
	Text     string
	Category string
	Reason   string
}

// StoppedAtVisit are the medicines stopped at a visit: recorded entries (not entered in
// error) and lines of prescriptions issued here, in the order they were stopped.
func StoppedAtVisit(ctx context.Context, q database.Querier, appointmentID int64) ([]Stopped, error) {
	out := []Stopped{}
	taken, err := readTaken(ctx, q, `WHERE stopped_appointment_id = $1 AND error_reason = '' ORDER BY stopped_at LIMIT 200`, appointmentID)
	if err != nil {
		return nil, err
	}
	for _, t := range taken {
		out = append(out, Stopped{Text: medicineText(t.Medicine, t.Dose, t.Frequency), Category: t.StopCategory, Reason: t.StopReason})
	}
	rows, err := q.QueryContext(ctx, `SELECT s.line, s.category, s.reason, p.items FROM prescription_lines_stopped s
		JOIN prescriptions p ON p.id = s.prescription_id WHERE s.appointment_id = $1 ORDER BY s.id LIMIT 200`, appointmentID)
	if err != nil {
		return nil, fmt.Errorf("read lines stopped at a visit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var line int
		var st Stopped
		var items string
		if err := rows.Scan(&line, &st.Category, &st.Reason, &items); err != nil {
			return nil, fmt.Errorf("read a line stopped at a visit: %w", err)
		}
		var list []Item
		if err := json.Unmarshal([]byte(items), &list); err != nil {
			return nil, fmt.Errorf("read a prescription's items: %w", err)
		}
		if line < 0 || line >= len(list) {
			continue
		}
		st.Text = medicineText(list[line].Medicine, list[line].Dose, list[line].Frequency)
		out = append(out, st)
	}
	return out, rows.Err()
}

// medicineText is "Medicine, dose, frequency", leaving out what is not said.
func medicineText(parts ...string) string {
	var said []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			said = append(said, p)
		}
	}
	return strings.Join(said, ", ")
}
