package fhir

import (
	"context"
	"slices"

	"emr/internal/appointment"
	"emr/internal/auth"
)

// Observation is a vital sign measured at a visit, per the R4 vital-signs profiles.
type Observation struct {
	base
	Status            string                 `json:"status"`
	Category          []CodeableConcept      `json:"category"`
	Code              *CodeableConcept       `json:"code"`
	Subject           *Reference             `json:"subject"`
	Encounter         *Reference             `json:"encounter,omitempty"`
	EffectiveDateTime string                 `json:"effectiveDateTime"`
	Issued            string                 `json:"issued,omitempty"`
	BasedOn           []Reference            `json:"basedOn,omitempty"`
	Performer         []Reference            `json:"performer,omitempty"`
	ValueQuantity     *Quantity              `json:"valueQuantity,omitempty"`
	ValueCodeable     *CodeableConcept       `json:"valueCodeableConcept,omitempty"`
	ValueString       string                 `json:"valueString,omitempty"`
	DataAbsentReason  *CodeableConcept       `json:"dataAbsentReason,omitempty"`
	Interpretation    []CodeableConcept      `json:"interpretation,omitempty"`
	ReferenceRange    []ObservationRange     `json:"referenceRange,omitempty"`
	Note              []Annotation           `json:"note,omitempty"`
	Component         []ObservationComponent `json:"component,omitempty"`
}

// ObservationComponent is one part of a panel (blood pressure's two pressures).
type ObservationComponent struct {
	Code             *CodeableConcept  `json:"code"`
	ValueQuantity    *Quantity         `json:"valueQuantity,omitempty"`
	DataAbsentReason *CodeableConcept  `json:"dataAbsentReason,omitempty"`
	Interpretation   []CodeableConcept `json:"interpretation,omitempty"`
}

// vital is one of the visit's measurements as a vital-signs Observation: the id's part,
// the LOINC code and display, the UCUM unit, the value in the visit's record and the key of
// its flag (appointment.VitalFlags).
type vital struct {
	part, loinc, display, ucum, unit string
	value                            func(v appointment.Vitals) *float64
	flag                             string
}

// vitals are the visit's measurements in the order they are listed. Blood pressure is the
// 85354-9 panel with its two components, written apart (bloodPressure).
var vitals = []vital{
	{"hr", "8867-4", "Heart rate", "/min", "beats/minute", func(v appointment.Vitals) *float64 { return v.HeartRate }, "heart_rate"},
	{"rr", "9279-1", "Respiratory rate", "/min", "breaths/minute", func(v appointment.Vitals) *float64 { return v.RespRate }, "respiratory_rate"},
	{"temp", "8310-5", "Body temperature", "Cel", "C", func(v appointment.Vitals) *float64 { return v.Temperature }, "temperature"},
	{"spo2", "2708-6", "Oxygen saturation in Arterial blood", "%", "%", func(v appointment.Vitals) *float64 { return v.SpO2 }, "spo2"},
	{"weight", "29463-7", "Body weight", "kg", "kg", func(v appointment.Vitals) *float64 { return v.Weight }, "weight"},
	{"height", "8302-2", "Body height", "cm", "cm", func(v appointment.Vitals) *float64 { return v.Height }, "height"},
	{"bmi", "39156-5", "Body mass index (BMI) [Ratio]", "kg/m2", "kg/m2", func(v appointment.Vitals) *float64 { return v.BMI() }, "bmi"},
	// A child's head circumference (issue 59), the R4 headcircum vital sign.
	{"head", "9843-4", "Head Occipital-frontal circumference", "cm", "cm", func(v appointment.Vitals) *float64 { return v.HeadCirc }, "head_circumference"},
}

// bmiPercentile is a child's BMI as a percentile for age and sex (issue 59): worked out from
// the visit's weight and height on the WHO Child Growth Standards (0–5 years) and the WHO
// 2007 reference (5–19 years) by internal/growth, never written.
const bmiPercentile, bmiPercentileDisplay = "59576-9", "Body mass index (BMI) [Percentile] Per age and sex"

var vitalSigns = []CodeableConcept{*concept(systemObsCategory, "vital-signs", "Vital Signs")}

