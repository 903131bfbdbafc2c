package prescription

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	"emr/internal/user"
)

// The medicines a patient takes that were not prescribed here (issue 55, M4): prescribed by
// another clinic or doctor, or bought over the counter. The nurse or the doctor records them;
// the safety check counts each one not stopped as a current medicine, exactly as it counts
// the supply of prescriptions issued here, and prints list them beside those.

// Where a current medicine comes from.
const (
	SourceHere      = "here"      // a prescription issued here, derived from its supply (read-only)
	SourceElsewhere = "elsewhere" // prescribed by another clinic or doctor
	SourceOTC       = "otc"       // bought over the counter
)

// TakenSources are the sources a recorded medicine may have.
var TakenSources = []string{SourceElsewhere, SourceOTC}

// Taken is one of a patient's current medicines: recorded (from elsewhere or over the
// counter), or a line of a prescription issued here.
type Taken struct {
	// ID is the recorded entry's; 0 for a prescription's line.
	ID         int64  `json:"id"`
	PatientID  int64  `json:"patient_id"`
	MedicineID *int64 `json:"medicine_id"`
	Medicine   string `json:"medicine"`
	Dose       string `json:"dose"`
	Frequency  string `json:"frequency"`
	Source     string `json:"source"`
	Prescriber string `json:"prescriber"`
	// StartedOn is a date, a month (2024-03) or a year (2024); empty when not known.
	StartedOn  string    `json:"started_on"`
	RecordedAt time.Time `json:"recorded_at"`
	RecordedBy string    `json:"recorded_by"`
	// UpdatedAt is when the recorded entry last changed (its version moved); none for a
	// prescription's line.
	UpdatedAt time.Time `json:"updated_at,omitzero"`
	// ATC is the catalogue entry's WHO ATC code, when it has one.
	ATC string `json:"atc,omitempty"`
	// ATCName is the catalogue entry's generic name, the code's display in FHIR.
	ATCName   string     `json:"-"`
	Confirmed *time.Time `json:"confirmed_at"`
	// ConfirmedBy and ConfirmedVisit: who last heard the patient still takes it, at which visit.
	ConfirmedBy    string `json:"confirmed_by,omitempty"`
	ConfirmedVisit *int64 `json:"confirmed_appointment_id"`
	StoppedOn      string `json:"stopped_on"`
	StopReason     string `json:"stop_reason"`
	StoppedBy      string `json:"stopped_by,omitempty"`
	// StopCategory is why, in a word (StopCategories); empty on a stop recorded before.
	StopCategory string `json:"stop_category"`
	// StoppedVisit is the visit it was stopped at, when stopped at one.
	StoppedVisit *int64 `json:"stopped_appointment_id"`
	Reconciliation
	// ErrorReason, ErrorAt and ErrorBy: the entry was entered in error (wrong patient, wrong
	// medicine), why, when and by whom. It is then no medicine of the patient's at all.
	ErrorReason string     `json:"error_reason"`
	ErrorAt     *time.Time `json:"error_at"`
	ErrorBy     string     `json:"error_by,omitempty"`
	// NeedsReview: recorded or corrected by someone who may not prescribe, and no doctor has
	// reviewed it since; ReviewedAt and ReviewedBy: the last prescriber to review it.
	NeedsReview    bool       `json:"needs_review"`
	ReviewedAt     *time.Time `json:"reviewed_at"`
	ReviewedBy     string     `json:"reviewed_by,omitempty"`
	PrescriptionID *int64     `json:"prescription_id,omitempty"`
	// Line is the prescription's line (0-based) a medicine prescribed here is.
	Line        *int      `json:"line,omitempty"`
	SupplyUntil string    `json:"supply_until,omitempty"`
	Version     int       `json:"version"`
	Findings    []Finding `json:"findings,omitempty"`
	// ReadAs is what the safety check read the medicine as: an empty list when nothing, null
	// when not asked.
	ReadAs []ReadName `json:"read_as"`
	// override and overrides: a line here's reason given despite its safety findings, and
	// the keys of the findings it covers (a keep of the list's review, ADR 25).
	override  string
	overrides []string
}

// Active reports whether the patient is taking it (neither stopped nor entered in error).
func (t Taken) Active() bool { return t.StoppedOn == "" && t.ErrorReason == "" }

// InError reports whether the entry was entered in error.
func (t Taken) InError() bool { return t.ErrorReason != "" }

