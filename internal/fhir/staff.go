package fhir

import (
	"context"

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
