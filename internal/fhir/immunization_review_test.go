package fhir_test

// The FHIR integrator's review of issue 59's immunisation resources: a refusal's vaccine code,
// SNOMED CT target diseases, no dates on a recommendation not to give, no recommendation for
// an adult, Immunization's kept versions, a SMART app's read of another patient's forecast,
// one read of the clinic's settings per search page.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
	"emr/internal/immunisation"
)

// codingOf is the code of system among a CodeableConcept's codings ("" for none).
func codingOf(concept any, system string) string {
	m, _ := concept.(map[string]any)
	list, _ := m["coding"].([]any)
	for _, c := range list {
		if cm, _ := c.(map[string]any); cm["system"] == system {
			s, _ := cm["code"].(string)
			return s
		}
	}
	return ""
}

// TestImmunizationRefusalIsCoded: a refusal and a contraindication of an antigen (no product)
// are Immunizations not-done whose vaccineCode (1..1) carries CVX's code of a vaccine against
// the antigen of no stated formulation, the antigen's name as text.
func TestImmunizationRefusalIsCoded(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, born := c.child(t, 10)
		on := born.AddDate(0, 3, 0).Format(time.DateOnly)
		refused := c.immunise(t, kid, map[string]any{"kind": "refused", "antigen": "measles", "occurred_on": on, "reason": "The parents declined"})
		contra := c.immunise(t, kid, map[string]any{"kind": "contraindicated", "antigen": "pertussis", "occurred_on": on, "reason": "Encephalopathy"})
		api, _ := c.token(t, "doc", "")
		for id, want := range map[int64][2]string{refused: {"05", "Measles"}, contra: {"107", "Pertussis (whooping cough)"}} {
			res := get(t, api, fmt.Sprintf("/fhir/R4/Immunization/%d", id), http.StatusOK)
			if res["status"] != "not-done" || res["statusReason"] == nil {
				t.Errorf("Immunization/%d: %v %v", id, res["status"], res["statusReason"])
			}
			vc := res["vaccineCode"].(map[string]any)
			if got := codingOf(vc, "http://hl7.org/fhir/sid/cvx"); got != want[0] || vc["text"] != want[1] {
				t.Errorf("Immunization/%d vaccineCode: %v, want CVX %s %q", id, vc, want[0], want[1])
			}
		}
		// CVX 107 (DTaP) is only the nearest code: the antigen itself is the protocol's coded
		// target disease, so a pertussis contraindication is not read as one of DTaP.
		res := get(t, api, fmt.Sprintf("/fhir/R4/Immunization/%d", contra), http.StatusOK)
		pa, _ := res["protocolApplied"].([]any)
		if len(pa) != 1 {
			t.Fatalf("the contraindication's protocolApplied: %v", res["protocolApplied"])
		}
		p := pa[0].(map[string]any)
		td := p["targetDisease"].([]any)
		if len(td) != 1 || codingOf(td[0].(map[string]any), "http://snomed.info/sct") != "27836007" || p["doseNumberString"] == nil || p["doseNumberPositiveInt"] != nil {
			t.Errorf("the contraindication's protocolApplied: %v", p)
		}
		// Found by its code, as a dose's product is.
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/Immunization?patient=%d&vaccine-code=http://hl7.org/fhir/sid/cvx|05", kid), http.StatusOK)); len(got) != 1 || got[0] != fmt.Sprint(refused) {
			t.Errorf("search by the refusal's CVX: %v", got)
		}
	})
}

// TestAntigensAreCoded: every shipped antigen has a CVX code for a record of no product and a
// SNOMED CT disease code (antigens.tsv), and they are what the review checked.
func TestAntigensAreCoded(t *testing.T) {
	want := map[string][2]string{"tb": {"19", "56717001"}, "hepb": {"45", "66071002"}, "diphtheria": {"107", "397430003"}, "tetanus": {"112", "76902006"},
		"pertussis": {"107", "27836007"}, "hib": {"17", "709410003"}, "polio": {"89", "398102009"}, "pneumococcal": {"109", "16814004"},
		"rotavirus": {"122", "18624000"}, "measles": {"05", "14189004"}, "mumps": {"07", "36989005"}, "rubella": {"06", "36653000"},
		"varicella": {"21", "38907003"}, "hepa": {"85", "40468003"}, "je": {"129", "52947006"}, "meningococcal": {"167", "23511006"},
		"hpv": {"137", "240532009"}, "influenza": {"88", "6142004"}, "typhoid": {"91", "4834000"}, "rabies": {"90", "14168008"},
		"yellow_fever": {"184", "16541001"}}
	for _, a := range immunisation.Default().Antigens("en") {
		cvx, sct := immunisation.Default().AntigenCodes(a.Key)
		if w, ok := want[a.Key]; !ok || cvx != w[0] || sct != w[1] {
			t.Errorf("%s: CVX %q SNOMED %q, want %v", a.Key, cvx, sct, w)
		}
	}
}

