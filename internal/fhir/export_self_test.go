package fhir_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
)

// exportLines downloads every output file of a manifest, each line valid against the R4
// schema, by "Type/id".
func exportLines(t *testing.T, c *apitest.Client, m map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, o := range m["output"].([]any) {
		for _, line := range ndjson(t, c, o.(map[string]any)["url"].(string)) {
			out[line["resourceType"].(string)+"/"+line["id"].(string)] = line
		}
	}
	return out
}

// kindsOf counts an export's lines by type.
func kindsOf(lines map[string]map[string]any) map[string]int {
	out := map[string]int{}
	for key := range lines {
		kind, _, _ := strings.Cut(key, "/")
		out[kind]++
	}
	return out
}

// references collects every reference a resource makes, wherever it sits in it.
func references(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if s, ok := child.(string); ok && k == "reference" {
				*out = append(*out, s)
				continue
			}
			references(child, out)
		}
	case []any:
		for _, child := range x {
			references(child, out)
		}
	}
}

// TestExportIsSelfContained: every reference in every line of a whole-clinic export, and of a
// doctor's Group export, is a line of the same export — the staff, the clinic and its
// premises are written beside the records — and reads on its own.
func TestExportIsSelfContained(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		admin, _ := c.token(t, "admin", "")
		for _, path := range []string{"/fhir/R4/$export", fmt.Sprintf("/fhir/R4/Group/doctor-%d/$export", c.env.UserID("doc"))} {
			lines := exportLines(t, admin, exportTo(t, admin, path))
			kinds := kindsOf(lines)
			for _, kind := range fhir.ExportTypes {
				if kinds[kind] == 0 && !forecastOptional(kind) {
					t.Errorf("%s: no %s in %v", path, kind, kinds)
				}
			}
			seen := 0
			for key, res := range lines {
				var refs []string
				references(res, &refs)
				for _, ref := range refs {
					seen++
					if _, ok := lines[ref]; !ok {
						t.Errorf("%s: %s refers to %s, which the export does not hold", path, key, ref)
					}
				}
			}
			if seen < 20 {
				t.Errorf("%s: only %d references", path, seen)
			}
		}
		for _, path := range []string{fmt.Sprintf("PractitionerRole/%d", c.env.UserID("doc")), "Location/clinic", "Organization/clinic"} {
			get(t, admin, "/fhir/R4/"+path, http.StatusOK)
		}
	})
}

