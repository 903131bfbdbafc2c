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

// toPatient is p as a Patient, its number in system (Handler.numberSystem).
func toPatient(p patient.Patient, system string) Patient {
	out := Patient{
		base:   newBase("Patient", strconv.FormatInt(p.ID, 10), p.Version, p.UpdatedAt),
		Active: new(!p.Archived),
		Identifier: []Identifier{{Use: "usual", Type: &CodeableConcept{Coding: []Coding{{System: systemV20203, Code: "MR", Display: "Medical record number"}}},
			System: system, Value: p.MRN}},
		Gender:    p.Sex,
		BirthDate: p.BirthDate,
	}
	name := HumanName{Use: "official", Family: p.LastName}
	for _, g := range []string{p.FirstName, p.MiddleName} {
		if g != "" {
			name.Given = append(name.Given, g)
		}
	}
	out.Name = []HumanName{name}
	if p.BirthDateEstimated {
		yes := true
		out.BirthDateExt = &ElementExt{Extension: []Extension{{URL: extensionEstimated, ValueBoolean: &yes}}}
	}
	if p.Phone != "" {
		out.Telecom = append(out.Telecom, ContactPoint{System: "phone", Value: p.Phone})
	}
	if p.Email != "" {
		out.Telecom = append(out.Telecom, ContactPoint{System: "email", Value: p.Email})
	}
	if p.Address != "" {
		out.Address = []Address{{Text: p.Address}}
	}
	if m, ok := maritalCodes[p.CivilStatus]; ok {
		system := systemMarital
		if m[0] == "UNK" {
			system = systemNullFlavor
		}
		out.MaritalStatus = concept(system, m[0], m[1])
	}
	if c := p.EmergencyContact; c.Name != "" || c.Phone != "" {
		contact := PatientContact{}
		if c.Relation != "" {
			contact.Relationship = []CodeableConcept{{Text: c.Relation}}
		}
		if c.Name != "" {
			contact.Name = &HumanName{Text: c.Name}
		}
		if c.Phone != "" {
			contact.Telecom = []ContactPoint{{System: "phone", Value: c.Phone}}
		}
		out.Contact = []PatientContact{contact}
	}
	withReceived(&out, p)
	out.claim(profilePatient, patientConforms(out))
	return out
}

var patientParams = map[string]paramKind{
	"identifier": kindToken, "name": kindString, "family": kindString, "given": kindString,
	"birthdate": kindDate, "gender": kindToken, "active": kindToken,
}

// patientTokens are Patient's token parameters the register filters by (identifier is read
// apart).
var patientTokens = map[string]tokenParam{
	"gender": {systems: []string{systemGender, ""}}, // a code element: its value set's system, or none
	"active": {systems: []string{""}},               // a boolean has no code system
}
