package fhir

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"emr/internal/i18n"
	"emr/internal/result"
)

// DiagnosticReport is a laboratory order's report: the order's test, its state and its
// current results (the order's laboratory Observations), one per laboratory order, with the
// order's id and version.
type DiagnosticReport struct {
	base
	BasedOn            []Reference       `json:"basedOn,omitempty"`
	Status             string            `json:"status"`
	Category           []CodeableConcept `json:"category"`
	Code               *CodeableConcept  `json:"code"`
	Subject            *Reference        `json:"subject"`
	Encounter          *Reference        `json:"encounter,omitempty"`
	EffectiveDateTime  string            `json:"effectiveDateTime,omitempty"`
	Issued             string            `json:"issued,omitempty"`
	Performer          []Reference       `json:"performer,omitempty"`
	ResultsInterpreter []Reference       `json:"resultsInterpreter,omitempty"`
	Result             []Reference       `json:"result,omitempty"`
}

// Code systems of the report.
const (
	systemV20074       = "http://terminology.hl7.org/CodeSystem/v2-0074"
	systemReportStatus = "http://hl7.org/fhir/diagnostic-report-status"
)

var labReport = []CodeableConcept{*concept(systemV20074, "LAB", "Laboratory")}

// reportStatus maps an order's state to the report's: nothing to show until a result is
// recorded (registered), results recorded as preliminary, final ones (reviewed or not), and
// an order that will have none (cancelled, or not done: the specimen rejected, the patient
// never went). A final order with a result still preliminary is "preliminary" (not all its
// results are final); one with a correction of a final result is "corrected".
var reportStatus = map[string]string{
	result.Ordered: "registered", result.Collected: "registered", result.Preliminary: "preliminary", result.Final: "final",
	result.Reviewed: "final", result.Cancelled: "cancelled", result.NotDone: "cancelled",
}

// toDiagnosticReports is a laboratory order's report; an imaging or functional order has
// none here (its report is no laboratory report).
func toDiagnosticReports(o result.Order) []Resource {
	if o.Kind != "lab" {
		return nil
	}
	status := reportStatus[o.Status]
	switch {
	case status == "":
		status = "unknown"
	case status == "final" && slices.ContainsFunc(o.Results, func(x result.Result) bool { return x.Status == result.Preliminary }):
		status = "preliminary"
	case status == "final" && o.Corrections > 0:
		status = "corrected"
	}
	// The time the report speaks of is the specimen's; it is issued when its latest result
	// was recorded (a correction issues it again).
	effective, issued := o.CollectedAt, (*time.Time)(nil)
	oid := strconv.FormatInt(o.ID, 10)
	var results []Reference
	for _, x := range o.Results {
		if effective == nil || x.ObservedAt.Before(*effective) {
			effective = &x.ObservedAt
		}
		if issued == nil || x.RecordedAt.After(*issued) {
			issued = &x.RecordedAt
		}
		results = append(results, Reference{Reference: "Observation/lab-" + oid + "-" + strconv.FormatInt(x.ID, 10)})
	}
	d := DiagnosticReport{
		base:    newBase("DiagnosticReport", oid, o.Version, latest(o.OrderedAt, o.CollectedAt, o.ResultedAt, o.ReviewedAt, issued)),
		BasedOn: []Reference{*ref("ServiceRequest", o.ID)}, Status: status, Category: labReport, Code: testCode(o.LOINC, o.TestLabel, o.Test),
		Subject: ref("Patient", o.PatientID), Encounter: ref("Encounter", o.AppointmentID), Result: results,
	}
	if effective != nil {
		d.EffectiveDateTime = instant(*effective)
	}
	if issued != nil {
		// The clinic issues the report in its record, whoever ran the analyser.
		d.Issued, d.Performer = instant(*issued), []Reference{{Reference: "Organization/" + clinicID}}
	}
	if o.ReviewedBy != nil {
		reviewer := ref("Practitioner", *o.ReviewedBy)
		reviewer.Display = o.ReviewerName
		d.ResultsInterpreter = []Reference{*reviewer}
	}
	d.claim(profileDiagnosticReport, diagnosticReportConforms(d))
	return []Resource{d}
}

var diagnosticReportParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "category": kindToken, "code": kindToken, "date": kindDate, "status": kindToken,
}

// reportCodings are what each token parameter of a report search reads from a report.
var reportCodings = map[string]func(DiagnosticReport) []Coding{
	"category": func(d DiagnosticReport) []Coding { return d.Category[0].Coding },
	"code":     func(d DiagnosticReport) []Coding { return d.Code.Coding },
	"status":   func(d DiagnosticReport) []Coding { return []Coding{{System: systemReportStatus, Code: d.Status}} },
}

func (h *Handler) searchDiagnosticReports(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r, diagnosticReportParams)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	pid, err := patientOf(q)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	rng, _, err := q.dates("date")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	// Each occurrence of a token parameter must hold; any of its values may match.
	tokens := map[string][][]token{}
	for name := range reportCodings {
		for _, list := range q.values[name] {
			var anyOf []token
			for _, v := range list {
				anyOf = append(anyOf, parseToken(v))
			}
			tokens[name] = append(tokens[name], anyOf)
		}
	}
	keep := func(d DiagnosticReport) bool {
		for name, occurrences := range tokens {
			codings := reportCodings[name](d)
			for _, anyOf := range occurrences {
				if !slices.ContainsFunc(anyOf, func(t token) bool {
					return slices.ContainsFunc(codings, func(c Coding) bool { return t.matches(c.System, c.Code) })
				}) {
					return false
				}
			}
		}
		if rng.From.IsZero() && rng.To.IsZero() {
			return true
		}
		t, err := time.Parse(time.RFC3339Nano, d.EffectiveDateTime)
		return err == nil && (rng.From.IsZero() || !t.Before(rng.From)) && (rng.To.IsZero() || t.Before(rng.To))
	}
	ids, idGiven := q.ids()
	expand := func(o result.Order) []Resource {
		var out []Resource
		for _, res := range toDiagnosticReports(o) {
			if keep(res.(DiagnosticReport)) {
				out = append(out, res)
			}
		}
		return out
	}
	src := h.orderSource(ids, max(pid, 0), pid >= 0 && (!idGiven || len(ids) > 0), i18n.FromRequest(r), expand)
	h.searchset(w, r, "DiagnosticReport", q, src, func(page []entry) error {
		return h.audited(r, "fhir.diagnosticreport.list", "lab_order", "", max(pid, 0), "DiagnosticReport search: "+idList(page))
	})
}
