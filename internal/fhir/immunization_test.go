package fhir_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
	"emr/internal/immunisation"
)

// immunise writes one record of the immunisation record straight into its table (the
// fields a test names over a given dose's defaults), and returns its id.
func (c *clinic) immunise(t *testing.T, patient int64, fields map[string]any) int64 {
	t.Helper()
	row := map[string]any{"kind": "given", "status": "completed", "vaccine": "", "antigen": "", "occurred_on": time.Now().UTC().Format(time.DateOnly),
		"dose_number": nil, "lot": "", "expiry": "", "site": "", "route": "", "given_by": nil, "performer": "", "source": "", "place": "",
		"reason": "", "until_on": "", "note": "", "error_reason": "", "appointment_id": nil}
	for k, v := range fields {
		row[k] = v
	}
	cols := []string{"kind", "status", "vaccine", "antigen", "occurred_on", "dose_number", "lot", "expiry", "site", "route", "given_by",
		"performer", "source", "place", "reason", "until_on", "note", "error_reason", "appointment_id"}
	args := []any{patient}
	marks := []string{"$1"}
	for _, col := range cols {
		args = append(args, row[col])
		marks = append(marks, fmt.Sprintf("$%d", len(args)))
	}
	now := time.Now().UTC()
	args = append(args, now, now)
	marks = append(marks, fmt.Sprintf("$%d", len(args)-1), fmt.Sprintf("$%d", len(args)))
	var id int64
	// The columns are this test's own list: no value is written into the statement.
	err := c.env.DB.QueryRowContext(context.Background(), `INSERT INTO immunisations (patient_id, `+strings.Join(cols, ", ")+`, created_at, updated_at)
		VALUES (`+strings.Join(marks, ", ")+`) RETURNING id`, args...).Scan(&id)
	if err != nil {
		t.Fatalf("immunise %v: %v", fields, err)
	}
	return id
}

