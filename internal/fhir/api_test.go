package fhir_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
)

type clinic struct {
	env                         *apitest.Env
	admin, doctor, nurse, clerk *apitest.Client
	patientID, nkaID, visitID   int64
	mrn                         string
	visitAt                     time.Time // when the clinic's visit starts: its vitals are dated that day
}

func newClinic(t *testing.T, db *database.DB) *clinic {
	return newClinicWith(t, db, apitest.Config())
}

// newClinicWith is newClinic's clinic on a server configured with cfg (its time zone).
func newClinicWith(t *testing.T, db *database.DB, cfg config.Config) *clinic {
	env := apitest.NewWith(t, db, cfg)
	c := &clinic{env: env}
	c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	c.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	c.clerk = env.LoggedIn("clerk", env.CreateUser("clerk", "receptionist"))
	var p struct {
		ID  int64
		MRN string
	}
	r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Minh", "middle_name": "Van", "last_name": "Lê", "birth_date": "1970-03-02", "sex": "male",
		"phone": "0912 345 678", "civil_status": "married",
		"history": map[string]any{"allergy_status": "present", "allergies": []map[string]any{{"substance": "penicillin", "reaction": "rash", "severity": "moderate"}}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &p)
	c.patientID, c.mrn = p.ID, p.MRN
	r = c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Anna", "last_name": "Petrova", "birth_date": "1985-11-20", "sex": "female",
		"history": map[string]any{"allergy_status": "none"}})
	r.JSON(t, &p)
	c.nkaID = p.ID

	var a struct{ ID int64 }
	at := time.Now().UTC().Add(time.Hour).Truncate(time.Minute)
	r = c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": env.UserID("doc"),
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "headache"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &a)
	c.visitID, c.visitAt = a.ID, at
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	c.clerk.Do("POST", path+"/arrive", map[string]any{})
	if r := c.nurse.Do("PUT", path+"/visit/vitals", map[string]any{"version": 0, "vitals": map[string]any{
		"bp_systolic": 150, "bp_diastolic": 95, "heart_rate": 88, "temperature": 36.8, "spo2": 98, "weight": 70, "height": 175}}); r.Status != http.StatusOK {
		t.Fatalf("vitals: %d %s", r.Status, r.Body)
	}
	c.doctor.Do("POST", path+"/start", map[string]any{})
	if r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 1, "chief_complaint": "Headache",
		"vitals":    map[string]any{"bp_systolic": 150, "bp_diastolic": 95, "heart_rate": 88, "temperature": 36.8, "spo2": 98, "weight": 70, "height": 175},
		"diagnoses": []map[string]any{{"code": "I10", "primary": true}, {"text": "Tension headache"}}}); r.Status != http.StatusOK {
		t.Fatalf("visit: %d %s", r.Status, r.Body)
	}
	return c
}

// token creates an API token for username as the administrator, and a client that calls
// with it alone.
func (c *clinic) token(t *testing.T, username, scopes string) (*apitest.Client, int64) {
	t.Helper()
	var out struct {
		Token    string
		APIToken struct{ ID int64 } `json:"api_token"`
	}
	r := c.admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": c.env.UserID(username), "name": "lab link", "scopes": scopes, "expires_in_days": 30,
		"current_password": "lantern orchard 7 glacier 5"}) // the administrator's own password again
	if r.Status != http.StatusCreated {
		t.Fatalf("create token: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	if !strings.HasPrefix(out.Token, "emr_pat_") {
		t.Fatalf("token %q", out.Token)
	}
	client := c.env.Client()
	client.Header.Set("Authorization", "Bearer "+out.Token)
	return client, out.APIToken.ID
}

// get reads a FHIR answer: its status, validated as a resource, and decoded.
func get(t *testing.T, c *apitest.Client, path string, want int) map[string]any {
	t.Helper()
	r := c.Do("GET", path, nil)
	if r.Status != want {
		t.Fatalf("GET %s: %d, want %d: %s", path, r.Status, want, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/fhir+json") {
		t.Fatalf("GET %s: content type %q", path, ct)
	}
	return validResource(t, r.Body)
}

func entries(b map[string]any) []map[string]any {
	var out []map[string]any
	list, _ := b["entry"].([]any)
	for _, e := range list {
		out = append(out, e.(map[string]any)["resource"].(map[string]any))
	}
	return out
}

// ids are the ids of a bundle's resources, its OperationOutcome (a searchset's warnings) aside.
func ids(b map[string]any) []string {
	var out []string
	for _, r := range entries(b) {
		if r["resourceType"] == "OperationOutcome" {
			continue
		}
		out = append(out, r["id"].(string))
	}
	return out
}

func link(b map[string]any, rel string) string {
	list, _ := b["link"].([]any)
	for _, l := range list {
		if m := l.(map[string]any); m["relation"] == rel {
			return m["url"].(string)
		}
	}
	return ""
}

// relative turns a link into the path a test client requests.
func relative(t *testing.T, link string) string {
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func TestFHIRReadsTheClinicsRecords(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		base := "/fhir/R4"

		// The capability statement is public and says JSON.
		cs := get(t, c.env.Client(), base+"/metadata", http.StatusOK)
		if cs["fhirVersion"] != "4.0.1" || fmt.Sprint(cs["format"]) != "[json]" {
			t.Fatalf("metadata: %v", cs)
		}

		// A patient: identifier, name, gender, birth date, version and ETag.
		r := api.Do("GET", fmt.Sprintf("%s/Patient/%d", base, c.patientID), nil)
		p := validResource(t, r.Body)
		js, _ := json.Marshal(p)
		for _, want := range []string{`"family":"Lê"`, `"given":["Minh","Van"]`, `"gender":"male"`, `"birthDate":"1970-03-02"`, `"value":"` + c.mrn + `"`, `"code":"M"`} {
			if !strings.Contains(string(js), want) {
				t.Errorf("patient lacks %s: %s", want, js)
			}
		}
		if r.Header.Get("ETag") != `W/"1"` || p["meta"].(map[string]any)["versionId"] != "1" {
			t.Errorf("version: %q %v", r.Header.Get("ETag"), p["meta"])
		}

		// Searches by the patient number, with and without its system, by name and birth date.
		for _, q := range []string{"identifier=" + c.mrn, "identifier=urn:emr:mrn|" + c.mrn, "name=minh", "family=le", "given=van&gender=male",
			"birthdate=1970", "birthdate=ge1970-03-02&birthdate=lt1970-03-03", "birthdate=le1970-03-02&name=minh", fmt.Sprintf("_id=%d", c.patientID)} {
			b := get(t, api, base+"/Patient?"+q, http.StatusOK)
			if got := ids(b); !slices.Equal(got, []string{fmt.Sprint(c.patientID)}) {
				t.Errorf("Patient?%s found %v", q, got)
			}
			if b["type"] != "searchset" || !strings.HasPrefix(entriesFull(b), "http") {
				t.Errorf("Patient?%s bundle: %v", q, b)
			}
		}
		for _, q := range []string{"identifier=other|" + c.mrn, "birthdate=gt1970-03-02&name=minh", "gender=female&name=minh", "_id=999999"} {
			if got := ids(get(t, api, base+"/Patient?"+q, http.StatusOK)); len(got) != 0 {
				t.Errorf("Patient?%s found %v", q, got)
			}
		}

		// Allergies as recorded: the listed one, and "no known allergy" as its standard code.
		b := get(t, api, fmt.Sprintf("%s/AllergyIntolerance?patient=Patient/%d", base, c.patientID), http.StatusOK)
		if got := entries(b); len(got) != 1 || got[0]["code"].(map[string]any)["text"] != "penicillin" {
			t.Errorf("allergies: %v", got)
		}
		b = get(t, api, fmt.Sprintf("%s/AllergyIntolerance?patient=%d", base, c.nkaID), http.StatusOK)
		if js, _ := json.Marshal(entries(b)); !strings.Contains(string(js), `"716186003"`) {
			t.Errorf("no known allergy: %s", js)
		}
		get(t, api, fmt.Sprintf("%s/AllergyIntolerance/%d-1", base, c.patientID), http.StatusOK)

		// The visit: an encounter, its diagnoses (ICD-10) and vital signs (LOINC, UCUM).
		enc := get(t, api, fmt.Sprintf("%s/Encounter/%d", base, c.visitID), http.StatusOK)
		if enc["status"] != "in-progress" {
			t.Errorf("encounter: %v", enc)
		}
		b = get(t, api, fmt.Sprintf("%s/Condition?patient=%d", base, c.patientID), http.StatusOK)
		if js, _ := json.Marshal(entries(b)); len(entries(b)) != 2 || !strings.Contains(string(js), `{"code":"I10","system":"http://hl7.org/fhir/sid/icd-10"}`) ||
			!strings.Contains(string(js), `"provisional"`) {
			t.Errorf("conditions: %s", js)
		}
		// A corrected birth date versions the visit (its vitals' flags are by age), but a diagnosis
		// stays recorded when it was (recordedDate: first recorded).
		recorded := entries(b)[0]["recordedDate"]
		var pat map[string]any
		c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", c.patientID), nil).JSON(t, &pat)
		born, _ := time.Parse(time.DateOnly, pat["birth_date"].(string))
		pat["birth_date"] = born.AddDate(0, 0, -1).Format(time.DateOnly)
		if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", c.patientID), pat); r.Status != http.StatusOK {
			t.Fatalf("correct the birth date: %d %s", r.Status, r.Body)
		}
		if again := entries(get(t, api, fmt.Sprintf("%s/Condition?patient=%d", base, c.patientID), http.StatusOK)); again[0]["recordedDate"] != recorded ||
			again[0]["meta"].(map[string]any)["versionId"] == entries(b)[0]["meta"].(map[string]any)["versionId"] {
			t.Errorf("after the birth date's correction: recordedDate %v (was %v), meta %v", again[0]["recordedDate"], recorded, again[0]["meta"])
		}
		// A diagnosis added at a later save is recorded then; those the form had keep their day
		// (the same code and words, sent back with or without a time of their own).
		var form struct {
			Version   int
			Diagnoses []map[string]any
		}
		c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/visit", c.visitID), nil).JSON(t, &form)
		if len(form.Diagnoses) != 2 || form.Diagnoses[0]["recorded_at"] == nil {
			t.Fatalf("the form's diagnoses: %v", form.Diagnoses)
		}
		form.Diagnoses[1]["recorded_at"] = "2001-01-01T00:00:00Z" // a client's is not taken
		later := append(form.Diagnoses, map[string]any{"text": "Insomnia", "recorded_at": "2001-01-01T00:00:00Z"})
		if r := c.doctor.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit", c.visitID), map[string]any{"version": form.Version, "diagnoses": later}); r.Status != http.StatusOK {
			t.Fatalf("a diagnosis added: %d %s", r.Status, r.Body)
		}
		added := map[string]string{}
		for _, e := range entries(get(t, api, fmt.Sprintf("%s/Condition?patient=%d", base, c.patientID), http.StatusOK)) {
			added[e["code"].(map[string]any)["text"].(string)] = e["recordedDate"].(string)
		}
		if added["Tension headache"] != recorded || added["Insomnia"] <= recorded.(string) || len(added) != 3 {
			t.Errorf("recordedDate after a diagnosis was added: %v (the first %v)", added, recorded)
		}
		b = get(t, api, fmt.Sprintf("%s/Observation?subject=Patient/%d&category=vital-signs", base, c.patientID), http.StatusOK)
		obs := entries(b)
		js, _ = json.Marshal(obs)
		for _, want := range []string{`"code":"85354-9"`, `"code":"8480-6"`, `"value":150`, `"code":"mm[Hg]"`, `"code":"Cel"`, `"code":"kg/m2"`, `"code":"/min"`, `"code":"vital-signs"`} {
			if !strings.Contains(string(js), want) {
				t.Errorf("observations lack %s: %s", want, js)
			}
		}
		b = get(t, api, fmt.Sprintf("%s/Observation?patient=%d&code=http://loinc.org|29463-7", base, c.patientID), http.StatusOK)
		if got := ids(b); !slices.Equal(got, []string{fmt.Sprintf("%d-weight", c.visitID)}) {
			t.Errorf("weight: %v", got)
		}
		// Each vital sign carries the server's flag for the patient's age on the visit's day as
		// its interpretation (HL7 v3 ObservationInterpretation): an adult's 150/95 is high (ESH 2023).
		for part, want := range map[string]string{"bp": "H", "hr": "N", "temp": "N", "spo2": "N", "weight": "", "bmi": ""} {
			o := get(t, api, fmt.Sprintf("%s/Observation/%d-%s", base, c.visitID, part), http.StatusOK)
			js, _ := json.Marshal(o["interpretation"])
			if want == "" && o["interpretation"] != nil ||
				want != "" && !strings.Contains(string(js), `"code":"`+want+`"`) || want != "" && !strings.Contains(string(js), "v3-ObservationInterpretation") {
				t.Errorf("%s interpretation: %s, want %q", part, js, want)
			}
		}
		bp := get(t, api, fmt.Sprintf("%s/Observation/%d-bp", base, c.visitID), http.StatusOK)
		if js, _ := json.Marshal(bp["component"]); strings.Count(string(js), `"code":"H"`) != 2 {
			t.Errorf("blood pressure components' interpretations: %s", js)
		}

		// Every read is in the audit log, as the token's user's.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.read' AND actor_name = 'doc' AND entity_id = $1`,
			fmt.Sprint(c.patientID)); n != 1 {
			t.Errorf("audited patient reads: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.observation.list' AND actor_name = 'doc'`); n < 2 {
			t.Errorf("audited observation searches: %d", n)
		}
		// A search of observations (vital signs and results) is filed under observations,
		// not under one of the kinds of record they are made from.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.observation.list' AND entity_type <> 'observation'`); n != 0 {
			t.Errorf("observation searches filed under another record type: %d", n)
		}
	})
}

