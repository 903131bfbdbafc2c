package fhir_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
)

// page is a searchset read by entry mode: its matches' and includes' "Kind/id", and the text
// of its outcome entries.
type page struct {
	matches, includes []string
	outcome           string
	bundle            map[string]any
}

// searchPage reads a search's page (valid against the R4 schema), checking that each entry
// is there once and that no include repeats a match.
func searchPage(t *testing.T, api *apitest.Client, path string, header map[string]string) page {
	t.Helper()
	r := doWith(api, path, header)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	b := validResource(t, r.Body)
	out := page{bundle: b}
	seen := map[string]bool{}
	list, _ := b["entry"].([]any)
	for _, e := range list {
		entry := e.(map[string]any)
		res := entry["resource"].(map[string]any)
		mode := entry["search"].(map[string]any)["mode"]
		if mode == "outcome" {
			js, _ := json.Marshal(res)
			out.outcome += string(js)
			continue
		}
		key := fmt.Sprint(res["resourceType"], "/", res["id"])
		if seen[key] {
			t.Errorf("GET %s: %s is on the page twice", path, key)
		}
		seen[key] = true
		if !strings.HasSuffix(entry["fullUrl"].(string), "/fhir/R4/"+key) {
			t.Errorf("GET %s: %s's fullUrl %v", path, key, entry["fullUrl"])
		}
		switch mode {
		case "match":
			out.matches = append(out.matches, key)
		case "include":
			out.includes = append(out.includes, key)
		default:
			t.Errorf("GET %s: entry mode %v", path, mode)
		}
	}
	return out
}

// doWith GETs path with the headers given besides the client's own.
func doWith(api *apitest.Client, path string, header map[string]string) apitest.Response {
	for k, v := range header {
		api.Header.Set(k, v)
		defer api.Header.Del(k)
	}
	return api.Do("GET", path, nil)
}

// keys are the "Kind/id" of a search's matches.
func keys(t *testing.T, api *apitest.Client, path string) []string {
	t.Helper()
	var out []string
	for _, res := range entries(get(t, api, path, http.StatusOK)) {
		if res["resourceType"] != "OperationOutcome" {
			out = append(out, fmt.Sprint(res["resourceType"], "/", res["id"]))
		}
	}
	slices.Sort(out)
	return out
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	return out
}

