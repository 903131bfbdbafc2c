package billing

import (
	"context"
	"emr/internal/user"
	"fmt"
	"slices"
	"time"
)

// BillRow is a bill of the date-range report.
type BillRow struct {
	ID          int64      `json:"id"`
	Number      string     `json:"number"`
	Status      string     `json:"status"`
	Patient     PatientRef `json:"patient"`
	Doctor      string     `json:"doctor"`
	FinalisedAt time.Time  `json:"finalised_at"`
	Subtotal    Money      `json:"subtotal"`
	Discount    Money      `json:"discount"`
	Total       Money      `json:"total"`
	Paid        Money      `json:"paid"`
	Credited    Money      `json:"credited"`
	Balance     Money      `json:"balance"`
	doctorID    int64
}

// FinalisedIn lists the bills finalised on the clinic days from to to (final and void),
// in numbered order, a page at a time (perPage 0: all, for an export), with their patients
// and doctors named.
func (s *Store) FinalisedIn(ctx context.Context, from, to string, page, perPage int) ([]BillRow, error) {
	out := []BillRow{}
	query := `SELECT id, number, status, patient_id, COALESCE(doctor_id, 0), finalised_at, subtotal, discount, total, paid, credited
		FROM bills WHERE day >= $1 AND day <= $2 ORDER BY day, finalised_at, id`
	args := []any{from, to}
	if perPage > 0 {
		query += ` LIMIT $3 OFFSET $4`
		args = append(args, perPage, (page-1)*perPage)
	}
	rows, err := s.DB.QueryContext(ctx, query, args...)
	if err != nil {
		return out, fmt.Errorf("bills finalised: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b BillRow
		if err := rows.Scan(&b.ID, &b.Number, &b.Status, &b.Patient.ID, &b.doctorID, &b.FinalisedAt, &b.Subtotal, &b.Discount, &b.Total, &b.Paid, &b.Credited); err != nil {
			return out, fmt.Errorf("bills finalised: %w", err)
		}
		b.Balance = owed(b.Status, b.Total, b.Credited, b.Paid)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("bills finalised: %w", err)
	}
	return out, s.nameRows(ctx, out)
}

// nameRows fills in the rows' patients and doctors.
func (s *Store) nameRows(ctx context.Context, list []BillRow) error {
	patients, doctors := make([]int64, len(list)), make([]int64, len(list))
	for i, b := range list {
		patients[i], doctors[i] = b.Patient.ID, b.doctorID
	}
	refs, err := patientRefs(ctx, s.DB, patients)
	if err != nil {
		return err
	}
	slices.Sort(doctors)
	names, err := user.Names(ctx, s.DB, slices.Compact(doctors))
	for i := range list {
		list[i].Patient, list[i].Doctor = refs[list[i].Patient.ID], names[list[i].doctorID]
	}
	return err
}
