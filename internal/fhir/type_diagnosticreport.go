package fhir

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/i18n"
)

// typeDiagnosticReport describes DiagnosticReport: who reads it, its search, its versions.
var typeDiagnosticReport = resourceType{
	kind:    "DiagnosticReport",
	reads:   []ReadRule{{"DiagnosticReport", "", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"}},
	params:  diagnosticReportParams,
	filters: reportTokens,
	plan:    diagnosticReportPlan,
	action:  "diagnosticreport",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.orders(wholeID, toDiagnosticReports)}
	},
}

// diagnosticReportPlan reads a DiagnosticReport search: the lab orders (the patient's, those
// of _id), each giving its report; the date is tested on the reports built.
func diagnosticReportPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := patientOf(*q)
	if err != nil {
		return searchPlan{}, err
	}
	if err := q.testDate("date", func(res Resource) string { return res.(DiagnosticReport).EffectiveDateTime }); err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.ids()
	src := h.orderSource(ids, max(pid, 0), pid >= 0 && coded && (!idGiven || len(ids) > 0), i18n.FromRequest(r), toDiagnosticReports)
	return searchPlan{src: src, entity: "lab_order", patient: max(pid, 0)}, nil
}
