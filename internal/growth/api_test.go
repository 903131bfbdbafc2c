package growth_test

import (
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/growth"
)

type clinic struct {
	t                      *testing.T
	admin, doctor, nurse   *apitest.Client
	rec                    *apitest.Client
	doctorID               int64
	day, nextDay, thirdDay time.Time
	slot, people           int
}

func newClinic(t *testing.T, db *database.DB) *clinic {
	env := apitest.New(t, db)
	c := &clinic{t: t}
	c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	c.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	c.rec = env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
	c.doctorID = env.UserID("doc")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	c.day, c.nextDay, c.thirdDay = today.AddDate(0, 0, 1), today.AddDate(0, 0, 2), today.AddDate(0, 0, 3)
	return c
}

func (c *clinic) patient(sex string, birth time.Time, extra map[string]any) int64 {
	c.t.Helper()
	c.people++
	names := []string{"An", "Bình", "Chi", "Dũng", "Giang", "Hà", "Khánh", "Lan", "Minh", "Nga"}
	body := map[string]any{"first_name": names[c.people%len(names)], "last_name": "Trần", "birth_date": birth.Format(time.DateOnly), "sex": sex}
	for k, v := range extra {
		body[k] = v
	}
	return apitest.Do[struct{ ID int64 }](c.t, c.rec, http.StatusCreated, "POST", "/api/patients", body).ID
}

// visit books the patient on day, records vitals as the nurse, and completes the visit when
// complete; copiedFrom set saves the vitals as copied forward from that day instead.
func (c *clinic) visit(patientID int64, day time.Time, vitals map[string]any, complete bool, copiedFrom string) int64 {
	c.t.Helper()
	c.slot++
	starts := fmt.Sprintf("%sT%02d:%02d:00Z", day.Format(time.DateOnly), 8+c.slot/4, (c.slot%4)*15)
	a := apitest.Do[struct{ ID int64 }](c.t, c.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": patientID,
		"doctor_id": c.doctorID, "starts_at": starts, "duration_minutes": 15, "type": "new", "reason": "Growth check"})
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	apitest.Do[map[string]any](c.t, c.rec, http.StatusOK, "POST", path+"/arrive", map[string]any{})
	apitest.Do[map[string]any](c.t, c.doctor, http.StatusOK, "POST", path+"/start", map[string]any{})
	if copiedFrom != "" {
		apitest.Do[map[string]any](c.t, c.doctor, http.StatusOK, "PUT", path+"/visit", map[string]any{"version": 0, "vitals": vitals, "vitals_copied_from": copiedFrom})
	} else {
		apitest.Do[map[string]any](c.t, c.nurse, http.StatusOK, "PUT", path+"/visit/vitals", map[string]any{"version": 0, "vitals": vitals})
	}
	if complete {
		apitest.Do[map[string]any](c.t, c.doctor, http.StatusOK, "POST", path+"/complete", map[string]any{})
	}
	return a.ID
}

func (c *clinic) growth(who *apitest.Client, patientID int64) growth.Chart {
	c.t.Helper()
	return apitest.Do[growth.Chart](c.t, who, http.StatusOK, "GET", fmt.Sprintf("/api/patients/%d/growth", patientID), nil)
}

func near(t *testing.T, what string, got *float64, want, tol float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: none, want %v", what, want)
	} else if math.Abs(*got-want) > tol {
		t.Errorf("%s: %v, want %v ± %v", what, *got, want, tol)
	}
}