// TestStaffRolesAndPremises: each account's PractitionerRole (its roles coded where HL7's
// practitioner-role codes have them, at the clinic and its premises) read, searched by
// practitioner, _id and role, with its versions; the clinic's Location; both in the
// CapabilityStatement, with the Group's read.
func TestStaffRolesAndPremises(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "clerk", "")
		doc, nurse := c.env.UserID("doc"), c.env.UserID("nurse")
		role := get(t, api, fmt.Sprintf("/fhir/R4/PractitionerRole/%d", doc), http.StatusOK)
		js, _ := json.Marshal(role)
		for _, want := range []string{`"reference":"Practitioner/` + fmt.Sprint(doc) + `"`, `"reference":"Organization/clinic"`, `"reference":"Location/clinic"`,
			`"code":"doctor","display":"Doctor","system":"http://terminology.hl7.org/CodeSystem/practitioner-role"`, `"active":true`} {
			if !strings.Contains(string(js), want) {
				t.Errorf("the doctor's role lacks %s: %s", want, js)
			}
		}
		clerkRole := get(t, api, fmt.Sprintf("/fhir/R4/PractitionerRole/%d", c.env.UserID("clerk")), http.StatusOK)
		if js, _ := json.Marshal(clerkRole["code"]); string(js) != `[{"text":"receptionist"}]` {
			t.Errorf("a role without a standard code: %s", js)
		}
		for q, want := range map[string][]string{
			fmt.Sprintf("practitioner=%d", doc):                                  {fmt.Sprint(doc)},
			fmt.Sprintf("practitioner=Practitioner/%d", doc):                     {fmt.Sprint(doc)},
			fmt.Sprintf("_id=%d,%d", doc, nurse):                                 {fmt.Sprint(doc), fmt.Sprint(nurse)},
			"role=doctor":                                                        {fmt.Sprint(doc)},
			"role=http://terminology.hl7.org/CodeSystem/practitioner-role|nurse": {fmt.Sprint(nurse)},
			"role=other|nurse":                                                   nil,
			"practitioner=999999":                                                nil,
			fmt.Sprintf("_id=%d&role=nurse", doc):                                nil,
			fmt.Sprintf("practitioner=%d&_id=%d", doc, nurse):                    nil,
		} {
			b := get(t, api, "/fhir/R4/PractitionerRole?"+q, http.StatusOK)
			var got []string
			for _, res := range entries(b) {
				if res["resourceType"] == "PractitionerRole" {
					got = append(got, res["id"].(string))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("PractitionerRole?%s found %v, want %v", q, got, want)
			}
			// A code system no role is written in matches nothing, and the answer says so.
			if outcome, _ := json.Marshal(b); strings.HasPrefix(q, "role=other|") && !strings.Contains(string(outcome), "OperationOutcome") {
				t.Errorf("PractitionerRole?%s: no warning: %s", q, outcome)
			}
		}

		// A change of roles is a new version of the account, and of its PractitionerRole.
		var u struct{ Version int }
		c.admin.Do("GET", fmt.Sprintf("/api/users/%d", nurse), nil).JSON(t, &u)
		if r := c.admin.Do("PUT", fmt.Sprintf("/api/users/%d", nurse), map[string]any{"name": "Nurse", "email": "", "roles": []string{"nurse", "receptionist"},
			"active": true, "version": u.Version}); r.Status != http.StatusOK {
			t.Fatalf("roles: %d %s", r.Status, r.Body)
		}
		history := entries(get(t, api, fmt.Sprintf("/fhir/R4/PractitionerRole/%d/_history", nurse), http.StatusOK))
		if len(history) < 2 || len(history[0]["code"].([]any)) != 2 {
			t.Errorf("the versions of the nurse's role: %v", history)
		}

		loc := get(t, api, "/fhir/R4/Location/clinic", http.StatusOK)
		if loc["managingOrganization"].(map[string]any)["reference"] != "Organization/clinic" || loc["status"] != "active" {
			t.Errorf("the clinic's premises: %v", loc)
		}
		for q, want := range map[string]int{"_id=clinic": 1, "_id=other,clinic": 1, "_id=elsewhere": 0, "_id=clinical": 0, "_id=clinic&_id=other": 0, "": 1} {
			for _, kind := range []string{"Location", "Organization"} {
				if got := ids(get(t, api, "/fhir/R4/"+kind+"?"+q, http.StatusOK)); len(got) != want {
					t.Errorf("%s?%s: %v", kind, q, got)
				}
			}
		}
		get(t, api, "/fhir/R4/Location/elsewhere", http.StatusNotFound)

		cs := get(t, c.env.Client(), "/fhir/R4/metadata", http.StatusOK)
		interactions := map[string]string{}
		for _, res := range cs["rest"].([]any)[0].(map[string]any)["resource"].([]any) {
			res := res.(map[string]any)
			js, _ := json.Marshal(res["interaction"])
			interactions[res["type"].(string)] = string(js)
		}
		for _, kind := range []string{"PractitionerRole", "Location", "Group"} {
			if !strings.Contains(interactions[kind], `"read"`) {
				t.Errorf("the CapabilityStatement does not read %s: %v", kind, interactions)
			}
		}
	})
}

