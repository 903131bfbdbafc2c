package fhir

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"

	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/settings"
)

// resourceType describes one FHIR resource type the API serves, in one place: who reads it
// (its ReadAccess rules), its search parameters and the token parameters tested on the
// resources built (with the code systems each writes), its search and read handlers, how
// its versions are read, and how it is written. The route table, the CapabilityStatement,
// the versions reader, ReadAccess, the writable types and the export's _typeFilter are all
// built from resourceTypes (ADR 35). Each type's description is in its own file
// (type_<type>.go).
type resourceType struct {
	kind  string
	reads []ReadRule // who reads it: its ReadAccess rules, a category each or one for the whole type
	// params are its own search parameters (besides _id and _lastUpdated); nil: no search.
	params map[string]paramKind
	// filters are its token parameters tested on the resources built, each with the code
	// systems the server writes in it (an export's _typeFilter takes these).
	filters map[string]tokenParam
	// typeFilters, when set, are the token parameters an export's _typeFilter tests on the
	// resources built, for a type whose search reads its own in its query (Patient).
	typeFilters map[string]tokenParam
	// plan reads the rest of a search's conditions, once its parameters are read and its
	// filters set (nil: no search); searchOf answers it.
	plan func(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error)
	read func(h *Handler) http.HandlerFunc // nil: read through its versions
	// action is the audit actions' stem of its versions' reads (fhir.<action>.read).
	action string
	// versions are the kinds of record its resources are made from, whose versions give
	// its vread and history; nil: it keeps no versions.
	versions func(h *Handler, s recordSources) []versionSource
	write    *writable // nil: read only
}

// resourceTypes are the types the API serves, in the route table's order. They are set at
// init: their handlers reach the table again (a Bundle's writes, _include's versions).
var resourceTypes []resourceType

func init() {
	resourceTypes = []resourceType{
		typePatient, typeAllergy, typeEncounter, typeCondition, typeObservation, typePractitioner, typePractitionerRole,
		typeOrganization, typeLocation, typeAppointment, typeServiceRequest, typeDiagnosticReport, typeMedicationRequest,
		typeMedicationStatement, typeDocumentReference, typeImmunization, typeImmunizationRecommendation, typeGroup,
	}
	for _, t := range resourceTypes {
		ReadAccess = append(ReadAccess, t.reads...)
	}
}

// typeOf is kind's description, and whether the API serves the type.
func typeOf(kind string) (resourceType, bool) {
	for _, t := range resourceTypes {
		if t.kind == kind {
			return t, true
		}
	}
	return resourceType{}, false
}

// writableOf is how kind is written, and whether it is.
func writableOf(kind string) (writable, bool) {
	t, ok := typeOf(kind)
	if !ok || t.write == nil {
		return writable{}, false
	}
	return *t.write, true
}

// searchPlan is what a type's search reads once its conditions are read: the records'
// source, and how a page is audited — under entity ("": not audited, as the staff directory
// and the clinic are not a patient's record), of patient (0: of none), or of the patient
// patientOf finds in the page.
type searchPlan struct {
	src       source
	entity    string
	patient   int64
	patientOf func(page []entry) int64
}

// searchOf is every type's search: its parameters read (parseQuery), its token filters set
// on the resources built (coded is false when one can match nothing), its own conditions
// read (plan), and one page collected with the scan budget applied to every filter
// (searchset), audited as the plan says.
func (h *Handler) searchOf(t resourceType) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, err := parseQuery(r, t.params)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		coded, err := q.where(t.filters)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		plan, err := t.plan(h, r, &q, coded)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		h.searchset(w, r, t.kind, q, plan.src, func(page []entry) error {
			if plan.entity == "" {
				return nil
			}
			pid := plan.patient
			if plan.patientOf != nil {
				pid = plan.patientOf(page)
			}
			return h.audited(r, "fhir."+t.action+".list", plan.entity, "", pid, t.kind+" search: "+idList(page))
		})
	}
}

// maxSearchForm bounds a POST search's form body: a search's parameters, not a payload.
const maxSearchForm = 64 << 10

