package billing

import (
	"context"
	"database/sql"
	"encoding/json"
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
	ShiftID    int64     `json:"shift_id"`
	CashierID  int64     `json:"cashier_id"`
	Cashier    string    `json:"cashier"`
	Currency   string    `json:"currency"`
	MinorUnits int       `json:"minor_units"`
	OpenedAt   time.Time `json:"opened_at"`
	// OpenedDay is the clinic day the shift opened: a cash-up of a later day shows it as
	// carried over from that day (the cashier's review, M6).
	OpenedDay    string     `json:"opened_day"`
	ClosedAt     *time.Time `json:"closed_at"`
	ClosedBy     string     `json:"closed_by"`
	OpeningFloat Money      `json:"opening_float"`
	CashReceived Money      `json:"cash_received"`
	CashRefunded Money      `json:"cash_refunded"`
	DrawerCash   Money      `json:"drawer_cash"`
	Counted      *Money     `json:"counted"`
	Difference   *Money     `json:"difference"`
	Note         string     `json:"note"`
	// FirstCount is the first count given for the drawer, before its counter was shown what it
	// should hold (a blind count, the cashier's review M7); nil until counted. A close with
	// another count keeps both.
	FirstCount *Money `json:"first_count"`
	// CountExpected is what the drawer should have held when it was first counted (nil until
	// then); FirstDifference is the first count less it. The close's checks are judged on them:
	// once counted a drawer takes no more cash (the review of the blind count).
	CountExpected   *Money `json:"count_expected"`
	FirstDifference *Money `json:"first_difference"`
	// CountNote is the cashier's own note on a difference, given with her count; Note is the
	// note given at the close (a supervisor's, when one closes it).
	CountNote string `json:"count_note"`
	// AcknowledgedBy names the supervisor who acknowledged a difference over the clinic's
	// limit when the drawer closed ('' when none was needed).
	AcknowledgedBy string      `json:"acknowledged_by"`
	Other          []MethodSum `json:"other"`
	Version        int         `json:"version"`
	closedBy       int64
	ackBy          int64
	// blind hides what the drawer should hold (Blind).
	blind bool
}

// Blind says whether the drawer's expected figures are withheld from one who may only cash up
// her own drawer: while it is open and not yet counted, its counter must count it blind, so
// neither the cash taken and given back nor what it should hold is shown (the review of the
// blind count, finding 2).
func (d Drawer) Blind() bool { return d.ClosedAt == nil && d.FirstCount == nil }

// Blinded is d as one who may only cash up her own drawer reads it: its cash figures null
// while Blind.
func (d Drawer) Blinded() Drawer {
	d.blind = d.Blind()
	return d
}

// MarshalJSON writes the drawer, its cash figures null when blinded.
func (d Drawer) MarshalJSON() ([]byte, error) {
	type plain Drawer
	if !d.blind {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		plain
		CashReceived  *Money `json:"cash_received"`
		CashRefunded  *Money `json:"cash_refunded"`
		DrawerCash    *Money `json:"drawer_cash"`
		CountExpected *Money `json:"count_expected"`
	}{plain: plain(d)})
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
			ON CONFLICT (cashier_id) WHERE closed_at IS NULL DO NOTHING RETURNING id`, cashier, now, e.Actor()).Scan(&id)
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
	FloatNone     = "none"     // the drawer is counted already: it has a float, or cash has moved in it
	FloatRequired = "required" // every other drawer: its float is asked for, 0 allowed (the cashier's review, M5)
)

// cashMoved is the one rule that freezes a drawer's float, for the cash-up page's float and
// for the payment dialog's alike (the cashier's review, M4): cash has gone in or out of
// shift id, by a payment or by a refund.
const cashMoved = `EXISTS (SELECT 1 FROM payments p WHERE p.shift_id = s.id AND p.method = 'cash')`

// floatAsk is what cashier's next cash payment asks of her drawer's float: nothing when the
// drawer open now has its float counted in (0 included) or cash has moved in it already; else
// the float she counts in, 0 allowed — the first drawer a new cashier opens too (ADR 41 as
// amended after the cashier's review: a float never counted in is never taken as 0).
func floatAsk(ctx context.Context, q database.Querier, cashier int64) (string, error) {
	var counted bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM drawer_shifts s WHERE s.cashier_id = $1 AND s.closed_at IS NULL
			AND (s.float_counted = 1 OR s.first_count IS NOT NULL OR `+cashMoved+`))`, cashier).Scan(&counted); err != nil {
		return "", fmt.Errorf("read drawer: %w", err)
	}
	if counted {
		return FloatNone, nil
	}
	return FloatRequired, nil
}

