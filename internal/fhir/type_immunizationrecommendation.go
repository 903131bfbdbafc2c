package fhir

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/patient"
)

// typeImmunizationRecommendation describes ImmunizationRecommendation: a patient's forecast
// (issue 59), worked out from their record against the clinic's schedules when it is read,
// never stored — one per patient whose forecast says anything, its id the patient's. It
// keeps no versions (it changes with the calendar as much as with the record): read and
// search, no vread or history; meta.lastUpdated is when it was worked out.
var typeImmunizationRecommendation = resourceType{
	kind:    "ImmunizationRecommendation",
	reads:   []ReadRule{{"ImmunizationRecommendation", "", immunisationReaders, "GET /api/patients/{id}/immunisations"}},
	params:  map[string]paramKind{"patient": kindReference},
	filters: map[string]tokenParam{},
	plan:    recommendationPlan,
	action:  "immunizationrecommendation",
	read:    func(h *Handler) http.HandlerFunc { return h.readRecommendation },
}

// Code systems of a recommendation's status and dates.
const (
	systemRecommendationStatus = "http://terminology.hl7.org/CodeSystem/immunization-recommendation-status"
	// systemForecastStatus is the clinic's own code of a forecast's status HL7's codes do not
	// name (aged_out, refused), or narrows (upcoming and deferred, beside HL7's due).
	systemForecastStatus = "urn:emr:immunisation-forecast-status"
)

// forecastStatuses are the forecast's statuses as HL7's immunization-recommendation-status
// codes them; the others are the clinic's own codes.
var forecastStatuses = map[string]Coding{
	"due":             {System: systemRecommendationStatus, Code: "due", Display: "Due"},
	"overdue":         {System: systemRecommendationStatus, Code: "overdue", Display: "Overdue"},
	"complete":        {System: systemRecommendationStatus, Code: "complete", Display: "Complete"},
	"contraindicated": {System: systemRecommendationStatus, Code: "contraindicated", Display: "Contraindicated"},
}

// forecastStatusText is each status in words.
var forecastStatusText = map[string]string{"upcoming": "Not yet due", "due": "Due", "overdue": "Overdue", "complete": "Complete",
	"aged_out": "Past the age for it", "refused": "Refused", "contraindicated": "Contraindicated", "deferred": "Deferred (due from the day to come back)"}

// dateCriteria are the forecast's dates as LOINC codes them (R4's
// immunization-recommendation-date-criterion value set).
var dateCriteria = []struct {
	code, display string
	of            func(immunisation.Recommendation) string
}{
	{"30981-5", "Earliest date to give", func(r immunisation.Recommendation) string { return r.EarliestOn }},
	{"30980-7", "Date vaccine due", func(r immunisation.Recommendation) string { return r.DueOn }},
	{"59778-1", "Date when overdue for immunization", func(r immunisation.Recommendation) string { return r.OverdueOn }},
	{"59777-3", "Latest date to give immunization", func(r immunisation.Recommendation) string { return r.LatestOn }},
}

// recommendationsOf are the forecasts of patients (those that exist) as
// ImmunizationRecommendations, named in lang: the clinic's schedules read once, the patients'
// records together (immunisation.PatientForecasts). A patient whose forecast says nothing,
// or who is past the end of every schedule (an adult: programmes.tsv, forecast_until), has
// none.
func (h *Handler) recommendationsOf(ctx context.Context, patients []int64, lang string) (map[int64]ImmunizationRecommendation, error) {
	out := map[int64]ImmunizationRecommendation{}
	if len(patients) == 0 {
		return out, nil
	}
	set, err := immunisation.ReadSettings(ctx, h.DB)
	if err != nil {
		return nil, err
	}
	all, err := immunisation.PatientForecasts(ctx, h.DB, immunisation.Default(), set.Schedules, patients, h.Visits.Today())
	if err != nil {
		return nil, err
	}
	at := time.Now()
	for id, pf := range all {
		if pf.Over || len(pf.Forecast.Recommendations) == 0 {
			continue
		}
		out[id] = toRecommendation(id, pf.Forecast, lang, at)
	}
	return out, nil
}

