package fhir

import (
	"cmp"
	"context"
	"net/http"
	"strconv"

	"emr/internal/auth"
	"emr/internal/patient"
)

// typeAllergy describes AllergyIntolerance: who reads it, its search, its versions.
var typeAllergy = resourceType{
	kind:    "AllergyIntolerance",
	reads:   []ReadRule{{"AllergyIntolerance", "", []auth.Permission{auth.ViewPatient}, "GET /api/patients/{id}"}},
	params:  allergyParams,
	filters: allergyTokens,
	plan:    allergyPlan,
	action:  "allergy",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.patients(headID, toAllergies)}
	},
}

// allergyPlan reads an AllergyIntolerance search: the patients (the one named, those of
// _id), each giving its allergies.
func allergyPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	// A safety question must not read as answered: the allergies the clinic lists carry no
	// verification status, so a search by it says so beside what it finds.
	if _, asked := q.values["verification-status"]; asked {
		q.warn("informational", "fhir.allergy_no_verification", "verification-status")
	}
	pid, err := q.reference("patient", "Patient")
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.recordIDs(true)
	src := h.patientKeyed(pid, ids, idGiven, coded, true, func(_ context.Context, list []patient.Patient) ([]group, error) {
		out := make([]group, 0, len(list))
		for _, p := range list {
			res := toAllergies(p)
			if idGiven {
				res = keepIDs(res, q.values["_id"])
			}
			out = append(out, group{ID: p.ID, Resources: res})
		}
		return out, nil
	})
	return searchPlan{src: src, entity: "patient", patient: max(pid, 0)}, nil
}

// toAllergies is what a patient's record says of allergies: one resource per listed
// allergy ("{patient}-{key}", the key staying with the allergy across the record's saves; one
// written before keys were, its place), one "no known allergy" ("{patient}-nka") when that was
// recorded, none when nobody has asked. Their version is the patient record's.
func toAllergies(p patient.Patient) []Resource {
	h := p.History.Known()
	pid := strconv.FormatInt(p.ID, 10)
	recorded := ""
	if h.AllergyRecordedAt != nil {
		recorded = instant(*h.AllergyRecordedAt)
	}
	var recorder *Reference
	if h.AllergyRecordedBy != "" {
		recorder = &Reference{Display: h.AllergyRecordedBy}
	}
	mk := func(id string, code *CodeableConcept) AllergyIntolerance {
		return AllergyIntolerance{
			base: newBase("AllergyIntolerance", id, p.Version, p.UpdatedAt),
			// The record says no certainty of a listed allergy (a patient's word, a reaction
			// seen, a test): verificationStatus, 0..1, is left out rather than claimed.
			ClinicalStatus: concept(systemAllergyClin, "active", "Active"),
			Code:           code, Patient: ref("Patient", p.ID), RecordedDate: recorded, Recorder: recorder,
		}
	}
	switch h.AllergyStatus {
	case patient.AllergiesNone:
		nka := mk(pid+"-nka", noKnownAllergy)
		// "No known allergy" is asserted as US Core's examples do: active, confirmed.
		nka.VerificationStatus = concept(systemAllergyVer, "confirmed", "Confirmed")
		nka.claim(profileAllergy, allergyConforms(nka))
		return []Resource{nka}
	case patient.AllergiesListed:
		out := make([]Resource, 0, len(h.Allergies))
		for i, a := range h.Allergies {
			res := mk(pid+"-"+strconv.Itoa(cmp.Or(a.Key, i+1)), &CodeableConcept{Text: a.Substance})
			if a.Reaction != "" || a.Severity != "" {
				res.Reaction = []AllergyReaction{{Manifestation: []Manifestation{manifestationOf(a.Reaction)}, Severity: a.Severity}}
			}
			res.claim(profileAllergy, allergyConforms(res))
			out = append(out, res)
		}
		return out
	}
	return nil
}

var allergyParams = map[string]paramKind{"patient": kindReference, "clinical-status": kindToken, "verification-status": kindToken, "code": kindToken}

// allergyTokens are AllergyIntolerance's token parameters, tested on the allergies built.
var allergyTokens = map[string]tokenParam{
	"clinical-status":     codingParam(func(res Resource) []Coding { return codingsOf(res.(AllergyIntolerance).ClinicalStatus) }, systemAllergyClin),
	"verification-status": codingParam(func(res Resource) []Coding { return codingsOf(res.(AllergyIntolerance).VerificationStatus) }, systemAllergyVer),
	"code":                codingParam(func(res Resource) []Coding { return codingsOf(res.(AllergyIntolerance).Code) }, systemSNOMED),
}
