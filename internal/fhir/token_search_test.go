package fhir_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
)

// matched are the ids of a searchset's matches (its OperationOutcome left aside), sorted.
func matched(b map[string]any) []string {
	var out []string
	list, _ := b["entry"].([]any)
	for _, e := range list {
		m := e.(map[string]any)
		if m["search"].(map[string]any)["mode"] == "match" {
			out = append(out, m["resource"].(map[string]any)["id"].(string))
		}
	}
	slices.Sort(out)
	return out
}

// outcomeIssues are the issues of a searchset's one OperationOutcome, as "severity code
// expression" each; it fails t if there are several OperationOutcomes.
func outcomeIssues(t *testing.T, b map[string]any) []string {
	t.Helper()
	var out []string
	outcomes := 0
	list, _ := b["entry"].([]any)
	for _, e := range list {
		m := e.(map[string]any)
		if m["search"].(map[string]any)["mode"] != "outcome" {
			continue
		}
		outcomes++
		for _, i := range m["resource"].(map[string]any)["issue"].([]any) {
			issue := i.(map[string]any)
			out = append(out, fmt.Sprintf("%s %s %v", issue["severity"], issue["code"], issue["expression"]))
		}
	}
	if outcomes > 1 {
		t.Errorf("%d OperationOutcomes in one searchset", outcomes)
	}
	return out
}

// secondVisit gives the patient without allergies a signed follow-up visit with a heart rate
// and a diagnosis, hours from now, so that searches have something to leave out. It returns
// the visit's id.
func (c *clinic) secondVisit(t *testing.T, hours int) int64 {
	t.Helper()
	var a struct{ ID int64 }
	at := time.Now().UTC().Add(time.Duration(hours) * time.Hour).Truncate(time.Minute)
	r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": c.nkaID, "doctor_id": c.env.UserID("doc"),
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 15, "type": "follow-up", "reason": "cough"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &a)
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	c.clerk.Do("POST", path+"/arrive", map[string]any{})
	c.doctor.Do("POST", path+"/start", map[string]any{})
	if r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Cough",
		"vitals": map[string]any{"heart_rate": 72}, "diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}}); r.Status != http.StatusOK {
		t.Fatalf("visit: %d %s", r.Status, r.Body)
	}
	return a.ID
}

// firstOf is the one resource a search finds.
func firstOf(t *testing.T, api *apitest.Client, path string) map[string]any {
	t.Helper()
	list := entries(get(t, api, path, http.StatusOK))
	if len(list) == 0 {
		t.Fatalf("%s found nothing", path)
	}
	return list[0]
}

