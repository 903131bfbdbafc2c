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

// writeEntry is an entry that writes res (method POST to its type, or PUT to url), with
// its fullUrl and request's extra elements (ifMatch, ifNoneExist).
func writeEntry(fullURL string, res map[string]any, method, url string, extra ...string) map[string]any {
	req := map[string]any{"method": method, "url": url}
	for i := 0; i+1 < len(extra); i += 2 {
		req[extra[i]] = extra[i+1]
	}
	e := map[string]any{"request": req, "resource": res}
	if fullURL != "" {
		e["fullUrl"] = fullURL
	}
	return e
}

func reference(to string) map[string]any { return map[string]any{"reference": to} }

// walkIn is an Encounter of a walk-in visit with the clinic's doctor, starting offset from now.
func (c *clinic) walkIn(patient, status string, offset time.Duration) map[string]any {
	start := time.Now().UTC().Add(offset).Truncate(time.Minute)
	return map[string]any{"resourceType": "Encounter", "status": status,
		"class":   map[string]any{"system": "http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB"},
		"subject": reference(patient), "participant": []any{map[string]any{"individual": reference(fmt.Sprintf("Practitioner/%d", c.env.UserID("doc")))}},
		"period": map[string]any{"start": start.Format(time.RFC3339), "end": start.Add(20 * time.Minute).Format(time.RFC3339)}, "reasonCode": []any{map[string]any{"text": "cough"}}}
}

