package fhir

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"emr/internal/appointment"
)

// Code systems of the clinical resources.
const (
	systemLOINC        = "http://loinc.org"
	systemUCUM         = "http://unitsofmeasure.org"
	systemICD10        = "http://hl7.org/fhir/sid/icd-10"
	systemSNOMED       = "http://snomed.info/sct"
	systemObsCategory  = "http://terminology.hl7.org/CodeSystem/observation-category"
	systemCondCategory = "http://terminology.hl7.org/CodeSystem/condition-category"
	systemCondClinical = "http://terminology.hl7.org/CodeSystem/condition-clinical"
	systemCondVerify   = "http://terminology.hl7.org/CodeSystem/condition-ver-status"
	systemAllergyClin  = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
	systemAllergyVer   = "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification"
	systemActCode      = "http://terminology.hl7.org/CodeSystem/v3-ActCode"
	systemAbsent       = "http://terminology.hl7.org/CodeSystem/data-absent-reason"
)

// AllergyIntolerance is one recorded allergy, or the recorded absence of any.
type AllergyIntolerance struct {
	base
	ClinicalStatus     *CodeableConcept  `json:"clinicalStatus,omitempty"`
	VerificationStatus *CodeableConcept  `json:"verificationStatus,omitempty"`
	Code               *CodeableConcept  `json:"code,omitempty"`
	Patient            *Reference        `json:"patient"`
	RecordedDate       string            `json:"recordedDate,omitempty"`
	Recorder           *Reference        `json:"recorder,omitempty"`
	Reaction           []AllergyReaction `json:"reaction,omitempty"`
}

// AllergyReaction is what the allergy did, and how badly.
type AllergyReaction struct {
	Manifestation []Manifestation `json:"manifestation"`
	Severity      string          `json:"severity,omitempty"`
}

// Manifestation is what a reaction looked like (a CodeableConcept): the text recorded, or,
// when only a severity was, no text and the data-absent-reason extension saying it is unknown
// — never a made-up one (the substance is not a reaction).
type Manifestation struct {
	Extension []CodeExtension `json:"extension,omitempty"`
	Text      string          `json:"text,omitempty"`
}

// CodeExtension is an extension with a code value.
type CodeExtension struct {
	URL       string `json:"url"`
	ValueCode string `json:"valueCode"`
}

// extensionAbsent is FHIR's data-absent-reason extension: why an element has no value.
const extensionAbsent = "http://hl7.org/fhir/StructureDefinition/data-absent-reason"

// manifestationOf is a recorded reaction's manifestation; unknown when none was recorded.
func manifestationOf(reaction string) Manifestation {
	if reaction == "" {
		return Manifestation{Extension: []CodeExtension{{URL: extensionAbsent, ValueCode: "unknown"}}}
	}
	return Manifestation{Text: reaction}
}

// noKnownAllergy is SNOMED CT's "No known allergy" (716186003), the standard code for a
// recorded absence of allergies.
var noKnownAllergy = concept(systemSNOMED, "716186003", "No known allergy")

// splitID reads a derived resource's id "{record}-{part}".
func splitID(kind, id string) (int64, string, error) {
	head, part, ok := strings.Cut(id, "-")
	n, err := strconv.ParseInt(head, 10, 64)
	if !ok || err != nil || n <= 0 || part == "" {
		return 0, "", notFound(kind, id)
	}
	return n, part, nil
}

// keepIDs keeps the resources whose id is one of _id's values.
func keepIDs(list []Resource, values [][]string) []Resource {
	want := map[string]bool{}
	for _, vs := range values {
		for _, v := range vs {
			want[v] = true
		}
	}
	var out []Resource
	for _, res := range list {
		if want[res.ResourceID()] {
			out = append(out, res)
		}
	}
	return out
}

