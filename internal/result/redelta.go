package result

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"emr/internal/catalogue"
)

// redeltaLimit bounds the later results one withdrawn value has its delta flags read again on.
const redeltaLimit = 200

// redelta reads again the delta flag of patientID's current results of analyte observed at or
// after at (within each one's delta window), once a value observed then changed: retracted as
// entered in error, corrected, recorded late, or its test marked not done. A later value flagged
// as a change from the value withdrawn is flagged against what stands now, or not at all; one
// that should have been flagged is, and its order, if reviewed, goes back to review (M1 of the
// laboratory clinician's review, 2026-11-29). A value at the same instant on another order is
// read again too (m3); the value at itself reads no other value of its own order. Each order whose flags changed has its attention
// ranked again and a new version kept; their ids are answered.
func (s *Store) redelta(ctx context.Context, tx *sql.Tx, patientID int64, analyte string, at, now time.Time) ([]int64, error) {
	type later struct {
		id, order  int64
		test       string
		value      float64
		observedAt time.Time
		delta      string
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.order_id, o.test, r.value, r.observed_at, r.delta FROM lab_results r
		JOIN lab_orders o ON o.id = r.order_id WHERE r.patient_id = $1 AND r.analyte = $2 AND r.observed_at >= $3 AND r.is_current = 1
		AND r.value IS NOT NULL AND r.comparator = '' AND o.status NOT IN ('not_done', 'cancelled') ORDER BY r.observed_at, r.id LIMIT $4`,
		patientID, analyte, at, redeltaLimit)
	if err != nil {
		return nil, fmt.Errorf("read later results: %w", err)
	}
	var list []later
	for rows.Next() {
		var l later
		var value string
		if err := rows.Scan(&l.id, &l.order, &l.test, &value, &l.observedAt, &l.delta); err != nil {
			rows.Close()
			return nil, err
		}
		if l.value, err = strconv.ParseFloat(value, 64); err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tests := map[string]catalogue.TestResults{}
	var changed []int64
	for _, l := range list {
		test, ok := tests[l.test]
		if !ok {
			if test, err = catalogue.ReadTestResults(ctx, tx, l.test, "en"); err != nil {
				return nil, fmt.Errorf("read test %s: %w", l.test, err)
			}
			tests[l.test] = test
		}
		var a *catalogue.Analyte
		for i := range test.Analytes {
			if test.Analytes[i].Code == analyte {
				a = &test.Analytes[i]
			}
		}
		var delta string
		switch {
		case a == nil || len(a.DeltaRules) == 0:
			// Its test no longer lists the analyte, or no rule checks it: no flag stands.
		case l.observedAt.Sub(at) > a.MaxDeltaWindow():
			continue // its flag never read the value that changed
		default:
			earlier, err := earlierValues(ctx, tx, patientID, analyte, l.order, l.observedAt, a.MaxDeltaWindow())
			if err != nil {
				return nil, err
			}
			delta = a.Delta(l.value, l.observedAt, earlier)
		}
		if delta == l.delta {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET delta = $1 WHERE id = $2`, delta, l.id); err != nil {
			return nil, fmt.Errorf("update delta: %w", err)
		}
		attention, err := orderAttention(ctx, tx, l.order)
		if err != nil {
			return nil, err
		}
		// A reviewed order gaining a flag goes back to its doctor's review: what was reviewed
		// no longer says what the record says.
		gained := l.delta == "" && delta != ""
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET attention = $1, updated_at = $2, version = version + 1,
			status = CASE WHEN $4 AND status = 'reviewed' THEN 'final' ELSE status END,
			to_review = CASE WHEN $4 AND status IN ('reviewed', 'final') THEN 1 ELSE to_review END,
			reviewed_at = CASE WHEN $4 AND status = 'reviewed' THEN NULL ELSE reviewed_at END,
			reviewed_by = CASE WHEN $4 AND status = 'reviewed' THEN NULL ELSE reviewed_by END WHERE id = $3`,
			attention, now, l.order, gained); err != nil {
			return nil, fmt.Errorf("update order: %w", err)
		}
		changed = append(changed, l.order)
	}
	return unique(changed), nil
}
