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
