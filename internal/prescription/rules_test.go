package prescription_test

import (
	"fmt"
	"maps"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestPrescriptionRules: each rule of writing, printing and cancelling a prescription as one
// request, on a prescription written for it alone where it needs one.
func TestPrescriptionRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		ru := s.env.LoggedIn("doc-ru", s.env.CreateUser("doc-ru", "doctor"))
		ru.SetCookie("language", "ru")
		visit := fmt.Sprintf("/api/appointments/%d/prescriptions", s.apptID)
		booked := 0
		// draft is a prescription of a visit of its own, not printed, each of another medicine:
		// the same course printed twice for the patient would be a duplicate to override.
		medicines := []string{"Amoxicillin 500 mg capsule", "Paracetamol 500 mg tablet", "Cetirizine 10 mg tablet", "Omeprazole 20 mg capsule",
			"Metformin 500 mg tablet", "Folic acid 5 mg tablet", "Amlodipine 5 mg tablet", "Salbutamol inhaler 100 mcg"}
		draft := func(t *testing.T) apitest.Vars {
			booked++
			line := maps.Clone(amoxicillin)
			line["medicine"] = medicines[booked%len(medicines)]
			p := s.write(t, s.book(t, time.Now().UTC().Add(time.Duration(2+booked)*time.Hour)), line)
			return apitest.Vars{"rx": p.ID, "version": p.Version}
		}
		// perKg is a draft whose child's dose is still written per kilogram.
		perKg := func(t *testing.T) apitest.Vars {
			booked++
			p := s.write(t, s.book(t, time.Now().UTC().Add(time.Duration(2+booked)*time.Hour)),
				map[string]any{"medicine": "Paracetamol 120 mg/5 mL syrup", "dose": "15 mg/kg", "frequency": "every 6 hours", "quantity": "1"})
			return apitest.Vars{"rx": p.ID, "version": p.Version}
		}
		printed := func(t *testing.T) apitest.Vars {
			v := draft(t)
			p := apitest.Do[rx](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/prescriptions/%d/print", v["rx"]), map[string]any{"version": v["version"]})
			v["version"] = p.Version
			return v
		}
		cancelled := func(t *testing.T) apitest.Vars {
			v := printed(t)
			p := apitest.Do[rx](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/prescriptions/%d/cancel", v["rx"]), map[string]any{"version": v["version"], "reason": "Wrong dose"})
			v["version"] = p.Version
			return v
		}
		nothingStored := func(t *testing.T, _ apitest.Response, _ apitest.Vars) {
			if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM prescriptions"); n != 0 {
				t.Errorf("a refused prescription was stored: %d", n)
			}
		}
		clients := map[string]*apitest.Client{"doctor": s.doctor, "ru": ru, "nurse": s.nurse}
		apitest.Run(t, s.env, clients, []apitest.Scenario{
			{Name: "a line needs a medicine and a quantity or a duration, said in the caller's language", As: "ru", Method: "POST", Path: visit,
				Body:   map[string]any{"items": []map[string]any{{"medicine": "Paracetamol"}, {"dose": "1"}}},
				Status: http.StatusUnprocessableEntity, Contains: []string{"Укажите количество или длительность.", `"items.1.medicine"`}, After: nothingStored},
			{Name: "a catalogue entry must exist", As: "doctor", Method: "POST", Path: visit, Body: map[string]any{"items": []map[string]any{{"medicine_id": 999999, "medicine": "Ghost", "quantity": "1"}}},
				Status: http.StatusUnprocessableEntity, Contains: []string{`"items.0.medicine"`}, After: nothingStored},
			{Name: "intravenous alone does not say how: bolus or infusion", As: "doctor", Method: "POST", Path: visit,
				Body:   map[string]any{"items": []map[string]any{{"medicine": "Ceftriaxone 1 g vial", "route": "intravenous", "quantity": "1"}}},
				Status: http.StatusUnprocessableEntity, Contains: []string{"Intravenous: choose bolus (push) or infusion (drip)."}, After: nothingStored},
			{Name: "a nurse reads but writes none", As: "nurse", Method: "POST", Path: visit, Body: map[string]any{"items": []any{amoxicillin}}, Status: http.StatusForbidden},
			{Name: "a dose still written per kilogram is not issued: the child's dose is worked out first", As: "doctor", Setup: perKg, Method: "POST",
				Path: "/api/prescriptions/{rx}/print", BodyOf: apitest.AtVersion(0, nil), Status: http.StatusUnprocessableEntity,
				Contains: []string{`"items.0.dose"`, "per kilogram"}},
			{Name: "a print at a stale version is refused", As: "doctor", Setup: draft, Method: "POST", Path: "/api/prescriptions/{rx}/print", BodyOf: apitest.AtVersion(5, nil), Status: http.StatusConflict},
			{Name: "an issued prescription does not change", As: "doctor", Setup: printed, Method: "PUT", Path: "/api/prescriptions/{rx}",
				BodyOf: apitest.AtVersion(0, map[string]any{"items": []map[string]any{{"medicine": "Morphine", "quantity": "100"}}}), Status: http.StatusConflict, Contains: []string{`"prescription.issued"`}},
			{Name: "an issued prescription prints again", As: "doctor", Setup: printed, Method: "POST", Path: "/api/prescriptions/{rx}/print", Body: map[string]any{}, Status: http.StatusOK},
			{Name: "cancelling needs a reason", As: "doctor", Setup: printed, Method: "POST", Path: "/api/prescriptions/{rx}/cancel", BodyOf: apitest.AtVersion(0, nil), Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
			{Name: "a cancelled prescription prints no more", As: "doctor", Setup: cancelled, Method: "POST", Path: "/api/prescriptions/{rx}/print", Body: map[string]any{}, Status: http.StatusConflict},
		})
	})
}

// TestThePrimaryDiagnosisComesFirst: a prescription carries its visit's diagnoses with the
// primary first, whatever order the doctor entered them in (clinic-day review, m6).
func TestThePrimaryDiagnosisComesFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		visit := fmt.Sprintf("/api/appointments/%d", s.apptID)
		for _, step := range []string{"/arrive", "/start"} {
			if r := s.doctor.Do("POST", visit+step, map[string]any{}); r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", step, r.Status, r.Body)
			}
		}
		if r := s.doctor.Do("PUT", visit+"/visit", map[string]any{"version": 0, "chief_complaint": "Cough",
			"diagnoses": []map[string]any{{"code": "J06.9"}, {"code": "J18.9", "primary": true}}}); r.Status != http.StatusOK {
			t.Fatalf("visit: %d %s", r.Status, r.Body)
		}
		p := s.write(t, s.apptID, amoxicillin)
		var got struct {
			Diagnoses []struct {
				Code    string `json:"code"`
				Primary bool   `json:"primary"`
			} `json:"diagnoses"`
		}
		s.doctor.Do("GET", fmt.Sprintf("/api/prescriptions/%d", p.ID), nil).JSON(t, &got)
		if len(got.Diagnoses) != 2 || got.Diagnoses[0].Code != "J18.9" || !got.Diagnoses[0].Primary || got.Diagnoses[1].Code != "J06.9" {
			t.Errorf("diagnoses %+v: the primary (J18.9) first", got.Diagnoses)
		}
	})
}
