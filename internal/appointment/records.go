package appointment

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
)

// Record is an appointment with its visit's form, as programs read them (the FHIR API):
// Content is nil until a form is saved.
type Record struct {
	Appointment
	Content        *Content
	VisitStatus    string
	VisitVersion   int
	VisitUpdatedAt time.Time
	// VisitCreatedAt: when the visit form was first saved (zero in a version kept before it
	// was read).
	VisitCreatedAt time.Time
}

// RecordFilter selects records; every condition set must hold. Pages are keyset pages in
// id order from After (below it when Descending).
type RecordFilter struct {
	IDs       []int64
	PatientID int64
	From, To  *time.Time // starts at or after From, before To
	Statuses  []string
	WithVisit bool // only appointments whose form has been saved
	// PatientIDs keeps the records of any of these patients (the FHIR API's reverse includes
	// read a page's patients' records in one query).
	PatientIDs []int64
	// ChangedSince keeps the appointments changed (or whose form changed) at or after it.
	ChangedSince *time.Time
	After        int64
	Descending   bool
	Limit        int
}

// Records returns up to f.Limit records matching f.
func (s *Store) Records(ctx context.Context, f RecordFilter) ([]Record, error) {
	return records(ctx, s.DB, f)
}

// RecordsIn is Records as q sees them: inside a writer's transaction, what it has written.
func RecordsIn(ctx context.Context, q database.Querier, f RecordFilter) ([]Record, error) {
	return records(ctx, q, f)
}

func records(ctx context.Context, q database.Querier, f RecordFilter) ([]Record, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if len(f.IDs) > 0 {
		in, inArgs := database.InIDs(q, "a.id", f.IDs, 1)
		where, args = append(where, in), append(args, inArgs...)
	}
	if f.PatientID != 0 {
		where = append(where, "a.patient_id = "+arg(f.PatientID))
	}
	if len(f.PatientIDs) > 0 {
		in, inArgs := database.InIDs(q, "a.patient_id", f.PatientIDs, len(args)+1)
		where, args = append(where, in), append(args, inArgs...)
	}
	if f.From != nil {
		where = append(where, "a.starts_at >= "+arg(f.From.UTC()))
	}
	if f.To != nil {
		where = append(where, "a.starts_at < "+arg(f.To.UTC()))
	}
	if len(f.Statuses) > 0 {
		marks := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			marks[i] = arg(st)
		}
		where = append(where, "a.status IN ("+strings.Join(marks, ", ")+")")
	}
	if f.WithVisit {
		where = append(where, "v.appointment_id IS NOT NULL")
	}
	if f.ChangedSince != nil {
		since := arg(f.ChangedSince.UTC())
		where = append(where, "(a.updated_at >= "+since+" OR v.updated_at >= "+since+")")
	}
	order := "ASC"
	switch {
	case f.Descending:
		order = "DESC"
		if f.After > 0 {
			where = append(where, "a.id < "+arg(f.After))
		}
	case f.After > 0:
		where = append(where, "a.id > "+arg(f.After))
	}
	query := `SELECT ` + appointmentColumnsWithContent + `, COALESCE(v.version, 0), v.updated_at, v.created_at` + appointmentFrom
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	query += ` ORDER BY a.id ` + order + ` LIMIT ` + arg(f.Limit)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read appointments: %w", err)
	}
	defer rows.Close()
	var out []Record
	var list []Appointment
	for rows.Next() {
		var rec Record
		var content string
		var updated, created sql.NullTime
		var followUp sql.NullInt64
		a := &rec.Appointment
		if err := rows.Scan(&a.ID, &a.PatientID, &a.DoctorID, &a.StartsAt, &a.DurationMinutes, &a.Day, &a.QueueNumber, &a.Type,
			&a.Reason, &a.Remarks, &a.Status, &a.CancelReason, &followUp, &a.ConfirmedAt, &a.VisitStatus, &content, &a.CreatedAt, &a.UpdatedAt, &a.Version,
			&rec.VisitVersion, &updated, &created); err != nil {
			return nil, err
		}
		if followUp.Valid {
			a.FollowUpOf = &followUp.Int64
		}
		a.StartsAt = a.StartsAt.UTC()
		rec.VisitStatus = a.VisitStatus
		if content != "" {
			var c Content
			if err := json.Unmarshal([]byte(content), &c); err != nil {
				return nil, fmt.Errorf("visit %d content: %w", a.ID, err)
			}
			rec.Content = &c
		}
		if updated.Valid {
			rec.VisitUpdatedAt = updated.Time.UTC()
		}
		if created.Valid {
			rec.VisitCreatedAt = created.Time.UTC()
		}
		out = append(out, rec)
		list = append(list, rec.Appointment)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := named(ctx, q, list); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Appointment = list[i]
	}
	return out, nil
}

