package billing

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/httpjson"
	"emr/internal/user"
)

// Range is a span of the clinic's calendar days, both ends included, as the reports read it.
type Range struct {
	From, To string // YYYY-MM-DD
}

// maxRangeDays bounds a report: a little over a year.
const maxRangeDays = 400

// NewRange checks from and to (the clinic's days, of which a bill counts on the one it was
// finalised on).
func NewRange(from, to string) (Range, error) {
	var v apperr.Validation
	start, err1 := time.Parse(time.DateOnly, from)
	end, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil {
		v.Add("from", "validation.date_format")
	}
	if err2 != nil {
		v.Add("to", "validation.date_format")
	}
	if err1 == nil && err2 == nil && (end.Before(start) || end.Sub(start) > maxRangeDays*24*time.Hour) {
		v.Add("to", "billing.bad_range")
	}
	if err := v.Err(); err != nil {
		return Range{}, err
	}
	return Range{From: from, To: to}, nil
}

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

// BillTotals sums the final bills of a range (void ones are counted apart).
type BillTotals struct {
	Bills       int   `json:"bills"`
	Void        int   `json:"void"`
	Subtotal    Money `json:"subtotal"`
	Discount    Money `json:"discount"`
	Total       Money `json:"total"`
	Paid        Money `json:"paid"`
	Credited    Money `json:"credited"`
	Outstanding Money `json:"outstanding"`
}

// BillsReport is a page of the bills finalised in a range, and the range's totals.
type BillsReport struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Currency string     `json:"currency"`
	Totals   BillTotals `json:"totals"`
	Data     []BillRow  `json:"data"`
	Total    int        `json:"total"`
	Page     int        `json:"page"`
	PerPage  int        `json:"per_page"`
}

