package prescription

import (
	"context"
	"strconv"

	"emr/internal/audit"
	"emr/internal/settings"
)

// The reads a person makes, each audited (as e's) with the patient whose prescriptions it
// shows: a list as prescription.list, one prescription as prescription.read, a safety check
// as prescription.check.

// auditRead records e's read of a patient's prescriptions (of no patient's, for blanks).
func (s *Store) auditRead(ctx context.Context, e audit.Event, action, entity string, id, patientID int64) error {
	e.Action, e.EntityType, e.Outcome, e.PatientID = action, entity, audit.Success, patientID
	if id != 0 {
		e.EntityID = strconv.FormatInt(id, 10)
	}
	return audit.Access(ctx, s.DB, e)
}

// ReadForAppointment is ForAppointment, audited with the visit's patient.
func (s *Store) ReadForAppointment(ctx context.Context, e audit.Event, appointmentID int64) ([]Prescription, error) {
	list, err := s.ForAppointment(ctx, appointmentID)
	if err != nil || len(list) == 0 || list[0].PatientID == nil {
		return list, err
	}
	return list, s.auditRead(ctx, e, "prescription.list", "patient", *list[0].PatientID, *list[0].PatientID)
}

// ReadForPatient is ForPatient, audited with the patient.
func (s *Store) ReadForPatient(ctx context.Context, e audit.Event, patientID int64) ([]Prescription, error) {
	list, err := s.ForPatient(ctx, patientID)
	if err != nil {
		return list, err
	}
	return list, s.auditRead(ctx, e, "prescription.list", "patient", patientID, patientID)
}

// ReadBlank is Blank, audited as a list of no patient's.
func (s *Store) ReadBlank(ctx context.Context, e audit.Event) ([]Prescription, error) {
	list, err := s.Blank(ctx)
	if err != nil {
		return list, err
	}
	return list, s.auditRead(ctx, e, "prescription.list", "prescription", 0, 0)
}

// readOne audits the read of rx.
func (s *Store) readOne(ctx context.Context, e audit.Event, rx Prescription, err error) (Prescription, error) {
	if err != nil {
		return rx, err
	}
	var patientID int64
	if rx.PatientID != nil {
		patientID = *rx.PatientID
	}
	return rx, s.auditRead(ctx, e, "prescription.read", "prescription", rx.ID, patientID)
}

// ReadPrevious is Previous, audited.
func (s *Store) ReadPrevious(ctx context.Context, e audit.Event, appointmentID int64) (Prescription, error) {
	rx, err := s.Previous(ctx, appointmentID)
	return s.readOne(ctx, e, rx, err)
}

// Read is Get for e's actor, audited.
func (s *Store) Read(ctx context.Context, e audit.Event, id int64, lang string) (Prescription, error) {
	rx, err := s.Get(ctx, id, e.ActorID, lang)
	return s.readOne(ctx, e, rx, err)
}

// CheckFor is Check, auditing the read of the patient's allergies and prescriptions it made.
func (s *Store) CheckFor(ctx context.Context, e audit.Event, in CheckInput, lang string) (CheckResult, error) {
	res, err := s.Check(ctx, in, lang)
	if err != nil || res.PatientID == nil {
		return res, err
	}
	return res, s.auditRead(ctx, e, "prescription.check", "patient", *res.PatientID, *res.PatientID)
}

// PrintOut is what the print page shows: the prescription and the clinic's header.
type PrintOut struct {
	Prescription
	Clinic settings.Clinic `json:"clinic"`
}

// PrintWithHeader is Print, answered with the clinic's header the paper carries.
func (s *Store) PrintWithHeader(ctx context.Context, e audit.Event, id int64, version int, lang string) (PrintOut, error) {
	var out PrintOut
	var err error
	if out.Prescription, err = s.Print(ctx, e, id, version, lang); err != nil {
		return out, err
	}
	out.Clinic, err = settings.ReadClinic(ctx, s.DB)
	return out, err
}