func entriesFull(b map[string]any) string {
	list, _ := b["entry"].([]any)
	if len(list) == 0 {
		return ""
	}
	s, _ := list[0].(map[string]any)["fullUrl"].(string)
	return s
}

// TestFHIRPagesNeverRepeatOrSkip pages through the register two at a time while patients
// are registered between pages: every patient there was at the start is seen exactly
// once, forwards and back.
func TestFHIRPagesNeverRepeatOrSkip(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "clerk", "")
		register := func(i int) {
			if r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": fmt.Sprintf("Page%d", i), "last_name": "Walker",
				"birth_date": "1990-01-01", "sex": "female"}); r.Status != http.StatusCreated {
				t.Fatalf("register: %d %s", r.Status, r.Body)
			}
		}
		for i := range 5 {
			register(i)
		}
		var seen []string
		path := "/fhir/R4/Patient?name=walker&_count=2"
		var pages []map[string]any
		for path != "" {
			b := get(t, api, path, http.StatusOK)
			if n := len(entries(b)); n > 2 {
				t.Fatalf("a page of %d entries for _count=2", n)
			}
			pages = append(pages, b)
			seen = append(seen, ids(b)...)
			register(100 + len(pages)) // added while paging: later, never twice
			path = ""
			if next := link(b, "next"); next != "" {
				path = relative(t, next)
			}
		}
		sorted := slices.Clone(seen)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(seen) || len(seen) < 5 {
			t.Fatalf("pages repeated or missed patients: %v", seen)
		}
		// Back from the last page: the same entries, page by page.
		prev := link(pages[len(pages)-1], "previous")
		for i := len(pages) - 2; i >= 0 && prev != ""; i-- {
			b := get(t, api, relative(t, prev), http.StatusOK)
			if !slices.Equal(ids(b), ids(pages[i])) {
				t.Fatalf("previous page %d: %v, was %v", i, ids(b), ids(pages[i]))
			}
			prev = link(b, "previous")
		}
		// Newest first.
		b := get(t, api, "/fhir/R4/Patient?name=walker&_sort=-_id&_count=3&_total=accurate", http.StatusOK)
		got := ids(b)
		if len(got) != 3 || got[0] < got[1] && len(got[0]) == len(got[1]) || b["total"] == nil {
			t.Fatalf("descending: %v total %v", got, b["total"])
		}
	})
}

// TestFHIRErrorsAreOperationOutcomes: every refusal is an OperationOutcome in the caller's
// language, naming the parameter at fault.
func TestFHIRErrorsAreOperationOutcomes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		cases := []struct {
			path       string
			header     map[string]string
			status     int
			code, expr string
		}{
			{"/fhir/R4/Patient/999999", nil, 404, "not-found", ""},
			{"/fhir/R4/Patient/abc", nil, 404, "not-found", ""},
			{"/fhir/R4/Patient?birthdate=1970-02-30", nil, 400, "invalid", "birthdate"},
			{"/fhir/R4/Patient?birthdate=ne1970", nil, 400, "invalid", "birthdate"},
			{"/fhir/R4/Patient?gender=mail", nil, 400, "invalid", "gender"},
			{"/fhir/R4/Patient?_count=x", nil, 400, "invalid", "_count"},
			{"/fhir/R4/Patient?_sort=birthdate", nil, 400, "invalid", "_sort"},
			{"/fhir/R4/Patient?_cursor=not-a-cursor!", nil, 400, "invalid", "_cursor"},
			{"/fhir/R4/Patient?colour=red", map[string]string{"Prefer": "handling=strict"}, 400, "invalid", "colour"},
			{"/fhir/R4/Patient?name:contains=mi", nil, 400, "invalid", "name:contains"},
			{"/fhir/R4/Patient", map[string]string{"Accept": "application/fhir+xml"}, 406, "not-supported", ""},
			{"/fhir/R4/Patient?_format=xml", nil, 406, "not-supported", "_format"},
			{"/fhir/R4/Medication/1", nil, 404, "not-supported", ""},
		}
		for _, tc := range cases {
			for k, v := range tc.header {
				api.Header.Set(k, v)
			}
			b := get(t, api, tc.path, tc.status)
			for k := range tc.header {
				api.Header.Del(k)
			}
			issue := b["issue"].([]any)[0].(map[string]any)
			if b["resourceType"] != "OperationOutcome" || issue["code"] != tc.code || issue["diagnostics"] == "" {
				t.Errorf("%s: %v", tc.path, b)
			}
			if tc.expr != "" && fmt.Sprint(issue["expression"]) != "["+tc.expr+"]" {
				t.Errorf("%s: expression %v", tc.path, issue["expression"])
			}
		}
		// An unknown parameter is ignored without strict handling, and left out of self
		// (TestUnsupportedParameters: and named in the searchset's OperationOutcome).
		b := get(t, api, "/fhir/R4/Patient?colour=red&family=le", http.StatusOK)
		if len(matched(b)) != 1 || strings.Contains(link(b, "self"), "colour") {
			t.Errorf("lenient: %v", b)
		}
		// In the caller's language.
		api.Header.Set("Accept-Language", "vi")
		b = get(t, api, "/fhir/R4/Patient?gender=mail", 400)
		if d := b["issue"].([]any)[0].(map[string]any)["diagnostics"].(string); !strings.Contains(d, "không hợp lệ") {
			t.Errorf("Vietnamese: %q", d)
		}
	})
}