// TestGroupRead: a doctor's Group says how many patients they have seen and lists them, up
// to a cap past which it is tagged SUBSETTED; a Group of no account is 404.
func TestGroupRead(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc := c.env.UserID("doc")
		at := time.Now().UTC().Add(3 * time.Hour).Truncate(time.Minute)
		if r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.nkaID, "doctor_id": doc,
			"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new"}); r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		api, _ := c.token(t, "clerk", "")
		path := fmt.Sprintf("/fhir/R4/Group/doctor-%d", doc)
		g := get(t, api, path, http.StatusOK)
		members := func(g map[string]any) []string {
			var out []string
			list, _ := g["member"].([]any)
			for _, m := range list {
				out = append(out, m.(map[string]any)["entity"].(map[string]any)["reference"].(string))
			}
			return out
		}
		want := []string{fmt.Sprintf("Patient/%d", c.patientID), fmt.Sprintf("Patient/%d", c.nkaID)}
		sort.Strings(want)
		if g["type"] != "person" || g["actual"] != true || fmt.Sprint(g["quantity"]) != "2" || !slices.Equal(members(g), want) || g["meta"] != nil ||
			g["managingEntity"].(map[string]any)["reference"] != fmt.Sprintf("Practitioner/%d", doc) {
			t.Errorf("the doctor's group: %v", g)
		}
		fhir.SetGroupMemberCap(t, 1)
		g = get(t, api, path, http.StatusOK)
		tag, _ := json.Marshal(g["meta"])
		if fmt.Sprint(g["quantity"]) != "2" || len(members(g)) != 1 || !strings.Contains(string(tag), `"code":"SUBSETTED"`) {
			t.Errorf("a group past the cap: %v", g)
		}
		empty := get(t, api, fmt.Sprintf("/fhir/R4/Group/doctor-%d", c.env.UserID("nurse")), http.StatusOK)
		if fmt.Sprint(empty["quantity"]) != "0" || empty["member"] != nil {
			t.Errorf("a group of nobody: %v", empty)
		}
		for _, id := range []string{"doctor-999999", "doctor-0", "doctor-x", "other"} {
			get(t, api, "/fhir/R4/Group/"+id, http.StatusNotFound)
		}
		admin, _ := c.token(t, "admin", "")
		admin.Header.Set("Prefer", "respond-async")
		get(t, admin, "/fhir/R4/Group/doctor-999999/$export", http.StatusNotFound)
	})
}

// parameters is a kick-off's Parameters body: name and value pairs, a value that names a
// patient as a reference, any other as a string.
func parameters(pairs ...string) map[string]any {
	var list []map[string]any
	for i := 0; i+1 < len(pairs); i += 2 {
		p := map[string]any{"name": pairs[i], "valueString": pairs[i+1]}
		if pairs[i] == "patient" {
			p = map[string]any{"name": pairs[i], "valueReference": map[string]any{"reference": pairs[i+1]}}
		}
		list = append(list, p)
	}
	return map[string]any{"resourceType": "Parameters", "parameter": list}
}

// refused kicks an export off and expects it refused with status, an OperationOutcome
// naming mention.
func refused(t *testing.T, c *apitest.Client, method, path string, body any, status int, mention string) {
	t.Helper()
	c.Header.Set("Prefer", "respond-async")
	defer c.Header.Del("Prefer")
	r := c.Do(method, path, body)
	if r.Status != status || !strings.Contains(string(r.Body), mention) {
		t.Errorf("%s %s %v: %d %s, want %d naming %s", method, path, body, r.Status, r.Body, status, mention)
		return
	}
	if oo := validResource(t, r.Body); oo["resourceType"] != "OperationOutcome" {
		t.Errorf("%s %s: %s", method, path, r.Body)
	}
}

