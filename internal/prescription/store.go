package prescription

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/profile"
)

// Store reads and writes prescriptions.
type Store struct {
	DB  *database.DB
	Loc *time.Location // the clinic's time zone: a prescription's date and age
	Now func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) today() string { return s.now().In(s.Loc).Format(time.DateOnly) }

// checkPatient checks that a prescription may be written for patient id in tx (an archive
// waits for the write: patient.ArchivedAtForWrite).
func (s *Store) checkPatient(ctx context.Context, tx *sql.Tx, id int64) error {
	archived, err := patient.ArchivedAtForWrite(ctx, tx, s.DB.Engine, id)
	if errors.Is(err, apperr.ErrNotFound) {
		return apperr.Invalid("patient.not_found")
	}
	if err != nil {
		return err
	}
	if archived != nil {
		return apperr.Conflict("patient.archived")
	}
	return nil
}

// checkMedicines checks that the catalogue entries the lines name exist (withdrawn ones
// too: a draft written before the withdrawal may still be saved).
func checkMedicines(ctx context.Context, tx *sql.Tx, items []Item) error {
	var v apperr.Validation
	for i, it := range items {
		if it.MedicineID == nil {
			continue
		}
		ok, err := catalogue.MedicineExists(ctx, tx, *it.MedicineID)
		if err != nil {
			return err
		}
		if !ok {
			v.Add("items."+strconv.Itoa(i)+".medicine", "medicine.not_found")
		}
	}
	return v.Err()
}

// checkReplaces checks that a new prescription replaces a cancelled one of the same patient.
func checkReplaces(ctx context.Context, tx *sql.Tx, replaces, patientID *int64) error {
	if replaces == nil {
		return nil
	}
	var status string
	var pat sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT status, patient_id FROM prescriptions WHERE id = $1`, *replaces).Scan(&status, &pat)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (status != Cancelled || pat.Valid != (patientID != nil) || (patientID != nil && pat.Int64 != *patientID))) {
		return apperr.Invalid("prescription.bad_replaces")
	}
	return err
}

// CreateForVisit writes a draft prescription on a visit that is not cancelled.
func (s *Store) CreateForVisit(ctx context.Context, e audit.Event, appointmentID int64, in Input, lang string) (Prescription, error) {
	if err := in.check(lang); err != nil {
		return Prescription{}, err
	}
	return s.create(ctx, e, in, lang, func(tx *sql.Tx) (*int64, *int64, error) {
		visit, err := appointment.BasicsOf(ctx, tx, appointmentID)
		if err != nil {
			return nil, nil, err
		}
		if visit.Status == "cancelled" || visit.Status == "no-show" {
			return nil, nil, apperr.Conflict("prescription.visit_closed")
		}
		return &appointmentID, &visit.PatientID, nil
	})
}

// CreateBlank writes a prescription on the blank form, for a patient or for none.
func (s *Store) CreateBlank(ctx context.Context, e audit.Event, in Input, lang string) (Prescription, error) {
	if err := in.check(lang); err != nil {
		return Prescription{}, err
	}
	return s.create(ctx, e, in, lang, func(*sql.Tx) (*int64, *int64, error) { return nil, in.PatientID, nil })
}

func (s *Store) create(ctx context.Context, e audit.Event, in Input, lang string, owner func(*sql.Tx) (appointmentID, patientID *int64, err error)) (Prescription, error) {
	var rx Prescription
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		appointmentID, patientID, err := owner(tx)
		if err != nil {
			return err
		}
		rx, err = s.insert(ctx, tx, e, in, lang, appointmentID, patientID)
		return err
	})
	if err != nil {
		return rx, err
	}
	return rx, s.preview(ctx, &rx, e.ActorID, lang)
}

// CreateForVisitIn writes, inside tx, a draft prescription on an in-progress or completed
// visit, through every check CreateForVisit makes (an order set's lines are written so, in
// the transaction that writes the rest of the set).
func (s *Store) CreateForVisitIn(ctx context.Context, tx *sql.Tx, e audit.Event, appointmentID, patientID int64, in Input, lang string) (Prescription, error) {
	if err := in.check(lang); err != nil {
		return Prescription{}, err
	}
	return s.insert(ctx, tx, e, in, lang, &appointmentID, &patientID)
}

// insert checks and writes a new prescription inside tx.
func (s *Store) insert(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, lang string, appointmentID, patientID *int64) (Prescription, error) {
	if patientID != nil {
		if err := s.checkPatient(ctx, tx, *patientID); err != nil {
			return Prescription{}, err
		}
	}
	if err := checkReplaces(ctx, tx, in.ReplacesID, patientID); err != nil {
		return Prescription{}, err
	}
	if err := checkMedicines(ctx, tx, in.Items); err != nil {
		return Prescription{}, err
	}
	if err := s.settle(ctx, tx, patientID, 0, in.Items, lang); err != nil {
		return Prescription{}, err
	}
	kind, status := KindVisit, Draft
	if appointmentID == nil {
		kind, status = KindBlank, Ordered
	}
	items, _ := json.Marshal(in.Items)
	now := s.now()
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO prescriptions (kind, appointment_id, patient_id, status, items, notes, replaces_id,
		created_at, created_by, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $9) RETURNING id`,
		kind, appointmentID, patientID, status, string(items), in.Notes, in.ReplacesID, now, e.Actor()).Scan(&id); err != nil {
		return Prescription{}, fmt.Errorf("insert prescription: %w", err)
	}
	rx, err := s.get(ctx, tx, id)
	if err != nil {
		return rx, err
	}
	if err := keep(ctx, tx, rx); err != nil {
		return rx, err
	}
	if err := s.audit(ctx, tx, e, rx, "prescription.create", ""); err != nil {
		return rx, err
	}
	return rx, s.auditOverrides(ctx, tx, e, rx, nil)
}