// vitalSign is a vital-sign Observation of patient at encounter, measured at (the visit's
// time: a vital belongs to its visit's day).
func vitalSign(patient, encounter string, at time.Time, loinc string, value float64, unit string) map[string]any {
	return map[string]any{"resourceType": "Observation", "status": "final",
		"category": []any{map[string]any{"coding": []any{map[string]any{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "vital-signs"}}}},
		"code":     map[string]any{"coding": []any{map[string]any{"system": "http://loinc.org", "code": loinc}}}, "subject": reference(patient),
		"encounter": reference(encounter), "effectiveDateTime": at.Format(time.RFC3339),
		"valueQuantity": map[string]any{"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}
}

// startOf is when an Encounter written by walkIn starts.
func startOf(t *testing.T, encounter map[string]any) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, encounter["period"].(map[string]any)["start"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// otherTimeSameDay is another time on at's day in the clinic's zone (the test server's
// local one): the day's start, or a minute on when at is that start.
func otherTimeSameDay(at time.Time) time.Time {
	local := at.In(time.Local)
	start := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.Local)
	if start.Equal(at) {
		return start.Add(time.Minute)
	}
	return start
}

// booking is an Appointment of patient with the clinic's doctor, a week from now.
func (c *clinic) booking(patient string, offset time.Duration) map[string]any {
	start := time.Now().UTC().Add(7*24*time.Hour + offset).Truncate(time.Hour)
	return map[string]any{"resourceType": "Appointment", "status": "booked", "start": start.Format(time.RFC3339), "minutesDuration": 20,
		"appointmentType": map[string]any{"text": "follow-up"}, "participant": []any{
			map[string]any{"actor": reference(patient), "status": "accepted"},
			map[string]any{"actor": reference(fmt.Sprintf("Practitioner/%d", c.env.UserID("doc"))), "status": "accepted"}}}
}

// responses are the entries' response elements.
func responses(b map[string]any) []map[string]any {
	var out []map[string]any
	for _, e := range b["entry"].([]any) {
		out = append(out, e.(map[string]any)["response"].(map[string]any))
	}
	return out
}

func statuses(b map[string]any) []string {
	var out []string
	for _, r := range responses(b) {
		out = append(out, r["status"].(string))
	}
	return out
}

// written counts the rows a transaction of a new patient family leaves behind: the patient,
// its appointments, its visits' forms and the audit of their writes.
func written(t *testing.T, db *database.DB, family string) [4]int {
	t.Helper()
	return [4]int{
		dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = $1`, family),
		dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments a JOIN patients p ON p.id = a.patient_id WHERE p.last_name = $1`, family),
		dbtest.Count(t, db, `SELECT COUNT(*) FROM visits v JOIN patients p ON p.id = v.patient_id WHERE p.last_name = $1`, family),
		dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('patient.create', 'appointment.create', 'appointment.arrive', 'appointment.start', 'visit.vitals')`),
	}
}

// TestFHIRTransactionOfEveryType: a Patient, its walk-in Encounter, two vital signs and a
// follow-up Appointment in one transaction, linked by urn:uuid whatever the entries' order,
// all written with their audit and answered as the spec defines; one failing entry (the
// last one written) leaves nothing behind in any store.
func TestFHIRTransactionOfEveryType(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "doc", "")
		const patient, visit = "urn:uuid:7f1c1a52-0000-4000-8000-000000000001", "urn:uuid:7f1c1a52-0000-4000-8000-000000000002"
		entries := func(family string) []map[string]any {
			walkIn := c.walkIn(patient, "in-progress", 2*time.Hour)
			at := startOf(t, walkIn)
			return []map[string]any{
				writeEntry("", vitalSign(patient, visit, at, "8867-4", 92, "/min"), "POST", "Observation"),
				writeEntry("", vitalSign(patient, visit, at, "29463-7", 64.5, "kg"), "POST", "Observation"),
				writeEntry(visit, walkIn, "POST", "Encounter"),
				writeEntry("", c.booking(patient, 0), "POST", "Appointment"),
				writeEntry(patient, newPatientResource(family), "POST", "Patient"),
			}
		}

		// One failing entry, written last (updates go after creates): nothing remains.
		before := written(t, db, "Whole")
		stale := newPatientResource("Lê")
		stale["id"] = fmt.Sprint(c.patientID)
		failing := append(entries("Whole"), writeEntry("", stale, "PUT", fmt.Sprintf("Patient/%d", c.patientID), "ifMatch", `W/"99"`))
		oo, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", failing...), nil, http.StatusPreconditionFailed)
		if !strings.Contains(fmt.Sprint(oo["issue"]), "Bundle.entry[5]") {
			t.Errorf("the failing entry is not named: %v", oo)
		}
		if after := written(t, db, "Whole"); after != before {
			t.Fatalf("a failed transaction left rows behind: %v, before %v", after, before)
		}

		// The same without it: every entry written, in the order of its references.
		resp, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", entries("Whole")...), nil, http.StatusOK)
		if resp["type"] != "transaction-response" {
			t.Fatalf("answer: %v", resp)
		}
		if got := statuses(resp); !slices.Equal(got, []string{"201 Created", "201 Created", "201 Created", "201 Created", "201 Created"}) {
			t.Fatalf("statuses: %v", got)
		}
		ids := map[string]string{}
		for i, r := range responses(resp) {
			res := resp["entry"].([]any)[i].(map[string]any)["resource"].(map[string]any)
			kind, id, version := res["resourceType"].(string), res["id"].(string), res["meta"].(map[string]any)["versionId"].(string)
			if !strings.HasSuffix(r["location"].(string), "/"+kind+"/"+id+"/_history/"+version) || r["etag"] != `W/"`+version+`"` || r["lastModified"] == nil {
				t.Errorf("entry %d's response: %v", i, r)
			}
			ids[kind] = id
		}
		pid, eid := "Patient/"+ids["Patient"], "Encounter/"+ids["Encounter"]
		if got := written(t, db, "Whole"); got[0] != 1 || got[1] != 2 || got[2] != 1 {
			t.Errorf("rows written (patients, appointments, visit forms): %v", got)
		}
		enc := get(t, doc, "/fhir/R4/"+eid, http.StatusOK)
		if enc["status"] != "in-progress" || enc["subject"].(map[string]any)["reference"] != pid {
			t.Errorf("the encounter: %v", enc)
		}
		for _, part := range []string{"hr", "weight"} {
			o := get(t, doc, "/fhir/R4/Observation/"+ids["Encounter"]+"-"+part, http.StatusOK)
			if o["subject"].(map[string]any)["reference"] != pid || o["encounter"].(map[string]any)["reference"] != eid {
				t.Errorf("the %s observation is not linked: %v", part, o)
			}
		}
		appt := get(t, doc, "/fhir/R4/Appointment/"+ids["Appointment"], http.StatusOK)
		if !strings.Contains(fmt.Sprint(appt["participant"]), pid) {
			t.Errorf("the appointment's patient: %v", appt["participant"])
		}
		// The register's, the book's and the visit's own audit, as the web app writes it.
		for _, action := range []string{"patient.create", "appointment.create", "appointment.arrive", "appointment.start", "visit.vitals"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND patient_id = $2`, action, ids["Patient"]); n == 0 {
				t.Errorf("no %s audited", action)
			}
		}

		// The base with its slash takes a Bundle too (where client libraries post them).
		resp, _ = send(t, doc, "POST", "/fhir/R4/", bundleOf("batch", writeEntry("", newPatientResource("Slash"), "POST", "Patient")), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"201 Created"}) {
			t.Errorf("the base with its slash: %v", got)
		}
	})
}

