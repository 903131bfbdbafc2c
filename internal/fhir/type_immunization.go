package fhir

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/immunisation"
)

// immunisationReaders are who read a child's immunisation record and forecast: as the chart's
// immunisation card asks (view patient, and one of these).
var immunisationReaders = []auth.Permission{auth.RecordImmunisations, auth.WriteDiagnosis, auth.RecordVitals}

// typeImmunization describes Immunization: each record of the immunisation record (issue 59)
// — a dose given here, one given elsewhere (primarySource false, its origin said), a refusal
// or a contraindication (not-done, with its reason) — its id the record's, its versions the
// record's counter.
var typeImmunization = resourceType{
	kind:    "Immunization",
	reads:   []ReadRule{{"Immunization", "", immunisationReaders, "GET /api/patients/{id}/immunisations"}},
	params:  immunizationParams,
	filters: immunizationTokens,
	plan:    immunizationPlan,
	action:  "immunization",
	versions: func(h *Handler, _ recordSources) []versionSource {
		return []versionSource{
			sourceOf("immunisation", wholeID,
				// Each version as the record store kept it (from issue 59's FHIR review on; a
				// record not changed since has its live version alone).
				func(ctx context.Context, q database.KeptQuery, lang string) ([]database.Kept[readRecord], error) {
					list, err := immunisation.Kept(ctx, h.DB, q)
					out := make([]database.Kept[readRecord], len(list))
					for i, k := range list {
						out[i] = database.Kept[readRecord]{Seq: k.Seq, RecordID: k.RecordID, Version: k.Version, RecordedAt: k.RecordedAt, Record: readRecord{k.Record, lang}}
					}
					return out, err
				},
				func(ctx context.Context, id int64, lang string) (readRecord, bool, error) {
					x, found, err := immunisation.RecordByID(ctx, h.DB, id)
					if err != nil || !found {
						return readRecord{}, found, err
					}
					return readRecord{x, lang}, true, nil
				},
				func(x readRecord) []Resource { return []Resource{toImmunization(x.Recorded, x.lang)} },
				func(x readRecord) int64 { return x.PatientID }),
		}
	},
}

// readRecord is a record read for one reader: its products and antigens are named in lang.
type readRecord struct {
	immunisation.Recorded
	lang string
}

// immunisations pages the records in id order: of one patient when patientID is not 0,
// among ids when there are any.
func (h *Handler) immunisations(ids []int64, patientID int64, since *time.Time) pager[immunisation.Recorded] {
	return pager[immunisation.Recorded]{
		page: func(ctx context.Context, after int64, desc bool, limit int) ([]immunisation.Recorded, error) {
			list, err := immunisation.RecordsPage(ctx, h.DB, immunisation.PageFilter{PatientID: patientID, IDs: ids, Since: since, After: after, Descending: desc, Limit: limit})
			if err != nil {
				return nil, err
			}
			return list, nil
		},
		id: func(x immunisation.Recorded) int64 { return x.ID },
	}
}

// immunizationPlan reads an Immunization search over the records; the status, vaccine code
// and date are tested on the resources built.
func immunizationPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := q.reference("patient", "Patient")
	if err != nil {
		return searchPlan{}, err
	}
	if err := q.testDate("date", func(res Resource) string { return res.(Immunization).OccurrenceDateTime }); err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.ids()
	match := pid >= 0 && coded && (!idGiven || len(ids) > 0)
	lang := i18n.FromRequest(r)
	src := h.immunisations(ids, max(pid, 0), nil).source(match, func(x immunisation.Recorded) []Resource {
		return []Resource{toImmunization(x, lang)}
	})
	return searchPlan{src: src, entity: "patient", patient: max(pid, 0)}, nil
}

var immunizationParams = map[string]paramKind{"patient": kindReference, "date": kindDate, "status": kindToken, "vaccine-code": kindToken}

// immunizationTokens are Immunization's token parameters, tested on the resources built.
var immunizationTokens = map[string]tokenParam{
	"status": codeParam(systemImmunizationStatus, func(res Resource) string { return res.(Immunization).Status }),
	// vaccine-code: the product's CVX and ATC codes, when the catalogue has them.
	"vaccine-code": codingParam(func(res Resource) []Coding { return codingsOf(res.(Immunization).VaccineCode) }, systemCVX, systemATC),
}

