package result

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
)

// RetractInput withdraws results entered in error: one current result of the order (Result,
// a result's id), or every current result of it (Result 0: the whole report), with the
// reason, against the order's version read.
type RetractInput struct {
	Version int   `json:"version"`
	Result  int64 `json:"result_id"`
	// Category is why, one of RetractCategories; Reason says it in words, at least
	// apperr.MinReason characters (or apperr.MinIdeographReason ideographs).
	Category string `json:"category"`
	Reason   string `json:"reason"`
	// SameDraw are other orders of the same draw (of the order's visit: Detail's same_draw) whose every current result is withdrawn too, with the same
	// category and reason, each against its version read: a specimen taken from the wrong
	// patient is every tube of that draw (CLSI GP33).
	SameDraw []OrderRef `json:"same_draw"`
}

// OrderRef names an order and the version of it read.
type OrderRef struct {
	ID      int64 `json:"id"`
	Version int   `json:"version"`
}

// Retract marks results of order id entered in error: each row stays, no longer current,
// with status entered_in_error, the reason, who and when, so that it leaves the current
// results, the trends, the delta checks and the critical-result lists, and stays in the
// order's history struck through. Nothing is deleted.
//
// Whoever was told of what is withdrawn is told it is withdrawn (ISO 15189:2022 §7.4.1.8;
// RCPath G158): a critical alert on a retracted result is closed as withdrawn, with who,
// when and why (never as acknowledged), and shows as withdrawn to those it reached until the
// order is reviewed (withdraw); and the order always goes back to its ordering doctor's
// review, marked as holding a withdrawal (the patient may have been told, or treated, on the
// value), preliminary orders too. An order left with no current result waits for its result
// again (ordered, not collected: a result entered in error calls for the test again), so the
// overdue list chases it; one left with other results is marked as needing the withdrawn
// analyte again, whatever the category (a specimen problem calls for a new sample; a
// transcription error or a wrong patient still leaves this patient without the value), which
// the overdue list chases too until a result of that analyte is recorded.
func (s *Store) Retract(ctx context.Context, e audit.Event, id int64, in RetractInput, lang string) (Detail, error) {
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		reason, err := retractReason(in)
		if err != nil {
			return err
		}
		o, err := s.lockOrder(ctx, tx, id)
		if err != nil {
			return err
		}
		if o.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		draw, err := s.sameDraw(ctx, tx, o)
		if err != nil {
			return err
		}
		others := make([]Order, 0, len(in.SameDraw))
		for _, ref := range in.SameDraw {
			i := slices.IndexFunc(draw, func(d Order) bool { return d.ID == ref.ID })
			if i < 0 || in.Result != 0 || slices.ContainsFunc(others, func(d Order) bool { return d.ID == ref.ID }) {
				var v apperr.Validation
				v.Add("same_draw", "result.not_same_draw")
				return v.Err()
			}
			other, err := s.lockOrder(ctx, tx, ref.ID)
			if err != nil {
				return err
			}
			if other.Version != ref.Version {
				return apperr.Conflict("error.conflict")
			}
			others = append(others, other)
		}
		now := s.now()
		if err := s.retractOrder(ctx, tx, e, o, in.Result, in.Category, reason, now); err != nil {
			return err
		}
		for _, other := range others {
			if err := s.retractOrder(ctx, tx, e, other, 0, in.Category, reason, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Detail{}, err
	}
	return s.Detail(ctx, id, lang)
}

// retractOrder withdraws, in tx, result resultID of order o (0: every current result of it)
// with the category and reason, as Retract says.
func (s *Store) retractOrder(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, resultID int64, category, reason string, now time.Time) error {
	rows, left, err := s.toRetract(ctx, tx, o.ID, resultID)
	if err != nil {
		return err
	}
	var names []string
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET status = $1, is_current = 0, retract_reason = $2, retracted_at = $3,
				retracted_by = $4, retract_category = $5 WHERE id = $6`, EnteredInError, reason, now, e.Actor(), category, r.ID); err != nil {
			return fmt.Errorf("retract result: %w", err)
		}
		if _, err := s.withdraw(ctx, tx, e, withdrawal{orderID: o.ID, analyte: r.Analyte, category: category, reason: reason, now: now}); err != nil {
			return err
		}
		if category == WithdrawnWrongPatient && catalogue.Critical(r.Flag) {
			if err := s.raiseMisfiled(ctx, tx, o, r.ID, now); err != nil {
				return err
			}
		}
		names = append(names, r.Analyte)
	}
	if err := s.reopen(ctx, tx, e, o, left, now); err != nil {
		return err
	}
	if category == WithdrawnWrongPatient {
		if err := s.unlinkReport(ctx, tx, e, o, now); err != nil {
			return err
		}
	}
	if err := s.keep(ctx, tx, now, o.ID); err != nil {
		return err
	}
	// Later values flagged as a change from the one withdrawn are flagged again against
	// what stands (the clinician's review of withdrawals, 2026-11-28).
	for _, r := range rows {
		later, err := s.redelta(ctx, tx, o.PatientID, r.Analyte, r.ObservedAt, now)
		if err != nil {
			return err
		}
		if err := s.keep(ctx, tx, now, later...); err != nil {
			return err
		}
	}
	detail := audit.Phrases(audit.Phrase{Key: "audit.detail.entered_in_error", Args: []string{strings.Join(names, ", ")}},
		audit.Phrase{Key: "audit.detail.category", Terms: []string{"audit.withdrawn." + category}})
	if left == 0 {
		detail = audit.WithPhrase(detail, audit.Phrase{Key: "audit.detail.ordered_again"})
	}
	return s.event(ctx, tx, e, o.ID, o.PatientID, EnteredInError, reason, now, detail)
}

// sameDraw reads the other orders of order o's visit with a current result: those a specimen
// taken from the wrong patient may have filled too. Each order is collected on its own
// click, so the same draw is not the same instant: the dialog shows each one's collection
// time, proposes those collected within DrawWindow of o, and the person withdrawing decides.
// None when o has no visit's collection.
func (s *Store) sameDraw(ctx context.Context, q database.Querier, o Order) ([]Order, error) {
	if o.CollectedAt == nil {
		return []Order{}, nil
	}
	return scanOrders(q.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.appointment_id = $1 AND o.patient_id = $2
		AND o.id <> $3 AND o.collected_at IS NOT NULL AND EXISTS (SELECT 1 FROM lab_results r WHERE r.order_id = o.id AND r.is_current = 1)
		ORDER BY o.collected_at, o.id`, o.AppointmentID, o.PatientID, o.ID))
}

