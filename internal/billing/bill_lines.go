package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
)

func (s *Store) insertLine(ctx context.Context, tx *sql.Tx, e audit.Event, billID int64, l Line) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO bill_lines (bill_id, service_id, code, description, category, quantity, unit_price,
		discount_kind, discount_value, discount_reason, discount, amount, added_by, added_at, lab_order_id, by_order)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		billID, nullID(l.ServiceID), l.Code, l.Description, l.Category, l.Quantity, l.UnitPrice,
		l.DiscountKind, l.DiscountValue, l.DiscountReason, l.Discount, l.Amount, e.Actor(), s.now(), nullID(l.LabOrderID), flag(l.ByOrder))
	if err != nil {
		return fmt.Errorf("insert bill line: %w", err)
	}
	return nil
}

// retotal recomputes a draft bill's totals from its lines and its own discount, and takes
// its next version (checked against version unless that is -1).
func (s *Store) retotal(ctx context.Context, tx *sql.Tx, e audit.Event, billID int64, version int) error {
	var kind string
	var value int64
	if err := tx.QueryRowContext(ctx, `SELECT discount_kind, discount_value FROM bills WHERE id = $1`, billID).Scan(&kind, &value); err != nil {
		return fmt.Errorf("read bill: %w", err)
	}
	var gross, lineDiscounts Money
	rows, err := tx.QueryContext(ctx, `SELECT quantity * unit_price, discount FROM bill_lines WHERE bill_id = $1`, billID)
	if err != nil {
		return fmt.Errorf("read bill lines: %w", err)
	}
	for rows.Next() {
		var g, d Money
		if err := rows.Scan(&g, &d); err != nil {
			rows.Close()
			return fmt.Errorf("read bill lines: %w", err)
		}
		gross, lineDiscounts = gross+g, lineDiscounts+d
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read bill lines: %w", err)
	}
	if gross > maxMoney {
		return apperr.Invalid("billing.bill_too_large")
	}
	discount := lineDiscounts + (gross-lineDiscounts).Discount(kind, value)
	res, err := tx.ExecContext(ctx, `UPDATE bills SET subtotal = $1, discount = $2, total = $3, updated_at = $4, updated_by = $5,
		version = version + 1 WHERE id = $6 AND status = 'draft' AND ($7 = -1 OR version = $7)`,
		gross, discount, gross-discount, s.now(), e.Actor(), billID, version)
	if err != nil {
		return fmt.Errorf("update bill: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Conflict("error.conflict")
	}
	return nil
}

// lock reads bill id for a change (on PostgreSQL the row lock orders concurrent writers;
// SQLite has one writer); a void bill, which nothing changes, is a conflict.
func lock(ctx context.Context, tx *sql.Tx, id int64) (Bill, error) {
	b, err := scanBill(tx.QueryRowContext(ctx, `UPDATE bills SET version = version WHERE id = $1 AND status <> 'void' RETURNING `+billColumns, id))
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := get(ctx, tx, id); err != nil {
			return b, err
		}
		return b, apperr.Conflict("billing.already_void")
	}
	if err != nil {
		return b, fmt.Errorf("read bill: %w", err)
	}
	return b, nil
}

// draft locks bill id for a change of its charges and checks that it is still a draft.
func draft(ctx context.Context, tx *sql.Tx, id int64) (Bill, error) {
	b, err := lock(ctx, tx, id)
	if err == nil && b.Status != Draft {
		return b, apperr.Conflict("billing.not_draft")
	}
	return b, err
}

// draftAt is draft, for a change made at version: another is a conflict.
func draftAt(ctx context.Context, tx *sql.Tx, id int64, version int) (Bill, error) {
	b, err := draft(ctx, tx, id)
	if err == nil && b.Version != version {
		return b, apperr.Conflict("error.conflict")
	}
	return b, err
}

