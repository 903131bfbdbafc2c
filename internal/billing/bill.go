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
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/user"
)

// Store reads and writes the price list, bills and payments.
type Store struct {
	DB  *database.DB
	Loc *time.Location // the clinic's time zone: a bill's year, a payment's day
	Now func() time.Time
}

// Bill statuses: a draft takes charges; a final bill is numbered and fixed; a void one was
// withdrawn with a reason (and usually replaced).
const (
	Draft = "draft"
	Final = "final"
	Void  = "void"
)

// Methods of payment.
var Methods = []string{"cash", "card", "bank transfer", "e-wallet", "insurance", "other"}

// Line is a charge on a bill.
type Line struct {
	ID             int64     `json:"id"`
	ServiceID      *int64    `json:"service_id"`
	Code           string    `json:"code"`
	Description    string    `json:"description"`
	Category       string    `json:"category"`
	Quantity       int64     `json:"quantity"`
	UnitPrice      Money     `json:"unit_price"`
	DiscountKind   string    `json:"discount_kind"`
	DiscountValue  int64     `json:"discount_value"`
	DiscountReason string    `json:"discount_reason"`
	Discount       Money     `json:"discount"`
	Amount         Money     `json:"amount"`
	AddedBy        string    `json:"added_by"`
	AddedAt        time.Time `json:"added_at"`
	addedBy        int64
}

// Payment is money received on a bill (kind "payment") or given back (kind "refund").
type Payment struct {
	ID         int64     `json:"id"`
	Kind       string    `json:"kind"`
	Method     string    `json:"method"`
	Reference  string    `json:"reference"`
	Amount     Money     `json:"amount"`
	Tendered   *Money    `json:"tendered"`
	Change     Money     `json:"change"`
	Reason     string    `json:"reason"`
	Receipt    string    `json:"receipt"`
	ReceivedBy string    `json:"received_by"`
	ReceivedAt time.Time `json:"received_at"`
	// Credit is what a refund took off what the bill asks (a service not given); a refund
	// with none gave money back that is still owed. LineID names the service, when one was.
	Credit Money  `json:"credit"`
	LineID *int64 `json:"line_id"`
	// Drawer is the cashier whose drawer the cash went into or came out of.
	DrawerID   int64  `json:"drawer_id"`
	Drawer     string `json:"drawer"`
	Payer      string `json:"payer"` // who paid, when not the patient
	receivedBy int64
}

// PatientRef names a bill's patient.
type PatientRef struct {
	ID   int64  `json:"id"`
	MRN  string `json:"mrn"`
	Name string `json:"name"`
}

// Bill is a bill with its lines and payments.
type Bill struct {
	ID             int64      `json:"id"`
	Number         string     `json:"number"`
	Status         string     `json:"status"`
	Patient        PatientRef `json:"patient"`
	AppointmentID  *int64     `json:"appointment_id"`
	DoctorID       *int64     `json:"doctor_id"`
	Doctor         string     `json:"doctor"`
	DoctorDetails  *Doctor    `json:"doctor_details"`
	Currency       string     `json:"currency"`
	MinorUnits     int        `json:"minor_units"`
	Lines          []Line     `json:"lines"`
	Payments       []Payment  `json:"payments"`
	DiscountKind   string     `json:"discount_kind"`
	DiscountValue  int64      `json:"discount_value"`
	DiscountReason string     `json:"discount_reason"`
	Subtotal       Money      `json:"subtotal"`
	Discount       Money      `json:"discount"`
	Total          Money      `json:"total"`
	Paid           Money      `json:"paid"`
	Credited       Money      `json:"credited"` // refunded for services not given: no longer asked
	Balance        Money      `json:"balance"`
	Notes          string     `json:"notes"`
	FinalisedAt    *time.Time `json:"finalised_at"`
	FinalisedBy    string     `json:"finalised_by"`
	VoidReason     string     `json:"void_reason"`
	VoidedAt       *time.Time `json:"voided_at"`
	VoidedBy       string     `json:"voided_by"`
	ReplacesID     *int64     `json:"replaces_id"`
	ReplacedByID   *int64     `json:"replaced_by_id"`
	CreatedAt      time.Time  `json:"created_at"`
	Version        int        `json:"version"`
	// Preview marks the bill an arrived or started visit will have, shown before anything
	// has been charged: not written yet (id 0); its first charge writes it with these lines.
	Preview bool `json:"preview"`

	finalisedBy, voidedBy sql.NullInt64
	day                   string // the clinic day it counts on once finalised (days.go)
}

func actorOf(e audit.Event) any {
	if e.ActorID == 0 {
		return nil
	}
	return e.ActorID
}

