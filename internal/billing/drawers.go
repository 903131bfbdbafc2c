package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/user"
)

// Drawer is one cashier's shift at the till: the float it opened with, the cash taken and
// given back, the cash it should therefore hold (DrawerCash), and — once closed — the cash
// counted in it and the difference. Other methods (card, transfer, e-wallet, insurance)
// never enter the drawer: they are listed apart, net of refunds.
type Drawer struct {
	ShiftID      int64       `json:"shift_id"`
	CashierID    int64       `json:"cashier_id"`
	Cashier      string      `json:"cashier"`
	Currency     string      `json:"currency"`
	MinorUnits   int         `json:"minor_units"`
	OpenedAt     time.Time   `json:"opened_at"`
	ClosedAt     *time.Time  `json:"closed_at"`
	ClosedBy     string      `json:"closed_by"`
	OpeningFloat Money       `json:"opening_float"`
	CashReceived Money       `json:"cash_received"`
	CashRefunded Money       `json:"cash_refunded"`
	DrawerCash   Money       `json:"drawer_cash"`
	Counted      *Money      `json:"counted"`
	Difference   *Money      `json:"difference"`
	Note         string      `json:"note"`
	Other        []MethodSum `json:"other"`
	Version      int         `json:"version"`
	closedBy     int64
}

// openShift returns the id of cashier's open shift, opening one (with no float) when the
// cashier has none. The row is locked until the caller's transaction ends, so a shift being
// closed takes no payment it has not counted: the payment waits and lands in a new shift.
func openShift(ctx context.Context, tx *sql.Tx, cashier int64, e audit.Event, now time.Time) (int64, error) {
	for range 2 {
		var id int64
		err := tx.QueryRowContext(ctx, `UPDATE drawer_shifts SET version = version WHERE cashier_id = $1 AND closed_at IS NULL RETURNING id`, cashier).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("open drawer: %w", err)
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO drawer_shifts (cashier_id, opened_at, opened_by) VALUES ($1, $2, $3)
			ON CONFLICT (cashier_id) WHERE closed_at IS NULL DO NOTHING RETURNING id`, cashier, now, actorOf(e)).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("open drawer: %w", err)
		}
	}
	return 0, apperr.Conflict("error.conflict")
}

// startFloat sets the float of open shift id, audited.
func startFloat(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, float Money) error {
	if _, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET opening_float = $1, float_counted = 1, version = version + 1 WHERE id = $2`, float, id); err != nil {
		return fmt.Errorf("set float: %w", err)
	}
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome = "drawer.float", "drawer", strconv.FormatInt(id, 10), audit.Success
	e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.float", Args: []string{amountIn(float, set.Currency)}})
	return audit.Record(ctx, tx, e)
}

// Whether a cashier's next cash payment asks for the float her drawer starts with (FloatAsk).
const (
	FloatNone     = "none"     // the drawer is counted already: it has a float, or has taken cash
	FloatOptional = "optional" // the day's first drawer: it opens by itself at 0 unless she counts a float in (ADR 27)
	FloatRequired = "required" // a drawer opened after she closed one: its float is asked for (ADR 41)
)

