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

// PaymentInput is money received: method, a reference (card slip, transfer id), the amount
// and, for cash, what was handed over (the change is the difference).
type PaymentInput struct {
	Method    string `json:"method"`
	Reference string `json:"reference"`
	Amount    Money  `json:"amount"`
	Tendered  *Money `json:"tendered"`
	Payer     string `json:"payer"` // who paid, when not the patient
	// OpeningFloat is the cash a new drawer starts with, asked when a cash payment opens the
	// cashier's drawer again after she closed one (needFloat).
	OpeningFloat *Money `json:"opening_float"`
}

// RefundInput is money given back on a bill, with why. A refund settles: it is for a
// service not given (LineID names it, when it is one line of the bill), and the bill asks
// that much less — unless StillOwed says the money goes back to be taken another way (paid
// by the wrong method), when the patient owes it again. DrawerID is the cashier whose drawer
// the cash leaves; without it, the drawer that took the bill's last payment by that method.
type RefundInput struct {
	Method    string `json:"method"`
	Amount    Money  `json:"amount"`
	Reason    string `json:"reason"`
	StillOwed bool   `json:"still_owed"`
	LineID    *int64 `json:"line_id"`
	DrawerID  *int64 `json:"drawer_id"`
}

// Pay records a payment on a final bill. The bill's paid total rises in one conditional
// update that fails when the payment would pass what the bill asks: of two cashiers taking
// the same balance at once, the second gets a conflict, never an overpayment.
func (s *Store) Pay(ctx context.Context, e audit.Event, id int64, in PaymentInput) (Bill, Payment, error) {
	var v apperr.Validation
	in.Reference, in.Payer = strings.TrimSpace(in.Reference), strings.TrimSpace(in.Payer)
	if !slices.Contains(Methods, in.Method) {
		v.Add("method", "billing.bad_method")
	}
	if in.Amount <= 0 || in.Amount > maxMoney {
		v.Add("amount", "billing.bad_amount")
	}
	if in.Tendered != nil && (in.Method != "cash" || *in.Tendered < in.Amount || *in.Tendered > maxMoney) {
		v.Add("tendered", "billing.bad_tendered")
	}
	if utf8.RuneCountInString(in.Reference) > 100 {
		v.Add("reference", "validation.too_long")
	}
	if utf8.RuneCountInString(in.Payer) > 200 {
		v.Add("payer", "validation.too_long")
	}
	if in.OpeningFloat != nil && (*in.OpeningFloat < 0 || *in.OpeningFloat > maxMoney) {
		v.Add("opening_float", "billing.bad_amount")
	}
	if err := v.Err(); err != nil {
		return Bill{}, Payment{}, err
	}
	m := movement{kind: "payment", method: in.Method, reference: in.Reference, amount: in.Amount, tendered: in.Tendered, payer: in.Payer, drawer: e.ActorID,
		float: in.OpeningFloat}
	return s.move(ctx, e, id, m)
}

// Refund gives money back on a final bill, never more than was paid.
func (s *Store) Refund(ctx context.Context, e audit.Event, id int64, in RefundInput) (Bill, Payment, error) {
	reason, err := apperr.Reason(in.Reason)
	var v apperr.Validation
	if err != nil {
		v.Add("reason", "validation.reason_required")
	}
	if !slices.Contains(Methods, in.Method) {
		v.Add("method", "billing.bad_method")
	}
	if in.Amount <= 0 || in.Amount > maxMoney {
		v.Add("amount", "billing.bad_amount")
	}
	if in.StillOwed && in.LineID != nil {
		v.Add("line_id", "billing.line_not_credited")
	}
	if err := v.Err(); err != nil {
		return Bill{}, Payment{}, err
	}
	m := movement{kind: "refund", method: in.Method, amount: in.Amount, reason: reason, line: in.LineID}
	if !in.StillOwed {
		m.credit = in.Amount
	}
	if in.DrawerID != nil {
		m.drawer = *in.DrawerID
	}
	return s.move(ctx, e, id, m)
}

// movement is money into or out of a drawer on a bill.
type movement struct {
	kind, method, reference, reason, payer string
	amount, credit                         Money
	tendered                               *Money
	line                                   *int64
	drawer                                 int64  // 0: a refund's default drawer
	float                                  *Money // a new drawer's opening float (PaymentInput)
}

