package result

import (
	"context"
	"fmt"
	"strings"

	"emr/internal/apperr"
	"emr/internal/catalogue"
	"emr/internal/i18n"
)

// MaxForRelease is the most orders of a patient the release rules judge at once (newest first).
const MaxForRelease = 300

// ForRelease reads what the rules of what a patient may see judge of orders (ADR 45): a
// patient's orders (orderID 0), or one order (patientID 0), newest first, with their current
// results labelled in lang, and the ids of the current results that are critical with no
// acknowledged alert (a critical flag, or an alert raised on the value, and none of its
// alerts acknowledged).
func (s *Store) ForRelease(ctx context.Context, patientID, orderID int64, lang string) ([]Order, map[int64]bool, error) {
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE ($1 = 0 OR o.patient_id = $1) AND ($2 = 0 OR o.id = $2) ORDER BY o.id DESC LIMIT $3`, patientID, orderID, MaxForRelease))
	if err != nil {
		return nil, nil, err
	}
	if orderID != 0 && len(list) == 0 {
		return nil, nil, apperr.NotFound("result.order_not_found")
	}
	if err := s.complete(ctx, s.DB, list, lang, true); err != nil {
		return nil, nil, err
	}
	unacknowledged := map[int64]bool{}
	rows, err := s.DB.QueryContext(ctx, `SELECT r.id FROM lab_results r JOIN lab_orders o ON o.id = r.order_id
		WHERE ($1 = 0 OR o.patient_id = $1) AND ($2 = 0 OR o.id = $2) AND r.is_current = 1
		AND (r.flag IN ($3, $4, $5) OR EXISTS (SELECT 1 FROM critical_alerts a WHERE a.result_id = r.id))
		AND NOT EXISTS (SELECT 1 FROM critical_alerts a WHERE a.result_id = r.id AND a.acknowledged_at IS NOT NULL)`,
		patientID, orderID, catalogue.FlagCriticalLow, catalogue.FlagCriticalHigh, catalogue.FlagCritical)
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
