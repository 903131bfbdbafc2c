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

// ServiceRequest is a laboratory or imaging order.
type ServiceRequest struct {
	base
	Status     string            `json:"status"`
	Intent     string            `json:"intent"`
	Category   []CodeableConcept `json:"category,omitempty"`
	Code       *CodeableConcept  `json:"code,omitempty"`
	Subject    *Reference        `json:"subject"`
	Encounter  *Reference        `json:"encounter,omitempty"`
	AuthoredOn string            `json:"authoredOn,omitempty"`
	Requester  *Reference        `json:"requester,omitempty"`
	Note       []Annotation      `json:"note,omitempty"`
}

var orderStatus = map[string]string{
	result.Ordered: "active", result.Collected: "active", result.Preliminary: "active", result.Final: "completed",
	result.Reviewed: "completed", result.Cancelled: "revoked", result.NotDone: "revoked",
}

func testCode(loinc, label, test string) *CodeableConcept {
	c := &CodeableConcept{Text: label}
	if c.Text == "" {
		c.Text = test
	}
	if loinc != "" {
		c.Coding = []Coding{{System: systemLOINC, Code: loinc, Display: label}}
	}
	return c
}

// orderSource pages a patient's (or every) order, each expanded.
func (h *Handler) orderSource(ids []int64, patientID int64, match bool, lang string, expand func(result.Order) []Resource) source {
	return h.orders(ids, patientID, lang).source(match, expand)
}

// systemRequestStatus is the code system of ServiceRequest.status.
const systemRequestStatus = "http://hl7.org/fhir/request-status"
