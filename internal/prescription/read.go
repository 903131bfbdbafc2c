package prescription

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/profile"
	"emr/internal/user"
)

// Reading prescriptions: one, or the lists of a visit, a patient and the blank pad, each with
// its patient's details and its author named from their owners.

const columns = `rx.id, rx.kind, rx.appointment_id, rx.patient_id, rx.status, rx.items, rx.notes, rx.prescriber,
	rx.signature IS NOT NULL, rx.issued_at, rx.cancel_reason, rx.cancelled_at, rx.replaces_id, rx.created_at,
	COALESCE(rx.created_by, 0), rx.updated_at, rx.version
	FROM prescriptions rx`

// row is a prescription as read, before its patient and author are named.
type row struct {
	Prescription
	createdBy int64
}

func (s *Store) scan(r interface{ Scan(...any) error }) (row, error) {
	var rx row
	var items, prescriber string
	var appt, pat, replaces sql.NullInt64
	var issued, cancelled sql.NullTime
	err := r.Scan(&rx.ID, &rx.Kind, &appt, &pat, &rx.Status, &items, &rx.Notes, &prescriber,
		&rx.HasSignature, &issued, &rx.CancelReason, &cancelled, &replaces, &rx.CreatedAt,
		&rx.createdBy, &rx.UpdatedAt, &rx.Version)
	if err != nil {
		return rx, err
	}
	if err := json.Unmarshal([]byte(items), &rx.Items); err != nil {
		return rx, fmt.Errorf("read prescription items: %w", err)
	}
	if prescriber != "" {
		rx.Prescriber = &Prescriber{}
		if err := json.Unmarshal([]byte(prescriber), rx.Prescriber); err != nil {
			return rx, fmt.Errorf("read prescriber: %w", err)
		}
	}
	if appt.Valid {
		rx.AppointmentID = &appt.Int64
	}
	if pat.Valid {
		rx.PatientID = &pat.Int64
	}
	if replaces.Valid {
		rx.ReplacesID = &replaces.Int64
	}
	if issued.Valid {
		rx.IssuedAt = &issued.Time
	}
	if cancelled.Valid {
		rx.CancelledAt = &cancelled.Time
	}
	return rx, nil
}

// complete names the prescriptions' authors and fills in their patients' details (read from
// the user and patient stores, two reads for the whole list), the signature's address and
// the print's warnings.
func (s *Store) complete(ctx context.Context, q database.Querier, rows []row) ([]Prescription, error) {
	var authors, patients []int64
	for _, rx := range rows {
		authors = append(authors, rx.createdBy)
		if rx.PatientID != nil {
			patients = append(patients, *rx.PatientID)
		}
	}
	names, err := user.Names(ctx, q, authors)
	if err != nil {
		return nil, err
	}
	records, err := patient.Records(ctx, q, patients)
	if err != nil {
		return nil, err
	}
	out := make([]Prescription, len(rows))
	for i, r := range rows {
		rx := r.Prescription
		rx.CreatedBy = names[r.createdBy]
		day := s.now().In(s.Loc)
		if rx.IssuedAt != nil {
			day = rx.IssuedAt.In(s.Loc)
		}
		if rx.PatientID != nil {
			p := records[*rx.PatientID]
			pd := PatientDetails{ID: *rx.PatientID, MRN: p.MRN, Sex: p.Sex, BirthDate: p.BirthDate, Address: p.Address,
				FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName}
			pd.Name = i18n.PersonName(i18n.FromContext(ctx), p.FirstName, p.MiddleName, p.LastName)
			pd.Age = ageOn(pd.BirthDate, day)
			pd.Allergies, pd.AllergyStatus = p.History.Allergies, p.History.AllergyStatus
			rx.Patient = &pd
		}
		if rx.HasSignature {
			rx.SignatureURL = fmt.Sprintf("/api/prescriptions/%d/signature", rx.ID)
		}
		rx.Warnings, rx.Safety, rx.Diagnoses = []string{}, []Finding{}, []appointment.Diagnosis{}
		if rx.Prescriber != nil {
			rx.Warnings = warnings(*rx.Prescriber, rx.HasSignature, day.Format(time.DateOnly))
		}
		out[i] = rx
	}
	return out, nil
}