// TestFHIRBundleReferences: references to other entries are resolved in reference elements
// alone; one to a urn:uuid no entry has, a circle, or a conditional reference that finds no
// patient or several fails the transaction naming the entry; one that finds one patient is
// that patient.
func TestFHIRBundleReferences(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "doc", "")
		known := get(t, doc, fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusOK)["identifier"].([]any)[0].(map[string]any)
		byNumber := fmt.Sprintf("Patient?identifier=%s|%s", known["system"], known["value"])
		const urn = "urn:uuid:3b0d7c8e-0000-4000-8000-00000000000a"

		cases := []struct {
			name    string
			entries []map[string]any
			want    int
			says    string // in the answer
		}{
			{"a urn:uuid no entry has", []map[string]any{
				writeEntry("", c.booking("urn:uuid:3b0d7c8e-0000-4000-8000-0000000000ff", 0), "POST", "Appointment")}, http.StatusBadRequest, "Bundle.entry[0]"},
			{"references in a circle", []map[string]any{
				writeEntry(urn, c.walkIn(urn, "arrived", 3*time.Hour), "POST", "Encounter")}, http.StatusBadRequest, "Bundle.entry[0]"},
			{"a conditional reference finding no one", []map[string]any{
				writeEntry("", newPatientResource("Unused"), "POST", "Patient"),
				writeEntry("", c.booking(fmt.Sprintf("Patient?identifier=%s|no-such-number", known["system"]), 0), "POST", "Appointment")}, http.StatusPreconditionFailed, "Bundle.entry[1]"},
			{"a conditional reference finding several (one written before it)", []map[string]any{
				writeEntry("", newPatientResource("Second"), "POST", "Patient"),
				writeEntry("", c.booking("Patient?gender=female", 0), "POST", "Appointment")}, http.StatusPreconditionFailed, "Bundle.entry[1]"},
			{"a conditional reference to another type", []map[string]any{
				writeEntry("", c.booking("Practitioner?name=doc", 0), "POST", "Appointment")}, http.StatusBadRequest, "Bundle.entry[0]"},
		}
		for _, tc := range cases {
			before := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments`) + dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`)
			oo, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", tc.entries...), nil, tc.want)
			if !strings.Contains(fmt.Sprint(oo["issue"]), tc.says) {
				t.Errorf("%s: %v", tc.name, oo)
			}
			if after := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments`) + dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); after != before {
				t.Errorf("%s: %d rows written", tc.name, after-before)
			}
		}

		// One patient found: the reference names it. A string that is not a reference keeps
		// its urn, even one an entry has.
		appt := c.booking(byNumber, time.Hour)
		appt["comment"] = urn
		resp, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction",
			writeEntry("", appt, "POST", "Appointment"),
			writeEntry(urn, newPatientResource("Named"), "POST", "Patient")), nil, http.StatusOK)
		got := resp["entry"].([]any)[0].(map[string]any)["resource"].(map[string]any)
		if !strings.Contains(fmt.Sprint(got["participant"]), fmt.Sprintf("Patient/%d", c.patientID)) || got["comment"] != urn {
			t.Errorf("conditional reference: %v", got)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.list' AND detail LIKE 'conditional reference%'`); n != 1 {
			t.Errorf("conditional references audited: %d", n)
		}

		// In a batch, an entry whose referenced entry failed fails too (424), alone.
		bad := newPatientResource("Broken")
		bad["gender"] = "mail"
		resp, _ = send(t, doc, "POST", "/fhir/R4", bundleOf("batch",
			writeEntry("", c.booking(urn, 2*time.Hour), "POST", "Appointment"),
			writeEntry(urn, bad, "POST", "Patient"),
			writeEntry("", newPatientResource("Fine"), "POST", "Patient")), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"424 Failed Dependency", "400 Bad Request", "201 Created"}) {
			t.Errorf("batch with a failed dependency: %v", got)
		}
	})
}

