package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/user"
)

func nullID(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

const billColumns = `id, patient_id, appointment_id, doctor_id, status, currency, COALESCE(number, ''), discount_kind,
	discount_value, discount_reason, subtotal, discount, total, paid, credited, notes, finalised_at, finalised_by, void_reason,
	voided_at, voided_by, replaces_id, created_at, version, COALESCE(day, ''), signer, signature IS NOT NULL`

func scanBill(row interface{ Scan(...any) error }) (Bill, error) {
	var b Bill
	var appt, doctor, replaces sql.NullInt64
	var finalised, voided sql.NullTime
	err := row.Scan(&b.ID, &b.Patient.ID, &appt, &doctor, &b.Status, &b.Currency, &b.Number, &b.DiscountKind,
		&b.DiscountValue, &b.DiscountReason, &b.Subtotal, &b.Discount, &b.Total, &b.Paid, &b.Credited, &b.Notes, &finalised, &b.finalisedBy,
		&b.VoidReason, &voided, &b.voidedBy, &replaces, &b.CreatedAt, &b.Version, &b.day, &b.signer, &b.signed)
	b.AppointmentID, b.DoctorID, b.ReplacesID = idOrNil(appt), idOrNil(doctor), idOrNil(replaces)
	if finalised.Valid {
		b.FinalisedAt = &finalised.Time
	}
	if voided.Valid {
		b.VoidedAt = &voided.Time
	}
	b.MinorUnits = MinorUnits(b.Currency)
	b.Balance = owed(b.Status, b.Total, b.Credited, b.Paid)
	return b, err
}

// owed is what a bill still asks: its total less what refunds credited (services not given)
// and what was paid; nothing for a draft or a void bill. Every balance shown is this one.
func owed(status string, total, credited, paid Money) Money {
	if status != Final {
		return 0
	}
	return max(total-credited-paid, 0)
}

func idOrNil(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}

// get reads bill id with its lines, payments and the names they refer to.
func get(ctx context.Context, q database.Querier, id int64) (Bill, error) {
	b, err := scanBill(q.QueryRowContext(ctx, `SELECT `+billColumns+` FROM bills WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return b, apperr.NotFound("billing.bill_not_found")
	}
	if err != nil {
		return b, fmt.Errorf("read bill: %w", err)
	}
	if b.Lines, err = lines(ctx, q, id); err != nil {
		return b, err
	}
	if b.Payments, err = payments(ctx, q, id); err != nil {
		return b, err
	}
	var next sql.NullInt64
	if err := q.QueryRowContext(ctx, replacedBy, id).Scan(&next); err != nil {
		return b, fmt.Errorf("read bill: %w", err)
	}
	b.ReplacedByID = idOrNil(next)
	return b, name(ctx, q, &b)
}

// replacedBy finds a bill's replacement, at every read of a bill (a payment answers with its
// bill): by the index of replacements (migration 00096), not a walk of every bill from the
// newest.
const replacedBy = `SELECT MAX(id) FROM bills WHERE replaces_id = $1`

// name fills in the names of the bill's patient, doctor and the staff on it.
func name(ctx context.Context, q database.Querier, b *Bill) error {
	refs, err := patientRefs(ctx, q, []int64{b.Patient.ID})
	if err != nil {
		return err
	}
	b.Patient = refs[b.Patient.ID]
	ids := []int64{b.finalisedBy.Int64, b.voidedBy.Int64}
	if b.DoctorID != nil {
		ids = append(ids, *b.DoctorID)
	}
	for _, l := range b.Lines {
		ids = append(ids, l.addedBy)
	}
	for _, p := range b.Payments {
		ids = append(ids, p.receivedBy, p.DrawerID)
	}
	slices.Sort(ids)
	names, err := user.Names(ctx, q, slices.DeleteFunc(slices.Compact(ids), func(id int64) bool { return id == 0 }))
	if err != nil {
		return err
	}
	if b.DoctorID != nil {
		b.Doctor = names[*b.DoctorID]
	}
	b.FinalisedBy, b.VoidedBy = names[b.finalisedBy.Int64], names[b.voidedBy.Int64]
	for i := range b.Lines {
		b.Lines[i].AddedBy = names[b.Lines[i].addedBy]
	}
	for i := range b.Payments {
		b.Payments[i].ReceivedBy, b.Payments[i].Drawer = names[b.Payments[i].receivedBy], names[b.Payments[i].DrawerID]
	}
	return nil
}

func lines(ctx context.Context, q database.Querier, billID int64) ([]Line, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, service_id, code, description, category, quantity, unit_price, discount_kind,
		discount_value, discount_reason, discount, amount, COALESCE(added_by, 0), added_at, lab_order_id, by_order FROM bill_lines WHERE bill_id = $1 ORDER BY id`, billID)
	if err != nil {
		return nil, fmt.Errorf("read bill lines: %w", err)
	}
	defer rows.Close()
	out := []Line{}
	for rows.Next() {
		var l Line
		var service, order sql.NullInt64
		var byOrder int
		if err := rows.Scan(&l.ID, &service, &l.Code, &l.Description, &l.Category, &l.Quantity, &l.UnitPrice, &l.DiscountKind,
			&l.DiscountValue, &l.DiscountReason, &l.Discount, &l.Amount, &l.addedBy, &l.AddedAt, &order, &byOrder); err != nil {
			return nil, fmt.Errorf("read bill lines: %w", err)
		}
		l.ServiceID, l.LabOrderID, l.ByOrder = idOrNil(service), idOrNil(order), byOrder == 1
		out = append(out, l)
	}
	return out, rows.Err()
}

func payments(ctx context.Context, q database.Querier, billID int64) ([]Payment, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, kind, method, reference, amount, tendered, reason, receipt, COALESCE(received_by, 0), received_at,
		credit, line_id, COALESCE(drawer_id, received_by, 0), payer FROM payments WHERE bill_id = $1 ORDER BY id`, billID)
	if err != nil {
		return nil, fmt.Errorf("read payments: %w", err)
	}
	defer rows.Close()
	out := []Payment{}
	for rows.Next() {
		var p Payment
		var tendered, line sql.NullInt64
		if err := rows.Scan(&p.ID, &p.Kind, &p.Method, &p.Reference, &p.Amount, &tendered, &p.Reason, &p.Receipt, &p.receivedBy, &p.ReceivedAt,
			&p.Credit, &line, &p.DrawerID, &p.Payer); err != nil {
			return nil, fmt.Errorf("read payments: %w", err)
		}
		p.LineID = idOrNil(line)
		if tendered.Valid {
			t := Money(tendered.Int64)
			p.Tendered, p.Change = &t, t-p.Amount
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// The series of the numbers money's papers carry, each its own and none like a patient's
// number (2026-000001) or a document's (MC-, FW-, RF-, LR-…): bills, payment receipts
// (not "official" ones: a receipt is not a fiscal document), refund slips. Numbers given
// before under other prefixes keep them.
const (
	billPrefix    = "BL"
	receiptPrefix = "PR"
	refundPrefix  = "RS"
)

// Get reads a bill with what its statement prints of the doctor (read here, outside any
// write's transaction: only the bill's own page and its prints need it).
func (s *Store) Get(ctx context.Context, id int64) (Bill, error) {
	b, err := get(ctx, s.DB, id)
	if err == nil {
		b.DoctorDetails, err = doctorOf(ctx, s.DB, b)
	}
	return b, err
}

// ForAppointment reads the appointment's bill in force. Before its first charge, the bill of
// a visit under way (arrived, started, completed) is shown as it will be written — with its
// consultation fee — marked Preview; any other visit has none yet (NotFound).
func (s *Store) ForAppointment(ctx context.Context, appointmentID int64) (Bill, error) {
	var id int64
	err := s.DB.QueryRowContext(ctx, `SELECT id FROM bills WHERE appointment_id = $1 AND status <> 'void'`, appointmentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		visit, err := appointment.BasicsOf(ctx, s.DB, appointmentID)
		if err != nil {
			return Bill{}, err
		}
		if visit.Status == appointment.Arrived || visit.Status == appointment.InProgress || visit.Status == appointment.Completed {
			return s.preview(ctx, appointmentID, visit)
		}
		return Bill{}, apperr.NotFound("billing.no_bill")
	}
	if err != nil {
		return Bill{}, fmt.Errorf("find bill: %w", err)
	}
	return get(ctx, s.DB, id)
}

// patientRefs names the patients with ids (in any order, repeats allowed).
func patientRefs(ctx context.Context, q database.Querier, ids []int64) (map[int64]PatientRef, error) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	sums, err := patient.Summaries(ctx, q, slices.Compact(ids))
	out := make(map[int64]PatientRef, len(sums))
	for id, p := range sums {
		out[id] = PatientRef{ID: id, MRN: p.MRN, Name: p.NameIn(i18n.FromContext(ctx))}
	}
	return out, err
}

// OwedBy is what patient patientID owes in all, summed in SQL over every bill of theirs: each
// final bill's balance, total − credited − paid where that is above 0 (as owed reads it; a
// draft or void bill asks nothing), however many of the bills a page lists. issued is how many
// bills were issued to them (finalised, whether still final or voided since).
func OwedBy(ctx context.Context, q database.Querier, patientID int64) (owes Money, issued int, err error) {
	err = q.QueryRowContext(ctx, `SELECT COALESCE(SUM(CASE WHEN status = 'final' AND total > paid + credited THEN total - credited - paid ELSE 0 END), 0),
		COUNT(*) FROM bills WHERE patient_id = $1 AND status <> 'draft' AND finalised_at IS NOT NULL`, patientID).Scan(&owes, &issued)
	if err != nil {
		return 0, 0, fmt.Errorf("what a patient owes: %w", err)
	}
	return owes, issued, nil
}