// TestTokenSearchesOfEveryType: every token parameter of every type takes code, system|code,
// |code and system| as the search rules read them; a system the server does not write in the
// parameter matches nothing and the searchset says so in a warning naming the parameter, so
// that "none" is never a silent answer.
func TestTokenSearchesOfEveryType(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		other := c.secondVisit(t, 2)
		api, _ := c.token(t, "doc", "")
		p, v, o := fmt.Sprint(c.patientID), fmt.Sprint(c.visitID), fmt.Sprint(other)
		doc := fmt.Sprint(c.env.UserID("doc"))
		lab := firstOf(t, api, "/fhir/R4/Observation?patient="+p+"&category=laboratory")
		labLOINC := lab["code"].(map[string]any)["coding"].([]any)[0].(map[string]any)["code"].(string)
		order := firstOf(t, api, "/fhir/R4/ServiceRequest?patient="+p)
		orderLOINC := order["code"].(map[string]any)["coding"].([]any)[0].(map[string]any)["code"].(string)
		rx := firstOf(t, api, "/fhir/R4/MedicationRequest?patient="+p)
		docID := firstOf(t, api, "/fhir/R4/DocumentReference?patient="+p)["id"].(string)
		vitals := []string{v + "-bmi", v + "-bp", v + "-height", v + "-hr", v + "-spo2", v + "-temp", v + "-weight"}
		// The X-ray's and the ECG's results and reports (an imaging and a procedure study).
		xr := firstOf(t, api, "/fhir/R4/Observation?patient="+p+"&category=imaging")["id"].(string)
		ecg := firstOf(t, api, "/fhir/R4/Observation?patient="+p+"&category=procedure")["id"].(string)
		studies := c.orders(t, "/api/appointments/"+v)
		xrOrder, ecgOrder := fmt.Sprint(studies["XR-CHEST"][0]), fmt.Sprint(studies["ECG"][0])
		results := append([]string{lab["id"].(string), xr, ecg}, vitals...)
		orders := []string{order["id"].(string), xrOrder, ecgOrder}

		const (
			allergyClinical = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
			allergyVerify   = "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification"
			snomed          = "http://snomed.info/sct"
			loinc           = "http://loinc.org"
			icd10           = "http://hl7.org/fhir/sid/icd-10"
			obsCategory     = "http://terminology.hl7.org/CodeSystem/observation-category"
		)
		// Each parameter with a code the server writes: the search (narrowed to the patient),
		// the code's system ("" for a boolean, which has none), what the code finds, and what
		// the system's every code (system|) finds.
		cases := []struct {
			search, param, system, code string
			want, whole                 []string
			bare                        bool // a code element or a boolean: its code is also sought with no system
		}{
			{"Patient?_id=" + p, "gender", "http://hl7.org/fhir/administrative-gender", "male", []string{p}, []string{p}, true},
			{"Patient?_id=" + p, "active", "", "true", []string{p}, nil, true},
			{"AllergyIntolerance?patient=" + p, "clinical-status", allergyClinical, "active", []string{p + "-1"}, []string{p + "-1"}, false},
			// A listed allergy claims no certainty (the record holds none): no verification status.
			{"AllergyIntolerance?patient=" + p, "verification-status", allergyVerify, "confirmed", nil, nil, false},
			{"AllergyIntolerance?patient=" + fmt.Sprint(c.nkaID), "verification-status", allergyVerify, "confirmed", []string{fmt.Sprint(c.nkaID) + "-nka"}, []string{fmt.Sprint(c.nkaID) + "-nka"}, false},
			{"AllergyIntolerance?patient=" + fmt.Sprint(c.nkaID), "code", snomed, "716186003", []string{fmt.Sprint(c.nkaID) + "-nka"}, []string{fmt.Sprint(c.nkaID) + "-nka"}, false},
			// A visit diagnosis claims no clinical status (deliberate: "active" years later misled).
			{"Condition?patient=" + p, "clinical-status", "http://terminology.hl7.org/CodeSystem/condition-clinical", "active", nil, nil, false},
			{"Condition?patient=" + p, "verification-status", "http://terminology.hl7.org/CodeSystem/condition-ver-status", "confirmed", []string{v + "-1", v + "-2"}, []string{v + "-1", v + "-2"}, false},
			{"Condition?patient=" + p, "category", "http://terminology.hl7.org/CodeSystem/condition-category", "encounter-diagnosis", []string{v + "-1", v + "-2"}, []string{v + "-1", v + "-2"}, false},
			{"Condition?patient=" + p, "code", icd10, "I10", []string{v + "-1"}, []string{v + "-1"}, false},
			{"Observation?patient=" + p, "category", obsCategory, "laboratory", []string{lab["id"].(string)}, results, false},
			{"Observation?patient=" + p, "category", obsCategory, "imaging", []string{xr}, results, false},
			{"Observation?patient=" + p, "category", obsCategory, "procedure", []string{ecg}, results, false},
			// The studies' reports are text: no LOINC code.
			{"Observation?patient=" + p, "code", loinc, "8867-4", []string{v + "-hr"}, append([]string{lab["id"].(string)}, vitals...), false},
			{"Observation?patient=" + p, "code", loinc, labLOINC, []string{lab["id"].(string)}, append([]string{lab["id"].(string)}, vitals...), false},
			{"Observation?patient=" + p, "status", "http://hl7.org/fhir/observation-status", "final", results, results, true},
			{"Encounter?patient=" + p, "status", "http://hl7.org/fhir/encounter-status", "finished", []string{v}, []string{v}, true},
			{"Encounter?patient=" + p, "class", "http://terminology.hl7.org/CodeSystem/v3-ActCode", "AMB", []string{v}, []string{v}, false},
			{"Encounter?patient=" + p, "type", "urn:emr:visit-type", "new", []string{v}, []string{v}, false},
			{"Appointment?patient=" + p, "status", "http://hl7.org/fhir/appointmentstatus", "fulfilled", []string{v}, []string{v}, true},
			{"MedicationRequest?patient=" + p, "status", "http://hl7.org/fhir/CodeSystem/medicationrequest-status", rx["status"].(string), []string{rx["id"].(string)}, []string{rx["id"].(string)}, true},
			{"MedicationRequest?patient=" + p, "intent", "http://hl7.org/fhir/CodeSystem/medicationrequest-intent", "order", []string{rx["id"].(string)}, []string{rx["id"].(string)}, true},
			{"ServiceRequest?patient=" + p, "status", "http://hl7.org/fhir/request-status", "completed", orders, orders, true},
			{"ServiceRequest?patient=" + p, "code", loinc, orderLOINC, []string{order["id"].(string)}, []string{order["id"].(string)}, false},
			{"ServiceRequest?patient=" + p, "category", snomed, "108252007", []string{order["id"].(string)}, orders, false},
			{"DiagnosticReport?patient=" + p, "category", "http://terminology.hl7.org/CodeSystem/v2-0074", "RAD", []string{xrOrder}, orders, false},
			{"DiagnosticReport?patient=" + p, "category", "http://terminology.hl7.org/CodeSystem/v2-0074", "EC", []string{ecgOrder}, orders, false},
			{"DiagnosticReport?patient=" + p, "category", loinc, "LP29684-5", []string{xrOrder}, []string{xrOrder, ecgOrder}, false},
			{"DocumentReference?patient=" + p, "status", "http://hl7.org/fhir/document-reference-status", "current", []string{docID}, []string{docID}, true},
			{"DocumentReference?patient=" + p, "type", "urn:emr:document-kind", "medical_certificate", []string{docID}, []string{docID}, false},
			{"Practitioner?_id=" + doc, "identifier", "urn:emr:username", "doc", []string{doc}, []string{doc}, false},
			{"Practitioner?_id=" + doc, "active", "", "true", []string{doc}, nil, true},
		}
		search := func(path string) map[string]any { return get(t, api, "/fhir/R4/"+path, http.StatusOK) }
		check := func(path string, want []string, warned bool, param string) {
			t.Helper()
			b := search(path)
			slices.Sort(want)
			if got := matched(b); !slices.Equal(got, want) {
				t.Errorf("%s found %v, want %v", path, got, want)
			}
			issues := outcomeIssues(t, b)
			if w := "warning code-invalid [" + param + "]"; warned != slices.Contains(issues, w) {
				t.Errorf("%s: outcome %v, warning %q expected: %v", path, issues, w, warned)
			}
		}
		for _, tc := range cases {
			q := func(v string) string { return tc.search + "&" + tc.param + "=" + url.QueryEscape(v) }
			check(q(tc.code), tc.want, false, tc.param)
			if tc.system != "" {
				check(q(tc.system+"|"+tc.code), tc.want, false, tc.param)
				check(q(tc.system+"|"), tc.whole, false, tc.param)
				if tc.param != "gender" { // a gender not of the value set is refused (400), as it is without a system
					check(q(tc.system+"|no-such-code"), nil, false, tc.param)
				}
			}
			if tc.bare {
				check(q("|"+tc.code), tc.want, false, tc.param)
			} else {
				check(q("|"+tc.code), nil, true, tc.param) // every code written here names its system
			}
			// Another system: nothing, and a warning naming the parameter; with a value the
			// server knows besides (a comma: either), that value's matches alone.
			check(q("http://example.org/unknown|"+tc.code), nil, true, tc.param)
			check(q("http://example.org/unknown|"+tc.code+","+tc.code), tc.want, true, tc.param)
		}

		// The issue's own example: an active allergy found by its system and code, and the
		// same question in another system is not answered "none" in silence.
		b := search("AllergyIntolerance?clinical-status=" + url.QueryEscape(allergyClinical+"|active"))
		if !slices.Contains(matched(b), p+"-1") {
			t.Errorf("the active allergy is not found: %v", matched(b))
		}
		b = search("AllergyIntolerance?patient=" + p + "&clinical-status=" + url.QueryEscape("http://snomed.info/sct|55561003"))
		if len(matched(b)) != 0 || !slices.Contains(outcomeIssues(t, b), "warning code-invalid [clinical-status]") {
			t.Errorf("another system's active: %v", b)
		}
		// The other patient's records are not among the first's, nor the reverse.
		check("Observation?patient="+fmt.Sprint(c.nkaID)+"&code="+url.QueryEscape(loinc+"|8867-4"), []string{o + "-hr"}, false, "code")
		check("Condition?patient="+fmt.Sprint(c.nkaID)+"&code="+url.QueryEscape(icd10+"|I10"), nil, false, "code")
		// _id, a token too: an id has no system.
		check("Patient?_id="+url.QueryEscape("|"+p), []string{p}, false, "_id")
		check("Patient?_id="+url.QueryEscape("http://example.org/ids|"+p), nil, true, "_id")
		check("Organization?identifier="+url.QueryEscape("http://example.org/tax|1"), nil, true, "identifier")
		// Every unknown system of a search is named, each under its parameter, in one outcome.
		b = search("Observation?patient=" + p + "&code=" + url.QueryEscape("http://example.org/a|1") + "&category=" + url.QueryEscape("http://example.org/b|2"))
		if issues := outcomeIssues(t, b); !slices.Contains(issues, "warning code-invalid [code]") || !slices.Contains(issues, "warning code-invalid [category]") {
			t.Errorf("both unknown systems: %v", issues)
		}
		// The warning is in the caller's language.
		api.Header.Set("Accept-Language", "ru")
		b = search("Condition?patient=" + p + "&code=" + url.QueryEscape("http://example.org/x|I10"))
		api.Header.Del("Accept-Language")
		if js := fmt.Sprint(b["entry"]); !strings.Contains(js, "систему кодов http://example.org/x") {
			t.Errorf("a Russian warning: %s", js)
		}
		// A value with neither system nor code is no token.
		get(t, api, "/fhir/R4/Condition?code=|", http.StatusBadRequest)
	})
}

