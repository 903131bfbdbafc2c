package fhir

import (
	"slices"
	"strconv"
	"time"

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
// results are final); one with a correction of a final result is "corrected", one given
// only results of analytes not yet reported after it was final "appended".
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
	case status == "final" && slices.ContainsFunc(o.Results, func(x result.Result) bool { return x.Status == result.Corrected }):
		status = "corrected"
	case status == "final" && o.Corrections > 0:
		// Recorded again after it was final, with no reported value changed: only results
		// of analytes not yet reported were added.
		status = "appended"
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
		results = append(results, Reference{Reference: "Observation/" + labResultID(o.ID, x.Analyte)})
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

// reportTokens are DiagnosticReport's token parameters, tested on the reports built.
var reportTokens = map[string]tokenParam{
	"category": codingParam(func(res Resource) []Coding { return conceptCodings(res.(DiagnosticReport).Category...) }, systemV20074),
	"code":     codingParam(func(res Resource) []Coding { return codingsOf(res.(DiagnosticReport).Code) }, systemLOINC),
	"status":   codeParam(systemReportStatus, func(res Resource) string { return res.(DiagnosticReport).Status }),
}