// Code systems an Immunization writes.
const (
	systemImmunizationStatus = "http://hl7.org/fhir/event-status"
	systemCVX                = "http://hl7.org/fhir/sid/cvx"
	systemActReason          = "http://terminology.hl7.org/CodeSystem/v3-ActReason"
	systemActSite            = "http://terminology.hl7.org/CodeSystem/v3-ActSite"
	systemRoute              = "http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration"
	systemImmunizationOrigin = "http://terminology.hl7.org/CodeSystem/immunization-origin"
	systemPerformerFunction  = "http://terminology.hl7.org/CodeSystem/v2-0443"
	// systemAntigen is the clinic's own code of an antigen (the vaccine catalogue's key).
	systemAntigen = "urn:emr:antigen"
)

// siteCodes are the injection sites HL7's ActSite codes; the others are said in words.
var siteCodes = map[string]Coding{
	"left_thigh": {System: systemActSite, Code: "LT", Display: "left thigh"}, "right_thigh": {System: systemActSite, Code: "RT", Display: "right thigh"},
	"left_arm": {System: systemActSite, Code: "LA", Display: "left arm"}, "right_arm": {System: systemActSite, Code: "RA", Display: "right arm"},
}

// siteText is each site in words.
var siteText = map[string]string{"left_thigh": "Left thigh", "right_thigh": "Right thigh", "left_arm": "Left arm", "right_arm": "Right arm",
	"oral": "Oral", "intranasal": "Intranasal", "left_buttock": "Left buttock", "right_buttock": "Right buttock"}

// routeCodes are the routes as HL7's RouteOfAdministration codes them (R4's immunization-route).
var routeCodes = map[string]Coding{
	"IM": {System: systemRoute, Code: "IM", Display: "Injection, intramuscular"},
	"SC": {System: systemRoute, Code: "SQ", Display: "Injection, subcutaneous"},
	"ID": {System: systemRoute, Code: "IDINJ", Display: "Injection, intradermal"},
	"PO": {System: systemRoute, Code: "PO", Display: "Swallow, oral"},
	"IN": {System: systemRoute, Code: "NASINHLC", Display: "Inhalation, nasal"},
}

// originCodes are where a dose given elsewhere is known from: a written card, a registry, or
// the parent's word.
var originCodes = map[string]Coding{
	"card":     {System: systemImmunizationOrigin, Code: "record", Display: "Written Record"},
	"registry": {System: systemImmunizationOrigin, Code: "jurisdiction", Display: "Jurisdictional IIS"},
	"parent":   {System: systemImmunizationOrigin, Code: "recall", Display: "Parent/Guardian/Patient Recall"},
}

// vaccineConcept is a product as a CodeableConcept: its CVX and ATC codes, its name in lang.
func vaccineConcept(key, lang string) *CodeableConcept {
	v, ok := immunisation.Default().Vaccine(key, lang)
	if !ok {
		return &CodeableConcept{Text: key}
	}
	c := &CodeableConcept{Text: v.Name}
	if v.CVX != "" {
		c.Coding = append(c.Coding, Coding{System: systemCVX, Code: v.CVX})
	}
	if v.ATC != "" {
		c.Coding = append(c.Coding, Coding{System: systemATC, Code: v.ATC})
	}
	if c.Text == "" {
		c.Text = key
	}
	return c
}

// antigenConcept is an antigen, the disease a dose protects against: its SNOMED CT disease
// code where antigens.tsv has one (the IPS's vaccine target diseases), the clinic's code, and
// its name in lang.
func antigenConcept(key, lang string) CodeableConcept {
	name := key
	if a, ok := immunisation.Default().Antigen(key, lang); ok && a.Name != "" {
		name = a.Name
	}
	c := CodeableConcept{Text: name}
	if _, sct := immunisation.Default().AntigenCodes(key); sct != "" {
		c.Coding = append(c.Coding, Coding{System: systemSNOMED, Code: sct})
	}
	c.Coding = append(c.Coding, Coding{System: systemAntigen, Code: key})
	return c
}

// cvxNoVaccine is CVX's "no vaccine administered": the vaccine code of a refusal or
// contraindication of an antigen CVX has no code of an unstated product for.
const cvxNoVaccine = "998"

// antigenVaccineConcept is the vaccineCode of a record that names an antigen and no product (a
// refusal or a contraindication): CVX's code of a vaccine against the antigen of no stated
// formulation (antigens.tsv, cvx_unspecified), else 998 no vaccine administered, with the
// antigen's name in lang as text — vaccineCode is 1..1 in R4 and coded in US Core and the IPS.
func antigenVaccineConcept(key, lang string) *CodeableConcept {
	cvx, _ := immunisation.Default().AntigenCodes(key)
	if cvx == "" {
		cvx = cvxNoVaccine
	}
	return &CodeableConcept{Coding: []Coding{{System: systemCVX, Code: cvx}}, Text: antigenConcept(key, lang).Text}
}