// Bills reports the bills finalised in r (final and void), numbered order, a page at a
// time (perPage 0: all, for an export), with the range's totals over the final ones.
func (s *Store) Bills(ctx context.Context, r Range, page, perPage int) (BillsReport, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return BillsReport{}, err
	}
	out := BillsReport{From: r.From, To: r.To, Currency: set.Currency, Data: []BillRow{}, Page: page, PerPage: perPage}
	t := &out.Totals
	// The totals from the days' sums (at most 400 rows), not from the range's bills.
	err = s.DB.QueryRowContext(ctx, `SELECT COALESCE(SUM(bills), 0), COALESCE(SUM(void), 0), COALESCE(SUM(subtotal), 0),
		COALESCE(SUM(discount), 0), COALESCE(SUM(total), 0), COALESCE(SUM(paid), 0), COALESCE(SUM(credited), 0) FROM bill_days WHERE day >= $1 AND day <= $2`, r.From, r.To).
		Scan(&t.Bills, &t.Void, &t.Subtotal, &t.Discount, &t.Total, &t.Paid, &t.Credited)
	if err != nil {
		return out, fmt.Errorf("bills report: %w", err)
	}
	t.Outstanding = t.Total - t.Credited - t.Paid
	out.Total = t.Bills + t.Void
	query := `SELECT id, number, status, patient_id, COALESCE(doctor_id, 0), finalised_at, subtotal, discount, total, paid, credited
		FROM bills WHERE day >= $1 AND day <= $2 ORDER BY day, finalised_at, id`
	args := []any{r.From, r.To}
	if perPage > 0 {
		query += ` LIMIT $3 OFFSET $4`
		args = append(args, perPage, (page-1)*perPage)
	}
	rows, err := s.DB.QueryContext(ctx, query, args...)
	if err != nil {
		return out, fmt.Errorf("bills report: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b BillRow
		if err := rows.Scan(&b.ID, &b.Number, &b.Status, &b.Patient.ID, &b.doctorID, &b.FinalisedAt, &b.Subtotal, &b.Discount, &b.Total, &b.Paid, &b.Credited); err != nil {
			return out, fmt.Errorf("bills report: %w", err)
		}
		b.Balance = owed(b.Status, b.Total, b.Credited, b.Paid)
		out.Data = append(out.Data, b)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("bills report: %w", err)
	}
	return out, s.nameRows(ctx, out.Data)
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

// RevenueRow is what one service (or one doctor) brought in a range.
type RevenueRow struct {
	Key    string `json:"key"` // the service's code (or the line's text), or the doctor's id ("" for walk-in bills)
	Name   string `json:"name"`
	Count  int    `json:"count"` // units charged, or bills
	Amount Money  `json:"amount"`
}

// Revenue is a range's revenue by service or by doctor. By service, lines are counted after
// their own discounts; the bills' own discounts are then one row of their own
// (BillDiscounts), so that the rows add up to the total, as by doctor.
type Revenue struct {
	From          string       `json:"from"`
	To            string       `json:"to"`
	By            string       `json:"by"`
	Currency      string       `json:"currency"`
	Rows          []RevenueRow `json:"rows"`
	BillDiscounts Money        `json:"bill_discounts"`
	Credited      Money        `json:"credited"` // refunded for services not given: by service, a row of its own
	Total         Money        `json:"total"`
}

// Revenue sums the final bills finalised in r by service ("service") or by doctor ("doctor").
func (s *Store) Revenue(ctx context.Context, r Range, by string) (Revenue, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return Revenue{}, err
	}
	out := Revenue{From: r.From, To: r.To, By: by, Currency: set.Currency, Rows: []RevenueRow{}}
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(SUM(total), 0), COALESCE(SUM(credited), 0) FROM bill_days WHERE day >= $1 AND day <= $2`,
		r.From, r.To).Scan(&out.Total, &out.Credited); err != nil {
		return out, fmt.Errorf("revenue: %w", err)
	}
	var rows *sql.Rows
	switch by {
	case "service":
		rows, err = s.DB.QueryContext(ctx, `SELECT code, MIN(name), SUM(quantity), SUM(amount) FROM bill_day_services
			WHERE day >= $1 AND day <= $2 GROUP BY code, label HAVING SUM(quantity) <> 0 OR SUM(amount) <> 0
			ORDER BY SUM(amount) DESC, code`, r.From, r.To)
	case "doctor":
		rows, err = s.DB.QueryContext(ctx, `SELECT doctor_id, '', SUM(bills), SUM(total) FROM bill_day_doctors
			WHERE day >= $1 AND day <= $2 GROUP BY doctor_id HAVING SUM(bills) <> 0 ORDER BY SUM(total) DESC, doctor_id`, r.From, r.To)
	default:
		var v apperr.Validation
		v.Add("by", "validation.invalid_choice")
		return out, v.Err()
	}
	if err != nil {
		return out, fmt.Errorf("revenue: %w", err)
	}
	defer rows.Close()
	var charged Money
	var doctors []int64 // by doctor: each row's doctor, 0 for walk-in bills
	for rows.Next() {
		var row RevenueRow
		var doctor int64
		key := any(&row.Key)
		if by == "doctor" {
			key = &doctor
		}
		if err := rows.Scan(key, &row.Name, &row.Count, &row.Amount); err != nil {
			return out, fmt.Errorf("revenue: %w", err)
		}
		if doctor != 0 {
			row.Key = strconv.FormatInt(doctor, 10)
		}
		charged += row.Amount
		doctors = append(doctors, doctor)
		out.Rows = append(out.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("revenue: %w", err)
	}
	if by == "service" {
		// Lines less the bills' discounts is what the bills ask; less the credits, the total.
		out.BillDiscounts = charged - out.Total
		out.Total -= out.Credited
		return out, nil
	}
	out.Total -= out.Credited                    // each doctor's row is net of credits already
	names, err := user.Names(ctx, s.DB, doctors) // one row per doctor already
	for i := range out.Rows {
		out.Rows[i].Name = names[doctors[i]]
	}
	return out, err
}

// WriteBillsCSV writes a bills report as CSV, amounts in major units and times in the
// clinic's time zone (loc), with their offset.
func WriteBillsCSV(w io.Writer, rep BillsReport, loc *time.Location) error {
	units := MinorUnits(rep.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write("number", "status", "finalised_at", "mrn", "patient", "doctor", "subtotal", "discount", "total", "paid", "credited", "balance", "currency")
	for _, b := range rep.Data {
		cw.Write(b.Number, b.Status, b.FinalisedAt.In(loc).Format(time.RFC3339), b.Patient.MRN, b.Patient.Name, b.Doctor,
			b.Subtotal.Major(units), b.Discount.Major(units), b.Total.Major(units), b.Paid.Major(units),
			b.Credited.Major(units), b.Balance.Major(units), rep.Currency)
	}
	return cw.Flush()
}

// WriteRevenueCSV writes a revenue report as CSV, amounts in major units.
func WriteRevenueCSV(w io.Writer, rep Revenue) error {
	units := MinorUnits(rep.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write(rep.By, "name", "count", "amount", "currency")
	for _, row := range rep.Rows {
		cw.Write(row.Key, row.Name, strconv.Itoa(row.Count), row.Amount.Major(units), rep.Currency)
	}
	if rep.By == "service" && rep.BillDiscounts != 0 {
		cw.Write("", "bill discounts", "", (-rep.BillDiscounts).Major(units), rep.Currency)
	}
	if rep.By == "service" && rep.Credited != 0 {
		cw.Write("", "credited (services not given)", "", (-rep.Credited).Major(units), rep.Currency)
	}
	cw.Write("", "total", "", rep.Total.Major(units), rep.Currency)
	return cw.Flush()
}

// WriteCashUpCSV writes a day's cash-up as CSV: a row per cashier and method, then per
// method, then the total; amounts in major units.
func WriteCashUpCSV(w io.Writer, c CashUp) error {
	units := MinorUnits(c.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write("day", "cashier", "method", "payments", "received", "refunds", "refunded", "net", "currency")
	row := func(cashier string, m MethodSum) {
		cw.Write(c.Day, cashier, m.Method, strconv.Itoa(m.Payments), m.Received.Major(units), strconv.Itoa(m.Refunds),
			m.Refunded.Major(units), m.Net.Major(units), c.Currency)
	}
	for _, r := range c.Rows {
		row(r.Cashier, r.MethodSum)
	}
	for _, m := range c.Methods {
		row("", m)
	}
	row("", c.Total)
	return cw.Flush()
}

// WriteOutstandingCSV writes the outstanding bills as CSV, amounts in major units and times
// in the clinic's time zone (loc), with their offset.
func WriteOutstandingCSV(w io.Writer, list []Owing, currency string, loc *time.Location) error {
	units := MinorUnits(currency)
	cw := httpjson.NewCSV(w)
	cw.Write("number", "finalised_at", "mrn", "patient", "total", "paid", "credited", "balance", "currency")
	for _, o := range list {
		cw.Write(o.Number, o.FinalisedAt.In(loc).Format(time.RFC3339), o.Patient.MRN, o.Patient.Name,
			o.Total.Major(units), o.Paid.Major(units), o.Credited.Major(units), o.Balance.Major(units), currency)
	}
	return cw.Flush()
}
