package fhir

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/user"
)

// _include and _revinclude: a search's page carries, besides its matches, the resources they
// point at (Observation?patient=1&_include=Observation:patient: the patient) or that point at
// them (Patient?_id=1&_revinclude=Observation:patient: the patient's Observations), each once,
// as entries of mode "include". An included resource is one the caller could read by itself
// (ReadAccess, the token's scopes), and reading it is audited as a read; what is left out is
// named in the searchset's OperationOutcome with what the search itself leaves out.
//
// The targets of a page are read in one query per type (the patients by id, the accounts by
// id, a page's patients' records of a type together), never one request per reference: an
// include costs less than the reads it saves.

// maxIncluded is how many resources the includes add to one page at most: past it the page
// carries what fitted and a warning that the includes were cut. A full page's (100) patients
// and practitioners fit many times over; a patient's whole vital-sign history may not (that
// is $everything's or $export's work), and the bound keeps one page's reads and size in hand.
var maxIncluded = 500

// includeBatch is how many records a reverse include reads at a time.
const includeBatch = 100

// includeParam is a reference search parameter an include follows: the types it points at,
// and the references of a resource it reads.
type includeParam struct {
	targets []string
	refs    func(Resource) []*Reference
}

var (
	toPatients      = includeParam{[]string{"Patient"}, subjectOf}
	toPractitioners = func(refs func(Resource) []*Reference) includeParam {
		return includeParam{[]string{"Practitioner"}, refs}
	}
	// toMedication is MedicationRequest:medication: the medication is a CodeableConcept on
	// each MedicationRequest (there is no Medication resource), so it includes nothing, and
	// the outcome says why.
	toMedication = includeParam{[]string{"Medication"}, func(Resource) []*Reference { return nil }}
)

// includeParams are the parameters _include follows, by source type: the US Core pairs.
// _revinclude follows those pointing at a Patient, for the types reverseSources reads.
var includeParams = map[string]map[string]includeParam{
	"AllergyIntolerance": {"patient": toPatients},
	"Condition":          {"patient": toPatients, "subject": toPatients},
	"Observation":        {"patient": toPatients, "subject": toPatients},
	"Encounter": {"patient": toPatients, "subject": toPatients,
		"practitioner": toPractitioners(participantsOf), "participant": toPractitioners(participantsOf)},
	"MedicationRequest": {"patient": toPatients, "subject": toPatients, "medication": toMedication,
		"requester": toPractitioners(func(res Resource) []*Reference { return []*Reference{res.(MedicationRequest).Requester} })},
	"MedicationStatement": {"patient": toPatients, "subject": toPatients},
	"Immunization": {"patient": toPatients,
		"performer": toPractitioners(func(res Resource) []*Reference {
			var out []*Reference
			for _, p := range res.(Immunization).Performer {
				out = append(out, p.Actor)
			}
			return out
		})},
	"ImmunizationRecommendation": {"patient": toPatients},
	"Appointment": {"patient": toPatients, "practitioner": toPractitioners(actorsOf),
		"actor": {[]string{"Patient", "Practitioner"}, actorsOf}},
}

// subjectOf is the patient a resource is about.
func subjectOf(res Resource) []*Reference {
	switch x := res.(type) {
	case Observation:
		return []*Reference{x.Subject}
	case Condition:
		return []*Reference{x.Subject}
	case MedicationRequest:
		return []*Reference{x.Subject}
	case MedicationStatement:
		return []*Reference{x.Subject}
	case Immunization:
		return []*Reference{x.Patient}
	case ImmunizationRecommendation:
		return []*Reference{x.Patient}
	case Encounter:
		return []*Reference{x.Subject}
	case AllergyIntolerance:
		return []*Reference{x.Patient}
	case Appointment:
		return actorsOf(res)
	}
	return nil
}

func participantsOf(res Resource) []*Reference {
	var out []*Reference
	for _, p := range res.(Encounter).Participant {
		out = append(out, p.Individual)
	}
	return out
}

func actorsOf(res Resource) []*Reference {
	var out []*Reference
	for _, p := range res.(Appointment).Participant {
		out = append(out, p.Actor)
	}
	return out
}