// issuedPrescription gives the second patient a visit with an issued prescription (one that
// names its prescriber), and answers the patient's id. (Its visit's diagnosis is coded: the
// print's answer is checked against the native API's contract.)
func (c *clinic) issuedPrescription(t *testing.T) int64 {
	t.Helper()
	var a struct{ ID int64 }
	at := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute)
	r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.nkaID, "doctor_id": c.env.UserID("doc"),
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "cough"})
	r.JSON(t, &a)
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	c.clerk.Do("POST", path+"/arrive", map[string]any{})
	c.doctor.Do("POST", path+"/start", map[string]any{})
	if r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Cough",
		"diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}}); r.Status != http.StatusOK {
		t.Fatalf("visit: %d %s", r.Status, r.Body)
	}
	var rx struct {
		ID      int64
		Version int
	}
	r = c.doctor.Do("POST", path+"/prescriptions", map[string]any{"items": []any{map[string]any{"medicine": "Paracetamol 500 mg tablet", "dose": "1 tablet",
		"frequency": "every 6 hours", "duration": "3 days", "quantity": "12", "unit": "tablet"}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("prescription: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &rx)
	if r := c.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", rx.ID), map[string]any{"version": rx.Version}); r.Status != http.StatusOK {
		t.Fatalf("print: %d %s", r.Status, r.Body)
	}
	return c.nkaID
}

// TestIncludesFollowTheUSCorePairs: each _include names the patient and practitioners the
// page's matches point at, each once; each _revinclude on a Patient search names the same
// resources the type's own search by patient finds.
func TestIncludesFollowTheUSCorePairs(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		issued := fmt.Sprintf("patient=%d", c.issuedPrescription(t))
		api, _ := c.token(t, "admin", "")
		patient := fmt.Sprintf("Patient/%d", c.patientID)
		doctor := fmt.Sprintf("Practitioner/%d", c.env.UserID("doc"))
		p := fmt.Sprintf("patient=%d", c.patientID)

		forward := []struct {
			search string
			want   []string
		}{
			{"Observation?" + p + "&_include=Observation:patient", []string{patient}},
			{"Observation?" + p + "&_include=Observation:subject", []string{patient}},
			{"Observation?" + p + "&_include=Observation:subject:Patient", []string{patient}},
			{"Condition?" + p + "&_include=Condition:patient", []string{patient}},
			{"Condition?" + p + "&_include=Condition:subject", []string{patient}},
			{"MedicationRequest?" + p + "&_include=MedicationRequest:patient", []string{patient}},
			{"MedicationRequest?" + p + "&_include=MedicationRequest:subject", []string{patient}},
			{"MedicationRequest?" + issued + "&_include=MedicationRequest:requester", []string{doctor}},
			{"Encounter?" + p + "&_include=Encounter:patient", []string{patient}},
			{"Encounter?" + p + "&_include=Encounter:subject", []string{patient}},
			{"Encounter?" + p + "&_include=Encounter:practitioner", []string{doctor}},
			{"Encounter?" + p + "&_include=Encounter:participant", []string{doctor}},
			{"Appointment?" + p + "&_include=Appointment:patient", []string{patient}},
			{"Appointment?" + p + "&_include=Appointment:practitioner", []string{doctor}},
			{"Appointment?" + p + "&_include=Appointment:actor", []string{patient, doctor}},
			{"Appointment?" + p + "&_include=Appointment:actor:Practitioner", []string{doctor}},
			{"AllergyIntolerance?" + p + "&_include=AllergyIntolerance:patient", []string{patient}},
			{"Observation?" + p + "&_include=Observation:patient&_include=Observation:subject", []string{patient}},
		}
		for _, tc := range forward {
			got := searchPage(t, api, "/fhir/R4/"+tc.search, nil)
			if len(got.matches) == 0 || !slices.Equal(sorted(got.includes), sorted(tc.want)) || got.outcome != "" {
				t.Errorf("%s: matches %v, includes %v, want %v; outcome %s", tc.search, got.matches, got.includes, tc.want, got.outcome)
			}
			// The include is kept in the page's links.
			if self := link(got.bundle, "self"); !strings.Contains(self, "_include=") {
				t.Errorf("%s: self link %s", tc.search, self)
			}
		}
		// Many Observations of one patient name the patient once (searchPage checks it).
		if got := searchPage(t, api, "/fhir/R4/Observation?"+p+"&_include=Observation:patient", nil); len(got.matches) < 5 {
			t.Errorf("observations: %v", got.matches)
		}

		// The medication is a code on each MedicationRequest: nothing is included, and the
		// outcome says why.
		got := searchPage(t, api, "/fhir/R4/MedicationRequest?"+p+"&_include=MedicationRequest:medication", nil)
		if len(got.matches) != 1 || len(got.includes) != 0 || !strings.Contains(got.outcome, "medicationCodeableConcept") {
			t.Errorf("medication: %+v", got)
		}

		reverse := []struct{ param, search string }{
			{"Observation:patient", "Observation?" + p},
			{"Observation:subject", "Observation?" + p},
			{"Condition:patient", "Condition?" + p},
			{"Condition:subject", "Condition?" + p},
			{"MedicationRequest:patient", "MedicationRequest?" + p},
			{"Encounter:patient", "Encounter?" + p},
			{"Encounter:subject", "Encounter?" + p},
			{"AllergyIntolerance:patient", "AllergyIntolerance?" + p},
			{"Appointment:patient", "Appointment?" + p},
			{"Appointment:actor", "Appointment?" + p},
		}
		for _, tc := range reverse {
			want := keys(t, api, "/fhir/R4/"+tc.search+"&_count=100")
			got := searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=%s", c.patientID, tc.param), nil)
			if !slices.Equal(got.matches, []string{patient}) || len(want) == 0 || !slices.Equal(sorted(got.includes), want) || got.outcome != "" {
				t.Errorf("_revinclude=%s: matches %v, includes %v, want %v; outcome %s", tc.param, got.matches, got.includes, want, got.outcome)
			}
		}
		// Two patients' at once: each one's records.
		got = searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d,%d&_revinclude=Encounter:patient&_revinclude=Condition:patient", c.patientID, c.nkaID), nil)
		var want []string
		for _, search := range []string{"Encounter?" + p, "Condition?" + p, "Encounter?" + issued, "Condition?" + issued} {
			want = append(want, keys(t, api, "/fhir/R4/"+search)...)
		}
		if len(got.matches) != 2 || !slices.Equal(sorted(got.includes), sorted(want)) {
			t.Errorf("two patients: %v %v, want %v", got.matches, got.includes, want)
		}
	})
}

