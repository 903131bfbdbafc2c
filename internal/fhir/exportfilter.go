package fhir

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// exportTokens are the token parameters an export's _typeFilter may name for kind: the
// type's own token search parameters tested on built resources (resourceType.filters;
// Appointment's status is read by the appointment book's query, not on built resources,
// and is not offered). Besides them a filter takes _id and _lastUpdated; anything else is
// refused at the kick-off, naming it, rather than ignored (an ignored filter would export
// what the client asked to leave out).
func exportTokens(kind string) map[string]tokenParam {
	t, _ := typeOf(kind)
	if t.typeFilters != nil {
		return t.typeFilters
	}
	return t.filters
}

// exportFilter is one query of a _typeFilter ("Observation?category=laboratory"): a type's
// conditions, all of which a resource of the type must meet.
type exportFilter struct {
	q   query
	ids []string
}

// matches reports whether res meets the filter's conditions.
func (f exportFilter) matches(res Resource) bool {
	return (len(f.ids) == 0 || slices.Contains(f.ids, res.ResourceID())) && f.q.keeps(res)
}

// exportFilters are an export's _typeFilter queries by type: a resource of a type that has
// some is exported when it meets any one of them; a type without any is exported whole.
type exportFilters map[string][]exportFilter

// keeps reports whether res passes the filters of its type.
func (fs exportFilters) keeps(res Resource) bool {
	list, ok := fs[res.ResourceKind()]
	if !ok {
		return true
	}
	for _, f := range list {
		if f.matches(res) {
			return true
		}
	}
	return false
}

// parseTypeFilters reads _typeFilter values: each a list of queries joined by commas (a
// comma is a query's end where a type's name and "?" follow it; within a query a comma joins
// a parameter's values), each query's own parameters URL-encoded within it, as the Bulk Data
// IG has a client write them. Each query must be of a type the export writes (types).
func parseTypeFilters(values []string, types []string) (exportFilters, error) {
	out := exportFilters{}
	for _, v := range values {
		for _, text := range splitQueries(v) {
			kind, rawQuery, ok := strings.Cut(text, "?")
			if !ok || !slices.Contains(types, kind) {
				return nil, invalid("fhir.export_filter", "_typeFilter", text)
			}
			values, err := url.ParseQuery(rawQuery)
			if err != nil || len(values) == 0 {
				return nil, invalid("fhir.export_filter", "_typeFilter", text)
			}
			f, err := filterOf(kind, values)
			if err != nil {
				return nil, err
			}
			out[kind] = append(out[kind], f)
		}
	}
	return out, nil
}

// splitQueries splits a _typeFilter value at the commas that end a query.
func splitQueries(v string) []string {
	var out []string
	start := 0
	for i := 0; i < len(v); i++ {
		if v[i] == ',' && startsQuery(v[i+1:]) {
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// startsQuery reports whether s starts with a type's name and "?".
func startsQuery(s string) bool {
	kind, _, ok := strings.Cut(s, "?")
	if !ok || kind == "" || kind[0] < 'A' || kind[0] > 'Z' {
		return false
	}
	for _, c := range kind {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// filterOf reads one query of kind: its token parameters, _id and _lastUpdated; any other
// parameter, a modifier, or a result parameter (_count, _sort, _include…) is refused, and so
// is a code system the server does not write there (the filter could match nothing).
func filterOf(kind string, values url.Values) (exportFilter, error) {
	tokens := exportTokens(kind)
	f := exportFilter{q: query{values: map[string][][]string{}, notes: new([]*Error)}}
	for _, name := range sortedKeys(values) {
		if p, ok := tokens[name]; (!ok || p.codings == nil) && name != "_id" && name != "_lastUpdated" {
			return f, invalid("fhir.export_filter_parameter", "_typeFilter", kind, name, supportedFilters(kind))
		}
		for _, v := range values[name] {
			if strings.TrimSpace(v) == "" {
				return f, invalid("fhir.bad_value", "_typeFilter", kind+"?"+name)
			}
			f.q.values[name] = append(f.q.values[name], splitValues(kindToken, v))
		}
	}
	for _, list := range f.q.values["_id"] {
		f.ids = append(f.ids, list...)
	}
	if err := f.q.testDate("_lastUpdated", updatedOf); err != nil {
		return f, invalid("fhir.bad_date", "_typeFilter", kind+"?_lastUpdated")
	}
	if _, err := f.q.where(tokens); err != nil {
		return f, invalid("fhir.bad_value", "_typeFilter", kind+"?"+strings.Join(sortedKeys(values), "&"))
	}
	if notes := *f.q.notes; len(notes) > 0 {
		e := *notes[0]
		e.Status, e.Expression = http.StatusBadRequest, "_typeFilter"
		return f, &e
	}
	return f, nil
}

// supportedFilters names the parameters a filter of kind takes.
func supportedFilters(kind string) string {
	names := []string{"_id", "_lastUpdated"}
	for name := range exportTokens(kind) {
		names = append(names, name)
	}
	sort.Strings(names[2:])
	return strings.Join(names, ", ")
}
