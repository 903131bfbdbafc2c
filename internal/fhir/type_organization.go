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
