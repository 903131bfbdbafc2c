package fhir

import (
	"emr/internal/settings"
)

// typeOrganization describes Organization: who reads it, its search, its versions.
var typeOrganization = resourceType{
	kind: "Organization",
	reads: []ReadRule{
		// The clinic and its premises are anyone's, as its settings are.
		{"Organization", "", nil, "GET /api/settings/clinic"},
	},
	params:  organizationParams,
	filters: organizationTokens,
	plan:    clinicPlan(func(h *Handler, c settings.Clinic) Resource { return h.organizationOf(c) }),
	action:  "organization",
	versions: func(h *Handler, s recordSources) []versionSource {
		return []versionSource{s.clinic(func(c settings.Clinic) []Resource { return []Resource{h.organizationOf(c)} })}
	},
}

// organizationParams are the clinic's Organization's search parameters.
var organizationParams = map[string]paramKind{"identifier": kindToken}

// organizationTokens are Organization's token parameters, tested on the clinic's.
var organizationTokens = map[string]tokenParam{
	"identifier": codingParam(func(res Resource) []Coding { return identifierCodings(res.(Organization).Identifier) }, systemTaxID),
}

// Organization is the clinic.
type Organization struct {
	base
	Identifier []Identifier   `json:"identifier,omitempty"`
	Active     bool           `json:"active"`
	Name       string         `json:"name,omitempty"`
	Telecom    []ContactPoint `json:"telecom,omitempty"`
	Address    []Address      `json:"address,omitempty"`
}

// clinicID is the clinic's Organization id.
const clinicID = "clinic"

// organizationOf is the clinic's settings as its Organization.
func (h *Handler) organizationOf(c settings.Clinic) Organization {
	o := Organization{base: newBase("Organization", clinicID, c.Version, started), Active: true, Name: c.Name}
	if o.Name == "" {
		o.Name = "EMR"
	}
	if c.TaxID != "" {
		o.Identifier = []Identifier{{System: systemTaxID, Value: c.TaxID}}
	}
	if c.Phone != "" {
		o.Telecom = []ContactPoint{{System: "phone", Value: c.Phone, Use: "work"}}
	}
	if c.Address != "" {
		o.Address = []Address{{Text: c.Address}}
	}
	o.claim(profileOrganization, organizationConforms(o))
	return o
}

// systemTaxID is the identifier system of the clinic's tax number.
const systemTaxID = "urn:emr:tax-id"
