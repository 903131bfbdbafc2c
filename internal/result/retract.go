package result

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"emr/internal/apperr"
	"emr/internal/audit"
)

// RetractInput withdraws results entered in error: one current result of the order (Result,
// a result's id), or every current result of it (Result 0: the whole report), with the
// reason, against the order's version read.
type RetractInput struct {
	Version int    `json:"version"`
	Result  int64  `json:"result_id"`
	Reason  string `json:"reason"`
}

// Retract marks results of order id entered in error: each row stays, no longer current,
// with status entered_in_error, the reason, who and when, so that it leaves the current
// results, the trends, the delta checks and the critical-result lists, and stays in the
// order's history struck through. Nothing is deleted. A critical alert still open on a
// retracted result is closed (there is no value left to act on); a final or reviewed order
// goes back to the ordering doctor's review, as a correction does.
func (s *Store) Retract(ctx context.Context, e audit.Event, id int64, in RetractInput, lang string) (Detail, error) {
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		reason, err := apperr.Reason(in.Reason)
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
		rows, err := s.toRetract(ctx, tx, o.ID, in.Result)
		if err != nil {
			return err
		}
		now := s.now()
		var names []string
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET status = $1, is_current = 0, retract_reason = $2, retracted_at = $3,
				retracted_by = $4 WHERE id = $5`, EnteredInError, reason, now, actor(e), r.ID); err != nil {
				return fmt.Errorf("retract result: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE critical_alerts SET is_open = 0 WHERE result_id = $1 AND is_open = 1`, r.ID); err != nil {
				return fmt.Errorf("close alert of a retracted result: %w", err)
			}
			names = append(names, r.Analyte)
		}
		attention, err := orderAttention(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		status, toReview := o.Status, boolInt(o.ToReview)
		if o.Status == Final || o.Status == Reviewed {
			status, toReview = Final, 1
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, to_review = $2, attention = $3,
			reviewed_at = CASE WHEN $2 = 1 THEN NULL ELSE reviewed_at END, reviewed_by = CASE WHEN $2 = 1 THEN NULL ELSE reviewed_by END,
			updated_at = $4, updated_by = $5, version = version + 1 WHERE id = $6`,
			status, toReview, attention, now, actor(e), o.ID); err != nil {
			return fmt.Errorf("update order: %w", err)
		}
		if err := s.keep(ctx, tx, now, o.ID); err != nil {
			return err
		}
		return s.event(ctx, tx, e, o.ID, o.PatientID, EnteredInError, reason, now, "results entered in error: "+strings.Join(names, ", "))
	})
	if err != nil {
		return Detail{}, err
	}
	return s.Detail(ctx, id, lang)
}

// toRetract reads the current results of order orderID a retraction withdraws: resultID's
// (it must be a current result of that order), or all of them when resultID is 0.
func (s *Store) toRetract(ctx context.Context, tx *sql.Tx, orderID, resultID int64) ([]Result, error) {
	rows, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 ORDER BY r.id`, orderID))
	if err != nil {
		return nil, err
	}
	current := slices.DeleteFunc(slices.Clone(rows), func(r Result) bool { return !r.Current })
	if resultID == 0 {
		if len(current) == 0 {
			return nil, apperr.Conflict("result.nothing_to_retract")
		}
		return current, nil
	}
	i := slices.IndexFunc(rows, func(r Result) bool { return r.ID == resultID })
	switch {
	case i < 0:
		return nil, apperr.NotFound("result.result_not_found")
	case !rows[i].Current:
		// Replaced by a correction or retracted already: only what the record now says
		// can be withdrawn.
		return nil, apperr.Conflict("result.not_current")
	}
	return rows[i : i+1], nil
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
