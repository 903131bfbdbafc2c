package result

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// Misfiled is a result retracted because it was recorded against the wrong patient: until
// someone finds whose it was and records it there (or says why it cannot be), the right
// patient is without it, so it stays on the results desk's list (M6 of the clinician's review
// of withdrawals).
type Misfiled struct {
	ResultID  int64     `json:"result_id"`
	OrderID   int64     `json:"order_id"`
	TestLabel string    `json:"test_label"`
	Result    Result    `json:"result"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"retracted_at"`
	By        string    `json:"retracted_by"`
	// Patient is the one it was wrongly recorded against: where the specimen's trail starts.
	Patient *patient.Summary `json:"patient"`
}

// Misfiled lists the wrong-patient retractions nobody has resolved, oldest first, through
// the lab_results_misfiled index.
func (s *Store) Misfiled(ctx context.Context, lang string) ([]Misfiled, error) {
	results, err := scanResults(s.DB.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r
		WHERE r.retract_category = $1 AND r.misfiled_resolved_at IS NULL ORDER BY r.retracted_at, r.id LIMIT $2`, WithdrawnWrongPatient, QueueLimit))
	if err != nil {
		return nil, err
	}
	if err := s.label(ctx, s.DB, results, lang); err != nil {
		return nil, err
	}
	// Their orders in one read, named and with their patients.
	ids := make([]int64, 0, len(results))
	var people []int64
	for _, r := range results {
		ids = append(ids, r.OrderID)
		if r.RetractedBy != nil {
			people = append(people, *r.RetractedBy)
		}
	}
	orders := []Order{}
	if len(ids) > 0 {
		in, args := database.InIDs(s.DB, "o.id", unique(ids), 1)
		if orders, err = scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+in, args...)); err != nil {
			return nil, err
		}
	}
	if err := s.complete(ctx, s.DB, orders, lang, false); err != nil {
		return nil, err
	}
	if err := withPatients(ctx, s.DB, orders); err != nil {
		return nil, err
	}
	byID := make(map[int64]Order, len(orders))
	for _, o := range orders {
		byID[o.ID] = o
	}
	names, err := user.Names(ctx, s.DB, unique(people))
	if err != nil {
		return nil, err
	}
	out := make([]Misfiled, 0, len(results))
	for _, r := range results {
		o := byID[r.OrderID]
		m := Misfiled{ResultID: r.ID, OrderID: r.OrderID, TestLabel: o.TestLabel, Result: r, Reason: r.RetractReason, Patient: o.Patient}
		if r.RetractedAt != nil {
			m.At = *r.RetractedAt
		}
		if r.RetractedBy != nil {
			m.By = names[*r.RetractedBy]
		}
		out = append(out, m)
	}
	return out, nil
}

// ResolveMisfiledInput says how a wrong-patient retraction was resolved.
type ResolveMisfiledInput struct {
	Note string `json:"note"`
}

// ResolveMisfiled closes the task of result resultID, retracted as recorded against the wrong
// patient, with a note saying how (recorded on the right patient's order, the laboratory
// asked to repeat it…); audited with the patient it was wrongly on.
func (s *Store) ResolveMisfiled(ctx context.Context, e audit.Event, resultID int64, in ResolveMisfiledInput) error {
	note, err := apperr.Reason(in.Note)
	if err != nil {
		return err
	}
	if apperr.ReasonTooShort(note) {
		var v apperr.Validation
		v.Add("note", "result.misfiled_note_short")
		return v.Err()
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var patientID int64
		var resolved sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT o.patient_id, r.misfiled_resolved_at FROM lab_results r JOIN lab_orders o ON o.id = r.order_id
			WHERE r.id = $1 AND r.retract_category = $2`, resultID, WithdrawnWrongPatient).Scan(&patientID, &resolved)
		if err == sql.ErrNoRows {
			return apperr.NotFound("result.misfiled_not_found")
		}
		if err != nil {
			return fmt.Errorf("read result: %w", err)
		}
		if resolved.Valid {
			return apperr.Conflict("result.misfiled_resolved")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET misfiled_resolved_at = $1, misfiled_resolved_by = $2, misfiled_note = $3
			WHERE id = $4 AND misfiled_resolved_at IS NULL`, now, actor(e), note, resultID); err != nil {
			return fmt.Errorf("resolve misfiled result: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "lab_result.misfiled_resolved", "lab_result", strconv.FormatInt(resultID, 10), patientID, audit.Success, now
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.reason_given"})
		return audit.Record(ctx, tx, e)
	})
}
