package billing

import (
	"context"
	"emr/internal/database"
	"emr/internal/user"
	"fmt"
	"slices"
	"strings"
	"time"
)

// CashUp is a day's money: each drawer's shift to count (Drawers), then the day's
// payments and refunds by cashier's drawer and method, by method, and in all. Mine says the
// caller sees only her own drawer.
type CashUp struct {
	Day      string `json:"day"`
	Currency string `json:"currency"`
	Mine     bool   `json:"mine"`
	// Blind says the cash taken and given back is withheld: the caller's drawer is open and
	// not yet counted, and she may only cash up her own (Blinded).
	Blind   bool        `json:"blind"`
	Drawers []Drawer    `json:"drawers"`
	Rows    []CashUpRow `json:"rows"`
	Methods []MethodSum `json:"methods"`
	Total   MethodSum   `json:"total"`
}

// CashUpRow is one drawer's takings by one method (a refund counts in the drawer its cash
// left, whoever authorised it).
type CashUpRow struct {
	CashierID int64  `json:"cashier_id"`
	Cashier   string `json:"cashier"`
	MethodSum
}

// MethodSum is money in, money out and their difference, with counts.
type MethodSum struct {
	Method   string `json:"method"`
	Payments int    `json:"payments"`
	Received Money  `json:"received"`
	Refunds  int    `json:"refunds"`
	Refunded Money  `json:"refunded"`
	Net      Money  `json:"net"`
}

func (m *MethodSum) add(kind string, n int, sum Money) {
	if kind == "refund" {
		m.Refunds, m.Refunded = m.Refunds+n, m.Refunded+sum
	} else {
		m.Payments, m.Received = m.Payments+n, m.Received+sum
	}
	m.Net = m.Received - m.Refunded
}