// TestExportKickOffByPost: the POST kick-off takes its parameters in a Parameters body (or
// in the query, as Medplum's client sends them), answers as the GET one, and takes patient
// at Patient and Group level: those patients alone, each in the register and the group.
func TestExportKickOffByPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		admin, _ := c.token(t, "admin", "")
		doc := c.env.UserID("doc")
		m := exportBy(t, admin, "POST", "/fhir/R4/$export", parameters("_type", "Patient", "_type", "Practitioner", "_outputFormat", "application/fhir+ndjson"))
		if got := fmt.Sprint(kindsOf(exportLines(t, admin, m))); got != "map[Patient:2 Practitioner:4]" {
			t.Errorf("POST $export: %s", got)
		}
		if m["request"] != c.env.HTTP.URL+"/fhir/R4/$export" {
			t.Errorf("the manifest's request: %v", m["request"])
		}
		m = exportBy(t, admin, "POST", "/fhir/R4/$export?_type=Organization,Location", nil)
		if got := fmt.Sprint(kindsOf(exportLines(t, admin, m))); got != "map[Location:1 Organization:1]" {
			t.Errorf("POST $export with its parameters in the query: %s", got)
		}
		for _, tc := range []struct {
			path, patient string
		}{
			{"/fhir/R4/Patient/$export", fmt.Sprintf("Patient/%d", c.nkaID)},
			{fmt.Sprintf("/fhir/R4/Group/doctor-%d/$export", doc), fmt.Sprintf("%s/fhir/R4/Patient/%d", c.env.HTTP.URL, c.patientID)},
		} {
			lines := exportLines(t, admin, exportBy(t, admin, "POST", tc.path, parameters("patient", tc.patient, "_type", "Patient,Encounter")))
			var patients []string
			for key := range lines {
				if strings.HasPrefix(key, "Patient/") {
					patients = append(patients, key)
				}
			}
			if !slices.Equal(patients, []string{tc.patient[strings.LastIndex(tc.patient, "Patient/"):]}) {
				t.Errorf("%s of %s: %v", tc.path, tc.patient, patients)
			}
		}

		nka := fmt.Sprintf("Patient/%d", c.nkaID)
		for _, tc := range []struct {
			method, path string
			body         any
			status       int
			mention      string
		}{
			{"POST", fmt.Sprintf("/fhir/R4/Group/doctor-%d/$export", doc), parameters("patient", nka), http.StatusBadRequest, nka},
			{"POST", "/fhir/R4/Patient/$export", parameters("patient", "Patient/999999"), http.StatusBadRequest, "Patient/999999"},
			{"POST", "/fhir/R4/Patient/$export", parameters("patient", "Practitioner/1"), http.StatusBadRequest, "patient"},
			{"POST", "/fhir/R4/$export", parameters("patient", nka), http.StatusBadRequest, "patient"},
			{"GET", "/fhir/R4/Patient/$export?patient=" + nka, nil, http.StatusBadRequest, "patient"},
			{"POST", "/fhir/R4/$export", map[string]any{"resourceType": "Bundle"}, http.StatusBadRequest, "Parameters"},
			{"POST", "/fhir/R4/$export", map[string]any{"resourceType": "Parameters", "parameter": []any{map[string]any{"name": "_type"}}}, http.StatusBadRequest, "Parameters"},
			{"POST", "/fhir/R4/$export", parameters("_since", "yesterday"), http.StatusBadRequest, "_since"},
			{"POST", "/fhir/R4/$export", parameters("_type", "Specimen"), http.StatusBadRequest, "Specimen"},
			{"POST", "/fhir/R4/$export", parameters("_elements", "id"), http.StatusBadRequest, "_elements"},
			{"POST", "/fhir/R4/Group/doctor-999999/$export", parameters("_type", "Patient"), http.StatusNotFound, "doctor-999999"},
		} {
			refused(t, admin, tc.method, tc.path, tc.body, tc.status, tc.mention)
		}
		// Under lenient handling the unsupported parameters are ignored, and the kick-off's
		// answer names them (Bulk Data IG, kick-off request).
		admin.Header.Set("Prefer", "respond-async, handling=lenient")
		r := admin.Do("POST", "/fhir/R4/$export", parameters("_elements", "id"))
		admin.Header.Del("Prefer")
		if r.Status != http.StatusAccepted || r.Header.Get("Content-Location") == "" || !strings.Contains(string(r.Body), `"expression":["_elements"]`) {
			t.Errorf("lenient _elements: %d %s", r.Status, r.Body)
		} else if oo := validResource(t, r.Body); oo["resourceType"] != "OperationOutcome" {
			t.Errorf("lenient _elements: %s", r.Body)
		}
		admin.Do("DELETE", relative(t, r.Header.Get("Content-Location")), nil) // an export left running would hold the next kick-off
		// Without respond-async nothing starts, POST or GET.
		if r := admin.Do("POST", "/fhir/R4/$export", parameters("_type", "Patient")); r.Status != http.StatusBadRequest {
			t.Errorf("POST without Prefer: %d", r.Status)
		}
	})
}