// TestFHIRBundleEntriesOfEachType: each writable type created, conditionally created and
// updated in a batch (each entry on its own), as its own route answers it; Prefer's return
// honoured in the entries.
func TestFHIRBundleEntriesOfEachType(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "doc", "")
		pat := fmt.Sprintf("Patient/%d", c.patientID)
		current := func(path string) (map[string]any, string) {
			res := get(t, doc, "/fhir/R4/"+path, http.StatusOK)
			return res, `W/"` + res["meta"].(map[string]any)["versionId"].(string) + `"`
		}
		patientNow, patientVersion := current(pat)
		mrn := patientNow["identifier"].([]any)[0].(map[string]any)
		delete(patientNow, "text")
		visitNow, visitVersion := current(fmt.Sprintf("Encounter/%d", c.visitID))
		delete(visitNow, "text")
		visitNow["reasonCode"] = []any{map[string]any{"text": "headache, worse"}}

		// The clinic's visit (in progress) takes vital signs; the appointment is one booked now.
		appt, _ := send(t, doc, "POST", "/fhir/R4/Appointment", c.booking(pat, 3*time.Hour), nil, http.StatusCreated)
		apptVersion := `W/"` + appt["meta"].(map[string]any)["versionId"].(string) + `"`
		appt["comment"] = "bring the results"
		obs := vitalSign(pat, fmt.Sprintf("Encounter/%d", c.visitID), c.visitAt, "8867-4", 76, "/min")
		obsID := fmt.Sprintf("%d-hr", c.visitID)
		_, obsVersion := current("Observation/" + obsID)
		var formVersion int
		fmt.Sscanf(obsVersion, `W/"%d"`, &formVersion)
		measured := func(value float64) map[string]any {
			o := vitalSign(pat, fmt.Sprintf("Encounter/%d", c.visitID), c.visitAt, "8867-4", value, "/min")
			o["id"] = obsID
			return o
		}

		cases := []struct {
			name  string
			entry map[string]any
			want  string
		}{
			{"Patient create", writeEntry("", newPatientResource("Plain"), "POST", "Patient"), "201 Created"},
			{"Patient conditional create, matched", writeEntry("", newPatientResource("Lê"), "POST", "Patient", "ifNoneExist", fmt.Sprintf("identifier=%s|%s", mrn["system"], mrn["value"])), "200 OK"},
			{"Patient update", writeEntry("", patientNow, "PUT", pat, "ifMatch", patientVersion), "200 OK"},
			{"Patient update, stale", writeEntry("", patientNow, "PUT", pat, "ifMatch", `W/"99"`), "412 Precondition Failed"},
			{"Patient update without If-Match", writeEntry("", patientNow, "PUT", pat), "428 Precondition Required"},
			{"Encounter create", writeEntry("", c.walkIn(pat, "arrived", 5*time.Hour), "POST", "Encounter"), "201 Created"},
			{"Encounter conditional create", writeEntry("", c.walkIn(pat, "arrived", 6*time.Hour), "POST", "Encounter", "ifNoneExist", "patient="+pat), "400 Bad Request"},
			{"Encounter update", writeEntry("", visitNow, "PUT", fmt.Sprintf("Encounter/%d", c.visitID), "ifMatch", visitVersion), "409 Conflict"}, // in progress: the book keeps its time
			{"Encounter update, stale", writeEntry("", visitNow, "PUT", fmt.Sprintf("Encounter/%d", c.visitID), "ifMatch", `W/"99"`), "412 Precondition Failed"},
			// The visit has a heart rate: a create does not overwrite it (an update does).
			{"Observation create, recorded", writeEntry("", obs, "POST", "Observation"), "409 Conflict"},
			{"Observation create", writeEntry("", vitalSign(pat, fmt.Sprintf("Encounter/%d", c.visitID), c.visitAt, "9279-1", 16, "/min"), "POST", "Observation"), "201 Created"},
			{"Observation conditional create", writeEntry("", obs, "POST", "Observation", "ifNoneExist", "code=8867-4"), "400 Bad Request"},
			{"Observation update, stale", writeEntry("", measured(77), "PUT", "Observation/"+obsID, "ifMatch", obsVersion), "412 Precondition Failed"},
			// Its version is the visit form's, one on after the create above (creates go first).
			{"Observation update", writeEntry("", measured(78), "PUT", "Observation/"+obsID, "ifMatch", fmt.Sprintf(`W/"%d"`, formVersion+1)), "200 OK"},
			{"Appointment create", writeEntry("", c.booking(pat, 8*time.Hour), "POST", "Appointment"), "201 Created"},
			{"Appointment conditional create", writeEntry("", c.booking(pat, 9*time.Hour), "POST", "Appointment", "ifNoneExist", "patient="+pat), "400 Bad Request"},
			{"Appointment update", writeEntry("", appt, "PUT", "Appointment/"+appt["id"].(string), "ifMatch", apptVersion), "200 OK"},
			{"Appointment update, stale", writeEntry("", appt, "PUT", "Appointment/"+appt["id"].(string), "ifMatch", apptVersion), "412 Precondition Failed"},
		}
		entries := make([]map[string]any, len(cases))
		for i, tc := range cases {
			entries[i] = tc.entry
		}
		resp, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("batch", entries...), nil, http.StatusOK)
		got := statuses(resp)
		for i, tc := range cases {
			if got[i] != tc.want {
				t.Errorf("%s: %s, want %s (%v)", tc.name, got[i], tc.want, responses(resp)[i]["outcome"])
			}
		}

		if o := get(t, doc, "/fhir/R4/Observation/"+obsID, http.StatusOK); fmt.Sprint(o["valueQuantity"].(map[string]any)["value"]) != "78" {
			t.Errorf("the heart rate updated in the batch: %v", o["valueQuantity"])
		}

		// Prefer: return=minimal answers no resource; return=OperationOutcome an outcome.
		for prefer, check := range map[string]func(e map[string]any) bool{
			"return=minimal": func(e map[string]any) bool {
				return e["resource"] == nil && e["response"].(map[string]any)["outcome"] == nil
			},
			"return=OperationOutcome": func(e map[string]any) bool {
				return e["resource"] == nil && e["response"].(map[string]any)["outcome"] != nil
			},
			"return=representation": func(e map[string]any) bool { return e["resource"] != nil },
		} {
			resp, _ := send(t, doc, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", newPatientResource("Prefer"+strings.Split(prefer, "=")[1]), "POST", "Patient"),
				writeEntry("", c.booking(pat, 10*time.Hour+time.Duration(len(prefer))*time.Hour), "POST", "Appointment")), map[string]string{"Prefer": prefer}, http.StatusOK)
			for _, e := range resp["entry"].([]any) {
				if e := e.(map[string]any); !check(e) || e["response"].(map[string]any)["location"] == nil {
					t.Errorf("%s: %v", prefer, e)
				}
			}
		}
	})
}