// formSearch is the POST form of a search (FHIR R4 search, 3.1.1.3): its parameters in an
// application/x-www-form-urlencoded body, the URL's beside them (each repeated parameter
// narrowing, as in the URL). The search then runs as the GET of both, so its links are GET
// links a client can follow.
func formSearch(search http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && !isSearchForm(r, r.Header.Get("Content-Type")) {
			WriteError(w, r, &Error{Status: http.StatusUnsupportedMediaType, Code: "not-supported", Key: "fhir.search_form"})
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSearchForm))
		if err != nil {
			WriteError(w, r, &Error{Status: http.StatusRequestEntityTooLarge, Code: "too-costly", Key: "fhir.search_form_size", Args: []any{maxSearchForm >> 10}})
			return
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			WriteError(w, r, invalid("fhir.search_form", "body"))
			return
		}
		q := r.URL.Query()
		for name, values := range form {
			q[name] = append(q[name], values...)
		}
		get := r.Clone(r.Context())
		get.Method, get.URL.RawQuery, get.Body, get.ContentLength = http.MethodGet, q.Encode(), http.NoBody, 0
		search(w, get)
	}
}

// clinicPlan is the search of the clinic's one resource (Organization, Location): it alone,
// when it meets the search, or nothing.
func clinicPlan(of func(h *Handler, c settings.Clinic) Resource) func(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	return func(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
		// Each _id given (all must hold) must name the clinic among its values.
		named := true
		for _, list := range q.values["_id"] {
			named = named && slices.Contains(list, clinicID)
		}
		src := func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
			if after != 0 || !coded || !named {
				return nil, nil
			}
			c, err := settings.ReadClinic(ctx, h.DB)
			return []group{{ID: 1, Resources: []Resource{of(h, c)}}}, err
		}
		return searchPlan{src: src}, nil
	}
}

// clinicalPlan is a search of resources made from visit records (f), audited under the
// appointment.
func (h *Handler) clinicalPlan(q query, f appointment.RecordFilter, match bool, expand func(appointment.Record) []Resource) searchPlan {
	if _, given := q.ids(); given {
		expand = filterIDs(expand, q.values["_id"])
	}
	return searchPlan{src: h.recordSource(f, match, expand), entity: "appointment", patient: f.PatientID}
}

// routes are the type's interactions: search, read, its versions' and its writes', each
// with the access its ReadAccess rules (or its write's permission) need.
func (t resourceType) routes(h *Handler) []auth.Route {
	a := readAccessOf(t.kind)
	route := func(method, path string, access auth.Access, act byte, handler http.HandlerFunc) auth.Route {
		return auth.Route{Method: method, Path: Base + "/" + t.kind + path, Access: access, Resource: t.kind, Interaction: act, FHIR: true, Errors: WriteError, Handler: handler}
	}
	var out []auth.Route
	if t.plan != nil {
		out = append(out, route("GET", "", a, auth.ActSearch, h.searchOf(t)),
			route("POST", "/_search", a, auth.ActSearch, formSearch(h.searchOf(t))))
	}
	var tv typeVersions
	if t.versions != nil {
		tv = typeVersions{kind: t.kind, action: t.action, sources: t.versions(h, h.recordSources())}
	}
	read := tv.read(h)
	if t.read != nil {
		read = t.read(h)
	}
	out = append(out, route("GET", "/{id}", a, auth.ActRead, read))
	if t.versions != nil {
		out = append(out,
			route("GET", "/{id}/_history/{vid}", a, auth.ActRead, tv.vread(h)),
			route("GET", "/{id}/_history", a, auth.ActRead, tv.history(h)),
			route("GET", "/_history", a, auth.ActSearch, tv.typeHistory(h)),
		)
	}
	if w := t.write; w != nil {
		create, update := h.writeRoute(t.kind, false), h.writeRoute(t.kind, true)
		if w.create != nil {
			create, update = w.create(h), w.update(h)
		}
		need := auth.Need(w.need)
		out = append(out,
			route("POST", "", need, auth.ActCreate, create),
			route("PUT", "/{id}", need, auth.ActUpdate, update),
		)
		for i := len(out) - 2; i < len(out); i++ {
			out[i].Announces = w.announces
		}
	}
	return out
}
