package billing

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// year is the clinic's calendar year now.
func (s *Store) year() int { return s.now().In(s.loc()).Year() }

func (s *Store) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

// Finalise numbers a draft bill whose version is still version and fixes it. The number
// comes from the year's gap-free counter, taken in this transaction: concurrent finalisers
// wait for each other on that counter alone, and a rolled-back one gives its number back.
func (s *Store) Finalise(ctx context.Context, e audit.Event, id int64, version int) (Bill, error) {
	var b Bill
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		cur, err := draftAt(ctx, tx, id, version)
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bill_lines WHERE bill_id = $1`, id).Scan(&n); err != nil {
			return fmt.Errorf("count bill lines: %w", err)
		}
		if n == 0 {
			return apperr.Invalid("billing.no_lines")
		}
		year := s.year()
		seq, err := database.AddToCounter(ctx, tx, "bill:"+strconv.Itoa(year), 1)
		if err != nil {
			return err
		}
		number := fmt.Sprintf("%s-%d-%06d", billPrefix, year, seq)
		if err := keepSigner(ctx, tx, id, cur.DoctorID); err != nil { // while it is a draft: then it is fixed
			return err
		}
		now := s.now()
		day := s.dayOf(now)
		if _, err := tx.ExecContext(ctx, `UPDATE bills SET status = 'final', year = $1, seq = $2, number = $3, finalised_at = $4,
			finalised_by = $5, updated_at = $4, updated_by = $5, version = version + 1, day = $6 WHERE id = $7`,
			year, seq, number, now, e.Actor(), day, id); err != nil {
			return fmt.Errorf("finalise bill: %w", err)
		}
		if cur.Lines, err = lines(ctx, tx, id); err != nil {
			return err
		}
		if err := s.days().CountBill(ctx, tx, day, cur, 1); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.finalise", "bill", strconv.FormatInt(id, 10), cur.Patient.ID, audit.Success
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.number", Args: []string{number}})
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		b, err = get(ctx, tx, id)
		return err
	})
	return b, err
}

// VoidInput withdraws a bill: why, and whether to start its replacement (a draft with the
// same charges, to correct and finalise again).
type VoidInput struct {
	Reason  string `json:"reason"`
	Replace bool   `json:"replace"`
	Version int    `json:"version"`
}

// Void withdraws a bill with nothing paid on it (payments are refunded first) and, when
// asked, writes its replacement; it returns the replacement, or the void bill.
func (s *Store) Void(ctx context.Context, e audit.Event, id int64, in VoidInput) (Bill, error) {
	reason, err := apperr.Reason(in.Reason)
	if err != nil {
		return Bill{}, err
	}
	var b Bill
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		cur, err := lock(ctx, tx, id)
		if err != nil {
			return err
		}
		switch {
		case cur.Version != in.Version:
			return apperr.Conflict("error.conflict")
		case cur.Paid > 0:
			return apperr.Conflict("billing.refund_first")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE bills SET status = 'void', void_reason = $1, voided_at = $2, voided_by = $3,
			updated_at = $2, updated_by = $3, version = version + 1 WHERE id = $4`, reason, now, e.Actor(), id); err != nil {
			return fmt.Errorf("void bill: %w", err)
		}
		if cur.Status == Final {
			if cur.Lines, err = lines(ctx, tx, id); err != nil {
				return err
			}
			if err := s.days().CountBill(ctx, tx, cur.day, cur, -1); err != nil {
				return err
			}
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.void", "bill", strconv.FormatInt(id, 10), cur.Patient.ID, audit.Success
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.reason", Args: []string{reason}})
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		out := id
		if in.Replace {
			if out, err = s.replace(ctx, tx, e, cur); err != nil {
				return err
			}
		}
		b, err = get(ctx, tx, out)
		return err
	})
	return b, err
}

// replace writes a draft with old's patient, visit, every charge and discount. A charge of an
// order since withdrawn is copied too: whether it stays (a specimen taken, then not done: ADR
// 41 item 3) or goes (withdrawn before collection) is the desk's to decide on the draft, which
// flags it "cancelled, still charged" (the cashier's review, C2: the replacement quietly
// dropped a collected test's charge).
func (s *Store) replace(ctx context.Context, tx *sql.Tx, e audit.Event, old Bill) (int64, error) {
	now := s.now()
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO bills (patient_id, appointment_id, doctor_id, status, currency, discount_kind,
		discount_value, discount_reason, notes, replaces_id, created_at, created_by, updated_at, updated_by)
		VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $8, $9, $10, $11, $10, $11) RETURNING id`,
		old.Patient.ID, nullID(old.AppointmentID), nullID(old.DoctorID), old.Currency, old.DiscountKind, old.DiscountValue,
		old.DiscountReason, old.Notes, old.ID, now, e.Actor()).Scan(&id); err != nil {
		return 0, fmt.Errorf("insert bill: %w", err)
	}
	all, err := lines(ctx, tx, old.ID)
	if err != nil {
		return 0, err
	}
	for _, l := range all {
		if err := s.insertLine(ctx, tx, e, id, l); err != nil {
			return 0, err
		}
	}
	return id, s.retotal(ctx, tx, e, id, -1)
}