// recommendationOf is patient id's recommendation; false when there is none.
func (h *Handler) recommendationOf(ctx context.Context, id int64, lang string) (ImmunizationRecommendation, bool, error) {
	all, err := h.recommendationsOf(ctx, []int64{id}, lang)
	res, ok := all[id]
	return res, ok, err
}

// dated are the forecast statuses whose recommendation carries dates: a dose still to give (a
// deferred one from the day to come back).
// A complete, aged-out, refused or contraindicated one says its status alone — no day to give
// a dose that is not to be given (the forecast keeps a refused or contraindicated dose's days
// for the chart, which shows when it would have been due).
var dated = map[string]bool{immunisation.StatusUpcoming: true, immunisation.StatusDue: true, immunisation.StatusOverdue: true,
	immunisation.StatusDeferred: true}

// toRecommendation is a forecast as an ImmunizationRecommendation: each antigen's next dose
// (or why there is none) with its dates, and the doses of the record that counted for it.
func toRecommendation(patientID int64, f immunisation.Forecast, lang string, at time.Time) ImmunizationRecommendation {
	res := ImmunizationRecommendation{
		base:    base{ResourceType: "ImmunizationRecommendation", ID: strconv.FormatInt(patientID, 10), Meta: &Meta{LastUpdated: instant(at)}},
		Patient: ref("Patient", patientID), Date: f.AsOf,
	}
	for _, r := range f.Recommendations {
		disease := antigenConcept(r.Antigen, lang)
		status := CodeableConcept{Text: textOr(forecastStatusText[r.Status], r.Status)}
		if c, ok := forecastStatuses[r.Status]; ok {
			status.Coding = []Coding{c}
		} else if r.Status == immunisation.StatusDeferred || r.Status == immunisation.StatusUpcoming {
			// forecastStatus is a modifier: a dose still to come, or deferred, is HL7's "due" ("is
			// due (or will be due) …: details on when … in proposed dates"), its dates say from
			// when; the clinic's own code beside it says which.
			status.Coding = []Coding{forecastStatuses[immunisation.StatusDue], {System: systemForecastStatus, Code: r.Status}}
		} else {
			status.Coding = []Coding{{System: systemForecastStatus, Code: r.Status}}
		}
		rec := ImmunizationRecommendationItem{TargetDisease: &disease, ForecastStatus: &status, Series: r.Schedule,
			DoseNumberPositiveInt: r.DoseNumber, SeriesDosesPositiveInt: r.Doses}
		for _, v := range r.Vaccines {
			rec.VaccineCode = append(rec.VaccineCode, *vaccineConcept(v, lang))
		}
		for _, d := range dateCriteria {
			if on := d.of(r); on != "" && dated[r.Status] {
				rec.DateCriterion = append(rec.DateCriterion, DateCriterion{Code: concept(systemLOINC, d.code, d.display), Value: on})
			}
		}
		for _, e := range f.Evaluations {
			if e.Antigen == r.Antigen && e.Valid && e.DoseID != 0 {
				rec.SupportingImmunization = append(rec.SupportingImmunization, Reference{Reference: "Immunization/" + strconv.FormatInt(e.DoseID, 10)})
			}
		}
		res.Recommendation = append(res.Recommendation, rec)
	}
	return res
}

// forecastEnded reports whether patient id's recommendation was there and is no more: past
// every schedule of the clinic's now, a child inside one once (immunisation.ForecastGone).
func (h *Handler) forecastEnded(ctx context.Context, id int64) (bool, error) {
	set, err := immunisation.ReadSettings(ctx, h.DB)
	if err != nil {
		return false, err
	}
	return immunisation.ForecastGone(ctx, h.DB, immunisation.Default(), set.Schedules, id, h.Visits.Today(), h.Visits.Location())
}

