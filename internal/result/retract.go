package result

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
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
		rows, left, err := s.toRetract(ctx, tx, o.ID, in.Result)
		if err != nil {
			return err
		}
		now := s.now()
		var names []string
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET status = $1, is_current = 0, retract_reason = $2, retracted_at = $3,
				retracted_by = $4, retract_category = $5 WHERE id = $6`, EnteredInError, reason, now, actor(e), in.Category, r.ID); err != nil {
				return fmt.Errorf("retract result: %w", err)
			}
			if _, err := s.withdraw(ctx, tx, e, withdrawal{orderID: o.ID, analyte: r.Analyte, category: in.Category, reason: reason, now: now}); err != nil {
				return err
			}
			names = append(names, r.Analyte)
		}
		if err := s.reopen(ctx, tx, e, o, left, left > 0, now); err != nil {
			return err
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
			audit.Phrase{Key: "audit.detail.category", Terms: []string{"audit.withdrawn." + in.Category}})
		if left == 0 {
			detail = audit.WithPhrase(detail, audit.Phrase{Key: "audit.detail.ordered_again"})
		}
		return s.event(ctx, tx, e, o.ID, o.PatientID, EnteredInError, reason, now, detail)
	})
	if err != nil {
		return Detail{}, err
	}
	return s.Detail(ctx, id, lang)
}

// reopen sends order o, after a retraction that left it left current results, back to its
// ordering doctor's review with the withdrawal marked: a final or reviewed order is final
// again (as after a correction), a preliminary one stays preliminary, and one with no result
// left is ordered again, its collection and result times cleared (the repeat's are its own).
// repeat marks it as needing the test again.
func (s *Store) reopen(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, left int, repeat bool, now time.Time) error {
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
		repeat_needed = CASE WHEN $7 THEN 1 ELSE repeat_needed END WHERE id = $8`, status, attention, collected, resulted, now, actor(e), repeat, o.ID); err != nil {
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
	if !slices.Contains(RetractCategories, in.Category) {
		v.Add("category", "result.retract_category_required")
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
