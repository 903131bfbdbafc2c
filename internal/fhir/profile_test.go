package fhir_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The elements each US Core 6.1.0 profile the API claims requires: min 1 in the profile's
// StructureDefinition (hl7.fhir.us.core 6.1.0), an element required inside one that is
// present, the fixed codes of its slices, and the invariants that make an element required
// (us-core-2, us-core-8, us-core-9, the vital signs' vs-2 and vs-3). Written down here from
// the published profiles, apart from the code that makes the claims: every resource any test
// receives (validResource) is held to the rules of each profile it claims, and a claim of a
// profile missing from this table fails too.

const (
	loinc       = "http://loinc.org"
	ucum        = "http://unitsofmeasure.org"
	obsCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
)

// rule checks one requirement of a profile on a resource: "" when it holds, else what is
// missing.
type rule func(res map[string]any) string

// values are the values at a dotted path, arrays flattened on the way.
func values(v any, path string) []any {
	if path == "" {
		if list, ok := v.([]any); ok {
			return list
		}
		return []any{v}
	}
	head, rest, _ := strings.Cut(path, ".")
	var out []any
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			out = append(out, values(item, path)...)
		}
	case map[string]any:
		if child, ok := x[head]; ok {
			out = append(out, values(child, rest)...)
		}
	}
	return out
}

// present: something at path.
func present(path string) rule {
	return func(res map[string]any) string {
		if len(values(res, path)) == 0 {
			return path
		}
		return ""
	}
}

// anyPresent: something at one of paths.
func anyPresent(paths ...string) rule {
	return func(res map[string]any) string {
		for _, p := range paths {
			if len(values(res, p)) > 0 {
				return ""
			}
		}
		return "one of " + strings.Join(paths, ", ")
	}
}

// coding: a coding of system and code among the codings at path (a slice's fixed pattern).
func coding(path, system string, codes ...string) rule {
	return func(res map[string]any) string {
		for _, c := range values(res, path+".coding") {
			m, _ := c.(map[string]any)
			if m["system"] == system && slices.Contains(codes, fmt.Sprint(m["code"])) {
				return ""
			}
		}
		return path + " " + system + "|" + strings.Join(codes, ",")
	}
}

// each: every element at path holds each of the rules (an element required inside another).
func each(path string, rules ...rule) rule {
	return func(res map[string]any) string {
		for i, v := range values(res, path) {
			m, _ := v.(map[string]any)
			for _, r := range rules {
				if miss := r(m); miss != "" {
					return fmt.Sprintf("%s[%d].%s", path, i, miss)
				}
			}
		}
		return ""
	}
}

// when: the rules hold where the status is one of statuses.
func when(statuses []string, rules ...rule) rule {
	return func(res map[string]any) string {
		if !slices.Contains(statuses, fmt.Sprint(res["status"])) {
			return ""
		}
		for _, r := range rules {
			if miss := r(res); miss != "" {
				return miss + " (status " + fmt.Sprint(res["status"]) + ")"
			}
		}
		return ""
	}
}

// toDay: a dateTime at path, when present, is given at least to the day (us-core-1, vs-1).
func toDay(path string) rule {
	return func(res map[string]any) string {
		for _, v := range values(res, path) {
			if len(fmt.Sprint(v)) < len("2006-01-02") {
				return path + " to the day"
			}
		}
		return ""
	}
}

// ucumQuantity: a whole UCUM quantity at path with one of codes (any code when none).
func ucumQuantity(path string, codes ...string) []rule {
	rules := []rule{present(path + ".value"), present(path + ".unit"), present(path + ".code"), func(res map[string]any) string {
		for _, s := range values(res, path+".system") {
			if s != ucum {
				return path + ".system " + ucum
			}
		}
		for _, c := range values(res, path+".code") {
			if len(codes) > 0 && !slices.Contains(codes, fmt.Sprint(c)) {
				return path + ".code " + strings.Join(codes, ",")
			}
		}
		return ""
	}}
	return append(rules, present(path+".system"))
}

// vital is a vital-sign profile's rules (US Core Vital Signs and the base FHIR vital signs):
// its LOINC codes and a UCUM value in one of units.
func vital(codes []string, units ...string) []rule {
	rules := []rule{present("status"), coding("category", obsCategory, "vital-signs"), present("subject"), present("effectiveDateTime"), toDay("effectiveDateTime")}
	for _, c := range codes {
		rules = append(rules, coding("code", loinc, c))
	}
	return append(rules, ucumQuantity("valueQuantity", units...)...)
}