// readRecommendation answers one patient's recommendation, audited as a read of the patient.
func (h *Handler) readRecommendation(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	n, ok := wholeID(id)
	if !ok {
		WriteError(w, r, notFound("ImmunizationRecommendation", id))
		return
	}
	res, found, err := h.recommendationOf(r.Context(), n, i18n.FromRequest(r))
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if !found {
		// A child's recommendation stops being when a birthday takes them past every schedule:
		// gone (410) to a reader who may read it, not "never was".
		e := notFound("ImmunizationRecommendation", id)
		ended, err := h.forecastEnded(r.Context(), n)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if ended {
			stub := ImmunizationRecommendation{base: base{ResourceType: "ImmunizationRecommendation", ID: id}, Patient: ref("Patient", n)}
			if e = readRefusal(auth.PrincipalFrom(r.Context()), stub, auth.ActRead, e); e == nil {
				e = goneError("ImmunizationRecommendation", id)
			}
		}
		WriteError(w, r, e)
		return
	}
	if e := readRefusal(auth.PrincipalFrom(r.Context()), res, auth.ActRead, notFound("ImmunizationRecommendation", id)); e != nil {
		WriteError(w, r, e)
		return
	}
	if err := h.audited(r, "fhir.immunizationrecommendation.read", "patient", id, n, "ImmunizationRecommendation/"+id); err != nil {
		WriteError(w, r, err)
		return
	}
	respond(w, http.StatusOK, res)
}

// recommendationPlan reads an ImmunizationRecommendation search: the patients (the one named,
// those of _id), a page's forecasts worked out together.
func recommendationPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := q.reference("patient", "Patient")
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.ids()
	lang := i18n.FromRequest(r)
	src := h.patientKeyed(pid, ids, idGiven, coded, false, func(ctx context.Context, list []patient.Patient) ([]group, error) {
		return h.recommendationGroups(ctx, list, lang)
	})
	return searchPlan{src: src, entity: "patient", patient: max(pid, 0)}, nil
}

// recommendationGroups are the patients' recommendations, a group each (empty for a patient
// who has none, so that the walk moves on).
func (h *Handler) recommendationGroups(ctx context.Context, list []patient.Patient, lang string) ([]group, error) {
	ids := make([]int64, len(list))
	for i, p := range list {
		ids[i] = p.ID
	}
	recs, err := h.recommendationsOf(ctx, ids, lang)
	if err != nil {
		return nil, err
	}
	out := make([]group, 0, len(list))
	for _, p := range list {
		g := group{ID: p.ID}
		if res, ok := recs[p.ID]; ok {
			g.Resources = []Resource{res}
		}
		out = append(out, g)
	}
	return out, nil
}

// recommendationsEach hands fn the recommendation of patientID (every patient's when 0, a
// batch at a time, calling step after each batch).
func (h *Handler) recommendationsEach(ctx context.Context, patientID int64, lang string, fn func(Resource) error, step func() error) error {
	if patientID != 0 {
		res, found, err := h.recommendationOf(ctx, patientID, lang)
		if err != nil || !found {
			return err
		}
		return fn(res)
	}
	f := patient.Filter{Limit: exportBatch, WithoutHistory: true}
	for {
		list, _, err := h.Patients.Page(ctx, f)
		if err != nil {
			return err
		}
		groups, err := h.recommendationGroups(ctx, list, lang)
		if err != nil {
			return err
		}
		for _, g := range groups {
			for _, res := range g.Resources {
				if err := fn(res); err != nil {
					return err
				}
			}
		}
		if err := step(); err != nil {
			return err
		}
		if len(list) < exportBatch {
			return nil
		}
		f.After = list[len(list)-1].ID
	}
}

// ImmunizationRecommendation is a patient's forecast.
type ImmunizationRecommendation struct {
	base
	Patient        *Reference                       `json:"patient"`
	Date           string                           `json:"date"`
	Recommendation []ImmunizationRecommendationItem `json:"recommendation"`
}

// ImmunizationRecommendationItem is one antigen's next dose, or why there is none.
type ImmunizationRecommendationItem struct {
	VaccineCode            []CodeableConcept `json:"vaccineCode,omitempty"`
	TargetDisease          *CodeableConcept  `json:"targetDisease,omitempty"`
	ForecastStatus         *CodeableConcept  `json:"forecastStatus"`
	DateCriterion          []DateCriterion   `json:"dateCriterion,omitempty"`
	Series                 string            `json:"series,omitempty"`
	DoseNumberPositiveInt  int               `json:"doseNumberPositiveInt,omitempty"`
	SeriesDosesPositiveInt int               `json:"seriesDosesPositiveInt,omitempty"`
	SupportingImmunization []Reference       `json:"supportingImmunization,omitempty"`
}

// DateCriterion is one of a recommendation's dates.
type DateCriterion struct {
	Code  *CodeableConcept `json:"code"`
	Value string           `json:"value"`
}
