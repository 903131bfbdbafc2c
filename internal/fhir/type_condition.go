package fhir

import (
	"net/http"

	"emr/internal/auth"
)

// typeCondition describes Condition: who reads it, its search, its versions.
var typeCondition = resourceType{
	kind:     "Condition",
	reads:    []ReadRule{{"Condition", "", []auth.Permission{auth.RecordVitals, auth.WriteDiagnosis}, "GET /api/appointments/{id}/visit"}},
	params:   conditionParams,
	filters:  conditionTokens,
	plan:     conditionPlan,
	action:   "condition",
	versions: func(_ *Handler, s recordSources) []versionSource { return []versionSource{s.visits(toConditions)} },
}

// conditionPlan reads a Condition search: the diagnoses of visit records.
func conditionPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	f, match, err := recordFilter(*q, false)
	if err != nil {
		return searchPlan{}, err
	}
	f.WithVisit = true
	if f, match, err = byEncounter(*q, f, match); err != nil {
		return searchPlan{}, err
	}
	if err := q.testDate("recorded-date", func(res Resource) string { return res.(Condition).RecordedDate }); err != nil {
		return searchPlan{}, err
	}
	return h.clinicalPlan(*q, f, match && coded, toConditions), nil
}