// TestUnsupportedParameters: with Prefer: handling=strict every unknown parameter is refused,
// all of them named at once; under lenient handling, the default, each is ignored, named in
// the searchset's OperationOutcome and left out of the self link. An unsupported modifier is
// refused either way (ignoring :not would widen the answer); _include and _revinclude are
// not search parameters (those the server does not follow: TestUnknownIncludes).
func TestUnsupportedParameters(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		expressions := func(b map[string]any) []string {
			var out []string
			for _, i := range b["issue"].([]any) {
				out = append(out, fmt.Sprint(i.(map[string]any)["expression"]))
			}
			return out
		}
		const path = "/fhir/R4/Patient?colour=red&family=le&shade=blue"
		api.Header.Set("Prefer", "handling=strict")
		b := get(t, api, path, http.StatusBadRequest)
		if got := expressions(b); !slices.Equal(got, []string{"[colour]", "[shade]"}) {
			t.Errorf("strict: %v", got)
		}
		get(t, api, "/fhir/R4/Patient?family=le&_revinclude=Encounter:patient", http.StatusOK)
		api.Header.Del("Prefer")

		b = get(t, api, path, http.StatusOK)
		if got := matched(b); !slices.Equal(got, []string{fmt.Sprint(c.patientID)}) {
			t.Errorf("lenient: %v", got)
		}
		if got := outcomeIssues(t, b); !slices.Equal(got, []string{"warning not-supported [colour]", "warning not-supported [shade]"}) {
			t.Errorf("lenient outcome: %v", got)
		}
		if self := link(b, "self"); strings.Contains(self, "colour") || strings.Contains(self, "shade") || !strings.Contains(self, "family=le") {
			t.Errorf("self: %s", self)
		}
		api.Header.Set("Accept-Language", "zh")
		b = get(t, api, path, http.StatusOK)
		api.Header.Del("Accept-Language")
		if js := fmt.Sprint(b["entry"]); !strings.Contains(js, "不支持搜索参数“colour”") {
			t.Errorf("a Chinese warning: %s", js)
		}
		b = get(t, api, "/fhir/R4/Patient?family=le&_revinclude=Encounter:patient", http.StatusOK)
		if got := outcomeIssues(t, b); len(got) != 0 {
			t.Errorf("_revinclude named as ignored: %v", got)
		}

		for _, prefer := range []string{"", "handling=strict", "handling=lenient"} {
			api.Header.Set("Prefer", prefer)
			b = get(t, api, "/fhir/R4/Patient?gender:not=male&name:contains=mi&family=le", http.StatusBadRequest)
			if got := expressions(b); !slices.Equal(got, []string{"[gender:not]", "[name:contains]"}) {
				t.Errorf("modifiers (%q): %v", prefer, got)
			}
		}
		api.Header.Del("Prefer")
	})
}