// TestRecommendationTargetsAndDates: a recommendation's target disease is coded in SNOMED CT
// (the clinic's code and the name kept beside it), and one that is not to be given — complete,
// aged out, refused, contraindicated — carries no dateCriterion, whatever days the forecast
// kept.
func TestRecommendationTargetsAndDates(t *testing.T) {
	dates := func(r immunisation.Recommendation) immunisation.Recommendation {
		r.EarliestOn, r.DueOn, r.OverdueOn, r.LatestOn = "2026-11-01", "2026-12-01", "2027-01-01", "2030-01-01"
		return r
	}
	f := immunisation.Forecast{AsOf: "2026-12-01", Recommendations: []immunisation.Recommendation{
		dates(immunisation.Recommendation{Antigen: "measles", Schedule: "who", DoseNumber: 2, Doses: 2, Status: "due"}),
		dates(immunisation.Recommendation{Antigen: "pertussis", Schedule: "who", DoseNumber: 1, Doses: 3, Status: "contraindicated"}),
		dates(immunisation.Recommendation{Antigen: "polio", Schedule: "who", DoseNumber: 1, Doses: 3, Status: "refused"}),
		dates(immunisation.Recommendation{Antigen: "hepb", Schedule: "who", DoseNumber: 3, Doses: 3, Status: "complete"}),
		dates(immunisation.Recommendation{Antigen: "rotavirus", Schedule: "who", DoseNumber: 1, Doses: 2, Status: "aged_out"}),
		dates(immunisation.Recommendation{Antigen: "diphtheria", Schedule: "who", DoseNumber: 1, Doses: 3, Status: "deferred"}),
	}}
	body, err := fhir.RecommendationJSON(12, f)
	if err != nil {
		t.Fatal(err)
	}
	res := validResource(t, body)
	for i, r := range res["recommendation"].([]any) {
		rec := r.(map[string]any)
		want := map[int]string{0: "14189004", 1: "27836007", 2: "398102009", 3: "66071002", 4: "18624000", 5: "397430003"}[i]
		if got := codingOf(rec["targetDisease"], "http://snomed.info/sct"); got != want {
			t.Errorf("recommendation %d targetDisease: %v, want SNOMED CT %s", i, rec["targetDisease"], want)
		}
		if codingOf(rec["targetDisease"], "urn:emr:antigen") == "" || rec["targetDisease"].(map[string]any)["text"] == "" {
			t.Errorf("recommendation %d lost the clinic's code or the name: %v", i, rec["targetDisease"])
		}
		if _, has := rec["dateCriterion"]; has != (i == 0 || i == 5) {
			t.Errorf("recommendation %d (%v) dateCriterion: %v", i, rec["forecastStatus"], rec["dateCriterion"])
		}
		// A deferred dose is HL7's "due" (forecastStatus is a modifier), the clinic's code beside it.
		if i == 5 && (codingOf(rec["forecastStatus"], "http://terminology.hl7.org/CodeSystem/immunization-recommendation-status") != "due" ||
			codingOf(rec["forecastStatus"], "urn:emr:immunisation-forecast-status") != "deferred") {
			t.Errorf("a deferred dose's forecastStatus: %v", rec["forecastStatus"])
		}
	}
}

