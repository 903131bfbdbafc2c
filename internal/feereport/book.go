// Package feereport is the fee reports' read model, beside the dashboard's: the sums per
// clinic day that the billing domain's writes keep through its DayBook (in their own
// transactions), and the reports over them — money taken today, the bills of a date range
// with their totals, revenue by service or doctor, and what is owed — with their CSV files.
// The rows of bills it lists are the billing domain's, read through its store; the sums are
// this package's own tables (bill_days, bill_day_services, bill_day_doctors).
package feereport

import (
	"context"
	"database/sql"
	"fmt"

	"emr/internal/billing"
	"emr/internal/database"
)

// Book keeps the day sums: billing's DayBook.
type Book struct{}

var _ billing.DayBook = Book{}

// CountBill adds sign × bill b (read with its lines) to its day's sums: +1 when it is
// finalised, -1 when a final bill is voided (which counts it as void instead).
func (Book) CountBill(ctx context.Context, tx *sql.Tx, day string, b billing.Bill, sign int64) error {
	void := int64(0)
	if sign < 0 {
		void = 1
	}
	m := billing.Money(sign)
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
	// Each line counts its share of what the bill asks: its amount less its part of the bill's
	// own discount, as a refund naming it credits (the cashier's review, M8: a line wholly
	// credited on a bill 20 % off read 20 % of its price as revenue). What the rounding of the
	// parts leaves is the report's bill-discount row.
	var lines billing.Money
	for _, l := range b.Lines {
		lines += l.Amount
	}
	for _, l := range b.Lines {
		amount := l.Amount - billing.ShareOfDiscount(l.Amount, lines, b.Total)
		label := ""
		if l.Code == "" {
			label = l.Description
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO bill_day_services (day, code, label, name, quantity, amount) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (day, code, label) DO UPDATE SET quantity = bill_day_services.quantity + excluded.quantity,
			amount = bill_day_services.amount + excluded.amount`, day, l.Code, label, l.Description, sign*l.Quantity, m*amount); err != nil {
			return fmt.Errorf("count bill's day: %w", err)
		}
	}
	return nil
}

// addToDay adds to a day's bill sums.
func addToDay(ctx context.Context, tx *sql.Tx, day string, bills, void int64, subtotal, discount, total, paid, credited billing.Money) error {
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
func creditDoctor(ctx context.Context, tx *sql.Tx, day string, doctor int64, credit billing.Money) error {
	if credit == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE bill_day_doctors SET total = total - $1 WHERE day = $2 AND doctor_id = $3`, credit, day, doctor); err != nil {
		return fmt.Errorf("count bill's day: %w", err)
	}
	return nil
}

// CountMoney adds money paid (or, negative, refunded) on day to its sums, and takes what a
// refund credited off the revenue of the bill's doctor.
func (Book) CountMoney(ctx context.Context, tx *sql.Tx, day string, doctor int64, paid, credited billing.Money) error {
	if err := addToDay(ctx, tx, day, 0, 0, 0, 0, 0, paid, credited); err != nil {
		return err
	}
	return creditDoctor(ctx, tx, day, doctor, credited)
}

// Finals is how many bills are final in all, from the days' sums (a few hundred rows) rather
// than the bills.
func (Book) Finals(ctx context.Context, q database.Querier) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(bills), 0) FROM bill_days`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count final bills: %w", err)
	}
	return n, nil
}