// TestChainedParametersAreRefused: a chained or reverse-chained parameter is not supported,
// and ignoring it would answer every patient's resources where the client asked one
// patient's (patient.identifier=…), so it is 400 naming it under strict and lenient handling
// alike, for every resource type (issue 55, M3).
func TestChainedParametersAreRefused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.recordTaken(t, c.patientID, map[string]any{"medicine": "Ibuprofen 200 mg", "source": "otc"})
		api, _ := c.token(t, "doc", "")
		for _, kind := range []string{"MedicationStatement", "Observation"} {
			for _, param := range []string{"patient.identifier", "subject.name", "subject:Patient.identifier", "patient._id", "_has:Condition:patient:code"} {
				for _, prefer := range []string{"", "handling=lenient", "handling=strict"} {
					api.Header.Set("Prefer", prefer)
					b := get(t, api, "/fhir/R4/"+kind+"?"+param+"=nonexistent", http.StatusBadRequest)
					issue := b["issue"].([]any)[0].(map[string]any)
					if fmt.Sprint(issue["expression"]) != "["+param+"]" || !strings.Contains(fmt.Sprint(issue["diagnostics"]), `"`+param+`"`) {
						t.Errorf("%s?%s (%q): %v", kind, param, prefer, issue)
					}
				}
			}
		}
		api.Header.Del("Prefer")
		// The plain reference still answers.
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/MedicationStatement?patient=%d", c.patientID), http.StatusOK)); len(got) != 1 {
			t.Errorf("by patient: %v", got)
		}
	})
}

