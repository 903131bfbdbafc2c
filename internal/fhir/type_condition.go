package fhir

import (
	"cmp"
	"net/http"
	"strconv"

	"emr/internal/appointment"
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
	// A visit's diagnoses carry no clinical status: a search by it says so beside what it
	// finds (none of them), rather than read as "no active problems".
	if _, asked := q.values["clinical-status"]; asked {
		q.warn("informational", "fhir.diagnosis_no_clinical_status", "clinical-status")
	}
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

// toConditions are a visit's diagnoses ("{appointment}-{key}", the key staying with the
// diagnosis across the form's saves; one written before keys were, its place): confirmed once the visit is
// signed, provisional while it is a draft. A visit diagnosis says what was found that day,
// not whether it is still so: it has no clinicalStatus (0..1 for an encounter diagnosis in
// R4, con-3, and US Core), where "active" would show a cold of years ago as a current problem.
func toConditions(rec appointment.Record) []Resource {
	if rec.Content == nil {
		return nil
	}
	verification := concept(systemCondVerify, "provisional", "Provisional")
	if rec.VisitStatus == "signed" {
		verification = concept(systemCondVerify, "confirmed", "Confirmed")
	}
	aid := strconv.FormatInt(rec.ID, 10)
	var out []Resource
	// First recorded: when the form first held the diagnosis (a later edit of the form, or a
	// new version because the patient's birth date was corrected, does not move it); one kept
	// before that was, when the form was first saved; a version kept before the creation time
	// was read, its own time.
	first := rec.VisitCreatedAt
	if first.IsZero() {
		first = rec.VisitUpdatedAt
	}
	for i, d := range rec.Content.Diagnoses {
		recorded := d.RecordedAt
		if recorded.IsZero() {
			recorded = first
		}
		code := &CodeableConcept{Text: d.Text}
		if d.Code != "" {
			code.Coding = []Coding{{System: systemICD10, Code: d.Code}}
		}
		if code.Text == "" {
			code.Text = d.Code
		}
		c := Condition{
			base:               newBase("Condition", aid+"-"+strconv.Itoa(cmp.Or(d.Key, i+1)), rec.VisitVersion, rec.VisitUpdatedAt),
			VerificationStatus: verification, Category: encounterDiagnosis, Code: code,
			Subject: ref("Patient", rec.PatientID), Encounter: ref("Encounter", rec.ID), RecordedDate: instant(recorded),
		}
		c.claim(profileCondition, conditionConforms(c))
		out = append(out, c)
	}
	return out
}

var conditionParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "category": kindToken, "code": kindToken, "verification-status": kindToken, "clinical-status": kindToken,
	"encounter": kindReference, "recorded-date": kindDate,
}

// conditionTokens are Condition's token parameters, tested on the conditions built.
var conditionTokens = map[string]tokenParam{
	"category":            codingParam(func(res Resource) []Coding { return conceptCodings(res.(Condition).Category...) }, systemCondCategory),
	"code":                codingParam(func(res Resource) []Coding { return codingsOf(res.(Condition).Code) }, systemICD10),
	"verification-status": codingParam(func(res Resource) []Coding { return codingsOf(res.(Condition).VerificationStatus) }, systemCondVerify),
	"clinical-status":     codingParam(func(res Resource) []Coding { return codingsOf(res.(Condition).ClinicalStatus) }, systemCondClinical),
}
