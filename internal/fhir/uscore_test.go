package fhir_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

const usCoreSD = "http://hl7.org/fhir/us/core/StructureDefinition/"

// profilesOf are the profiles a resource claims, by their names in US Core 6.1.0.
func profilesOf(t *testing.T, res map[string]any) []string {
	t.Helper()
	var out []string
	for _, p := range values(res, "meta.profile") {
		name, ok := strings.CutPrefix(fmt.Sprint(p), usCoreSD)
		name, version, _ := strings.Cut(name, "|")
		if !ok || version != "6.1.0" {
			t.Errorf("%v/%v claims %v", res["resourceType"], res["id"], p)
		}
		out = append(out, name)
	}
	return out
}

// TestFHIRClaimsUSCoreWhereItConforms: each resource of a whole record claims the US Core
// 6.1.0 profile it meets (every answer of every test is held to the profiles it claims by
// validResource); the types that cannot meet one claim none; the capability statement lists
// the profiles each type claims.
func TestFHIRClaimsUSCoreWhereItConforms(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		api, _ := c.token(t, "doc", "")
		visit := fmt.Sprint(c.visitID)
		want := map[string]string{
			"Patient/" + fmt.Sprint(c.patientID): "us-core-patient", "AllergyIntolerance/" + fmt.Sprint(c.patientID) + "-1": "us-core-allergyintolerance",
			"Encounter/" + visit: "us-core-encounter", "Appointment/" + visit: "", "Condition/" + visit + "-1": "us-core-condition-encounter-diagnosis",
			"Condition/" + visit + "-2": "us-core-condition-encounter-diagnosis", "Observation/" + visit + "-bp": "us-core-blood-pressure",
			"Observation/" + visit + "-hr": "us-core-heart-rate", "Observation/" + visit + "-temp": "us-core-body-temperature",
			"Observation/" + visit + "-spo2": "us-core-pulse-oximetry", "Observation/" + visit + "-weight": "us-core-body-weight",
			"Observation/" + visit + "-height": "us-core-body-height", "Observation/" + visit + "-bmi": "us-core-bmi",
		}
		ev := get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.patientID), http.StatusOK)
		byKind := map[string][]string{}
		for _, res := range entries(ev) {
			ref := res["resourceType"].(string) + "/" + res["id"].(string)
			got := strings.Join(profilesOf(t, res), " ")
			byKind[res["resourceType"].(string)] = append(byKind[res["resourceType"].(string)], got)
			if w, ok := want[ref]; ok && got != w {
				t.Errorf("%s claims %q, want %q", ref, got, w)
			}
		}
		// The panel, the X-ray and the ECG: three orders; the panel's report is a laboratory
		// one, the X-ray's and the ECG's are notes (they claimed nothing before issue 54's
		// review: they had no report at all).
		for kind, profiles := range map[string][]string{"ServiceRequest": {"us-core-servicerequest", "us-core-servicerequest", "us-core-servicerequest"},
			"MedicationRequest": {"us-core-medicationrequest"}, "DocumentReference": {""},
			"DiagnosticReport": {"us-core-diagnosticreport-lab", "us-core-diagnosticreport-note", "us-core-diagnosticreport-note"}} {
			if got := slices.Sorted(slices.Values(byKind[kind])); !slices.Equal(got, profiles) {
				t.Errorf("%s claims %q, want %q", kind, got, profiles)
			}
		}
		// One laboratory result claims the laboratory profile; the X-ray's and the ECG's
		// reports (imaging, procedure) claim none.
		if n := len(slices.DeleteFunc(slices.Clone(byKind["Observation"]), func(p string) bool { return p != "us-core-observation-lab" })); n != 1 {
			t.Errorf("%d results claim us-core-observation-lab: %v", n, byKind["Observation"])
		}
		// A staff account has one name, no family part: its Practitioner claims nothing.
		if got := profilesOf(t, get(t, api, fmt.Sprintf("/fhir/R4/Practitioner/%d", c.env.UserID("doc")), http.StatusOK)); len(got) != 0 {
			t.Errorf("a practitioner claims %v", got)
		}
		if got := profilesOf(t, get(t, api, "/fhir/R4/Organization/clinic", http.StatusOK)); !slices.Equal(got, []string{"us-core-organization"}) {
			t.Errorf("the clinic claims %v", got)
		}
		// The SpO2 carries the pulse-oximetry code beside 2708-6 (written back by either: TestFHIRWritesVitalSignsAndAppointments).
		spo2 := get(t, api, "/fhir/R4/Observation/"+visit+"-spo2", http.StatusOK)
		if codes := values(spo2, "code.coding.code"); !slices.Contains(codes, any("59408-5")) || !slices.Contains(codes, any("2708-6")) {
			t.Errorf("SpO2 codes: %v", codes)
		}

		cs := get(t, c.env.Client(), "/fhir/R4/metadata", http.StatusOK)
		supported := map[string][]any{}
		for _, r := range values(cs, "rest.resource") {
			m := r.(map[string]any)
			supported[m["type"].(string)] = values(m, "supportedProfile")
		}
		for kind, profile := range map[string]string{"Patient": "us-core-patient", "DiagnosticReport": "us-core-diagnosticreport-note",
			"Observation": "us-core-observation-lab", "Encounter": "us-core-encounter"} {
			if !slices.Contains(supported[kind], any(usCoreSD+profile+"|6.1.0")) {
				t.Errorf("the capability statement's %s supports %v", kind, supported[kind])
			}
		}
		if len(supported["Practitioner"]) != 0 || len(supported["DocumentReference"]) != 0 {
			t.Errorf("profiles supported by types that claim none: %v", supported)
		}
	})
}