// TestUSCoreSearches: the search combinations US Core 6.1's server CapabilityStatement asks
// for, on the types the server has, each finding exactly the right resources, and each
// parameter declared in the CapabilityStatement with its type.
func TestUSCoreSearches(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		other := c.secondVisit(t, 2)
		api, _ := c.token(t, "doc", "")
		p, n, v, o := fmt.Sprint(c.patientID), fmt.Sprint(c.nkaID), fmt.Sprint(c.visitID), fmt.Sprint(other)
		lab := firstOf(t, api, "/fhir/R4/Observation?patient="+p+"&category=laboratory")["id"].(string)
		rx := firstOf(t, api, "/fhir/R4/MedicationRequest?patient="+p)["id"].(string)
		vitals := []string{v + "-bmi", v + "-bp", v + "-height", v + "-hr", v + "-spo2", v + "-temp", v + "-weight"}
		today := time.Now().UTC().Format(time.DateOnly)
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
		esc := url.QueryEscape
		cases := []struct {
			path string
			want []string
		}{
			{"Patient?_id=" + p, []string{p}},
			{"Patient?identifier=" + c.mrn, []string{p}},
			{"Patient?name=minh", []string{p}},
			{"Patient?birthdate=1970-03-02&name=minh", []string{p}},
			{"Patient?birthdate=1970-03-03&name=minh", nil},
			{"Patient?gender=male&name=minh", []string{p}},
			{"Patient?gender=female&name=minh", nil},
			{"Patient?family=petrova&gender=female", []string{n}},
			{"Patient?birthdate=1985-11-20&family=petrova", []string{n}},

			{"Observation?patient=" + p + "&category=vital-signs", vitals},
			{"Observation?patient=" + p + "&category=laboratory", []string{lab}},
			{"Observation?patient=" + n + "&category=vital-signs", []string{o + "-hr"}},
			{"Observation?patient=" + p + "&code=" + esc("http://loinc.org|8867-4"), []string{v + "-hr"}},
			{"Observation?patient=" + p + "&code=" + esc("http://loinc.org|8867-4,http://loinc.org|29463-7"), []string{v + "-hr", v + "-weight"}},
			{"Observation?patient=" + p + "&category=vital-signs&date=ge" + yesterday, vitals},
			{"Observation?patient=" + p + "&category=vital-signs&date=lt" + yesterday, nil},
			{"Observation?patient=" + p + "&category=vital-signs&date=ge" + yesterday + "&date=lt2100", vitals},
			{"Observation?patient=" + p + "&code=8867-4&date=gt2000", []string{v + "-hr"}},
			{"Observation?patient=" + p + "&code=8867-4&date=le2000", nil},
			{"Observation?patient=" + p + "&category=vital-signs&status=final", vitals},
			{"Observation?patient=" + p + "&category=vital-signs&status=preliminary", nil},
			{"Observation?patient=" + n + "&category=vital-signs&status=preliminary", []string{o + "-hr"}},

			{"Condition?patient=" + p, []string{v + "-1", v + "-2"}},
			{"Condition?patient=" + p + "&category=encounter-diagnosis", []string{v + "-1", v + "-2"}},
			{"Condition?patient=" + p + "&category=problem-list-item", nil},
			{"Condition?patient=" + p + "&code=I10", []string{v + "-1"}},
			{"Condition?patient=" + p + "&category=encounter-diagnosis&encounter=Encounter/" + v, []string{v + "-1", v + "-2"}},
			{"Condition?patient=" + p + "&category=encounter-diagnosis&encounter=" + o, nil},
			{"Condition?patient=" + p + "&recorded-date=ge" + yesterday, []string{v + "-1", v + "-2"}},
			{"Condition?patient=" + p + "&recorded-date=lt" + yesterday, nil},

			{"AllergyIntolerance?patient=" + p, []string{p + "-1"}},
			{"AllergyIntolerance?patient=" + p + "&clinical-status=active", []string{p + "-1"}},
			{"AllergyIntolerance?patient=" + p + "&clinical-status=inactive,resolved", nil},

			{"MedicationRequest?patient=" + p + "&intent=order", []string{rx}},
			{"MedicationRequest?patient=" + p + "&intent=plan", nil},
			{"MedicationRequest?patient=" + p + "&intent=order&status=active,draft", []string{rx}},
			{"MedicationRequest?patient=" + p + "&intent=order&status=stopped", nil},
			{"MedicationRequest?patient=" + p + "&intent=order&authoredon=ge" + yesterday, []string{rx}},
			{"MedicationRequest?patient=" + p + "&intent=order&authoredon=lt" + yesterday, nil},
			{"MedicationRequest?_id=" + rx, []string{rx}},
			{"MedicationRequest?patient=" + p + "&intent=order&encounter=Encounter/" + v, []string{rx}},
			{"MedicationRequest?patient=" + p + "&intent=order&encounter=Encounter/" + o, nil},

			{"Encounter?_id=" + v, []string{v}},
			{"Encounter?patient=" + p, []string{v}},
			{"Encounter?subject:Patient=" + p, []string{v}},
			{"Encounter?patient=" + esc("https://elsewhere.example/fhir/Patient/"+p), []string{v}},
			{"Encounter?patient=Patient/" + p + "&date=ge" + today, []string{v}},
			{"Encounter?date=ge" + yesterday + "&patient=" + n, []string{o}},
			{"Encounter?patient=" + p + "&date=lt" + yesterday, nil},
			{"Encounter?patient=" + p + "&status=finished", []string{v}},
			{"Encounter?patient=" + n + "&status=finished", nil},
			{"Encounter?patient=" + p + "&class=" + esc("http://terminology.hl7.org/CodeSystem/v3-ActCode|AMB"), []string{v}},
			{"Encounter?patient=" + p + "&class=IMP", nil},
			{"Encounter?patient=" + p + "&type=new", []string{v}},
			{"Encounter?patient=" + n + "&type=new", nil},
			{"Encounter?patient=" + n + "&type=follow-up", []string{o}},
		}
		for _, tc := range cases {
			b := get(t, api, "/fhir/R4/"+tc.path, http.StatusOK)
			want := slices.Sorted(slices.Values(tc.want))
			if got := matched(b); !slices.Equal(got, want) {
				t.Errorf("%s found %v, want %v", tc.path, got, want)
			}
			if issues := outcomeIssues(t, b); len(issues) != 0 {
				t.Errorf("%s warned: %v", tc.path, issues)
			}
		}

		// Every parameter is declared, with its type.
		cs := get(t, c.env.Client(), "/fhir/R4/metadata", http.StatusOK)
		declared := map[string]string{}
		for _, res := range cs["rest"].([]any)[0].(map[string]any)["resource"].([]any) {
			r := res.(map[string]any)
			params, _ := r["searchParam"].([]any)
			for _, sp := range params {
				m := sp.(map[string]any)
				declared[r["type"].(string)+"."+m["name"].(string)] = m["type"].(string)
			}
		}
		for param, kind := range map[string]string{
			"Patient._id": "token", "Patient.identifier": "token", "Patient.name": "string", "Patient.birthdate": "date", "Patient.gender": "token", "Patient.family": "string",
			"Observation.patient": "reference", "Observation.category": "token", "Observation.code": "token", "Observation.date": "date", "Observation.status": "token",
			"Condition.patient": "reference", "Condition.category": "token", "Condition.clinical-status": "token", "Condition.code": "token",
			"Condition.encounter": "reference", "Condition.recorded-date": "date",
			"AllergyIntolerance.patient": "reference", "AllergyIntolerance.clinical-status": "token",
			"MedicationRequest.patient": "reference", "MedicationRequest.intent": "token", "MedicationRequest.status": "token",
			"MedicationRequest.authoredon": "date", "MedicationRequest.encounter": "reference",
			"Encounter._id": "token", "Encounter.patient": "reference", "Encounter.date": "date", "Encounter.status": "token", "Encounter.class": "token", "Encounter.type": "token",
			"Organization.identifier": "token",
		} {
			if declared[param] != kind {
				t.Errorf("%s declared as %q, want %q", param, declared[param], kind)
			}
		}
	})
}