// TakenInput is what a nurse or doctor records of a medicine taken.
type TakenInput struct {
	MedicineID *int64 `json:"medicine_id"`
	Medicine   string `json:"medicine"`
	Dose       string `json:"dose"`
	Frequency  string `json:"frequency"`
	Source     string `json:"source"`
	Prescriber string `json:"prescriber"`
	StartedOn  string `json:"started_on"`
	Reconciliation
	Version int `json:"version"`
	// byPrescriber: whoever records or corrects it may prescribe (the handler says), and so
	// has reviewed it.
	byPrescriber bool
}

// StopInput stops a recorded medicine: on a day, in a category, for a reason (free text,
// required for "other"), at a visit when stopped at one.
type StopInput struct {
	StoppedOn     string `json:"stopped_on"`
	Category      string `json:"category"`
	Reason        string `json:"reason"`
	AppointmentID *int64 `json:"appointment_id"`
	Version       int    `json:"version"`
}

// ConfirmInput records that, at a visit, the patient still takes a medicine.
type ConfirmInput struct {
	AppointmentID int64 `json:"appointment_id"`
	Version       int   `json:"version"`
}

// startDay is the first day a start of "2024", "2024-03" or "2024-03-05" may mean; false
// when it is none of these.
func startDay(s string) (time.Time, bool) {
	for _, layout := range []string{time.DateOnly, "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil && len(s) == len(layout) {
			return t, true
		}
	}
	return time.Time{}, false
}

// check cleans the input and refuses what cannot be recorded; today is the clinic's date.
func (in *TakenInput) check(today string) error {
	var v apperr.Validation
	in.Medicine = strings.Join(strings.Fields(in.Medicine), " ")
	in.Dose, in.Frequency = strings.TrimSpace(in.Dose), strings.TrimSpace(in.Frequency)
	in.Prescriber, in.StartedOn = strings.TrimSpace(in.Prescriber), strings.TrimSpace(in.StartedOn)
	in.Reconciliation.check(&v, today)
	if start, ok := startDay(in.StartedOn); ok && in.LastDose != "" {
		// a last dose before the medicine was started is a slip of the year or the month
		if day, ok := lastDoseDay(in.LastDose); ok && day < start.Format(time.DateOnly) {
			v.Add("last_dose", "medication.last_dose_before_start")
		}
	}
	switch {
	case in.Medicine == "":
		v.Add("medicine", "medication.medicine_required")
	case len([]rune(in.Medicine)) > 200:
		v.Add("medicine", "validation.too_long")
	}
	for field, text := range map[string]string{"dose": in.Dose, "frequency": in.Frequency, "prescriber": in.Prescriber} {
		if len([]rune(text)) > 200 {
			v.Add(field, "validation.too_long")
		}
	}
	if !slices.Contains(TakenSources, in.Source) {
		v.Add("source", "validation.invalid_choice")
	}
	if in.Source == SourceOTC {
		in.Prescriber = "" // nobody prescribed it
	}
	if in.StartedOn != "" {
		day, ok := startDay(in.StartedOn)
		switch {
		case !ok:
			v.Add("started_on", "medication.bad_start")
		case day.Format(time.DateOnly) > today:
			v.Add("started_on", "medication.start_in_future")
		}
	}
	return v.Err()
}

// check cleans a stop and refuses a day in the future, before the medicine started or before
// its recorded last dose: a washout runs from the last dose, and a stop day said earlier
// would end it too soon (the pharmacist's review of 2026-11-29, M5).
func (in *StopInput) check(startedOn, lastDose, today string) error {
	var v apperr.Validation
	in.StoppedOn, in.Reason = strings.TrimSpace(in.StoppedOn), strings.TrimSpace(in.Reason)
	if in.StoppedOn == "" {
		in.StoppedOn = today
	}
	day, err := time.Parse(time.DateOnly, in.StoppedOn)
	start, known := startDay(startedOn)
	switch {
	case err != nil:
		v.Add("stopped_on", "validation.date_format")
	case in.StoppedOn > today:
		v.Add("stopped_on", "validation.date_future")
	case known && day.Before(start):
		v.Add("stopped_on", "medication.stop_before_start")
	case lastDose != "" && in.StoppedOn < lastDose[:min(len(lastDose), len(time.DateOnly))]:
		v.Add("stopped_on", "medication.stop_before_last_dose")
	}
	in.Category = strings.TrimSpace(in.Category)
	if !slices.Contains(StopCategories, in.Category) {
		v.Add("category", "medication.stop_category")
	}
	switch {
	case in.Reason == "" && in.Category == StopOther:
		v.Add("reason", "validation.reason_required")
	case len([]rune(in.Reason)) > 500:
		v.Add("reason", "validation.too_long")
	}
	return v.Err()
}

