package fhir_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// recordTaken records a medicine patient takes, as the nurse does on the chart: the entry's
// id and version.
func (c *clinic) recordTaken(t *testing.T, patient int64, in map[string]any) (int64, int) {
	t.Helper()
	var got struct {
		ID      int64
		Version int
	}
	r := c.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", patient), in)
	if r.Status != http.StatusCreated {
		t.Fatalf("record %v: %d %s", in, r.Status, r.Body)
	}
	r.JSON(t, &got)
	return got.ID, got.Version
}

// catalogueMedicine is a catalogue entry found by q, with its ATC code.
func catalogueMedicine(t *testing.T, c *apitest.Client, q string) (int64, string, string) {
	t.Helper()
	var found struct {
		Data []struct {
			ID    int64
			Label string
			ATC   string
		}
	}
	c.Do("GET", "/api/medicines?q="+q, nil).JSON(t, &found)
	for _, m := range found.Data {
		if m.ATC != "" {
			return m.ID, m.Label, m.ATC
		}
	}
	t.Fatalf("no catalogue entry with an ATC code for %q: %+v", q, found.Data)
	return 0, "", ""
}

// TestFHIRMedicationStatements: the medicines the patient reports taking as
// MedicationStatement (issue 55): a medicine prescribed elsewhere (its catalogue entry's ATC
// code and name, a start of a month, the prescriber in a note), one bought over the counter
// (said in a note) and stopped (its day and reason); a line of a prescription issued here is
// a MedicationRequest only, draft or issued (ADR 35); searched by patient, status, category and _id, read, vread and history from
// the entries' kept versions, in $everything and a bulk export; read by who reads the chart's
// list, and by a SMART app for its launch patient alone.
func TestFHIRMedicationStatements(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		medID, label, atc := catalogueMedicine(t, c.doctor, "amlodipine")
		amlodipine, _ := c.recordTaken(t, c.patientID, map[string]any{"medicine_id": medID, "medicine": label, "dose": "1 tablet", "frequency": "once daily",
			"source": "elsewhere", "prescriber": "Dr Tran, City Hospital", "started_on": "2024-03"})
		otc, v := c.recordTaken(t, c.patientID, map[string]any{"medicine": "Ibuprofen 200 mg", "frequency": "when needed", "source": "otc", "started_on": "2025"})
		if r := c.doctor.Do("POST", fmt.Sprintf("/api/current-medicines/%d/stop", otc), map[string]any{"stopped_on": "2025-06-01", "category": "side_effect", "reason": "Stomach pain", "version": v}); r.Status != http.StatusOK {
			t.Fatalf("stop: %d %s", r.Status, r.Body)
		}
		theirs, _ := c.recordTaken(t, c.nkaID, map[string]any{"medicine": "Metformin 500 mg", "source": "elsewhere"})
		// A prescription written at the visit, draft then issued: no statement either way.
		var rx struct{ ID, Version int64 }
		r := c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/prescriptions", c.visitID), map[string]any{"items": []any{map[string]any{
			"medicine": "Cetirizine 10 mg tablet", "dose": "1 tablet", "frequency": "once daily", "duration": "5 days", "quantity": "5", "unit": "tablet"}}})
		if r.Status != http.StatusCreated {
			t.Fatalf("prescription: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &rx)

		api, _ := c.token(t, "doc", "")
		p := fmt.Sprintf("/fhir/R4/MedicationStatement?patient=%d", c.patientID)
		// The CapabilityStatement names it, its versions and its parameters.
		var stated string
		for _, res := range get(t, c.env.Client(), "/fhir/R4/metadata", http.StatusOK)["rest"].([]any)[0].(map[string]any)["resource"].([]any) {
			if m := res.(map[string]any); m["type"] == "MedicationStatement" {
				b, _ := json.Marshal(m)
				stated = string(b)
			}
		}
		for _, want := range []string{`{"code":"vread"}`, `{"code":"history-instance"}`, `"name":"status"`, `"name":"category"`, `"name":"patient"`, `"name":"code"`, `"name":"effective"`, `taken-{entry}`} {
			if !strings.Contains(stated, want) {
				t.Errorf("the CapabilityStatement's MedicationStatement lacks %s: %s", want, stated)
			}
		}
		taken := func(id int64) string { return fmt.Sprintf("taken-%d", id) }
		line := fmt.Sprintf("%d-1", rx.ID)
		if got := ids(get(t, api, p, http.StatusOK)); !slices.Equal(got, []string{taken(amlodipine), taken(otc)}) {
			t.Errorf("with a draft prescription: %v", got)
		}
		if r := c.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", rx.ID), map[string]any{"version": rx.Version}); r.Status != http.StatusOK {
			t.Fatalf("print: %d %s", r.Status, r.Body)
		}
		all := map[string]map[string]any{}
		for _, res := range entries(get(t, api, p, http.StatusOK)) {
			all[res["id"].(string)] = res
		}
		if len(all) != 2 {
			t.Fatalf("statements: %v", all)
		}
		js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
		elsewhere := js(all[taken(amlodipine)])
		for _, want := range []string{`"status":"active"`, `"code":"patientspecified"`, `"system":"http://www.whocc.no/atc"`, `"code":"` + atc + `","display":"`,
			`"effectivePeriod":{"start":"2024-03"}`, `"informationSource":{"reference":"Patient/` + fmt.Sprint(c.patientID) + `"}`,
			`"note":[{"text":"Prescribed elsewhere by Dr Tran, City Hospital"}]`, `"dosage":[{"text":"1 tablet; once daily"}]`, `"dateAsserted":"`} {
			if !strings.Contains(elsewhere, want) {
				t.Errorf("the medicine from elsewhere lacks %s: %s", want, elsewhere)
			}
		}
		stopped := js(all[taken(otc)])
		for _, want := range []string{`"status":"stopped"`, `"statusReason":[{"text":"side_effect: Stomach pain"}]`, `"effectivePeriod":{"end":"2025-06-01","start":"2025"}`,
			`"versionId":"2"`} {
			if !strings.Contains(stopped, want) {
				t.Errorf("the stopped medicine lacks %s: %s", want, stopped)
			}
		}
		// Bought over the counter differs from prescribed elsewhere by someone unknown.
		if !strings.Contains(stopped, `"note":[{"text":"Bought over the counter"}]`) || strings.Contains(stopped, "whocc") {
			t.Errorf("an over-the-counter medicine in free text says so and names no code: %s", stopped)
		}
		// The line prescribed here is a MedicationRequest, not a statement.
		get(t, api, "/fhir/R4/MedicationRequest/"+line, http.StatusOK)
		get(t, api, "/fhir/R4/MedicationStatement/"+line, http.StatusNotFound)
		get(t, api, "/fhir/R4/MedicationStatement/"+line+"/_history/2", http.StatusNotFound)

		// Searches: by status, category, _id, subject; another patient's are theirs.
		for q, want := range map[string][]string{
			"&status=active":  {taken(amlodipine)},
			"&status=stopped": {taken(otc)},
			"&status=http://hl7.org/fhir/CodeSystem/medication-statement-status|stopped": {taken(otc)},
			"&category=patientspecified": {taken(amlodipine), taken(otc)},
			"&category=http://terminology.hl7.org/CodeSystem/medication-statement-category|community": nil,
			"&_id=" + taken(otc) + "," + line: {taken(otc)},
			"&_id=" + taken(theirs):           nil,
			// code: the catalogue's ATC code; effective: the period overlaps (2024-03 onwards,
			// running; 2025 to 2025-06-01, stopped), as the integrator's review asked.
			"&code=" + atc:                                   {taken(amlodipine)},
			"&code=http://www.whocc.no/atc|" + atc:           {taken(amlodipine)},
			"&code=A00AA00":                                  nil,
			"&effective=ge2025-07-01":                        {taken(amlodipine)},
			"&effective=2025-03":                             {taken(amlodipine), taken(otc)},
			"&effective=lt2024-03-01":                        nil,
			"&effective=le2024-03-15&effective=ge2024-03-01": {taken(amlodipine)},
		} {
			if got := ids(get(t, api, p+q, http.StatusOK)); !slices.Equal(got, want) {
				t.Errorf("MedicationStatement?…%s: %v, want %v", q, got, want)
			}
		}
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/MedicationStatement?subject=Patient/%d", c.nkaID), http.StatusOK)); !slices.Equal(got, []string{taken(theirs)}) {
			t.Errorf("the other patient's: %v", got)
		}
		// Paging two at a time walks the recorded entries once each.
		seen := map[string]int{}
		for next := "/fhir/R4/MedicationStatement?_count=2"; next != ""; {
			b := get(t, api, next, http.StatusOK)
			for _, id := range ids(b) {
				seen[id]++
			}
			next = ""
			if l := link(b, "next"); l != "" {
				next = relative(t, l)
			}
		}
		if len(seen) != 3 || seen[line] != 0 || seen[taken(theirs)] != 1 {
			t.Errorf("paged: %v", seen)
		}

		// Read, vread and history: the stopped entry was active in its first version.
		get(t, api, "/fhir/R4/MedicationStatement/"+taken(otc), http.StatusOK)
		if v := get(t, api, "/fhir/R4/MedicationStatement/"+taken(otc)+"/_history/1", http.StatusOK); v["status"] != "active" {
			t.Errorf("version 1: %v", v["status"])
		}
		var history []string
		for _, res := range entries(get(t, api, "/fhir/R4/MedicationStatement/"+taken(otc)+"/_history", http.StatusOK)) {
			history = append(history, res["status"].(string))
		}
		if got := history; !slices.Equal(got, []string{"stopped", "active"}) {
			t.Errorf("history: %v", got)
		}
		get(t, api, "/fhir/R4/MedicationStatement/taken-999999", http.StatusNotFound)
		get(t, api, "/fhir/R4/MedicationStatement/_history", http.StatusOK)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.medicationstatement.read' AND patient_id = $1`, c.patientID); n < 2 {
			t.Errorf("reads audited: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.medicationstatement.list' AND patient_id = $1`, c.patientID); n < 1 {
			t.Errorf("searches audited: %d", n)
		}

		// $everything and a bulk export carry them.
		ev := 0
		for _, res := range entries(get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.patientID), http.StatusOK)) {
			if res["resourceType"] == "MedicationStatement" {
				ev++
			}
		}
		if ev != 2 {
			t.Errorf("$everything's statements: %d", ev)
		}
		admin, _ := c.token(t, "admin", "")
		lines := exportLines(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=MedicationStatement"))
		if got := kindsOf(lines); got["MedicationStatement"] != 3 || len(got) != 1 {
			t.Errorf("exported: %v", got)
		}
		if lines["MedicationStatement/"+taken(otc)]["status"] != "stopped" {
			t.Errorf("exported stopped entry: %v", lines["MedicationStatement/"+taken(otc)])
		}

		// Who may read them: not the front desk (no prescriptions), not a token scoped
		// without them.
		clerk, _ := c.token(t, "clerk", "")
		get(t, clerk, p, http.StatusForbidden)
		get(t, clerk, "/fhir/R4/MedicationStatement/"+taken(otc), http.StatusForbidden)
		narrow, _ := c.token(t, "doc", "user/Patient.rs user/MedicationRequest.rs")
		get(t, narrow, p, http.StatusForbidden)
		get(t, narrow, "/fhir/R4/MedicationStatement/"+taken(otc), http.StatusForbidden)
		nurse, _ := c.token(t, "nurse", "user/MedicationStatement.rs")
		if got := ids(get(t, nurse, p+"&status=active", http.StatusOK)); len(got) != 1 {
			t.Errorf("the nurse's token: %v", got)
		}
	})
}