// TestFHIRLaboratoryUnitsAreUCUM: a result's quantity and its reference range are coded in
// UCUM, the unit written as people read it.
func TestFHIRLaboratoryUnitsAreUCUM(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		api, _ := c.token(t, "doc", "")
		labs := entries(get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&category=laboratory", c.patientID), http.StatusOK))
		if len(labs) != 1 {
			t.Fatalf("results: %v", labs)
		}
		q := labs[0]["valueQuantity"].(map[string]any)
		if q["system"] != "http://unitsofmeasure.org" || q["code"] != "mmol/L" || q["unit"] != "mmol/L" {
			t.Errorf("the glucose's quantity: %v", q)
		}
		for _, bound := range []string{"low", "high"} {
			b := values(labs[0], "referenceRange."+bound)
			if len(b) != 1 || b[0].(map[string]any)["system"] != "http://unitsofmeasure.org" || b[0].(map[string]any)["code"] != "mmol/L" {
				t.Errorf("the range's %s: %v", bound, b)
			}
		}
	})
}

// labVisit books the second patient a visit with a panel (BMP) and an X-ray ordered, and
// answers the orders' ids and versions by test.
func (c *clinic) labVisit(t *testing.T) map[string][2]int64 {
	t.Helper()
	var a struct{ ID int64 }
	at := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute)
	r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.nkaID, "doctor_id": c.env.UserID("doc"),
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "check-up"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &a)
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	c.clerk.Do("POST", path+"/arrive", map[string]any{})
	c.doctor.Do("POST", path+"/start", map[string]any{})
	if r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Tired",
		"orders": []map[string]any{{"code": "BMP"}, {"code": "XR-CHEST"}}}); r.Status != http.StatusOK {
		t.Fatalf("orders: %d %s", r.Status, r.Body)
	}
	return c.orders(t, path)
}

// orders are a visit's orders by test: id and version.
func (c *clinic) orders(t *testing.T, path string) map[string][2]int64 {
	t.Helper()
	var list struct {
		Data []struct {
			ID      int64
			Test    string
			Version int64
		}
	}
	c.nurse.Do("GET", path+"/orders", nil).JSON(t, &list)
	out := map[string][2]int64{}
	for _, o := range list.Data {
		out[o.Test] = [2]int64{o.ID, o.Version}
	}
	return out
}

func must(t *testing.T, r apitest.Response, what string) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
}