func (s *Store) get(ctx context.Context, q database.Querier, id int64) (Prescription, error) {
	r, err := s.scan(q.QueryRowContext(ctx, `SELECT `+columns+` WHERE rx.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Prescription{}, apperr.NotFound("prescription.not_found")
	}
	if err != nil {
		return Prescription{}, fmt.Errorf("read prescription: %w", err)
	}
	out, err := s.complete(ctx, q, []row{r})
	if err != nil {
		return Prescription{}, err
	}
	return out[0], nil
}

// Get reads one prescription. An unprinted one shows viewerID as the prescriber it would
// have, with the warnings that viewer would print with.
func (s *Store) Get(ctx context.Context, id, viewerID int64, lang string) (Prescription, error) {
	rx, err := s.get(ctx, s.DB, id)
	if err == nil {
		err = s.diagnoses(ctx, &rx, lang)
	}
	if err != nil {
		return rx, err
	}
	return rx, s.preview(ctx, &rx, viewerID, lang)
}

// diagnoses fills in a visit's prescription's diagnoses, as its print carries them.
func (s *Store) diagnoses(ctx context.Context, rx *Prescription, lang string) error {
	if rx.AppointmentID == nil {
		return nil
	}
	d, err := appointment.Diagnoses(ctx, s.DB, *rx.AppointmentID, lang)
	rx.Diagnoses = d
	return err
}

// preview fills in, for an unprinted prescription, the prescriber it would have and the
// safety findings it would be issued with (in lang).
func (s *Store) preview(ctx context.Context, rx *Prescription, viewerID int64, lang string) error {
	if !Editable(rx.Status) {
		return nil
	}
	var err error
	if rx.Safety, err = s.findings(ctx, s.DB, patientOf(*rx), rx.ID, rx.Items, allergiesOf(*rx), lang); err != nil {
		return err
	}
	pr, err := profile.Get(ctx, s.DB, viewerID)
	if err != nil {
		return err
	}
	rx.Prescriber = &Prescriber{ID: pr.ID, Name: pr.Name, Specialisations: pr.Specialisations, Licences: pr.Licences}
	rx.HasSignature, rx.SignatureURL = pr.HasSignature, pr.SignatureURL
	rx.Warnings = warnings(*rx.Prescriber, pr.HasSignature, s.today())
	return nil
}

func (s *Store) list(ctx context.Context, where string, args ...any) ([]Prescription, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT `+columns+` WHERE `+where+` ORDER BY rx.id DESC LIMIT 100`, args...)
	if err != nil {
		return nil, fmt.Errorf("list prescriptions: %w", err)
	}
	var read []row
	for rows.Next() {
		rx, err := s.scan(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		read = append(read, rx)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return s.complete(ctx, s.DB, read)
}

// ForAppointment lists a visit's prescriptions, newest first.
func (s *Store) ForAppointment(ctx context.Context, id int64) ([]Prescription, error) {
	if _, err := appointment.BasicsOf(ctx, s.DB, id); err != nil {
		return nil, err
	}
	return s.list(ctx, `rx.appointment_id = $1`, id)
}

// ForPatient lists a patient's prescriptions (of visits and of the blank form), newest
// first, the latest 100.
func (s *Store) ForPatient(ctx context.Context, id int64) ([]Prescription, error) {
	if _, err := patient.ArchivedAt(ctx, s.DB, id); err != nil {
		return nil, err
	}
	return s.list(ctx, `rx.patient_id = $1`, id)
}

// Blank lists the latest 100 prescriptions written on the blank form.
func (s *Store) Blank(ctx context.Context) ([]Prescription, error) {
	return s.list(ctx, `rx.kind = $1`, KindBlank)
}

// Previous returns the latest prescription of the appointment's patient from an earlier
// visit that was not cancelled ("copy last prescription").
func (s *Store) Previous(ctx context.Context, appointmentID int64) (Prescription, error) {
	visit, err := appointment.BasicsOf(ctx, s.DB, appointmentID)
	if err != nil {
		return Prescription{}, err
	}
	earlier, err := appointment.EarlierOf(ctx, s.DB, visit.PatientID, visit.StartsAt)
	if err != nil || len(earlier) == 0 {
		return Prescription{}, cmp.Or[error](err, apperr.NotFound("prescription.none_before"))
	}
	marks, visits := database.InList(earlier, 5)
	list, err := s.list(ctx, `rx.patient_id = $1 AND rx.status <> $2 AND rx.kind = $3 AND rx.appointment_id <> $4
		AND rx.appointment_id IN (`+marks+`)`, append([]any{visit.PatientID, Cancelled, KindVisit, appointmentID}, visits...)...)
	if err != nil {
		return Prescription{}, err
	}
	if len(list) == 0 {
		return Prescription{}, apperr.NotFound("prescription.none_before")
	}
	return list[0], nil
}

// Page lists prescriptions for programs (the FHIR API), in id order from after (below it
// when desc): of patientID when it is not 0, among ids when there are any; up to limit.
func (s *Store) Page(ctx context.Context, ids []int64, patientID, after int64, desc bool, limit int) ([]Prescription, error) {
	where, tail, args := database.KeysetPage(s.DB, "rx.id", ids, "rx.patient_id", patientID, after, desc, limit)
	return s.pageWhere(ctx, where+tail, args)
}

// OfPatients lists the prescriptions of any of patientIDs, in id order after `after`, up to
// limit (the FHIR API's reverse includes).
func (s *Store) OfPatients(ctx context.Context, patientIDs []int64, after int64, limit int) ([]Prescription, error) {
	where, tail, args := database.KeysetAmong(s.DB, "rx.id", "rx.patient_id", patientIDs, after, limit)
	return s.pageWhere(ctx, where+tail, args)
}

// pageWhere reads the prescriptions a keyset condition selects, completed.
func (s *Store) pageWhere(ctx context.Context, cond string, args []any) ([]Prescription, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT `+columns+` WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("page prescriptions: %w", err)
	}
	var read []row
	for rows.Next() {
		rx, err := s.scan(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		read = append(read, rx)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return s.complete(ctx, s.DB, read)
}
