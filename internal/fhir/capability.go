package fhir

import (
	"net/http"
	"strings"
	"time"
)

// CapabilityStatement says exactly what the API does: nothing it lists is missing, nothing
// missing is listed (a test compares it with the route table).
type CapabilityStatement struct {
	ResourceType   string                    `json:"resourceType"`
	Status         string                    `json:"status"`
	Date           string                    `json:"date"`
	Publisher      string                    `json:"publisher,omitempty"`
	Kind           string                    `json:"kind"`
	Software       *CapabilitySoftware       `json:"software,omitempty"`
	Implementation *CapabilityImplementation `json:"implementation,omitempty"`
	FHIRVersion    string                    `json:"fhirVersion"`
	Format         []string                  `json:"format"`
	Rest           []CapabilityRest          `json:"rest"`
}

// CapabilitySoftware names the server.
type CapabilitySoftware struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// CapabilityImplementation is this installation.
type CapabilityImplementation struct {
	Description string `json:"description"`
	URL         string `json:"url,omitempty"`
}

// CapabilityRest is the server's REST API.
type CapabilityRest struct {
	Mode        string                  `json:"mode"`
	Security    *CapabilitySecurity     `json:"security,omitempty"`
	Resource    []CapabilityResource    `json:"resource"`
	Interaction []CapabilityInteraction `json:"interaction,omitempty"`
	Operation   []CapabilityOperation   `json:"operation,omitempty"`
}

// CapabilityOperation is an operation the server runs.
type CapabilityOperation struct {
	Name       string `json:"name"`
	Definition string `json:"definition"`
}

// CapabilitySecurity says how callers authenticate.
type CapabilitySecurity struct {
	Service     []CodeableConcept `json:"service,omitempty"`
	Description string            `json:"description,omitempty"`
}

// CapabilityResource is what the API does with one resource type.
type CapabilityResource struct {
	Type              string                  `json:"type"`
	Interaction       []CapabilityInteraction `json:"interaction,omitempty"`
	Versioning        string                  `json:"versioning,omitempty"`
	ReadHistory       bool                    `json:"readHistory"`
	UpdateCreate      bool                    `json:"updateCreate"`
	ConditionalCreate bool                    `json:"conditionalCreate"`
	SearchInclude     []string                `json:"searchInclude,omitempty"`
	SearchRevInclude  []string                `json:"searchRevInclude,omitempty"`
	SearchParam       []CapabilitySearchParam `json:"searchParam,omitempty"`
	Operation         []CapabilityOperation   `json:"operation,omitempty"`
	// SupportedProfile are the profiles the type's resources claim where they conform.
	SupportedProfile []string `json:"supportedProfile,omitempty"`
	Documentation    string   `json:"documentation,omitempty"`
}

// CapabilityInteraction is one interaction a resource type supports.
type CapabilityInteraction struct {
	Code string `json:"code"`
}

// CapabilitySearchParam is one search parameter of a resource type.
type CapabilitySearchParam struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

var paramTypes = map[paramKind]string{kindToken: "token", kindString: "string", kindDate: "date", kindReference: "reference"}

// started is when this process started: the statement's date.
var started = time.Now()

