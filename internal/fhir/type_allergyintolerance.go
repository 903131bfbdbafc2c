package fhir

import (
	"context"
	"net/http"
	"slices"

	"emr/internal/auth"
	"emr/internal/patient"
)

// typeAllergy describes AllergyIntolerance: who reads it, its search, its versions.
var typeAllergy = resourceType{
	kind:    "AllergyIntolerance",
	reads:   []ReadRule{{"AllergyIntolerance", "", []auth.Permission{auth.ViewPatient}, "GET /api/patients/{id}"}},
	params:  allergyParams,
	filters: allergyTokens,
	plan:    allergyPlan,
	action:  "allergy",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.patients(headID, toAllergies)}
	},
}

// allergyPlan reads an AllergyIntolerance search: the patients (the one named, those of
// _id), each giving its allergies.
func allergyPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := q.reference("patient", "Patient")
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.recordIDs(true)
	var f patient.Filter
	match := pid >= 0 && coded && (!idGiven || len(ids) > 0)
	if pid > 0 {
		f.IDs = []int64{pid}
	}
	if idGiven {
		if pid > 0 && !slices.Contains(ids, pid) {
			match = false
		}
		f.IDs = ids
	}
	src := func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !match {
			return nil, nil
		}
		g := f
		g.After, g.Descending, g.Limit = after, desc, limit
		list, _, err := h.Patients.Page(ctx, g)
		if err != nil {
			return nil, err
		}
		out := make([]group, 0, len(list))
		for _, p := range list {
			res := toAllergies(p)
			if idGiven {
				res = keepIDs(res, q.values["_id"])
			}
			out = append(out, group{ID: p.ID, Resources: res})
		}
		return out, nil
	}
	return searchPlan{src: src, entity: "patient", patient: max(pid, 0)}, nil
}