// floatAsk is what cashier's next cash payment asks of her drawer's float: nothing when the
// drawer open now has its float counted in (0 included) or has taken cash already (its float counted in then, or asked
// for); the float she counts into a drawer opened after she closed one (by that payment, or
// before it by a card payment or a supervisor's refund); and, for the day's first drawer, a
// float she may give (0 otherwise).
func floatAsk(ctx context.Context, q database.Querier, cashier int64) (string, error) {
	var counted, closedBefore bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM drawer_shifts s WHERE s.cashier_id = $1 AND s.closed_at IS NULL
			AND (s.float_counted = 1 OR EXISTS (SELECT 1 FROM payments p WHERE p.shift_id = s.id AND p.method = 'cash' AND p.kind = 'payment'))),
		EXISTS (SELECT 1 FROM drawer_shifts WHERE cashier_id = $1 AND closed_at IS NOT NULL)`, cashier).Scan(&counted, &closedBefore); err != nil {
		return "", fmt.Errorf("read drawer: %w", err)
	}
	switch {
	case counted:
		return FloatNone, nil
	case closedBefore:
		return FloatRequired, nil
	}
	return FloatOptional, nil
}

// FloatAsk says what the caller's next cash payment asks of her drawer's float, so the
// payment form asks it at once rather than after a refusal (the clinic manager's run,
// 2026-11-29).
func (s *Store) FloatAsk(ctx context.Context, cashier int64) (string, error) {
	return floatAsk(ctx, s.DB, cashier)
}

// needFloat says whether cash payment m starts its drawer's float: where the float is
// required (a drawer opened after a close) and m gives none it refuses, naming the field;
// where it is optional (the day's first drawer), m's float is taken when given.
func needFloat(ctx context.Context, tx *sql.Tx, m movement) (bool, error) {
	if m.kind != "payment" || m.method != "cash" {
		return false, nil
	}
	ask, err := floatAsk(ctx, tx, m.drawer)
	if err != nil || ask == FloatNone {
		return false, err
	}
	if m.float == nil {
		if ask == FloatOptional {
			return false, nil
		}
		var v apperr.Validation
		v.Add("opening_float", "billing.float_needed")
		return false, v.Err()
	}
	return true, nil
}

// FloatInput is the cash a drawer starts its shift with.
type FloatInput struct {
	OpeningFloat *Money `json:"opening_float"`
}

// SetFloat opens the caller's drawer with a float, or sets the float of the shift already
// open (it may have opened by itself with the day's first payment).
func (s *Store) SetFloat(ctx context.Context, e audit.Event, in FloatInput) (Drawer, error) {
	var v apperr.Validation
	switch {
	case in.OpeningFloat == nil:
		v.Add("opening_float", "validation.required")
	case *in.OpeningFloat < 0 || *in.OpeningFloat > maxMoney:
		v.Add("opening_float", "billing.bad_amount")
	}
	if err := v.Err(); err != nil {
		return Drawer{}, err
	}
	var id int64
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if id, err = openShift(ctx, tx, e.ActorID, e, s.now()); err != nil {
			return err
		}
		// Once cash has moved the float is part of what the drawer must hold: changing it then
		// would make a shortfall vanish without a note (ADR 41).
		var moved bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM payments WHERE shift_id = $1 AND method = 'cash')`, id).Scan(&moved); err != nil {
			return fmt.Errorf("read drawer: %w", err)
		}
		if moved {
			v.Add("opening_float", "billing.float_frozen")
			return v.Err()
		}
		return startFloat(ctx, tx, e, id, *in.OpeningFloat)
	})
	if err != nil {
		return Drawer{}, err
	}
	return s.Shift(ctx, id)
}

// CloseInput is a drawer's count at the end of a shift.
type CloseInput struct {
	Counted Money  `json:"counted"`
	Note    string `json:"note"`
	Version int    `json:"version"`
}

