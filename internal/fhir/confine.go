package fhir

import (
	"net/http"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/auth"
)

// compartment are the types of the Patient compartment this server answers, and the search
// parameter naming a resource's patient. A SMART app's patient/ scopes reach these alone,
// and of them the patient in context; a type missing here (a Practitioner, the
// Organization, a type added later) is refused to such a request until it is named.
var compartment = map[string]string{
	"Patient": "_id", "AllergyIntolerance": "patient", "Encounter": "patient", "Condition": "patient", "Observation": "patient",
	"Appointment": "patient", "ServiceRequest": "patient", "MedicationRequest": "patient", "DocumentReference": "patient",
	"DiagnosticReport": "patient", "MedicationStatement": "patient", "Immunization": "patient", "ImmunizationRecommendation": "patient",
}

// confine wraps a route's handler so that a request confined to a patient (a SMART app's
// token reaching it through patient/ scopes: auth.Principal.Confined, set by the guard)
// reaches that patient's records alone, whatever the handler: a Patient read names that
// patient; a search is made a search of that patient's (its patient parameter set, another
// patient's refused); a type's history, which no patient parameter narrows, is refused, as is
// every bulk export to any app token. Each resource answered is checked once more by
// readable (the patient it belongs to), so a handler that missed a condition still answers
// nothing of another patient.
func confine(rt auth.Route) auth.Route {
	next := rt.Handler
	export := strings.Contains(rt.Path, "$export") || strings.Contains(rt.Path, "/bulkdata/")
	rt.Handler = func(w http.ResponseWriter, r *http.Request) {
		p := auth.PrincipalFrom(r.Context())
		if p == nil || p.GrantID == 0 {
			next(w, r)
			return
		}
		if export {
			// A copy of many patients, owned by a browser session or a token: never an app's.
			WriteError(w, r, apperr.Forbidden("auth.scope"))
			return
		}
		if p.Confined == 0 || rt.Resource == "" {
			next(w, r) // a Bundle's entries are requests of their own, confined each
			return
		}
		param, ok := compartment[rt.Resource]
		patient := strconv.FormatInt(p.Confined, 10)
		switch {
		case !ok:
			WriteError(w, r, apperr.Forbidden("auth.scope"))
			return
		case rt.Resource == "Patient" && r.PathValue("id") != "" && r.PathValue("id") != patient:
			WriteError(w, r, outsideContext())
			return
		case rt.Interaction == auth.ActSearch && strings.HasSuffix(rt.Path, "/_history"):
			WriteError(w, r, apperr.Forbidden("auth.scope"))
			return
		case rt.Interaction == auth.ActSearch:
			q := r.URL.Query()
			for _, name := range []string{param, "subject"} {
				for _, list := range q[name] {
					for v := range strings.SplitSeq(list, ",") {
						if v != patient && !strings.HasSuffix(v, "Patient/"+patient) {
							WriteError(w, r, outsideContext())
							return
						}
					}
				}
			}
			q.Del("subject")
			q.Set(param, patient)
			r.URL.RawQuery = q.Encode()
		}
		next(w, r)
	}
	return rt
}

// outsideContext refuses what lies outside the patient in the app's launch context.
func outsideContext() *Error {
	return &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.outside_patient_context"}
}

// inContext reports whether res belongs to the patient that act on its type is confined to
// (always, when it is confined to none). It asks per type, not the route's confinement: a
// route a user/ scope reaches may answer other types that only a patient/ scope allows.
func inContext(p *auth.Principal, res Resource, act byte) bool {
	confined := p.ConfinedFor(res.ResourceKind(), act)
	if confined == 0 {
		return true
	}
	return belongsTo(res) == "Patient/"+strconv.FormatInt(confined, 10)
}

// belongsTo is the reference to the patient whose record res is part of ("" for none).
func belongsTo(res Resource) string {
	ref := func(r *Reference) string {
		if r == nil {
			return ""
		}
		return r.Reference
	}
	switch v := res.(type) {
	case Patient:
		return "Patient/" + v.ID
	case AllergyIntolerance:
		return ref(v.Patient)
	case Observation:
		return ref(v.Subject)
	case Condition:
		return ref(v.Subject)
	case Encounter:
		return ref(v.Subject)
	case ServiceRequest:
		return ref(v.Subject)
	case MedicationRequest:
		return ref(v.Subject)
	case MedicationStatement:
		return ref(v.Subject)
	case Immunization:
		return ref(v.Patient)
	case ImmunizationRecommendation:
		return ref(v.Patient)
	case DocumentReference:
		return ref(v.Subject)
	case DiagnosticReport:
		return ref(v.Subject)
	case Appointment:
		for _, a := range v.Participant {
			if r := ref(a.Actor); strings.HasPrefix(r, "Patient/") {
				return r
			}
		}
	}
	return ""
}