// TestSmartAppReadsItsPatientsMedicines: an app launched from a chart with
// patient/MedicationStatement.rs reads that patient's current medicines and nobody else's.
func TestSmartAppReadsItsPatientsMedicines(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		mine, _ := c.recordTaken(t, c.patientID, map[string]any{"medicine": "Amlodipine 5 mg", "source": "elsewhere", "started_on": "2023"})
		theirs, _ := c.recordTaken(t, c.nkaID, map[string]any{"medicine": "Metformin 500 mg", "source": "otc"})
		app := c.registerApp(t, "patient/MedicationStatement.rs")
		tok := launchedToken(t, app, c.doctor, c.patientID, "launch patient/MedicationStatement.rs")
		cl := app.bearer(tok["access_token"])
		if got := ids(get(t, cl, "/fhir/R4/MedicationStatement", http.StatusOK)); !slices.Equal(got, []string{fmt.Sprintf("taken-%d", mine)}) {
			t.Errorf("the app's search: %v", got)
		}
		get(t, cl, fmt.Sprintf("/fhir/R4/MedicationStatement/taken-%d", mine), http.StatusOK)
		get(t, cl, fmt.Sprintf("/fhir/R4/MedicationStatement/taken-%d", theirs), http.StatusNotFound) // another patient's: as missing
		get(t, cl, fmt.Sprintf("/fhir/R4/MedicationStatement?patient=%d", c.nkaID), http.StatusForbidden)
		get(t, cl, "/fhir/R4/MedicationStatement/_history", http.StatusForbidden)
		// Its scope is the medicines alone.
		get(t, cl, fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.patientID), http.StatusForbidden)
	})
}
