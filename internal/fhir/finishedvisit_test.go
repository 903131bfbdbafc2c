package fhir_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// pastVisit is a finished Encounter of patient with the clinic's doctor, from start to end.
func (c *clinic) pastVisit(patient string, start, end time.Time) map[string]any {
	e := c.walkIn(patient, "finished", 0)
	e["period"] = map[string]any{"start": start.Format(time.RFC3339), "end": end.Format(time.RFC3339)}
	return e
}

// TestFHIRFinishedVisitWithItsVitals: a visit another system reports after it happened — a
// finished Encounter of yesterday 09:00–09:20 and its vital signs, by urn:uuid, in one
// transaction — is registered on its own day as the book's visit, its vitals on it, then
// completed, each step audited as the app's own; one vital refused leaves nothing behind. A
// finished Encounter still to begin, or one ending before it starts, is refused (422), and a
// past visit in any other status stays refused, as the book refuses it.
func TestFHIRFinishedVisitWithItsVitals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "doc", "")
		y := time.Now().UTC().AddDate(0, 0, -1) // the tests' clinic keeps UTC
		start := time.Date(y.Year(), y.Month(), y.Day(), 9, 0, 0, 0, time.UTC)
		const patient, visit = "urn:uuid:5e0c2d41-0000-4000-8000-000000000001", "urn:uuid:5e0c2d41-0000-4000-8000-000000000002"
		entries := func(family string, heartRate float64) []map[string]any {
			return []map[string]any{
				writeEntry("", vitalSign(patient, visit, start.Add(5*time.Minute), "8867-4", heartRate, "/min"), "POST", "Observation"),
				writeEntry("", vitalSign(patient, visit, start.Add(5*time.Minute), "29463-7", 64.5, "kg"), "POST", "Observation"),
				writeEntry(visit, c.pastVisit(patient, start, start.Add(20*time.Minute)), "POST", "Encounter"),
				writeEntry(patient, newPatientResource(family), "POST", "Patient"),
			}
		}

		// A vital out of its range: the whole transaction refused, naming the entry; nothing remains.
		before := written(t, db, "Yesterday")
		oo, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", entries("Yesterday", 900)...), nil, http.StatusBadRequest)
		if !strings.Contains(fmt.Sprint(oo["issue"]), "Bundle.entry[0]") {
			t.Errorf("the refused entry is not named: %v", oo)
		}
		if after := written(t, db, "Yesterday"); after != before {
			t.Fatalf("a refused transaction left rows behind: %v, before %v", after, before)
		}

		resp, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", entries("Yesterday", 92)...), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"201 Created", "201 Created", "201 Created", "201 Created"}) {
			t.Fatalf("statuses: %v %v", got, resp)
		}
		answered := resp["entry"].([]any)[2].(map[string]any)["resource"].(map[string]any)
		id := answered["id"].(string)
		if answered["status"] != "finished" {
			t.Errorf("the Encounter is answered %v", answered["status"])
		}
		enc := get(t, doc, "/fhir/R4/Encounter/"+id, http.StatusOK)
		period := enc["period"].(map[string]any)
		if enc["status"] != "finished" || !sameInstant(period["start"], start) || !sameInstant(period["end"], start.Add(20*time.Minute)) {
			t.Errorf("the visit read back: %v", enc)
		}
		if v := enc["meta"].(map[string]any)["versionId"]; v != answered["meta"].(map[string]any)["versionId"] {
			t.Errorf("the entry answered version %v, the visit is at %v", answered["meta"], v)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments WHERE id = $1 AND day = $2 AND status = 'completed'`, id, start.Format(time.DateOnly)); n != 1 {
			t.Errorf("the book has no completed visit of %s", start.Format(time.DateOnly))
		}
		if o := get(t, doc, "/fhir/R4/Observation/"+id+"-hr", http.StatusOK); fmt.Sprint(o["valueQuantity"].(map[string]any)["value"]) != "92" {
			t.Errorf("the heart rate: %v", o["valueQuantity"])
		}
		for _, action := range []string{"appointment.create", "appointment.arrive", "appointment.start", "visit.vitals", "appointment.complete"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND entity_id = $2`, action, id); n == 0 {
				t.Errorf("no %s audited", action)
			}
		}

		// On its own: the same, completed at once; a vital afterwards is the visit's rules' (closed).
		pat := fmt.Sprintf("Patient/%d", c.nkaID)
		e, _ := send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, start.AddDate(0, 0, -30), start.AddDate(0, 0, -30).Add(15*time.Minute)), nil, http.StatusCreated)
		if e["status"] != "finished" {
			t.Errorf("a finished visit on its own: %v", e)
		}
		send(t, doc, "POST", "/fhir/R4/Observation", vitalSign(pat, "Encounter/"+e["id"].(string), start.AddDate(0, 0, -30).Add(5*time.Minute), "8867-4", 70, "/min"), nil, http.StatusConflict)
		// The doctor's time is taken: another visit over it is refused, as the book refuses it.
		send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, start.AddDate(0, 0, -30).Add(5*time.Minute), start.AddDate(0, 0, -30).Add(25*time.Minute)), nil, http.StatusConflict)

		// Refused: still to begin, ending before it starts (in the caller's language), and a
		// past visit that is not finished.
		soon := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute)
		oo, _ = send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, soon, soon.Add(20*time.Minute)), nil, http.StatusUnprocessableEntity)
		if issue := oo["issue"].([]any)[0].(map[string]any); issue["code"] != "business-rule" || fmt.Sprint(issue["expression"]) != "[Encounter.period.start]" {
			t.Errorf("a finished visit to come: %v", oo)
		}
		oo, _ = send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, start.AddDate(0, 0, -3), start.AddDate(0, 0, -3).Add(-time.Hour)), map[string]string{"Accept-Language": "ru"}, http.StatusUnprocessableEntity)
		if issue := oo["issue"].([]any)[0].(map[string]any); issue["code"] != "invariant" || !strings.Contains(issue["diagnostics"].(string), "раньше") {
			t.Errorf("a period ending before it starts: %v", oo)
		}
		// Before the patient was born (Anna Petrova, born 1985-11-20): refused, naming both days.
		unborn := time.Date(1985, 11, 19, 9, 0, 0, 0, time.UTC)
		oo, _ = send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, unborn, unborn.Add(20*time.Minute)), map[string]string{"Accept-Language": "en"}, http.StatusUnprocessableEntity)
		if issue := oo["issue"].([]any)[0].(map[string]any); issue["code"] != "business-rule" || !strings.Contains(issue["diagnostics"].(string), "1985-11-20") {
			t.Errorf("a visit before the patient's birth: %v", oo)
		}
		born := time.Date(1985, 11, 20, 9, 0, 0, 0, time.UTC) // the day of birth itself is in the patient's life
		send(t, doc, "POST", "/fhir/R4/Encounter", c.pastVisit(pat, born, born.Add(20*time.Minute)), nil, http.StatusCreated)
		past := c.walkIn(pat, "arrived", -72*time.Hour)
		send(t, doc, "POST", "/fhir/R4/Encounter", past, map[string]string{"Accept-Language": "en"}, http.StatusBadRequest)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments WHERE patient_id = $1 AND day IN ($2, $3)`, c.nkaID,
			start.AddDate(0, 0, -3).Format(time.DateOnly), time.Now().UTC().Add(-72*time.Hour).Format(time.DateOnly)); n != 0 {
			t.Errorf("a refused visit was booked")
		}
	})
}

// sameInstant reports whether an instant as answered is t.
func sameInstant(v any, t time.Time) bool {
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	return err == nil && at.Equal(t)
}
