package fhir_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/growth"
)

// TestFHIRGrowthObservations: a child's growth as vital-sign Observations (issue 59): weight
// (29463-7) and length (8302-2) as every patient's, head circumference (9843-4, cm, written
// through FHIR too) and the BMI percentile for age and sex (59576-9, in %, from the WHO
// tables as the growth chart works it out; never written), each valid and claiming its US
// Core profile; an adult has no BMI percentile.
func TestFHIRGrowthObservations(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, born := c.child(t, 10)
		var a struct{ ID int64 }
		at := c.visitAt.Add(30 * time.Minute) // after the clinic's own visit, with the same doctor
		r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": kid, "doctor_id": c.env.UserID("doc"),
			"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "well child"})
		if r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &a)
		path := fmt.Sprintf("/api/appointments/%d", a.ID)
		c.clerk.Do("POST", path+"/arrive", map[string]any{})
		if r := c.nurse.Do("PUT", path+"/visit/vitals", map[string]any{"version": 0, "vitals": map[string]any{"weight": 8.5, "height": 71}}); r.Status != http.StatusOK {
			t.Fatalf("vitals: %d %s", r.Status, r.Body)
		}
		nurse, _ := c.token(t, "nurse", "")
		vital := func(loinc string, value float64, unit string) map[string]any {
			return map[string]any{"resourceType": "Observation", "status": "final",
				"category":  []any{map[string]any{"coding": []any{map[string]any{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "vital-signs"}}}},
				"code":      map[string]any{"coding": []any{map[string]any{"system": "http://loinc.org", "code": loinc}}},
				"subject":   map[string]any{"reference": fmt.Sprintf("Patient/%d", kid)},
				"encounter": map[string]any{"reference": fmt.Sprintf("Encounter/%d", a.ID)}, "effectiveDateTime": at.Format(time.RFC3339),
				"valueQuantity": map[string]any{"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}
		}
		// The head circumference is written as the other vitals are; a percentile is worked out, never written.
		if o, _ := send(t, nurse, "POST", "/fhir/R4/Observation", vital("9843-4", 44, "cm"), nil, http.StatusCreated); o["id"] != fmt.Sprintf("%d-head", a.ID) {
			t.Fatalf("head circumference written: %v", o)
		}
		send(t, nurse, "POST", "/fhir/R4/Observation", vital("59576-9", 50, "%"), nil, http.StatusBadRequest)

		api, _ := c.token(t, "doc", "")
		one := func(code string) map[string]any {
			t.Helper()
			list := entries(get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&code=http://loinc.org|%s", kid, code), http.StatusOK))
			if len(list) != 1 {
				t.Fatalf("%s: %v", code, list)
			}
			return list[0]
		}
		js := func(v any) string { return fmt.Sprintf("%v", v) }
		head := one("9843-4")
		if q := head["valueQuantity"].(map[string]any); fmt.Sprint(q["value"]) != "44" || q["code"] != "cm" || !strings.Contains(js(head["meta"]), "us-core-head-circumference|6.1.0") {
			t.Errorf("head circumference: %v", head)
		}
		pct := one("59576-9")
		points, _, err := growth.Compute(growth.Child{Sex: "female", BirthDate: born.Format(time.DateOnly)},
			[]growth.Measurement{{On: at.Format(time.DateOnly), Weight: ptr(8.5), Height: ptr(71.0)}})
		if err != nil || points[0].Pct.BFA == nil {
			t.Fatalf("the growth chart's percentile: %v %v", points, err)
		}
		q := pct["valueQuantity"].(map[string]any)
		if fmt.Sprint(q["value"]) != fmt.Sprint(*points[0].Pct.BFA) || q["code"] != "%" || q["system"] != "http://unitsofmeasure.org" || *points[0].Pct.BFA <= 0 || *points[0].Pct.BFA >= 100 ||
			!strings.Contains(js(pct["meta"]), "pediatric-bmi-for-age|6.1.0") || !strings.Contains(js(pct["category"]), "vital-signs") {
			t.Errorf("BMI percentile: %v, the chart's %v", pct, *points[0].Pct.BFA)
		}
		// A visit with a heart rate only: its flag is by age band, so it is versioned too.
		var b struct{ ID int64 }
		r = c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": kid, "doctor_id": c.env.UserID("doc"),
			"starts_at": at.Add(time.Hour).Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "cough"})
		if r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &b)
		c.clerk.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", b.ID), map[string]any{})
		if r := c.nurse.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", b.ID), map[string]any{"version": 0, "vitals": map[string]any{"heart_rate": 120}}); r.Status != http.StatusOK {
			t.Fatalf("vitals: %d %s", r.Status, r.Body)
		}
		hr := get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-hr", b.ID), http.StatusOK)
		// The percentile is worked out of the birth date too: a corrected birth date gives it a new
		// version (a reader syncing by version sees the new value); vread of the first gives the first.
		first := pct["meta"].(map[string]any)["versionId"].(string)
		var p map[string]any
		c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", kid), nil).JSON(t, &p)
		p["birth_date"] = born.AddDate(0, -2, 0).Format(time.DateOnly)
		if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", kid), p); r.Status != http.StatusOK {
			t.Fatalf("correct the birth date: %d %s", r.Status, r.Body)
		}
		again := one("59576-9")
		second := again["meta"].(map[string]any)["versionId"].(string)
		if second == first || fmt.Sprint(again["valueQuantity"].(map[string]any)["value"]) == fmt.Sprint(q["value"]) {
			t.Errorf("after the birth date's correction: version %s (was %s), value %v (was %v)", second, first, again["valueQuantity"], q["value"])
		}
		old := get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history/%s", a.ID, first), http.StatusOK)
		if fmt.Sprint(old["valueQuantity"].(map[string]any)["value"]) != fmt.Sprint(q["value"]) {
			t.Errorf("vread of version %s: %v, want %v", first, old["valueQuantity"], q["value"])
		}
		if h := entries(get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history", a.ID), http.StatusOK)); len(h) < 2 {
			t.Errorf("history: %d versions", len(h))
		}
		if hr2 := get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-hr", b.ID), http.StatusOK); hr2["meta"].(map[string]any)["versionId"] == hr["meta"].(map[string]any)["versionId"] {
			t.Errorf("the heart rate's version did not move with the birth date: %v", hr2["meta"])
		}
		// Weight and length as every patient's.
		one("29463-7")
		one("8302-2")
		// A birth date corrected to an adult's: the percentile is gone (410), its history says when.
		c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", kid), nil).JSON(t, &p)
		p["birth_date"] = born.AddDate(-30, 0, 0).Format(time.DateOnly)
		if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", kid), p); r.Status != http.StatusOK {
			t.Fatalf("correct the birth date: %d %s", r.Status, r.Body)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct", a.ID), http.StatusGone)
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-nothing", a.ID), http.StatusNotFound)
		hb := get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history", a.ID), http.StatusOK)
		if list := hb["entry"].([]any); len(list) < 3 || list[0].(map[string]any)["request"].(map[string]any)["method"] != "DELETE" ||
			list[0].(map[string]any)["resource"] != nil {
			t.Errorf("the percentile's history after it is gone: %v", hb["entry"])
		}
		// A page of one: the deletion is still said (the version below the page tells it), and
		// vread of the deletion's version answers 410.
		hp := get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history?_count=1", a.ID), http.StatusOK)
		if list, _ := hp["entry"].([]any); len(list) != 1 || list[0].(map[string]any)["request"].(map[string]any)["method"] != "DELETE" {
			t.Errorf("a page of one: %v", hp["entry"])
		} else {
			etag := list[0].(map[string]any)["response"].(map[string]any)["etag"].(string)
			gone := strings.TrimSuffix(strings.TrimPrefix(etag, `W/"`), `"`)
			get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history/%s", a.ID, gone), http.StatusGone)
			get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-bmipct/_history/%s", a.ID, first), http.StatusOK)
		}
		// An adult's BMI is no percentile.
		if got := entries(get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&code=59576-9", c.patientID), http.StatusOK)); len(got) != 0 {
			t.Errorf("an adult's BMI percentile: %v", got)
		}
	})
}

func ptr(x float64) *float64 { return &x }