// FloatAsk says what the caller's next cash payment asks of her drawer's float, so the
// payment form asks it at once rather than after a refusal (the clinic manager's run,
// 2026-11-29).
func (s *Store) FloatAsk(ctx context.Context, cashier int64) (string, error) {
	return floatAsk(ctx, s.DB, cashier)
}

// needFloat says whether cash payment m starts its drawer's float: where the drawer's float is
// not counted in yet and m gives none it refuses, naming the field.
func needFloat(ctx context.Context, tx *sql.Tx, m movement) (bool, error) {
	if m.kind != "payment" || m.method != "cash" {
		return false, nil
	}
	ask, err := floatAsk(ctx, tx, m.drawer)
	if err != nil || ask == FloatNone {
		return false, err
	}
	if m.float == nil {
		var v apperr.Validation
		v.Add("opening_float", "billing.float_needed")
		return false, v.Err()
	}
	return true, nil
}

// drawerFor answers the shift movement m goes through (nil: none). Cash paid in opens the
// drawer's shift if none is open; cash given back comes out of a drawer open now, never one
// already counted and closed (the cashier's review, M4: a supervisor's refund landed in the
// absent cashier's closed drawer). Cash never enters a shift opened on an earlier clinic day:
// that drawer is counted and closed first (M6: a shift is one day's). Other methods move no
// cash: they are listed under the cashier's open drawer if she has one, and open none.
func (s *Store) drawerFor(ctx context.Context, tx *sql.Tx, m movement, e audit.Event, now time.Time) (*int64, error) {
	if m.amount == 0 {
		return nil, nil // a credit note moves no money
	}
	var id int64
	var opened time.Time
	var counted bool
	err := tx.QueryRowContext(ctx, `UPDATE drawer_shifts SET version = version WHERE cashier_id = $1 AND closed_at IS NULL
		RETURNING id, opened_at, first_count IS NOT NULL`, m.drawer).Scan(&id, &opened, &counted)
	switch {
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("open drawer: %w", err)
	case m.method != "cash" && err != nil:
		return nil, nil
	case m.method != "cash":
		return &id, nil
	case err != nil && m.kind == "refund":
		var v apperr.Validation
		v.Add("drawer_id", "billing.refund_drawer_closed")
		return nil, v.Err()
	case err != nil:
		id, err := openShift(ctx, tx, m.drawer, e, now)
		return &id, err
	}
	if day := s.dayOf(opened); day != s.dayOf(now) {
		return nil, apperr.Conflict("billing.drawer_earlier_day", day)
	}
	if counted {
		// Counted blind already: cash in or out now would change what it should hold after
		// its count (the review of the blind count, finding 4).
		return nil, apperr.Conflict("billing.drawer_counted")
	}
	return &id, nil
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
		var moved, counted bool
		if err := tx.QueryRowContext(ctx, `SELECT `+cashMoved+`, s.first_count IS NOT NULL FROM drawer_shifts s WHERE s.id = $1`, id).Scan(&moved, &counted); err != nil {
			return fmt.Errorf("read drawer: %w", err)
		}
		if counted {
			return apperr.Conflict("billing.drawer_counted")
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

// CloseInput is a drawer's count at the end of a shift. Acknowledge is a supervisor's
// acknowledgement of a difference over the clinic's limit (Settings.DifferenceLimit); it
// counts only from a caller who may void bills (Supervisor, set by the handler).
type CloseInput struct {
	Counted     Money  `json:"counted"`
	Note        string `json:"note"`
	Acknowledge bool   `json:"acknowledge"`
	Version     int    `json:"version"`
	Supervisor  bool   `json:"-"`
}

// CountInput is a blind count of a drawer still open, given before its counter sees what the
// drawer should hold.
type CountInput struct {
	Counted Money `json:"counted"`
	// Note is the cashier's own explanation of a difference, given with her count.
	Note    string `json:"note"`
	Version int    `json:"version"`
}

// checkCount checks a drawer's count and the note given with it (a count or a close).
func checkCount(counted Money, note string) error {
	var v apperr.Validation
	if counted < 0 || counted > maxMoney {
		v.Add("counted", "billing.bad_amount")
	}
	if utf8.RuneCountInString(note) > apperr.MaxReason {
		v.Add("note", "validation.too_long")
	}
	return v.Err()
}

// CountShift records the first count of open shift id (at version), given blind: what the
// drawer should hold is answered only with it. A later count never replaces the first; the
// close keeps both (the cashier's review, M7), so a count changed once the expected figure
// was seen stays visible.
func (s *Store) CountShift(ctx context.Context, e audit.Event, id int64, in CountInput) (Drawer, error) {
	in.Note = strings.TrimSpace(in.Note)
	if err := checkCount(in.Counted, in.Note); err != nil {
		return Drawer{}, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		// What the drawer should hold is stored with the count: no cash moves in it after
		// (drawerFor), and the close is judged on both (the review of the blind count). The row
		// is locked first, so a payment taking it waits and then finds the drawer counted.
		if _, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET version = version WHERE id = $1`, id); err != nil {
			return fmt.Errorf("count drawer: %w", err)
		}
		before, err := s.shift(ctx, tx, id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET first_count = $1, count_expected = $2, count_note = $3, version = version + 1
			WHERE id = $4 AND closed_at IS NULL AND first_count IS NULL AND version = $5`, in.Counted, before.DrawerCash, in.Note, id, in.Version)
		if err != nil {
			return fmt.Errorf("count drawer: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			d, err := s.shift(ctx, tx, id)
			switch {
			case err != nil:
				return err
			case d.ClosedAt == nil && d.FirstCount != nil && d.Version == in.Version:
				return nil // counted already: the first count stands, and is answered
			}
			return apperr.Conflict("billing.shift_changed")
		}
		d, err := s.shift(ctx, tx, id)
		if err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "drawer.count", "drawer", strconv.FormatInt(id, 10), audit.Success
		phrases := []audit.Phrase{{Key: "audit.detail.drawer_counted", Args: []string{d.Cashier,
			amountIn(in.Counted, d.Currency), amountIn(d.DrawerCash, d.Currency), amountIn(in.Counted-d.DrawerCash, d.Currency)}}}
		if in.Note != "" {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.drawer_count_note", Args: []string{in.Note}})
		}
		e.Detail = audit.Phrases(phrases...)
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Drawer{}, err
	}
	return s.Shift(ctx, id)
}

// CloseShift closes shift id with the cash counted in the drawer, keeping what the drawer
// should have held then; its version must still be version. A difference is recorded as it
// is, with the note, never adjusted.
func (s *Store) CloseShift(ctx context.Context, e audit.Event, id int64, in CloseInput) (Drawer, error) {
	in.Note = strings.TrimSpace(in.Note)
	if err := checkCount(in.Counted, in.Note); err != nil {
		return Drawer{}, err
	}
	var v apperr.Validation // what the close itself needs (a note, a supervisor)
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		// A drawer is closed only once counted blind (POST …/count): the close is judged on that
		// first count, never on a count given after its counter saw what it should hold (the
		// review of the blind count, finding 1). A refused close changes nothing.
		res, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET closed_at = $1, closed_by = $2, counted = $3, note = $4, version = version + 1
			WHERE id = $5 AND closed_at IS NULL AND first_count IS NOT NULL AND version = $6`, now, e.Actor(), in.Counted, in.Note, id, in.Version)
		if err != nil {
			return fmt.Errorf("close drawer: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			d, err := s.shift(ctx, tx, id)
			switch {
			case err != nil:
				return err
			case d.ClosedAt == nil && d.FirstCount == nil && d.Version == in.Version:
				return apperr.Conflict("billing.drawer_not_counted")
			}
			return apperr.Conflict("billing.shift_changed")
		}
		d, err := s.shift(ctx, tx, id)
		if err != nil {
			return err
		}
		expected := d.DrawerCash
		if d.CountExpected != nil {
			expected = *d.CountExpected
		}
		first := *d.FirstCount
		firstDiff, diff := first-expected, in.Counted-expected
		recounted := in.Counted != first
		if (firstDiff != 0 || diff != 0) && in.Note == "" && d.CountNote == "" {
			// A drawer short or over is explained by whoever counted it, when she counts it.
			v.Add("note", "billing.difference_note")
		}
		if recounted && in.Note == "" {
			// A count changed after the expected figure was shown is explained at the close.
			v.Add("note", "billing.recount_note")
		}
		// A first count differing by more than the clinic's limit, or a close with another count
		// than the first, is final only with the acknowledgement of a supervisor other than the
		// drawer's cashier (the cashier's review, M7; the review of the blind count, 1 and 3).
		set, err := ReadSettings(ctx, tx)
		if err != nil {
			return err
		}
		var ack any
		if over := max(firstDiff, -firstDiff) > set.DifferenceLimit; over || recounted {
			needs, acknowledge, arg := "billing.difference_needs_supervisor", "billing.difference_acknowledge", amountIn(set.DifferenceLimit, d.Currency)
			if !over {
				needs, acknowledge, arg = "billing.recount_needs_supervisor", "billing.recount_acknowledge", amountIn(first, d.Currency)
			}
			switch {
			case !in.Supervisor:
				v.AddWith("acknowledge", needs, arg)
			case e.Actor() == d.CashierID:
				v.Add("acknowledge", "billing.acknowledge_not_own")
			case !in.Acknowledge:
				v.AddWith("acknowledge", acknowledge, arg)
			default:
				ack = e.Actor()
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE drawer_shifts SET expected = $1, acknowledged_by = $2 WHERE id = $3`, expected, ack, id); err != nil {
			return fmt.Errorf("close drawer: %w", err)
		}
		d.DrawerCash = expected
		e.Action, e.EntityType, e.EntityID, e.Outcome = "drawer.close", "drawer", strconv.FormatInt(id, 10), audit.Success
		phrases := []audit.Phrase{{Key: "audit.detail.drawer_closed", Args: []string{d.Cashier, amountIn(d.OpeningFloat, d.Currency),
			amountIn(d.DrawerCash, d.Currency), amountIn(in.Counted, d.Currency), amountIn(in.Counted-d.DrawerCash, d.Currency)}}}
		if recounted {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.drawer_first_count", Args: []string{amountIn(*d.FirstCount, d.Currency)}})
		}
		if d.CountNote != "" {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.drawer_count_note", Args: []string{d.CountNote}})
		}
		if ack != nil {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.drawer_acknowledged", Args: []string{amountIn(set.DifferenceLimit, d.Currency)}})
		}
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

const shiftColumns = `id, cashier_id, opened_at, opening_float, closed_at, COALESCE(closed_by, 0), expected, counted, note, version,
	first_count, COALESCE(acknowledged_by, 0), count_expected, count_note`

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
		var counted, exp, first, countExp sql.NullInt64
		if err := rows.Scan(&d.ShiftID, &d.CashierID, &d.OpenedAt, &d.OpeningFloat, &closed, &d.closedBy, &exp, &counted, &d.Note, &d.Version,
			&first, &d.ackBy, &countExp, &d.CountNote); err != nil {
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
		if first.Valid {
			f := Money(first.Int64)
			d.FirstCount = &f
		}
		if countExp.Valid {
			c := Money(countExp.Int64)
			d.CountExpected = &c
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
		d.OpenedDay = s.dayOf(d.OpenedAt)
		if exp := expected[d.ShiftID]; exp.Valid {
			d.DrawerCash = Money(exp.Int64) // as it stood when the drawer was counted
		}
		if d.Counted != nil {
			diff := *d.Counted - d.DrawerCash
			d.Difference = &diff
		}
		if d.FirstCount != nil {
			base := d.DrawerCash
			if d.CountExpected != nil {
				base = *d.CountExpected
			}
			diff := *d.FirstCount - base
			d.FirstDifference = &diff
		}
	}
	people := []int64{}
	for _, d := range out {
		people = append(people, d.CashierID, d.closedBy, d.ackBy)
	}
	slices.Sort(people)
	names, err := user.Names(ctx, q, slices.DeleteFunc(slices.Compact(people), func(id int64) bool { return id == 0 }))
	for i := range out {
		out[i].Cashier, out[i].ClosedBy, out[i].AcknowledgedBy = names[out[i].CashierID], names[out[i].closedBy], names[out[i].ackBy]
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
		// In UTC, as the times are stored: SQLite compares them as text (the cashier's review, m4).
		{`SELECT id FROM drawer_shifts WHERE opened_at >= $1 AND opened_at < $2`, []any{start.UTC(), start.AddDate(0, 0, 1).UTC()}},
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