// vitalInterpretations are the HL7 v3 ObservationInterpretation codes a vital's flag is sent
// as (http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation, FHIR R4
// Observation.interpretation): the bands' L, H, LL, HH, and N within them.
var vitalInterpretations = map[string][2]string{
	"N": {"N", "Normal"}, "L": {"L", "Low"}, "H": {"H", "High"}, "LL": {"LL", "Critical low"}, "HH": {"HH", "Critical high"},
}

// interpretation is a vital's flag as an Observation's interpretation; none without a band.
func interpretation(flags appointment.VitalFlags, key string) []CodeableConcept {
	if m, ok := vitalInterpretations[flags[key].Flag]; ok {
		return []CodeableConcept{*concept(systemInterpretation, m[0], m[1])}
	}
	return nil
}

func quantity(x float64, ucum, unit string) *Quantity {
	return &Quantity{Value: x, Unit: unit, System: systemUCUM, Code: ucum}
}

var unknownValue = concept(systemAbsent, "unknown", "Unknown")

// pulseOximetry is LOINC's oxygen saturation by pulse oximetry.
var pulseOximetry = Coding{System: systemLOINC, Code: "59408-5", Display: "Oxygen saturation in Arterial blood by Pulse oximetry"}

// systemObsStatus is the code system of Observation.status.
const systemObsStatus = "http://hl7.org/fhir/observation-status"

// labOffset places the laboratory results after every visit in an Observation search's
// keyset (visit ids stay far below it): the search walks the vital signs, then the results.
const labOffset = int64(1) << 40

// shifted pages src with its groups' ids moved up by offset.
func shifted(src source, offset int64) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if after > 0 {
			after -= offset
		}
		list, err := src(ctx, after, desc, limit)
		for i := range list {
			list[i].ID += offset
		}
		return list, err
	}
}

// combined walks first (ids below offset), then second (ids from offset up), as one source.
func combined(first, second source, offset int64) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !desc {
			var out []group
			if after < offset {
				list, err := first(ctx, after, false, limit)
				if err != nil || len(list) == limit {
					return list, err
				}
				out, after = list, 0
			}
			list, err := second(ctx, after, false, limit-len(out))
			return append(out, list...), err
		}
		if after == 0 || after > offset {
			list, err := second(ctx, after, true, limit)
			if err != nil || len(list) == limit {
				return list, err
			}
			rest, err := first(ctx, 0, true, limit-len(list))
			return append(list, rest...), err
		}
		return first(ctx, after, true, limit)
	}
}

// deniedCategories names the Observation categories a search asks for that p may not read,
// when it asks for no other ("" otherwise): "Observation (laboratory)".
func deniedCategories(p *auth.Principal, occurrences [][]string) string {
	var denied []string
	for _, list := range occurrences {
		var those []string
		for _, v := range list {
			t := parseToken(v)
			code := t.code
			if t.hasSystem && t.system != systemObsCategory {
				code = "" // another system's category: none the server holds
			}
			if mayRead(p, "Observation", code) || !hasCategory("Observation", code) {
				those = nil // one it may read, or one the server has none of (matching nothing)
				break
			}
			those = append(those, "Observation:"+code)
		}
		if len(those) > 0 {
			denied = append(denied, those...)
		}
	}
	return named(denied)
}

// Condition is one diagnosis of a visit.
type Condition struct {
	base
	ClinicalStatus     *CodeableConcept  `json:"clinicalStatus,omitempty"`
	VerificationStatus *CodeableConcept  `json:"verificationStatus,omitempty"`
	Category           []CodeableConcept `json:"category,omitempty"`
	Code               *CodeableConcept  `json:"code,omitempty"`
	Subject            *Reference        `json:"subject"`
	Encounter          *Reference        `json:"encounter,omitempty"`
	RecordedDate       string            `json:"recordedDate,omitempty"`
}

var encounterDiagnosis = []CodeableConcept{*concept(systemCondCategory, "encounter-diagnosis", "Encounter Diagnosis")}

// byEncounter narrows a search of visit records to the visit its encounter parameter names,
// in the store's query.
func byEncounter(q query, f appointment.RecordFilter, match bool) (appointment.RecordFilter, bool, error) {
	id, err := q.reference("encounter", "Encounter")
	if err != nil || id == 0 {
		return f, match, err
	}
	if id < 0 || (len(f.IDs) > 0 && !slices.Contains(f.IDs, id)) {
		return f, false, nil
	}
	f.IDs = []int64{id}
	return f, match, nil
}