// TestTokensAreTheirUsers: a token can do what its user may, narrowed by its scopes, on the
// FHIR API and the native one (without CSRF); never with a cookie besides, never once
// revoked, and never to manage tokens.
func TestTokensAreTheirUsers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		clerk, _ := c.token(t, "clerk", "")
		vitals := fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.patientID)
		patient := fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID)
		// The receptionist's token reads patients, not visits.
		get(t, clerk, patient, http.StatusOK)
		get(t, clerk, vitals, http.StatusForbidden)
		// The nurse's token reads vital signs.
		nurse, _ := c.token(t, "nurse", "")
		get(t, nurse, vitals, http.StatusOK)

		// Scopes narrow a token per type and interaction; a scoped token is the FHIR API's only.
		scoped, _ := c.token(t, "doc", "user/Patient.r user/Observation.s")
		get(t, scoped, patient, http.StatusOK)
		get(t, scoped, "/fhir/R4/Patient?name=minh", http.StatusForbidden)
		get(t, scoped, vitals, http.StatusOK)
		get(t, scoped, fmt.Sprintf("/fhir/R4/Condition?patient=%d", c.patientID), http.StatusForbidden)
		if r := scoped.Do("GET", "/api/patients", nil); r.Status != http.StatusForbidden {
			t.Errorf("scoped token on the native API: %d", r.Status)
		}

		// An unscoped token calls the native API, writes included, with no CSRF token.
		r := clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Token", "last_name": "Made", "birth_date": "2000-01-01", "sex": "other"})
		if r.Status != http.StatusCreated {
			t.Fatalf("write with a token: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.create' AND actor_name = 'clerk'`); n != 3 {
			t.Errorf("the token's write audited as its user's: %d", n)
		}
		// Never a cookie besides.
		both := c.env.LoggedIn("clerk", "lantern orchard 7 glacier 5")
		both.Header.Set("Authorization", clerk.Header.Get("Authorization"))
		if r := both.Do("GET", "/api/patients", nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("token and cookie: %d", r.Status)
		}
		// Never to manage tokens.
		if r := clerk.Do("GET", "/api/profile/api-tokens", nil); r.Status != http.StatusForbidden {
			t.Errorf("tokens listed with a token: %d", r.Status)
		}
		// Bad scopes are refused when the token is made.
		if r := c.admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": c.env.UserID("doc"), "name": "x", "scopes": "system/*.rs"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("system scope for a user's token: %d %s", r.Status, r.Body)
		}

		// Revoked: refused at once; the account holder revokes their own.
		own := c.doctor.Do("POST", "/api/profile/api-tokens", map[string]any{"name": "my script", "current_password": "lantern orchard 7 glacier 3"})
		var made struct {
			Token    string
			APIToken struct{ ID int64 } `json:"api_token"`
		}
		own.JSON(t, &made)
		mine := c.env.Client()
		mine.Header.Set("Authorization", "Bearer "+made.Token)
		get(t, mine, patient, http.StatusOK)
		if r := c.doctor.Do("DELETE", fmt.Sprintf("/api/profile/api-tokens/%d", made.APIToken.ID), nil); r.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		b := get(t, mine, patient, http.StatusUnauthorized)
		if b["issue"].([]any)[0].(map[string]any)["code"] != "login" {
			t.Errorf("revoked: %v", b)
		}
		// Another's token is not the account holder's to revoke.
		_, clerkToken := c.token(t, "clerk", "")
		if r := c.doctor.Do("DELETE", fmt.Sprintf("/api/profile/api-tokens/%d", clerkToken), nil); r.Status != http.StatusNotFound {
			t.Errorf("revoked another's token: %d", r.Status)
		}
		// The administrator's list names each token's account and its last use.
		var list struct {
			Data []struct {
				Username   string  `json:"username"`
				LastUsedAt *string `json:"last_used_at"`
				RevokedAt  *string `json:"revoked_at"`
			}
		}
		c.admin.Do("GET", "/api/api-tokens", nil).JSON(t, &list)
		used := 0
		for _, k := range list.Data {
			if k.LastUsedAt != nil {
				used++
			}
		}
		if len(list.Data) != 5 || used != 4 {
			t.Errorf("tokens listed: %+v", list.Data)
		}
	})
}

// send writes a FHIR resource with headers and returns the answer, validated.
func send(t *testing.T, c *apitest.Client, method, path string, body any, header map[string]string, want int) (map[string]any, apitest.Response) {
	t.Helper()
	js, _ := json.Marshal(body)
	for k, v := range header {
		c.Header.Set(k, v)
	}
	c.Header.Set("Content-Type", "application/fhir+json")
	r := c.Do(method, path, js)
	for k := range header {
		c.Header.Del(k)
	}
	c.Header.Del("Content-Type")
	if r.Status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	if len(r.Body) == 0 {
		return nil, r
	}
	return validResource(t, r.Body), r
}

// newPatientResource is a patient to register; each family name has its own phone number.
func newPatientResource(family string) map[string]any {
	phone := "0903 111 222"
	if family != "Tran" {
		h := fnv.New32a()
		h.Write([]byte(family))
		phone = fmt.Sprintf("0912 %06d", h.Sum32()%1000000)
	}
	return map[string]any{"resourceType": "Patient", "name": []any{map[string]any{"family": family, "given": []string{"Thi", "Lan"}}},
		"gender": "female", "birthDate": "1992-05-17", "telecom": []any{map[string]any{"system": "phone", "value": phone}}}
}

// TestFHIRWritesKeepTheRegistersRules: a Patient written through FHIR goes through the
// register's rules (validation, the duplicate check, the audit, the version counter shared
// with the web app), every version is kept for vread and _history, and a conditional create
// makes one patient however many clients send it at once.
func TestFHIRWritesKeepTheRegistersRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "clerk", "")
		base := "/fhir/R4"

		p, r := send(t, api, "POST", base+"/Patient", newPatientResource("Tran"), nil, http.StatusCreated)
		id := p["id"].(string)
		if !strings.HasSuffix(r.Header.Get("Location"), "/Patient/"+id+"/_history/1") || r.Header.Get("ETag") != `W/"1"` {
			t.Fatalf("created: %v %v", r.Header, p)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.create' AND entity_id = $1 AND actor_name = 'clerk'`, id); n != 1 {
			t.Errorf("audited creates: %d", n)
		}
		// The same person again is a possible duplicate: refused, as in the web app.
		send(t, api, "POST", base+"/Patient", newPatientResource("Tran"), nil, http.StatusConflict)
		// Bad input: nothing written, the element named.
		bad := newPatientResource("Vo")
		bad["birthDate"] = "2999-01-01"
		oo, _ := send(t, api, "POST", base+"/Patient", bad, nil, http.StatusBadRequest)
		if fmt.Sprint(oo["issue"].([]any)[0].(map[string]any)["expression"]) != "[Patient.birthDate]" {
			t.Errorf("future birth date: %v", oo)
		}
		unknown := newPatientResource("Vo")
		unknown["modifierExtension"] = []any{map[string]any{"url": "https://example.org/fhir/not-this-person", "valueBoolean": true}}
		send(t, api, "POST", base+"/Patient", unknown, nil, http.StatusUnprocessableEntity)

		// An update needs the version it changes; a stale one is 412 and changes nothing.
		p["telecom"] = []any{map[string]any{"system": "phone", "value": "0903 999 000"}}
		send(t, api, "PUT", base+"/Patient/"+id, p, nil, http.StatusPreconditionRequired)
		p2, r := send(t, api, "PUT", base+"/Patient/"+id, p, map[string]string{"If-Match": `W/"1"`}, http.StatusOK)
		if r.Header.Get("ETag") != `W/"2"` || p2["meta"].(map[string]any)["versionId"] != "2" {
			t.Fatalf("updated: %v %v", r.Header, p2)
		}
		send(t, api, "PUT", base+"/Patient/"+id, p, map[string]string{"If-Match": `W/"1"`}, http.StatusPreconditionFailed)
		// The web app's edit moves the same counter: FHIR's If-Match on version 2 is stale after it.
		var native map[string]any
		c.clerk.Do("GET", "/api/patients/"+id, nil).JSON(t, &native)
		native["remarks"] = "prefers mornings"
		if r := c.clerk.Do("PUT", "/api/patients/"+id, native); r.Status != http.StatusOK {
			t.Fatalf("native edit: %d %s", r.Status, r.Body)
		}
		send(t, api, "PUT", base+"/Patient/"+id, p, map[string]string{"If-Match": `W/"2"`}, http.StatusPreconditionFailed)
		// What FHIR does not carry (the remarks) is kept by a FHIR update.
		send(t, api, "PUT", base+"/Patient/"+id, p, map[string]string{"If-Match": `W/"3"`}, http.StatusOK)
		c.clerk.Do("GET", "/api/patients/"+id, nil).JSON(t, &native)
		if native["remarks"] != "prefers mornings" || native["version"].(float64) != 4 {
			t.Errorf("after a FHIR update: %v", native)
		}

		// Every version is kept: vread and the instance's history, newest first.
		v1 := get(t, api, base+"/Patient/"+id+"/_history/1", http.StatusOK)
		if js, _ := json.Marshal(v1); !strings.Contains(string(js), "0903 111 222") {
			t.Errorf("version 1: %s", js)
		}
		h := get(t, api, base+"/Patient/"+id+"/_history?_count=3", http.StatusOK)
		var versions []string
		for _, e := range entries(h) {
			versions = append(versions, e["meta"].(map[string]any)["versionId"].(string))
		}
		if h["type"] != "history" || !slices.Equal(versions, []string{"4", "3", "2"}) || link(h, "next") == "" {
			t.Fatalf("history: %v %v", versions, h["link"])
		}
		rest := get(t, api, relative(t, link(h, "next")), http.StatusOK)
		if len(entries(rest)) != 1 || entries(rest)[0]["meta"].(map[string]any)["versionId"] != "1" {
			t.Errorf("history's next page: %v", ids(rest))
		}
		get(t, api, base+"/Patient/"+id+"/_history/9", http.StatusNotFound)
		th := get(t, api, base+"/Patient/_history?_count=2", http.StatusOK)
		if len(entries(th)) != 2 || entries(th)[0]["id"] != id {
			t.Errorf("type history: %v", ids(th))
		}

		// A conditional create sent by 8 clients at once makes one patient.
		cond := newPatientResource("Nguyen")
		cond["name"] = []any{map[string]any{"family": "Conditional", "given": []string{"Once"}}}
		js, _ := json.Marshal(cond)
		statuses := make(chan int, 8)
		for range 8 {
			go func() {
				req, _ := http.NewRequest("POST", c.env.HTTP.URL+base+"/Patient", strings.NewReader(string(js)))
				req.Header.Set("Authorization", api.Header.Get("Authorization"))
				req.Header.Set("Content-Type", "application/fhir+json")
				req.Header.Set("If-None-Exist", "family=conditional&given=once&birthdate=1992-05-17")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					statuses <- 0
					return
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			}()
		}
		var got []int
		for range 8 {
			got = append(got, <-statuses)
		}
		slices.Sort(got)
		if !slices.Equal(got, []int{200, 200, 200, 200, 200, 200, 200, 201}) {
			t.Errorf("parallel conditional creates: %v", got)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = 'Conditional'`); n != 1 {
			t.Errorf("patients made: %d", n)
		}
		// A scope without create refuses the write.
		reader, _ := c.token(t, "clerk", "user/Patient.rs")
		send(t, reader, "POST", base+"/Patient", newPatientResource("Scoped"), nil, http.StatusForbidden)
	})
}

// TestFHIRBatchAndTransaction: a transaction is all or nothing (one bad entry writes none),
// with urn:uuid references resolved; a batch takes each entry on its own; both refuse more
// entries than they may hold.
func TestFHIRBatchAndTransaction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "clerk", "")
		entry := func(urn string, res map[string]any, method, url string, extra map[string]string) map[string]any {
			req := map[string]any{"method": method, "url": url}
			for k, v := range extra {
				req[k] = v
			}
			e := map[string]any{"request": req}
			if urn != "" {
				e["fullUrl"] = urn
			}
			if res != nil {
				e["resource"] = res
			}
			return e
		}
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`)
		bad := newPatientResource("Broken")
		bad["gender"] = "mail"
		tx := map[string]any{"resourceType": "Bundle", "type": "transaction", "entry": []any{
			entry("urn:uuid:0c3f2f7e-1111-4a5b-9c0d-000000000001", newPatientResource("Alpha"), "POST", "Patient", nil),
			entry("", bad, "POST", "Patient", nil),
		}}
		oo, _ := send(t, api, "POST", "/fhir/R4", tx, nil, http.StatusBadRequest)
		if !strings.Contains(fmt.Sprint(oo["issue"]), "Bundle.entry[1]") {
			t.Errorf("failed transaction: %v", oo)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); n != before {
			t.Fatalf("a failed transaction wrote %d patients", n-before)
		}
		// The same with the bad entry fixed: both written, and the read of the first by its urn:uuid.
		urn := "urn:uuid:0c3f2f7e-1111-4a5b-9c0d-000000000001"
		good := newPatientResource("Beta")
		good["birthDate"] = "1990-01-02"
		tx["entry"] = []any{entry(urn, newPatientResource("Alpha"), "POST", "Patient", nil), entry("", good, "POST", "Patient", nil), entry("", nil, "GET", urn, nil)}
		resp, _ := send(t, api, "POST", "/fhir/R4", tx, nil, http.StatusOK)
		list := resp["entry"].([]any)
		if resp["type"] != "transaction-response" || len(list) != 3 {
			t.Fatalf("transaction: %v", resp)
		}
		first := list[0].(map[string]any)
		if first["response"].(map[string]any)["status"] != "201 Created" {
			t.Errorf("first entry: %v", first)
		}
		read := list[2].(map[string]any)
		if read["response"].(map[string]any)["status"] != "200 OK" || read["resource"].(map[string]any)["id"] != first["resource"].(map[string]any)["id"] {
			t.Errorf("the read of the urn:uuid: %v", read)
		}
		// A batch: each entry alone — the good ones written, the bad one answered with its outcome.
		batch := map[string]any{"resourceType": "Bundle", "type": "batch", "entry": []any{
			entry("", func() map[string]any { p := newPatientResource("Gamma"); p["birthDate"] = "1991-01-01"; return p }(), "POST", "Patient", nil),
			entry("", bad, "POST", "Patient", nil),
			entry("", newPatientResource("Delta"), "POST", "Condition", nil),
			entry("", nil, "GET", fmt.Sprintf("Patient/%d", c.patientID), nil),
		}}
		resp, _ = send(t, api, "POST", "/fhir/R4", batch, nil, http.StatusOK)
		var statuses []string
		for _, e := range resp["entry"].([]any) {
			statuses = append(statuses, e.(map[string]any)["response"].(map[string]any)["status"].(string))
		}
		if !slices.Equal(statuses, []string{"201 Created", "400 Bad Request", "405 Method Not Allowed", "200 OK"}) {
			t.Errorf("batch: %v", statuses)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name IN ('Alpha', 'Beta', 'Gamma')`); n != 3 {
			t.Errorf("patients written: %d", n)
		}
		// A reader's token writes nothing in a batch either.
		reader, _ := c.token(t, "clerk", "user/Patient.rs")
		resp, _ = send(t, reader, "POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "batch",
			"entry": []any{entry("", newPatientResource("Epsilon"), "POST", "Patient", nil)}}, nil, http.StatusOK)
		if s := resp["entry"].([]any)[0].(map[string]any)["response"].(map[string]any)["status"]; s != "403 Forbidden" {
			t.Errorf("scoped batch write: %v", s)
		}
		// Too many entries: refused whole, with the numbers.
		many := make([]any, 1001)
		for i := range many {
			many[i] = entry("", nil, "GET", "Patient/1", nil)
		}
		oo, _ = send(t, api, "POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "batch", "entry": many}, nil, http.StatusRequestEntityTooLarge)
		if !strings.Contains(fmt.Sprint(oo["issue"]), "1000") {
			t.Errorf("too many: %v", oo)
		}
	})
}

// exportTo kicks an export off and polls it to its manifest.
func exportTo(t *testing.T, c *apitest.Client, path string) map[string]any {
	t.Helper()
	return exportBy(t, c, "GET", path, nil)
}

// exportBy kicks an export off with method (a POST's parameters in body) and polls it to its
// manifest.
func exportBy(t *testing.T, c *apitest.Client, method, path string, body any) map[string]any {
	t.Helper()
	c.Header.Set("Prefer", "respond-async")
	c.Header.Set("Accept", "application/fhir+json")
	r := c.Do(method, path, body)
	c.Header.Del("Prefer")
	c.Header.Del("Accept")
	if r.Status != http.StatusAccepted || r.Header.Get("Content-Location") == "" {
		t.Fatalf("kick-off %s: %d %s", path, r.Status, r.Body)
	}
	status := relative(t, r.Header.Get("Content-Location"))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r = c.Do("GET", status, nil)
		switch r.Status {
		case http.StatusAccepted:
			time.Sleep(20 * time.Millisecond) // polling, as a client does (Retry-After says 2 s)
			continue
		case http.StatusOK:
			var m map[string]any
			r.JSON(t, &m)
			m["status"] = status
			return m
		default:
			t.Fatalf("status %s: %d %s", status, r.Status, r.Body)
		}
	}
	t.Fatalf("export %s did not finish", path)
	return nil
}

// ndjson downloads an export's file and validates each line.
func ndjson(t *testing.T, c *apitest.Client, url string) []map[string]any {
	t.Helper()
	r := c.Do("GET", relative(t, url), nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/fhir+ndjson" {
		t.Fatalf("file %s: %d %s", url, r.Status, r.Header.Get("Content-Type"))
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(r.Body)), "\n") {
		out = append(out, validResource(t, []byte(line)))
	}
	return out
}

// TestBulkExport: the system, Patient and Group kick-offs run in the background and end in a
// manifest whose NDJSON files, served only to their requester, hold valid resources; _type
// and _since narrow it; a caller exports only what they may read; DELETE cancels.
func TestBulkExport(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "admin", "") // a whole-clinic export needs "export records", the administrator's by default
		m := exportTo(t, doc, "/fhir/R4/$export")
		counts := map[string]int{}
		for _, o := range m["output"].([]any) {
			o := o.(map[string]any)
			lines := ndjson(t, doc, o["url"].(string))
			if len(lines) != int(o["count"].(float64)) {
				t.Errorf("%s: %d lines, manifest says %v", o["type"], len(lines), o["count"])
			}
			for _, l := range lines {
				if l["resourceType"] != o["type"] {
					t.Errorf("a %v in the %v file", l["resourceType"], o["type"])
				}
			}
			counts[o["type"].(string)] = len(lines)
		}
		// Two patients (one allergy, one "no known allergy"), one visit: 2 diagnoses, 7 vital
		// signs; the four staff, the clinic and its premises.
		want := map[string]int{"Patient": 2, "AllergyIntolerance": 2, "Encounter": 1, "Appointment": 1, "Condition": 2, "Observation": 7,
			"Practitioner": 4, "PractitionerRole": 4, "Organization": 1, "Location": 1}
		// A forecast at most per patient: whether an adult's says anything is the shipped
		// schedules' matter (TestFHIRImmunizations asks for a child's).
		if counts["ImmunizationRecommendation"] > 2 {
			t.Errorf("%d forecasts of 2 patients", counts["ImmunizationRecommendation"])
		}
		delete(counts, "ImmunizationRecommendation")
		if fmt.Sprint(counts) != fmt.Sprint(want) || m["requiresAccessToken"] != true {
			t.Errorf("exported %v, want %v (%v)", counts, want, m)
		}
		// Only its requester sees it: one without the export permission is refused before the
		// job is looked up (another credential that has it gets 404: access_test.go).
		other, _ := c.token(t, "nurse", "")
		if r := other.Do("GET", m["status"].(string), nil); r.Status != http.StatusForbidden {
			t.Errorf("another's export status: %d", r.Status)
		}
		if r := other.Do("GET", relative(t, m["output"].([]any)[0].(map[string]any)["url"].(string)), nil); r.Status != http.StatusForbidden {
			t.Errorf("another's export file: %d", r.Status)
		}
		// _type and _since; the Group of a doctor's patients.
		since := time.Now().UTC().Add(time.Hour).Format(time.RFC3339)
		m = exportTo(t, doc, "/fhir/R4/Patient/$export?_type=Patient&_since="+url.QueryEscape(since))
		if len(m["output"].([]any)) != 0 {
			t.Errorf("nothing changed since an hour ahead: %v", m["output"])
		}
		m = exportTo(t, doc, fmt.Sprintf("/fhir/R4/Group/doctor-%d/$export?_type=Patient,Encounter", c.env.UserID("doc")))
		outs := m["output"].([]any)
		if len(outs) != 2 || outs[0].(map[string]any)["count"].(float64) != 1 {
			t.Errorf("the doctor's patients: %v", outs)
		}
		// A receptionist exports nothing (the export permission: TestExportFollowsTheAccessTable);
		// without respond-async, nothing starts.
		clerk, _ := c.token(t, "clerk", "")
		clerk.Header.Set("Prefer", "respond-async")
		get(t, clerk, "/fhir/R4/$export?_type=Patient", http.StatusForbidden)
		clerk.Header.Del("Prefer")
		get(t, doc, "/fhir/R4/$export?_type=Patient", http.StatusBadRequest)
		// Cancelled: gone.
		m = exportTo(t, doc, "/fhir/R4/$export?_type=Patient")
		if r := doc.Do("DELETE", m["status"].(string), nil); r.Status != http.StatusAccepted {
			t.Fatalf("cancel: %d", r.Status)
		}
		get(t, doc, m["status"].(string), http.StatusNotFound)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.bulk_file.download' AND actor_name = 'admin'`); n < 5 {
			t.Errorf("downloads audited: %d", n)
		}
	})
}

// wholeRecord gives the clinic's first patient's visit a lab order with its result, a
// prescription and a certificate, signs the visit, and records a medicine the patient takes.
func (c *clinic) wholeRecord(t *testing.T) {
	t.Helper()
	path := fmt.Sprintf("/api/appointments/%d", c.visitID)
	r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 2, "chief_complaint": "Headache",
		"vitals":    map[string]any{"bp_systolic": 150, "bp_diastolic": 95, "heart_rate": 88, "temperature": 36.8, "spo2": 98, "weight": 70, "height": 175},
		"diagnoses": []map[string]any{{"code": "I10", "primary": true}, {"text": "Tension headache"}},
		"orders":    []map[string]any{{"code": "BMP", "note": "fasting"}, {"code": "XR-CHEST"}, {"code": "ECG"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("order: %d %s", r.Status, r.Body)
	}
	var orders struct {
		Data []struct {
			ID      int64
			Test    string
			Version int
		}
	}
	c.nurse.Do("GET", path+"/orders", nil).JSON(t, &orders)
	// A laboratory result, an imaging study's report and an ECG's: one Observation of each
	// category of results, and a report of each kind.
	results := map[string]map[string]any{"BMP": {"analyte": "GLU", "value": "126", "unit": "mg/dL"},
		"XR-CHEST": {"analyte": "REPORT", "text": "No focal consolidation."}, "ECG": {"analyte": "REPORT", "text": "Sinus rhythm, 72/min."}}
	for _, o := range orders.Data {
		c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		if r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": o.Version + 1, "final": true,
			"results": []map[string]any{results[o.Test]}}); r.Status != http.StatusOK {
			t.Fatalf("result of %s: %d %s", o.Test, r.Status, r.Body)
		}
	}
	if r := c.doctor.Do("POST", path+"/prescriptions", map[string]any{"items": []any{map[string]any{"medicine": "Cetirizine 10 mg tablet", "dose": "1 tablet",
		"frequency": "once daily", "duration": "5 days", "quantity": "5", "unit": "tablet"}}}); r.Status != http.StatusCreated {
		t.Fatalf("prescription: %d %s", r.Status, r.Body)
	}
	c.doctor.Do("POST", path+"/visit/sign", map[string]any{"version": 3})
	// A medicine the patient takes, prescribed elsewhere: a MedicationStatement.
	if r := c.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", c.patientID), map[string]any{"medicine": "Amlodipine 5 mg tablet",
		"dose": "1 tablet", "frequency": "once daily", "source": "elsewhere", "prescriber": "Dr Tran", "started_on": "2024-03"}); r.Status != http.StatusCreated {
		t.Fatalf("medicine taken: %d %s", r.Status, r.Body)
	}
	// A vaccine given at the visit: an Immunization.
	vax, _ := aVaccine()
	c.immunise(t, c.patientID, map[string]any{"vaccine": vax.Key, "dose_number": 1, "given_by": c.env.UserID("doc"), "appointment_id": c.visitID,
		"lot": "TD-1", "site": "left_arm", "route": "IM"})
	var templates struct{ Data []struct{ ID int64 } }
	c.doctor.Do("GET", "/api/document-templates?kind=medical_certificate&language=en", nil).JSON(t, &templates)
	if r := c.doctor.Do("POST", "/api/documents", map[string]any{"template_id": templates.Data[0].ID, "patient_id": c.patientID, "appointment_id": c.visitID,
		"fields": map[string]string{"rest_days": "2", "rest_from": time.Now().Format(time.DateOnly), "remarks": "<script>x</script>"}}); r.Status != http.StatusCreated {
		t.Fatalf("certificate: %d %s", r.Status, r.Body)
	}
}

// TestFHIRTheWholeRecord: the rest of a patient's record — the laboratory order and its
// result, the X-ray's and the ECG's reports (imaging and procedure results, each with its
// report, found by category with or without its system), the prescription's line, the issued certificate with its page, the appointment,
// the doctor and the clinic — each valid, searchable by patient, and all of it in
// Patient/$everything, less what the caller may not read.
func TestFHIRTheWholeRecord(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)

		api, _ := c.token(t, "doc", "")
		p := fmt.Sprintf("patient=%d", c.patientID)
		sr := entries(get(t, api, "/fhir/R4/ServiceRequest?"+p, http.StatusOK))
		if len(sr) != 3 || sr[0]["status"] != "completed" || sr[0]["intent"] != "order" {
			t.Errorf("service requests: %v", sr)
		}
		labs := entries(get(t, api, "/fhir/R4/Observation?"+p+"&category=laboratory", http.StatusOK))
		// 126 mg/dL is 7.0 mmol/L at the analyte's reporting precision, written as reported.
		if len(labs) != 1 || fmt.Sprint(labs[0]["valueQuantity"].(map[string]any)["value"]) != "7.0" || labs[0]["status"] != "final" {
			t.Errorf("laboratory observations: %v", labs)
		}
		get(t, api, "/fhir/R4/Observation/"+labs[0]["id"].(string), http.StatusOK)
		studies := func(kind, query string) []map[string]any {
			return entries(get(t, api, "/fhir/R4/"+kind+"?"+p+"&"+query, http.StatusOK))
		}
		for _, q := range []string{"category=imaging", "category=http://terminology.hl7.org/CodeSystem/observation-category|imaging"} {
			if got := studies("Observation", q); len(got) != 1 || got[0]["valueString"] != "No focal consolidation." {
				t.Errorf("Observation?%s: %v", q, got)
			}
		}
		if got := studies("Observation", "category=procedure"); len(got) != 1 || got[0]["valueString"] != "Sinus rhythm, 72/min." {
			t.Errorf("procedure observations: %v", got)
		}
		for _, q := range []string{"category=RAD", "category=http://terminology.hl7.org/CodeSystem/v2-0074|RAD", "category=LP29684-5", "category=http://loinc.org|LP29684-5"} {
			got := studies("DiagnosticReport", q)
			if len(got) != 1 || got[0]["conclusion"] != "No focal consolidation." || got[0]["status"] != "final" ||
				!strings.Contains(fmt.Sprint(got[0]["meta"]), "us-core-diagnosticreport-note") || strings.Contains(fmt.Sprint(got[0]["meta"]), "-lab") {
				t.Errorf("DiagnosticReport?%s: %v", q, got)
			}
		}
		for _, q := range []string{"category=EC", "category=http://loinc.org|LP29708-2"} {
			if got := studies("DiagnosticReport", q); len(got) != 1 || got[0]["conclusion"] != "Sinus rhythm, 72/min." {
				t.Errorf("DiagnosticReport?%s: %v", q, got)
			}
		}
		for _, q := range []string{"category=http://loinc.org|RAD", "category=CUS"} {
			if got := studies("DiagnosticReport", q); len(got) != 0 {
				t.Errorf("DiagnosticReport?%s: %v", q, got)
			}
		}
		all := entries(get(t, api, "/fhir/R4/Observation?"+p+"&_count=3", http.StatusOK))
		if len(all) != 3 {
			t.Errorf("a page of 3 observations: %d", len(all))
		}
		// Vital signs and results walk one keyset: paging 3 at a time finds all 10, once each.
		seen := map[string]bool{}
		next := "/fhir/R4/Observation?" + p + "&_count=3"
		for next != "" {
			b := get(t, api, next, http.StatusOK)
			for _, id := range ids(b) {
				if seen[id] {
					t.Errorf("observation %s twice", id)
				}
				seen[id] = true
			}
			next = ""
			if l := link(b, "next"); l != "" {
				next = relative(t, l)
			}
		}
		if len(seen) != 10 {
			t.Errorf("observations paged: %d, want 7 vital signs and 3 results", len(seen))
		}
		mr := entries(get(t, api, "/fhir/R4/MedicationRequest?"+p, http.StatusOK))
		if len(mr) != 1 || mr[0]["medicationCodeableConcept"].(map[string]any)["text"] != "Cetirizine 10 mg tablet" {
			t.Errorf("medication requests: %v", mr)
		}
		docs := entries(get(t, api, "/fhir/R4/DocumentReference?"+p, http.StatusOK))
		if len(docs) != 1 {
			t.Fatalf("documents: %v", docs)
		}
		page, _ := base64.StdEncoding.DecodeString(docs[0]["content"].([]any)[0].(map[string]any)["attachment"].(map[string]any)["data"].(string))
		if !strings.Contains(string(page), "&lt;script&gt;") || strings.Contains(string(page), "<script>") {
			t.Errorf("the certificate's page does not escape what was typed: %s", page)
		}
		appts := entries(get(t, api, "/fhir/R4/Appointment?"+p, http.StatusOK))
		if len(appts) != 1 || appts[0]["status"] != "fulfilled" {
			t.Errorf("appointments: %v", appts)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/Practitioner/%d", c.env.UserID("doc")), http.StatusOK)
		if got := ids(get(t, api, "/fhir/R4/Practitioner?name=doc", http.StatusOK)); !slices.Contains(got, fmt.Sprint(c.env.UserID("doc"))) {
			t.Errorf("practitioners named doc: %v", got)
		}
		get(t, api, "/fhir/R4/Organization/clinic", http.StatusOK)
		if len(entries(get(t, api, "/fhir/R4/Organization", http.StatusOK))) != 1 {
			t.Error("the clinic is not found")
		}

		// $everything: every type; a receptionist's omits what they may not read, and says so.
		ev := get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.patientID), http.StatusOK)
		kinds := map[string]int{}
		for _, e := range entries(ev) {
			kinds[e["resourceType"].(string)]++
		}
		want := map[string]int{"Patient": 1, "AllergyIntolerance": 1, "Encounter": 1, "Appointment": 1, "Condition": 2, "Observation": 10, "ServiceRequest": 3, "DiagnosticReport": 3, "MedicationRequest": 1, "MedicationStatement": 1, "DocumentReference": 1,
			"Immunization": 1}
		if kinds["ImmunizationRecommendation"] > 1 {
			t.Errorf("$everything: %d recommendations", kinds["ImmunizationRecommendation"])
		}
		delete(kinds, "ImmunizationRecommendation") // the adult's forecast is the shipped schedules' matter
		if fmt.Sprint(kinds) != fmt.Sprint(want) {
			t.Errorf("$everything: %v, want %v", kinds, want)
		}
		clerk, _ := c.token(t, "clerk", "")
		ev = get(t, clerk, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.patientID), http.StatusOK)
		kinds = map[string]int{}
		for _, e := range entries(ev) {
			kinds[e["resourceType"].(string)]++
		}
		if kinds["Observation"] != 0 || kinds["Condition"] != 0 || kinds["OperationOutcome"] != 1 || kinds["Patient"] != 1 {
			t.Errorf("a receptionist's $everything: %v", kinds)
		}
	})
}

// TestFHIRVersionsOfEveryType: every type's versions are those of the record it is made
// from (an appointment, a visit form, a lab order, a prescription, a document, an account,
// the clinic's settings, the patient), as kept when each was written: vread, the instance's
// history newest first, the type's history; a version the resource was not part of is 404;
// every vread is audited with the patient.
func TestFHIRVersionsOfEveryType(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		c.admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Phòng khám An Bình", "address": "1 Main St", "phone": "028 1234", "version": 0})
		c.admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "An Bình Clinic", "address": "1 Main St", "phone": "028 1234", "version": 1})
		api, _ := c.token(t, "doc", "")
		p := fmt.Sprintf("patient=%d", c.patientID)
		visit := strconv.FormatInt(c.visitID, 10)
		field := func(b map[string]any, name string) []string {
			var out []string
			for _, e := range entries(b) {
				out = append(out, fmt.Sprint(e[name]))
			}
			return out
		}
		versions := func(b map[string]any) []string {
			var out []string
			for _, e := range entries(b) {
				out = append(out, e["meta"].(map[string]any)["versionId"].(string))
			}
			return out
		}
		// The appointment: booked, arrived, started, finished by the signature.
		enc := get(t, api, "/fhir/R4/Encounter/"+visit+"/_history", http.StatusOK)
		if got := field(enc, "status"); !slices.Equal(got, []string{"finished", "in-progress", "arrived", "planned"}) || enc["type"] != "history" {
			t.Errorf("the encounter's history: %v", got)
		}
		if v := get(t, api, "/fhir/R4/Encounter/"+visit+"/_history/2", http.StatusOK); v["status"] != "arrived" || v["meta"].(map[string]any)["versionId"] != "2" {
			t.Errorf("encounter version 2: %v", v)
		}
		if got := field(get(t, api, "/fhir/R4/Appointment/"+visit+"/_history?_count=2", http.StatusOK), "status"); !slices.Equal(got, []string{"fulfilled", "checked-in"}) {
			t.Errorf("the appointment's history: %v", got)
		}
		// The visit form: vitals (1), the form (2), its orders (3), the signature (4).
		hr := visit + "-hr"
		if got := versions(get(t, api, "/fhir/R4/Observation/"+hr+"/_history", http.StatusOK)); !slices.Equal(got, []string{"4", "3", "2", "1"}) {
			t.Errorf("the heart rate's history: %v", got)
		}
		get(t, api, "/fhir/R4/Observation/"+hr+"/_history/1", http.StatusOK)
		get(t, api, "/fhir/R4/Condition/"+visit+"-1/_history/1", http.StatusNotFound) // no diagnosis yet
		if v := get(t, api, "/fhir/R4/Condition/"+visit+"-1/_history/2", http.StatusOK); v["code"] == nil {
			t.Errorf("condition version 2: %v", v)
		}
		// The lab order: ordered, collected, resulted; its result only in the last.
		sr := entries(get(t, api, "/fhir/R4/ServiceRequest?"+p, http.StatusOK))[0]
		srID := sr["id"].(string)
		if got := field(get(t, api, "/fhir/R4/ServiceRequest/"+srID+"/_history", http.StatusOK), "status"); !slices.Equal(got, []string{"completed", "active", "active"}) {
			t.Errorf("the order's history: %v", got)
		}
		lab := entries(get(t, api, "/fhir/R4/Observation?"+p+"&category=laboratory", http.StatusOK))[0]["id"].(string)
		if got := versions(get(t, api, "/fhir/R4/Observation/"+lab+"/_history", http.StatusOK)); !slices.Equal(got, []string{"3"}) {
			t.Errorf("the result's history: %v", got)
		}
		get(t, api, "/fhir/R4/Observation/"+lab+"/_history/2", http.StatusNotFound)
		// The prescription, and the certificate before and after it was cancelled.
		mr := entries(get(t, api, "/fhir/R4/MedicationRequest?"+p, http.StatusOK))[0]["id"].(string)
		if v := get(t, api, "/fhir/R4/MedicationRequest/"+mr+"/_history/1", http.StatusOK); v["status"] != "draft" {
			t.Errorf("the prescription's first version: %v", v["status"])
		}
		doc := entries(get(t, api, "/fhir/R4/DocumentReference?"+p, http.StatusOK))[0]["id"].(string)
		if r := c.doctor.Do("POST", "/api/documents/"+doc+"/cancel", map[string]any{"version": 1, "reason": "issued to the wrong patient"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		if got := field(get(t, api, "/fhir/R4/DocumentReference/"+doc+"/_history", http.StatusOK), "status"); !slices.Equal(got, []string{"entered-in-error", "current"}) {
			t.Errorf("the certificate's history: %v", got)
		}
		// The allergy, the doctor, the clinic.
		get(t, api, fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-1/_history/1", c.patientID), http.StatusOK)
		get(t, api, fmt.Sprintf("/fhir/R4/Practitioner/%d/_history/1", c.env.UserID("doc")), http.StatusOK)
		if got := field(get(t, api, "/fhir/R4/Organization/clinic/_history", http.StatusOK), "name"); !slices.Equal(got, []string{"An Bình Clinic", "Phòng khám An Bình"}) {
			t.Errorf("the clinic's history: %v", got)
		}
		// A type's history: every kept version, newest first, paged.
		th := get(t, api, "/fhir/R4/Encounter/_history?_count=2", http.StatusOK)
		if got := versions(th); !slices.Equal(got, []string{"4", "3"}) || link(th, "next") == "" {
			t.Errorf("the encounters' history: %v", got)
		}
		if got := versions(get(t, api, relative(t, link(th, "next")), http.StatusOK)); !slices.Equal(got, []string{"2", "1"}) {
			t.Errorf("its next page: %v", got)
		}
		kinds := map[bool]bool{}
		for _, id := range ids(get(t, api, "/fhir/R4/Observation/_history?_count=50", http.StatusOK)) {
			kinds[strings.HasPrefix(id, "lab-")] = true
		}
		if !kinds[true] || !kinds[false] {
			t.Errorf("the observations' history holds vital signs and results: %v", kinds)
		}
		get(t, api, "/fhir/R4/Encounter/"+visit+"/_history/9", http.StatusNotFound)
		get(t, api, "/fhir/R4/Encounter/999999/_history", http.StatusNotFound)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.encounter.read' AND patient_id = $1`, c.patientID); n != 1 {
			t.Errorf("vreads audited: %d", n)
		}
		// The receptionist's token may not read visit forms' versions any more than the forms.
		clerk, _ := c.token(t, "clerk", "")
		get(t, clerk, "/fhir/R4/Observation/"+hr+"/_history/1", http.StatusForbidden)
	})
}

// TestFHIRLastUpdated: _lastUpdated selects by meta.lastUpdated on every type. A search
// that tests the built resources examines a bounded number of records for one page, so its
// pages may hold fewer entries than asked, even none; their next and previous links still
// lead through every match once, either way.
func TestFHIRLastUpdated(t *testing.T) {
	fhir.SetScanBudget(t, 2)
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		var booked []int64
		for i := 2; i <= 6; i++ {
			at := time.Now().UTC().Add(time.Duration(i) * time.Hour).Truncate(time.Minute)
			r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.nkaID, "doctor_id": c.env.UserID("doc"),
				"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "check-up"})
			if r.Status != http.StatusCreated {
				t.Fatalf("book: %d %s", r.Status, r.Body)
			}
			var a struct{ ID int64 }
			r.JSON(t, &a)
			booked = append(booked, a.ID)
		}
		// Every appointment but one was last changed in 2020.
		recent := strconv.FormatInt(booked[2], 10)
		if _, err := db.ExecContext(context.Background(), `UPDATE appointments SET updated_at = $1 WHERE id <> $2`, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), booked[2]); err != nil {
			t.Fatal(err)
		}
		api, _ := c.token(t, "doc", "")
		walk := func(path, rel string) (found []string, pages int, end string) {
			for path != "" {
				b := get(t, api, path, http.StatusOK)
				pages++
				found = append(found, ids(b)...)
				end, path = path, ""
				if l := link(b, rel); l != "" {
					path = relative(t, l)
				}
			}
			return found, pages, end
		}
		found, pages, _ := walk("/fhir/R4/Appointment?_lastUpdated=ge2021-01-01&_count=5", "next")
		if !slices.Equal(found, []string{recent}) || pages < 3 {
			t.Errorf("changed since 2021: %v in %d pages", found, pages)
		}
		old, _, last := walk("/fhir/R4/Encounter?_lastUpdated=lt2021&_count=10", "next")
		back, _, _ := walk(last, "previous")
		slices.Sort(back)
		if len(old) != 5 || !slices.Contains(old, strconv.FormatInt(c.visitID, 10)) || slices.Contains(old, recent) || !slices.Equal(slices.Sorted(slices.Values(old)), slices.Compact(back)) {
			t.Errorf("changed before 2021: %v, walking back: %v", old, back)
		}
		if got, _, _ := walk(fmt.Sprintf("/fhir/R4/Encounter?patient=%d&_lastUpdated=ge2021&_lastUpdated=lt2100", c.nkaID), "next"); !slices.Equal(got, []string{recent}) {
			t.Errorf("a patient's encounters changed since 2021: %v", got)
		}
		get(t, api, "/fhir/R4/Encounter?_lastUpdated=yesterday", http.StatusBadRequest)
	})
}

// TestFHIRWritesVitalSignsAndAppointments: a vital sign written through FHIR lands in the
// visit's vitals under the visit's rules (its ranges, its version), in the unit the visit
// keeps; an appointment is booked, moved and cancelled through the appointment book's rules.
func TestFHIRWritesVitalSignsAndAppointments(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		nurse, _ := c.token(t, "nurse", "")
		visit := fmt.Sprintf("Encounter/%d", c.visitID)
		vital := func(loinc string, value float64, unit string) map[string]any {
			return map[string]any{"resourceType": "Observation", "status": "final", "category": []any{map[string]any{"coding": []any{map[string]any{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "vital-signs"}}}},
				"code": map[string]any{"coding": []any{map[string]any{"system": "http://loinc.org", "code": loinc}}}, "subject": map[string]any{"reference": fmt.Sprintf("Patient/%d", c.patientID)},
				"encounter": map[string]any{"reference": visit}, "effectiveDateTime": c.visitAt.Format(time.RFC3339),
				"valueQuantity": map[string]any{"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}
		}
		// A create adds a vital the visit does not have yet (one it has is changed by an update):
		// the visit's vitals are cleared first.
		if r := c.nurse.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", c.visitID), map[string]any{"version": 2, "vitals": map[string]any{
			"bp_systolic": nil, "bp_diastolic": nil, "heart_rate": nil, "temperature": nil, "spo2": nil, "weight": nil, "height": nil}}); r.Status != http.StatusOK {
			t.Fatalf("clearing the vitals: %d %s", r.Status, r.Body)
		}
		o, r := send(t, nurse, "POST", "/fhir/R4/Observation", vital("29463-7", 154, "[lb_av]"), nil, http.StatusCreated)
		if o["id"] != fmt.Sprintf("%d-weight", c.visitID) || fmt.Sprint(o["valueQuantity"].(map[string]any)["value"]) != "69.9" || r.Header.Get("Location") == "" {
			t.Fatalf("weight in pounds: %v", o)
		}
		version := o["meta"].(map[string]any)["versionId"].(string)
		o, _ = send(t, nurse, "POST", "/fhir/R4/Observation", vital("8310-5", 100.4, "[degF]"), nil, http.StatusCreated)
		if fmt.Sprint(o["valueQuantity"].(map[string]any)["value"]) != "38" {
			t.Errorf("temperature in Fahrenheit: %v", o["valueQuantity"])
		}
		// An SpO2 sent by its pulse-oximetry code alone is the visit's SpO2; sent back as it is
		// read (its US Core profile and both codes), it is taken as it came.
		o, _ = send(t, nurse, "POST", "/fhir/R4/Observation", vital("59408-5", 97, "%"), nil, http.StatusCreated)
		if o["id"] != fmt.Sprintf("%d-spo2", c.visitID) || len(o["meta"].(map[string]any)["profile"].([]any)) != 1 {
			t.Errorf("SpO2 by pulse oximetry: %v", o)
		}
		send(t, nurse, "PUT", "/fhir/R4/Observation/"+o["id"].(string), o, map[string]string{"If-Match": `W/"` + o["meta"].(map[string]any)["versionId"].(string) + `"`}, http.StatusOK)
		// Refused: implausible, derived, unknown unit, another patient; an update at a stale version.
		send(t, nurse, "POST", "/fhir/R4/Observation", vital("29463-7", 900, "kg"), nil, http.StatusBadRequest)
		send(t, nurse, "POST", "/fhir/R4/Observation", vital("39156-5", 22, "kg/m2"), nil, http.StatusBadRequest)
		send(t, nurse, "POST", "/fhir/R4/Observation", vital("29463-7", 70, "stone"), nil, http.StatusBadRequest)
		other := vital("8867-4", 80, "/min")
		other["subject"] = map[string]any{"reference": fmt.Sprintf("Patient/%d", c.nkaID)}
		send(t, nurse, "POST", "/fhir/R4/Observation", other, nil, http.StatusBadRequest)
		upd := vital("29463-7", 71, "kg")
		upd["id"] = fmt.Sprintf("%d-weight", c.visitID)
		send(t, nurse, "PUT", "/fhir/R4/Observation/"+upd["id"].(string), upd, map[string]string{"If-Match": `W/"` + version + `"`}, http.StatusPreconditionFailed)
		cur := get(t, nurse, "/fhir/R4/Observation/"+upd["id"].(string), http.StatusOK)["meta"].(map[string]any)["versionId"].(string)
		send(t, nurse, "PUT", "/fhir/R4/Observation/"+upd["id"].(string), upd, map[string]string{"If-Match": `W/"` + cur + `"`}, http.StatusOK)
		var v struct {
			Vitals struct{ Weight, Temperature *float64 }
		}
		c.nurse.Do("GET", fmt.Sprintf("/api/appointments/%d/visit", c.visitID), nil).JSON(t, &v)
		if v.Vitals.Weight == nil || *v.Vitals.Weight != 71 || v.Vitals.Temperature == nil || *v.Vitals.Temperature != 38 {
			t.Errorf("the visit's vitals: %+v", v.Vitals)
		}
		// As another system sends it: a profile and an extension (dropped, named), a modifier
		// extension (refused).
		pulse := vital("8867-4", 80, "/min")
		pulse["meta"] = map[string]any{"profile": []string{"http://hl7.org/fhir/StructureDefinition/heartrate"}}
		pulse["extension"] = []any{map[string]any{"url": "https://example.org/fhir/device-id", "valueString": "monitor-7"}}
		pulse["effectiveDateTime"] = otherTimeSameDay(c.visitAt).Format(time.RFC3339)
		if _, r := send(t, nurse, "POST", "/fhir/R4/Observation", pulse, nil, http.StatusCreated); r.Header.Get("X-FHIR-Dropped") != "Observation.extension[0], Observation.effectiveDateTime" { // measured that day, kept at the visit's time
			t.Errorf("an Observation's extension: dropped %q", r.Header.Get("X-FHIR-Dropped"))
		}
		// A vital dated another day than its visit's is refused, naming the visit's day; in a
		// transaction as well.
		late := vital("8867-4", 80, "/min")
		late["effectiveDateTime"] = c.visitAt.AddDate(0, 0, 1).Format(time.RFC3339)
		day := c.visitAt.In(time.Local).Format(time.DateOnly)
		if oo, _ := send(t, nurse, "POST", "/fhir/R4/Observation", late, nil, http.StatusUnprocessableEntity); !strings.Contains(fmt.Sprint(oo), "visit is on "+day) {
			t.Errorf("a vital of the next day: %v", oo)
		}
		if oo, _ := send(t, nurse, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", late, "POST", "Observation")), nil, http.StatusUnprocessableEntity); !strings.Contains(fmt.Sprint(oo), day) {
			t.Errorf("a vital of the next day in a transaction: %v", oo)
		}
		pulse["modifierExtension"] = pulse["extension"]
		send(t, nurse, "POST", "/fhir/R4/Observation", pulse, nil, http.StatusUnprocessableEntity)
		clerk, _ := c.token(t, "clerk", "")
		send(t, clerk, "POST", "/fhir/R4/Observation", vital("8867-4", 80, "/min"), nil, http.StatusForbidden)

		// Appointments: booked, refused when double-booked, moved at its version, cancelled with a reason.
		start := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Hour)
		appt := map[string]any{"resourceType": "Appointment", "status": "booked", "start": start.Format(time.RFC3339), "minutesDuration": 20,
			"appointmentType": map[string]any{"text": "follow-up"}, "participant": []any{
				map[string]any{"actor": map[string]any{"reference": fmt.Sprintf("Patient/%d", c.nkaID)}, "status": "accepted"},
				map[string]any{"actor": map[string]any{"reference": fmt.Sprintf("Practitioner/%d", c.env.UserID("doc"))}, "status": "accepted"}}}
		appt["extension"] = []any{map[string]any{"url": "https://example.org/fhir/booking-channel", "valueString": "phone"}}
		a, r := send(t, clerk, "POST", "/fhir/R4/Appointment", appt, nil, http.StatusCreated)
		if r.Header.Get("X-FHIR-Dropped") != "Appointment.extension[0]" {
			t.Errorf("an Appointment's extension: dropped %q", r.Header.Get("X-FHIR-Dropped"))
		}
		delete(appt, "extension")
		send(t, clerk, "POST", "/fhir/R4/Appointment", appt, nil, http.StatusConflict)
		a["start"] = start.Add(time.Hour).Format(time.RFC3339)
		a["end"] = start.Add(time.Hour + 20*time.Minute).Format(time.RFC3339)
		a2, _ := send(t, clerk, "PUT", "/fhir/R4/Appointment/"+a["id"].(string), a, map[string]string{"If-Match": `W/"1"`}, http.StatusOK)
		send(t, clerk, "PUT", "/fhir/R4/Appointment/"+a["id"].(string), a, map[string]string{"If-Match": `W/"1"`}, http.StatusPreconditionFailed)
		a2["status"] = "cancelled"
		send(t, clerk, "PUT", "/fhir/R4/Appointment/"+a["id"].(string), a2, map[string]string{"If-Match": `W/"2"`}, http.StatusBadRequest)
		a2["cancelationReason"] = map[string]any{"text": "the patient called"}
		a3, _ := send(t, clerk, "PUT", "/fhir/R4/Appointment/"+a["id"].(string), a2, map[string]string{"If-Match": `W/"2"`}, http.StatusOK)
		if a3["status"] != "cancelled" {
			t.Errorf("cancelled: %v", a3)
		}
	})
}

type importReport struct {
	DryRun                       bool `json:"dry_run"`
	Format                       string
	Created, Duplicates, Invalid int
	Lines                        []struct {
		Line     int
		Status   string
		MRN      string
		Messages []string
	}
}

// TestImportTheRegister: a register from a spreadsheet, NDJSON or a Bundle goes through the
// register's rules line by line: a dry run writes nothing, duplicates (of the register or
// within the file) are skipped and named, refused lines say why; the rest is registered,
// allergies and "no known allergies" included.
func TestImportTheRegister(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		csvFile := "first_name,middle_name,last_name,sex,birth_date,phone,allergies,previous_number\n" +
			"Hoa,,Pham,female,1988-02-14,0987 654 321,penicillin; sulfa,OLD-17\n" +
			"Minh,Van,Lê,male,1970-03-02,,,\n" + // the register has him
			"Bad,,Date,male,1988-02-30,,,\n" +
			"Hoa,,Pham,female,1988-02-14,,,\n" + // line 2 again
			"Ivan,,Sokolov,male,1975-06-01,,none,\n"
		var rep importReport
		r := c.clerk.Upload("POST", "/api/patients/import?dry_run=1", "register.csv", []byte(csvFile))
		r.JSON(t, &rep)
		statuses := func() []string {
			var out []string
			for _, l := range rep.Lines {
				out = append(out, l.Status)
			}
			return out
		}
		if r.Status != http.StatusOK || !rep.DryRun || !slices.Equal(statuses(), []string{"would_create", "duplicate", "invalid", "duplicate", "would_create"}) {
			t.Fatalf("dry run: %d %s", r.Status, r.Body)
		}
		if rep.Lines[1].MRN != c.mrn || len(rep.Lines[2].Messages) == 0 || rep.Lines[3].Messages[0] == "" {
			t.Errorf("the report's reasons: %+v", rep.Lines)
		}
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`)
		if before != 2 {
			t.Fatalf("a dry run wrote patients: %d", before)
		}
		r = c.clerk.Upload("POST", "/api/patients/import", "register.csv", []byte(csvFile))
		r.JSON(t, &rep)
		if rep.Created != 2 || rep.Duplicates != 2 || rep.Invalid != 1 || rep.Lines[0].Status != "created" || rep.Lines[0].MRN == "" {
			t.Fatalf("import: %s", r.Body)
		}
		var hoa struct {
			Remarks string
			History struct {
				AllergyStatus string `json:"allergy_status"`
				Allergies     []struct{ Substance string }
			}
		}
		api, _ := c.token(t, "doc", "")
		found := entries(get(t, api, "/fhir/R4/Patient?identifier="+rep.Lines[0].MRN, http.StatusOK))
		c.clerk.Do("GET", "/api/patients/"+found[0]["id"].(string), nil).JSON(t, &hoa)
		if hoa.History.AllergyStatus != "present" || len(hoa.History.Allergies) != 2 || !strings.Contains(hoa.Remarks, "OLD-17") {
			t.Errorf("imported patient: %+v", hoa)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = 'Sokolov' AND history LIKE '%"allergy_status":"none"%'`); n != 1 {
			t.Errorf("no known allergies imported: %d", n)
		}

		// NDJSON: a patient and their allergy, by its id in the file.
		nd := `{"resourceType":"Patient","id":"p1","identifier":[{"system":"http://old.example/mrn","value":"A-1"}],"name":[{"family":"Nakamura","given":["Yui"]}],"gender":"female","birthDate":"1999-09-09"}` + "\n" +
			`{"resourceType":"AllergyIntolerance","patient":{"reference":"Patient/p1"},"code":{"text":"latex"},"reaction":[{"manifestation":[{"text":"hives"}],"severity":"mild"}]}` + "\n" +
			`{"resourceType":"Observation","status":"final","code":{"text":"x"}}` + "\n"
		r = c.clerk.Upload("POST", "/api/patients/import", "register.ndjson", []byte(nd))
		r.JSON(t, &rep)
		if rep.Format != "ndjson" || rep.Created != 1 || rep.Invalid != 1 {
			t.Fatalf("ndjson: %s", r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = 'Nakamura' AND history LIKE '%latex%' AND remarks LIKE '%A-1%'`); n != 1 {
			t.Errorf("the NDJSON patient with their allergy: %d", n)
		}
		// A Bundle; and what is no register file at all.
		bundle := `{"resourceType":"Bundle","type":"transaction","entry":[{"fullUrl":"urn:uuid:1","resource":{"resourceType":"Patient","name":[{"family":"Okafor","given":["Ada"]}],"gender":"female","birthDate":"1980-01-01"}},` +
			`{"resource":{"resourceType":"AllergyIntolerance","patient":{"reference":"urn:uuid:1"},"code":{"coding":[{"system":"http://snomed.info/sct","code":"716186003"}]}}}]}`
		r = c.clerk.Upload("POST", "/api/patients/import", "register.json", []byte(bundle))
		r.JSON(t, &rep)
		if rep.Format != "bundle" || rep.Created != 1 {
			t.Fatalf("bundle: %s", r.Body)
		}
		if r := c.clerk.Upload("POST", "/api/patients/import", "register.xlsx", []byte("PK\x03\x04")); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a spreadsheet file: %d", r.Status)
		}
		if r := c.nurse.Upload("POST", "/api/patients/import", "register.csv", []byte(csvFile)); r.Status != http.StatusForbidden {
			t.Errorf("a nurse imports: %d", r.Status)
		}
	})
}

// TestTokensFollowEmergencyAccess: a token is its account at every request, so an emergency
// grant opens what it opens to the account's token at once, flagged in the audit log, and its
// end closes it again.
func TestTokensFollowEmergencyAccess(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		clerk, _ := c.token(t, "clerk", "")
		conditions := fmt.Sprintf("/fhir/R4/Condition?patient=%d", c.patientID)
		get(t, clerk, conditions, http.StatusForbidden)
		id := c.env.UserID("clerk")
		if r := c.admin.Do("POST", fmt.Sprintf("/api/users/%d/emergency-access", id), map[string]any{"permissions": []string{"write diagnosis"}, "hours": 1,
			"reason": "the doctor is away"}); r.Status != http.StatusOK {
			t.Fatalf("grant: %d %s", r.Status, r.Body)
		}
		get(t, clerk, conditions, http.StatusOK)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.condition.list' AND actor_name = 'clerk' AND emergency`); n != 1 {
			t.Errorf("the emergency read, flagged: %d", n)
		}
		if r := c.admin.Do("DELETE", fmt.Sprintf("/api/users/%d/emergency-access", id), nil); r.Status != http.StatusOK {
			t.Fatalf("end: %d %s", r.Status, r.Body)
		}
		get(t, clerk, conditions, http.StatusForbidden)
	})
}