// refID reads a reference "Kind/123" as its type and id.
func refID(ref *Reference) (string, int64, bool) {
	if ref == nil {
		return "", 0, false
	}
	kind, id, ok := strings.Cut(ref.Reference, "/")
	n, err := strconv.ParseInt(id, 10, 64)
	return kind, n, ok && err == nil && n > 0
}

// includeSpec is one _include or _revinclude value: Source:param[:Target].
type includeSpec struct {
	source, param, target string
	reverse, iterate      bool
}

// parameter is the spec's parameter's name: "_include", "_revinclude:iterate".
func (s includeSpec) parameter() string {
	name := "_include"
	if s.reverse {
		name = "_revinclude"
	}
	if s.iterate {
		name += ":iterate"
	}
	return name
}

// points reports whether the spec's parameter follows references to kind.
func (s includeSpec) points(kind string) bool {
	return slices.Contains(includeParams[s.source][s.param].targets, kind) && (s.target == "" || s.target == kind)
}

// includes are a search's includes as read: the specs to follow, and the parameters kept in
// the page's links.
type includes struct {
	specs   []includeSpec
	applied url.Values
}

// parseIncludes reads _include and _revinclude (and their :iterate forms) of q, a search of
// kind. Those the server does not follow are 400 under strict handling (all named),
// otherwise left out of the links and named in the searchset's warnings.
func parseIncludes(r *http.Request, q query, kind string) (includes, error) {
	inc := includes{applied: url.Values{}}
	strict := preferHandling(r) == "strict"
	raw := r.URL.Query()
	var refused Errors
	for _, name := range sortedKeys(raw) {
		base, modifier, _ := strings.Cut(name, ":")
		if base != "_include" && base != "_revinclude" {
			continue
		}
		for _, v := range raw[name] {
			spec, ok := readInclude(kind, base == "_revinclude", modifier, v)
			switch {
			case !ok && strict:
				refused = append(refused, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.include_unsupported", Args: []any{name + "=" + v}, Expression: name})
				continue
			case !ok:
				q.warn("not-supported", "fhir.include_unsupported", name, name+"="+v)
				continue
			case spec.source == "MedicationRequest" && spec.param == "medication":
				q.warn("informational", "fhir.include_medication_concept", name)
			}
			inc.specs = append(inc.specs, spec)
			inc.applied.Add(name, v)
		}
	}
	if len(refused) > 0 {
		return inc, refused
	}
	return inc, nil
}

// readInclude reads one value, and whether the server follows it: an _include of the
// searched type's own parameters (any type's, with :iterate), a _revinclude of a parameter
// pointing at a Patient from a type reverseSources reads, on a Patient search (or, with
// :iterate, from the Patients included).
func readInclude(kind string, reverse bool, modifier, v string) (includeSpec, bool) {
	parts := strings.Split(v, ":")
	if (modifier != "" && modifier != "iterate") || len(parts) < 2 || len(parts) > 3 {
		return includeSpec{}, false
	}
	spec := includeSpec{source: parts[0], param: parts[1], reverse: reverse, iterate: modifier == "iterate"}
	if len(parts) == 3 {
		spec.target = parts[2]
	}
	p, known := includeParams[spec.source][spec.param]
	if !known || (spec.target != "" && !slices.Contains(p.targets, spec.target)) {
		return spec, false
	}
	if !reverse {
		return spec, spec.iterate || spec.source == kind
	}
	_, read := reverseSources[spec.source]
	return spec, read && spec.points("Patient") && (spec.iterate || kind == "Patient")
}

// included is what the includes of one page gathered.
type included struct {
	seen    map[string]bool // every resource of the page, by "Kind/id"
	added   []Resource
	cut     bool
	omitted []string // types (and categories) left out, as leftOut names them
}

// resourceKey is a resource's "Kind/id", the key a page holds it under once.
func resourceKey(res Resource) string { return res.ResourceKind() + "/" + res.ResourceID() }

// add takes res when the caller may read it by act (a forward include reads its targets, a
// reverse one searches its sources) and it is not on the page yet, up to maxIncluded; it
// reports whether there is room for more.
func (in *included) add(p *auth.Principal, res Resource, act byte) bool {
	if in.seen[resourceKey(res)] || !readable(p, res, act) {
		return true
	}
	if len(in.added) >= maxIncluded {
		in.cut = true
		return false
	}
	in.seen[resourceKey(res)] = true
	in.added = append(in.added, res)
	return true
}

// omit notes what of kind p may not read (all of it when out of p's scopes for action) as left
// out, and reports whether that is the whole type.
func (in *included) omit(p *auth.Principal, kind string, action byte) bool {
	var names []string
	if p.ScopeAllows(kind, action) {
		names = leftOut(p, []string{kind})
	} else {
		names = []string{kind}
	}
	for _, n := range names {
		if !slices.Contains(in.omitted, n) {
			in.omitted = append(in.omitted, n)
		}
	}
	return slices.Contains(names, kind)
}

// include gathers the includes of a page of kind's matches and audits their reads: it
// answers them as the page's include entries, and names what of them the caller may not read
// (as leftOut does); a page cut short at maxIncluded is warned of in q's outcome.
func (h *Handler) include(r *http.Request, q query, kind string, inc includes, page []entry) ([]BundleEntry, []string, error) {
	if len(inc.specs) == 0 {
		return nil, nil, nil
	}
	p := auth.PrincipalFrom(r.Context())
	in := &included{seen: map[string]bool{}}
	matches := make([]Resource, len(page))
	for i, e := range page {
		matches[i] = e.res
		in.seen[resourceKey(e.res)] = true
	}
	// The first level follows every spec from the matches; :iterate ones go one level more,
	// from what the first included, and no further.
	first, err := h.includeLevel(r, p, in, matches, inc.specs)
	if err != nil {
		return nil, nil, err
	}
	var iterating []includeSpec
	for _, s := range inc.specs {
		if s.iterate {
			iterating = append(iterating, s)
		}
	}
	if _, err := h.includeLevel(r, p, in, first, iterating); err != nil {
		return nil, nil, err
	}
	if err := h.auditIncluded(r, kind, in.added); err != nil {
		return nil, nil, err
	}
	base := h.baseURL(r)
	out := make([]BundleEntry, len(in.added))
	for i, res := range in.added {
		out[i] = BundleEntry{FullURL: base + "/" + res.ResourceKind() + "/" + res.ResourceID(), Resource: res, Search: &EntrySearch{Mode: "include"}}
	}
	if in.cut {
		q.warn("incomplete", "fhir.include_cut", inc.specs[0].parameter(), maxIncluded)
	}
	var omitted []string
	for _, name := range in.omitted {
		if !slices.Contains(leftOut(p, []string{kind}), name) {
			omitted = append(omitted, name)
		}
	}
	return out, omitted, nil
}

// includeLevel follows specs from resources: the references they hold, read in one batch per
// target type, and the records of the Patients among them, one read per source type. It
// answers what it added.
func (h *Handler) includeLevel(r *http.Request, p *auth.Principal, in *included, from []Resource, specs []includeSpec) ([]Resource, error) {
	start := len(in.added)
	wanted := map[string][]int64{} // target type: ids, in the order met
	var patients []int64
	for _, res := range from {
		for _, s := range specs {
			if s.reverse && res.ResourceKind() == "Patient" {
				if id, err := strconv.ParseInt(res.ResourceID(), 10, 64); err == nil && !slices.Contains(patients, id) {
					patients = append(patients, id)
				}
			}
			if s.reverse || res.ResourceKind() != s.source {
				continue
			}
			for _, ref := range includeParams[s.source][s.param].refs(res) {
				target, id, ok := refID(ref)
				if ok && s.points(target) && !in.seen[target+"/"+strconv.FormatInt(id, 10)] && !slices.Contains(wanted[target], id) {
					wanted[target] = append(wanted[target], id)
				}
			}
		}
	}
	for _, target := range sortedKeys(wanted) {
		if in.omit(p, target, auth.ActRead) {
			continue
		}
		list, err := h.includedTargets(r.Context(), target, wanted[target])
		if err != nil {
			return nil, err
		}
		for _, res := range list {
			if !in.add(p, res, auth.ActRead) {
				break
			}
		}
	}
	if len(patients) > 0 {
		if err := h.reverseIncludes(r, p, in, patients, specs); err != nil {
			return nil, err
		}
	}
	return in.added[start:], nil
}

// includedTargets reads the resources of kind with ids, in one query.
func (h *Handler) includedTargets(ctx context.Context, kind string, ids []int64) ([]Resource, error) {
	var out []Resource
	switch kind {
	case "Patient":
		list, _, err := h.Patients.Page(ctx, patient.Filter{IDs: ids, WithoutHistory: true, Limit: len(ids)})
		if err != nil {
			return nil, err
		}
		system := h.numberSystem(ctx)
		for _, pt := range list {
			out = append(out, toPatient(pt, system))
		}
	case "Practitioner":
		list, err := user.ByIDs(ctx, h.DB, ids)
		if err != nil {
			return nil, err
		}
		for _, u := range list {
			out = append(out, toPractitioner(u))
		}
	}
	return out, nil
}

// reverseSources read the resources of a type about any of a page's patients, in parts (an
// Observation's vital signs, then the results of orders), each part only for who may read
// its category.
var reverseSources = map[string]func(h *Handler, patients []int64, lang string) []reverseSource{
	"AllergyIntolerance": func(h *Handler, patients []int64, _ string) []reverseSource {
		return []reverseSource{{"", func(ctx context.Context, after int64, _ bool, limit int) ([]group, error) {
			list, _, err := h.Patients.Page(ctx, patient.Filter{IDs: patients, After: after, Limit: limit})
			out := make([]group, len(list))
			for i, pt := range list {
				out[i] = group{ID: pt.ID, Resources: toAllergies(pt)}
			}
			return out, err
		}}}
	},
	"Condition": func(h *Handler, patients []int64, _ string) []reverseSource {
		return []reverseSource{{"", h.recordSource(appointment.RecordFilter{PatientIDs: patients, WithVisit: true}, true, toConditions)}}
	},
	"Encounter": func(h *Handler, patients []int64, _ string) []reverseSource {
		return []reverseSource{{"", h.recordSource(appointment.RecordFilter{PatientIDs: patients}, true,
			func(rec appointment.Record) []Resource { return []Resource{toEncounter(rec.Appointment)} })}}
	},
	"Appointment": func(h *Handler, patients []int64, _ string) []reverseSource {
		return []reverseSource{{"", h.recordSource(appointment.RecordFilter{PatientIDs: patients}, true,
			func(rec appointment.Record) []Resource { return []Resource{toAppointment(rec.Appointment)} })}}
	},
	"Observation": func(h *Handler, patients []int64, lang string) []reverseSource {
		labs := pager[result.Order]{page: func(ctx context.Context, after int64, _ bool, limit int) ([]result.Order, error) {
			return h.Results.OfPatients(ctx, patients, after, limit, lang)
		}, id: func(o result.Order) int64 { return o.ID }}
		return []reverseSource{
			{"vital-signs", h.recordSource(appointment.RecordFilter{PatientIDs: patients, WithVisit: true}, true, toObservations)},
			{ordersPart, labs.source(true, toLabObservations)},
		}
	},
	"MedicationRequest": func(h *Handler, patients []int64, _ string) []reverseSource {
		rx := pager[prescription.Prescription]{page: func(ctx context.Context, after int64, _ bool, limit int) ([]prescription.Prescription, error) {
			return h.Prescriptions.OfPatients(ctx, patients, after, limit)
		}, id: func(rx prescription.Prescription) int64 { return rx.ID }}
		return []reverseSource{{"", rx.source(true, toMedicationRequests)}}
	},
	"Immunization": func(h *Handler, patients []int64, lang string) []reverseSource {
		doses := pager[immunisation.Recorded]{page: func(ctx context.Context, after int64, _ bool, limit int) ([]immunisation.Recorded, error) {
			list, err := immunisation.RecordsPage(ctx, h.DB, immunisation.PageFilter{PatientIDs: patients, After: after, Limit: limit})
			if err != nil {
				return nil, err
			}
			return list, nil
		}, id: func(x immunisation.Recorded) int64 { return x.ID }}
		return []reverseSource{{"", doses.source(true, func(x immunisation.Recorded) []Resource { return []Resource{toImmunization(x, lang)} })}}
	},
}

// reverseSource is one part of a type's reverse include: ascending reads only.
type reverseSource struct {
	category string // the part's ReadAccess category ("" for the type read whole; ordersPart: mayReadPart)
	read     source
}

// reverseIncludes adds the resources of each reverse spec's type about patients, one read of
// the type for all of them.
func (h *Handler) reverseIncludes(r *http.Request, p *auth.Principal, in *included, patients []int64, specs []includeSpec) error {
	var kinds []string
	for _, s := range specs {
		if s.reverse && !slices.Contains(kinds, s.source) {
			kinds = append(kinds, s.source)
		}
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		if in.omit(p, kind, auth.ActSearch) {
			continue
		}
		for _, part := range reverseSources[kind](h, patients, i18n.FromRequest(r)) {
			if !mayReadPart(p, kind, part.category) {
				continue // named by omit
			}
			more, err := in.drain(r.Context(), p, part.read)
			if err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// drain adds src's resources, a batch of records at a time, until they run out or the page
// is full (or scanBudget records were read: the rest is cut); it reports whether there is
// room for more.
func (in *included) drain(ctx context.Context, p *auth.Principal, src source) (bool, error) {
	var after int64
	for examined := 0; ; {
		groups, err := src(ctx, after, false, includeBatch)
		if err != nil {
			return false, err
		}
		for _, g := range groups {
			for _, res := range g.Resources {
				if !in.add(p, res, auth.ActSearch) {
					return false, nil
				}
			}
			after = g.ID
		}
		examined += len(groups)
		if len(groups) < includeBatch {
			return true, nil
		}
		if examined >= scanBudget {
			in.cut = true
			return false, nil
		}
	}
}

// auditIncluded audits the included patient records as reads: one event per type and
// patient, naming the resources, as a search's page is, all in one commit (the practitioners
// are the staff list, not a patient's record, and are read unaudited as Practitioner
// searches are).
func (h *Handler) auditIncluded(r *http.Request, kind string, list []Resource) error {
	type group struct {
		kind, entity string
		patient      int64
	}
	versions := map[string]typeVersions{}
	for _, t := range h.versioned() {
		versions[t.kind] = t
	}
	var order []group
	ids := map[group][]string{}
	for _, res := range list {
		t, ok := versions[res.ResourceKind()]
		src, _, found := t.sourceFor(res.ResourceID())
		pid := patientOfIncluded(res)
		if !ok || !found || pid == 0 {
			continue
		}
		g := group{res.ResourceKind(), src.entity, pid}
		if _, ok := ids[g]; !ok {
			order = append(order, g)
		}
		ids[g] = append(ids[g], res.ResourceID())
	}
	events := make([]audit.Event, 0, len(order))
	for _, g := range order {
		id := ""
		if g.kind == "Patient" {
			id = strconv.FormatInt(g.patient, 10)
		}
		detail := g.kind + " included in " + kind + " search: " + strings.Join(ids[g], ",")
		events = append(events, readEvent(r, "fhir."+versions[g.kind].action+".read", g.entity, id, g.patient, detail))
	}
	if len(events) == 0 {
		return nil
	}
	return audit.AccessAll(r.Context(), h.DB, events)
}

// patientOfIncluded is the patient an included resource is (a Patient) or is about; 0 for
// the staff.
func patientOfIncluded(res Resource) int64 {
	if res.ResourceKind() == "Patient" {
		id, _ := strconv.ParseInt(res.ResourceID(), 10, 64)
		return id
	}
	for _, ref := range subjectOf(res) {
		if kind, id, ok := refID(ref); ok && kind == "Patient" {
			return id
		}
	}
	return 0
}

// includesOf are the _include values a search of kind follows and the _revinclude values,
// for the CapabilityStatement.
func includesOf(kind string) (forward, reverse []string) {
	for _, param := range sortedKeys(includeParams[kind]) {
		forward = append(forward, kind+":"+param)
	}
	if kind != "Patient" {
		return forward, nil
	}
	for _, source := range sortedKeys(reverseSources) {
		for _, param := range sortedKeys(includeParams[source]) {
			if (includeSpec{source: source, param: param}).points("Patient") {
				reverse = append(reverse, source+":"+param)
			}
		}
	}
	return forward, reverse
}
