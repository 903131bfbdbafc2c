package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/profile"
)

// Tag is what the front desk's queue shows of an appointment's bill in force: a draft
// still taking charges, a final bill "to pay", or one "paid".
type Tag struct {
	AppointmentID int64  `json:"appointment_id"`
	BillID        int64  `json:"bill_id"`
	Status        string `json:"status"`
	Currency      string `json:"currency"`
	MinorUnits    int    `json:"minor_units"`
	Total         Money  `json:"total"`
	Paid          Money  `json:"paid"`
	Credited      Money  `json:"credited"`
	Balance       Money  `json:"balance"`
}

// MaxTags is how many appointments one read of tags may name (a day's queue page).
const MaxTags = 500

// Tags reads the bills in force of the appointments ids, those that have one.
func (s *Store) Tags(ctx context.Context, ids []int64) ([]Tag, error) {
	out := []Tag{}
	if len(ids) > MaxTags {
		return out, apperr.Invalid("billing.too_many_appointments")
	}
	if len(ids) == 0 {
		return out, nil
	}
	in, args := database.InIDs(s.DB, "appointment_id", ids, 1)
	rows, err := s.DB.QueryContext(ctx, `SELECT appointment_id, id, status, currency, total, paid, credited FROM bills WHERE status <> 'void' AND `+in, args...)
	if err != nil {
		return out, fmt.Errorf("read bill tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t Tag
		if err := rows.Scan(&t.AppointmentID, &t.BillID, &t.Status, &t.Currency, &t.Total, &t.Paid, &t.Credited); err != nil {
			return out, fmt.Errorf("read bill tags: %w", err)
		}
		t.MinorUnits, t.Balance = MinorUnits(t.Currency), owed(t.Status, t.Total, t.Credited, t.Paid)
		out = append(out, t)
	}
	return out, rows.Err()
}

// Doctor is what a statement of fees prints of the visit's doctor: name, specialisations,
// licences and drawn signature, as copied when the bill was finalised (profile.Signer).
type Doctor struct {
	Name            string            `json:"name"`
	Specialisations []string          `json:"specialisations"`
	Licences        []profile.Licence `json:"licences"`
	HasSignature    bool              `json:"has_signature"`
	SignatureURL    string            `json:"signature_url"`
}

// doctorOf reads the bill's doctor for its statement; nil for a bill without one. A bill
// finalised with a doctor keeps them as they were then; a draft, or a bill finalised before
// bills kept their doctor, shows the doctor's profile as it is.
func doctorOf(ctx context.Context, q database.Querier, b Bill) (*Doctor, error) {
	if b.DoctorID == nil {
		return nil, nil
	}
	if b.signer.Valid {
		var kept profile.Signer
		if err := json.Unmarshal([]byte(b.signer.String), &kept); err != nil {
			return nil, fmt.Errorf("read bill's doctor: %w", err)
		}
		d := &Doctor{Name: kept.Name, Specialisations: kept.Specialisations, Licences: kept.Licences, HasSignature: b.signed}
		if b.signed {
			d.SignatureURL = fmt.Sprintf("/api/bills/%d/signature", b.ID)
		}
		return d, nil
	}
	p, err := profile.Get(ctx, q, *b.DoctorID)
	if err != nil {
		return nil, err
	}
	d := &Doctor{Name: p.Name, Specialisations: p.Specialisations, Licences: p.Licences, HasSignature: p.HasSignature}
	if p.HasSignature {
		// Through the bill, which its readers may open (a signature is otherwise its owner's
		// alone); the profile's version mark keeps a browser from showing an old one.
		_, mark, _ := strings.Cut(p.SignatureURL, "?")
		d.SignatureURL = fmt.Sprintf("/api/bills/%d/signature?%s", b.ID, mark)
	}
	return d, nil
}

// keepSigner copies the bill's doctor, with their drawn signature, into the bill being
// finalised in tx: the statement prints them as they were on that day.
func keepSigner(ctx context.Context, tx *sql.Tx, id int64, doctor *int64) error {
	if doctor == nil {
		return nil
	}
	signer, drawing, err := profile.SignerOf(ctx, tx, *doctor)
	if err != nil {
		return err
	}
	kept, _ := json.Marshal(signer)
	if _, err := tx.ExecContext(ctx, `UPDATE bills SET signer = $1, signature_type = $2, signature = $3 WHERE id = $4`,
		string(kept), drawing.ContentType, drawing.Data, id); err != nil {
		return fmt.Errorf("keep bill's doctor: %w", err)
	}
	return nil
}

// Signature is the drawing the bill's statement prints: the one kept when it was finalised,
// or, for a bill without one, its doctor's as it is.
func (s *Store) Signature(ctx context.Context, id int64) (profile.Drawing, error) {
	var doctor sql.NullInt64
	var d profile.Drawing
	var kept sql.NullString
	err := s.DB.QueryRowContext(ctx, `SELECT doctor_id, signer, signature_type, signature FROM bills WHERE id = $1`, id).Scan(&doctor, &kept, &d.ContentType, &d.Data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return d, apperr.NotFound("billing.bill_not_found")
	case err != nil:
		return d, fmt.Errorf("read bill: %w", err)
	case kept.Valid && d.Data != nil:
		return d, nil
	case kept.Valid || !doctor.Valid:
		return d, apperr.NotFound("billing.no_signature")
	}
	d.ContentType, d.Data, err = profile.Image(ctx, s.DB, doctor.Int64, profile.KindSignature)
	return d, err
}

// Documents a bill prints.
const (
	Statement  = "statement"
	Receipt    = "receipt"
	RefundSlip = "refund"
)

// PrintInput names what is printed: the statement of fees, the payment receipt of one
// payment, or the refund slip of one refund (the latest when none is named).
type PrintInput struct {
	Document  string `json:"document"`
	PaymentID int64  `json:"payment_id"`
}

// Printed checks that the bill can print the document and returns the audit detail of the
// print: the bill's number and, for a receipt, the receipt's. Only a final or void bill
// prints: a draft has neither number nor fixed total.
func (s *Store) Printed(ctx context.Context, id int64, in PrintInput) (Bill, string, error) {
	b, err := s.Get(ctx, id)
	if err != nil {
		return b, "", err
	}
	if b.Status == Draft {
		return b, "", apperr.Conflict("billing.print_draft")
	}
	switch in.Document {
	case Statement:
		return b, audit.Phrases(audit.Phrase{Key: "audit.detail.printed", Args: []string{b.Number}, Terms: []string{"audit.document." + Statement}}), nil
	case Receipt, RefundSlip:
		kind := map[string]string{Receipt: "payment", RefundSlip: "refund"}[in.Document]
		for i := len(b.Payments) - 1; i >= 0; i-- {
			p := b.Payments[i]
			if p.Kind == kind && (in.PaymentID == 0 || in.PaymentID == p.ID) {
				return b, audit.Phrases(audit.Phrase{Key: "audit.detail.printed", Args: []string{p.Receipt + " " + b.Number}, Terms: []string{"audit.document." + in.Document}}), nil
			}
		}
		return b, "", apperr.NotFound("billing.payment_not_found")
	}
	var v apperr.Validation
	v.Add("document", "billing.bad_document")
	return b, "", v.Err()
}