func nullID(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

const billColumns = `id, patient_id, appointment_id, doctor_id, status, currency, COALESCE(number, ''), discount_kind,
	discount_value, discount_reason, subtotal, discount, total, paid, credited, notes, finalised_at, finalised_by, void_reason,
	voided_at, voided_by, replaces_id, created_at, version, COALESCE(day, '')`

func scanBill(row interface{ Scan(...any) error }) (Bill, error) {
	var b Bill
	var appt, doctor, replaces sql.NullInt64
	var finalised, voided sql.NullTime
	err := row.Scan(&b.ID, &b.Patient.ID, &appt, &doctor, &b.Status, &b.Currency, &b.Number, &b.DiscountKind,
		&b.DiscountValue, &b.DiscountReason, &b.Subtotal, &b.Discount, &b.Total, &b.Paid, &b.Credited, &b.Notes, &finalised, &b.finalisedBy,
		&b.VoidReason, &voided, &b.voidedBy, &replaces, &b.CreatedAt, &b.Version, &b.day)
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
	if err := q.QueryRowContext(ctx, `SELECT MAX(id) FROM bills WHERE replaces_id = $1`, id).Scan(&next); err != nil {
		return b, fmt.Errorf("read bill: %w", err)
	}
	b.ReplacedByID = idOrNil(next)
	return b, name(ctx, q, &b)
}

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
		discount_value, discount_reason, discount, amount, COALESCE(added_by, 0), added_at FROM bill_lines WHERE bill_id = $1 ORDER BY id`, billID)
	if err != nil {
		return nil, fmt.Errorf("read bill lines: %w", err)
	}
	defer rows.Close()
	out := []Line{}
	for rows.Next() {
		var l Line
		var service sql.NullInt64
		if err := rows.Scan(&l.ID, &service, &l.Code, &l.Description, &l.Category, &l.Quantity, &l.UnitPrice, &l.DiscountKind,
			&l.DiscountValue, &l.DiscountReason, &l.Discount, &l.Amount, &l.addedBy, &l.AddedAt); err != nil {
			return nil, fmt.Errorf("read bill lines: %w", err)
		}
		l.ServiceID = idOrNil(service)
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
			p.Tendered, p.Change = &tendered.Int64, tendered.Int64-p.Amount
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

// LineInput is a charge to add or change: a service of the price list (its price unless
// UnitPrice says otherwise, which needs the override permission) or free text with a price.
type LineInput struct {
	ServiceID      *int64 `json:"service_id"`
	Description    string `json:"description"`
	Quantity       int64  `json:"quantity"`
	UnitPrice      *Money `json:"unit_price"`
	DiscountKind   string `json:"discount_kind"`
	DiscountValue  int64  `json:"discount_value"`
	DiscountReason string `json:"discount_reason"`
	// ConfirmDuplicate charges a service the bill has already, on purpose (a second
	// injection); without it such a charge is refused with a 409 that names the service.
	ConfirmDuplicate bool `json:"confirm_duplicate"`
}

// MayOverride says whether the writer may charge a service at another than its listed price.
type MayOverride bool

// line checks in and makes the line it charges.
func line(ctx context.Context, tx database.Querier, in LineInput, override MayOverride) (Line, error) {
	var v apperr.Validation
	l := Line{ServiceID: in.ServiceID, Description: strings.TrimSpace(in.Description), Quantity: in.Quantity, Category: "other",
		DiscountKind: in.DiscountKind, DiscountValue: in.DiscountValue, DiscountReason: strings.TrimSpace(in.DiscountReason)}
	if in.Quantity < 1 || in.Quantity > 1000 {
		v.Add("quantity", "billing.bad_quantity")
	}
	if utf8.RuneCountInString(l.Description) > 200 {
		v.Add("description", "validation.too_long")
	}
	if utf8.RuneCountInString(l.DiscountReason) > apperr.MaxReason {
		v.Add("discount_reason", "validation.too_long")
	}
	checkDiscount(&v, "discount", in.DiscountKind, in.DiscountValue, in.DiscountReason)
	if in.UnitPrice != nil && (*in.UnitPrice < 0 || *in.UnitPrice > maxMoney) {
		v.Add("unit_price", "billing.bad_amount")
	}
	if in.ServiceID == nil {
		if l.Description == "" {
			v.Add("description", "billing.line_needs_service_or_text")
		}
		if in.UnitPrice == nil {
			v.Add("unit_price", "validation.required")
		}
	}
	if err := v.Err(); err != nil {
		return l, err
	}
	if in.ServiceID != nil {
		sv, err := getService(ctx, tx, *in.ServiceID)
		if errors.Is(err, apperr.ErrNotFound) || (err == nil && !sv.Active) {
			v.Add("service_id", "billing.service_not_found")
			return l, v.Err()
		}
		if err != nil {
			return l, err
		}
		l.Code, l.Category, l.UnitPrice = sv.Code, sv.Category, sv.Price
		if l.Description == "" {
			l.Description = sv.Name
		}
		if in.UnitPrice != nil && *in.UnitPrice != sv.Price {
			if !override {
				return l, apperr.Forbidden("billing.price_override_forbidden")
			}
			l.UnitPrice = *in.UnitPrice
		}
	} else {
		l.UnitPrice = *in.UnitPrice
	}
	gross := l.UnitPrice * l.Quantity
	if gross > maxMoney {
		v.Add("quantity", "billing.bad_amount")
		return l, v.Err()
	}
	l.Discount = discountOn(gross, l.DiscountKind, l.DiscountValue)
	l.Amount = gross - l.Discount
	return l, nil
}

func (s *Store) insertLine(ctx context.Context, tx *sql.Tx, e audit.Event, billID int64, l Line) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO bill_lines (bill_id, service_id, code, description, category, quantity, unit_price,
		discount_kind, discount_value, discount_reason, discount, amount, added_by, added_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		billID, nullID(l.ServiceID), l.Code, l.Description, l.Category, l.Quantity, l.UnitPrice,
		l.DiscountKind, l.DiscountValue, l.DiscountReason, l.Discount, l.Amount, actorOf(e), s.now())
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
	discount := lineDiscounts + discountOn(gross-lineDiscounts, kind, value)
	res, err := tx.ExecContext(ctx, `UPDATE bills SET subtotal = $1, discount = $2, total = $3, updated_at = $4, updated_by = $5,
		version = version + 1 WHERE id = $6 AND status = 'draft' AND ($7 = -1 OR version = $7)`,
		gross, discount, gross-discount, s.now(), actorOf(e), billID, version)
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

// openBill returns the id of the appointment's bill in force, writing a new draft (with the
// consultation fee of the appointment's type, when the settings name one) if it has none;
// created says it wrote it just now.
func (s *Store) openBill(ctx context.Context, tx *sql.Tx, e audit.Event, appointmentID int64) (id int64, created bool, err error) {
	visit, err := appointment.BasicsOf(ctx, tx, appointmentID)
	if err != nil {
		return 0, false, err
	}
	err = tx.QueryRowContext(ctx, `SELECT id FROM bills WHERE appointment_id = $1 AND status <> 'void'`, appointmentID).Scan(&id)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("find bill: %w", err)
	}
	if visit.Status == "cancelled" {
		return 0, false, apperr.Conflict("billing.visit_cancelled")
	}
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return 0, false, err
	}
	now := s.now()
	// Two first charges at once: the second insert meets the first's bill and takes it.
	err = tx.QueryRowContext(ctx, `INSERT INTO bills (patient_id, appointment_id, doctor_id, status, currency, created_at, created_by, updated_at, updated_by)
		VALUES ($1, $2, $3, 'draft', $4, $5, $6, $5, $6)
		ON CONFLICT (appointment_id) WHERE appointment_id IS NOT NULL AND status <> 'void' DO NOTHING RETURNING id`,
		visit.PatientID, appointmentID, visit.DoctorID, set.Currency, now, actorOf(e)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRowContext(ctx, `SELECT id FROM bills WHERE appointment_id = $1 AND status <> 'void'`, appointmentID).Scan(&id)
		return id, false, err
	}
	if err != nil {
		return 0, false, fmt.Errorf("insert bill: %w", err)
	}
	if l, ok, err := consultationLine(ctx, tx, set, visit.Type); err != nil {
		return 0, false, err
	} else if ok {
		if err := s.insertLine(ctx, tx, e, id, l); err != nil {
			return 0, false, err
		}
	}
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.create", "bill", strconv.FormatInt(id, 10), visit.PatientID, audit.Success
	return id, true, errors.Join(s.retotal(ctx, tx, e, id, -1), audit.Record(ctx, tx, e))
}

// preview is the bill a visit under way will have when its first charge writes it.
func (s *Store) preview(ctx context.Context, appointmentID int64, visit appointment.Basics) (Bill, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return Bill{}, err
	}
	b := Bill{Status: Draft, Preview: true, AppointmentID: &appointmentID, DoctorID: &visit.DoctorID, Currency: set.Currency,
		MinorUnits: MinorUnits(set.Currency), Lines: []Line{}, Payments: []Payment{}, CreatedAt: s.now()}
	b.Patient.ID = visit.PatientID
	l, ok, err := consultationLine(ctx, s.DB, set, visit.Type)
	if err != nil {
		return Bill{}, err
	}
	if ok {
		b.Lines = append(b.Lines, l)
		b.Subtotal, b.Total = l.Amount, l.Amount
	}
	return b, name(ctx, s.DB, &b)
}

// consultationLine is the consultation fee a visit of kind visitType is charged when its
// bill is written (false when the settings name none, or it is withdrawn).
func consultationLine(ctx context.Context, q database.Querier, set Settings, visitType string) (Line, bool, error) {
	code := set.Consultation[visitType]
	if code == "" {
		return Line{}, false, nil
	}
	sv, err := serviceByCode(ctx, q, code)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !sv.Active) {
		return Line{}, false, nil
	}
	if err != nil {
		return Line{}, false, err
	}
	l, err := line(ctx, q, LineInput{ServiceID: &sv.ID, Quantity: 1}, false)
	return l, err == nil, err
}

// OpenForAppointment returns the appointment's bill, writing it (as openBill) if it has none.
func (s *Store) OpenForAppointment(ctx context.Context, e audit.Event, appointmentID int64) (Bill, error) {
	var b Bill
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		id, _, err := s.openBill(ctx, tx, e, appointmentID)
		if err == nil {
			b, err = get(ctx, tx, id)
		}
		return err
	})
	return b, err
}

// CreateWalkIn writes a draft bill of a patient without a visit — or, when the patient has
// one open already (a walk-in or a replacement still taking charges), answers that one, so
// that the desk never leaves a trail of empty drafts. created says which.
func (s *Store) CreateWalkIn(ctx context.Context, e audit.Event, patientID int64) (b Bill, created bool, err error) {
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := patient.CheckActive(ctx, tx, patientID); err != nil {
			return err
		}
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM bills WHERE patient_id = $1 AND appointment_id IS NULL AND status = 'draft' ORDER BY id DESC LIMIT 1`, patientID).Scan(&id)
		if err == nil {
			b, err = get(ctx, tx, id)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("find an open bill: %w", err)
		}
		set, err := ReadSettings(ctx, tx)
		if err != nil {
			return err
		}
		now := s.now()
		if err := tx.QueryRowContext(ctx, `INSERT INTO bills (patient_id, status, currency, created_at, created_by, updated_at, updated_by)
			VALUES ($1, 'draft', $2, $3, $4, $3, $4) RETURNING id`, patientID, set.Currency, now, actorOf(e)).Scan(&id); err != nil {
			return fmt.Errorf("insert bill: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.create", "bill", strconv.FormatInt(id, 10), patientID, audit.Success
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		created = true
		b, err = get(ctx, tx, id)
		return err
	})
	return b, created, err
}

