package fhir

import (
	"net/http"
	"strconv"

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

func toServiceRequest(o result.Order) ServiceRequest {
	s := ServiceRequest{
		base:   newBase("ServiceRequest", strconv.FormatInt(o.ID, 10), o.Version, latest(o.OrderedAt, o.CollectedAt, o.ResultedAt, o.ReviewedAt)),
		Status: orderStatus[o.Status], Intent: "order", Code: testCode(o.LOINC, o.TestLabel, o.Test),
		Subject: ref("Patient", o.PatientID), Encounter: ref("Encounter", o.AppointmentID), AuthoredOn: instant(o.OrderedAt),
	}
	if s.Status == "" {
		s.Status = "unknown"
	}
	switch resultCategory(o) {
	case "imaging":
		s.Category = []CodeableConcept{*concept(systemSNOMED, "363679005", "Imaging")}
	case "procedure":
		s.Category = []CodeableConcept{*concept(systemSNOMED, "103693007", "Diagnostic procedure")}
	default:
		s.Category = []CodeableConcept{*concept(systemSNOMED, "108252007", "Laboratory procedure")}
	}
	if o.OrderedBy != nil {
		s.Requester = ref("Practitioner", *o.OrderedBy)
		s.Requester.Display = o.OrderedByName
	}
	if o.Note != "" {
		s.Note = []Annotation{{Text: o.Note}}
	}
	s.claim(profileServiceRequest, serviceRequestConforms(s))
	return s
}

var serviceRequestParams = map[string]paramKind{"patient": kindReference, "subject": kindReference, "status": kindToken, "code": kindToken, "category": kindToken}

// serviceRequestTokens are ServiceRequest's token parameters, tested on the orders built.
var serviceRequestTokens = map[string]tokenParam{
	"status":   codeParam(systemRequestStatus, func(res Resource) string { return res.(ServiceRequest).Status }),
	"code":     codingParam(func(res Resource) []Coding { return codingsOf(res.(ServiceRequest).Code) }, systemLOINC),
	"category": codingParam(func(res Resource) []Coding { return conceptCodings(res.(ServiceRequest).Category...) }, systemSNOMED),
}
