package fhir_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// fixture reads the Patient another system sends: US Core's profile, identifiers of three
// systems, two names, four contact points, two structured addresses, two languages, and
// extensions the clinic does not keep (race, mother's maiden name, birth time, geolocation).
func fixture(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/patient-from-another-system.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// same reports whether a and b are the same JSON.
func same(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	var u, v any
	json.Unmarshal(x, &u)
	json.Unmarshal(y, &v)
	return reflect.DeepEqual(u, v)
}

func issuesOf(oo map[string]any) []string {
	var out []string
	for _, is := range oo["issue"].([]any) {
		is := is.(map[string]any)
		out = append(out, fmt.Sprint(is["severity"], " ", is["code"], " ", is["expression"]))
	}
	return out
}

// TestAPatientFromAnotherSystemIsKept: a rich Patient from another system comes back as it
// was sent — its identifiers (searchable in every token form, usable in If-None-Exist, one
// patient each), names, contact points with their use, structured addresses, languages and
// profile — in its versions and in the export too; what the clinic does not keep is named in
// a warning, a modifier not understood refuses the write, and the clinic's own number system
// (derived from its public address, urn:emr:mrn still found) is its alone.
func TestAPatientFromAnotherSystemIsKept(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		if r := c.admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Clinic", "public_url": "https://emr.example.org", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		system := "https://emr.example.org/fhir/sid/patient-number"
		api, _ := c.token(t, "admin", "")
		base := "/fhir/R4"
		sent := fixture(t)

		created, r := send(t, api, "POST", base+"/Patient", sent, nil, http.StatusCreated)
		id := created["id"].(string)
		dropped := r.Header.Get("X-FHIR-Dropped")
		for _, want := range []string{"Patient.extension[0]", "Patient.extension[1]", "Patient._birthDate.extension[0]", "Patient.address[0].extension[0]", "Patient.multipleBirthBoolean"} {
			if !strings.Contains(dropped, want) {
				t.Errorf("dropped %q, want %s named", dropped, want)
			}
		}

		read := get(t, api, base+"/Patient/"+id, http.StatusOK)
		ids := read["identifier"].([]any)
		if own := ids[0].(map[string]any); own["system"] != system || own["value"] == "" {
			t.Errorf("the clinic's number: %v", own)
		}
		want := sent
		want["address"].([]any)[0].(map[string]any)["extension"] = nil
		delete(want["address"].([]any)[0].(map[string]any), "extension")
		for name, got := range map[string]any{"identifier": ids[1:], "name": read["name"], "telecom": read["telecom"], "address": read["address"],
			"communication": read["communication"], "birthDate": read["birthDate"]} {
			if !same(got, want[name]) {
				t.Errorf("%s came back as %s, sent %s", name, js(got), js(want[name]))
			}
		}
		// The profiles it was sent with are kept, but US Core's: that claim is the server's
		// own, made when what it keeps conforms (profiles.go).
		if got := read["meta"].(map[string]any)["profile"]; !same(got, []any{"https://fhir.example.org/StructureDefinition/regional-patient",
			"http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient|6.1.0"}) {
			t.Errorf("profile: %v", got)
		}

		// Search by identifier: system|value, value alone, system|, |value (no system: none
		// here), the clinic's own system and the old urn:emr:mrn for its number.
		mrn := ids[0].(map[string]any)["value"].(string)
		for q, n := range map[string]int{
			"http://hl7.org/fhir/sid/us-ssn|999-53-4471": 1, "999-53-4471": 1, "http://hl7.org/fhir/sid/us-ssn|": 1, "|999-53-4471": 0,
			"http://hl7.org/fhir/sid/us-ssn|999-53-0000": 0, "http://hospital.smarthealthit.org|999-53-4471": 0,
			system + "|" + mrn: 1, "urn:emr:mrn|" + mrn: 1, mrn: 1,
		} {
			b := get(t, api, base+"/Patient?identifier="+url.QueryEscape(q), http.StatusOK)
			if got := len(entries(b)); got != n {
				t.Errorf("identifier=%s: %d, want %d", q, got, n)
			}
		}

		// If-None-Exist by another system's identifier finds the patient, writes nothing.
		again := fixture(t)
		again["name"] = []any{map[string]any{"family": "Someone", "given": []string{"Else"}}}
		found, r := send(t, api, "POST", base+"/Patient", again, map[string]string{"If-None-Exist": "identifier=http://hl7.org/fhir/sid/us-ssn|999-53-4471"}, http.StatusOK)
		if found["id"] != id {
			t.Errorf("If-None-Exist found %v", found["id"])
		}
		// One number names one person: another patient with it is refused, and says which.
		other := newPatientResource("Nguyen")
		other["identifier"] = []any{map[string]any{"system": "http://hl7.org/fhir/sid/us-ssn", "value": "999-53-4471"}}
		oo, _ := send(t, api, "POST", base+"/Patient", other, nil, http.StatusConflict)
		if d := fmt.Sprint(oo["issue"]); !strings.Contains(d, "http://hl7.org/fhir/sid/us-ssn|999-53-4471") {
			t.Errorf("taken identifier: %v", oo)
		}
		// The clinic assigns its numbers: none may be sent, in either of its systems.
		for _, s := range []string{system, "urn:emr:mrn"} {
			other["identifier"] = []any{map[string]any{"system": s, "value": "2020-000001"}}
			send(t, api, "POST", base+"/Patient", other, nil, http.StatusBadRequest)
		}
		// A modifier not understood refuses the write, wherever it is.
		other["identifier"] = nil
		delete(other, "identifier")
		other["name"] = []any{map[string]any{"family": "Nguyen", "given": []string{"Thi"}, "modifierExtension": []any{map[string]any{"url": "https://example.org/not-a-name", "valueBoolean": true}}}}
		oo, _ = send(t, api, "POST", base+"/Patient", other, nil, http.StatusUnprocessableEntity)
		if got := issuesOf(oo); len(got) != 1 || got[0] != "error extension [Patient.name[0].modifierExtension]" {
			t.Errorf("modifierExtension: %v", got)
		}
		other["name"] = []any{map[string]any{"family": "Nguyen", "given": []string{"Thi"}}}
		other["deceasedDateTime"] = "2020-01-01"
		send(t, api, "POST", base+"/Patient", other, nil, http.StatusUnprocessableEntity)
		// What was dropped, per element, under Prefer: return=OperationOutcome.
		delete(other, "deceasedDateTime")
		other["deceasedBoolean"] = false // says nothing the record does not
		other["extension"] = []any{map[string]any{"url": "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex", "valueCode": "F"}}
		oo, _ = send(t, api, "POST", base+"/Patient", other, map[string]string{"Prefer": "return=OperationOutcome"}, http.StatusCreated)
		if got := issuesOf(oo); len(got) != 2 || got[0] != "information informational <nil>" || got[1] != "warning extension [Patient.extension[0]]" {
			t.Errorf("return=OperationOutcome: %v", got)
		}

		// In a Bundle, what an entry dropped is in its response's outcome: registrations alone
		// (written together) and one with an identifier (checked on its own).
		withRace := func(family string, identifier bool) map[string]any {
			p := newPatientResource(family)
			p["extension"] = []any{map[string]any{"url": "http://hl7.org/fhir/us/core/StructureDefinition/us-core-race", "valueString": "White"}}
			if identifier {
				p["identifier"] = []any{map[string]any{"system": "http://hl7.org/fhir/sid/passport-VNM", "value": "C1234567"}}
			}
			return map[string]any{"resource": p, "request": map[string]any{"method": "POST", "url": "Patient"}}
		}
		for _, list := range [][]any{{withRace("Pham", false), withRace("Hoang", false)}, {withRace("Dang", true)}} {
			resp, _ := send(t, api, "POST", base, map[string]any{"resourceType": "Bundle", "type": "batch", "entry": list}, nil, http.StatusOK)
			for _, e := range resp["entry"].([]any) {
				response := e.(map[string]any)["response"].(map[string]any)
				outcome, _ := response["outcome"].(map[string]any)
				if response["status"] != "201 Created" || outcome == nil || fmt.Sprint(issuesOf(outcome)) != "[information informational <nil> warning extension [Patient.extension[0]]]" {
					t.Errorf("a Bundle's entry: %s", js(e))
				}
			}
		}

		// The web app changes the phone: the kept contact points stay, the first phone the
		// clinic's; the identifiers stay.
		var native struct {
			Version int `json:"version"`
		}
		nr := c.admin.Do("GET", "/api/patients/"+id, nil)
		nr.JSON(t, &native)
		var whole map[string]any
		nr.JSON(t, &whole)
		whole["phone"] = "555-000-1111"
		if r := c.admin.Do("PUT", "/api/patients/"+id, whole); r.Status != http.StatusOK {
			t.Fatalf("web edit: %d %s", r.Status, r.Body)
		}
		read = get(t, api, base+"/Patient/"+id, http.StatusOK)
		telecom := read["telecom"].([]any)
		if len(telecom) != 4 || telecom[0].(map[string]any)["value"] != "555-000-1111" || telecom[0].(map[string]any)["use"] != "mobile" ||
			telecom[1].(map[string]any)["value"] != "555-202-4150" || len(read["identifier"].([]any)) != 4 {
			t.Errorf("after the web app's edit: %s %s", js(telecom), js(read["identifier"]))
		}

		// An update leaves an identifier out: the version before keeps it (vread, history).
		read["identifier"] = read["identifier"].([]any)[:2]
		_, r = send(t, api, "PUT", base+"/Patient/"+id, read, map[string]string{"If-Match": `W/"` + read["meta"].(map[string]any)["versionId"].(string) + `"`}, http.StatusOK)
		if got := len(get(t, api, base+"/Patient/"+id, http.StatusOK)["identifier"].([]any)); got != 2 {
			t.Errorf("identifiers after the update: %d", got)
		}
		if got := len(get(t, api, base+"/Patient/"+id+"/_history/1", http.StatusOK)["identifier"].([]any)); got != 4 {
			t.Errorf("identifiers of version 1: %d", got)
		}
		b := get(t, api, base+"/Patient?identifier="+url.QueryEscape("http://hl7.org/fhir/sid/us-ssn|999-53-4471"), http.StatusOK)
		if len(entries(b)) != 0 {
			t.Errorf("an identifier left out is still found")
		}
		hist := get(t, api, base+"/Patient/"+id+"/_history", http.StatusOK)
		last := entries(hist)[len(entries(hist))-1]
		if len(last["identifier"].([]any)) != 4 {
			t.Errorf("history's first version: %s", js(last["identifier"]))
		}

		// The export gives them as read.
		m := exportTo(t, api, base+"/Patient/$export?_type=Patient")
		var exported map[string]any
		for _, line := range ndjson(t, api, m["output"].([]any)[0].(map[string]any)["url"].(string)) {
			if line["id"] == id {
				exported = line
			}
		}
		current := get(t, api, base+"/Patient/"+id, http.StatusOK)
		for _, name := range []string{"identifier", "name", "telecom", "address", "communication"} {
			if !same(exported[name], current[name]) {
				t.Errorf("exported %s: %s, read %s", name, js(exported[name]), js(current[name]))
			}
		}
	})
}

func js(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
