package billing

import (
	"context"
	"database/sql"
	"time"

	"emr/internal/database"
	"emr/internal/patient"
)

// Store reads and writes the price list, bills and payments.
type Store struct {
	DB  *database.DB
	Loc *time.Location // the clinic's time zone: a bill's year, a payment's day
	Now func() time.Time
	// Patients finds the patients a bill search names (List).
	Patients *patient.Store
	// Days keeps the day sums of the fee reports (feereport.Book), in each write's transaction.
	Days DayBook
	// Orders reads the lab orders of a visit, labels in lang (the results store's, wired by the
	// server): what the desk sees ordered beside what is charged (OrdersOf).
	Orders func(ctx context.Context, appointmentID int64, lang string) ([]VisitOrder, error)
	// Ordered answers which of the visits ids have lab orders (nil: every visit is read).
	Ordered func(ctx context.Context, ids []int64) ([]int64, error)
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
	// LabOrderID is the lab order this line charges, when an order put it on (ChargeOrder).
	LabOrderID *int64 `json:"lab_order_id"`
	// ByOrder: the order put this line on the bill (or it charges the test's own service and
	// the order took it as its own), so withdrawing the order before collection takes it off.
	// A line marked by hand as a test's charge is not: withdrawing the order only unmarks it.
	ByOrder bool `json:"by_order"`
	addedBy int64
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

// StillOwed says a refund credited nothing (RefundInput.StillOwed, ADR 27): money given back
// to be taken another way, which the bill asks again; every other refund credited the bill.
func (p Payment) StillOwed() bool { return p.Kind == "refund" && p.Credit == 0 }

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
	// signer is its doctor as kept when it was finalised (JSON), and signed whether a drawing
	// was kept with them (desk.go).
	signer sql.NullString
	signed bool
}