// reopen sends order o, after a retraction that left it left current results, back to its
// ordering doctor's review with the withdrawal marked: a final or reviewed order is final
// again (as after a correction), a preliminary one stays preliminary, and one with no result
// left is ordered again, its collection and result times cleared (the repeat's are its own);
// it is marked as needing the test again.
func (s *Store) reopen(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, left int, now time.Time) error {
	attention, err := orderAttention(ctx, tx, o.ID)
	if err != nil {
		return err
	}
	status, collected, resulted := o.Status, o.CollectedAt, o.ResultedAt
	switch {
	case left == 0:
		status, collected, resulted = Ordered, nil, nil
	case o.Status == Reviewed:
		status = Final
	}
	if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, to_review = 1, withdrawn_to_review = 1, attention = $2,
		collected_at = $3, resulted_at = $4, reviewed_at = NULL, reviewed_by = NULL, updated_at = $5, updated_by = $6, version = version + 1,
		repeat_needed = 1 WHERE id = $7`, status, attention, collected, resulted, now, e.Actor(), o.ID); err != nil {
		return fmt.Errorf("update order: %w", err)
	}
	return nil
}

// retractReason checks a retraction's category and reason, and returns the reason trimmed.
func retractReason(in RetractInput) (string, error) {
	reason, err := apperr.Reason(in.Reason)
	if err != nil {
		return "", err
	}
	var v apperr.Validation
	switch {
	case !slices.Contains(RetractCategories, in.Category):
		v.Add("category", "result.retract_category_required")
	case in.Category == WithdrawnWrongPatient && in.Result != 0:
		// A sample of another patient is the whole specimen, never one analyte of it (CLSI
		// GP33): every result of the report goes, and the draw's other orders are offered.
		v.Add("category", "result.wrong_patient_whole_report")
	}
	if apperr.ReasonTooShort(reason) {
		v.Add("reason", "result.retract_reason_short")
	}
	return reason, v.Err()
}

// toRetract reads the current results of order orderID a retraction withdraws: resultID's
// (it must be a current result of that order), or all of them when resultID is 0; and how
// many current results the retraction leaves.
func (s *Store) toRetract(ctx context.Context, tx *sql.Tx, orderID, resultID int64) ([]Result, int, error) {
	rows, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 ORDER BY r.id`, orderID))
	if err != nil {
		return nil, 0, err
	}
	current := slices.DeleteFunc(slices.Clone(rows), func(r Result) bool { return !r.Current })
	if resultID == 0 {
		if len(current) == 0 {
			return nil, 0, apperr.Conflict("result.nothing_to_retract")
		}
		return current, 0, nil
	}
	i := slices.IndexFunc(rows, func(r Result) bool { return r.ID == resultID })
	switch {
	case i < 0:
		return nil, 0, apperr.NotFound("result.result_not_found")
	case !rows[i].Current:
		// Replaced by a correction or retracted already: only what the record now says
		// can be withdrawn.
		return nil, 0, apperr.Conflict("result.not_current")
	}
	return rows[i : i+1], len(current) - 1, nil
}

// AnalyteOf is the analyte of result row resultID of order orderID, and whether the order
// has that row (any row: current, replaced or retracted). The FHIR API's old laboratory
// Observation ids named result rows.
func (s *Store) AnalyteOf(ctx context.Context, orderID, resultID int64) (string, bool, error) {
	var analyte string
	err := s.DB.QueryRowContext(ctx, `SELECT analyte FROM lab_results WHERE id = $1 AND order_id = $2`, resultID, orderID).Scan(&analyte)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read result: %w", err)
	}
	return analyte, true, nil
}

// unlinkReport takes the lab's report attached to order o, whose results are withdrawn as
// another patient's, off the order, and marks the file as another patient's document (the
// laboratory clinician's review, C4): it is that patient's report, a privacy breach left in
// this chart. The file is kept (a record is never deleted), out of this patient's routine
// files list, reachable, marked, only by someone who may record results; audited on this
// patient with why.
func (s *Store) unlinkReport(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, now time.Time) error {
	if o.ReportFileID == nil {
		return nil
	}
	file := *o.ReportFileID
	if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET report_file_id = NULL WHERE id = $1`, o.ID); err != nil {
		return fmt.Errorf("unlink report: %w", err)
	}
	if err := patient.MarkOtherPatientIn(ctx, tx, e, file, o.ID, now); err != nil {
		return err
	}
	detail := audit.Phrases(audit.Phrase{Key: "audit.detail.report_other_patient", Args: []string{strconv.FormatInt(file, 10)}},
		audit.Phrase{Key: "audit.detail.category", Terms: []string{"audit.withdrawn." + WithdrawnWrongPatient}})
	return s.audit(ctx, tx, e, "lab_order.report_other_patient", o.ID, o.PatientID, detail, now)
}