// TestGrowthThroughTheAPI: the WHO case tables through the real API, on both engines.
func TestGrowthThroughTheAPI(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)

		// A boy of 12 months at 7.7 kg: WHO's −2 SD weight-for-age (7.7 printed, 7.74 exact).
		boy := c.patient("male", c.day.AddDate(-1, 0, 0), nil)
		c.visit(boy, c.day, map[string]any{"weight": 7.7, "height": 75.7, "head_circumference": 46.1}, true, "")
		c.visit(boy, c.nextDay, map[string]any{"weight": 9.7}, true, "")
		// Copied forward from the day before: that day's reading, not plotted twice.
		c.visit(boy, c.thirdDay, map[string]any{"weight": 9.7}, true, c.nextDay.Format(time.DateOnly))
		// Measured but the visit neither completed nor signed: not yet on the chart.
		c.visit(boy, c.thirdDay, map[string]any{"weight": 12.5}, false, "")
		g := c.growth(c.nurse, boy)
		if len(g.Points) != 2 || g.Points[0].On != c.day.Format(time.DateOnly) || g.Points[1].On != c.nextDay.Format(time.DateOnly) {
			t.Fatalf("points: %+v", g.Points)
		}
		p := g.Points[0]
		near(t, "weight-for-age at 12 months, 7.7 kg", p.Z.WFA, -2.0, 0.06)
		near(t, "its percentile", p.Pct.WFA, 2.3, 0.3)
		near(t, "length-for-age at 75.7 cm (the median)", p.Z.LHFA, 0, 0.05)
		near(t, "head circumference at 46.1 cm (the median)", p.Z.HCFA, 0, 0.05)
		if p.Measure != "length" || p.CorrectedAgeDays != nil || g.Corrected {
			t.Errorf("measure %q, corrected %v %v", p.Measure, p.CorrectedAgeDays, g.Corrected)
		}
		near(t, "weight-for-age at 9.7 kg", g.Points[1].Z.WFA, 0, 0.1)
		flagged := map[string]bool{}
		for _, f := range g.Flags {
			flagged[f.On+" "+f.Code] = true
		}
		if !flagged[p.On+" underweight"] || !flagged[p.On+" wasting"] || len(g.Flags) != 2 {
			t.Errorf("flags: %+v", g.Flags)
		}
		for _, ind := range growth.Indicators {
			if len(g.Curves[ind].Rows) == 0 {
				t.Errorf("no %s curve", ind)
			}
		}
		if g.Curves[growth.WFA].Rows[0].AgeDays != 0 || g.Unscored != "" || g.Source == "" {
			t.Errorf("curves from %d, unscored %q", g.Curves[growth.WFA].Rows[0].AgeDays, g.Unscored)
		}

		// A girl born at 32 weeks, 120 days old: scored at the corrected age, 120 − 8 × 7 = 64 days.
		preterm := c.patient("female", c.day.AddDate(0, 0, -120), map[string]any{"gestation_weeks": 32})
		c.visit(preterm, c.day, map[string]any{"weight": 4.9, "height": 56.5}, true, "")
		g = c.growth(c.doctor, preterm)
		if len(g.Points) != 1 || g.Points[0].AgeDays != 120 || g.Points[0].CorrectedAgeDays == nil || *g.Points[0].CorrectedAgeDays != 64 || !g.Corrected {
			t.Fatalf("preterm: %+v", g.Points)
		}
		if g.GestationWeeks == nil || *g.GestationWeeks != 32 {
			t.Errorf("gestation %v", g.GestationWeeks)
		}
		// 64 days ≈ 2.1 months: the girls' median is about 5.2 kg, so 4.9 kg is a little below.
		near(t, "preterm weight-for-age at the corrected age", g.Points[0].Z.WFA, -0.45, 0.2)

		// A girl of 7 years, 28 kg and 122 cm (BMI 18.8): the 2007 reference; above +1 SD is overweight.
		seven := c.patient("female", c.day.AddDate(-7, 0, 0), nil)
		c.visit(seven, c.day, map[string]any{"weight": 28, "height": 122}, true, "")
		g = c.growth(c.doctor, seven)
		p = g.Points[0]
		if p.BMI == nil || *p.BMI != 18.8 || p.Z.WFL != nil || p.Z.HCFA != nil || p.Z.BFA == nil || p.Measure != "height" {
			t.Fatalf("7 years: %+v", p)
		}
		near(t, "7 years BMI-for-age", p.Z.BFA, 1.75, 0.15)
		if len(g.Flags) != 1 || g.Flags[0].Code != "overweight" || g.Flags[0].Indicator != "bfa" {
			t.Errorf("7 years flags: %+v", g.Flags)
		}
		if _, ok := g.Curves[growth.WFL]; ok || len(g.Curves[growth.BFA].Rows) == 0 || g.Curves[growth.BFA].Rows[0].AgeDays == 0 {
			t.Errorf("7 years curves: %v", g.Curves)
		}

		// Sex other, or unknown: no z-scores, and said so in the reader's language.
		for _, sex := range []string{"other", "unknown"} {
			id := c.patient(sex, c.day.AddDate(-1, 0, 0), nil)
			c.visit(id, c.day, map[string]any{"weight": 9}, true, "")
			c.nurse.SetCookie("language", "ru")
			g = c.growth(c.nurse, id)
			c.nurse.SetCookie("language", "en")
			if len(g.Points) != 1 || g.Points[0].Z.WFA != nil || g.Unscored != "sex" || len(g.Curves) != 0 || !strings.Contains(g.Message, "ВОЗ") {
				t.Errorf("sex %s: %+v", sex, g)
			}
		}

		// An adult: no curves, no scores.
		adult := c.patient("male", c.day.AddDate(-30, 0, 0), nil)
		c.visit(adult, c.day, map[string]any{"weight": 70, "height": 175}, true, "")
		g = c.growth(c.doctor, adult)
		if g.Unscored != "age" || len(g.Curves) != 0 || g.Points[0].Z.BFA != nil || len(g.Flags) != 0 {
			t.Errorf("adult: %+v", g)
		}

		// Who may read it: the receptionist may not (no vitals, no diagnoses); nothing for a
		// patient that does not exist.
		if r := c.rec.Do("GET", fmt.Sprintf("/api/patients/%d/growth", boy), nil); r.Status != http.StatusForbidden {
			t.Errorf("receptionist: %d", r.Status)
		}
		if r := c.doctor.Do("GET", "/api/patients/999999/growth", nil); r.Status != http.StatusNotFound {
			t.Errorf("no patient: %d", r.Status)
		}
	})
}

