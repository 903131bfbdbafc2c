package result

import (
	"context"
	"fmt"
	"time"

	"emr/internal/database"
)

// States of a test on a day, as an order set shows it.
const (
	OrderedToday  = "ordered"
	ResultedToday = "resulted"
)

// SameDay is what a patient had ordered or resulted between from and to at visits other than
// exceptVisit: each test's code with ResultedToday (it has a result) or OrderedToday.
// Cancelled and not-done orders do not count.
func SameDay(ctx context.Context, q database.Querier, patientID, exceptVisit int64, from, to time.Time) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT test, status FROM lab_orders WHERE patient_id = $1 AND appointment_id <> $2
		AND status NOT IN ('cancelled', 'not_done') AND ((ordered_at >= $3 AND ordered_at < $4) OR (resulted_at >= $3 AND resulted_at < $4))`,
		patientID, exceptVisit, from.UTC(), to.UTC())
	if err != nil {
		return nil, fmt.Errorf("tests of the day: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var code, status string
		if err := rows.Scan(&code, &status); err != nil {
			return nil, err
		}
		switch status {
		case "preliminary", "final", "reviewed":
			out[code] = ResultedToday
		default:
			if out[code] == "" {
				out[code] = OrderedToday
			}
		}
	}
	return out, rows.Err()
}