// Encounter is a visit: an appointment and what happened at it.
type Encounter struct {
	base
	Status      string            `json:"status"`
	Class       Coding            `json:"class"`
	Type        []CodeableConcept `json:"type,omitempty"`
	Subject     *Reference        `json:"subject,omitempty"`
	Participant []Participant     `json:"participant,omitempty"`
	Period      *Period           `json:"period,omitempty"`
	ReasonCode  []CodeableConcept `json:"reasonCode,omitempty"`
}

// Participant is who took part in an encounter.
type Participant struct {
	Individual *Reference `json:"individual,omitempty"`
}

// encounterStatus maps an appointment's status to Encounter.status.
var encounterStatus = map[string]string{
	appointment.Booked: "planned", appointment.Arrived: "arrived", appointment.InProgress: "in-progress",
	appointment.Completed: "finished", appointment.Cancelled: "cancelled", appointment.NoShow: "cancelled",
}

// recordsOf reads one record by id (as a single-item list), for a read.
func (h *Handler) record(ctx context.Context, id int64) (*appointment.Record, error) {
	list, err := h.Visits.Records(ctx, appointment.RecordFilter{IDs: []int64{id}, Limit: 1})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return &list[0], nil
}

// Code systems of the code elements searched by status (each element's value set's).
const (
	systemEncounterStatus   = "http://hl7.org/fhir/encounter-status"
	systemAppointmentStatus = "http://hl7.org/fhir/appointmentstatus"
	// systemVisitType is the code system of the appointment book's types of visit (new,
	// follow-up, walk-in): the clinic's own, as no standard one says them.
	systemVisitType = "urn:emr:visit-type"
)

// recordFilter reads the conditions a search of visit records shares: the patient (or
// subject), the date, the ids.
func recordFilter(q query, idsAreRecords bool) (appointment.RecordFilter, bool, error) {
	var f appointment.RecordFilter
	for _, name := range []string{"patient", "subject"} {
		pid, err := q.reference(name, "Patient")
		if err != nil {
			return f, false, err
		}
		if pid < 0 || (pid > 0 && f.PatientID > 0 && pid != f.PatientID) {
			return f, false, nil
		}
		if pid > 0 {
			f.PatientID = pid
		}
	}
	ids, given := q.recordIDs(!idsAreRecords)
	if given && len(ids) == 0 {
		return f, false, nil
	}
	f.IDs = ids
	rng, ok, err := q.dates("date")
	if err != nil {
		return f, false, err
	}
	if ok {
		if !rng.From.IsZero() {
			f.From = &rng.From
		}
		if !rng.To.IsZero() {
			f.To = &rng.To
		}
	}
	return f, true, nil
}

// recordSource pages visit records matching f, each expanded into its resources.
func (h *Handler) recordSource(f appointment.RecordFilter, match bool, expand func(appointment.Record) []Resource) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !match {
			return nil, nil
		}
		g := f
		g.After, g.Descending, g.Limit = after, desc, limit
		list, err := h.Visits.Records(ctx, g)
		if err != nil {
			return nil, err
		}
		out := make([]group, len(list))
		for i, rec := range list {
			out[i] = group{ID: rec.ID, Resources: expand(rec)}
		}
		return out, nil
	}
}

// nativeStatuses reads a status parameter (a code of system) as the native statuses mapping
// gives it (nil: any), and whether the search can still match.
func nativeStatuses(q query, system string, mapping map[string]string, match bool) ([]string, bool, error) {
	codes, ok, err := q.codes("status", tokenParam{systems: []string{system, ""}})
	if err != nil || !ok || codes == nil {
		return nil, match && ok, err
	}
	var out []string
	for native, status := range mapping {
		if slices.Contains(codes, status) {
			out = append(out, native)
		}
	}
	slices.Sort(out)
	return out, match && len(out) > 0, nil
}

func filterIDs(expand func(appointment.Record) []Resource, values [][]string) func(appointment.Record) []Resource {
	return func(rec appointment.Record) []Resource { return keepIDs(expand(rec), values) }
}