func (s *Store) move(ctx context.Context, e audit.Event, id int64, m movement) (Bill, Payment, error) {
	var b Bill
	var p Payment
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if m.kind == "refund" {
			if err := refundChecks(ctx, tx, id, &m, e.ActorID); err != nil {
				return err
			}
			if err := creditFirst(ctx, tx, id, &m); err != nil {
				return err
			}
		}
		// The bill's day comes back with the update: the day's sums move with it.
		query := `UPDATE bills SET paid = paid + $1, updated_at = $2, updated_by = $3, version = version + 1
			WHERE id = $4 AND status = 'final' AND paid + credited + $1 <= total RETURNING day, COALESCE(doctor_id, 0)`
		now := s.now()
		args := []any{m.amount, now, e.Actor(), id}
		if m.kind == "refund" {
			query = `UPDATE bills SET paid = paid - $1, credited = credited + $5, updated_at = $2, updated_by = $3, version = version + 1
				WHERE id = $4 AND status = 'final' AND paid >= $1 RETURNING day, COALESCE(doctor_id, 0)`
			args = append(args, m.credit)
		}
		var day sql.NullString
		var doctor int64
		err := tx.QueryRowContext(ctx, query, args...).Scan(&day, &doctor)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("record %s: %w", m.kind, err)
		}
		if errors.Is(err, sql.ErrNoRows) {
			cur, err := get(ctx, tx, id)
			switch {
			case err != nil:
				return err
			case cur.Status != Final:
				return apperr.Conflict("billing.not_final")
			case m.kind == "refund":
				return apperr.Conflict("billing.refund_over_paid", cur.Paid.Major(cur.MinorUnits))
			default:
				return apperr.Conflict("billing.over_balance", cur.Balance.Major(cur.MinorUnits))
			}
		}
		moved := m.amount
		if m.kind == "refund" {
			moved = -m.amount
		}
		if err := s.days().CountMoney(ctx, tx, day.String, doctor, moved, m.credit); err != nil {
			return err
		}
		float, err := needFloat(ctx, tx, m)
		if err != nil {
			return err
		}
		shift, err := s.drawerFor(ctx, tx, m, e, now)
		if err != nil {
			return err
		}
		if float {
			if err := startFloat(ctx, tx, e, *shift, *m.float); err != nil {
				return err
			}
		}
		receipt, err := s.nextReceipt(ctx, tx, m.kind, now)
		if err != nil {
			return err
		}
		var tend any
		if m.tendered != nil {
			tend = *m.tendered
		}
		var pid int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO payments (bill_id, kind, method, reference, amount, tendered, reason, receipt, received_by,
			received_at, day, credit, line_id, drawer_id, shift_id, payer)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`, id, m.kind, m.method, m.reference, m.amount,
			tend, m.reason, receipt, e.Actor(), now, s.dayOf(now), m.credit, nullID(m.line), m.drawer, nullID(shift), m.payer).Scan(&pid); err != nil {
			return fmt.Errorf("record %s: %w", m.kind, err)
		}
		if b, err = get(ctx, tx, id); err != nil {
			return err
		}
		p = b.Payments[slices.IndexFunc(b.Payments, func(p Payment) bool { return p.ID == pid })]
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill."+m.kind, "bill", strconv.FormatInt(id, 10), b.Patient.ID, audit.Success
		// The receipt, the method in words, the amount; a refund's credit and whose drawer.
		phrases := []audit.Phrase{{Key: "audit.detail.payment", Args: []string{receipt, amountIn(m.amount, b.Currency)}, Terms: []string{"audit.method." + m.method}}}
		if m.kind == "refund" {
			names, err := user.Names(ctx, tx, []int64{m.drawer})
			if err != nil {
				return err
			}
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.refund_credit", Args: []string{amountIn(m.credit, b.Currency), names[m.drawer]}})
		}
		if m.reason != "" {
			phrases = append(phrases, audit.Phrase{Key: "audit.detail.reason", Args: []string{m.reason}})
		}
		e.Detail = audit.Phrases(phrases...)
		return audit.Record(ctx, tx, e)
	})
	return b, p, err
}

// creditFirst turns a refund that credits the bill into what it owes the patient: the credit
// reduces what the bill asks first, and cash goes back only for what was paid beyond the new
// total (ADR 27, ADR 41). On an unpaid bill it is a credit note (no cash); on a bill part paid
// it gives back the part paid over the new total, if any.
func creditFirst(ctx context.Context, tx *sql.Tx, id int64, m *movement) error {
	if m.credit == 0 {
		return nil // money returned to be paid another way: all of it leaves the drawer
	}
	b, err := lock(ctx, tx, id)
	if err != nil {
		return err
	}
	m.amount = min(m.credit, max(0, b.Paid+b.Credited+m.credit-b.Total))
	return nil
}

// refundChecks checks a refund's line (one of the bill's, not credited past its amount) and
// settles its drawer: the one named; for cash, else the refunder's own open drawer, else the
// open drawer that took the bill's cash (a closed one is refused: drawerFor); for another
// method, the person who took the bill's last payment by it, else the refunder.
func refundChecks(ctx context.Context, tx *sql.Tx, billID int64, m *movement, actor int64) error {
	if m.line != nil {
		// A line's share of what the patient owes is its amount less its part of the bill's own
		// discount (a 20 % senior discount makes a 25,000 test's share 20,000).
		amount, credited, err := lineShare(ctx, tx, billID, *m.line)
		var v apperr.Validation
		switch {
		case errors.Is(err, sql.ErrNoRows):
			v.Add("line_id", "billing.line_not_found")
			return v.Err()
		case err != nil:
			return fmt.Errorf("read bill line: %w", err)
		case m.credit > amount-credited:
			v.Add("amount", "billing.credit_over_line")
			return v.Err()
		}
	}
	if m.drawer != 0 {
		active, err := user.Active(ctx, tx, m.drawer)
		if err == nil && !active {
			var v apperr.Validation
			v.Add("drawer_id", "billing.drawer_not_found")
			return v.Err()
		}
		return err
	}
	if m.method == "cash" {
		// Cash given back leaves a drawer open now: the refunder's own, else the open drawer
		// that took the bill's cash; with neither open it is refused (drawerFor).
		err := tx.QueryRowContext(ctx, `SELECT cashier_id FROM drawer_shifts WHERE closed_at IS NULL AND cashier_id IN ($1,
			(SELECT COALESCE(drawer_id, received_by) FROM payments WHERE bill_id = $2 AND kind = 'payment' AND method = 'cash'
			AND COALESCE(drawer_id, received_by) IS NOT NULL ORDER BY id DESC LIMIT 1)) ORDER BY CASE WHEN cashier_id = $1 THEN 0 ELSE 1 END LIMIT 1`,
			actor, billID).Scan(&m.drawer)
		if errors.Is(err, sql.ErrNoRows) {
			m.drawer, err = actor, nil
		}
		if err != nil {
			return fmt.Errorf("find the refund's drawer: %w", err)
		}
		return nil
	}
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(drawer_id, received_by) FROM payments WHERE bill_id = $1 AND kind = 'payment' AND method = $2
		AND COALESCE(drawer_id, received_by) IS NOT NULL ORDER BY id DESC LIMIT 1`, billID, m.method).Scan(&m.drawer)
	if errors.Is(err, sql.ErrNoRows) {
		m.drawer, err = actor, nil
	}
	if err != nil {
		return fmt.Errorf("find the refund's drawer: %w", err)
	}
	return nil
}