var reportStatuses = []string{"partial", "preliminary", "final", "amended", "corrected", "appended"}

// usCoreRequired are the rules of each profile claimed, by its versioned canonical.
var usCoreRequired = map[string][]rule{
	"us-core-patient": {present("identifier"), each("identifier", present("system"), present("value")), present("name"),
		anyPresent("name.family", "name.given"), present("gender"), each("telecom", present("system"), present("value")),
		each("communication", present("language"))},
	"us-core-allergyintolerance": {present("code"), present("patient"), each("reaction", present("manifestation"))},
	"us-core-encounter": {present("status"), present("class"), present("type"), present("subject"),
		each("identifier", present("system"), present("value"))},
	"us-core-condition-encounter-diagnosis": {coding("category", "http://terminology.hl7.org/CodeSystem/condition-category", "encounter-diagnosis"),
		present("code"), present("subject")},
	"us-core-observation-lab": {present("status"), coding("category", obsCategory, "laboratory"), present("code"), present("subject"),
		toDay("effectiveDateTime"), each("component", present("code")),
		anyPresent("valueQuantity", "valueCodeableConcept", "valueString", "valueBoolean", "valueInteger", "valueRange", "valueRatio",
			"valueSampledData", "valueTime", "valueDateTime", "valuePeriod", "dataAbsentReason", "component", "hasMember")},
	"us-core-servicerequest":    {present("status"), present("intent"), present("code"), present("subject")},
	"us-core-medicationrequest": {present("status"), present("intent"), anyPresent("medicationCodeableConcept", "medicationReference"), present("subject")},
	"us-core-organization":      {present("active"), present("name")},
	"us-core-diagnosticreport-lab": {present("status"), coding("category", "http://terminology.hl7.org/CodeSystem/v2-0074", "LAB"), present("code"),
		present("subject"), when(reportStatuses, anyPresent("effectiveDateTime", "effectivePeriod"), present("issued"))},
	// The report of an imaging or functional study: a US Core note category (Radiology,
	// Cardiology, Pathology), and, as the clinic claims it, some content (a result or a
	// presented form).
	"us-core-diagnosticreport-note": {present("status"), coding("category", loinc, "LP29684-5", "LP29708-2", "LP7839-6"), present("code"),
		present("subject"), when(reportStatuses, anyPresent("effectiveDateTime", "effectivePeriod"), present("issued")), anyPresent("result", "presentedForm")},
	"us-core-heart-rate":         vital([]string{"8867-4"}, "/min"),
	"us-core-respiratory-rate":   vital([]string{"9279-1"}, "/min"),
	"us-core-body-temperature":   vital([]string{"8310-5"}, "Cel", "[degF]"),
	"us-core-pulse-oximetry":     vital([]string{"59408-5", "2708-6"}, "%"),
	"us-core-body-weight":        vital([]string{"29463-7"}, "kg", "[lb_av]", "g"),
	"us-core-body-height":        vital([]string{"8302-2"}, "cm", "[in_i]"),
	"us-core-bmi":                vital([]string{"39156-5"}, "kg/m2"),
	"us-core-head-circumference": vital([]string{"9843-4"}, "cm", "[in_i]"),
	"pediatric-bmi-for-age":      vital([]string{"59576-9"}, "%"),
	"us-core-blood-pressure": {present("status"), coding("category", obsCategory, "vital-signs"), coding("code", loinc, "85354-9"), present("subject"),
		present("effectiveDateTime"), toDay("effectiveDateTime"), component("8480-6"), component("8462-4")},
}

// component: the blood pressure's component of code, with a UCUM mm[Hg] value or the reason
// there is none (vs-3).
func component(code string) rule {
	return func(res map[string]any) string {
		for _, c := range values(res, "component") {
			m, _ := c.(map[string]any)
			if coding("code", loinc, code)(m) != "" {
				continue
			}
			if _, absent := m["dataAbsentReason"]; absent {
				return ""
			}
			for _, r := range ucumQuantity("valueQuantity", "mm[Hg]") {
				if miss := r(m); miss != "" {
					return "component " + code + " " + miss
				}
			}
			return ""
		}
		return "component " + code
	}
}

