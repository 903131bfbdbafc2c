package fhir

import (
	"net/http"
	"strconv"
	"strings"

	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/result"
)

// typeObservation describes Observation: who reads it, its search, its versions and its writes.
var typeObservation = resourceType{
	kind: "Observation",
	reads: []ReadRule{
		{"Observation", "vital-signs", []auth.Permission{auth.RecordVitals, auth.WriteDiagnosis}, "GET /api/patients/{id}/vitals"},
		{"Observation", "laboratory", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"},
	},
	params:  observationParams,
	filters: observationTokens,
	plan:    observationPlan,
	action:  "observation",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.visits(toObservations), s.orders(labID, toLabObservations)}
	},
	write: &writable{need: auth.RecordVitals, write: (*Handler).writeObservation, announces: auth.ChangesAppointments},
}

// observationPlan reads an Observation search: the vital signs of visit records, then the
// laboratory results of orders (ids lab-{order}-{result}), each side read only by who may
// read its category (ReadAccess); a search asking only for categories the caller may not
// read is refused, naming them.
func observationPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	f, match, err := recordFilter(*q, false)
	if err != nil {
		return searchPlan{}, err
	}
	f.WithVisit = true
	match = match && coded
	// The vital signs' date is their visit's, which the visits' query selects by too; the
	// results' is each result's own.
	if err := q.testDate("date", func(res Resource) string { return res.(Observation).EffectiveDateTime }); err != nil {
		return searchPlan{}, err
	}
	keep := func(list []Resource) []Resource { return list }
	if _, given := q.ids(); given {
		keep = func(list []Resource) []Resource { return keepIDs(list, q.values["_id"]) }
	}
	// The laboratory side: the same patient, ids of the form lab-{order}-{result}, the date
	// of each result.
	var orders []int64
	labMatch := match
	if _, given := q.ids(); given {
		f.IDs, orders = nil, nil
		for _, v := range flat(q.values["_id"]) {
			if rest, ok := strings.CutPrefix(v, "lab-"); ok {
				if n, err := strconv.ParseInt(strings.SplitN(rest, "-", 2)[0], 10, 64); err == nil {
					orders = append(orders, n)
				}
			} else if n, err := strconv.ParseInt(strings.SplitN(v, "-", 2)[0], 10, 64); err == nil {
				f.IDs = append(f.IDs, n)
			}
		}
		match, labMatch = match && len(f.IDs) > 0, labMatch && len(orders) > 0
	}
	p := auth.PrincipalFrom(r.Context())
	if denied := deniedCategories(p, q.values["category"]); denied != "" {
		return searchPlan{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.read_forbidden", Args: []any{denied}, Expression: "category"}
	}
	match = match && mayRead(p, "Observation", "vital-signs")
	labMatch = labMatch && mayRead(p, "Observation", "laboratory")
	vitalsSrc := h.recordSource(f, match, func(rec appointment.Record) []Resource { return keep(toObservations(rec)) })
	labSrc := shifted(h.orderSource(orders, f.PatientID, labMatch, i18n.FromRequest(r), func(o result.Order) []Resource { return keep(toLabObservations(o)) }), labOffset)
	return searchPlan{src: combined(vitalsSrc, labSrc, labOffset), entity: "appointment", patient: f.PatientID}, nil
}