// CloseShift closes shift id with the cash counted in the drawer, keeping what the drawer
// should have held then; its version must still be version. A difference is recorded as it
// is, with the note, never adjusted.
func (s *Store) CloseShift(ctx context.Context, e audit.Event, id int64, in CloseInput) (Drawer, error) {
	var v apperr.Validation
	in.Note = strings.TrimSpace(in.Note)
	if in.Counted < 0 || in.Counted > maxMoney {
		v.Add("counted", "billing.bad_amount")
	}
	if utf8.RuneCountInString(in.Note) > apperr.MaxReason {
		v.Add("note", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return Drawer{}, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		res, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET closed_at = $1, closed_by = $2, counted = $3, note = $4, version = version + 1
			WHERE id = $5 AND closed_at IS NULL AND version = $6`, now, actorOf(e), in.Counted, in.Note, id, in.Version)
		if err != nil {
			return fmt.Errorf("close drawer: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := s.shift(ctx, tx, id); err != nil {
				return err
			}
			return apperr.Conflict("billing.shift_changed")
		}
		d, err := s.shift(ctx, tx, id)
		if err != nil {
			return err
		}
		if in.Counted != d.DrawerCash && in.Note == "" {
			// A drawer short or over is explained by whoever counted it, when she counts it.
			v.Add("note", "billing.difference_note")
			return v.Err()
		}
		if _, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET expected = $1 WHERE id = $2`, d.DrawerCash, id); err != nil {
			return fmt.Errorf("close drawer: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "drawer.close", "drawer", strconv.FormatInt(id, 10), audit.Success
		phrases := []audit.Phrase{{Key: "audit.detail.drawer_closed", Args: []string{d.Cashier, amountIn(d.OpeningFloat, d.Currency),
			amountIn(d.DrawerCash, d.Currency), amountIn(in.Counted, d.Currency), amountIn(in.Counted-d.DrawerCash, d.Currency)}}}
		if in.Note != "" {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.note", Args: []string{in.Note}})
		}
		e.Detail = audit.Phrases(phrases...)
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Drawer{}, err
	}
	return s.Shift(ctx, id)
}

// Shift reads drawer shift id with its sums.
func (s *Store) Shift(ctx context.Context, id int64) (Drawer, error) { return s.shift(ctx, s.DB, id) }

func (s *Store) shift(ctx context.Context, q database.Querier, id int64) (Drawer, error) {
	list, err := s.drawers(ctx, q, []int64{id})
	if err != nil {
		return Drawer{}, err
	}
	if len(list) == 0 {
		return Drawer{}, apperr.NotFound("billing.shift_not_found")
	}
	return list[0], nil
}

const shiftColumns = `id, cashier_id, opened_at, opening_float, closed_at, COALESCE(closed_by, 0), expected, counted, note, version`

// drawers reads shifts ids (in cashier and opening order) with their sums: one read of the
// shifts, one of their payments by method, whatever their number.
func (s *Store) drawers(ctx context.Context, q database.Querier, ids []int64) ([]Drawer, error) {
	out := []Drawer{}
	if len(ids) == 0 {
		return out, nil
	}
	set, err := ReadSettings(ctx, q)
	if err != nil {
		return out, err
	}
	in, args := database.InIDs(q, "id", ids, 1)
	rows, err := q.QueryContext(ctx, `SELECT `+shiftColumns+` FROM drawer_shifts WHERE `+in, args...)
	if err != nil {
		return out, fmt.Errorf("read drawers: %w", err)
	}
	expected := map[int64]sql.NullInt64{}
	for rows.Next() {
		d := Drawer{Currency: set.Currency, MinorUnits: MinorUnits(set.Currency), Other: []MethodSum{}}
		var closed sql.NullTime
		var counted, exp sql.NullInt64
		if err := rows.Scan(&d.ShiftID, &d.CashierID, &d.OpenedAt, &d.OpeningFloat, &closed, &d.closedBy, &exp, &counted, &d.Note, &d.Version); err != nil {
			rows.Close()
			return out, fmt.Errorf("read drawers: %w", err)
		}
		if closed.Valid {
			d.ClosedAt = &closed.Time
		}
		if counted.Valid {
			c := Money(counted.Int64)
			d.Counted = &c
		}
		expected[d.ShiftID] = exp
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read drawers: %w", err)
	}
	if len(out) == 0 { // none of ids is a shift
		return out, nil
	}
	if err := addShiftSums(ctx, q, out); err != nil {
		return out, err
	}
	for i := range out {
		d := &out[i]
		d.DrawerCash = d.OpeningFloat + d.CashReceived - d.CashRefunded
		if exp := expected[d.ShiftID]; exp.Valid {
			d.DrawerCash = Money(exp.Int64) // as it stood when the drawer was counted
		}
		if d.Counted != nil {
			diff := *d.Counted - d.DrawerCash
			d.Difference = &diff
		}
	}
	people := []int64{}
	for _, d := range out {
		people = append(people, d.CashierID, d.closedBy)
	}
	slices.Sort(people)
	names, err := user.Names(ctx, q, slices.DeleteFunc(slices.Compact(people), func(id int64) bool { return id == 0 }))
	for i := range out {
		out[i].Cashier, out[i].ClosedBy = names[out[i].CashierID], names[out[i].closedBy]
	}
	slices.SortStableFunc(out, func(a, b Drawer) int {
		if c := strings.Compare(a.Cashier, b.Cashier); c != 0 {
			return c
		}
		return a.OpenedAt.Compare(b.OpenedAt)
	})
	return out, err
}

// addShiftSums adds to each drawer its payments and refunds: cash in and out of the drawer,
// every other method apart (in the order of Methods), net of refunds.
func addShiftSums(ctx context.Context, q database.Querier, drawers []Drawer) error {
	ids := make([]int64, len(drawers))
	at := map[int64]*Drawer{}
	for i := range drawers {
		ids[i], at[drawers[i].ShiftID] = drawers[i].ShiftID, &drawers[i]
	}
	in, args := database.InIDs(q, "shift_id", ids, 1)
	rows, err := q.QueryContext(ctx, `SELECT shift_id, method, kind, COUNT(*), SUM(amount) FROM payments WHERE `+in+`
		GROUP BY shift_id, method, kind`, args...)
	if err != nil {
		return fmt.Errorf("read drawers: %w", err)
	}
	defer rows.Close()
	other := map[int64]map[string]*MethodSum{}
	for rows.Next() {
		var shift int64
		var method, kind string
		var n int
		var sum Money
		if err := rows.Scan(&shift, &method, &kind, &n, &sum); err != nil {
			return fmt.Errorf("read drawers: %w", err)
		}
		d := at[shift]
		switch {
		case method == "cash" && kind == "refund":
			d.CashRefunded += sum
		case method == "cash":
			d.CashReceived += sum
		default:
			if other[shift] == nil {
				other[shift] = map[string]*MethodSum{}
			}
			if other[shift][method] == nil {
				other[shift][method] = &MethodSum{Method: method}
			}
			other[shift][method].add(kind, n, sum)
		}
	}
	for shift, byMethod := range other {
		for _, m := range Methods {
			if byMethod[m] != nil {
				at[shift].Other = append(at[shift].Other, *byMethod[m])
			}
		}
	}
	return rows.Err()
}

// shiftsOf lists the shifts a day's cash-up shows (of cashier alone, unless 0): those that
// took or gave money that day, those opened that day, and those still open. Each is one
// indexed read.
func (s *Store) shiftsOf(ctx context.Context, day string, cashier int64) ([]int64, error) {
	start, err := time.ParseInLocation(time.DateOnly, day, s.loc())
	if err != nil {
		return nil, apperr.Invalid("validation.date_format")
	}
	ids := []int64{}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`SELECT DISTINCT shift_id FROM payments WHERE day = $1 AND shift_id IS NOT NULL`, []any{day}},
		{`SELECT id FROM drawer_shifts WHERE opened_at >= $1 AND opened_at < $2`, []any{start, start.AddDate(0, 0, 1)}},
		{`SELECT id FROM drawer_shifts WHERE closed_at IS NULL`, nil},
	} {
		found, err := database.Column[int64](s.DB.QueryContext(ctx, q.sql, q.args...))
		if err != nil {
			return nil, fmt.Errorf("find drawers: %w", err)
		}
		ids = append(ids, found...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if cashier == 0 || len(ids) == 0 {
		return ids, nil
	}
	// One read keeps the cashier's own among them (not one read per shift).
	in, args := database.InIDs(s.DB, "id", ids, 2)
	mine, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT id FROM drawer_shifts WHERE cashier_id = $1 AND `+in+` ORDER BY id`,
		append([]any{cashier}, args...)...))
	if err != nil {
		return nil, fmt.Errorf("find drawers: %w", err)
	}
	return mine, nil
}

// amountIn is m as an audit detail writes it: in major units, with its currency (500000 VND,
// 12.50 USD).
func amountIn(m Money, currency string) string {
	return m.Major(MinorUnits(currency)) + " " + currency
}