// TestStatusSearchesSayWhatTheRecordHolds: a search by a status the record does not hold (a
// listed allergy's verification, a visit diagnosis's clinical status) says so beside what it
// finds, so that "none" does not read as an answer to a safety question.
func TestStatusSearchesSayWhatTheRecordHolds(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		p := fmt.Sprint(c.patientID)
		for _, tc := range []struct{ search, note string }{
			{"AllergyIntolerance?patient=" + p + "&verification-status=confirmed", "warning informational [verification-status]"},
			{"Condition?patient=" + p + "&clinical-status=active", "warning informational [clinical-status]"},
			{"Condition?patient=" + p + "&clinical-status=resolved", "warning informational [clinical-status]"},
		} {
			b := get(t, api, "/fhir/R4/"+tc.search, http.StatusOK)
			if issues := outcomeIssues(t, b); !slices.Contains(issues, tc.note) {
				t.Errorf("%s: outcome %v, want %q", tc.search, issues, tc.note)
			}
			if strings.HasPrefix(tc.search, "Condition") && len(matched(b)) != 0 {
				t.Errorf("%s found %v: a visit's diagnosis has no clinical status", tc.search, matched(b))
			}
		}
		if issues := outcomeIssues(t, get(t, api, "/fhir/R4/AllergyIntolerance?patient="+p+"&clinical-status=active", http.StatusOK)); len(issues) != 0 {
			t.Errorf("a clinical-status search of allergies notes %v", issues)
		}
	})
}