// TestFHIRDiagnosticReportOfALabOrder: a laboratory order is a DiagnosticReport through its
// life — registered when ordered and collected, preliminary, final, corrected after a
// correction — with its test's LOINC code, the patient, the visit, the specimen's time, when
// it was issued, the clinic as performer, the reviewing doctor, the order's results (the
// laboratory Observations' ids) and the order it answers; searchable by the US Core
// combinations (token values with or without their system), versioned as its order, in
// $everything and in bulk export. An imaging order's report is no laboratory report: RAD,
// not LAB, and not found by the laboratory searches (it was absent before issue 54's review).
func TestFHIRDiagnosticReportOfALabOrder(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		orders := c.labVisit(t)
		bmp, xr := orders["BMP"], orders["XR-CHEST"]
		api, _ := c.token(t, "doc", "")
		dr := fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", bmp[0])
		if d := get(t, api, dr, http.StatusOK); d["status"] != "registered" || d["effectiveDateTime"] != nil || d["result"] != nil {
			t.Errorf("an order not yet resulted: %v", d)
		}
		if d := get(t, api, fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", xr[0]), http.StatusOK); !strings.Contains(fmt.Sprint(d["category"]), "RAD") ||
			strings.Contains(fmt.Sprint(d["category"]), "LAB") || d["meta"].(map[string]any)["profile"] != nil {
			t.Errorf("the X-ray's report, no result yet (no content: no profile claimed): %v", d)
		}

		lab := fmt.Sprintf("/api/lab-orders/%d", bmp[0])
		must(t, c.nurse.Do("POST", lab+"/collect", map[string]any{"version": bmp[1]}), "collect")
		must(t, c.nurse.Do("PUT", lab+"/results", map[string]any{"version": bmp[1] + 1,
			"results": []map[string]any{{"analyte": "GLU", "value": "6.1", "unit": "mmol/L"}}}), "preliminary")
		must(t, c.nurse.Do("PUT", lab+"/results", map[string]any{"version": bmp[1] + 2, "final": true, "results": []map[string]any{
			{"analyte": "GLU", "value": "6.2", "unit": "mmol/L"}, {"analyte": "NA", "value": "140", "unit": "mmol/L"}, {"analyte": "K", "value": "4.1", "unit": "mmol/L"}}}), "final")
		must(t, c.doctor.Do("POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": bmp[0], "version": bmp[1] + 3}}}), "review")

		d := get(t, api, dr, http.StatusOK)
		js := fmt.Sprint(d)
		for _, want := range []string{"status:final", "code:51990-0", "system:http://loinc.org", "code:LAB", fmt.Sprintf("reference:Patient/%d", c.nkaID),
			"reference:Organization/clinic", fmt.Sprintf("reference:Practitioner/%d", c.env.UserID("doc")), fmt.Sprintf("reference:ServiceRequest/%d", bmp[0])} {
			if !strings.Contains(js, want) {
				t.Errorf("the report lacks %s: %s", want, js)
			}
		}
		if d["effectiveDateTime"] == nil || d["issued"] == nil {
			t.Errorf("a final report without its times: %v", d)
		}
		labs := ids(get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&category=laboratory", c.nkaID), http.StatusOK))
		var results []string
		for _, r := range values(d, "result.reference") {
			results = append(results, strings.TrimPrefix(r.(string), "Observation/"))
		}
		slices.Sort(labs)
		slices.Sort(results)
		if len(results) != 3 || !slices.Equal(results, labs) {
			t.Errorf("the report's results %v, the order's observations %v", results, labs)
		}

		// The US Core searches, each finding the report, each spelled with and without systems.
		p := fmt.Sprintf("patient=%d", c.nkaID)
		day, _ := time.Parse(time.RFC3339, d["effectiveDateTime"].(string))
		on, next := day.Format(time.DateOnly), day.AddDate(0, 0, 1).Format(time.DateOnly)
		found := []string{fmt.Sprint(bmp[0])}
		// The patient's reports, the X-ray's beside the panel's.
		both := []string{fmt.Sprint(bmp[0]), fmt.Sprint(xr[0])}
		slices.Sort(both)
		for _, q := range []string{p, "patient=Patient/" + fmt.Sprint(c.nkaID), p + "&category=http://terminology.hl7.org/CodeSystem/v2-0074|"} {
			if got := ids(get(t, api, "/fhir/R4/DiagnosticReport?"+q, http.StatusOK)); !slices.Equal(slices.Sorted(slices.Values(got)), both) {
				t.Errorf("DiagnosticReport?%s found %v, want %v", q, got, both)
			}
		}
		for _, q := range []string{p + "&category=RAD", p + "&category=http://loinc.org|LP29684-5", "_id=" + fmt.Sprint(xr[0])} {
			if got := ids(get(t, api, "/fhir/R4/DiagnosticReport?"+q, http.StatusOK)); !slices.Equal(got, []string{fmt.Sprint(xr[0])}) {
				t.Errorf("DiagnosticReport?%s found %v, want the X-ray's", q, got)
			}
		}
		for _, q := range []string{p + "&category=LAB", p + "&category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB", p + "&code=51990-0", p + "&code=http://loinc.org|51990-0", p + "&code=x|y,http://loinc.org|51990-0",
			p + "&category=LAB&date=ge" + on + "&date=lt" + next, p + "&code=51990-0&date=" + on[:7], p + "&status=final", p + "&status=http://hl7.org/fhir/diagnostic-report-status|final",
			"_id=" + fmt.Sprint(bmp[0]), "status=final"} {
			if got := ids(get(t, api, "/fhir/R4/DiagnosticReport?"+q, http.StatusOK)); !slices.Equal(got, found) {
				t.Errorf("DiagnosticReport?%s found %v, want %v", q, got, found)
			}
		}
		for _, q := range []string{p + "&category=CUS", p + "&category=http://loinc.org|LAB", p + "&code=|51990-0", p + "&date=lt" + on, p + "&date=ge" + next, p + "&status=preliminary",
			p + "&status=final&status=preliminary", fmt.Sprintf("patient=%d", c.patientID), "_id=999999", "_id=" + fmt.Sprint(xr[0]) + "&category=LAB"} {
			if got := ids(get(t, api, "/fhir/R4/DiagnosticReport?"+q, http.StatusOK)); len(got) != 0 {
				t.Errorf("DiagnosticReport?%s found %v", q, got)
			}
		}
		get(t, api, "/fhir/R4/DiagnosticReport?"+p+"&date=yesterday", http.StatusBadRequest)

		// A correction of a final result: the report is corrected, and its versions are the order's.
		must(t, c.nurse.Do("PUT", lab+"/results", map[string]any{"version": bmp[1] + 4, "reason": "transcription error",
			"results": []map[string]any{{"analyte": "K", "value": "4.4", "unit": "mmol/L"}}}), "correction")
		if d := get(t, api, dr, http.StatusOK); d["status"] != "corrected" {
			t.Errorf("after a correction: %v", d["status"])
		}
		var statuses []string
		for _, v := range entries(get(t, api, dr+"/_history", http.StatusOK)) {
			statuses = append(statuses, v["status"].(string))
		}
		if want := []string{"corrected", "final", "final", "preliminary", "registered", "registered"}; !slices.Equal(statuses, want) {
			t.Errorf("the report's history: %v, want %v", statuses, want)
		}
		if v := get(t, api, dr+"/_history/3", http.StatusOK); v["status"] != "preliminary" || len(values(v, "result")) != 1 {
			t.Errorf("version 3: %v", v)
		}
		if !slices.Contains(ids(get(t, api, "/fhir/R4/DiagnosticReport/_history", http.StatusOK)), fmt.Sprint(bmp[0])) {
			t.Error("the type's history lacks the report")
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.diagnosticreport.read' AND patient_id = $1`, c.nkaID); n < 3 {
			t.Errorf("reads audited: %d", n)
		}

		// $everything and a bulk export carry it, and the X-ray's.
		ev := get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.nkaID), http.StatusOK)
		n := 0
		for _, res := range entries(ev) {
			if res["resourceType"] == "DiagnosticReport" {
				n++
			}
		}
		if n != 2 {
			t.Errorf("$everything holds %d reports", n)
		}
		admin, _ := c.token(t, "admin", "")
		m := exportTo(t, admin, "/fhir/R4/$export?_type=DiagnosticReport")
		lines := ndjson(t, admin, fileOf(t, m, "DiagnosticReport"))
		if len(lines) != 2 || lines[0]["id"] != fmt.Sprint(bmp[0]) || lines[0]["status"] != "corrected" || lines[1]["id"] != fmt.Sprint(xr[0]) {
			t.Errorf("the exported reports: %v", lines)
		}
	})
}
