package fhir

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/result"
)

// typeDiagnosticReport describes DiagnosticReport: who reads it, its search, its versions. It
// is read whole: a laboratory, imaging or functional report is read natively by the same
// permissions, its order's.
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

// diagnosticReportPlan reads a DiagnosticReport search: the orders (the patient's, those of
// _id), each giving its report; the date is tested on the reports built.
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

// toDiagnosticReports is an order's report: a laboratory order's, or an imaging or
// functional study's (finishStudyReport).
func toDiagnosticReports(o result.Order) []Resource {
	status := reportStatus[o.Status]
	switch {
	case len(o.Retracted) > 0 && len(o.Results) == 0:
		status = "entered-in-error" // every result it gave was entered in error
	case len(o.Retracted) > 0 && status == "final":
		// Some were withdrawn from a report issued final, the rest stand. A report not yet
		// final keeps its state: corrected is subsequent to final (R4 DiagnosticReport.status).
		status = "corrected"
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
	for _, x := range labRows(o) {
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
		// The laboratories that performed its results: the clinic's, or an external one by name.
		d.Issued, d.Performer = instant(*issued), labPerformers(labRows(o))
	}
	if o.ReviewedBy != nil {
		reviewer := ref("Practitioner", *o.ReviewedBy)
		reviewer.Display = o.ReviewerName
		d.ResultsInterpreter = []Reference{*reviewer}
	}
	if o.Kind != "lab" {
		finishStudyReport(&d, o)
		return []Resource{d}
	}
	d.claim(profileDiagnosticReport, diagnosticReportConforms(d))
	return []Resource{d}
}

var diagnosticReportParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "category": kindToken, "code": kindToken, "date": kindDate, "status": kindToken,
}

// reportTokens are DiagnosticReport's token parameters, tested on the reports built.
var reportTokens = map[string]tokenParam{
	"category": codingParam(func(res Resource) []Coding { return conceptCodings(res.(DiagnosticReport).Category...) }, systemV20074, systemLOINC),
	"code":     codingParam(func(res Resource) []Coding { return codingsOf(res.(DiagnosticReport).Code) }, systemLOINC),
	"status":   codeParam(systemReportStatus, func(res Resource) string { return res.(DiagnosticReport).Status }),
}
