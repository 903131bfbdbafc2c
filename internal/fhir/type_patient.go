package fhir

import (
	"context"
	"net/http"
	"strconv"

	"emr/internal/auth"
	"emr/internal/patient"
)

// typePatient describes Patient: who reads it, its search, its versions and its writes.
var typePatient = resourceType{
	kind:        "Patient",
	reads:       []ReadRule{{"Patient", "", []auth.Permission{auth.ViewPatient}, "GET /api/patients/{id}"}},
	params:      patientParams,
	typeFilters: patientFilters,
	plan:        patientPlan,
	read:        func(h *Handler) http.HandlerFunc { return h.readPatient },
	action:      "patient",
	versions: func(h *Handler, s recordSources) []versionSource {
		return []versionSource{s.patients(wholeID, func(p patient.Patient) []Resource {
			// The number system is the clinic's settings' (cached by clinicSettings), which
			// no one request owns.
			return []Resource{toPatient(p, h.numberSystem(context.Background()))}
		})}
	},
	write: &writable{need: auth.ManagePatient, write: (*Handler).writePatientIn, announces: auth.ChangesPatients, create: func(h *Handler) http.HandlerFunc { return h.createPatient }, update: func(h *Handler) http.HandlerFunc { return h.updatePatient }},
}

// patientFilters are Patient's token parameters as tested on the patients built (an
// export's _typeFilter): its search reads them in the register's query instead.
var patientFilters = map[string]tokenParam{
	"gender": codeParam(systemGender, func(res Resource) string { return res.(Patient).Gender }),
	"active": codingParam(func(res Resource) []Coding {
		if a := res.(Patient).Active; a != nil {
			return []Coding{{Code: strconv.FormatBool(*a)}}
		}
		return nil
	}, ""),
}

// patientPlan reads a Patient search: every condition is the register's query's. A search
// of the register is audited with the patients it answered (the patient, when it found
// one): through the API a program can page through the whole register, which the web app's
// search, a person typing a name, does not; reading a patient, and every search of a
// patient's clinical record, is audited too.
func patientPlan(h *Handler, r *http.Request, q *query, _ bool) (searchPlan, error) {
	f, any, err := patientFilter(*q, h.ownSystems(r.Context()))
	if err != nil {
		return searchPlan{}, err
	}
	return searchPlan{src: h.patientSource(f, any, h.numberSystem(r.Context())), entity: "patient", patientOf: func(page []entry) int64 {
		var pid int64
		if len(page) == 1 {
			pid, _ = strconv.ParseInt(page[0].res.ResourceID(), 10, 64)
		}
		return pid
	}}, nil
}