// toImmunization is a record as an Immunization, named in lang.
func toImmunization(x immunisation.Recorded, lang string) Immunization {
	m := Immunization{
		base:   newBase("Immunization", strconv.FormatInt(x.ID, 10), x.Version, x.UpdatedAt),
		Status: "completed", Patient: ref("Patient", x.PatientID),
		OccurrenceDateTime: x.OccurredOn, Recorded: instant(x.CreatedAt),
		LotNumber: x.Lot, ExpirationDate: x.Expiry,
	}
	if x.AppointmentID != 0 {
		m.Encounter = ref("Encounter", x.AppointmentID)
	}
	switch {
	case x.Vaccine != "":
		m.VaccineCode = vaccineConcept(x.Vaccine, lang)
	case x.Antigen == "": // a deferral of every vaccine (the child unwell): CVX's "no vaccine administered"
		m.VaccineCode = &CodeableConcept{Coding: []Coding{{System: systemCVX, Code: cvxNoVaccine}}, Text: "Every vaccine"}
	default: // a refusal or contraindication of an antigen names no product
		m.VaccineCode = antigenVaccineConcept(x.Antigen, lang)
	}
	here := true
	switch x.Kind {
	case "elsewhere":
		here = false
		if c, ok := originCodes[x.Source]; ok {
			m.ReportOrigin = &CodeableConcept{Coding: []Coding{c}}
		}
		if x.Place != "" {
			m.Location = &Reference{Display: x.Place}
		}
	case "refused":
		m.Status = "not-done"
		m.StatusReason = &CodeableConcept{Coding: []Coding{{System: systemActReason, Code: "PATOBJ", Display: "patient objection"}}, Text: x.Reason}
	case "contraindicated":
		m.Status = "not-done"
		m.StatusReason = &CodeableConcept{Coding: []Coding{{System: systemActReason, Code: "MEDPREC", Display: "medical precaution"}}, Text: x.Reason}
		if x.UntilOn != "" {
			m.Note = append(m.Note, Annotation{Text: "Contraindicated until " + x.UntilOn})
		}
	case "deferred":
		// Not given today for a passing reason the screening found (a fever): not done for a
		// medical precaution, to come back on until_on.
		m.Status = "not-done"
		m.StatusReason = &CodeableConcept{Coding: []Coding{{System: systemActReason, Code: "MEDPREC", Display: "medical precaution"}}, Text: x.Reason}
		m.Note = append(m.Note, Annotation{Text: "Deferred until " + x.UntilOn})
	}
	m.PrimarySource = &here
	if x.Kind == "given" {
		m.Location = &Reference{Reference: "Location/" + clinicID}
	}
	if c, ok := siteCodes[x.Site]; ok {
		m.Site = &CodeableConcept{Coding: []Coding{c}, Text: siteText[x.Site]}
	} else if x.Site != "" {
		m.Site = &CodeableConcept{Text: textOr(siteText[x.Site], x.Site)}
	}
	if c, ok := routeCodes[x.Route]; ok {
		m.Route = &CodeableConcept{Coding: []Coding{c}}
	} else if x.Route != "" {
		m.Route = &CodeableConcept{Text: x.Route}
	}
	switch {
	case x.GivenBy != 0:
		actor := ref("Practitioner", x.GivenBy)
		actor.Display = x.GivenByName
		m.Performer = []ImmunizationPerformer{{Function: concept(systemPerformerFunction, "AP", "Administering Provider"), Actor: actor}}
	case x.Performer != "":
		m.Performer = []ImmunizationPerformer{{Function: concept(systemPerformerFunction, "AP", "Administering Provider"), Actor: &Reference{Display: x.Performer}}}
	}
	// The dose number the record gives (as written on the card or by the nurse): a recorded
	// fact, versioned with the record. Whether the forecast counts the dose is derived (it
	// changes with other doses, the birth date and the clinic's schedules without this record
	// changing), so it is said by the patient's ImmunizationRecommendation, whose
	// supportingImmunization lists the doses that counted — not here, where a registry syncing
	// by _lastUpdated would never see it change (integrator's review).
	if (x.Kind == "given" || x.Kind == "elsewhere") && !x.InError() && x.DoseNumber > 0 {
		p := ImmunizationProtocol{DoseNumberPositiveInt: x.DoseNumber}
		if v, ok := immunisation.Default().Vaccine(x.Vaccine, lang); ok {
			for _, a := range v.Antigens {
				p.TargetDisease = append(p.TargetDisease, antigenConcept(a, lang))
			}
		}
		m.ProtocolApplied = []ImmunizationProtocol{p}
	}
	// A refusal or contraindication of one antigen: its vaccineCode is CVX's nearest
	// (107 DTaP for pertussis alone), so the antigen is said, coded, as the target disease
	// (integrator's re-review: a pertussis refusal is not a DTaP refusal).
	if (x.Kind == "refused" || x.Kind == "contraindicated" || x.Kind == "deferred") && x.Vaccine == "" && x.Antigen != "" {
		m.ProtocolApplied = []ImmunizationProtocol{{TargetDisease: []CodeableConcept{antigenConcept(x.Antigen, lang)}, DoseNumberString: "not given"}}
	}
	for _, rx := range x.Reactions {
		detail := reactionText(rx)
		m.Reaction = append(m.Reaction, ImmunizationReaction{Date: rx.OnsetOn, Detail: &Reference{Display: detail}})
	}
	if x.Note != "" {
		m.Note = append(m.Note, Annotation{Text: x.Note})
	}
	if x.InError() {
		m.Status = "entered-in-error"
		m.Note = append(m.Note, Annotation{Text: strings.TrimSpace("Entered in error: " + x.ErrorReason)})
	}
	return m
}

