package result

import (
	"context"
	"fmt"
	"strings"

	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
)

// MaxForRelease is the most orders of a patient the release rules judge at once (newest
// first); the orders a document printed are read by id whatever their age. A variable for
// the tests of that.
var MaxForRelease = 300

// ForRelease reads what the rules of what a patient may see judge of orders (ADR 45): a
// patient's newest MaxForRelease orders (ids nil), or the orders ids of the patient
// (patientID 0: of anyone), newest first, with their current results labelled in lang, and
// the ids of the current results that are critical with no acknowledged alert (a critical
// flag, or an alert raised on the value, and none of its alerts acknowledged). Asked by ids,
// one not found is not listed.
func (s *Store) ForRelease(ctx context.Context, patientID int64, ids []int64, lang string) ([]Order, map[int64]bool, error) {
	which, args := "TRUE", []any{patientID, MaxForRelease}
	if ids != nil {
		if len(ids) == 0 {
			return nil, map[int64]bool{}, nil
		}
		var in []any
		which, in = database.InIDs(s.DB, "o.id", ids, 3)
		args = append([]any{patientID, len(ids)}, in...)
	}
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE ($1 = 0 OR o.patient_id = $1) AND `+which+` ORDER BY o.id DESC LIMIT $2`, args...))
	if err != nil {
		return nil, nil, err
	}
	if err := s.complete(ctx, s.DB, list, lang, true); err != nil {
		return nil, nil, err
	}
	unacknowledged := map[int64]bool{}
	if len(list) == 0 {
		return list, unacknowledged, nil
	}
	listed := make([]int64, len(list))
	for i, o := range list {
		listed[i] = o.ID
	}
	in, inArgs := database.InIDs(s.DB, "r.order_id", listed, 4)
	rows, err := s.DB.QueryContext(ctx, `SELECT r.id FROM lab_results r
		WHERE `+in+` AND r.is_current = 1
		AND (r.flag IN ($1, $2, $3) OR EXISTS (SELECT 1 FROM critical_alerts a WHERE a.result_id = r.id))
		AND NOT EXISTS (SELECT 1 FROM critical_alerts a WHERE a.result_id = r.id AND a.acknowledged_at IS NOT NULL)`,
		append([]any{catalogue.FlagCriticalLow, catalogue.FlagCriticalHigh, catalogue.FlagCritical}, inArgs...)...)
	if err != nil {
		return nil, nil, fmt.Errorf("read unacknowledged critical results: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, nil, err
		}
		unacknowledged[id] = true
	}
	return list, unacknowledged, rows.Err()
}

// ValueIn is a result's value as a patient reads it in lang: the number with its comparator
// and unit, the coded answer in words, or the report's text.
func (r Result) ValueIn(lang string) string {
	switch r.Type {
	case "numeric":
		if r.Value == nil {
			return ""
		}
		return comparatorSign[r.Comparator] + quantityIn(lang, *r.Value, r.Unit)
	case "coded":
		return i18n.T(lang, "result.answer."+r.Answer)
	}
	return strings.Join(strings.Fields(r.Text), " ")
}

// RangeIn is the reference interval that applied to a result, as lang writes it ("" when none).
func (r Result) RangeIn(lang string) string { return r.rangeIn(lang) }
