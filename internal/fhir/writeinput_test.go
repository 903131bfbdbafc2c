package fhir_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// elementCase is one element sent in a written resource, and what the write does with it:
// the status answered, and the elements the answer names as not kept.
type elementCase struct {
	name    string
	change  func(res map[string]any)
	status  int
	dropped string // X-FHIR-Dropped, exactly
}

// TestWritesKeepWhatTheWriterReads: for each writable type, an element the writer reads is
// kept (or, when it cannot be, refused), and every other is named as not kept — none is
// silently ignored. A modifier the visit cannot keep (an Observation's status saying there is
// no value, a censored value) refuses the write and leaves the vital as it was.
func TestWritesKeepWhatTheWriterReads(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		nurse, _ := c.token(t, "nurse", "")
		clerk, _ := c.token(t, "clerk", "")
		pat, visit := fmt.Sprintf("Patient/%d", c.patientID), fmt.Sprintf("Encounter/%d", c.visitID)
		hr := fmt.Sprintf("/fhir/R4/Observation/%d-hr", c.visitID)

		t.Run("Observation", func(t *testing.T) {
			cases := []elementCase{
				{"final", func(o map[string]any) {}, http.StatusOK, ""},
				{"preliminary", func(o map[string]any) { o["status"] = "preliminary" }, http.StatusOK, ""},
				{"amended", func(o map[string]any) { o["status"] = "amended" }, http.StatusOK, ""},
				{"corrected", func(o map[string]any) { o["status"] = "corrected" }, http.StatusOK, ""},
				{"entered-in-error", func(o map[string]any) { o["status"] = "entered-in-error" }, http.StatusUnprocessableEntity, ""},
				{"cancelled", func(o map[string]any) { o["status"] = "cancelled" }, http.StatusUnprocessableEntity, ""},
				{"unknown", func(o map[string]any) { o["status"] = "unknown" }, http.StatusUnprocessableEntity, ""},
				{"registered", func(o map[string]any) { o["status"] = "registered" }, http.StatusUnprocessableEntity, ""},
				{"comparator", func(o map[string]any) { o["valueQuantity"].(map[string]any)["comparator"] = "<" }, http.StatusUnprocessableEntity, ""},
				{"effective at another time that day", func(o map[string]any) { o["effectiveDateTime"] = otherTimeSameDay(c.visitAt).Format(time.RFC3339) }, http.StatusOK, "Observation.effectiveDateTime"},
				{"effective that day", func(o map[string]any) { o["effectiveDateTime"] = c.visitAt.In(time.Local).Format(time.DateOnly) }, http.StatusOK, "Observation.effectiveDateTime"},
				// Another day than the visit's is refused: the visit would keep it as its own day's.
				{"effective another day", func(o map[string]any) { o["effectiveDateTime"] = "2020-01-01T09:05:00Z" }, http.StatusUnprocessableEntity, ""},
				{"effective the day before", func(o map[string]any) { o["effectiveDateTime"] = c.visitAt.AddDate(0, 0, -1).Format(time.RFC3339) }, http.StatusUnprocessableEntity, ""},
				{"effectivePeriod", func(o map[string]any) {
					o["effectivePeriod"] = map[string]any{"start": "2020-01-01T09:05:00Z"}
				}, http.StatusOK, "Observation.effectivePeriod"},
				{"an interpretation of its own", func(o map[string]any) {
					o["interpretation"] = []any{map[string]any{"coding": []any{map[string]any{"system": "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", "code": "LL"}}}}
				}, http.StatusOK, "Observation.interpretation"},
				{"issued", func(o map[string]any) { o["issued"] = "2020-01-01T09:05:00Z" }, http.StatusOK, "Observation.issued"},
				{"note", func(o map[string]any) { o["note"] = []any{map[string]any{"text": "after exercise"}} }, http.StatusOK, "Observation.note"},
				{"method", func(o map[string]any) { o["method"] = map[string]any{"text": "palpation"} }, http.StatusOK, "Observation.method"},
				{"referenceRange", func(o map[string]any) { o["referenceRange"] = []any{map[string]any{"text": "60-100"}} }, http.StatusOK, "Observation.referenceRange"},
				{"another category", func(o map[string]any) {
					o["category"] = []any{map[string]any{"coding": []any{map[string]any{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "exam"}}}}
				}, http.StatusOK, "Observation.category[0].coding[0]"},
			}
			for i, tc := range cases {
				o := vitalSign(pat, visit, c.visitAt, "8867-4", float64(60+i), "/min")
				delete(o, "effectiveDateTime")
				o["id"] = fmt.Sprintf("%d-hr", c.visitID)
				tc.change(o)
				before := get(t, nurse, hr, http.StatusOK)
				_, r := send(t, nurse, "PUT", hr, o, map[string]string{"If-Match": `W/"` + before["meta"].(map[string]any)["versionId"].(string) + `"`}, tc.status)
				if got := r.Header.Get("X-FHIR-Dropped"); got != tc.dropped {
					t.Errorf("%s: dropped %q, want %q", tc.name, got, tc.dropped)
				}
				after := get(t, nurse, hr, http.StatusOK)
				value := fmt.Sprint(after["valueQuantity"].(map[string]any)["value"])
				if tc.status == http.StatusOK && value != fmt.Sprint(60+i) || tc.status != http.StatusOK && !same(after, before) {
					t.Errorf("%s: the heart rate is %s (was %v)", tc.name, value, before["valueQuantity"])
				}
			}
			// What a write reads back is taken back as it is: nothing named dropped.
			read := get(t, nurse, hr, http.StatusOK)
			delete(read, "text")
			if _, r := send(t, nurse, "PUT", hr, read, map[string]string{"If-Match": `W/"` + read["meta"].(map[string]any)["versionId"].(string) + `"`}, http.StatusOK); r.Header.Get("X-FHIR-Dropped") != "" {
				t.Errorf("a vital read and written back: dropped %q", r.Header.Get("X-FHIR-Dropped"))
			}
			oo, _ := send(t, nurse, "POST", "/fhir/R4/Observation", map[string]any{"resourceType": "Observation", "status": "entered-in-error",
				"code": map[string]any{"coding": []any{map[string]any{"system": "http://loinc.org", "code": "9279-1"}}}, "subject": reference(pat), "encounter": reference(visit),
				"valueQuantity": map[string]any{"value": 16, "unit": "/min", "system": "http://unitsofmeasure.org", "code": "/min"}}, nil, http.StatusUnprocessableEntity)
			if !strings.Contains(fmt.Sprint(oo), "PUT") {
				t.Errorf("entered-in-error: %v", oo)
			}
		})

		// A create makes a new vital; one the visit has is changed by an update, never
		// overwritten by a create (nor in a transaction).
		t.Run("create of a vital the visit has", func(t *testing.T) {
			before := get(t, nurse, hr, http.StatusOK)
			oo, _ := send(t, nurse, "POST", "/fhir/R4/Observation", vitalSign(pat, visit, c.visitAt, "8867-4", 120, "/min"), nil, http.StatusConflict)
			if !strings.Contains(fmt.Sprint(oo), fmt.Sprintf("PUT Observation/%d-hr", c.visitID)) {
				t.Errorf("a second heart rate: %v", oo)
			}
			send(t, nurse, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", vitalSign(pat, visit, c.visitAt, "8867-4", 120, "/min"), "POST", "Observation")), nil, http.StatusConflict)
			if after := get(t, nurse, hr, http.StatusOK); !same(after, before) {
				t.Errorf("the heart rate was overwritten: %v", after["valueQuantity"])
			}
			rr := vitalSign(pat, visit, c.visitAt, "9279-1", 16, "/min")
			delete(rr, "effectiveDateTime")
			send(t, nurse, "POST", "/fhir/R4/Observation", rr, nil, http.StatusCreated)
			send(t, nurse, "POST", "/fhir/R4/Observation", rr, nil, http.StatusConflict)
		})

		t.Run("Appointment", func(t *testing.T) {
			coding := func(system, code, display string) map[string]any {
				return map[string]any{"coding": []any{map[string]any{"system": system, "code": code, "display": display}}}
			}
			v20276 := "http://terminology.hl7.org/CodeSystem/v2-0276"
			cases := []struct {
				elementCase
				kind, reason string // the type and reason the book keeps
			}{
				{elementCase{"type as text", func(a map[string]any) {}, http.StatusCreated, ""}, "follow-up", ""},
				{elementCase{"FOLLOWUP", func(a map[string]any) { a["appointmentType"] = coding(v20276, "FOLLOWUP", "") }, http.StatusCreated, ""}, "follow-up", ""},
				{elementCase{"WALKIN", func(a map[string]any) { a["appointmentType"] = coding(v20276, "WALKIN", "") }, http.StatusCreated, ""}, "walk-in", ""},
				{elementCase{"ROUTINE", func(a map[string]any) { a["appointmentType"] = coding(v20276, "ROUTINE", "") }, http.StatusCreated, ""}, "new", ""},
				{elementCase{"WALKIN with its own text", func(a map[string]any) {
					a["appointmentType"] = map[string]any{"coding": []any{map[string]any{"system": v20276, "code": "WALKIN"}}, "text": "Walk-in visit"}
				}, http.StatusCreated, ""}, "walk-in", ""},
				{elementCase{"no type", func(a map[string]any) { delete(a, "appointmentType") }, http.StatusCreated, ""}, "new", ""},
				{elementCase{"CHECKUP", func(a map[string]any) { a["appointmentType"] = coding(v20276, "CHECKUP", "") }, http.StatusUnprocessableEntity, ""}, "", ""},
				{elementCase{"a type by its display", func(a map[string]any) {
					a["appointmentType"] = coding("https://example.org/types", "fu", "follow-up")
				}, http.StatusCreated, ""}, "follow-up", ""},
				{elementCase{"a reason by its display", func(a map[string]any) {
					a["reasonCode"] = []any{coding("http://snomed.info/sct", "25064002", "Headache")}
				}, http.StatusCreated, ""}, "follow-up", "Headache"},
				{elementCase{"a reason by its code alone", func(a map[string]any) {
					a["reasonCode"] = []any{coding("http://snomed.info/sct", "25064002", "")}
				}, http.StatusCreated, "Appointment.reasonCode[0].coding"}, "follow-up", ""},
				{elementCase{"a tentative participant", func(a map[string]any) {
					a["participant"].([]any)[0].(map[string]any)["status"] = "tentative"
				}, http.StatusCreated, "Appointment.participant[0].status"}, "follow-up", ""},
				{elementCase{"priority", func(a map[string]any) { a["priority"] = 5 }, http.StatusCreated, "Appointment.priority"}, "follow-up", ""},
			}
			for i, tc := range cases {
				a := c.booking(pat, time.Duration(i)*time.Hour)
				tc.change(a)
				got, r := send(t, clerk, "POST", "/fhir/R4/Appointment", a, nil, tc.status)
				if d := r.Header.Get("X-FHIR-Dropped"); d != tc.dropped {
					t.Errorf("%s: dropped %q, want %q", tc.name, d, tc.dropped)
				}
				if tc.status != http.StatusCreated {
					continue
				}
				var kind, reason any
				if at, ok := got["appointmentType"].(map[string]any); ok {
					kind = at["text"]
				}
				if rc, ok := got["reasonCode"].([]any); ok {
					reason = rc[0].(map[string]any)["text"]
				}
				if fmt.Sprint(kind) != tc.kind || tc.reason != "" && fmt.Sprint(reason) != tc.reason {
					t.Errorf("%s: kept as %v, %v", tc.name, kind, reason)
				}
			}
		})

		t.Run("Encounter", func(t *testing.T) {
			cases := []struct {
				elementCase
				reason string
			}{
				{elementCase{"reason as text", func(e map[string]any) {}, http.StatusCreated, ""}, "cough"},
				{elementCase{"a reason by its display", func(e map[string]any) {
					e["reasonCode"] = []any{map[string]any{"coding": []any{map[string]any{"system": "http://snomed.info/sct", "code": "49727002", "display": "Cough"}}}}
				}, http.StatusCreated, ""}, "Cough"},
				{elementCase{"a reason by its code alone", func(e map[string]any) {
					e["reasonCode"] = []any{map[string]any{"coding": []any{map[string]any{"system": "http://snomed.info/sct", "code": "49727002"}}}}
				}, http.StatusCreated, "Encounter.reasonCode[0].coding"}, ""},
				{elementCase{"a participant's type", func(e map[string]any) {
					e["participant"].([]any)[0].(map[string]any)["type"] = []any{map[string]any{"text": "attender"}}
				}, http.StatusCreated, "Encounter.participant[0].type"}, "cough"},
				{elementCase{"serviceType", func(e map[string]any) { e["serviceType"] = map[string]any{"text": "GP"} }, http.StatusCreated, "Encounter.serviceType"}, "cough"},
			}
			for i, tc := range cases {
				e := c.walkIn(pat, "arrived", time.Duration(30+i)*time.Hour)
				tc.change(e)
				got, r := send(t, clerk, "POST", "/fhir/R4/Encounter", e, nil, tc.status)
				if d := r.Header.Get("X-FHIR-Dropped"); d != tc.dropped {
					t.Errorf("%s: dropped %q, want %q", tc.name, d, tc.dropped)
				}
				var reason any = ""
				if rc, ok := got["reasonCode"].([]any); ok {
					reason = rc[0].(map[string]any)["text"]
				}
				if fmt.Sprint(reason) != tc.reason {
					t.Errorf("%s: reason kept as %v", tc.name, reason)
				}
			}
		})
	})
}