// TestFHIREncounterWrites: an Encounter is a walk-in visit, registered as the front desk
// registers one; starting or finishing it is the doctor's, as in the app.
func TestFHIREncounterWrites(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		clerk, _ := c.token(t, "clerk", "")
		doc, _ := c.token(t, "doc", "")
		nurse, _ := c.token(t, "nurse", "")
		pat := fmt.Sprintf("Patient/%d", c.nkaID)

		e, r := send(t, clerk, "POST", "/fhir/R4/Encounter", c.walkIn(pat, "arrived", 2*time.Hour), nil, http.StatusCreated)
		if e["status"] != "arrived" || !strings.Contains(r.Header.Get("Location"), "/Encounter/"+e["id"].(string)+"/_history/") || r.Header.Get("ETag") == "" {
			t.Errorf("walk-in: %v %v", e, r.Header)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments WHERE id = $1 AND type = 'walk-in' AND status = 'arrived'`, e["id"]); n != 1 {
			t.Errorf("the book has no arrived walk-in")
		}
		send(t, clerk, "POST", "/fhir/R4/Encounter", c.walkIn(pat, "in-progress", 3*time.Hour), nil, http.StatusForbidden)
		send(t, nurse, "POST", "/fhir/R4/Encounter", c.walkIn(pat, "arrived", 3*time.Hour), nil, http.StatusForbidden)
		send(t, clerk, "POST", "/fhir/R4/Encounter", c.walkIn(pat, "planned", 3*time.Hour), nil, http.StatusBadRequest)
		send(t, clerk, "POST", "/fhir/R4/Encounter", c.walkIn(pat, "arrived", 2*time.Hour+10*time.Minute), nil, http.StatusConflict) // the doctor is busy

		// The doctor starts it, then finishes it, each at its version.
		e["status"] = "in-progress"
		delete(e, "text")
		send(t, clerk, "PUT", "/fhir/R4/Encounter/"+e["id"].(string), e, map[string]string{"If-Match": `W/"2"`}, http.StatusForbidden)
		e2, _ := send(t, doc, "PUT", "/fhir/R4/Encounter/"+e["id"].(string), e, map[string]string{"If-Match": `W/"2"`}, http.StatusOK)
		e2["status"] = "finished"
		delete(e2, "text")
		send(t, doc, "PUT", "/fhir/R4/Encounter/"+e["id"].(string), e2, map[string]string{"If-Match": `W/"2"`}, http.StatusPreconditionFailed)
		e3, _ := send(t, doc, "PUT", "/fhir/R4/Encounter/"+e["id"].(string), e2, map[string]string{"If-Match": `W/"3"`, "Prefer": "return=OperationOutcome"}, http.StatusOK)
		if e3["resourceType"] != "OperationOutcome" {
			t.Errorf("Prefer: return=OperationOutcome: %v", e3)
		}
		if got := get(t, doc, "/fhir/R4/Encounter/"+e["id"].(string), http.StatusOK); got["status"] != "finished" || got["period"].(map[string]any)["end"] == nil {
			t.Errorf("finished: %v", got)
		}
		for _, action := range []string{"appointment.create", "appointment.arrive", "appointment.start", "appointment.complete"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND entity_id = $2`, action, e["id"]); n != 1 {
				t.Errorf("%s audited %d times", action, n)
			}
		}
	})
}