// TestIncludeIterateGoesOneLevelMore: :iterate follows from what the first level included,
// once: a Patient's Encounters and their practitioners; not the practitioners of Encounters
// reached at the second level.
func TestIncludeIterateGoesOneLevelMore(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "admin", "")
		patient := fmt.Sprintf("Patient/%d", c.patientID)
		doctor := fmt.Sprintf("Practitioner/%d", c.env.UserID("doc"))
		encounter := fmt.Sprintf("Encounter/%d", c.visitID)

		got := searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=Encounter:patient&_include:iterate=Encounter:practitioner", c.patientID), nil)
		if !slices.Equal(sorted(got.includes), sorted([]string{encounter, doctor})) {
			t.Errorf("iterate: %v", got.includes)
		}
		// Without :iterate an Encounter include on a Patient search follows nothing: a warning.
		got = searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=Encounter:patient&_include=Encounter:practitioner", c.patientID), nil)
		if !slices.Equal(got.includes, []string{encounter}) || !strings.Contains(got.outcome, `"warning"`) {
			t.Errorf("not iterating: %v %s", got.includes, got.outcome)
		}
		// Observation → its Patient → the Patient's Encounters (the second level) → their
		// practitioners would be a third: not followed.
		got = searchPage(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&_include=Observation:patient&_revinclude:iterate=Encounter:patient&_include:iterate=Encounter:practitioner", c.patientID), nil)
		if !slices.Equal(sorted(got.includes), sorted([]string{patient, encounter})) {
			t.Errorf("bounded: %v", got.includes)
		}
	})
}

// TestIncludesAreCapped: past the cap a page carries what fitted and a warning.
func TestIncludesAreCapped(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "admin", "")
		fhir.SetMaxIncluded(t, 3)
		got := searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=Observation:patient", c.patientID), nil)
		if len(got.includes) != 3 || !strings.Contains(got.outcome, `"incomplete"`) || !strings.Contains(got.outcome, "3") {
			t.Errorf("capped: %v %s", got.includes, got.outcome)
		}
		// Exactly at the cap nothing was cut.
		fhir.SetMaxIncluded(t, len(keys(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.patientID))))
		if got := searchPage(t, api, fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=Observation:patient", c.patientID), nil); got.outcome != "" {
			t.Errorf("at the cap: %s", got.outcome)
		}
	})
}

// TestUnknownIncludes: an include the server does not follow is 400 under strict handling,
// a warning otherwise (and left out of the links).
func TestUnknownIncludes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "admin", "")
		strict := map[string]string{"Prefer": "handling=strict"}
		for _, q := range []string{"_include=Observation:foo", "_include=Patient:patient", "_include=Observation", "_include=*", "_include:recurse=Observation:patient",
			"_revinclude=Observation:patient", "_include=Observation:patient:Practitioner", "_revinclude=MedicationRequest:requester"} {
			path := "/fhir/R4/Observation?" + q
			if r := doWith(api, path, strict); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "not-supported") {
				t.Errorf("strict %s: %d %s", q, r.Status, r.Body)
			}
			got := searchPage(t, api, path, nil)
			if len(got.includes) != 0 || !strings.Contains(got.outcome, `"warning"`) || strings.Contains(link(got.bundle, "self"), "include") {
				t.Errorf("lenient %s: %v %s %s", q, got.includes, got.outcome, link(got.bundle, "self"))
			}
		}
	})
}