// TestEveryFilterIsBounded: a condition tested on the resources built (a code, a category, a
// status) examines at most the scan budget of records for one page, as _lastUpdated does: a
// search of every patient's heart rates does not walk every visit in one request, and its
// next links still lead to every match once.
func TestEveryFilterIsBounded(t *testing.T) {
	fhir.SetScanBudget(t, 2)
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		var others []string
		for i := range 3 {
			others = append(others, fmt.Sprint(c.secondVisit(t, 2+i)))
		}
		for _, name := range []string{"Ivanov", "Tran"} {
			if r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Bao", "last_name": name, "birth_date": "1990-01-01", "sex": "male"}); r.Status != http.StatusCreated {
				t.Fatalf("register: %d %s", r.Status, r.Body)
			}
		}
		api, _ := c.token(t, "doc", "")
		suffixed := func(suffix string) []string {
			var out []string
			for _, id := range others {
				out = append(out, id+suffix)
			}
			return out
		}
		for _, tc := range []struct {
			path string
			want []string
		}{
			{"/fhir/R4/Observation?code=8867-4&_count=10", append(suffixed("-hr"), fmt.Sprintf("%d-hr", c.visitID))},
			{"/fhir/R4/Condition?code=J06.9&_count=10", suffixed("-1")},
			{"/fhir/R4/Encounter?type=follow-up&_count=10", others},
			{"/fhir/R4/AllergyIntolerance?clinical-status=active&_count=10", []string{fmt.Sprintf("%d-1", c.patientID), fmt.Sprintf("%d-nka", c.nkaID)}},
		} {
			var found []string
			pages := 0
			for path := tc.path; path != ""; pages++ {
				b := get(t, api, path, http.StatusOK)
				found = append(found, matched(b)...)
				path = ""
				if l := link(b, "next"); l != "" {
					path = relative(t, l)
				}
			}
			slices.Sort(found)
			if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(found, want) || pages < 2 {
				t.Errorf("%s: %v in %d pages, want %v over several pages", tc.path, found, pages, want)
			}
		}
	})
}