// AddLine charges in on bill id (or, when appointmentID is set, on that appointment's bill,
// written on this first charge). Adding needs no version: a doctor and the front desk may
// both add charges to one bill at once.
func (s *Store) AddLine(ctx context.Context, e audit.Event, id, appointmentID int64, in LineInput, override MayOverride) (Bill, error) {
	var b Bill
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
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
		_, err = tx.ExecContext(ctx, `UPDATE bill_lines SET service_id = $1, code = $2, description = $3, category = $4, quantity = $5,
			unit_price = $6, discount_kind = $7, discount_value = $8, discount_reason = $9, discount = $10, amount = $11 WHERE id = $12`,
			nullID(l.ServiceID), l.Code, l.Description, l.Category, l.Quantity, l.UnitPrice, l.DiscountKind, l.DiscountValue,
			l.DiscountReason, l.Discount, l.Amount, lineID)
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
			year, seq, number, now, actorOf(e), day, id); err != nil {
			return fmt.Errorf("finalise bill: %w", err)
		}
		if cur.Lines, err = lines(ctx, tx, id); err != nil {
			return err
		}
		if err := countDay(ctx, tx, day, cur, 1); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.finalise", "bill", strconv.FormatInt(id, 10), cur.Patient.ID, audit.Success
		e.Detail = "number " + number
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
			updated_at = $2, updated_by = $3, version = version + 1 WHERE id = $4`, reason, now, actorOf(e), id); err != nil {
			return fmt.Errorf("void bill: %w", err)
		}
		if cur.Status == Final {
			if cur.Lines, err = lines(ctx, tx, id); err != nil {
				return err
			}
			if err := countDay(ctx, tx, cur.day, cur, -1); err != nil {
				return err
			}
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.void", "bill", strconv.FormatInt(id, 10), cur.Patient.ID, audit.Success
		e.Detail = "reason: " + reason
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

// replace writes a draft with old's patient, visit, charges and discount.
func (s *Store) replace(ctx context.Context, tx *sql.Tx, e audit.Event, old Bill) (int64, error) {
	now := s.now()
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO bills (patient_id, appointment_id, doctor_id, status, currency, discount_kind,
		discount_value, discount_reason, notes, replaces_id, created_at, created_by, updated_at, updated_by)
		VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $8, $9, $10, $11, $10, $11) RETURNING id`,
		old.Patient.ID, nullID(old.AppointmentID), nullID(old.DoctorID), old.Currency, old.DiscountKind, old.DiscountValue,
		old.DiscountReason, old.Notes, old.ID, now, actorOf(e)).Scan(&id); err != nil {
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