// CashUp sums day's payments and refunds (day in the clinic's calendar) per drawer and
// method, per method, and in all, with the drawers' shifts; of cashier's drawer alone,
// unless cashier is 0.
func (s *Store) CashUp(ctx context.Context, day string, cashier int64) (CashUp, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return CashUp{}, err
	}
	out := CashUp{Day: day, Currency: set.Currency, Mine: cashier != 0, Rows: []CashUpRow{}, Methods: []MethodSum{}}
	shifts, err := s.shiftsOf(ctx, day, cashier)
	if err != nil {
		return out, err
	}
	if out.Drawers, err = s.drawers(ctx, s.DB, shifts); err != nil {
		return out, err
	}
	// A refund counts in the drawer its cash left; a payment from before drawers, its taker's.
	mine, args := "", []any{day}
	if cashier != 0 {
		mine, args = " AND COALESCE(drawer_id, received_by, 0) = $2", append(args, cashier)
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT COALESCE(drawer_id, received_by, 0), method, kind, COUNT(*), SUM(amount) FROM payments
		WHERE day = $1`+mine+` GROUP BY COALESCE(drawer_id, received_by, 0), method, kind`, args...)
	if err != nil {
		return out, fmt.Errorf("cash-up: %w", err)
	}
	defer rows.Close()
	byRow := map[[2]any]*CashUpRow{}
	byMethod := map[string]*MethodSum{}
	for rows.Next() {
		var cashier int64
		var method, kind string
		var n int
		var sum Money
		if err := rows.Scan(&cashier, &method, &kind, &n, &sum); err != nil {
			return out, fmt.Errorf("cash-up: %w", err)
		}
		k := [2]any{cashier, method}
		if byRow[k] == nil {
			byRow[k] = &CashUpRow{CashierID: cashier, MethodSum: MethodSum{Method: method}}
		}
		byRow[k].add(kind, n, sum)
		if byMethod[method] == nil {
			byMethod[method] = &MethodSum{Method: method}
		}
		byMethod[method].add(kind, n, sum)
		out.Total.add(kind, n, sum)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("cash-up: %w", err)
	}
	ids := []int64{}
	for _, r := range byRow {
		ids = append(ids, r.CashierID)
	}
	slices.Sort(ids)
	names, err := user.Names(ctx, s.DB, slices.Compact(ids))
	if err != nil {
		return out, err
	}
	for _, r := range byRow {
		r.Cashier = names[r.CashierID]
		out.Rows = append(out.Rows, *r)
	}
	slices.SortFunc(out.Rows, func(a, b CashUpRow) int {
		if a.Cashier != b.Cashier {
			return strings.Compare(a.Cashier, b.Cashier)
		}
		return slices.Index(Methods, a.Method) - slices.Index(Methods, b.Method)
	})
	for _, m := range Methods {
		if byMethod[m] != nil {
			out.Methods = append(out.Methods, *byMethod[m])
		}
	}
	return out, nil
}

// Blinded is c as one who may only cash up her own drawer reads it: while a drawer of hers is
// open and not yet counted, its cash figures are null and the day's cash takings are left out
// of the rows, the methods and the total, so she counts it blind (the review of the blind
// count, finding 2).
func (c CashUp) Blinded() CashUp {
	drawers := make([]Drawer, len(c.Drawers))
	for i, d := range c.Drawers {
		drawers[i] = d.Blinded()
		c.Blind = c.Blind || d.Blind()
	}
	c.Drawers = drawers
	if !c.Blind {
		return c
	}
	notCash := func(m MethodSum) bool { return m.Method != "cash" }
	rows := []CashUpRow{}
	for _, r := range c.Rows {
		if notCash(r.MethodSum) {
			rows = append(rows, r)
		}
	}
	methods := []MethodSum{}
	c.Total = MethodSum{}
	for _, m := range c.Methods {
		if notCash(m) {
			methods = append(methods, m)
			c.Total.Payments, c.Total.Received = c.Total.Payments+m.Payments, c.Total.Received+m.Received
			c.Total.Refunds, c.Total.Refunded = c.Total.Refunds+m.Refunds, c.Total.Refunded+m.Refunded
		}
	}
	c.Total.Net = c.Total.Received - c.Total.Refunded
	c.Rows, c.Methods = rows, methods
	return c
}

// Owing is a final bill with a balance left to pay.
type Owing struct {
	ID          int64      `json:"id"`
	Number      string     `json:"number"`
	Patient     PatientRef `json:"patient"`
	FinalisedAt time.Time  `json:"finalised_at"`
	Total       Money      `json:"total"`
	Paid        Money      `json:"paid"`
	Credited    Money      `json:"credited"`
	Balance     Money      `json:"balance"`
}

// Owing lists the final bills with a balance left, oldest first, a page at a time (perPage
// 0: all, for an export), and how many there are (counted from the partial index of bills
// owing).
func (s *Store) Owing(ctx context.Context, page, perPage int) ([]Owing, int, error) {
	var total int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM bills WHERE status = 'final' AND total > paid + credited`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("outstanding bills: %w", err)
	}
	limit := ""
	var args []any
	if perPage > 0 {
		limit = ` LIMIT $1 OFFSET $2`
		args = append(args, perPage, (page-1)*perPage)
	}
	query := `SELECT id, number, patient_id, finalised_at, total, paid, credited FROM bills WHERE status = 'final' AND total > paid + credited ORDER BY id` + limit
	if s.DB.Engine == database.Postgres {
		// PostgreSQL cannot estimate paid < total, judges a third of all bills to owe and walks
		// the whole table in id order (15–22 ms at 65,000 bills): the page's ids are read from
		// the partial index of owing bills alone, then their rows (4 ms). SQLite reads that
		// index for the plain query (2 ms), and more slowly for this one (8 ms).
		query = `WITH owing AS MATERIALIZED (SELECT id FROM bills WHERE status = 'final' AND total > paid + credited)
			SELECT id, number, patient_id, finalised_at, total, paid, credited FROM bills WHERE id IN (SELECT id FROM owing ORDER BY id` + limit + `) ORDER BY id`
	}
	rows, err := s.DB.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("outstanding bills: %w", err)
	}
	defer rows.Close()
	out := []Owing{}
	for rows.Next() {
		var o Owing
		if err := rows.Scan(&o.ID, &o.Number, &o.Patient.ID, &o.FinalisedAt, &o.Total, &o.Paid, &o.Credited); err != nil {
			return nil, 0, fmt.Errorf("outstanding bills: %w", err)
		}
		o.Balance = owed(Final, o.Total, o.Credited, o.Paid)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("outstanding bills: %w", err)
	}
	ids := make([]int64, len(out))
	for i, o := range out {
		ids[i] = o.Patient.ID
	}
	refs, err := patientRefs(ctx, s.DB, ids)
	for i := range out {
		out[i].Patient = refs[out[i].Patient.ID]
	}
	return out, total, err
}

// ServiceCredit is what refunds credited against charges of one service (by its code, or
// the charge's text when it has none) on the bills finalised in a range.
type ServiceCredit struct {
	Code, Label string
	Credit      Money
}

// CreditsByService sums the credits of refunds that named the line they were for, by the
// line's service, over the final bills finalised on the clinic days from to to (the revenue
// by service nets them into their service's row; a credit naming no line stays a row of its
// own).
func (s *Store) CreditsByService(ctx context.Context, from, to string) ([]ServiceCredit, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END, SUM(p.credit)
		FROM payments p JOIN bill_lines l ON l.id = p.line_id JOIN bills b ON b.id = p.bill_id
		WHERE p.credit > 0 AND b.status = 'final' AND b.day >= $1 AND b.day <= $2
		GROUP BY l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END`, from, to)
	if err != nil {
		return nil, fmt.Errorf("credits by service: %w", err)
	}
	defer rows.Close()
	var out []ServiceCredit
	for rows.Next() {
		var c ServiceCredit
		if err := rows.Scan(&c.Code, &c.Label, &c.Credit); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