// reactionText says a reaction in words: what, how severe, serious or not, its description
// and to whom it was reported.
func reactionText(rx immunisation.RecordedReaction) string {
	parts := []string{strings.ReplaceAll(rx.Reaction, "_", " ") + " (" + rx.Severity + ")"}
	if rx.Serious {
		parts = append(parts, "serious")
	}
	if rx.Description != "" {
		parts = append(parts, rx.Description)
	}
	if rx.ReportedTo != "" {
		parts = append(parts, "reported to "+rx.ReportedTo)
	}
	return strings.Join(parts, "; ")
}

func textOr(text, fallback string) string {
	if text != "" {
		return text
	}
	return fallback
}

// Immunization is a vaccination given, reported, refused or contraindicated.
type Immunization struct {
	base
	Status             string                  `json:"status"`
	StatusReason       *CodeableConcept        `json:"statusReason,omitempty"`
	VaccineCode        *CodeableConcept        `json:"vaccineCode"`
	Patient            *Reference              `json:"patient"`
	Encounter          *Reference              `json:"encounter,omitempty"`
	OccurrenceDateTime string                  `json:"occurrenceDateTime"`
	Recorded           string                  `json:"recorded,omitempty"`
	PrimarySource      *bool                   `json:"primarySource,omitempty"`
	ReportOrigin       *CodeableConcept        `json:"reportOrigin,omitempty"`
	Location           *Reference              `json:"location,omitempty"`
	LotNumber          string                  `json:"lotNumber,omitempty"`
	ExpirationDate     string                  `json:"expirationDate,omitempty"`
	Site               *CodeableConcept        `json:"site,omitempty"`
	Route              *CodeableConcept        `json:"route,omitempty"`
	Performer          []ImmunizationPerformer `json:"performer,omitempty"`
	Note               []Annotation            `json:"note,omitempty"`
	Reaction           []ImmunizationReaction  `json:"reaction,omitempty"`
	ProtocolApplied    []ImmunizationProtocol  `json:"protocolApplied,omitempty"`
}

// ImmunizationPerformer is who gave a dose.
type ImmunizationPerformer struct {
	Function *CodeableConcept `json:"function,omitempty"`
	Actor    *Reference       `json:"actor"`
}

// ImmunizationReaction is a reaction after a dose: its day, and what it was in words (detail
// is a Reference to an Observation in R4; the reaction is said in its display).
type ImmunizationReaction struct {
	Date   string     `json:"date,omitempty"`
	Detail *Reference `json:"detail,omitempty"`
}

// ImmunizationProtocol is the dose a vaccination counts as in a series.
type ImmunizationProtocol struct {
	Series                string            `json:"series,omitempty"`
	TargetDisease         []CodeableConcept `json:"targetDisease,omitempty"`
	DoseNumberPositiveInt int               `json:"doseNumberPositiveInt,omitempty"`
	// DoseNumberString: a refusal or contraindication of an antigen says its antigen through
	// the protocol's targetDisease, where doseNumber[x] is 1..1 and no dose was given.
	DoseNumberString       string `json:"doseNumberString,omitempty"`
	SeriesDosesPositiveInt int    `json:"seriesDosesPositiveInt,omitempty"`
}
