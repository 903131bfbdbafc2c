package feereport

import (
	"cmp"
	"context"
	"database/sql"
	"emr/internal/apperr"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/user"
	"fmt"
	"slices"
	"strconv"
	"time"
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

// BillTotals sums the final bills of a range (void ones are counted apart).
type BillTotals struct {
	Bills       int           `json:"bills"`
	Void        int           `json:"void"`
	Subtotal    billing.Money `json:"subtotal"`
	Discount    billing.Money `json:"discount"`
	Total       billing.Money `json:"total"`
	Paid        billing.Money `json:"paid"`
	Credited    billing.Money `json:"credited"`
	Outstanding billing.Money `json:"outstanding"`
}

// BillsReport is a page of the bills finalised in a range, and the range's totals.
type BillsReport struct {
	From     string            `json:"from"`
	To       string            `json:"to"`
	Currency string            `json:"currency"`
	Totals   BillTotals        `json:"totals"`
	Data     []billing.BillRow `json:"data"`
	Total    int               `json:"total"`
	Page     int               `json:"page"`
	PerPage  int               `json:"per_page"`
}

// Owed is the final bills with a balance left: how many, what they owe in all, and a page.
type Owed struct {
	Data    []billing.Owing `json:"data"`
	Total   int             `json:"total"`
	Balance billing.Money   `json:"balance"`
	Page    int             `json:"page"`
	PerPage int             `json:"per_page"`
}

// Reports answers the fee reports: its own day sums, and the bills' rows through the
// billing store.
type Reports struct {
	DB   *database.DB
	Fees *billing.Store
	Loc  *time.Location // the clinic's time zone, for the times in a CSV file
}

// Bills reports the bills finalised in r (final and void), numbered order, a page at a
// time (perPage 0: all, for an export), with the range's totals over the final ones.
func (s *Reports) Bills(ctx context.Context, r Range, page, perPage int) (BillsReport, error) {
	set, err := billing.ReadSettings(ctx, s.DB)
	if err != nil {
		return BillsReport{}, err
	}
	out := BillsReport{From: r.From, To: r.To, Currency: set.Currency, Data: []billing.BillRow{}, Page: page, PerPage: perPage}
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
	out.Data, err = s.Fees.FinalisedIn(ctx, r.From, r.To, page, perPage)
	return out, err
}

// RevenueRow is what one service (or one doctor) brought in a range.
type RevenueRow struct {
	Key    string        `json:"key"` // the service's code (or the line's text), or the doctor's id ("" for walk-in bills)
	Name   string        `json:"name"`
	Count  int           `json:"count"` // units charged, or bills
	Amount billing.Money `json:"amount"`
	// Credited is, by service, what refunds naming this service took off its charges (as not
	// given): Amount is net of it, so a unit charged and wholly credited reads 1, credited, 0.
	Credited billing.Money `json:"credited"`
}

// Revenue is a range's revenue by service or by doctor. By service, lines are counted after
// their own discounts; the bills' own discounts are then one row of their own
// (BillDiscounts), so that the rows add up to the total, as by doctor.
type Revenue struct {
	From          string        `json:"from"`
	To            string        `json:"to"`
	By            string        `json:"by"`
	Currency      string        `json:"currency"`
	Rows          []RevenueRow  `json:"rows"`
	BillDiscounts billing.Money `json:"bill_discounts"`
	Credited      billing.Money `json:"credited"` // refunded for services not given
	// CreditedApart is, by service, what refunds credited without naming the service: a row of
	// its own (credits naming one are netted into its row).
	CreditedApart billing.Money `json:"credited_apart"`
	Total         billing.Money `json:"total"`
}

// Revenue sums the final bills finalised in r by service ("service") or by doctor ("doctor").
func (s *Reports) Revenue(ctx context.Context, r Range, by string) (Revenue, error) {
	set, err := billing.ReadSettings(ctx, s.DB)
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
		rows, err = s.DB.QueryContext(ctx, `SELECT code, label, MIN(name), SUM(quantity), SUM(amount) FROM bill_day_services
			WHERE day >= $1 AND day <= $2 GROUP BY code, label HAVING SUM(quantity) <> 0 OR SUM(amount) <> 0
			ORDER BY SUM(amount) DESC, code`, r.From, r.To)
	case "doctor":
		rows, err = s.DB.QueryContext(ctx, `SELECT doctor_id, '', '', SUM(bills), SUM(total) FROM bill_day_doctors
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
	var charged billing.Money
	var doctors []int64 // by doctor: each row's doctor, 0 for walk-in bills
	var labels []string // by service: each row's charge text, for a charge of no service
	for rows.Next() {
		var row RevenueRow
		var doctor int64
		var label string
		key := any(&row.Key)
		if by == "doctor" {
			key = &doctor
		}
		if err := rows.Scan(key, &label, &row.Name, &row.Count, &row.Amount); err != nil {
			return out, fmt.Errorf("revenue: %w", err)
		}
		if doctor != 0 {
			row.Key = strconv.FormatInt(doctor, 10)
		}
		charged += row.Amount
		doctors, labels = append(doctors, doctor), append(labels, label)
		out.Rows = append(out.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("revenue: %w", err)
	}
	if by == "service" {
		// Lines less the bills' discounts is what the bills ask; less the credits, the total.
		out.BillDiscounts = charged - out.Total
		out.Total -= out.Credited
		out.CreditedApart = out.Credited
		return out, s.netCredits(ctx, r, &out, labels)
	}
	out.Total -= out.Credited                    // each doctor's row is net of credits already
	names, err := user.Names(ctx, s.DB, doctors) // one row per doctor already
	for i := range out.Rows {
		out.Rows[i].Name = names[doctors[i]]
		if doctors[i] == 0 {
			// A walk-in bill has no doctor: said in words, not left blank.
			out.Rows[i].Name = i18n.T(i18n.FromContext(ctx), "billing.walk_in")
		}
	}
	return out, err
}

// netCredits takes what refunds credited against a named charge off that service's row, so
// that a service refunded as not given counts no revenue; Credited keeps only the credits
// that named no charge (CreditedApart, a row of their own). The rows, less the bills' discounts and those
// credits, add up to the total.
func (s *Reports) netCredits(ctx context.Context, r Range, out *Revenue, labels []string) error {
	credits, err := s.Fees.CreditsByService(ctx, r.From, r.To)
	if err != nil {
		return err
	}
	for _, c := range credits {
		for i, row := range out.Rows {
			if row.Key == c.Code && labels[i] == c.Label {
				out.Rows[i].Amount -= c.Credit
				out.Rows[i].Credited += c.Credit
				out.CreditedApart -= c.Credit
				break
			}
		}
	}
	slices.SortStableFunc(out.Rows, func(a, b RevenueRow) int { return cmp.Compare(b.Amount, a.Amount) })
	return nil
}

// Outstanding lists the final bills with a balance left, oldest first, a page at a time
// (perPage 0: all, for an export), with their count and what they owe in all — from the days'
// sums (every final bill's total less what it was paid and credited), not bill by bill.
func (s *Reports) Outstanding(ctx context.Context, page, perPage int) (Owed, error) {
	res := Owed{Page: page, PerPage: perPage}
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(SUM(total) - SUM(paid) - SUM(credited), 0) FROM bill_days`).Scan(&res.Balance); err != nil {
		return res, fmt.Errorf("outstanding bills: %w", err)
	}
	var err error
	res.Data, res.Total, err = s.Fees.Owing(ctx, page, perPage)
	return res, err
}

// Today is the money taken today (payments less refunds), for the dashboard.
type Today struct {
	Day        string        `json:"day"`
	Currency   string        `json:"currency"`
	MinorUnits int           `json:"minor_units"`
	Collected  billing.Money `json:"collected"`
	Payments   int           `json:"payments"`
}

// CollectedToday sums today's payments and refunds in the clinic's calendar.
func (s *Reports) CollectedToday(ctx context.Context) (Today, error) {
	day := s.Fees.Today()
	c, err := s.Fees.CashUp(ctx, day, 0)
	if err != nil {
		return Today{}, err
	}
	return Today{Day: day, Currency: c.Currency, MinorUnits: billing.MinorUnits(c.Currency), Collected: c.Total.Net, Payments: c.Total.Payments}, nil
}
