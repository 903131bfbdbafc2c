package fhir

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/prescription"
)

// typeMedicationStatement describes MedicationStatement: the medicines the patient reports
// taking (issue 55), recorded as prescribed elsewhere or bought over the counter
// ("taken-{entry}"), their versions the entry's. A line prescribed here is a
// MedicationRequest only (ADR 35): as a statement it would change status with the clock and
// vanish when cancelled, which no version or history could show.
var typeMedicationStatement = resourceType{
	kind: "MedicationStatement",
	// The chart's current medicines are read by who reads prescriptions.
	reads:   []ReadRule{{"MedicationStatement", "", []auth.Permission{auth.WritePrescription, auth.WriteDiagnosis, auth.RecordVitals}, "GET /api/patients/{id}/current-medicines"}},
	params:  medicationStatementParams,
	filters: medicationStatementTokens,
	plan:    medicationStatementPlan,
	action:  "medicationstatement",
	versions: func(h *Handler, _ recordSources) []versionSource {
		return []versionSource{
			sourceOf("medicine_taken", takenID, keptOf[prescription.Taken](h.DB, prescription.TakenVersionKind),
				func(ctx context.Context, id int64, _ string) (prescription.Taken, bool, error) {
					return firstOf(h.Prescriptions.TakenPage(ctx, []int64{id}, 0, 0, false, 1))
				}, toTakenStatements, func(t prescription.Taken) int64 { return t.PatientID }),
		}
	},
}

// takenPrefix begins the id of a statement made from a recorded medicine.
const takenPrefix = "taken-"

func takenID(id string) (int64, bool) {
	rest, ok := strings.CutPrefix(id, takenPrefix)
	if !ok {
		return 0, false
	}
	return wholeID(rest)
}

// medicationStatementPlan reads a MedicationStatement search over the recorded medicines;
// the status and category are tested on the statements built.
func medicationStatementPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := patientOf(*q)
	if err != nil {
		return searchPlan{}, err
	}
	// effective: the statement's period overlaps the range asked (a start of "2019" or
	// "2019-03" stands for its whole year or month; a period still open runs to now).
	rng, asked, err := q.dates("effective")
	if err != nil {
		return searchPlan{}, err
	}
	if asked {
		q.test(func(res Resource) bool { return rng.overlaps(res.(MedicationStatement).EffectivePeriod) })
	}
	match := pid >= 0 && coded
	var takenIDs []int64
	keep := func(list []Resource) []Resource { return list }
	if _, given := q.ids(); given {
		keep = func(list []Resource) []Resource { return keepIDs(list, q.values["_id"]) }
		for _, v := range flat(q.values["_id"]) {
			if n, ok := takenID(v); ok {
				takenIDs = append(takenIDs, n)
			}
		}
		match = match && len(takenIDs) > 0
	}
	taken := h.taken(takenIDs, max(pid, 0)).source(match, func(t prescription.Taken) []Resource { return keep(toTakenStatements(t)) })
	return searchPlan{src: taken, entity: "patient", patient: max(pid, 0)}, nil
}

// toTakenStatements is a recorded medicine as the patient reported it: prescribed elsewhere
// (the prescriber's name in a note when known: no record of the register names them) or
// bought over the counter (said in a note), active until stopped, then stopped from its day, for its reason.
func toTakenStatements(t prescription.Taken) []Resource {
	m := MedicationStatement{
		base:   newBase("MedicationStatement", takenPrefix+strconv.FormatInt(t.ID, 10), t.Version, t.UpdatedAt),
		Status: "active", Category: statementCategory("patientspecified", "Patient Specified"),
		MedicationCodeableConcept: &CodeableConcept{Text: t.Medicine},
		Subject:                   ref("Patient", t.PatientID),
		DateAsserted:              instant(t.RecordedAt),
		// The patient told the nurse or doctor: they are the source, unless the entry names
		// another (said in words: a carer, a pharmacy, another clinic's letter, the packet).
		InformationSource: informationSource(t),
		Dosage:            dosageOf(t.Dose, t.Frequency),
	}
	if t.Route != "" {
		if len(m.Dosage) == 0 {
			m.Dosage = []Dosage{{}}
		}
		m.Dosage[0].Route = &CodeableConcept{Text: t.Route}
	}
	if t.Indication != "" {
		m.ReasonCode = []CodeableConcept{{Text: t.Indication}}
	}
	if t.ATC != "" {
		m.MedicationCodeableConcept.Coding = []Coding{{System: systemATC, Code: t.ATC, Display: t.ATCName}}
	}
	// A start of "2024" or "2024-03" is a FHIR dateTime as it stands.
	period := Period{Start: t.StartedOn}
	switch {
	case t.InError(): // made by accident: no statement of the patient's at all
		m.Status = "entered-in-error"
		m.StatusReason = []CodeableConcept{{Text: t.ErrorReason}}
	case !t.Active():
		m.Status, period.End = "stopped", t.StoppedOn
		m.StatusReason = []CodeableConcept{{Text: stopText(t)}}
	}
	if period != (Period{}) {
		m.EffectivePeriod = &period
	}
	// Where it came from is in a note, so that bought over the counter and prescribed
	// elsewhere by someone unknown differ.
	switch {
	case t.Source == prescription.SourceOTC:
		m.Note = []Annotation{{Text: "Bought over the counter"}}
	case t.Prescriber != "":
		m.Note = []Annotation{{Text: "Prescribed elsewhere by " + t.Prescriber}}
	default:
		m.Note = []Annotation{{Text: "Prescribed elsewhere"}}
	}
	// adherence is R5's; in R4 it is said in a note, as is the last dose
	if text, ok := adherenceText[t.Adherence]; ok {
		m.Note = append(m.Note, Annotation{Text: "Adherence: " + text})
	}
	if t.LastDose != "" {
		m.Note = append(m.Note, Annotation{Text: "Last dose taken: " + t.LastDose})
	}
	return []Resource{m}
}

