package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/patient"
)

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
		visit.PatientID, appointmentID, visit.DoctorID, set.Currency, now, e.Actor()).Scan(&id)
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
		if err := patient.CheckActive(ctx, tx, s.DB.Engine, patientID); err != nil {
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
			VALUES ($1, 'draft', $2, $3, $4, $3, $4) RETURNING id`, patientID, set.Currency, now, e.Actor()).Scan(&id); err != nil {
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