// TestExportTypeFilter: _typeFilter keeps, of a type, what meets any of its queries (a
// token parameter in each of its spellings, _id, _lastUpdated), other types whole; a query
// the export cannot run is refused at the kick-off, naming it.
func TestExportTypeFilter(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		admin, _ := c.token(t, "admin", "")
		filtered := func(query string) map[string]map[string]any {
			t.Helper()
			return exportLines(t, admin, exportTo(t, admin, "/fhir/R4/$export?"+query))
		}
		lab := filtered("_type=Observation&_typeFilter=" + url.QueryEscape("Observation?category=laboratory"))
		for key, res := range lab {
			if keyOf(res) != "Observation:laboratory" {
				t.Errorf("a laboratory filter exported %s", key)
			}
		}
		if len(lab) != 1 {
			t.Errorf("laboratory results: %d", len(lab))
		}
		// Two queries are either one; _type repeated; a type without a query is whole.
		q := "_type=Observation&_type=Patient&_typeFilter=" + url.QueryEscape("Observation?code=http://loinc.org|8867-4") + "," +
			url.QueryEscape("Observation?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory")
		if got := fmt.Sprint(kindsOf(filtered(q))); got != "map[Observation:2 Patient:2]" {
			t.Errorf("%s: %s", q, got)
		}
		q = "_type=Patient,Practitioner&_typeFilter=" + url.QueryEscape("Patient?gender=female") + "&_typeFilter=" + url.QueryEscape("Practitioner?_id="+fmt.Sprint(c.env.UserID("doc")))
		if got := fmt.Sprint(kindsOf(filtered(q))); got != "map[Patient:1 Practitioner:1]" {
			t.Errorf("%s: %s", q, got)
		}
		if got := len(filtered("_type=Encounter&_typeFilter=" + url.QueryEscape("Encounter?_lastUpdated=gt2100-01-01"))); got != 0 {
			t.Errorf("nothing updated after 2100: %d", got)
		}
		// A POST body's filter.
		m := exportBy(t, admin, "POST", "/fhir/R4/$export", parameters("_type", "MedicationRequest,ServiceRequest", "_typeFilter", "ServiceRequest?status=revoked"))
		if got := fmt.Sprint(kindsOf(exportLines(t, admin, m))); got != "map[MedicationRequest:1]" {
			t.Errorf("POST with _typeFilter: %s", got)
		}

		for _, tc := range []struct{ query, mention string }{
			{"_type=Observation&_typeFilter=" + url.QueryEscape("Observation?date=2020"), "date"},
			{"_type=Observation&_typeFilter=" + url.QueryEscape("Observation?code:text=pressure"), "code:text"},
			{"_type=Observation&_typeFilter=" + url.QueryEscape("Observation?category=laboratory&_include=Observation:patient"), "_include"},
			{"_type=Observation&_typeFilter=" + url.QueryEscape("Encounter?status=finished"), "Encounter?status=finished"},
			{"_typeFilter=" + url.QueryEscape("Specimen?type=blood"), "Specimen"},
			{"_typeFilter=Observation", "Observation"},
			{"_typeFilter=" + url.QueryEscape("Observation?_lastUpdated=soon"), "_lastUpdated"},
			{"_typeFilter=" + url.QueryEscape("Observation?category=http://example.org/other|laboratory"), "http://example.org/other"},
		} {
			refused(t, admin, "GET", "/fhir/R4/$export?"+tc.query, nil, http.StatusBadRequest, tc.mention)
		}
	})
}