// stopWords is a stop as the audit and a paper's English say it: "side_effect: rash".
func (in StopInput) stopWords() string {
	if in.Reason == "" {
		return in.Category
	}
	return in.Category + ": " + in.Reason
}

const takenColumns = `id, patient_id, medicine_id, medicine, dose, frequency, source, prescriber, started_on, recorded_at,
	COALESCE(recorded_by, 0), confirmed_at, COALESCE(confirmed_by, 0), confirmed_appointment_id, stopped_on, stop_reason,
	COALESCE(stopped_by, 0), version, updated_at, route, indication, last_dose, adherence, info_source, stop_category,
	stopped_appointment_id, error_reason, error_at, COALESCE(error_by, 0), needs_review, reviewed_at, COALESCE(reviewed_by, 0) FROM medicines_taken`

// takenRow is an entry as read, with the accounts still to name.
type takenRow struct {
	Taken
	recordedBy, confirmedBy, stoppedBy, errorBy, reviewedBy int64
}

func scanTaken(r interface{ Scan(...any) error }) (takenRow, error) {
	var t takenRow
	var med, visit, stopVisit sql.NullInt64
	var confirmed, errAt, reviewed sql.NullTime
	err := r.Scan(&t.ID, &t.PatientID, &med, &t.Medicine, &t.Dose, &t.Frequency, &t.Source, &t.Prescriber, &t.StartedOn, &t.RecordedAt,
		&t.recordedBy, &confirmed, &t.confirmedBy, &visit, &t.StoppedOn, &t.StopReason, &t.stoppedBy, &t.Version, &t.UpdatedAt,
		&t.Route, &t.Indication, &t.LastDose, &t.Adherence, &t.InfoSource, &t.StopCategory, &stopVisit, &t.ErrorReason, &errAt, &t.errorBy,
		&t.NeedsReview, &reviewed, &t.reviewedBy)
	if stopVisit.Valid {
		t.StoppedVisit = &stopVisit.Int64
	}
	if errAt.Valid {
		t.ErrorAt = &errAt.Time
	}
	if reviewed.Valid {
		t.ReviewedAt = &reviewed.Time
	}
	if med.Valid {
		t.MedicineID = &med.Int64
	}
	if visit.Valid {
		t.ConfirmedVisit = &visit.Int64
	}
	if confirmed.Valid {
		t.Confirmed = &confirmed.Time
	}
	return t, err
}

// recorded reads a patient's recorded medicines (stopped ones too), newest first, naming who
// recorded, confirmed and stopped them.
func recorded(ctx context.Context, q database.Querier, patientID int64) ([]Taken, error) {
	return readTaken(ctx, q, `WHERE patient_id = $1 ORDER BY id DESC LIMIT 200`, patientID)
}

