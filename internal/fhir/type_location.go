package fhir

import (
	"emr/internal/settings"
)

// typeLocation describes Location: who reads it, its search, its versions.
var typeLocation = resourceType{
	kind:    "Location",
	reads:   []ReadRule{{"Location", "", nil, "GET /api/settings/clinic"}},
	params:  map[string]paramKind{},
	filters: map[string]tokenParam{},
	plan:    clinicPlan(func(_ *Handler, c settings.Clinic) Resource { return locationOf(c) }),
	action:  "location",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.clinic(func(c settings.Clinic) []Resource { return []Resource{locationOf(c)} })}
	},
}
