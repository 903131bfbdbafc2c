package fhir

import (
	"emr/internal/result"
)

// DiagnosticReport is an order's report: the order's test, its state and its current
// results (the order's Observations), one per order, with the order's id and version; an
// imaging or functional study's carries its report's text as the conclusion.
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
	Conclusion         string            `json:"conclusion,omitempty"`
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
