package fhir

import (
	"net/http"
	"strconv"

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

func toPractitionerRole(u user.User) PractitionerRole {
	p := PractitionerRole{base: newBase("PractitionerRole", strconv.FormatInt(u.ID, 10), u.Version, u.UpdatedAt), Active: u.Active,
		Practitioner: &Reference{Reference: "Practitioner/" + strconv.FormatInt(u.ID, 10), Display: u.Name},
		Organization: &Reference{Reference: "Organization/" + clinicID}, Location: []Reference{{Reference: "Location/" + clinicID}}}
	for _, name := range u.Roles {
		c := CodeableConcept{Text: name}
		if code, ok := roleCodes[name]; ok {
			c.Coding = []Coding{{System: systemPractitionerRole, Code: code[0], Display: code[1]}}
		}
		p.Code = append(p.Code, c)
	}
	if u.Email != "" {
		p.Telecom = []ContactPoint{{System: "email", Value: u.Email, Use: "work"}}
	}
	return p
}

var practitionerRoleParams = map[string]paramKind{"practitioner": kindReference, "role": kindToken, "active": kindToken}

// practitionerRoleTokens are PractitionerRole's token parameters, tested on the roles built.
var practitionerRoleTokens = map[string]tokenParam{
	"role": codingParam(func(res Resource) []Coding { return conceptCodings(res.(PractitionerRole).Code...) }, systemPractitionerRole),
	"active": codingParam(func(res Resource) []Coding {
		return []Coding{{Code: strconv.FormatBool(res.(PractitionerRole).Active)}}
	}, ""),
}
