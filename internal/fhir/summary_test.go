package fhir_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestSummaryAndElements: _summary=count answers the count alone; _summary=false is the
// whole resources; the summaries and _elements, which the server does not make, come whole
// with a warning under lenient handling and are refused under strict handling — never
// silently ignored.
func TestSummaryAndElements(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		b := get(t, api, "/fhir/R4/Patient?family=le&_summary=count", http.StatusOK)
		if fmt.Sprint(b["total"]) != "1" || len(matched(b)) != 0 {
			t.Errorf("_summary=count: total %v, entries %v", b["total"], matched(b))
		}
		if self := link(b, "self"); self == "" || link(b, "next") != "" {
			t.Errorf("_summary=count links: %v", b["link"])
		}
		b = get(t, api, "/fhir/R4/Patient?family=le&_summary=false", http.StatusOK)
		if got := matched(b); !slices.Equal(got, []string{fmt.Sprint(c.patientID)}) || len(outcomeIssues(t, b)) != 0 {
			t.Errorf("_summary=false: %v %v", got, outcomeIssues(t, b))
		}
		for _, q := range []string{"_summary=true", "_summary=text", "_elements=name,gender"} {
			b = get(t, api, "/fhir/R4/Patient?family=le&"+q, http.StatusOK)
			if got := matched(b); !slices.Equal(got, []string{fmt.Sprint(c.patientID)}) {
				t.Errorf("%s: %v", q, got)
			}
			if got := outcomeIssues(t, b); len(got) != 1 || got[0] != "warning not-supported ["+q[:slices.Index([]byte(q), '=')]+"]" {
				t.Errorf("%s outcome: %v", q, got)
			}
		}
		api.Header.Set("Prefer", "handling=strict")
		get(t, api, "/fhir/R4/Patient?family=le&_elements=name", http.StatusBadRequest)
		get(t, api, "/fhir/R4/Patient?family=le&_summary=true", http.StatusBadRequest)
		get(t, api, "/fhir/R4/Patient?family=le&_summary=count", http.StatusOK)
	})
}
