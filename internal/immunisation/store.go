package immunisation

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/user"
)

// The record (ADR 49): every dose given here or reported from elsewhere, every refusal and
// contraindication, and the reactions after a dose; each write in one transaction with its
// audit event, never deleted (marked entered in error with a reason), and followed by the
// child's due list (RefreshDue). Every read of a patient's record is audited.

// Kinds of record, statuses, sources.
const (
	KindGiven           = "given"
	KindElsewhere       = "elsewhere"
	KindRefused         = "refused"
	KindContraindicated = "contraindicated"
	// KindDeferred: not given today for a passing reason the screening found (a fever, an acute
	// illness): to come back on until_on (QĐ 1575/QĐ-BYT's "tạm hoãn tiêm chủng").
	KindDeferred    = "deferred"
	StatusCompleted = "completed"
	StatusInError   = "entered_in_error"
)

// The contract's lists: where a dose goes, which reactions are recorded (the routes are the
// catalogue's Routes).
var (
	Sites     = []string{"left_thigh", "right_thigh", "left_arm", "right_arm", "oral", "intranasal", "left_buttock", "right_buttock"}
	Reactions = []string{"fever", "local", "rash", "persistent_crying", "seizure", "hhe", "anaphylaxis", "other"}
	Sources   = []string{"card", "registry", "parent"}
	// Outcomes of a reaction: the WHO AEFI reporting form's.
	Outcomes = []string{"recovered", "recovering", "not_recovered", "recovered_with_sequelae", "died", "unknown"}
	kinds    = []string{KindGiven, KindElsewhere, KindRefused, KindContraindicated, KindDeferred}
	severity = []string{"mild", "moderate", "severe"}
)

const (
	maxText     = 200  // lot, performer, place, reported_to
	maxLongText = 2000 // reason, note, description
	maxDose     = 10
	// maxDeferralDays: the latest return day of a deferral after its day. A fever or an acute
	// illness passes within weeks (QĐ 1575/QĐ-BYT: "tạm hoãn" until it has); a longer wait is a
	// contraindication with an end day.
	maxDeferralDays = 90
)

// vaccines is what the record reads of the catalogue (Catalogue; a test's own in tests).
type vaccines interface {
	Vaccine(key, lang string) (Vaccine, bool)
	Vaccines(lang string) []Vaccine
	Antigens(lang string) []Antigen
	Schedules(lang string) []Schedule
	Forecast(schedules []string, child Child, doses []Dose, excl []Exclusion, asOf string) Forecast
	Evaluate(schedules []string, child Child, doses []Dose, candidate Dose) []Evaluation
	FitsAge(vaccine, birth, day string) bool
}

// shipped is the catalogue the record reads.
var shipped vaccines = Default()

