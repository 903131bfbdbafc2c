package fhir_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestObservationByID: _id finds a result's Observation (lab-{order}-{analyte}) alone, a
// vital sign's alone, and both together; a result's id read as a visit's once matched none.
func TestObservationByID(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		api, _ := c.token(t, "doc", "")
		var lab, vital string
		for _, id := range ids(get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d&_count=100", c.patientID), http.StatusOK)) {
			if strings.HasPrefix(id, "lab-") && lab == "" {
				lab = id
			} else if !strings.HasPrefix(id, "lab-") && vital == "" {
				vital = id
			}
		}
		if lab == "" || vital == "" {
			t.Fatalf("the record has no result or no vital sign: %q %q", lab, vital)
		}
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"_id=" + lab, []string{lab}},
			{"_id=" + vital, []string{vital}},
			{"_id=" + lab + "," + vital, []string{lab, vital}},
			{fmt.Sprintf("_id=%s&patient=%d", lab, c.patientID), []string{lab}},
			{fmt.Sprintf("_id=%s&patient=%d", lab, c.nkaID), nil},
			{"_id=lab-999999-NA", nil},
		} {
			got := ids(get(t, api, "/fhir/R4/Observation?"+tc.query, http.StatusOK))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", tc.query, got, want)
			}
		}
	})
}