// TestIncludesReadOnlyWhatTheCallerMay: an included resource is one the caller could read by
// itself: a triage nurse's revincluded Observations are the vital signs (the laboratory
// results left out, and named), a laboratory role includes no patient, a token's scopes
// bound what it includes; and each included patient record is audited as a read.
func TestIncludesReadOnlyWhatTheCallerMay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		c.role(t, "triage", "view patient", "view appointment", "record vitals")
		c.role(t, "laboratory", "record results")
		c.env.CreateUser("tri", "triage")
		c.env.CreateUser("lab", "laboratory")
		admin, _ := c.token(t, "admin", "")
		triage, _ := c.token(t, "tri", "")
		lab, _ := c.token(t, "lab", "")
		scoped, _ := c.token(t, "doc", "user/Observation.rs user/Patient.rs")
		rev := fmt.Sprintf("/fhir/R4/Patient?_id=%d&_revinclude=Observation:patient&_revinclude=Condition:patient", c.patientID)

		all := searchPage(t, admin, rev, nil)
		var vitals, labs int
		for _, k := range all.includes {
			switch {
			case strings.HasPrefix(k, "Observation/lab-"):
				labs++
			case strings.HasPrefix(k, "Observation/"):
				vitals++
			}
		}
		if vitals == 0 || labs == 0 {
			t.Fatalf("the administrator's includes: %v", all.includes)
		}
		got := searchPage(t, triage, rev, nil)
		for _, k := range got.includes {
			if strings.HasPrefix(k, "Observation/lab-") {
				t.Errorf("triage included %s", k)
			}
		}
		if len(got.includes) != len(all.includes)-labs || !strings.Contains(got.outcome, "Observation (laboratory)") {
			t.Errorf("triage: %v %s", got.includes, got.outcome)
		}
		got = searchPage(t, lab, fmt.Sprintf("/fhir/R4/Observation?patient=%d&_include=Observation:patient", c.patientID), nil)
		if len(got.matches) != labs || len(got.includes) != 0 || !strings.Contains(got.outcome, "Patient") {
			t.Errorf("laboratory: %v %v %s", got.matches, got.includes, got.outcome)
		}
		// A token with no Condition scope includes none (its Observations it may search).
		got = searchPage(t, scoped, rev, nil)
		if len(got.includes) != vitals+labs || !strings.Contains(got.outcome, "Condition") {
			t.Errorf("scoped: %v %s", got.includes, got.outcome)
		}
		// A token that may not read Patients includes none.
		obsOnly, _ := c.token(t, "doc", "user/Observation.rs")
		got = searchPage(t, obsOnly, fmt.Sprintf("/fhir/R4/Observation?patient=%d&_include=Observation:patient", c.patientID), nil)
		if len(got.includes) != 0 || !strings.Contains(got.outcome, "Patient") {
			t.Errorf("no Patient scope: %v %s", got.includes, got.outcome)
		}
		// A backend client reads by its system/ scopes alone.
		client := c.backend(t, "system/Patient.rs system/Observation.rs")
		got = searchPage(t, client, rev, nil)
		if len(got.includes) != vitals+labs || !strings.Contains(got.outcome, "Condition") {
			t.Errorf("backend client: %v %s", got.includes, got.outcome)
		}

		// Audited: the included patient as a read of that patient, the included records as
		// reads about them, one event per type and patient.
		count := func(action, detail string) int {
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND patient_id = $2 AND detail LIKE $3`, action, c.patientID, detail+"%")
		}
		before := count("fhir.patient.read", "Patient included in Observation search")
		searchPage(t, admin, fmt.Sprintf("/fhir/R4/Observation?patient=%d&_include=Observation:patient", c.patientID), nil)
		if n := count("fhir.patient.read", "Patient included in Observation search"); n != before+1 {
			t.Errorf("included patient audited %d times", n-before)
		}
		before = count("fhir.observation.read", "Observation included in Patient search")
		searchPage(t, admin, rev, nil)
		// The vital signs (read from the visit) and the results (from the lab order).
		if n := count("fhir.observation.read", "Observation included in Patient search"); n != before+2 {
			t.Errorf("included observations audited %d times", n-before)
		}
		if n := count("fhir.condition.read", "Condition included in Patient search"); n == 0 {
			t.Errorf("included conditions not audited")
		}
	})
}

// TestCapabilityStatementListsTheIncludes: each type names the includes it follows.
func TestCapabilityStatementListsTheIncludes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		cs := get(t, c.env.Client(), "/fhir/R4/metadata", http.StatusOK)
		byType := map[string]map[string]any{}
		for _, res := range cs["rest"].([]any)[0].(map[string]any)["resource"].([]any) {
			m := res.(map[string]any)
			byType[m["type"].(string)] = m
		}
		has := func(kind, field, value string) bool {
			list, _ := byType[kind][field].([]any)
			return slices.Contains(list, any(value))
		}
		for _, want := range [][3]string{{"Observation", "searchInclude", "Observation:patient"}, {"MedicationRequest", "searchInclude", "MedicationRequest:requester"},
			{"Appointment", "searchInclude", "Appointment:actor"}, {"Encounter", "searchInclude", "Encounter:practitioner"},
			{"Patient", "searchRevInclude", "Observation:patient"}, {"Patient", "searchRevInclude", "AllergyIntolerance:patient"}, {"Patient", "searchRevInclude", "Appointment:actor"}} {
			if !has(want[0], want[1], want[2]) {
				t.Errorf("%s.%s lacks %s", want[0], want[1], want[2])
			}
		}
		if has("Patient", "searchRevInclude", "MedicationRequest:requester") {
			t.Errorf("a reverse include of practitioners is listed")
		}
	})
}

// includeBench is a clinic of n patients, each with one visit booked, and an administrator's
// API token.
func includeBench(b *testing.B, db *database.DB, n int) *apitest.Client {
	env := apitest.New(b, db)
	pw := env.CreateUser("admin", "admin")
	env.CreateUser("doc", "doctor")
	clerk := env.LoggedIn("clerk", env.CreateUser("clerk", "receptionist"))
	admin := env.LoggedIn("admin", pw)
	start := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Hour)
	for i := range n {
		var p struct{ ID int64 }
		clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Bench", "last_name": fmt.Sprintf("Patient %d", i), "birth_date": "1980-01-01", "sex": "female"}).JSON(b, &p)
		if r := clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": env.UserID("doc"),
			"starts_at": start.Add(time.Duration(i) * 20 * time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"}); r.Status != http.StatusCreated {
			b.Fatalf("book: %d %s", r.Status, r.Body)
		}
	}
	var out struct{ Token string }
	r := admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": env.UserID("admin"), "name": "bench", "scopes": "", "expires_in_days": 1, "current_password": pw})
	r.JSON(b, &out)
	api := env.Client()
	api.Header.Set("Authorization", "Bearer "+out.Token)
	return api
}

// BenchmarkIncludePatients compares a page of 50 Encounters (each of another patient) with
// their patients included against the page alone, and the page and the 50 patient reads the
// include saves (each audited, as each include is); and a page of 50 patients with their
// Encounters against the page and the 50 searches the reverse include saves:
//
//	go test -run - -bench IncludePatients ./internal/fhir
func BenchmarkIncludePatients(b *testing.B) {
	const n = 50
	for _, e := range dbtest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			api := includeBench(b, dbtest.Open(b, e.URL(b)), n)
			search := func(path string) map[string]any {
				r := api.Do("GET", path, nil)
				if r.Status != http.StatusOK {
					b.Fatalf("%s: %d %s", path, r.Status, r.Body)
				}
				var out map[string]any
				r.JSON(b, &out)
				return out
			}
			b.Run("include", func(b *testing.B) {
				for b.Loop() {
					if got := len(entries(search(fmt.Sprintf("/fhir/R4/Encounter?_count=%d&_include=Encounter:patient", n)))); got != 2*n {
						b.Fatalf("entries: %d", got)
					}
				}
			})
			b.Run("page-alone", func(b *testing.B) {
				for b.Loop() {
					search(fmt.Sprintf("/fhir/R4/Encounter?_count=%d", n))
				}
			})
			b.Run("reads", func(b *testing.B) {
				for b.Loop() {
					for _, enc := range entries(search(fmt.Sprintf("/fhir/R4/Encounter?_count=%d", n))) {
						ref := enc["subject"].(map[string]any)["reference"].(string)
						search("/fhir/R4/" + ref)
					}
				}
			})
			// The other way: a page of 50 patients with their Encounters, against the page and
			// a search of each patient's Encounters.
			b.Run("revinclude", func(b *testing.B) {
				for b.Loop() {
					if got := len(entries(search(fmt.Sprintf("/fhir/R4/Patient?_count=%d&_revinclude=Encounter:patient", n)))); got != 2*n {
						b.Fatalf("entries: %d", got)
					}
				}
			})
			b.Run("searches", func(b *testing.B) {
				for b.Loop() {
					for _, p := range entries(search(fmt.Sprintf("/fhir/R4/Patient?_count=%d", n))) {
						search(fmt.Sprintf("/fhir/R4/Encounter?patient=%v", p["id"]))
					}
				}
			})
		})
	}
}