// Store keeps the immunisation record.
type Store struct {
	DB  *database.DB
	Loc *time.Location // the clinic's time zone: its days
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Medicines reads the medicines a patient takes now with their codes (the prescription
	// package's, wired by the server; nil: none known).
	Medicines func(ctx context.Context, q database.Querier, patientID int64, now time.Time) ([]CurrentMedicine, error)
	// AddAllergy lists an allergy on the patient inside the caller's transaction (the patient
	// store's AddAllergyIn, wired by the server; nil: none is listed): the vaccine an
	// anaphylaxis followed, when the reaction's recorder says so.
	AddAllergy func(ctx context.Context, tx *sql.Tx, e audit.Event, patientID int64, a patient.Allergy, same func(patient.Allergy) bool) (bool, error)

	rebuilding atomic.Bool    // a due rebuild runs (rebuildSoon)
	rebuilds   sync.WaitGroup // the running one
}

func (s *Store) catalogue() vaccines { return shipped }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// today is the clinic's calendar day.
func (s *Store) today() string {
	loc := s.Loc
	if loc == nil {
		loc = time.Local
	}
	return s.now().In(loc).Format(time.DateOnly)
}

// Record is one record of the immunisation record, as the API answers it.
type Record struct {
	ID             int64    `json:"id"`
	PatientID      int64    `json:"patient_id"`
	Kind           string   `json:"kind"`
	Status         string   `json:"status"`
	Vaccine        string   `json:"vaccine"`
	VaccineName    string   `json:"vaccine_name"`
	Antigens       []string `json:"antigens"`
	Antigen        string   `json:"antigen"`
	AntigenName    string   `json:"antigen_name"`
	OccurredOn     string   `json:"occurred_on"`
	DoseNumber     *int     `json:"dose_number"`
	Lot            string   `json:"lot"`
	Expiry         string   `json:"expiry"`
	Site           string   `json:"site"`
	Route          string   `json:"route"`
	GivenBy        *int64   `json:"given_by"`
	GivenByName    string   `json:"given_by_name"`
	Performer      string   `json:"performer"`
	Source         string   `json:"source"`
	Place          string   `json:"place"`
	Reason         string   `json:"reason"`
	UntilOn        string   `json:"until_on"`
	AppointmentID  *int64   `json:"appointment_id"`
	OverrideReason string   `json:"override_reason"`
	Overridden     []string `json:"overridden"`
	Note           string   `json:"note"`
	// Screening: what was asked before a dose given here ({} all null for any other record).
	Screening     Screening `json:"screening"`
	ErrorReason   string    `json:"error_reason"`
	CreatedAt     string    `json:"created_at"`
	CreatedByName string    `json:"created_by_name"`
	Version       int       `json:"version"`
	createdBy     *int64
}

// Reaction is an adverse event following immunisation, against its dose.
type Reaction struct {
	ID             int64  `json:"id"`
	ImmunisationID int64  `json:"immunisation_id"`
	PatientID      int64  `json:"patient_id"`
	OnsetOn        string `json:"onset_on"`
	Reaction       string `json:"reaction"`
	Severity       string `json:"severity"`
	Serious        bool   `json:"serious"`
	Description    string `json:"description"`
	ReportedTo     string `json:"reported_to"`
	// OnsetTime: the hour it began (HH:MM, "" not known); Outcome: the WHO AEFI reporting
	// form's (recovered, recovering, not_recovered, recovered_with_sequelae, died, unknown; ""
	// not said); ReportedOn: the day it was reported to the health authority ("" not yet).
	OnsetTime  string `json:"onset_time"`
	Outcome    string `json:"outcome"`
	ReportedOn string `json:"reported_on"`
	// AllergyAdded: recording it listed its vaccine among the patient's allergies (the answer
	// to the recording only).
	AllergyAdded  bool   `json:"allergy_added,omitempty"`
	Status        string `json:"status"`
	ErrorReason   string `json:"error_reason"`
	CreatedAt     string `json:"created_at"`
	CreatedByName string `json:"created_by_name"`
	Version       int    `json:"version"`
	createdBy     *int64
}

// Screening is the checklist asked before a dose (Viet Nam's QĐ 1575/QĐ-BYT 2023, ACIP
// General Best Practice Guidelines, Contraindications and Precautions): each question true,
// false (answered no) or nil (not asked); stored with the dose as JSON. The findings each
// answer gives are safety.go's (screeningFindings).
type Screening struct {
	Pregnant         *bool `json:"pregnant"`
	Immunosuppressed *bool `json:"immunosuppressed"`
	// Fever: 38.0 °C or more, or 35.5 °C or less.
	Fever *bool `json:"fever"`
	// TemperatureC: the temperature measured, °C (30.0–44.0); nil: not measured.
	TemperatureC *float64 `json:"temperature_c"`
	// AcuteIllness: a moderate or severe acute illness, or a chronic one getting worse.
	AcuteIllness          *bool `json:"acute_illness"`
	AbnormalHeartLung     *bool `json:"abnormal_heart_lung"`
	AbnormalConsciousness *bool `json:"abnormal_consciousness"`
	// PreviousSevereReaction: anaphylaxis or a grade III+ reaction after an earlier dose of a
	// vaccine with the same antigens.
	PreviousSevereReaction *bool `json:"previous_severe_reaction"`
	// Intussusception: a history of it, or an uncorrected gut malformation predisposing to it.
	Intussusception *bool `json:"intussusception"`
	// BloodProductsRecent: immunoglobulin or blood products in the last 3–11 months.
	BloodProductsRecent *bool `json:"blood_products_recent"`
	// ImmunosuppressantStoppedRecent: chemotherapy, radiotherapy, high-dose corticosteroids or
	// biologics ended in the last 1–6 months.
	ImmunosuppressantStoppedRecent *bool `json:"immunosuppressant_stopped_recent"`
	// WeightUnder2000g: the baby weighs under 2,000 g.
	WeightUnder2000g *bool `json:"weight_under_2000g"`
	// TuberculinNegative: a tuberculin skin test (Mantoux) negative in the last 2 weeks.
	TuberculinNegative *bool `json:"tuberculin_negative"`
}

// yes reports whether a question was answered yes.
func yes(b *bool) bool { return b != nil && *b }

// Temperatures a screening may write (°C), and a low one that defers vaccination (Viet Nam's
// checklist: 35.5 °C or less; a fever is from the programme's fever_from, FeverFrom).
const (
	minTemperature, maxTemperature = 30.0, 44.0
	hypothermiaTo                  = 35.5
)

// RecordInput is what recording a dose, a refusal or a contraindication sends.
type RecordInput struct {
	Kind           string    `json:"kind"`
	Vaccine        string    `json:"vaccine"`
	Antigen        string    `json:"antigen"`
	OccurredOn     string    `json:"occurred_on"`
	DoseNumber     *int      `json:"dose_number"`
	Lot            string    `json:"lot"`
	Expiry         string    `json:"expiry"`
	Site           string    `json:"site"`
	Route          string    `json:"route"`
	Performer      string    `json:"performer"`
	Source         string    `json:"source"`
	Place          string    `json:"place"`
	Reason         string    `json:"reason"`
	UntilOn        string    `json:"until_on"`
	AppointmentID  *int64    `json:"appointment_id"`
	Note           string    `json:"note"`
	Screening      Screening `json:"screening"`
	OverrideReason string    `json:"override_reason"`
	// ByDoctor says the writer may decide past a stop (writes diagnoses): set by the handler
	// from the request's permissions, never read from the body.
	ByDoctor bool `json:"-"`
	// checking: read by the check before saving, where the lot and its expiry may not be
	// written yet.
	checking bool
}

// MinOverrideReason is the fewest letters a reason for giving a dose despite a finding has
// ("ok" or "." is no reason).
const MinOverrideReason = 10

// ReactionInput is what recording a reaction sends.
type ReactionInput struct {
	OnsetOn     string `json:"onset_on"`
	Reaction    string `json:"reaction"`
	Severity    string `json:"severity"`
	Serious     bool   `json:"serious"`
	Description string `json:"description"`
	ReportedTo  string `json:"reported_to"`
	OnsetTime   string `json:"onset_time"`
	Outcome     string `json:"outcome"`
	ReportedOn  string `json:"reported_on"`
	// AddAllergy: an anaphylaxis's vaccine is listed among the patient's allergies too.
	AddAllergy bool `json:"add_allergy"`
}

// NeedsOverride refuses a dose given here with safety findings and no reason to give it anyway.
type NeedsOverride struct{ Findings []Finding }

func (e *NeedsOverride) Error() string { return "immunisation.needs_override" }

// child is what the record reads of the patient.
type child struct {
	Child
	id int64
}

func readChild(ctx context.Context, q database.Querier, patientID int64) (child, error) {
	c := child{id: patientID}
	found, err := patient.Records(ctx, q, []int64{patientID})
	if err != nil {
		return c, err
	}
	p, ok := found[patientID]
	if !ok {
		return c, apperr.NotFound("patient.not_found")
	}
	c.BirthDate, c.Sex = p.BirthDate, p.Sex
	return c, nil
}

func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// addDays is day d plus n days (d as YYYY-MM-DD; d itself when it is not a day).
func addDays(d string, n int) string {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

func oneLine(s string) bool { return !strings.ContainsAny(s, "\r\n\t") && !httpjson.HasBidiControl(s) }

// clean trims in and checks what it can without the database.
func (s *Store) clean(in *RecordInput, c child, today string) error {
	var v apperr.Validation
	for _, p := range []*string{&in.Kind, &in.Vaccine, &in.Antigen, &in.OccurredOn, &in.Lot, &in.Expiry, &in.Site, &in.Route, &in.Performer,
		&in.Source, &in.Place, &in.UntilOn} {
		*p = strings.TrimSpace(*p)
	}
	in.Reason, in.Note, in.OverrideReason = strings.TrimSpace(in.Reason), strings.TrimSpace(in.Note), strings.TrimSpace(in.OverrideReason)
	cat := s.catalogue()
	if !slices.Contains(kinds, in.Kind) {
		v.Add("kind", "validation.invalid_choice")
		return v.Err()
	}
	switch {
	case in.OccurredOn == "":
		v.Add("occurred_on", "validation.required")
	case !validDate(in.OccurredOn):
		v.Add("occurred_on", "validation.date_format")
	case in.OccurredOn > today:
		v.Add("occurred_on", "validation.date_future")
	case in.OccurredOn < c.BirthDate:
		v.Add("occurred_on", "immunisation.before_birth")
	}
	dose := in.Kind == KindGiven || in.Kind == KindElsewhere
	if dose {
		if in.Vaccine == "" {
			v.Add("vaccine", "validation.required")
		} else if _, ok := cat.Vaccine(in.Vaccine, "en"); !ok {
			v.Add("vaccine", "immunisation.unknown_vaccine")
		}
		if in.DoseNumber != nil && (*in.DoseNumber < 1 || *in.DoseNumber > maxDose) {
			v.Add("dose_number", "immunisation.bad_dose_number")
		}
		if in.Expiry != "" && !validDate(in.Expiry) {
			v.Add("expiry", "validation.date_format")
		}
		if in.Site != "" && !slices.Contains(Sites, in.Site) {
			v.Add("site", "validation.invalid_choice")
		}
		if in.Route != "" && !slices.Contains(Routes, in.Route) {
			v.Add("route", "validation.invalid_choice")
		}
		in.Antigen, in.UntilOn = "", ""
	} else {
		// A deferral of neither a vaccine nor an antigen defers every vaccine (the child is unwell).
		if in.Antigen == "" && in.Kind != KindDeferred {
			v.Add("antigen", "validation.required")
		} else if in.Antigen != "" && !slices.ContainsFunc(cat.Antigens("en"), func(a Antigen) bool { return a.Key == in.Antigen }) {
			v.Add("antigen", "immunisation.unknown_antigen")
		}
		if in.Reason == "" {
			v.Add("reason", "validation.reason_required")
		}
		if in.Vaccine != "" {
			if vac, ok := cat.Vaccine(in.Vaccine, "en"); !ok {
				v.Add("vaccine", "immunisation.unknown_vaccine")
			} else if in.Antigen != "" && !slices.Contains(vac.Antigens, in.Antigen) {
				v.Add("antigen", "immunisation.antigen_not_in_vaccine")
			}
		}
		switch {
		case in.UntilOn == "" && in.Kind == KindDeferred:
			v.Add("until_on", "immunisation.return_day_required")
		case in.UntilOn != "" && !validDate(in.UntilOn):
			v.Add("until_on", "validation.date_format")
		case in.Kind == KindDeferred && in.UntilOn <= in.OccurredOn:
			v.Add("until_on", "immunisation.return_day_after")
		case in.UntilOn != "" && in.UntilOn < in.OccurredOn:
			v.Add("until_on", "immunisation.until_before")
		case in.Kind == KindDeferred && in.UntilOn > addDays(in.OccurredOn, maxDeferralDays):
			// A reason that lasts longer is a contraindication with an end day, a doctor's to write.
			v.Add("until_on", "immunisation.deferral_too_long")
		}
		in.DoseNumber, in.Lot, in.Expiry, in.Site, in.Route = nil, "", "", "", ""
	}
	switch in.Kind {
	case KindGiven:
		if in.Lot == "" && !in.checking {
			v.Add("lot", "immunisation.lot_required")
		}
		// A dose given here says its lot's expiry (the expired-lot check reads it; the WHO and
		// Viet Nam's Thông tư 34/2018/TT-BYT record it with the lot).
		if in.Expiry == "" && !in.checking {
			v.Add("expiry", "immunisation.expiry_required")
		}
		// The route, when not said, is the product's (vaccines.tsv, its prescribing information).
		if in.Route == "" {
			if vac, ok := cat.Vaccine(in.Vaccine, "en"); ok {
				in.Route = vac.Route
			}
		}
		if t := in.Screening.TemperatureC; t != nil && (*t < minTemperature || *t > maxTemperature) {
			v.Add("screening.temperature_c", "immunisation.bad_temperature")
		}
		// The screening QĐ 1575/QĐ-BYT asks before every dose: its core questions answered yes or
		// no, never left unasked (a dose saved unscreened could not show it was screened: the
		// nurse's re-read). A fever is answered by the temperature measured too.
		// The check runs as the form is filled, before every question is answered.
		for _, q := range CoreScreening {
			if !in.checking && !in.Screening.asked(q) && !(q == "fever" && in.Screening.TemperatureC != nil) {
				v.Add("screening."+q, "immunisation.screening_required")
			}
		}
		in.Source, in.Place, in.Performer = "", "", ""
	case KindDeferred:
		if t := in.Screening.TemperatureC; t != nil && (*t < minTemperature || *t > maxTemperature) {
			v.Add("screening.temperature_c", "immunisation.bad_temperature")
		}
		// What contraindicates the vaccine named is not deferred (QĐ 1575/QĐ-BYT keeps "chống chỉ
		// định" apart from "tạm hoãn"): a doctor records it as a contraindication. A deferral of
		// every vaccine (the child unwell) is taken whatever else the screening found.
		if vac, ok := cat.Vaccine(in.Vaccine, "en"); ok {
			for _, q := range contraindicatingAnswers(in.Screening, vac, c.BirthDate, in.OccurredOn) {
				v.Add("screening."+q, "immunisation.deferral_is_contraindication")
			}
		}
		in.Source, in.Place, in.Performer = "", "", ""
	case KindElsewhere:
		if !slices.Contains(Sources, in.Source) {
			v.Add("source", "immunisation.source_required")
		}
	default:
		in.Source, in.Place, in.Performer = "", "", ""
	}
	switch in.Kind {
	case KindGiven, KindDeferred: // the screening is asked before a dose given here (a deferral keeps what it found)
	case KindElsewhere:
		// A dose given elsewhere keeps one answer: the baby weighed under 2,000 g (a hepatitis B
		// birth dose given at the hospital then does not count: the forecast reads it).
		in.Screening = Screening{WeightUnder2000g: in.Screening.WeightUnder2000g}
	default:
		in.Screening = Screening{}
	}
	for field, text := range map[string]string{"lot": in.Lot, "performer": in.Performer, "place": in.Place} {
		if utf8.RuneCountInString(text) > maxText {
			v.Add(field, "validation.too_long")
		} else if !oneLine(text) {
			v.Add(field, "validation.one_line")
		}
	}
	for field, text := range map[string]string{"reason": in.Reason, "note": in.Note, "override_reason": in.OverrideReason} {
		if utf8.RuneCountInString(text) > maxLongText {
			v.Add(field, "validation.too_long")
		} else if httpjson.HasBidiControl(text) {
			v.Add(field, "validation.bidi_control")
		}
	}
	return v.Err()
}

// Create records a dose, a refusal or a contraindication for patientID as e's: a dose given
// here is checked for safety first (Check) — an expired lot refused outright, any other
// finding refused unless an override reason is given, then saved with the findings'
// codes and the reason, both audited.
func (s *Store) Create(ctx context.Context, e audit.Event, patientID int64, in RecordInput, lang string) (Record, error) {
	var id int64
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		c, err := readChild(ctx, tx, patientID)
		if err != nil {
			return err
		}
		if err := patient.CheckActive(ctx, tx, s.DB.Engine, patientID); err != nil { // an archived record is read-only
			return err
		}
		if err := s.clean(&in, c, s.today()); err != nil {
			return err
		}
		if in.AppointmentID != nil {
			visit, err := appointment.BasicsOf(ctx, tx, *in.AppointmentID)
			if errors.Is(err, apperr.ErrNotFound) || err == nil && visit.PatientID != patientID {
				var v apperr.Validation
				v.Add("appointment_id", "immunisation.other_appointment")
				return v.Err()
			}
			if err != nil {
				return err
			}
		}
		// A deferral that adds nothing (the same vaccine or antigen, or every vaccine, already
		// deferred to that day or later: a second click) is refused; a later day extends it.
		if in.Kind == KindDeferred {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisations WHERE patient_id = $1 AND kind = $2 AND status = $3
				AND (vaccine = $4 AND antigen = $5 OR vaccine = '' AND antigen = '') AND occurred_on <= $6 AND until_on >= $7`, patientID, KindDeferred, StatusCompleted,
				in.Vaccine, in.Antigen, in.OccurredOn, in.UntilOn).Scan(&n); err != nil {
				return fmt.Errorf("read the deferrals: %w", err)
			}
			if n > 0 {
				var v apperr.Validation
				v.Add("until_on", "immunisation.deferral_exists")
				return v.Err()
			}
		}
		// A temperature measured answers the fever question when it was not answered (the
		// clinic's first programme's threshold): the stored screening says what was found.
		if t := in.Screening.TemperatureC; t != nil && in.Screening.Fever == nil && (in.Kind == KindGiven || in.Kind == KindDeferred) {
			set, err := ReadDueSettings(ctx, tx)
			if err != nil {
				return err
			}
			first := ""
			if len(set.Schedules) > 0 {
				first = set.Schedules[0]
			}
			fever, _ := Screening{TemperatureC: t}.answer("fever", FeverFrom(s.catalogue(), first))
			in.Screening.Fever = &fever
		}
		var overridden []string
		var givenBy *int64
		if in.Kind == KindGiven {
			givenBy = &e.ActorID
			findings, err := s.findings(ctx, tx, c, in, lang)
			if err != nil {
				return err
			}
			if slices.ContainsFunc(findings, func(f Finding) bool { return f.Code == FindExpiredLot }) {
				var v apperr.Validation
				v.Add("expiry", "immunisation.expired_lot")
				return v.Err()
			}
			// A note (info) is read, not overridden.
			findings = slices.DeleteFunc(findings, func(f Finding) bool { return f.Severity == SeverityInfo })
			if len(findings) > 0 && in.OverrideReason == "" {
				return &NeedsOverride{Findings: findings}
			}
			if len(findings) > 0 {
				// A stop is a doctor's to pass (a nurse's reason does not lift a contraindication,
				// QĐ 1575/QĐ-BYT: the screening's conclusion is the doctor's), and a reason says why.
				var v apperr.Validation
				switch {
				case !in.ByDoctor && slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity == SeverityStop }):
					v.Add("override_reason", "immunisation.stop_needs_doctor")
				case utf8.RuneCountInString(in.OverrideReason) < MinOverrideReason:
					v.Add("override_reason", "immunisation.override_too_short")
				}
				if err := v.Err(); err != nil {
					return err
				}
			}
			for _, f := range findings {
				if !slices.Contains(overridden, f.Code) {
					overridden = append(overridden, f.Code)
				}
			}
		}
		if len(overridden) == 0 {
			in.OverrideReason = ""
		}
		now := s.now().UTC()
		screening, err := json.Marshal(in.Screening)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO immunisations (patient_id, kind, vaccine, antigen, occurred_on, dose_number, lot, expiry,
			site, route, given_by, performer, source, place, reason, until_on, appointment_id, override_reason, overridden, note, screening,
			created_at, created_by, updated_at, updated_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $22, $23) RETURNING id`,
			patientID, in.Kind, in.Vaccine, in.Antigen, in.OccurredOn, in.DoseNumber, in.Lot, in.Expiry, in.Site, in.Route, givenBy,
			in.Performer, in.Source, in.Place, in.Reason, in.UntilOn, in.AppointmentID, in.OverrideReason, strings.Join(overridden, ","), in.Note,
			string(screening), now, e.Actor()).Scan(&id)
		if err != nil {
			return fmt.Errorf("insert immunisation: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "immunisation.create", "immunisation", strconv.FormatInt(id, 10), patientID, audit.Success
		e.Detail = in.Kind + " " + cmp.Or(in.Vaccine, in.Antigen)
		switch in.Kind {
		case KindGiven: // the screening's answers, audited with the dose
			e.Detail += "; screening " + string(screening)
		case KindDeferred:
			e.Detail += "; until " + in.UntilOn + "; reason: " + in.Reason + "; screening " + string(screening)
		case KindRefused, KindContraindicated:
			e.Detail += "; from " + in.OccurredOn + cmp.Or(" until "+in.UntilOn, "") + "; reason: " + in.Reason
		}
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		if len(overridden) > 0 { // given despite the findings: their codes and the reason, as an event of its own
			e.Action, e.Detail = "immunisation.override", in.Vaccine+": "+strings.Join(overridden, ", ")+"; reason: "+in.OverrideReason
			if err := audit.Record(ctx, tx, e); err != nil {
				return err
			}
		}
		if err := keepVersion(ctx, tx, id); err != nil {
			return err
		}
		return RefreshDue(ctx, tx, patientID)
	})
	if err != nil {
		return Record{}, err
	}
	return s.get(ctx, s.DB, id, lang)
}

// EnteredInError marks a record entered in error with a reason, if version is still its
// own (else a conflict); the record stays, marked, and the child's due list follows.
func (s *Store) EnteredInError(ctx context.Context, e audit.Event, id int64, reason string, version int, lang string) (Record, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Record{}, err
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		r, err := s.get(ctx, tx, id, lang)
		if err != nil {
			return err
		}
		if r.Status != StatusCompleted || r.Version != version {
			return apperr.Conflict("error.conflict")
		}
		if err := patient.CheckActive(ctx, tx, s.DB.Engine, r.PatientID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE immunisations SET status = $1, error_reason = $2, updated_at = $3, updated_by = $4, version = version + 1
			WHERE id = $5 AND version = $6 AND status = $7`, StatusInError, reason, s.now().UTC(), e.Actor(), id, version, StatusCompleted)
		if err != nil {
			return fmt.Errorf("mark immunisation in error: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("error.conflict")
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "immunisation.entered_in_error", "immunisation", strconv.FormatInt(id, 10), r.PatientID, audit.Success
		e.Detail = "reason: " + reason
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		if err := keepVersion(ctx, tx, id); err != nil {
			return err
		}
		return RefreshDue(ctx, tx, r.PatientID)
	})
	if err != nil {
		return Record{}, err
	}
	return s.get(ctx, s.DB, id, lang)
}

// AddReaction records an adverse event following the dose id: a dose (given or reported),
// not entered in error, on or after whose day the reaction began.
func (s *Store) AddReaction(ctx context.Context, e audit.Event, id int64, in ReactionInput, lang string) (Reaction, error) {
	var rid int64
	added := false
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		r, err := s.get(ctx, tx, id, lang)
		if err != nil {
			return err
		}
		if r.Status != StatusCompleted || (r.Kind != KindGiven && r.Kind != KindElsewhere) {
			return apperr.Invalid("immunisation.reaction_not_dose")
		}
		if err := patient.CheckActive(ctx, tx, s.DB.Engine, r.PatientID); err != nil {
			return err
		}
		var v apperr.Validation
		in.OnsetOn, in.Reaction, in.Severity = strings.TrimSpace(in.OnsetOn), strings.TrimSpace(in.Reaction), strings.TrimSpace(in.Severity)
		in.Description, in.ReportedTo = strings.TrimSpace(in.Description), strings.TrimSpace(in.ReportedTo)
		in.OnsetTime, in.Outcome, in.ReportedOn = strings.TrimSpace(in.OnsetTime), strings.TrimSpace(in.Outcome), strings.TrimSpace(in.ReportedOn)
		if _, err := time.Parse("15:04", in.OnsetTime); in.OnsetTime != "" && (err != nil || len(in.OnsetTime) != 5) {
			v.Add("onset_time", "validation.time_format")
		}
		s.checkReport(&v, in.OnsetOn, in.Outcome, in.ReportedOn, in.ReportedTo)
		switch {
		case in.OnsetOn == "":
			v.Add("onset_on", "validation.required")
		case !validDate(in.OnsetOn):
			v.Add("onset_on", "validation.date_format")
		case in.OnsetOn > s.today():
			v.Add("onset_on", "validation.date_future")
		case in.OnsetOn < r.OccurredOn:
			v.Add("onset_on", "immunisation.onset_before_dose")
		}
		if !slices.Contains(Reactions, in.Reaction) {
			v.Add("reaction", "validation.invalid_choice")
		}
		if !slices.Contains(severity, in.Severity) {
			v.Add("severity", "validation.invalid_choice")
		}
		if in.Reaction == "other" && in.Description == "" {
			v.Add("description", "validation.required")
		}
		if in.AddAllergy && in.Reaction != "anaphylaxis" {
			v.Add("add_allergy", "immunisation.allergy_anaphylaxis_only")
		}
		if utf8.RuneCountInString(in.Description) > maxLongText {
			v.Add("description", "validation.too_long")
		}
		if err := v.Err(); err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO immunisation_reactions (immunisation_id, patient_id, onset_on, reaction, severity, serious,
			description, reported_to, onset_time, outcome, reported_on, created_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
			id, r.PatientID, in.OnsetOn, in.Reaction, in.Severity, in.Serious, in.Description, in.ReportedTo, in.OnsetTime, in.Outcome, in.ReportedOn,
			s.now().UTC(), e.Actor()).Scan(&rid)
		if err != nil {
			return fmt.Errorf("insert reaction: %w", err)
		}
		// The dose's record changes with its reaction (FHIR shows it in Immunization.reaction):
		// a new version, so that a reader syncing by version or _lastUpdated sees it.
		if _, err := tx.ExecContext(ctx, `UPDATE immunisations SET version = version + 1, updated_at = $1, updated_by = $2 WHERE id = $3`,
			s.now().UTC(), e.Actor(), id); err != nil {
			return fmt.Errorf("version the dose: %w", err)
		}
		if in.AddAllergy && s.AddAllergy != nil {
			// The product as the reader names it (the component to blame is not known), unless an
			// allergy listed names it in any language (the check reads every language's name).
			added, err = s.AddAllergy(ctx, tx, e, r.PatientID, patient.Allergy{Substance: cmp.Or(r.VaccineName, r.Vaccine), Severity: "severe",
				Reaction: i18n.T(lang, "immunisation.allergy_reaction", shownDay(lang, in.OnsetOn))},
				func(a patient.Allergy) bool { return namesVaccine(s.catalogue(), a.Substance, r.Vaccine) })
			if err != nil {
				return err
			}
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "immunisation.reaction", "immunisation", strconv.FormatInt(id, 10), r.PatientID, audit.Success
		e.Detail = "reaction " + strconv.FormatInt(rid, 10) + " " + in.Reaction
		if added {
			e.Detail += "; listed among the allergies: " + cmp.Or(r.VaccineName, r.Vaccine)
		}
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		if err := keepVersion(ctx, tx, id); err != nil {
			return err
		}
		return RefreshDue(ctx, tx, r.PatientID)
	})
	if err != nil {
		return Reaction{}, err
	}
	list, err := s.reactions(ctx, s.DB, `r.id = $1`, rid)
	if err != nil {
		return Reaction{}, err
	}
	if len(list) == 0 {
		return Reaction{}, apperr.NotFound("immunisation.not_found")
	}
	list[0].AllergyAdded = added
	return list[0], nil
}

// VersionKind names the kept versions of immunisation records (database.KeepVersion): each
// a Recorded, as the FHIR API reads it, kept in the transaction of every change that moves
// the record's version (its creation, a reaction, entered in error), so that Immunization's
// vread and _history give each version as it was.
const VersionKind = "immunisation"

// keepVersion keeps record id as it is now in tx, at its version.
func keepVersion(ctx context.Context, tx *sql.Tx, id int64) error {
	r, found, err := RecordByID(ctx, tx, id)
	if err != nil || !found {
		return err
	}
	return database.KeepVersion(ctx, tx, VersionKind, id, r.Version, r.UpdatedAt, r)
}

// Kept reads the kept versions of immunisation records q selects.
func Kept(ctx context.Context, db database.Querier, q database.KeptQuery) ([]database.Kept[Recorded], error) {
	return database.ReadKept[Recorded](ctx, db, VersionKind, q)
}

// ReactionEnteredInError marks the reaction id entered in error with a reason, if version is
// still its own (else a conflict): it stays, marked, no longer read by the check or the
// forecast; its dose takes a new version (FHIR's Immunization.reaction changes with it) and the
// child's due list follows (an anaphylaxis contraindicates the antigens after it).
func (s *Store) ReactionEnteredInError(ctx context.Context, e audit.Event, id int64, reason string, version int) (Reaction, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Reaction{}, err
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		x, err := s.reactionToChange(ctx, tx, id, version)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE immunisation_reactions SET status = $1, error_reason = $2, version = version + 1
			WHERE id = $3 AND version = $4 AND status = $5`, StatusInError, reason, id, version, StatusCompleted)
		if err != nil {
			return fmt.Errorf("mark reaction in error: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("error.conflict")
		}
		if err := s.reactionWritten(ctx, tx, e, x, "immunisation.reaction_entered_in_error", "reaction "+strconv.FormatInt(id, 10)+"; reason: "+reason); err != nil {
			return err
		}
		return RefreshDue(ctx, tx, x.PatientID)
	})
	if err != nil {
		return Reaction{}, err
	}
	return s.reactionByID(ctx, id)
}

const recordColumns = `id, patient_id, kind, status, vaccine, antigen, occurred_on, dose_number, lot, expiry, site, route, given_by, performer,
	source, place, reason, until_on, appointment_id, override_reason, overridden, note, screening, error_reason, created_at, created_by, version`

// records reads the records where the condition holds (placeholders only), oldest first,
// named in lang.
func (s *Store) records(ctx context.Context, q database.Querier, where string, lang string, args ...any) ([]Record, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+recordColumns+` FROM immunisations WHERE `+where+` ORDER BY occurred_on, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read immunisations: %w", err)
	}
	out := []Record{}
	for rows.Next() {
		var r Record
		var dose sql.NullInt64
		var givenBy, appt, createdBy sql.NullInt64
		var overridden, screening string
		var at time.Time
		if err := rows.Scan(&r.ID, &r.PatientID, &r.Kind, &r.Status, &r.Vaccine, &r.Antigen, &r.OccurredOn, &dose, &r.Lot, &r.Expiry, &r.Site,
			&r.Route, &givenBy, &r.Performer, &r.Source, &r.Place, &r.Reason, &r.UntilOn, &appt, &r.OverrideReason, &overridden, &r.Note,
			&screening, &r.ErrorReason, &at, &createdBy, &r.Version); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read immunisation: %w", err)
		}
		if dose.Valid {
			n := int(dose.Int64)
			r.DoseNumber = &n
		}
		if givenBy.Valid {
			r.GivenBy = &givenBy.Int64
		}
		if appt.Valid {
			r.AppointmentID = &appt.Int64
		}
		if createdBy.Valid {
			r.createdBy = &createdBy.Int64
		}
		r.Overridden = []string{}
		if overridden != "" {
			r.Overridden = strings.Split(overridden, ",")
		}
		if screening != "" && screening != "{}" {
			if err := json.Unmarshal([]byte(screening), &r.Screening); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read immunisation %d's screening: %w", r.ID, err)
			}
		}
		r.CreatedAt = at.UTC().Format(time.RFC3339)
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.name(ctx, q, out, lang)
}

// name fills in the names of the records' vaccines, antigens and people.
func (s *Store) name(ctx context.Context, q database.Querier, list []Record, lang string) error {
	cat := s.catalogue()
	antigens := map[string]string{}
	for _, a := range cat.Antigens(lang) {
		antigens[a.Key] = a.Name
	}
	var ids []int64
	for i := range list {
		r := &list[i]
		r.Antigens = []string{}
		if v, ok := cat.Vaccine(r.Vaccine, lang); ok {
			r.VaccineName, r.Antigens = v.Name, append(r.Antigens, v.Antigens...)
		} else {
			r.VaccineName = r.Vaccine
		}
		r.AntigenName = antigens[r.Antigen]
		if r.AntigenName == "" {
			r.AntigenName = r.Antigen
		}
		for _, id := range []*int64{r.GivenBy, r.createdBy} {
			if id != nil {
				ids = append(ids, *id)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	names, err := user.Names(ctx, q, ids)
	if err != nil {
		return err
	}
	for i := range list {
		r := &list[i]
		if r.GivenBy != nil {
			r.GivenByName = names[*r.GivenBy]
		}
		if r.createdBy != nil {
			r.CreatedByName = names[*r.createdBy]
		}
	}
	return nil
}

func (s *Store) get(ctx context.Context, q database.Querier, id int64, lang string) (Record, error) {
	list, err := s.records(ctx, q, `id = $1`, lang, id)
	if err != nil {
		return Record{}, err
	}
	if len(list) == 0 {
		return Record{}, apperr.NotFound("immunisation.not_found")
	}
	return list[0], nil
}

// reactions reads the reactions where the condition holds, in the order recorded.
func (s *Store) reactions(ctx context.Context, q database.Querier, where string, args ...any) ([]Reaction, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.id, r.immunisation_id, r.patient_id, r.onset_on, r.reaction, r.severity, r.serious, r.description,
		r.reported_to, r.onset_time, r.outcome, r.reported_on, r.status, r.error_reason, r.created_at, r.created_by, r.version FROM immunisation_reactions r WHERE `+where+` ORDER BY r.onset_on, r.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read reactions: %w", err)
	}
	out := []Reaction{}
	var ids []int64
	for rows.Next() {
		var r Reaction
		var at time.Time
		var by sql.NullInt64
		if err := rows.Scan(&r.ID, &r.ImmunisationID, &r.PatientID, &r.OnsetOn, &r.Reaction, &r.Severity, &r.Serious, &r.Description,
			&r.ReportedTo, &r.OnsetTime, &r.Outcome, &r.ReportedOn, &r.Status, &r.ErrorReason, &at, &by, &r.Version); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read reaction: %w", err)
		}
		r.CreatedAt = at.UTC().Format(time.RFC3339)
		if by.Valid {
			r.createdBy = &by.Int64
			ids = append(ids, by.Int64)
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return out, err
	}
	names, err := user.Names(ctx, q, ids)
	for i := range out {
		if out[i].createdBy != nil {
			out[i].CreatedByName = names[*out[i].createdBy]
		}
	}
	return out, err
}
