package fhir_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestABundleNamesEachEntryOnce: two entries with one fullUrl (bdl-7) are refused whole,
// naming the second, and nothing is written — a reference to that fullUrl would name
// either patient.
func TestABundleNamesEachEntryOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doc, _ := c.token(t, "doc", "")
		const urn = "urn:uuid:bbbbbbbb-0000-4000-8000-000000000001"
		for _, kind := range []string{"transaction", "batch"} {
			before := written(t, db, "Twice")
			oo, _ := send(t, doc, "POST", "/fhir/R4", bundleOf(kind,
				writeEntry(urn, newPatientResource("Twice"), "POST", "Patient"),
				writeEntry(urn, newPatientResource("Twiceagain"), "POST", "Patient")), nil, http.StatusBadRequest)
			if js := fmt.Sprint(oo["issue"]); !strings.Contains(js, "Bundle.entry[1].fullUrl") || !strings.Contains(js, urn) {
				t.Errorf("%s: the repeated fullUrl is not named: %s", kind, js)
			}
			if after := written(t, db, "Twice"); after != before {
				t.Errorf("%s: a refused Bundle wrote %v (before %v)", kind, after, before)
			}
		}
	})
}