// TestGestationAndHeadCircumferenceAreChecked: out-of-range values are refused with a
// message in the user's language, and nothing is written.
func TestGestationAndHeadCircumferenceAreChecked(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.rec.SetCookie("language", "ru")
		for _, weeks := range []any{21, 45, 30.5} {
			r := c.rec.Do("POST", "/api/patients", map[string]any{"first_name": "Бэби", "last_name": "Иванова", "birth_date": "2025-01-01", "sex": "female", "gestation_weeks": weeks})
			msg, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || (weeks != 30.5 && !strings.Contains(strings.Join(fields["gestation_weeks"], " "), "гестации")) {
				t.Errorf("gestation %v: %d %s %v", weeks, r.Status, msg, fields)
			}
		}
		id := c.patient("female", c.day.AddDate(0, -3, 0), map[string]any{"gestation_weeks": 35})
		var p struct {
			GestationWeeks *int `json:"gestation_weeks"`
			Version        int  `json:"version"`
		}
		c.rec.Do("GET", fmt.Sprintf("/api/patients/%d", id), nil).JSON(t, &p)
		if p.GestationWeeks == nil || *p.GestationWeeks != 35 {
			t.Fatalf("gestation read back: %v", p.GestationWeeks)
		}

		c.slot++
		a := apitest.Do[struct{ ID int64 }](t, c.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": id,
			"doctor_id": c.doctorID, "starts_at": c.day.Format(time.DateOnly) + "T15:00:00Z", "duration_minutes": 15, "type": "new", "reason": "Check"})
		apitest.Do[map[string]any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
		c.nurse.SetCookie("language", "vi")
		r := c.nurse.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID), map[string]any{"version": 0, "vitals": map[string]any{"head_circumference": 80}})
		_, _, fields := r.Error(t)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(fields["vitals.head_circumference"], " "), "Vòng đầu") {
			t.Errorf("head 80 cm: %d %s", r.Status, r.Body)
		}
		r = c.nurse.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID), map[string]any{"version": 0, "vitals": map[string]any{"head_circumference": 40.5}})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"head_circumference":40.5`) {
			t.Errorf("head 40.5 cm: %d %s", r.Status, r.Body)
		}
	})
}
