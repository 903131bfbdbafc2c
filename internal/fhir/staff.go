package fhir

import (
	"context"
	"strconv"

	"emr/internal/settings"
	"emr/internal/user"
)

// ---- PractitionerRole: a staff member's roles at the clinic ----

// PractitionerRole is what a member of staff does at the clinic: one per account (its id
// the account's), its roles the codes.
type PractitionerRole struct {
	base
	Active       bool              `json:"active"`
	Practitioner *Reference        `json:"practitioner"`
	Organization *Reference        `json:"organization"`
	Code         []CodeableConcept `json:"code,omitempty"`
	Location     []Reference       `json:"location"`
	Telecom      []ContactPoint    `json:"telecom,omitempty"`
}

// systemPractitionerRole is HL7's code system of practitioner roles (R4's example binding of
// PractitionerRole.code).
const systemPractitionerRole = "http://terminology.hl7.org/CodeSystem/practitioner-role"

// roleCodes are the clinic's roles that have a code in systemPractitionerRole; any other
// role (receptionist, administrator, one the clinic made) is said by its name alone.
var roleCodes = map[string][2]string{"doctor": {"doctor", "Doctor"}, "nurse": {"nurse", "Nurse"}}

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

// intersect narrows the ids a search names (all when none were given) to id.
func intersect(ids []int64, given bool, id int64) []int64 {
	if id > 0 && (!given || containsID(ids, id)) {
		return []int64{id}
	}
	return nil
}

// staffSource pages the accounts (those of ids, when given), each expanded, with its roles
// read when roles is set. An account the search does not name gives no resource but still
// moves the walk on.
func (h *Handler) staffSource(ids []int64, idGiven, roles bool, expand func(user.User) []Resource) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if idGiven && len(ids) == 0 {
			return nil, nil
		}
		list, err := user.Page(ctx, h.DB, after, desc, limit)
		if err != nil {
			return nil, err
		}
		out := make([]group, len(list))
		for i, u := range list {
			out[i].ID = u.ID
			if idGiven && !containsID(ids, u.ID) {
				continue
			}
			if roles {
				if u, err = user.Get(ctx, h.DB, u.ID); err != nil {
					return nil, err
				}
			}
			out[i].Resources = expand(u)
		}
		return out, nil
	}
}

// ---- Location: the clinic's premises ----

// Location is the clinic's premises, as its settings describe them.
type Location struct {
	base
	Status               string         `json:"status"`
	Name                 string         `json:"name,omitempty"`
	Mode                 string         `json:"mode"`
	Telecom              []ContactPoint `json:"telecom,omitempty"`
	Address              *Address       `json:"address,omitempty"`
	ManagingOrganization *Reference     `json:"managingOrganization"`
}

// locationOf is the clinic's settings as its premises: one Location, with the clinic's id.
func locationOf(c settings.Clinic) Location {
	o := Location{base: newBase("Location", clinicID, c.Version, started), Status: "active", Name: c.Name, Mode: "instance",
		ManagingOrganization: &Reference{Reference: "Organization/" + clinicID}}
	if o.Name == "" {
		o.Name = "EMR"
	}
	if c.Phone != "" {
		o.Telecom = []ContactPoint{{System: "phone", Value: c.Phone, Use: "work"}}
	}
	if c.Address != "" {
		o.Address = &Address{Text: c.Address}
	}
	return o
}
