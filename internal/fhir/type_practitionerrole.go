package fhir

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/user"
)

// typePractitionerRole describes PractitionerRole: who reads it, its search, its versions.
var typePractitionerRole = resourceType{
	kind:    "PractitionerRole",
	reads:   []ReadRule{{"PractitionerRole", "", []auth.Permission{auth.ViewPatient, auth.ViewAppointment}, ""}},
	params:  practitionerRoleParams,
	filters: practitionerRoleTokens,
	plan:    practitionerRolePlan,
	action:  "practitionerrole",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.staff(func(u user.User) []Resource { return []Resource{toPractitionerRole(u)} })}
	},
}

// practitionerRolePlan reads a PractitionerRole search: the staff accounts (the one named
// by practitioner, those of _id), each giving its roles.
func practitionerRolePlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	ids, idGiven := q.ids()
	practitioner, err := q.reference("practitioner", "Practitioner")
	if err != nil {
		return searchPlan{}, err
	}
	if practitioner != 0 {
		ids, idGiven = intersect(ids, idGiven, practitioner), true
	}
	if !coded {
		ids, idGiven = nil, true // a code system no role is written in: none
	}
	return searchPlan{src: h.staffSource(ids, idGiven, true, func(u user.User) []Resource { return []Resource{toPractitionerRole(u)} })}, nil
}