// react records a reaction after dose id, straight into its table.
func (c *clinic) react(t *testing.T, dose, patient int64, onset, reaction, severity, description string) {
	t.Helper()
	if _, err := c.env.DB.ExecContext(context.Background(), `INSERT INTO immunisation_reactions (immunisation_id, patient_id, onset_on, reaction,
		severity, serious, description, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		dose, patient, onset, reaction, severity, false, description, time.Now().UTC()); err != nil {
		t.Fatalf("react: %v", err)
	}
}

// forecastOptional reports whether kind is the forecast (ImmunizationRecommendation), which
// a patient has only when the shipped schedules say something of them: the whole record's
// adult may have none, and the tests of every type do not ask for it (TestFHIRImmunizations
// asks for a child's).
func forecastOptional(kind string) bool { return kind == "ImmunizationRecommendation" }

// aVaccine is a product of the shipped catalogue with a CVX code, and one of its antigens;
// a key of no product when the catalogue ships none.
func aVaccine() (immunisation.Vaccine, bool) {
	// A series of several doses (hepatitis B's), so that two doses both count.
	if v, ok := immunisation.Default().Vaccine("hepb_paed", "en"); ok && v.CVX != "" && v.ATC != "" {
		return v, true
	}
	for _, v := range immunisation.Default().Vaccines("en") {
		if v.CVX != "" && v.ATC != "" && len(v.Antigens) > 0 {
			return v, true
		}
	}
	return immunisation.Vaccine{Key: "bcg", Name: "bcg", Antigens: []string{"tuberculosis"}}, false
}

// child registers a child born months ago, as the desk does.
func (c *clinic) child(t *testing.T, months int) (int64, time.Time) {
	t.Helper()
	born := time.Now().UTC().AddDate(0, -months, 0)
	var p struct{ ID int64 }
	r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Bao", "last_name": "Nguyen", "birth_date": born.Format(time.DateOnly), "sex": "female",
		"history": map[string]any{"allergy_status": "none"}})
	if r.Status != http.StatusCreated {
		t.Fatalf("register a child: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &p)
	return p.ID, born
}

// TestFHIRImmunizations: the immunisation record as Immunization (issue 59): a dose given here
// (its product's CVX and ATC codes, lot, expiry, site and route coded, who gave it, its dose
// number, a reaction after it), a dose given elsewhere (primarySource false, its origin), a
// refusal and a contraindication (not-done, with their reasons), a record entered in error;
// searched by patient, status, date, vaccine code and _id, paged, read and read at its
// version, in $everything and a bulk export, each answer valid FHIR R4; the forecast as an
// ImmunizationRecommendation for the child; read by who reads the chart's record alone.
func TestFHIRImmunizations(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, born := c.child(t, 10)
		day := func(months int) string { return born.AddDate(0, months, 0).Format(time.DateOnly) }
		vax, shipped := aVaccine()
		doc := c.env.UserID("doc")
		given := c.immunise(t, kid, map[string]any{"vaccine": vax.Key, "occurred_on": day(2), "dose_number": 1, "lot": "AB123", "expiry": "2030-06-30",
			"site": "left_thigh", "route": "IM", "given_by": doc, "note": "Given with the parent holding"})
		c.react(t, given, kid, day(2), "fever", "mild", "38.2 at night")
		elsewhere := c.immunise(t, kid, map[string]any{"kind": "elsewhere", "vaccine": vax.Key, "occurred_on": day(0), "source": "card",
			"place": "District hospital", "performer": "Midwife Lan", "site": "oral", "route": "PO"})
		refused := c.immunise(t, kid, map[string]any{"kind": "refused", "antigen": vax.Antigens[0], "occurred_on": day(3), "reason": "The parents declined"})
		contra := c.immunise(t, kid, map[string]any{"kind": "contraindicated", "antigen": vax.Antigens[0], "occurred_on": day(4), "reason": "Chemotherapy",
			"until_on": day(9)})
		back := born.AddDate(0, 6, 7).Format(time.DateOnly)
		deferred := c.immunise(t, kid, map[string]any{"kind": "deferred", "antigen": vax.Antigens[0], "occurred_on": day(6), "reason": "Fever 38.5",
			"until_on": back})
		wrong := c.immunise(t, kid, map[string]any{"vaccine": vax.Key, "occurred_on": day(5), "given_by": doc, "status": "entered_in_error",
			"error_reason": "Wrong child"})
		theirs := c.immunise(t, c.patientID, map[string]any{"vaccine": vax.Key, "occurred_on": "2020-01-02"})

		api, _ := c.token(t, "doc", "")
		id := func(n int64) string { return fmt.Sprint(n) }
		p := fmt.Sprintf("/fhir/R4/Immunization?patient=%d", kid)
		all := map[string]map[string]any{}
		for _, res := range entries(get(t, api, p, http.StatusOK)) {
			all[res["id"].(string)] = res
		}
		if got := slices.Sorted(maps.Keys(all)); !slices.Equal(got, slices.Sorted(slices.Values([]string{id(given), id(elsewhere), id(refused), id(contra), id(deferred), id(wrong)}))) {
			t.Fatalf("the child's immunizations: %v", got)
		}
		js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
		here := js(all[id(given)])
		want := []string{`"status":"completed"`, `"primarySource":true`, `"lotNumber":"AB123"`, `"expirationDate":"2030-06-30"`,
			`"occurrenceDateTime":"` + day(2) + `"`, `"patient":{"reference":"Patient/` + id(kid) + `"}`,
			`{"code":"LT","display":"left thigh","system":"http://terminology.hl7.org/CodeSystem/v3-ActSite"}`,
			`{"code":"IM","display":"Injection, intramuscular","system":"http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration"}`,
			`"reference":"Practitioner/` + id(doc) + `"`, `"code":"AP"`,
			`"reaction":[{"date":"` + day(2) + `","detail":{"display":"fever (mild); 38.2 at night"}}]`, `"location":{"reference":"Location/clinic"}`,
			`"note":[{"text":"Given with the parent holding"}]`, `"versionId":"1"`}
		if shipped {
			want = append(want, `{"code":"`+vax.CVX+`","system":"http://hl7.org/fhir/sid/cvx"}`, `{"code":"`+vax.ATC+`","system":"http://www.whocc.no/atc"}`,
				`"text":"`+vax.Name+`"`)
		}
		for _, w := range want {
			if !strings.Contains(here, w) {
				t.Errorf("the dose given here lacks %s: %s", w, here)
			}
		}
		away := js(all[id(elsewhere)])
		for _, w := range []string{`"primarySource":false`, `"reportOrigin":{"coding":[{"code":"record","display":"Written Record","system":"http://terminology.hl7.org/CodeSystem/immunization-origin"}]}`,
			`"location":{"display":"District hospital"}`, `"actor":{"display":"Midwife Lan"}`, `"site":{"text":"Oral"}`, `"code":"PO"`} {
			if !strings.Contains(away, w) {
				t.Errorf("the dose given elsewhere lacks %s: %s", w, away)
			}
		}
		// A dose says the dose number its record gives, for each antigen of its vaccine, and
		// nothing the forecast derives (whether it counts changes without the record changing:
		// the patient's ImmunizationRecommendation says it).
		for rec, want := range map[int64]int{given: 1, elsewhere: 0} {
			res := all[id(rec)]
			list, _ := res["protocolApplied"].([]any)
			switch {
			case want == 0 && len(list) != 0, want > 0 && len(list) != 1:
				t.Errorf("record %d: protocolApplied %v, want dose %d", rec, list, want)
			case want > 0:
				p := list[0].(map[string]any)
				if fmt.Sprint(p["doseNumberPositiveInt"]) != fmt.Sprint(want) || p["series"] != nil || shipped && len(p["targetDisease"].([]any)) != len(vax.Antigens) {
					t.Errorf("record %d: protocolApplied %v", rec, p)
				}
			}
			if strings.Contains(js(res), "Not counted for ") {
				t.Errorf("record %d says what the forecast derives: %s", rec, js(res))
			}
		}
		for rec, w := range map[int64][]string{
			refused:  {`"status":"not-done"`, `"statusReason":{"coding":[{"code":"PATOBJ","display":"patient objection","system":"http://terminology.hl7.org/CodeSystem/v3-ActReason"}]`, `"text":"The parents declined"`},
			contra:   {`"status":"not-done"`, `"code":"MEDPREC"`, `"text":"Chemotherapy"`, `Contraindicated until ` + day(9)},
			deferred: {`"status":"not-done"`, `"code":"MEDPREC"`, `"text":"Fever 38.5"`, `Deferred until ` + back, `"doseNumberString":"not given"`},
			wrong:    {`"status":"entered-in-error"`, `"Entered in error: Wrong child"`},
		} {
			for _, s := range w {
				if got := js(all[id(rec)]); !strings.Contains(got, s) {
					t.Errorf("record %d lacks %s: %s", rec, s, got)
				}
			}
		}

		// Searches: status, date, _id, vaccine code; another patient's never.
		searches := map[string][]string{
			"&status=not-done":                        {id(refused), id(contra), id(deferred)},
			"&status=entered-in-error":                {id(wrong)},
			"&status=completed":                       {id(given), id(elsewhere)},
			"&date=" + day(2):                         {id(given)},
			"&date=ge" + day(3) + "&date=le" + day(4): {id(refused), id(contra)},
			"&_id=" + id(given) + "," + id(theirs):    {id(given)},
		}
		if shipped {
			searches["&vaccine-code=http://hl7.org/fhir/sid/cvx|"+vax.CVX] = []string{id(given), id(elsewhere), id(wrong)}
			searches["&vaccine-code="+vax.ATC] = []string{id(given), id(elsewhere), id(wrong)}
		}
		for q, w := range searches {
			if got := ids(get(t, api, p+q, http.StatusOK)); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(w))) {
				t.Errorf("%s found %v, want %v", q, got, w)
			}
		}
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/Immunization?patient=%d", c.patientID), http.StatusOK)); !slices.Equal(got, []string{id(theirs)}) {
			t.Errorf("the other patient's: %v", got)
		}
		// Paged two at a time, forward: every record once, in id order.
		var walked []string
		for path, pages := p+"&_count=2", 0; path != ""; pages++ {
			if pages > 5 {
				t.Fatalf("paging did not end")
			}
			b := get(t, api, path, http.StatusOK)
			walked = append(walked, ids(b)...)
			path = ""
			if l := link(b, "next"); l != "" {
				path = relative(t, l)
			}
		}
		if !slices.Equal(walked, []string{id(given), id(elsewhere), id(refused), id(contra), id(deferred), id(wrong)}) {
			t.Errorf("paged: %v", walked)
		}
		// Read, and read at its version; a reaction's dose read alone.
		r := api.Do("GET", "/fhir/R4/Immunization/"+id(given), nil)
		if validResource(t, r.Body); r.Status != http.StatusOK || r.Header.Get("ETag") != `W/"1"` {
			t.Errorf("read: %d %q", r.Status, r.Header.Get("ETag"))
		}
		get(t, api, "/fhir/R4/Immunization/"+id(given)+"/_history/1", http.StatusOK)
		// Named in the reader's language, read or searched.
		if ru, ok := immunisation.Default().Vaccine(vax.Key, "ru"); ok && shipped {
			api.Header.Set("Accept-Language", "ru")
			for _, path := range []string{"/fhir/R4/Immunization/" + id(given), p + "&_id=" + id(given)} {
				if got := js(get(t, api, path, http.StatusOK)); !strings.Contains(got, `"text":"`+ru.Name+`"`) {
					t.Errorf("%s in Russian: %s", path, got)
				}
			}
			api.Header.Del("Accept-Language")
		}
		get(t, api, "/fhir/R4/Immunization/999999", http.StatusNotFound)
		// Included with its patient and who gave it; the patient's revinclude.
		b := get(t, api, p+"&_id="+id(given)+"&_include=Immunization:patient&_include=Immunization:performer", http.StatusOK)
		if got := fmt.Sprint(ids(b)); got != fmt.Sprintf("[%d %d %d]", given, kid, doc) {
			t.Errorf("included: %s", got)
		}
		b = get(t, api, "/fhir/R4/Patient?_id="+id(kid)+"&_revinclude=Immunization:patient", http.StatusOK)
		if got := len(ids(b)); got != 7 {
			t.Errorf("revincluded: %v", ids(b))
		}

		// $everything carries them, and the forecast when the catalogue has schedules.
		kinds := map[string]int{}
		for _, e := range entries(get(t, api, "/fhir/R4/Patient/"+id(kid)+"/$everything", http.StatusOK)) {
			kinds[e["resourceType"].(string)]++
		}
		schedules := len(immunisation.Default().Schedules("en")) > 0
		if kinds["Immunization"] != 6 || (schedules && kinds["ImmunizationRecommendation"] != 1) {
			t.Errorf("$everything: %v", kinds)
		}
		// A bulk export of the patients carries them too.
		admin, _ := c.token(t, "admin", "")
		lines := exportLines(t, admin, exportTo(t, admin, "/fhir/R4/Patient/$export?_type=Immunization,ImmunizationRecommendation"))
		for _, rec := range []int64{given, elsewhere, refused, contra, wrong, theirs} {
			if _, ok := lines["Immunization/"+id(rec)]; !ok {
				t.Errorf("the export lacks Immunization/%d: %v", rec, kindsOf(lines))
			}
		}
		if _, ok := lines["ImmunizationRecommendation/"+id(kid)]; schedules && !ok {
			t.Errorf("the export lacks the child's recommendation: %v", kindsOf(lines))
		}
		// _since: the records changed since; the forecasts, worked out now, whatever it says.
		if _, err := db.ExecContext(context.Background(), `UPDATE immunisations SET updated_at = $1 WHERE id <> $2`, time.Now().UTC().Add(-48*time.Hour), wrong); err != nil {
			t.Fatal(err)
		}
		since := time.Now().UTC().Add(-24 * time.Hour).Format(time.RFC3339)
		lines = exportLines(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Immunization,ImmunizationRecommendation&_since="+url.QueryEscape(since)))
		if k := kindsOf(lines); k["Immunization"] != 1 || lines["Immunization/"+id(wrong)] == nil || (schedules && k["ImmunizationRecommendation"] == 0) {
			t.Errorf("changed since a day ago: %v", k)
		}

		// The forecast, for the child.
		rb := get(t, api, "/fhir/R4/ImmunizationRecommendation?patient="+id(kid), http.StatusOK)
		if schedules {
			if got := ids(rb); !slices.Equal(got, []string{id(kid)}) {
				t.Fatalf("recommendations: %v", got)
			}
			rec := get(t, api, "/fhir/R4/ImmunizationRecommendation/"+id(kid), http.StatusOK)
			s := js(rec)
			for _, w := range []string{`"patient":{"reference":"Patient/` + id(kid) + `"}`, `"forecastStatus":`, `"code":"30980-7","display":"Date vaccine due","system":"http://loinc.org"`,
				`"date":"` + time.Now().UTC().Format(time.DateOnly) + `"`} {
				if !strings.Contains(s, w) {
					t.Errorf("the recommendation lacks %s: %s", w, s)
				}
			}
		} else {
			get(t, api, "/fhir/R4/ImmunizationRecommendation/"+id(kid), http.StatusNotFound)
		}
		// The desk reads the register, not the immunisation record.
		desk, _ := c.token(t, "clerk", "")
		get(t, desk, p, http.StatusForbidden)
		get(t, desk, "/fhir/R4/ImmunizationRecommendation?patient="+id(kid), http.StatusForbidden)
		// A token scoped to patients alone reads none of it.
		scoped, _ := c.token(t, "doc", "user/Patient.rs")
		get(t, scoped, p, http.StatusForbidden)
	})
}

// TestImmunizationRecommendationIsFHIR: a forecast's every status and date, as the API writes
// it, is a valid R4 ImmunizationRecommendation.
func TestImmunizationRecommendationIsFHIR(t *testing.T) {
	f := immunisation.Forecast{AsOf: "2026-12-01",
		Evaluations: []immunisation.Evaluation{{DoseID: 7, Antigen: "measles", Schedule: "who", DoseNumber: 1, Valid: true}},
		Recommendations: []immunisation.Recommendation{
			{Antigen: "measles", Schedule: "who", DoseNumber: 2, Doses: 2, EarliestOn: "2026-11-01", DueOn: "2026-12-01", OverdueOn: "2027-01-01", LatestOn: "2030-01-01", Status: "due", Vaccines: []string{"mmr"}},
			{Antigen: "hepb", Schedule: "who", DoseNumber: 3, Doses: 3, Status: "complete"},
			{Antigen: "rotavirus", Schedule: "who", DoseNumber: 1, Doses: 2, Status: "aged_out"},
			{Antigen: "bcg", Schedule: "who", DoseNumber: 1, Doses: 1, EarliestOn: "2027-01-01", DueOn: "2027-02-01", OverdueOn: "2027-03-01", Status: "upcoming"},
		}}
	body, err := fhir.RecommendationJSON(12, f)
	if err != nil {
		t.Fatal(err)
	}
	res := validResource(t, body)
	s := string(body)
	for _, w := range []string{`"id":"12"`, `"date":"2026-12-01"`, `"code":"30981-5"`, `"code":"30980-7"`, `"code":"59778-1"`, `"code":"59777-3"`,
		`"system":"http://terminology.hl7.org/CodeSystem/immunization-recommendation-status","code":"due"`, `"code":"complete"`,
		`"system":"urn:emr:immunisation-forecast-status","code":"aged_out"`,
		// A dose to come is HL7's due (or will be due), the clinic's upcoming beside it.
		`"forecastStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/immunization-recommendation-status","code":"due","display":"Due"},{"system":"urn:emr:immunisation-forecast-status","code":"upcoming"}]`, `"supportingImmunization":[{"reference":"Immunization/7"}]`,
		`"doseNumberPositiveInt":2`, `"seriesDosesPositiveInt":2`, `"series":"who"`} {
		if !strings.Contains(s, w) {
			t.Errorf("lacks %s: %s", w, s)
		}
	}
	if res["meta"].(map[string]any)["versionId"] != nil {
		t.Errorf("a forecast worked out when read claims a version: %v", res["meta"])
	}
}

// TestSmartAppReadsItsPatientsImmunizations: an app launched from a child's chart with
// patient/Immunization.rs and patient/ImmunizationRecommendation.read (a v1 scope) reads that
// child's immunisations and forecast, nobody else's.
func TestSmartAppReadsItsPatientsImmunizations(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		kid, born := c.child(t, 4)
		vax, _ := aVaccine()
		mine := c.immunise(t, kid, map[string]any{"vaccine": vax.Key, "occurred_on": born.Format(time.DateOnly), "source": "card", "kind": "elsewhere"})
		theirs := c.immunise(t, c.patientID, map[string]any{"vaccine": vax.Key, "occurred_on": "2020-01-02"})
		scopes := "patient/Immunization.rs patient/ImmunizationRecommendation.read"
		app := c.registerApp(t, scopes)
		tok := launchedToken(t, app, c.doctor, kid, "launch "+scopes)
		cl := app.bearer(tok["access_token"])
		if got := ids(get(t, cl, "/fhir/R4/Immunization", http.StatusOK)); !slices.Equal(got, []string{fmt.Sprint(mine)}) {
			t.Errorf("the app's search: %v", got)
		}
		get(t, cl, fmt.Sprintf("/fhir/R4/Immunization/%d", mine), http.StatusOK)
		// Another patient's record is answered as one that does not exist (not 403, which
		// would tell the app it exists).
		get(t, cl, fmt.Sprintf("/fhir/R4/Immunization/%d", theirs), http.StatusNotFound)
		get(t, cl, fmt.Sprintf("/fhir/R4/Immunization?patient=%d", c.patientID), http.StatusForbidden)
		if len(immunisation.Default().Schedules("en")) > 0 {
			get(t, cl, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", kid), http.StatusOK)
			if got := ids(get(t, cl, "/fhir/R4/ImmunizationRecommendation", http.StatusOK)); !slices.Equal(got, []string{fmt.Sprint(kid)}) {
				t.Errorf("the app's forecasts: %v", got)
			}
		}
		get(t, cl, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", c.patientID), http.StatusNotFound)
		get(t, cl, fmt.Sprintf("/fhir/R4/Observation?patient=%d", kid), http.StatusForbidden)
	})
}