// PatientsOf lists, in id order after `after`, up to limit patients who have had an
// appointment with doctorID: the group "all patients of a doctor".
func (s *Store) PatientsOf(ctx context.Context, doctorID, after int64, limit int) ([]int64, error) {
	ids, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT DISTINCT patient_id FROM appointments
		WHERE doctor_id = $1 AND patient_id > $2 ORDER BY patient_id LIMIT $3`, doctorID, after, limit))
	if err != nil {
		return nil, fmt.Errorf("read a doctor's patients: %w", err)
	}
	return ids, nil
}

// PatientsAmong are those of ids who have had an appointment with doctorID.
func (s *Store) PatientsAmong(ctx context.Context, doctorID int64, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := database.InIDs(s.DB, "patient_id", ids, 2)
	found, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT DISTINCT patient_id FROM appointments WHERE doctor_id = $1 AND `+in,
		append([]any{doctorID}, args...)...))
	if err != nil {
		return nil, fmt.Errorf("read a doctor's patients among some: %w", err)
	}
	return found, nil
}

// PatientCount is how many patients have had an appointment with doctorID.
func (s *Store) PatientCount(ctx context.Context, doctorID int64) (int, error) {
	var n int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(DISTINCT patient_id) FROM appointments WHERE doctor_id = $1`, doctorID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count a doctor's patients: %w", err)
	}
	return n, nil
}

// VersionKind and VisitVersionKind name the kept versions of appointments and of their visit
// forms (database.KeepVersion): each a Record as it was when its version was written.
const (
	VersionKind      = "appointment"
	VisitVersionKind = "visit"
)

// keep keeps the records of appointments ids as they now are in q (the change's
// transaction), each as the version of the appointment (visit false) or of its visit form
// (visit true) it now has: one read for all of them.
func keep(ctx context.Context, q database.Querier, visit bool, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	list, err := records(ctx, q, RecordFilter{IDs: ids, Limit: len(ids)})
	if err != nil {
		return err
	}
	if len(list) != len(ids) {
		return fmt.Errorf("keep appointments %v: %d found", ids, len(list))
	}
	for _, rec := range list {
		if visit {
			err = database.KeepVersion(ctx, q, VisitVersionKind, rec.ID, rec.VisitVersion, rec.VisitUpdatedAt, rec)
		} else {
			err = database.KeepVersion(ctx, q, VersionKind, rec.ID, rec.Version, rec.UpdatedAt, rec)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// AgeOrSexChanged gives every visit form of patient id a new version, inside the caller's
// transaction, at now: what the FHIR API works out of a form with the patient's birth date and
// sex — each vital's flag by age band, the BMI percentile for age and sex (59576-9) — changed
// with them; a reader syncing by version or _lastUpdated sees it, and the version kept holds
// the patient as now (vread of an earlier one gives them as they were). The forms' content is
// unchanged.
func AgeOrSexChanged(ctx context.Context, tx *sql.Tx, patientID int64, now time.Time) error {
	ids, err := database.Column[int64](tx.QueryContext(ctx, `SELECT appointment_id FROM visits WHERE patient_id = $1 ORDER BY appointment_id`, patientID))
	if err != nil {
		return fmt.Errorf("read the patient's visits: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE visits SET version = version + 1, updated_at = $1 WHERE patient_id = $2`, now.UTC(), patientID); err != nil {
		return fmt.Errorf("version the visits: %w", err)
	}
	return keep(ctx, tx, true, ids...)
}
