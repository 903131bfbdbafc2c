package growth

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// Source names the tables the scores come from, as the API and the print say.
const Source = "WHO Child Growth Standards (2006), 0-5 years; WHO Growth Reference 2007, 5-19 years"

// Chart is a child's growth as the API answers it.
type Chart struct {
	Sex            string  `json:"sex"`
	BirthDate      string  `json:"birth_date"`
	GestationWeeks *int    `json:"gestation_weeks"`
	AsOf           string  `json:"as_of"`
	AgeDays        int     `json:"age_days"`
	Corrected      bool    `json:"corrected"`
	Points         []Point `json:"points"`
	Flags          []Flag  `json:"flags"`
	// Curves are the SD lines by indicator for the child's ages; none past 19 years or for a
	// sex the tables are not given for.
	Curves map[string]Curve `json:"curves"`
	Source string           `json:"source"`
	// Unscored says why there are no scores: "sex" (other or unknown: the WHO tables are by
	// sex), "age" (19 years or older); "" when scored. Message is it in the reader's language.
	Unscored string `json:"unscored"`
	Message  string `json:"message"`
}

// Handler serves a patient's growth.
type Handler struct {
	DB       *database.DB
	Patients *patient.Store
	// Now is the clock (time.Now when nil); Loc the clinic's time zone (UTC when nil).
	Now func() time.Time
	Loc *time.Location
}

// Routes is the growth API's route table. Reading it needs to read the patient, and to
// record vitals or write diagnoses (checked inside: a route declares one list of any-of).
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/patients/{id}/growth", Access: auth.NeedAny(auth.RecordVitals, auth.WriteDiagnosis), Handler: h.growth},
	}
}

func (h *Handler) today() string {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	loc := h.Loc
	if loc == nil {
		loc = time.UTC
	}
	return now().In(loc).Format(time.DateOnly)
}

func (h *Handler) growth(w http.ResponseWriter, r *http.Request) {
	if !auth.PrincipalFrom(r.Context()).Can(auth.ViewPatient) {
		httpjson.Error(w, r, apperr.Forbidden("auth.forbidden"))
		return
	}
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	chart, err := Read(r.Context(), h.DB, h.Patients, id, h.today())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if chart.Unscored != "" {
		chart.Message = i18n.T(i18n.FromRequest(r), "growth.unscored_"+chart.Unscored)
	}
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "growth.read", "patient", strconv.FormatInt(id, 10), audit.Success, id
	if err := audit.Access(r.Context(), h.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, chart)
}

// Read is a patient's growth as of today (YYYY-MM-DD): every measurement of weight,
// length/height or head circumference taken at a completed or signed visit, oldest first,
// scored; vitals copied forward from an earlier visit are that visit's and are not read
// twice.
func Read(ctx context.Context, q database.Querier, patients *patient.Store, patientID int64, today string) (Chart, error) {
	p, err := patients.Get(ctx, patientID)
	if err != nil {
		return Chart{}, err
	}
	c := Child{Sex: p.Sex, BirthDate: p.BirthDate, GestationWeeks: p.GestationWeeks}
	list, err := Measurements(ctx, q, patientID)
	if err != nil {
		return Chart{}, err
	}
	points, flags, err := Compute(c, list)
	if err != nil {
		return Chart{}, err
	}
	out := Chart{Sex: c.Sex, BirthDate: c.BirthDate, GestationWeeks: c.GestationWeeks, AsOf: today, Points: points, Flags: flags,
		Curves: map[string]Curve{}, Source: Source}
	age, correctedNow, err := c.Ages(today)
	if err != nil {
		return Chart{}, err
	}
	out.AgeDays = age
	for _, p := range points {
		out.Corrected = out.Corrected || p.CorrectedAgeDays != nil
	}
	out.Corrected = out.Corrected || correctedNow != nil
	switch {
	case !c.Scorable():
		out.Unscored = "sex"
	case float64(age)/DaysPerMonth > MaxAgeMonths:
		out.Unscored = "age"
	default:
		out.Curves = curvesFor(c, points, age, correctedNow)
	}
	return out, nil
}

// curvesFor are the SD lines over the ages of the child's points and today's age: from birth
// for a child under 5, else from six months before the first point; to six months past the
// last (corrected ages where they apply); weight-for-length/height over the lengths measured,
// five centimetres either side.
func curvesFor(c Child, points []Point, age int, correctedNow *int) map[string]Curve {
	now := age
	if correctedNow != nil {
		now = *correctedNow
	}
	lo, hi := now, now
	cmLo, cmHi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		a := p.AgeDays
		if p.CorrectedAgeDays != nil {
			a = *p.CorrectedAgeDays
		}
		lo, hi = min(lo, a), max(hi, a)
		if p.Height != nil {
			cmLo, cmHi = math.Min(cmLo, *p.Height), math.Max(cmHi, *p.Height)
		}
	}
	if float64(hi)/DaysPerMonth <= 60 {
		lo = 0
	} else {
		lo = max(0, lo-183)
	}
	hi += 183
	if math.IsInf(cmLo, 1) { // no length yet: the WHO table's span
		cmLo, cmHi = 45, 120
	}
	return Curves(c, max(lo, 0), hi, cmLo-5, cmHi+5)
}

// Measurements are a patient's measurements of weight, length/height and head circumference
// at completed or signed visits, oldest first (vitals copied forward are the earlier visit's),
// leaving out visits that measured none of the three.
func Measurements(ctx context.Context, q database.Querier, patientID int64) ([]Measurement, error) {
	visits, err := appointment.MeasuredVitals(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	out := []Measurement{}
	for _, m := range visits {
		v := m.Vitals
		if v.Weight == nil && v.Height == nil && v.HeadCirc == nil {
			continue
		}
		out = append(out, Measurement{On: m.On, Weight: v.Weight, Height: v.Height, Head: v.HeadCirc})
	}
	return out, nil
}