// TestEscapedSearchValues: a value's escaped comma and pipe are characters of the value (an
// identifier of another system holding either is found by it, with or without its system),
// while an unescaped comma separates values (a parameter taking one refuses two) and an
// escaped one keeps a name whole.
func TestEscapedSearchValues(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "admin", "")
		const sys = "http://example.org/ids"
		sent := newPatientResource("Escaped")
		sent["identifier"] = []any{map[string]any{"system": sys, "value": "A,1"}, map[string]any{"system": sys, "value": "B|2"}}
		created, _ := send(t, api, "POST", "/fhir/R4/Patient", sent, nil, http.StatusCreated)
		id := created["id"].(string)
		for _, c := range []struct {
			query  string
			status int
			want   []string
		}{
			{`identifier=` + sys + `|A\,1`, http.StatusOK, []string{id}},
			{`identifier=A\,1`, http.StatusOK, []string{id}},
			{`identifier=` + sys + `|B\|2`, http.StatusOK, []string{id}},
			{`identifier=B\|2`, http.StatusOK, []string{id}},
			{`identifier=` + sys + `|A\,1\,`, http.StatusOK, nil},
			{`identifier=` + sys + `|A`, http.StatusOK, nil},
			{`identifier=` + sys + `|A,1`, http.StatusBadRequest, nil}, // two values: A and 1
			{`family=Escaped\,Nobody`, http.StatusOK, nil},             // one name, both words
			{`family=Escaped,Nobody`, http.StatusBadRequest, nil},      // two names
			{`_id=` + id + `\,0`, http.StatusOK, nil},                  // one id, no such
			{`_id=0,` + id, http.StatusOK, []string{id}},
		} {
			b := get(t, api, "/fhir/R4/Patient?"+strings.ReplaceAll(url.PathEscape(c.query), "&", "%26"), c.status)
			if c.status != http.StatusOK {
				continue
			}
			if got := matched(b); !slices.Equal(got, c.want) {
				t.Errorf("%s: found %v, want %v", c.query, got, c.want)
			}
		}
	})
}

// TestEveryTypesSearchIsBounded: every type's search is the one generic search, with the
// scan budget applied to every filter. With a budget of one record, a search examines one
// record a page: a filter tested on the resources built that matches nothing (_lastUpdated
// before any record) answers as many pages as the unfiltered search, all empty, their next
// links walking every record once, for every type but Patient (whose search is all the
// register's query); so does a filter the store does not take in SQL (a practitioner's
// name). A page read at a cursor does not count the cursor's own record again.
func TestEveryTypesSearchIsBounded(t *testing.T) {
	fhir.SetScanBudget(t, 1)
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		c.secondVisit(t, 2)
		api, _ := c.token(t, "doc", "")
		walk := func(path string) (found []string, pages int) {
			for ; path != ""; pages++ {
				if pages > 50 {
					t.Fatalf("%s: more than 50 pages", path)
				}
				b := get(t, api, path, http.StatusOK)
				found = append(found, matched(b)...)
				path = ""
				if l := link(b, "next"); l != "" {
					path = relative(t, l)
				}
			}
			return found, pages
		}
		several := 0
		for _, kind := range fhir.SearchableTypes() {
			all, records := walk("/fhir/R4/" + kind + "?_count=100")
			none, pages := walk("/fhir/R4/" + kind + "?_count=100&_lastUpdated=lt1990-01-01")
			if kind == "Patient" {
				records = 1 // the register's query takes _lastUpdated: it reads no record
			}
			if (len(all) == 0 && !forecastOptional(kind)) || len(none) != 0 || pages != records {
				t.Errorf("%s: the filter found %v in %d pages; unfiltered, %d resources in %d pages (one record each)", kind, none, pages, len(all), records)
			}
			if records > 1 {
				several++
			}
		}
		if several < 7 {
			t.Errorf("only %d types have several records: the budget is hardly tested", several)
		}
		_, accounts := walk("/fhir/R4/Practitioner?_count=100")
		if none, pages := walk("/fhir/R4/Practitioner?_count=100&name=nobody-at-all"); len(none) != 0 || pages != accounts || pages < 2 {
			t.Errorf("Practitioner?name=: %v in %d pages, want none in %d", none, pages, accounts)
		}
	})
}