// allergiesOf is what was read of allergies with the prescription's patient (nil without one).
func allergiesOf(rx Prescription) *allergyFacts {
	if rx.Patient == nil {
		return nil
	}
	return &allergyFacts{list: rx.Patient.Allergies, status: rx.Patient.AllergyStatus}
}

// patientOf is the patient a prescription is checked for (0: a blank pad).
func patientOf(rx Prescription) int64 {
	if rx.PatientID == nil {
		return 0
	}
	return *rx.PatientID
}

// settle checks the lines for patientID and refuses any finding not acknowledged with a
// reason; the lines then keep exactly the acknowledgements of their findings.
func (s *Store) settle(ctx context.Context, tx *sql.Tx, patientID *int64, except int64, items []Item, lang string) error {
	var pid int64
	if patientID != nil {
		pid = *patientID
	}
	c, err := s.readChild(ctx, tx, pid)
	if err != nil {
		return err
	}
	stampWeights(c, items)
	findings, err := s.findings(ctx, tx, pid, except, items, nil, lang)
	if err != nil {
		return err
	}
	if err := requireOverrides(findings); err != nil {
		return err
	}
	settleOverrides(items, findings)
	return nil
}

// auditOverrides records each line's override that was not there before (in old).
func (s *Store) auditOverrides(ctx context.Context, tx *sql.Tx, e audit.Event, rx Prescription, old []Item) error {
	for i, it := range rx.Items {
		if len(it.Overrides) == 0 || slices.ContainsFunc(old, func(o Item) bool {
			return o.OverrideReason == it.OverrideReason && slices.Equal(o.Overrides, it.Overrides)
		}) {
			continue
		}
		action := "prescription.duplicate_override"
		if slices.ContainsFunc(it.Overrides, func(k string) bool { return strings.HasPrefix(k, "allergy:") }) {
			action = "prescription.allergy_override"
		} else if slices.ContainsFunc(it.Overrides, func(k string) bool { return strings.HasPrefix(k, "interaction:") }) {
			action = "prescription.interaction_override"
		}
		detail := fmt.Sprintf("line %d %s: %s; reason: %s", i+1, it.Medicine, strings.Join(it.Overrides, ", "), it.OverrideReason)
		if err := s.audit(ctx, tx, e, rx, action, detail); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) audit(ctx context.Context, tx *sql.Tx, e audit.Event, rx Prescription, action, detail string) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = action, "prescription", strconv.FormatInt(rx.ID, 10), audit.Success, detail
	if rx.PatientID != nil {
		e.PatientID = *rx.PatientID
		e.Detail = strings.TrimSpace(fmt.Sprintf("patient %d %s", *rx.PatientID, detail))
	}
	return audit.Record(ctx, tx, e)
}

// open reads a prescription for a change that needs it unprinted and at version.
func (s *Store) open(ctx context.Context, tx *sql.Tx, id int64, version int) (Prescription, error) {
	rx, err := s.get(ctx, tx, id)
	switch {
	case err != nil:
		return rx, err
	case rx.Status == Cancelled:
		return rx, apperr.Conflict("prescription.cancelled")
	case !Editable(rx.Status):
		return rx, apperr.Conflict("prescription.issued")
	case rx.Version != version:
		return rx, apperr.Conflict("error.conflict")
	}
	return rx, nil
}

// Update changes an unprinted prescription's lines and notes (and, on the blank form,
// its patient). A printed one is refused and stays as it was.
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, in Input, lang string) (Prescription, error) {
	if err := in.check(lang); err != nil {
		return Prescription{}, err
	}
	var rx Prescription
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := s.open(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		if err := checkMedicines(ctx, tx, in.Items); err != nil {
			return err
		}
		patientID := old.PatientID
		if old.Kind == KindBlank {
			if patientID = in.PatientID; patientID != nil {
				if err := s.checkPatient(ctx, tx, *patientID); err != nil {
					return err
				}
			}
		}
		if err := s.settle(ctx, tx, patientID, id, in.Items, lang); err != nil {
			return err
		}
		items, _ := json.Marshal(in.Items)
		if _, err := tx.ExecContext(ctx, `UPDATE prescriptions SET items = $1, notes = $2, patient_id = $3, updated_at = $4, updated_by = $5,
			version = version + 1 WHERE id = $6`, string(items), in.Notes, patientID, s.now(), e.Actor(), id); err != nil {
			return fmt.Errorf("update prescription: %w", err)
		}
		if rx, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		if err := keep(ctx, tx, rx); err != nil {
			return err
		}
		if err := s.audit(ctx, tx, e, rx, "prescription.update", ""); err != nil {
			return err
		}
		return s.auditOverrides(ctx, tx, e, rx, old.Items)
	})
	if err != nil {
		return rx, err
	}
	return rx, s.preview(ctx, &rx, e.ActorID, lang)
}