// adherenceText is how each adherence reads in a note.
var adherenceText = map[string]string{"as_directed": "taking as directed", "irregular": "taking irregularly", "not_taking": "not taking"}

// sourceText is who or what an entry says the information came from, other than the patient.
var sourceText = map[string]string{"carer": "Relative or carer", "pharmacy": "Pharmacy record",
	"other_clinic": "Letter or record from another clinic", "packet": "Medicine packet seen"}

// informationSource is the patient (the reference), or another source said in words.
func informationSource(t prescription.Taken) *Reference {
	if text, ok := sourceText[t.InfoSource]; ok {
		return &Reference{Display: text}
	}
	return ref("Patient", t.PatientID)
}

// stopText is a stop's category and free text: "side_effect: rash".
func stopText(t prescription.Taken) string {
	switch {
	case t.StopCategory == "":
		return t.StopReason
	case t.StopReason == "":
		return t.StopCategory
	}
	return t.StopCategory + ": " + t.StopReason
}

// dosageOf is how a medicine is taken, as the line or the entry says it; none when it says
// nothing.
func dosageOf(parts ...string) []Dosage {
	var said []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			said = append(said, p)
		}
	}
	if len(said) == 0 {
		return nil
	}
	return []Dosage{{Text: strings.Join(said, "; ")}}
}

func statementCategory(code, display string) *CodeableConcept {
	return concept(systemMedStatementCategory, code, display)
}

var medicationStatementParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "status": kindToken, "category": kindToken, "code": kindToken, "effective": kindDate,
}

// medicationStatementTokens are MedicationStatement's token parameters, tested on the
// statements built.
var medicationStatementTokens = map[string]tokenParam{
	"status": codeParam(systemMedStatementStatus, func(res Resource) string { return res.(MedicationStatement).Status }),
	"category": codingParam(func(res Resource) []Coding {
		return codingsOf(res.(MedicationStatement).Category)
	}, systemMedStatementCategory),
	// code: the medicine's WHO ATC code, when the entry was chosen from the catalogue.
	"code": codingParam(func(res Resource) []Coding {
		return codingsOf(res.(MedicationStatement).MedicationCodeableConcept)
	}, systemATC),
}

// overlaps reports whether period p (its start and end at their own precision; no end: still
// running; no start: begun before anything asked) meets the range; a statement with no period
// at all (start and stop unknown) meets none.
func (rng dateRange) overlaps(p *Period) bool {
	if p == nil {
		return false
	}
	if p.Start != "" { // an unknown start ran from before anything asked
		start, _, _, err := parseDate(p.Start)
		if err != nil || (!rng.To.IsZero() && !start.Before(rng.To)) {
			return false
		}
	}
	if p.End == "" || rng.From.IsZero() {
		return true
	}
	_, end, _, err := parseDate(p.End)
	return err == nil && end.After(rng.From)
}

// MedicationStatement is a medicine the patient takes or took.
type MedicationStatement struct {
	base
	Status                    string            `json:"status"`
	StatusReason              []CodeableConcept `json:"statusReason,omitempty"`
	Category                  *CodeableConcept  `json:"category,omitempty"`
	MedicationCodeableConcept *CodeableConcept  `json:"medicationCodeableConcept"`
	Subject                   *Reference        `json:"subject"`
	EffectivePeriod           *Period           `json:"effectivePeriod,omitempty"`
	DateAsserted              string            `json:"dateAsserted,omitempty"`
	InformationSource         *Reference        `json:"informationSource,omitempty"`
	ReasonCode                []CodeableConcept `json:"reasonCode,omitempty"`
	Note                      []Annotation      `json:"note,omitempty"`
	Dosage                    []Dosage          `json:"dosage,omitempty"`
}

// Code systems of MedicationStatement's status and category, and WHO's ATC classification.
const (
	systemMedStatementStatus   = "http://hl7.org/fhir/CodeSystem/medication-statement-status"
	systemMedStatementCategory = "http://terminology.hl7.org/CodeSystem/medication-statement-category"
	systemATC                  = "http://www.whocc.no/atc"
)
