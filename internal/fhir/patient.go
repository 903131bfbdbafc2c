package fhir

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/patient"
	"emr/internal/settings"
	"emr/internal/textsearch"
)

// MRNSystem is the identifier system of the patient numbers of a clinic that set neither
// a number system nor a public address (Handler.numberSystem gives the one in use).
const MRNSystem = settings.LegacyNumberSystem

// System URLs of the code systems the API writes.
const (
	systemV20203       = "http://terminology.hl7.org/CodeSystem/v2-0203"
	systemMarital      = "http://terminology.hl7.org/CodeSystem/v3-MaritalStatus"
	systemNullFlavor   = "http://terminology.hl7.org/CodeSystem/v3-NullFlavor"
	extensionEstimated = "urn:emr:fhir:StructureDefinition:birth-date-estimated"
)

// Patient is FHIR's Patient.
type Patient struct {
	base
	Identifier    []Identifier     `json:"identifier,omitempty"`
	Active        *bool            `json:"active,omitempty"` // always set, but on a withheld patient
	Name          []HumanName      `json:"name,omitempty"`
	Telecom       []ContactPoint   `json:"telecom,omitempty"`
	Gender        string           `json:"gender,omitempty"`
	BirthDate     string           `json:"birthDate,omitempty"`
	BirthDateExt  *ElementExt      `json:"_birthDate,omitempty"`
	Address       []Address        `json:"address,omitempty"`
	MaritalStatus *CodeableConcept `json:"maritalStatus,omitempty"`
	Contact       []PatientContact `json:"contact,omitempty"`
	Communication []Communication  `json:"communication,omitempty"`
	// withheld marks a patient found by a conditional create for a caller who may not read
	// patients: it holds its id and version alone (withhold).
	withheld bool
}

// withhold is p as its id and version alone.
func withhold(p Patient) Patient {
	return Patient{base: base{ResourceType: p.ResourceType, ID: p.ID, Meta: &Meta{VersionID: p.VersionID()}}, withheld: true}
}

// ElementExt carries a primitive element's extensions.
type ElementExt struct {
	Extension []Extension `json:"extension"`
}

// Communication is a language the patient speaks, and whether they prefer it.
type Communication struct {
	Language  CodeableConcept `json:"language"`
	Preferred *bool           `json:"preferred,omitempty"`
}

// PatientContact is the emergency contact.
type PatientContact struct {
	Relationship []CodeableConcept `json:"relationship,omitempty"`
	Name         *HumanName        `json:"name,omitempty"`
	Telecom      []ContactPoint    `json:"telecom,omitempty"`
}

var maritalCodes = map[string][2]string{
	"single": {"S", "Never Married"}, "married": {"M", "Married"}, "widowed": {"W", "Widowed"},
	"separated": {"L", "Legally Separated"}, "divorced": {"D", "Divorced"}, "other": {"UNK", "unknown"},
}

// pathID reads the {id} of a read: a resource id that is not one of ours is simply not
// found.
func pathID(r *http.Request, kind string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, &Error{Status: http.StatusNotFound, Code: "not-found", Key: "fhir.not_found", Args: []any{kind + "/" + r.PathValue("id")}}
	}
	return id, nil
}

func notFound(kind, id string) *Error {
	return &Error{Status: http.StatusNotFound, Code: "not-found", Key: "fhir.not_found", Args: []any{kind + "/" + id}}
}

func (h *Handler) readPatient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "Patient")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.Patients.Get(r.Context(), id)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = notFound("Patient", r.PathValue("id"))
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if err := h.audited(r, "fhir.patient.read", "patient", strconv.FormatInt(id, 10), id, ""); err != nil {
		WriteError(w, r, err)
		return
	}
	respond(w, http.StatusOK, toPatient(p, h.numberSystem(r.Context())))
}

// systemGender is the code system of Patient.gender (administrative-gender).
const systemGender = "http://hl7.org/fhir/administrative-gender"

// patientFilter reads a Patient search's conditions, all of them the register's query's; own
// are the clinic's number systems (Handler.ownSystems).
func patientFilter(q query, own []string) (patient.Filter, bool, error) {
	var f patient.Filter
	ids, given := q.ids()
	if given && len(ids) == 0 {
		return f, false, nil // no such id: nothing matches
	}
	f.IDs = ids
	if v, err := q.one("identifier"); err != nil {
		return f, false, err
	} else if v != "" {
		t := parseToken(v)
		switch {
		case t.code == "" && (!t.hasSystem || t.system == ""):
			return f, false, invalid("fhir.bad_value", "identifier", "identifier")
		case t.hasSystem && slices.Contains(own, t.system):
			f.MRN = t.code // every patient has a number: "system|" alone matches them all
		default:
			f.Identifier = &patient.IdentifierMatch{System: t.system, Value: t.code, HasSystem: t.hasSystem, OrNumber: !t.hasSystem}
		}
	}
	for _, name := range []string{"name", "family", "given", "name:exact", "family:exact", "given:exact"} {
		for _, list := range q.values[name] {
			if len(list) > 1 {
				return f, false, invalid("fhir.one_value", name, name)
			}
			words := textsearch.Tokens(list[0])
			if len(words) == 0 {
				return f, false, invalid("fhir.bad_value", name, name)
			}
			f.Words = append(f.Words, words...)
		}
	}
	genders, ok, err := q.codes("gender", patientTokens["gender"])
	if err != nil || !ok {
		return f, false, err
	}
	for _, g := range genders {
		if !contains(patient.Sexes, g) {
			return f, false, invalid("fhir.bad_value", "gender", "gender")
		}
	}
	if len(genders) > 1 {
		return f, false, invalid("fhir.one_value", "gender", "gender") // the register's search takes one
	}
	if len(genders) == 1 {
		f.Sex = genders[0]
	}
	actives, ok, err := q.codes("active", patientTokens["active"])
	if err != nil || !ok {
		return f, false, err
	}
	for _, v := range actives {
		active, err := strconv.ParseBool(v)
		if err != nil {
			return f, false, invalid("fhir.bad_value", "active", "active")
		}
		archived := !active
		if len(actives) == 1 { // both true and false: either
			f.Archived = &archived
		}
	}
	if rng, ok, err := q.dates("birthdate"); err != nil {
		return f, false, err
	} else if ok {
		if !rng.From.IsZero() {
			f.BirthFrom = rng.From.Format("2006-01-02")
		}
		if !rng.To.IsZero() {
			f.BirthTo = rng.To.Format("2006-01-02")
		}
	}
	if rng, ok, err := q.dates("_lastUpdated"); err != nil {
		return f, false, err
	} else if ok {
		if !rng.From.IsZero() {
			f.UpdatedGE = &rng.From
		}
		if !rng.To.IsZero() {
			f.UpdatedLT = &rng.To
		}
	}
	return f, true, nil
}

// patientSource pages the patients matching f.
func (h *Handler) patientSource(f patient.Filter, any bool, system string) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !any {
			return nil, nil
		}
		g := f
		g.After, g.Descending, g.Limit, g.WithoutHistory = after, desc, limit, true // a Patient carries no history
		list, _, err := h.Patients.Page(ctx, g)
		if err != nil {
			return nil, err
		}
		out := make([]group, len(list))
		for i, p := range list {
			out[i] = group{ID: p.ID, Resources: []Resource{toPatient(p, system)}}
		}
		return out, nil
	}
}

// idList names a page's resources for its audit event.
func idList(page []entry) string {
	ids := make([]string, len(page))
	for i, e := range page {
		ids[i] = e.res.ResourceID()
	}
	return strings.Join(ids, ",")
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
