package fhir

import (
	"context"
	"slices"

	"emr/internal/patient"
)

// patientKeyed is the search of a type whose resources are made from each patient's record,
// one group per patient in patient id order (AllergyIntolerance from the patient record,
// ImmunizationRecommendation from the patient's forecast): the patient the patient parameter
// names (pid: 0 none, below 0 one that cannot be), those of _id (ids, when idGiven), or every
// patient; nothing when coded is false (a token the type cannot have). Each page's patients
// are handed to build at once, so that what they share is read once a page; history says
// whether build reads the patients' medical history (it is not read otherwise).
func (h *Handler) patientKeyed(pid int64, ids []int64, idGiven, coded, history bool,
	build func(ctx context.Context, list []patient.Patient) ([]group, error)) source {
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
	f.WithoutHistory = !history
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !match {
			return nil, nil
		}
		g := f
		g.After, g.Descending, g.Limit = after, desc, limit
		list, _, err := h.Patients.Page(ctx, g)
		if err != nil {
			return nil, err
		}
		return build(ctx, list)
	}
}