// perKilogram is a dose written per kilogram of body weight ("15 mg/kg", "15 мг/кг").
var perKilogram = regexp.MustCompile(`(?i)\d\s*(mg|мг|mcg|мкг|µg|g|г|ml|мл)\s*/\s*(kg|кг)`)

// Print issues an unprinted prescription (at version): its prescriber becomes the printing
// user, whose details and signature are copied into it, and it can no longer change. A
// printed one may be printed again. Every print is audited. The lines are checked again
// (an allergy may have been recorded since they were saved): a finding their overrides do
// not cover refuses the print.
func (s *Store) Print(ctx context.Context, e audit.Event, id int64, version int, lang string) (Prescription, error) {
	var rx Prescription
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if rx, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		if rx.Status == Cancelled {
			return apperr.Conflict("prescription.cancelled")
		}
		if !Editable(rx.Status) {
			return s.audit(ctx, tx, e, rx, "prescription.reprint", "")
		}
		if rx.Version != version {
			return apperr.Conflict("error.conflict")
		}
		findings, err := s.findings(ctx, tx, patientOf(rx), rx.ID, rx.Items, allergiesOf(rx), lang)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(findings, func(f Finding) bool { return !f.settled() }) {
			return apperr.Conflict("prescription.safety_unresolved")
		}
		// A dose still written per kilogram leaves the arithmetic to the patient's family: the
		// child's dose in mg (and mL) is worked out before the prescription is issued.
		var v apperr.Validation
		for i, it := range rx.Items {
			if perKilogram.MatchString(it.Dose) {
				v.Add(fmt.Sprintf("items.%d.dose", i), "prescription.dose_per_kg")
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		signer, drawing, err := profile.SignerOf(ctx, tx, e.ActorID)
		if err != nil {
			return err
		}
		snapshot, _ := json.Marshal(signer)
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE prescriptions SET status = $1, prescriber_id = $2, prescriber = $3, signature_type = $4,
			signature = $5, issued_at = $6, updated_at = $6, updated_by = $2, version = version + 1 WHERE id = $7`,
			Printed(rx.Kind), e.ActorID, string(snapshot), drawing.ContentType, drawing.Data, now, id); err != nil {
			return fmt.Errorf("issue prescription: %w", err)
		}
		if rx, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		if err := keep(ctx, tx, rx); err != nil {
			return err
		}
		return s.audit(ctx, tx, e, rx, "prescription.print", strings.Join(rx.Warnings, " "))
	})
	if err != nil {
		return rx, err
	}
	return rx, s.diagnoses(ctx, &rx, lang)
}

// Cancel withdraws a prescription, printed or not, with a reason; it stays on record.
func (s *Store) Cancel(ctx context.Context, e audit.Event, id int64, version int, reason string) (Prescription, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Prescription{}, err
	}
	var rx Prescription
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := s.get(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case old.Status == Cancelled:
			return apperr.Conflict("prescription.cancelled")
		case old.Version != version:
			return apperr.Conflict("error.conflict")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE prescriptions SET status = $1, cancel_reason = $2, cancelled_at = $3, updated_at = $3,
			updated_by = $4, version = version + 1 WHERE id = $5`, Cancelled, reason, now, e.Actor(), id); err != nil {
			return fmt.Errorf("cancel prescription: %w", err)
		}
		if rx, err = s.get(ctx, tx, id); err != nil {
			return err
		}
		if err := keep(ctx, tx, rx); err != nil {
			return err
		}
		return s.audit(ctx, tx, e, rx, "prescription.cancel", "")
	})
	return rx, err
}

// Signature returns the signature a printed prescription carries.
func (s *Store) Signature(ctx context.Context, id int64) (profile.Drawing, error) {
	var d profile.Drawing
	err := s.DB.QueryRowContext(ctx, `SELECT signature_type, signature FROM prescriptions WHERE id = $1 AND signature IS NOT NULL`, id).Scan(&d.ContentType, &d.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return d, apperr.NotFound("prescription.not_found")
	}
	return d, err
}

// VersionKind names the kept versions of prescriptions (database.KeepVersion).
const VersionKind = "prescription"

// keep keeps rx, as just read in q (the change's transaction), as the version it has.
func keep(ctx context.Context, q database.Querier, rx Prescription) error {
	return database.KeepVersion(ctx, q, VersionKind, rx.ID, rx.Version, rx.UpdatedAt, rx)
}