// claimProblems are what res lacks of the profiles it claims.
func claimProblems(res map[string]any) []string {
	var out []string
	for _, p := range values(res, "meta.profile") {
		name, ok := strings.CutPrefix(fmt.Sprint(p), "http://hl7.org/fhir/us/core/StructureDefinition/")
		if !ok {
			continue // another system's profile, kept as a Patient was sent with it
		}
		name, version, _ := strings.Cut(name, "|")
		rules, known := usCoreRequired[name]
		if !known || version != "6.1.0" {
			out = append(out, fmt.Sprintf("claims %v, a profile the tests do not know", p))
			continue
		}
		for _, r := range rules {
			if miss := r(res); miss != "" {
				out = append(out, fmt.Sprintf("claims %s without %s", name, miss))
			}
		}
	}
	return out
}

// checkClaims fails t for each requirement res lacks of the profiles it claims.
func checkClaims(t testing.TB, res any) {
	t.Helper()
	m, _ := res.(map[string]any)
	for _, problem := range claimProblems(m) {
		t.Errorf("%v/%v %s", m["resourceType"], m["id"], problem)
	}
}

// TestTheClaimCheckRefusesWhatDoesNotConform keeps the check honest: each of these claims a
// profile it does not meet, or one the tests do not know.
func TestTheClaimCheckRefusesWhatDoesNotConform(t *testing.T) {
	const patient = `"meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient|6.1.0"]}`
	for _, bad := range []string{
		`{"resourceType":"Patient",` + patient + `,"identifier":[{"system":"urn:x","value":"1"}],"name":[{"family":"Lê"}]}`,
		`{"resourceType":"Patient",` + patient + `,"identifier":[{"value":"1"}],"name":[{"family":"Lê"}],"gender":"male"}`,
		`{"resourceType":"Patient",` + patient + `,"identifier":[{"system":"urn:x","value":"1"}],"name":[{"text":"Lê"}],"gender":"male"}`,
		`{"resourceType":"Patient","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient|5.0.1"]},"identifier":[{"system":"urn:x","value":"1"}],"name":[{"family":"Lê"}],"gender":"male"}`,
		`{"resourceType":"Practitioner","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-practitioner|6.1.0"]},"identifier":[{"system":"urn:x","value":"1"}],"name":[{"text":"Dr A"}]}`,
		`{"resourceType":"Observation","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-heart-rate|6.1.0"]},"status":"final",
			"category":[{"coding":[{"system":"` + obsCategory + `","code":"vital-signs"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},
			"subject":{"reference":"Patient/1"},"effectiveDateTime":"2026-01-02","valueQuantity":{"value":80,"unit":"beats/minute","system":"` + ucum + `","code":"bpm"}}`,
		`{"resourceType":"Observation","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure|6.1.0"]},"status":"final",
			"category":[{"coding":[{"system":"` + obsCategory + `","code":"vital-signs"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"85354-9"}]},
			"subject":{"reference":"Patient/1"},"effectiveDateTime":"2026-01-02","component":[{"code":{"coding":[{"system":"http://loinc.org","code":"8480-6"}]},
			"valueQuantity":{"value":120,"unit":"mmHg","system":"` + ucum + `","code":"mm[Hg]"}}]}`,
		`{"resourceType":"DiagnosticReport","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-lab|6.1.0"]},"status":"final",
			"category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v2-0074","code":"LAB"}]}],"code":{"text":"CBC"},"subject":{"reference":"Patient/1"},
			"effectiveDateTime":"2026-01-02"}`,
		`{"resourceType":"DiagnosticReport","meta":{"profile":["http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-note|6.1.0"]},"status":"final",
			"category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v2-0074","code":"RAD"}]}],"code":{"text":"Chest X-ray"},"subject":{"reference":"Patient/1"},
			"effectiveDateTime":"2026-01-02","issued":"2026-01-02T10:00:00Z","result":[{"reference":"Observation/lab-1-REPORT"}]}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
		if err != nil {
			t.Fatal(err)
		}
		if len(claimProblems(doc.(map[string]any))) == 0 {
			t.Errorf("the claim check accepted %s", bad)
		}
	}
	good, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"resourceType":"Patient",` + patient +
		`,"identifier":[{"system":"urn:x","value":"1"}],"name":[{"family":"Lê"}],"gender":"male"}`)))
	if problems := claimProblems(good.(map[string]any)); len(problems) > 0 {
		t.Errorf("the claim check refused a conforming patient: %v", problems)
	}
}