// lineShare answers line lineID of bill billID's share of what the patient owes — its amount
// less its part of the bill's own discount (a 20 % senior discount makes a 25,000 test's share
// 20,000; the bill's own discount is what its lines come to less its total, as its subtotal
// and discount also hold the lines' own discounts) — and what refunds have credited against it
// so far; sql.ErrNoRows when the bill has no such line. A line whose share is all credited (or
// 0) charges nothing any more.
func lineShare(ctx context.Context, q database.Querier, billID, lineID int64) (share, credited Money, err error) {
	var lines, total Money
	err = q.QueryRowContext(ctx, `SELECT l.amount, (SELECT COALESCE(SUM(credit), 0) FROM payments WHERE bill_id = $1 AND line_id = $2),
		(SELECT SUM(amount) FROM bill_lines WHERE bill_id = $1), b.total FROM bill_lines l JOIN bills b ON b.id = l.bill_id
		WHERE l.bill_id = $1 AND l.id = $2`, billID, lineID).Scan(&share, &credited, &lines, &total)
	if err == nil {
		share -= ShareOfDiscount(share, lines, total)
	}
	return share, credited, err
}

// ShareOfDiscount is the part of a bill's own discount a line of amount bears: in proportion
// to what the bill's lines come to (lines), rounded half up; the bill asks total.
func ShareOfDiscount(amount, lines, total Money) Money {
	if lines <= 0 || lines <= total {
		return 0
	}
	return (amount*(lines-total) + lines/2) / lines
}

// nextReceipt numbers a payment receipt (PR-) or a refund slip (RS-) from its year's counter.
func (s *Store) nextReceipt(ctx context.Context, tx *sql.Tx, kind string, now time.Time) (string, error) {
	year := now.In(s.loc()).Year()
	counter, prefix := "receipt:", receiptPrefix
	if kind == "refund" {
		counter, prefix = "refund:", refundPrefix
	}
	seq, err := database.AddToCounter(ctx, tx, counter+strconv.Itoa(year), 1)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s-%d-%06d", prefix, year, seq), nil
}