// readTaken reads the recorded medicines the query's tail (WHERE … ORDER BY … LIMIT) selects.
func readTaken(ctx context.Context, q database.Querier, tail string, args ...any) ([]Taken, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+takenColumns+` `+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("read medicines taken: %w", err)
	}
	var got []takenRow
	for rows.Next() {
		t, err := scanTaken(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("read a medicine taken: %w", err)
		}
		got = append(got, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return named(ctx, q, got)
}

// named fills in the names of the accounts the entries mention, and the ATC codes of their
// catalogue entries.
func named(ctx context.Context, q database.Querier, rows []takenRow) ([]Taken, error) {
	var ids []int64
	for _, t := range rows {
		ids = append(ids, t.recordedBy, t.confirmedBy, t.stoppedBy, t.errorBy, t.reviewedBy)
	}
	names, err := user.Names(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	meds := map[int64]catalogue.Medicine{}
	out := make([]Taken, 0, len(rows))
	for _, t := range rows {
		t.RecordedBy, t.ConfirmedBy, t.StoppedBy = names[t.recordedBy], names[t.confirmedBy], names[t.stoppedBy]
		t.ErrorBy, t.ReviewedBy = names[t.errorBy], names[t.reviewedBy]
		if id := t.MedicineID; id != nil {
			m, ok := meds[*id]
			if !ok {
				var err error
				if m, err = catalogue.GetMedicine(ctx, q, *id); err != nil && !errors.Is(err, apperr.ErrNotFound) {
					return nil, err
				}
				meds[*id] = m
			}
			if t.ATC = m.ATC; m.ATC != "" {
				t.ATCName = m.GenericName
			}
		}
		out = append(out, t.Taken)
	}
	return out, nil
}

// getTaken reads one recorded entry.
func getTaken(ctx context.Context, q database.Querier, id int64) (Taken, error) {
	t, err := scanTaken(q.QueryRowContext(ctx, `SELECT `+takenColumns+` WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Taken{}, apperr.NotFound("medication.not_found")
	}
	if err != nil {
		return Taken{}, fmt.Errorf("read a medicine taken: %w", err)
	}
	list, err := named(ctx, q, []takenRow{t})
	if err != nil {
		return Taken{}, err
	}
	return list[0], nil
}

// TakenList is a patient's current medicines: the recorded ones (stopped ones last) and the
// lines of prescriptions issued here whose supply lasts.
func (s *Store) TakenList(ctx context.Context, e audit.Event, patientID int64) ([]Taken, error) {
	list, err := s.currentList(ctx, patientID)
	if err != nil {
		return nil, err
	}
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "medication.read", "patient", strconv.FormatInt(patientID, 10), patientID, audit.Success
	e.Detail = fmt.Sprintf("patient %d", patientID)
	return list, audit.Access(ctx, s.DB, e)
}

// currentList is a patient's current medicines, as TakenList lists them, unaudited.
func (s *Store) currentList(ctx context.Context, patientID int64) ([]Taken, error) {
	if _, _, err := patient.Allergies(ctx, s.DB, patientID); err != nil {
		return nil, err // no such patient
	}
	list, err := recorded(ctx, s.DB, patientID)
	if err != nil {
		return nil, err
	}
	here, err := prescribedHere(ctx, s.DB, patientID, s.now(), s.Loc)
	if err != nil {
		return nil, err
	}
	active, stopped, inError := []Taken{}, []Taken{}, []Taken{}
	for _, t := range append(here, list...) { // a line here may be stopped too (M3)
		switch {
		case t.InError(): // last, for the entry's history only
			inError = append(inError, t)
		case t.Active():
			active = append(active, t)
		default:
			stopped = append(stopped, t)
		}
	}
	return append(append(active, stopped...), inError...), nil
}

// RecordTaken records a medicine the patient takes; its findings are the allergies it meets
// (recording it is allowed: the patient takes it already, and the warning is for whoever
// prescribes next).
func (s *Store) RecordTaken(ctx context.Context, e audit.Event, patientID int64, in TakenInput, lang string) (Taken, error) {
	if err := in.check(s.today()); err != nil {
		return Taken{}, err
	}
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.checkTaken(ctx, tx, patientID, in); err != nil {
			return err
		}
		now := s.now()
		var id int64
		rev := reviewOf(in.byPrescriber, now, e.Actor())
		if err := tx.QueryRowContext(ctx, `INSERT INTO medicines_taken (patient_id, medicine_id, medicine, dose, frequency, source, prescriber,
			started_on, recorded_at, recorded_by, updated_at, updated_by, route, indication, last_dose, adherence, info_source,
			needs_review, reviewed_at, reviewed_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
			patientID, in.MedicineID, in.Medicine, in.Dose, in.Frequency, in.Source, in.Prescriber, in.StartedOn, now, e.Actor(),
			in.Route, in.Indication, in.LastDose, in.Adherence, in.InfoSource, rev.needs, rev.at, rev.by).Scan(&id); err != nil {
			return fmt.Errorf("record a medicine taken: %w", err)
		}
		var err error
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.record", "")
	})
	if err != nil {
		return t, err
	}
	err = s.takenCheck(ctx, &t, lang)
	return t, err
}

// checkTaken checks that the patient may be written to and the catalogue entry exists.
func (s *Store) checkTaken(ctx context.Context, tx *sql.Tx, patientID int64, in TakenInput) error {
	if err := s.checkPatient(ctx, tx, patientID); err != nil {
		return err
	}
	return checkMedicines(ctx, tx, []Item{{MedicineID: in.MedicineID}})
}

// openTaken reads an entry for a change: not stopped, at version.
func openTaken(ctx context.Context, tx *sql.Tx, id int64, version int) (Taken, error) {
	t, err := getTaken(ctx, tx, id)
	switch {
	case err != nil:
		return t, err
	case t.InError():
		return t, apperr.Conflict("medication.in_error")
	case !t.Active():
		return t, apperr.Conflict("medication.stopped")
	case t.Version != version:
		return t, apperr.Conflict("error.conflict")
	}
	return t, nil
}

// UpdateTaken corrects a recorded medicine that is not stopped, at its version.
func (s *Store) UpdateTaken(ctx context.Context, e audit.Event, id int64, in TakenInput, lang string) (Taken, error) {
	if err := in.check(s.today()); err != nil {
		return Taken{}, err
	}
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := openTaken(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		if err := s.checkTaken(ctx, tx, old.PatientID, in); err != nil {
			return err
		}
		if err := sameMedicine(ctx, tx, s.DB, old, in); err != nil { // M5
			return err
		}
		now := s.now()
		// by someone who may not prescribe, the last review stays on record (COALESCE) and
		// the corrected entry is to be reviewed again
		rev := reviewOf(in.byPrescriber, now, e.Actor())
		if _, err := tx.ExecContext(ctx, `UPDATE medicines_taken SET medicine_id = $1, medicine = $2, dose = $3, frequency = $4, source = $5,
			prescriber = $6, started_on = $7, updated_at = $8, updated_by = $9, version = version + 1, route = $11, indication = $12,
			last_dose = $13, adherence = $14, info_source = $15, needs_review = $16, reviewed_at = COALESCE($17, reviewed_at), reviewed_by = COALESCE($18, reviewed_by) WHERE id = $10`,
			in.MedicineID, in.Medicine, in.Dose, in.Frequency, in.Source, in.Prescriber, in.StartedOn, now, e.Actor(), id,
			in.Route, in.Indication, in.LastDose, in.Adherence, in.InfoSource, rev.needs, rev.at, rev.by); err != nil {
			return fmt.Errorf("update a medicine taken: %w", err)
		}
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.update", changeDetail(old, in))
	})
	if err != nil {
		return t, err
	}
	err = s.takenCheck(ctx, &t, lang)
	return t, err
}

// StopTaken records that the patient no longer takes a medicine: from when, why, and who
// heard it. A stopped entry stays on the record and is no longer a current medicine.
func (s *Store) StopTaken(ctx context.Context, e audit.Event, id int64, in StopInput) (Taken, error) {
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := openTaken(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		if err := in.check(old.StartedOn, old.LastDose, s.today()); err != nil {
			return err
		}
		if err := s.checkPatient(ctx, tx, old.PatientID); err != nil {
			return err
		}
		now := s.now()
		if err := stopVisit(ctx, tx, in.AppointmentID, old.PatientID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE medicines_taken SET stopped_on = $1, stop_reason = $2, stopped_at = $3, stopped_by = $4,
			updated_at = $3, updated_by = $4, version = version + 1, stop_category = $6, stopped_appointment_id = $7 WHERE id = $5`,
			in.StoppedOn, in.Reason, now, e.Actor(), id, in.Category, in.AppointmentID); err != nil {
			return fmt.Errorf("stop a medicine taken: %w", err)
		}
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.stop", "on "+in.StoppedOn+": "+in.stopWords())
	})
	return t, err
}

// ConfirmTaken records that, asked at a visit of the patient's, they still take it.
func (s *Store) ConfirmTaken(ctx context.Context, e audit.Event, id int64, in ConfirmInput) (Taken, error) {
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := openTaken(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		visit, err := appointment.BasicsOf(ctx, tx, in.AppointmentID)
		if errors.Is(err, apperr.ErrNotFound) || (err == nil && visit.PatientID != old.PatientID) {
			return apperr.Invalid("medication.other_visit")
		}
		if err != nil {
			return err
		}
		if err := s.visitToday(visit); err != nil { // m6
			return err
		}
		if err := s.checkPatient(ctx, tx, old.PatientID); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE medicines_taken SET confirmed_at = $1, confirmed_by = $2, confirmed_appointment_id = $3,
			updated_at = $1, updated_by = $2, version = version + 1 WHERE id = $4`, now, e.Actor(), in.AppointmentID, id); err != nil {
			return fmt.Errorf("confirm a medicine taken: %w", err)
		}
		if t, err = keptTaken(ctx, tx, id); err != nil {
			return err
		}
		return auditTaken(ctx, tx, e, t, "medication.confirm", "at visit "+strconv.FormatInt(in.AppointmentID, 10))
	})
	return t, err
}

