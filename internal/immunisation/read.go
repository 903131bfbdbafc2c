package immunisation

import (
	"context"
	"slices"
	"strconv"

	"emr/internal/audit"
)

// The reads of a patient's record, each audited with the patient: the record with its
// forecast as immunisation.list, a safety check as immunisation.check.

// View is a patient's record as the chart reads it: the records (entered in error among
// them, marked), the reactions, and the forecast by the clinic's schedules as of today.
type View struct {
	Records   []Record   `json:"records"`
	Reactions []Reaction `json:"reactions"`
	Forecast  Forecast   `json:"forecast"`
	Schedules []string   `json:"schedules"`
	AsOf      string     `json:"as_of"`
	// BirthDate: the patient's, which the give dialog reads for the site's default.
	BirthDate string `json:"birth_date"`
}

func (s *Store) auditRead(ctx context.Context, e audit.Event, action string, patientID int64) error {
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = action, "patient", strconv.FormatInt(patientID, 10), patientID, audit.Success
	return audit.Access(ctx, s.DB, e)
}

// ForPatient reads patientID's record and forecast as of the clinic's today, audited as e's.
func (s *Store) ForPatient(ctx context.Context, e audit.Event, patientID int64, lang string) (View, error) {
	c, err := readChild(ctx, s.DB, patientID)
	if err != nil {
		return View{}, err
	}
	v := View{AsOf: s.today(), BirthDate: c.BirthDate}
	if v.Records, err = s.records(ctx, s.DB, `patient_id = $1`, lang, patientID); err != nil {
		return v, err
	}
	if v.Reactions, err = s.reactions(ctx, s.DB, `r.patient_id = $1`, patientID); err != nil {
		return v, err
	}
	settings, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return v, err
	}
	v.Schedules = settings.Schedules
	doses, excl := forecastInput(s.catalogue(), entriesOf(v.Records), harmsOf(v.Reactions))
	v.Forecast = s.catalogue().Forecast(settings.Schedules, c.Child, doses, excl, v.AsOf)
	if v.Forecast.Evaluations == nil {
		v.Forecast.Evaluations = []Evaluation{}
	}
	if v.Forecast.Recommendations == nil {
		v.Forecast.Recommendations = []Recommendation{}
	}
	return v, s.auditRead(ctx, e, "immunisation.list", patientID)
}

// Check checks a dose about to be given to patientID (in, as a "given" record would be
// checked on saving), audited as e's read of the patient's record.
func (s *Store) Check(ctx context.Context, e audit.Event, patientID int64, in RecordInput, lang string) ([]Finding, error) {
	c, err := readChild(ctx, s.DB, patientID)
	if err != nil {
		return nil, err
	}
	in.Kind, in.checking = KindGiven, true // the lot and its expiry may not be written yet: the check does not ask for them
	if err := s.clean(&in, c, s.today()); err != nil {
		return nil, err
	}
	findings, err := s.findings(ctx, s.DB, c, in, lang)
	if err != nil {
		return nil, err
	}
	return findings, s.auditRead(ctx, e, "immunisation.check", patientID)
}

// CatalogueView is the catalogue as the screens read it, with the contract's lists and the
// clinic's choices.
type CatalogueView struct {
	Vaccines  []Vaccine   `json:"vaccines"`
	Antigens  []Antigen   `json:"antigens"`
	Schedules []Schedule  `json:"schedules"`
	Sites     []string    `json:"sites"`
	Routes    []string    `json:"routes"`
	Reactions []string    `json:"reactions"`
	Clinic    ClinicPicks `json:"clinic"`
}

// ClinicPicks are the clinic's schedules and stocked vaccines.
type ClinicPicks struct {
	Schedules []string `json:"schedules"`
	Stocked   []string `json:"stocked"`
}

// Catalogue reads the catalogue named in lang.
func (s *Store) Catalogue(ctx context.Context, lang string) (CatalogueView, error) {
	cat := s.catalogue()
	settings, err := ReadSettings(ctx, s.DB)
	out := CatalogueView{Vaccines: slices.Clone(cat.Vaccines(lang)), Antigens: cat.Antigens(lang), Schedules: cat.Schedules(lang), Sites: Sites, Routes: Routes,
		Reactions: Reactions, Clinic: ClinicPicks{Schedules: settings.Schedules, Stocked: settings.Stocked}}
	if out.Vaccines == nil {
		out.Vaccines = []Vaccine{}
	}
	for i := range out.Vaccines {
		v := &out.Vaccines[i]
		if v.Antigens == nil {
			v.Antigens = []string{}
		}
		if v.Components == nil {
			v.Components = []string{}
		}
	}
	if out.Antigens == nil {
		out.Antigens = []Antigen{}
	}
	if out.Schedules == nil {
		out.Schedules = []Schedule{}
	}
	return out, err
}
