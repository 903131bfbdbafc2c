package fhir

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"emr/internal/auth"
)

// ReadRule is who may read one FHIR type, or one category of it: a caller holding any one of
// Perms (none: any logged-in caller), as the native API's route that reads the same records
// (Native) asks. A backend client has no permissions: its system/ scopes alone decide.
type ReadRule struct {
	Type     string
	Category string // "" for every resource of the type
	Perms    []auth.Permission
	Native   string // the native route reading the same records, "METHOD /path"
}

// ReadAccess is the one table of who reads what through FHIR, gathered from the types'
// descriptions (resourceType.reads) in their order. The route table takes each type's
// routes' access from it (any of its rules' permissions), and every read, search, history,
// $everything and $export answers, of each resource, only what the caller's rule allows;
// the authorization tests read it.
var ReadAccess []ReadRule

// rulesOf are the rules of kind, in the table's order.
func rulesOf(kind string) []ReadRule {
	var out []ReadRule
	for _, r := range ReadAccess {
		if r.Type == kind {
			out = append(out, r)
		}
	}
	return out
}

// readAccessOf is the access of kind's read and search routes: any permission that reads
// any of it (the handlers then answer only what the caller's rules allow).
func readAccessOf(kind string) auth.Access {
	var perms []auth.Permission
	for _, r := range rulesOf(kind) {
		if len(r.Perms) == 0 {
			return auth.LoggedIn
		}
		for _, p := range r.Perms {
			if !slices.Contains(perms, p) {
				perms = append(perms, p)
			}
		}
	}
	return auth.NeedAny(perms...)
}

// permits reports whether p's permissions let it read r's resources (scopes are checked
// apart, by the guard or the operation).
func (r ReadRule) permits(p *auth.Principal) bool {
	if len(r.Perms) == 0 {
		return true
	}
	for _, perm := range r.Perms {
		if p.MayFHIR(perm) {
			return true
		}
	}
	return false
}

// categoryOf is the category under which ReadAccess reads res ("" for a type read whole).
func categoryOf(res Resource) string {
	if o, ok := res.(Observation); ok && len(o.Category) > 0 && len(o.Category[0].Coding) > 0 {
		return o.Category[0].Coding[0].Code
	}
	return ""
}

// mayRead reports whether p may read resources of kind in category ("" for a type read
// whole). A category the table does not name is read by nobody.
func mayRead(p *auth.Principal, kind, category string) bool {
	for _, r := range rulesOf(kind) {
		if r.Category == category {
			return r.permits(p)
		}
	}
	return false
}

// hasCategory reports whether the table reads kind by category and names this one.
func hasCategory(kind, category string) bool {
	for _, r := range rulesOf(kind) {
		if r.Category != "" && r.Category == category {
			return true
		}
	}
	return false
}

// readable reports whether p may read res, by its type and category, and, when act (the
// interaction answering it: auth.ActRead or auth.ActSearch) on its type is confined to a
// patient (a SMART app's patient/ scopes), by the patient it belongs to.
func readable(p *auth.Principal, res Resource, act byte) bool {
	return mayRead(p, res.ResourceKind(), categoryOf(res)) && inContext(p, res, act)
}

// searchesRegister reports whether p may search the register of patients by any criteria:
// it reads patients (permission and scope) and that search is not confined to a launch's
// patient. A conditional create or reference answers how many patients its condition
// matches, and which: to a caller who may not, it is allowed by identifier alone. A SMART
// app's patient/Patient.rs scope reads the patient in context and searches nobody else, so
// beside a write scope (user/Patient.c) it does not open the register either.
func searchesRegister(p *auth.Principal) bool {
	return mayRead(p, "Patient", "") && p.ScopeAllows("Patient", auth.ActRead) && p.ConfinedFor("Patient", auth.ActSearch) == 0
}

// leftOut lists what of kinds p may not read: a whole type ("Encounter") or a category of a
// type it reads in part ("Observation:laboratory"), in the table's order.
func leftOut(p *auth.Principal, kinds []string) []string {
	var out []string
	for _, kind := range kinds {
		rules := rulesOf(kind)
		var denied []string
		for _, r := range rules {
			if !r.permits(p) {
				denied = append(denied, r.Category)
			}
		}
		switch {
		case len(denied) == 0:
		case len(denied) == len(rules):
			out = append(out, kind)
		default:
			for _, c := range denied {
				out = append(out, kind+":"+c)
			}
		}
	}
	return out
}

// named writes what leftOut lists as the outcome names it: "Observation (laboratory)".
func named(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if kind, category, ok := strings.Cut(k, ":"); ok {
			parts[i] = kind + " (" + category + ")"
		} else {
			parts[i] = k
		}
	}
	return strings.Join(parts, ", ")
}

// readForbidden refuses a read of res, naming its type and category.
func readForbidden(res Resource) *Error {
	k := res.ResourceKind()
	if c := categoryOf(res); c != "" {
		k += ":" + c
	}
	return &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.read_forbidden", Args: []any{named([]string{k})}}
}

// readRefusal is why p may not read res by act, nil when it may. A resource of a patient
// outside the patient a SMART app's launch context confines it to is answered as missing,
// exactly as one that does not exist (404), so that the app learns nothing of another
// patient's record, not even that a resource of that id exists; a type or category p may not
// read at all is refused, naming it (403: that says nothing of any one patient).
func readRefusal(p *auth.Principal, res Resource, act byte, missing *Error) *Error {
	switch {
	case !inContext(p, res, act): // first: a refusal naming a category would say it exists
		return missing
	case !mayRead(p, res.ResourceKind(), categoryOf(res)):
		return readForbidden(res)
	}
	return nil
}

// keepReadable leaves out of list what p may not read by act.
func keepReadable(p *auth.Principal, list []Resource, act byte) []Resource {
	out := list[:0:0]
	for _, res := range list {
		if readable(p, res, act) {
			out = append(out, res)
		}
	}
	return out
}

// readableSource pages src, a search's, with what p may not search left out of each record's
// resources (a record left empty still moves the walk on).
func readableSource(p *auth.Principal, src source) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		list, err := src(ctx, after, desc, limit)
		for i := range list {
			list[i].Resources = keepReadable(p, list[i].Resources, auth.ActSearch)
		}
		return list, err
	}
}