// TestAnAllergyWithoutAReactionSaysItIsUnknown: an allergy recorded with a severity but no
// reaction is sent with its severity and a manifestation that says it is unknown
// (data-absent-reason) — never the substance as its reaction.
func TestAnAllergyWithoutAReactionSaysItIsUnknown(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		var p struct{ ID int64 }
		r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Lan", "last_name": "Tran", "birth_date": "1980-01-01", "sex": "female",
			"history": map[string]any{"allergy_status": "present", "allergies": []map[string]any{{"substance": "Iodine contrast", "severity": "severe"}}}})
		if r.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &p)
		a := get(t, api, fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-1", p.ID), http.StatusOK)
		reaction := a["reaction"].([]any)[0].(map[string]any)
		want := map[string]any{"extension": []any{map[string]any{"url": "http://hl7.org/fhir/StructureDefinition/data-absent-reason", "valueCode": "unknown"}}}
		if reaction["severity"] != "severe" || !same(reaction["manifestation"], []any{want}) {
			t.Errorf("the reaction: %v", reaction)
		}
		penicillin := get(t, api, fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-1", c.patientID), http.StatusOK)
		if got := penicillin["reaction"].([]any)[0].(map[string]any)["manifestation"]; !same(got, []any{map[string]any{"text": "rash"}}) {
			t.Errorf("a recorded reaction: %v", got)
		}
	})
}
