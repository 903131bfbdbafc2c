package billing

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"emr/internal/database"
)

// The fee reports over a date range read sums kept per clinic day (migration 17, ADR 22):
// bill_days (final and void counts and the final bills' money), bill_day_services (charged
// per service) and bill_day_doctors (final bills per doctor). A bill counts on the day it was
// finalised; these functions move the sums in the transaction that changes the bill.

// dayOf is the clinic's calendar day of t.
func (s *Store) dayOf(t time.Time) string { return t.In(s.loc()).Format(time.DateOnly) }

// countDay adds sign × bill b (read with its lines) to its day's sums: +1 when it is
// finalised, -1 when a final bill is voided (which counts it as void instead).
func countDay(ctx context.Context, tx *sql.Tx, day string, b Bill, sign int64) error {
	void := int64(0)
	if sign < 0 {
		void = 1
	}
	m := Money(sign)
	if err := addToDay(ctx, tx, day, sign, void, m*b.Subtotal, m*b.Discount, m*b.Total, m*b.Paid, m*b.Credited); err != nil {
		return err
	}
	doctor := int64(0)
	if b.DoctorID != nil {
		doctor = *b.DoctorID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bill_day_doctors (day, doctor_id, bills, total) VALUES ($1, $2, $3, $4)
		ON CONFLICT (day, doctor_id) DO UPDATE SET bills = bill_day_doctors.bills + excluded.bills, total = bill_day_doctors.total + excluded.total`,
		day, doctor, sign, m*(b.Total-b.Credited)); err != nil {
		return fmt.Errorf("count bill's day: %w", err)
	}
	for _, l := range b.Lines {
		label := ""
		if l.Code == "" {
			label = l.Description
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO bill_day_services (day, code, label, name, quantity, amount) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (day, code, label) DO UPDATE SET quantity = bill_day_services.quantity + excluded.quantity,
			amount = bill_day_services.amount + excluded.amount`, day, l.Code, label, l.Description, sign*l.Quantity, m*l.Amount); err != nil {
			return fmt.Errorf("count bill's day: %w", err)
		}
	}
	return nil
}

// addToDay adds to a day's bill sums.
func addToDay(ctx context.Context, tx *sql.Tx, day string, bills, void int64, subtotal, discount, total, paid, credited Money) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO bill_days (day, bills, void, subtotal, discount, total, paid, credited) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (day) DO UPDATE SET bills = bill_days.bills + excluded.bills, void = bill_days.void + excluded.void,
		subtotal = bill_days.subtotal + excluded.subtotal, discount = bill_days.discount + excluded.discount,
		total = bill_days.total + excluded.total, paid = bill_days.paid + excluded.paid, credited = bill_days.credited + excluded.credited`,
		day, bills, void, subtotal, discount, total, paid, credited)
	if err != nil {
		return fmt.Errorf("count bill's day: %w", err)
	}
	return nil
}

// creditDoctor takes what a refund credited off the revenue of the bill's doctor on the
// bill's day: a doctor's revenue is what the bills ask, net of services not given.
func creditDoctor(ctx context.Context, tx *sql.Tx, day string, doctor int64, credit Money) error {
	if credit == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE bill_day_doctors SET total = total - $1 WHERE day = $2 AND doctor_id = $3`, credit, day, doctor); err != nil {
		return fmt.Errorf("count bill's day: %w", err)
	}
	return nil
}

// RebuildDays recomputes every day's sums from the bills (for bills written in bulk, as the
// demo seeder does): what the store's writes keep up one bill at a time.
func RebuildDays(ctx context.Context, db *database.DB) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM bill_days`, `DELETE FROM bill_day_services`, `DELETE FROM bill_day_doctors`,
			`INSERT INTO bill_days (day, bills, void, subtotal, discount, total, paid, credited)
			SELECT day, SUM(CASE WHEN status = 'final' THEN 1 ELSE 0 END), SUM(CASE WHEN status = 'void' THEN 1 ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN subtotal ELSE 0 END), SUM(CASE WHEN status = 'final' THEN discount ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN total ELSE 0 END), SUM(CASE WHEN status = 'final' THEN paid ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN credited ELSE 0 END)
			FROM bills WHERE day IS NOT NULL GROUP BY day`,
			`INSERT INTO bill_day_services (day, code, label, name, quantity, amount)
			SELECT b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END, MIN(l.description), SUM(l.quantity), SUM(l.amount)
			FROM bill_lines l JOIN bills b ON b.id = l.bill_id WHERE b.status = 'final'
			GROUP BY b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END`,
			`INSERT INTO bill_day_doctors (day, doctor_id, bills, total)
			SELECT day, COALESCE(doctor_id, 0), COUNT(*), SUM(total - credited) FROM bills WHERE status = 'final' GROUP BY day, COALESCE(doctor_id, 0)`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("rebuild bill days: %w", err)
			}
		}
		return nil
	})
}
