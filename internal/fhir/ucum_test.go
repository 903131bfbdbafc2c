package fhir

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

// catalogueUnits are the units the shipped analyte catalogue writes: each analyte's own
// (lab_analytes.tsv's unit) and those its results may be entered in (lab_units.tsv).
func catalogueUnits(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for file, column := range map[string]int{"../catalogue/lab_analytes.tsv": 3, "../catalogue/lab_units.tsv": 1} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(f)
		r.Comma, r.FieldsPerRecord, r.LazyQuotes = '\t', -1, true
		rows, err := r.ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, row := range rows[1:] {
			if u := strings.TrimSpace(row[column]); u != "" {
				out[u] = true
			}
		}
	}
	return out
}

// TestEveryCatalogueUnitIsUCUM: every unit of the catalogue has its UCUM code in the table
// (there is no catalogue unit written as free text on purpose); a unit typed that the table
// does not know is written as its text alone, never claimed as UCUM.
func TestEveryCatalogueUnitIsUCUM(t *testing.T) {
	units := catalogueUnits(t)
	if len(units) < 20 {
		t.Fatalf("the catalogue's units: %v", units)
	}
	for u := range units {
		code, ok := ucumCodes[u]
		if !ok {
			t.Errorf("the catalogue's unit %q has no UCUM code in the table", u)
			continue
		}
		if code != u {
			t.Errorf("the catalogue writes %q, whose UCUM code is %q: the catalogue's units are UCUM codes", u, code)
		}
		if q := labQuantity(1, u); q.System != systemUCUM || q.Code != code {
			t.Errorf("%q as %+v", u, q)
		}
	}
	cases := []struct{ typed, code, unit string }{
		{"µmol/L", "umol/L", "µmol/L"}, {"μmol/L", "umol/L", "µmol/L"}, {"umol/L", "umol/L", "µmol/L"}, {"mIU/L", "m[IU]/L", "mIU/L"},
		{"m[IU]/L", "m[IU]/L", "mIU/L"}, {"×10⁹/L", "10*9/L", "×10⁹/L"}, {"mEq/L", "meq/L", "mEq/L"}, {"mg/dL{BUN}", "mg/dL{BUN}", "mg/dL"},
		{"{INR}", "{INR}", ""}, {" mmol/L ", "mmol/L", "mmol/L"},
		// Spellings analysers and other systems send: UCUM's lower-case litre, powers of ten.
		{"mmol/l", "mmol/L", "mmol/L"}, {"umol/l", "umol/L", "µmol/L"}, {"g/dl", "g/dL", "g/dL"}, {"10^9/L", "10*9/L", "×10⁹/L"},
		{"x10^9/l", "10*9/L", "×10⁹/L"}, {"10E12/L", "10*12/L", "×10¹²/L"}, {"10^3/ul", "10*3/uL", "×10³/µL"}, {"x 10^9/L", "10*9/L", "×10⁹/L"},
	}
	for _, c := range cases {
		if q := labQuantity(2, c.typed); q.System != systemUCUM || q.Code != c.code || q.Unit != c.unit {
			t.Errorf("%q as %+v, want code %q, unit %q", c.typed, q, c.code, c.unit)
		}
	}
	for _, free := range []string{"IU/ml", "cells/hpf", "titre", "mmol/dm3", "10^9"} {
		if q := labQuantity(3, free); q.System != "" || q.Code != "" || q.Unit != free {
			t.Errorf("free text %q claimed as %+v", free, q)
		}
	}
}
