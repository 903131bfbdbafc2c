package fhir

import (
	"encoding/json"
	"time"

	"emr/internal/immunisation"
)

// SetScanBudget sets how many records any search examines for a
// page, until the test ends.
func SetScanBudget(t interface{ Cleanup(func()) }, n int) {
	old := scanBudget
	scanBudget = n
	t.Cleanup(func() { scanBudget = old })
}

// SetExportClock moves the bulk exports' clock ahead by d, until the test ends.
func SetExportClock(t interface{ Cleanup(func()) }, d time.Duration) {
	exportSkew.Store(int64(d))
	t.Cleanup(func() { exportSkew.Store(0) })
}

// SetGroupMemberCap sets how many members a Group read lists, until the test ends.
func SetGroupMemberCap(t interface{ Cleanup(func()) }, n int) {
	old := groupMemberCap
	groupMemberCap = n
	t.Cleanup(func() { groupMemberCap = old })
}

// SearchableTypes are the types the API searches, in the route table's order.
func SearchableTypes() []string {
	var out []string
	for _, t := range resourceTypes {
		if t.plan != nil {
			out = append(out, t.kind)
		}
	}
	return out
}

// RecommendationJSON is the ImmunizationRecommendation a forecast gives patient id, as the API
// writes it (in English), for the schema tests: the forecast is worked out from the shipped
// schedules, which a test cannot choose.
func RecommendationJSON(id int64, f immunisation.Forecast) ([]byte, error) {
	return json.Marshal(toRecommendation(id, f, "en", time.Now()))
}