// TakenVersionKind names the kept versions of recorded medicines (database.KeepVersion): each
// a Taken as read after its change, which the FHIR API's MedicationStatement history reads.
const TakenVersionKind = "medicine_taken"

// keptTaken reads entry id after a change in tx, and keeps it as the version it now has.
func keptTaken(ctx context.Context, tx *sql.Tx, id int64) (Taken, error) {
	t, err := getTaken(ctx, tx, id)
	if err != nil {
		return t, err
	}
	return t, database.KeepVersion(ctx, tx, TakenVersionKind, t.ID, t.Version, t.UpdatedAt, t)
}

// TakenPage lists recorded medicines (stopped ones too) in id order after `after`, or before
// it when desc, up to limit: of one patient when patientID is not 0, among ids when there
// are any (the FHIR API's MedicationStatement).
func (s *Store) TakenPage(ctx context.Context, ids []int64, patientID, after int64, desc bool, limit int) ([]Taken, error) {
	where, tail, args := database.KeysetPage(s.DB, "id", ids, "patient_id", patientID, after, desc, limit)
	return readTaken(ctx, s.DB, `WHERE `+where+tail, args...)
}

func auditTaken(ctx context.Context, tx *sql.Tx, e audit.Event, t Taken, action, detail string) error {
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = action, "medicine_taken", strconv.FormatInt(t.ID, 10), t.PatientID, audit.Success
	e.Detail = strings.TrimSpace(fmt.Sprintf("patient %d %s (%s) %s", t.PatientID, t.Medicine, t.Source, detail))
	return audit.Record(ctx, tx, e)
}