// AddLine charges in on bill id (or, when appointmentID is set, on that appointment's bill,
// written on this first charge). Adding needs no version: a doctor and the front desk may
// both add charges to one bill at once.
func (s *Store) AddLine(ctx context.Context, e audit.Event, id, appointmentID int64, in LineInput, override MayOverride) (Bill, error) {
	var b Bill
	wanted, err := s.wantedOrders(ctx, id, appointmentID)
	if err != nil {
		return b, err
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		created := false
		if appointmentID != 0 {
			var err error
			if id, created, err = s.openBill(ctx, tx, e, appointmentID); err != nil {
				return err
			}
		}
		if _, err := draft(ctx, tx, id); err != nil {
			return err
		}
		l, err := line(ctx, tx, in, override)
		if err != nil {
			return err
		}
		var twice int
		if l.ServiceID != nil {
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bill_lines WHERE bill_id = $1 AND service_id = $2`, id, *l.ServiceID).Scan(&twice); err != nil {
				return fmt.Errorf("read bill lines: %w", err)
			}
		}
		switch {
		case twice > 0 && created && in.Quantity <= 1:
			// The first charge of a visit was its consultation, which writing the bill has
			// just charged: it is there once.
		case twice > 0 && !in.ConfirmDuplicate:
			return apperr.Conflict("billing.duplicate_service", l.Description)
		default:
			if l.LabOrderID, err = adopter(ctx, tx, id, l, wanted); err != nil {
				return err
			}
			l.ByOrder = l.LabOrderID != nil // a charge of the test's own service: the order's
			if err := s.insertLine(ctx, tx, e, id, l); err != nil {
				return err
			}
		}
		if err := s.retotal(ctx, tx, e, id, -1); err != nil {
			return err
		}
		b, err = get(ctx, tx, id)
		return err
	})
	return b, err
}

// UpdateLine replaces a charge of a draft bill whose version is still version.
func (s *Store) UpdateLine(ctx context.Context, e audit.Event, id, lineID int64, version int, in LineInput, override MayOverride) (Bill, error) {
	return s.changeLine(ctx, e, id, lineID, version, func(tx *sql.Tx, old Line) error {
		// Keeping a line's price is no override, even when the list's price has changed since.
		if in.UnitPrice != nil && *in.UnitPrice == old.UnitPrice {
			override = true
		}
		l, err := line(ctx, tx, in, override)
		if err != nil {
			return err
		}
		// A line changed to another service no longer charges its order: the order shows as
		// not charged again rather than charged by, say, a CRP line (ADR 41).
		if l.Code == old.Code {
			l.LabOrderID, l.ByOrder = old.LabOrderID, old.ByOrder
		}
		_, err = tx.ExecContext(ctx, `UPDATE bill_lines SET service_id = $1, code = $2, description = $3, category = $4, quantity = $5,
			unit_price = $6, discount_kind = $7, discount_value = $8, discount_reason = $9, discount = $10, amount = $11, lab_order_id = $12,
			by_order = $13 WHERE id = $14`,
			nullID(l.ServiceID), l.Code, l.Description, l.Category, l.Quantity, l.UnitPrice, l.DiscountKind, l.DiscountValue,
			l.DiscountReason, l.Discount, l.Amount, nullID(l.LabOrderID), flag(l.ByOrder), lineID)
		return err
	})
}

// RemoveLine takes a charge off a draft bill whose version is still version.
func (s *Store) RemoveLine(ctx context.Context, e audit.Event, id, lineID int64, version int) (Bill, error) {
	return s.changeLine(ctx, e, id, lineID, version, func(tx *sql.Tx, _ Line) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM bill_lines WHERE id = $1`, lineID)
		return err
	})
}

func (s *Store) changeLine(ctx context.Context, e audit.Event, id, lineID int64, version int, change func(*sql.Tx, Line) error) (Bill, error) {
	var b Bill
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := draftAt(ctx, tx, id, version); err != nil {
			return err
		}
		all, err := lines(ctx, tx, id)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(all, func(l Line) bool { return l.ID == lineID })
		if i < 0 {
			return apperr.NotFound("billing.line_not_found")
		}
		if err := change(tx, all[i]); err != nil {
			return err
		}
		if err := s.retotal(ctx, tx, e, id, version); err != nil {
			return err
		}
		b, err = get(ctx, tx, id)
		return err
	})
	return b, err
}

// BillInput is what a draft bill has besides its lines: its own discount and notes.
type BillInput struct {
	DiscountKind   string `json:"discount_kind"`
	DiscountValue  int64  `json:"discount_value"`
	DiscountReason string `json:"discount_reason"`
	Notes          string `json:"notes"`
	Version        int    `json:"version"`
}

// Update sets a draft bill's discount and notes if in.Version is still its version.
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, in BillInput) (Bill, error) {
	var v apperr.Validation
	in.DiscountReason, in.Notes = strings.TrimSpace(in.DiscountReason), strings.TrimSpace(in.Notes)
	checkDiscount(&v, "discount", in.DiscountKind, in.DiscountValue, in.DiscountReason)
	if utf8.RuneCountInString(in.DiscountReason) > apperr.MaxReason {
		v.Add("discount_reason", "validation.too_long")
	}
	if utf8.RuneCountInString(in.Notes) > 2000 {
		v.Add("notes", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return Bill{}, err
	}
	var b Bill
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := draftAt(ctx, tx, id, in.Version); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bills SET discount_kind = $1, discount_value = $2, discount_reason = $3, notes = $4 WHERE id = $5`,
			in.DiscountKind, in.DiscountValue, in.DiscountReason, in.Notes, id); err != nil {
			return fmt.Errorf("update bill: %w", err)
		}
		err := s.retotal(ctx, tx, e, id, in.Version)
		if err == nil {
			b, err = get(ctx, tx, id)
		}
		return err
	})
	return b, err
}

// flag stores a yes/no column (0 or 1 on both engines).
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
