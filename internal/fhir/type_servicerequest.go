package fhir

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/result"
)

// typeServiceRequest describes ServiceRequest: who reads it, its search, its versions.
var typeServiceRequest = resourceType{
	kind:    "ServiceRequest",
	reads:   []ReadRule{{"ServiceRequest", "", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"}},
	params:  serviceRequestParams,
	filters: serviceRequestTokens,
	plan:    serviceRequestPlan,
	action:  "servicerequest",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.orders(wholeID, func(o result.Order) []Resource { return []Resource{toServiceRequest(o)} })}
	},
}

// serviceRequestPlan reads a ServiceRequest search: the lab orders (the patient's, those of
// _id).
func serviceRequestPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := patientOf(*q)
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.ids()
	match := pid >= 0 && coded && (!idGiven || len(ids) > 0)
	src := h.orderSource(ids, max(pid, 0), match, i18n.FromRequest(r), func(o result.Order) []Resource { return []Resource{toServiceRequest(o)} })
	return searchPlan{src: src, entity: "lab_order", patient: max(pid, 0)}, nil
}