// TestNoRecommendationForAnAdult: past the end of every schedule (18 years), a patient has no
// ImmunizationRecommendation — read, searched, in $everything or a patient's export — though
// the forecast lists every antigen as aged out.
func TestNoRecommendationForAnAdult(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, _ := c.child(t, 4)
		adult, _ := c.child(t, 12*30)
		api, _ := c.token(t, "doc", "")
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", kid), http.StatusOK)
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", adult), http.StatusNotFound)
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation?patient=%d", adult), http.StatusOK)); len(got) != 0 {
			t.Errorf("an adult's forecast searched: %v", got)
		}
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation?_id=%d,%d", kid, adult), http.StatusOK)); len(got) != 1 || got[0] != fmt.Sprint(kid) {
			t.Errorf("the forecasts of a child and an adult: %v", got)
		}
		for _, e := range entries(get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", adult), http.StatusOK)) {
			if e["resourceType"] == "ImmunizationRecommendation" {
				t.Errorf("an adult's $everything has a forecast: %v", e)
			}
		}
	})
}

// TestImmunizationHistoryIsKept: each change of a record (its creation, a reaction, entered in
// error) is a version Immunization's vread and _history give as it was.
func TestImmunizationHistoryIsKept(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, born := c.child(t, 10)
		var rec struct {
			ID      int64 `json:"id"`
			Version int   `json:"version"`
		}
		r := c.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/immunisations", kid), map[string]any{"kind": "elsewhere", "vaccine": "hepb_paed",
			"occurred_on": born.Format(time.DateOnly), "source": "card"})
		if r.Status != http.StatusCreated {
			t.Fatalf("record a dose: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &rec)
		if r := c.nurse.Do("POST", fmt.Sprintf("/api/immunisations/%d/reactions", rec.ID), map[string]any{"onset_on": born.AddDate(0, 0, 1).Format(time.DateOnly),
			"reaction": "fever", "severity": "mild"}); r.Status != http.StatusCreated {
			t.Fatalf("a reaction: %d %s", r.Status, r.Body)
		}
		if r := c.doctor.Do("POST", fmt.Sprintf("/api/immunisations/%d/entered-in-error", rec.ID), map[string]any{"reason": "Another child's card", "version": 2}); r.Status != http.StatusOK {
			t.Fatalf("entered in error: %d %s", r.Status, r.Body)
		}
		api, _ := c.token(t, "doc", "")
		base := fmt.Sprintf("/fhir/R4/Immunization/%d", rec.ID)
		for v, want := range map[int]string{1: "completed", 2: "completed", 3: "entered-in-error"} {
			res := get(t, api, fmt.Sprintf("%s/_history/%d", base, v), http.StatusOK)
			meta := res["meta"].(map[string]any)
			_, reacted := res["reaction"]
			if meta["versionId"] != fmt.Sprint(v) || res["status"] != want || reacted != (v >= 2) {
				t.Errorf("version %d: %v %v reaction %v", v, meta["versionId"], res["status"], reacted)
			}
		}
		var versions []string
		for _, e := range entries(get(t, api, base+"/_history", http.StatusOK)) {
			versions = append(versions, e["meta"].(map[string]any)["versionId"].(string))
		}
		if strings.Join(versions, ",") != "3,2,1" {
			t.Errorf("the history: %v", versions)
		}
	})
}

// TestSmartRecommendationOfAnotherPatientIsMissing: an app launched for one child asking for
// another patient's forecast is answered exactly as for a patient who does not exist.
func TestSmartRecommendationOfAnotherPatientIsMissing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		kid, _ := c.child(t, 4)
		other, _ := c.child(t, 6)
		scopes := "patient/ImmunizationRecommendation.rs"
		app := c.registerApp(t, scopes)
		tok := launchedToken(t, app, c.doctor, kid, "launch "+scopes)
		cl := app.bearer(tok["access_token"])
		get(t, cl, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", kid), http.StatusOK)
		theirs := cl.Do("GET", fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", other), nil)
		none := cl.Do("GET", "/fhir/R4/ImmunizationRecommendation/99999999", nil)
		if theirs.Status != http.StatusNotFound || none.Status != http.StatusNotFound {
			t.Fatalf("another patient's %d, none %d", theirs.Status, none.Status)
		}
		var a, b map[string]any
		_ = json.Unmarshal(theirs.Body, &a)
		_ = json.Unmarshal(none.Body, &b)
		ia, ib := a["issue"].([]any)[0].(map[string]any), b["issue"].([]any)[0].(map[string]any)
		if ia["code"] != ib["code"] || strings.ReplaceAll(ia["diagnostics"].(string), fmt.Sprint(other), "X") != strings.ReplaceAll(ib["diagnostics"].(string), "99999999", "X") {
			t.Errorf("the answers differ: %s / %s", theirs.Body, none.Body)
		}
	})
}
