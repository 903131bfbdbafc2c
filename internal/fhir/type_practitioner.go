package fhir

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/user"
)

// typePractitioner describes Practitioner: who reads it, its search, its versions.
var typePractitioner = resourceType{
	kind: "Practitioner",
	reads: []ReadRule{
		// The staff directory: whoever reads a record reads who acted in it, and in what role
		// (their names and roles, not their permissions).
		{"Practitioner", "", []auth.Permission{auth.ViewPatient, auth.ViewAppointment}, ""},
	},
	params:  practitionerParams,
	filters: practitionerTokens,
	plan:    practitionerPlan,
	action:  "practitioner",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.staff(func(u user.User) []Resource { return []Resource{toPractitioner(u)} })}
	},
}

// practitionerPlan reads a Practitioner search: the staff accounts, each tested here (its
// name, its id) and on the practitioner built. An account that does not match gives no
// resource but still counts against the scan budget.
func practitionerPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	ids, idGiven := q.ids()
	name, err := q.one("name")
	if err != nil {
		return searchPlan{}, err
	}
	match := func(u user.User) bool {
		return coded && (!idGiven || containsID(ids, u.ID)) && (name == "" || strings.Contains(strings.ToLower(u.Name), strings.ToLower(name)))
	}
	src := func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		list, err := user.Page(ctx, h.DB, after, desc, limit)
		if err != nil {
			return nil, err
		}
		out := make([]group, len(list))
		for i, u := range list {
			out[i] = group{ID: u.ID}
			if match(u) {
				out[i].Resources = []Resource{toPractitioner(u)}
			}
		}
		return out, nil
	}
	return searchPlan{src: src}, nil
}

func toPractitioner(u user.User) Practitioner {
	p := Practitioner{base: newBase("Practitioner", strconv.FormatInt(u.ID, 10), u.Version, u.UpdatedAt), Active: u.Active,
		Identifier: []Identifier{{System: UsernameSystem, Value: u.Username}}, Name: []HumanName{{Text: u.Name}}}
	if u.Email != "" {
		p.Telecom = []ContactPoint{{System: "email", Value: u.Email, Use: "work"}}
	}
	return p
}

var practitionerParams = map[string]paramKind{"name": kindString, "active": kindToken, "identifier": kindToken}

// practitionerTokens are Practitioner's token parameters, tested on the accounts read.
var practitionerTokens = map[string]tokenParam{
	"identifier": codingParam(func(res Resource) []Coding { return identifierCodings(res.(Practitioner).Identifier) }, UsernameSystem),
	"active":     codingParam(func(res Resource) []Coding { return []Coding{{Code: strconv.FormatBool(res.(Practitioner).Active)}} }, ""),
}

// Practitioner is a member of the clinic's staff.
type Practitioner struct {
	base
	Identifier []Identifier   `json:"identifier,omitempty"`
	Active     bool           `json:"active"`
	Name       []HumanName    `json:"name,omitempty"`
	Telecom    []ContactPoint `json:"telecom,omitempty"`
}

// UsernameSystem is the identifier system of staff usernames.
const UsernameSystem = "urn:emr:username"