func (h *Handler) capabilities(w http.ResponseWriter, r *http.Request) {
	cs := CapabilityStatement{
		ResourceType: "CapabilityStatement", Status: "active", Date: instant(started), Kind: "instance",
		Software:       &CapabilitySoftware{Name: "EMR", Version: h.Version},
		Implementation: &CapabilityImplementation{Description: "EMR FHIR R4 API", URL: h.baseURL(r)},
		FHIRVersion:    "4.0.1", Format: []string{"json"},
	}
	rest := CapabilityRest{Mode: "server", Security: &CapabilitySecurity{
		Service: []CodeableConcept{*concept("http://terminology.hl7.org/CodeSystem/restful-security-service", "SMART-on-FHIR", "SMART-on-FHIR")},
		Description: "Bearer tokens: API tokens made by an administrator or the account holder, each acting as its account narrowed by SMART-style scopes; " +
			"and SMART Backend Services (client_credentials with a private_key_jwt assertion, RS384 or ES384; token endpoint in .well-known/smart-configuration) for system/ scopes; " +
			"and SMART App Launch (authorization code with PKCE S256 for public clients, EHR and standalone launch, openid fhirUser, refresh tokens) for browser apps registered by the clinic.",
	}}
	// The searchable types in name order (resourceTypes), then the others.
	kinds := map[string]resourceType{}
	for _, t := range resourceTypes {
		if t.plan != nil {
			kinds[t.kind] = t
		}
	}
	for _, kind := range sortedKeys(kinds) {
		t := kinds[kind]
		// Every type keeps its versions: vread and both histories.
		res := CapabilityResource{Type: kind, Versioning: "versioned", ReadHistory: true, Interaction: []CapabilityInteraction{{Code: "read"}, {Code: "vread"},
			{Code: "search-type"}, {Code: "history-instance"}, {Code: "history-type"}}, SupportedProfile: supportedProfiles(kind)}
		if t.versions == nil { // worked out when read (ImmunizationRecommendation): no versions
			res.Versioning, res.ReadHistory = "no-version", false
			res.Interaction = []CapabilityInteraction{{Code: "read"}, {Code: "search-type"}}
		}
		if t.write != nil {
			res.Versioning = "versioned-update"
			res.Interaction = append(res.Interaction, CapabilityInteraction{Code: "create"}, CapabilityInteraction{Code: "update"})
		}
		if kind == "Patient" {
			res.Operation = []CapabilityOperation{{Name: "export", Definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export"},
				{Name: "everything", Definition: "http://hl7.org/fhir/OperationDefinition/Patient-everything"}}
			res.ConditionalCreate = true
			res.Documentation = "The clinic's patient number is the identifier of system " + h.numberSystem(r.Context()) +
				" (set under Settings → Clinic; derived from the public address, else " + MRNSystem + ", which is always found too); the clinic assigns it. " +
				"Identifiers of other systems are kept, one patient each, and found by identifier=system|value, value, |value or system|. " +
				"What a Patient carries beside the register's fields (other names, contact points, structured addresses, communication, meta.profile) is kept and given back as sent. " +
				"A registration that may be a patient already registered (the same name, birth date and sex, or the same phone) is refused (409, issue code duplicate), " +
				"its issue naming those patients: one extension " + h.ownDefinition(r.Context(), possibleDuplicateName) + " (valueReference Patient/{id}) each. " +
				"Sent again with one extension " + h.ownDefinition(r.Context(), distinctFromName) + " (valueReference Patient/{id}) for each patient named, exactly those, " +
				"it is registered as a different person from them, as the desk confirms one (on its own, conditionally, in a batch or a transaction); the extension is not kept."
		}
		if kind == "Encounter" {
			res.Documentation = "An Encounter is a visit the patient has come to, registered in the appointment book: arrived, in-progress or finished. " +
				"A finished one is a visit that has happened, registered on the day its period.start falls on in the clinic's time zone, however long ago; " +
				"in a transaction, the vital-sign Observations that reference it are written into it before it is completed, all or nothing. " +
				"A finished Encounter whose period starts in the future, or any period ending before it starts, is refused (422); " +
				"an arrived or in-progress one is a visit of today or later."
		}
		if kind == "Observation" {
			res.Documentation = "A vital sign is written into its visit (Observation.encounter), one of each kind per visit, with status " +
				"preliminary, final, amended or corrected. A create of a vital the visit already has is refused (409): change it by " +
				"PUT Observation/{id} with If-Match, where {id} is the visit's id and the vital's part (e.g. 401-hr). A censored value " +
				"(valueQuantity.comparator) and the status entered-in-error, cancelled, registered or unknown are refused (422); " +
				"a wrong vital is corrected by writing the right value, or in the visit in the web app. The visit's time is the " +
				"vital's effective time, and its interpretation is the clinic's own. A child's head circumference is 9843-4 (cm); " +
				"the BMI percentile for age and sex (59576-9, %, on the WHO Child Growth Standards and the WHO 2007 reference, id {visit}-bmipct) " +
				"is worked out from the visit's weight and height and never written."
		}
		if kind == "MedicationStatement" {
			res.Documentation = "The medicines the patient reports taking: each one recorded as taken, prescribed elsewhere or bought " +
				"over the counter (id taken-{entry}, category patientspecified, informationSource the patient, a note saying " +
				"\"Bought over the counter\" or \"Prescribed elsewhere\" with the other prescriber's name when known, the catalogue's " +
				"ATC code when it has one): active until stopped, then, as a new version, stopped with effectivePeriod.end the day and " +
				"statusReason the reason; a start known only as a year or a month is written as such. A medicine prescribed here is a " +
				"MedicationRequest only: the full list is both."
		}
		if kind == "Immunization" {
			res.Documentation = "Each record of the immunisation record (id the record's): a dose given here (primarySource true, performer the " +
				"Practitioner who gave it, location the clinic), a dose given elsewhere (primarySource false, reportOrigin record, jurisdiction or " +
				"recall for a card, a registry or the parent's word), or a refusal, contraindication or deferral (status not-done, statusReason v3 ActReason " +
				"PATOBJ or MEDPREC with the reason as text; a deferral's day to come back in a note). vaccineCode carries the product's CVX and ATC codes and its name; site and route are " +
				"v3 ActSite and RouteOfAdministration codes where they map, words otherwise; protocolApplied, for each antigen the patient's forecast " +
				"counts the dose for, the schedule (series), the antigen (targetDisease in the clinic's system " + systemAntigen + "), the dose it counts " +
				"as and the series' doses, and a note for each antigen it does not count for (too early, too close, too late, not needed). A reaction after a dose is " +
				"reaction.date and, in words, reaction.detail.display (no Observation is made of it). A record marked entered in error is " +
				"entered-in-error with the reason in a note. A refusal or contraindication of an antigen (no product) has vaccineCode CVX's code of a vaccine " +
				"against it of no stated formulation (998 where CVX has none), the antigen's name as text. targetDisease is SNOMED CT (the IPS's vaccine target " +
				"diseases) beside the clinic's code. Each change of a record (its creation, a reaction, entered in error) is a version vread and _history give " +
				"as it was; a record not changed since versions were kept has its current one alone."
		}
		if kind == "ImmunizationRecommendation" {
			res.Documentation = "A patient's forecast, worked out when read from their record against the clinic's schedules, never stored: " +
				"one per patient (id the patient's) whose forecast has anything to say. Each recommendation is an antigen's next dose: " +
				"targetDisease, vaccineCode the products that give it (CVX, ATC), series the schedule, " +
				"doseNumberPositiveInt and seriesDosesPositiveInt, forecastStatus (due, overdue, complete, contraindicated in HL7's " +
				"immunization-recommendation-status; upcoming, aged_out and refused in " + systemForecastStatus + "), dateCriterion LOINC " +
				"30981-5 earliest, 30980-7 due, 59778-1 overdue and 59777-3 latest, and supportingImmunization the doses that counted. " +
				"Only upcoming, due and overdue carry dateCriterion: complete, aged out, refused and contraindicated say their status alone. " +
				"targetDisease is SNOMED CT (the IPS's vaccine target diseases) beside the clinic's code. A patient past the end of every schedule (18 years) has none. " +
				"date is the day it was worked out for and meta.lastUpdated the moment; it keeps no versions, and an export includes it whatever _since says."
		}
		if res.Versioning == "versioned-update" {
			res.Documentation = strings.TrimSpace(res.Documentation + " A write drops the elements and extensions the clinic does not keep and names them: in the " +
				DroppedHeader + " header, and as warnings under Prefer: return=OperationOutcome (or in a Bundle entry's response.outcome); " +
				"a modifierExtension, or a modifier element not kept, refuses the write (422).")
		}
		res.SearchInclude, res.SearchRevInclude = includesOf(kind)
		res.SearchParam = append(res.SearchParam, CapabilitySearchParam{Name: "_id", Type: "token"}, CapabilitySearchParam{Name: "_lastUpdated", Type: "date"})
		for _, name := range sortedKeys(t.params) {
			res.SearchParam = append(res.SearchParam, CapabilitySearchParam{Name: name, Type: paramTypes[t.params[name]]})
		}
		rest.Resource = append(rest.Resource, res)
	}
	rest.Interaction = []CapabilityInteraction{{Code: "batch"}, {Code: "transaction"}}
	rest.Operation = []CapabilityOperation{{Name: "export", Definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export"}}
	// A Group is "doctor-<id>": the patients of one doctor, read (its first members, all
	// counted) and exported together; it keeps no versions.
	rest.Resource = append(rest.Resource, CapabilityResource{Type: "Group", Versioning: "no-version", Interaction: []CapabilityInteraction{{Code: "read"}},
		Operation: []CapabilityOperation{{Name: "export", Definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export"}}})
	cs.Rest = []CapabilityRest{rest}
	write(w, http.StatusOK, cs)
}