// takenNow reads the patient's recorded medicines as the safety check counts them: each not
// stopped a current medicine from the day it was recorded, and each stopped one for as long
// as its substance still acts after the last dose (fluoxetine five weeks, amiodarone three
// months: the washout, M2), for its interactions.
func (r *reader) takenNow(patientID int64, now time.Time, loc *time.Location) ([]takenDrug, error) {
	today := civil(now, loc)
	// An entry entered in error is no medicine of the patient's: the check never reads it.
	// A stopped one is read back as far as the longest washout (from the table, m10), and by
	// its last dose too: a washout runs from the later of the stop day and the last dose (M5).
	since := today.AddDate(0, 0, -r.drugs.LongestWashout()).Format(time.DateOnly)
	rows, err := r.q.QueryContext(r.ctx, `SELECT id, medicine_id, medicine, source, recorded_at, stopped_on, route, last_dose FROM medicines_taken
		WHERE patient_id = $1 AND error_reason = '' AND (stopped_on = '' OR stopped_on >= $2 OR last_dose >= $2) ORDER BY id DESC LIMIT 200`,
		patientID, since)
	if err != nil {
		return nil, fmt.Errorf("read medicines taken: %w", err)
	}
	type raw struct {
		id       int64
		med      sql.NullInt64
		medicine string
		source   string
		at       time.Time
		stopped  string
		route    string
		lastDose string
	}
	var got []raw
	for rows.Next() {
		var x raw
		if err := rows.Scan(&x.id, &x.med, &x.medicine, &x.source, &x.at, &x.stopped, &x.route, &x.lastDose); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read a medicine taken: %w", err)
		}
		got = append(got, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]takenDrug, 0, len(got))
	for _, x := range got {
		// the recorded route counts: diclofenac 1% put on the skin is no second NSAID tablet (M6)
		it := Item{Medicine: x.medicine, Route: x.route}
		if x.med.Valid {
			it.MedicineID = &x.med.Int64
		}
		l, err := r.line(it)
		if err != nil {
			return nil, err
		}
		t := takenDrug{id: x.id, source: x.source, date: x.at.In(loc).Format(time.DateOnly), lineDrugs: l}
		if x.stopped != "" {
			stopped, err := time.Parse(time.DateOnly, x.stopped)
			if err != nil {
				continue // a stop day is written checked; none other is read
			}
			if day, ok := lastDoseDay(x.lastDose); ok {
				if last, err := time.Parse(time.DateOnly, day); err == nil && last.After(stopped) {
					stopped = last // taken after the day said: the washout runs from the last dose
				}
			}
			if t.activeDays = r.drugs.Washout(l.Profile) - daysBetween(stopped, today); t.activeDays <= 0 {
				continue // gone
			}
			t.stopped = x.stopped
		}
		out = append(out, t)
	}
	return out, nil
}

// takenDrug is a recorded medicine as the safety check reads it.
type takenDrug struct {
	id     int64
	source string
	date   string // when it was recorded
	// stopped is the day it was stopped, when it still acts for activeDays (its washout).
	stopped    string
	activeDays int
	lineDrugs
}
