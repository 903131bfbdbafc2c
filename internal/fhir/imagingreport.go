package fhir

import (
	"slices"
	"strings"

	"emr/internal/auth"
	"emr/internal/result"
)

// ---- Imaging and functional results: their Observations' category, their report ----

// The Observation categories of an order's results (http://terminology.hl7.org/CodeSystem/
// observation-category): a laboratory test's, an imaging study's (X-ray, ultrasound, CT,
// MRI, the echocardiogram), and a functional test's (the ECG and the catalogue's other
// functional tests), as resultCategory tells them apart.
var (
	imagingCategory   = []CodeableConcept{*concept(systemObsCategory, "imaging", "Imaging")}
	procedureCategory = []CodeableConcept{*concept(systemObsCategory, "procedure", "Procedure")}
)

// resultCategories are the ReadAccess categories of the Observations made from orders.
var resultCategories = []string{"laboratory", "imaging", "procedure"}

// ordersPart is the part of a reverse include that reads the Observations made from orders,
// of any of resultCategories (each resource is then read by its own category's rule).
const ordersPart = "orders"

// resultObservationCategory is the category of o's results' Observations.
func resultObservationCategory(o result.Order) []CodeableConcept {
	switch resultCategory(o) {
	case "imaging":
		return imagingCategory
	case "procedure":
		return procedureCategory
	}
	return labCategory
}

// mayReadResults reports whether p may read the Observations of some category made from
// orders: a search of them, or a reverse include, reads the orders at all.
func mayReadResults(p *auth.Principal) bool {
	return slices.ContainsFunc(resultCategories, func(c string) bool { return mayRead(p, "Observation", c) })
}

// mayReadPart reports whether p may read some of a reverse include's part of kind: the
// orders' part any of its categories, another part its own.
func mayReadPart(p *auth.Principal, kind, category string) bool {
	if kind == "Observation" && category == ordersPart {
		return mayReadResults(p)
	}
	return mayRead(p, kind, category)
}

// The categories of a report of an imaging or functional study. US Core 6.1.0's
// DiagnosticReport Profile for Report and Note Exchange (us-core-diagnosticreport-note)
// binds its category slice "us-core" (required) to US Core DiagnosticReport Category: LOINC
// LP29684-5 Radiology, LP29708-2 Cardiology, LP7839-6 Pathology; its slicing is open, so the
// service section of HL7 v2 table 0074 (RAD radiology, EC electrocardiac, CUS cardiac
// ultrasound, OTH other) is written beside it for readers that search by it.
var (
	radiologyNote  = *concept(systemLOINC, "LP29684-5", "Radiology")
	cardiologyNote = *concept(systemLOINC, "LP29708-2", "Cardiology")
	sectionRAD     = *concept(systemV20074, "RAD", "Radiology")
	sectionEC      = *concept(systemV20074, "EC", "Electrocardiac (e.g., EKG, EEC, Holter)")
	sectionCUS     = *concept(systemV20074, "CUS", "Cardiac Ultrasound")
	sectionOTH     = *concept(systemV20074, "OTH", "Other")
)

// noteCategories are the US Core category codes of a note report (one is needed to claim the
// profile).
var noteCategories = []string{radiologyNote.Coding[0].Code, cardiologyNote.Coding[0].Code}

// reportCategory is the category of o's report: a laboratory order's LAB; an imaging
// study's Radiology (RAD), the echocardiogram's Cardiology (CUS, an ultrasound of the heart),
// the ECG's Cardiology (EC); another functional test's OTH alone (no US Core category names
// it).
func reportCategory(o result.Order) []CodeableConcept {
	switch {
	case o.Kind == "lab":
		return labReport
	case o.Test == "ECHO":
		return []CodeableConcept{cardiologyNote, sectionCUS}
	case o.Test == "ECG":
		return []CodeableConcept{cardiologyNote, sectionEC}
	case resultCategory(o) == "imaging":
		return []CodeableConcept{radiologyNote, sectionRAD}
	}
	return []CodeableConcept{sectionOTH}
}

// finishStudyReport makes d, built as an order's report is, the report of o, an imaging or
// functional study: its category, its conclusion (the study's report text, once a result is
// out and not withdrawn), and the note profile where it conforms.
func finishStudyReport(d *DiagnosticReport, o result.Order) {
	d.Category = reportCategory(o)
	if slices.Contains(reportedStatuses, d.Status) {
		d.Conclusion = studyConclusion(o)
	}
	d.claim(profileNoteReport, noteReportConforms(*d))
}

// studyConclusion is the text of o's current results (the study's report, REPORT in the
// catalogue), in their order.
func studyConclusion(o result.Order) string {
	var texts []string
	for _, x := range o.Results {
		if t := strings.TrimSpace(x.Text); t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n\n")
}

// noteReportConforms: status, a US Core note category, a code, the patient; once results
// are out, the time and when it was issued (us-core-10 in later editions asks the time; the
// clinic writes both, as for a laboratory report); and some content — a result or a
// presented form. US Core 6.1.0 marks both Must Support without requiring either; a report
// with neither tells a reader of notes nothing, so it claims nothing. The clinic writes no
// presented form (the printed report is not served): the report's result is its content.
func noteReportConforms(d DiagnosticReport) bool {
	reported := !slices.Contains(reportedStatuses, d.Status) || (toTheDay(d.EffectiveDateTime) && d.Issued != "")
	noted := slices.ContainsFunc(noteCategories, func(code string) bool { return hasIn(d.Category, systemLOINC, code) })
	return d.Status != "" && noted && coded(d.Code) && referenced(d.Subject) && reported && len(d.Result) > 0
}
