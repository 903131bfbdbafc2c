package fhir

import (
	"slices"
	"strings"
)

// The US Core 6.1.0 profiles (hl7.fhir.us.core, STU6.1) a resource claims in meta.profile.
// A resource claims one only when it holds every element the profile requires (min 1, and
// the invariants that make an element required) with a code its required bindings allow;
// each check below reads the built resource, so a record that lacks something simply claims
// nothing. The canonical carries the version, as US Core's own examples do: a reader knows
// which edition's rules the claim is made against. Types that claim none: Practitioner (a
// staff account has one name, no family part), DocumentReference (no US Core category, and
// its type's required binding is LOINC document codes the clinic's document kinds do not
// carry), Appointment (US Core has no profile for it).

// usCoreVersion is the edition of US Core the claims are made against.
const usCoreVersion = "6.1.0"

// usCoreBase is where US Core's profiles are.
const usCoreBase = "http://hl7.org/fhir/us/core/StructureDefinition/"

// usCore is the versioned canonical of the US Core profile named name.
func usCore(name string) string {
	return usCoreBase + name + "|" + usCoreVersion
}

// The profiles claimed, by the type and kind of resource they describe.
var (
	profilePatient          = usCore("us-core-patient")
	profileAllergy          = usCore("us-core-allergyintolerance")
	profileEncounter        = usCore("us-core-encounter")
	profileCondition        = usCore("us-core-condition-encounter-diagnosis")
	profileLabObservation   = usCore("us-core-observation-lab")
	profileServiceRequest   = usCore("us-core-servicerequest")
	profileMedicationReq    = usCore("us-core-medicationrequest")
	profileOrganization     = usCore("us-core-organization")
	profileDiagnosticReport = usCore("us-core-diagnosticreport-lab")
	profileNoteReport       = usCore("us-core-diagnosticreport-note")
	// vitalProfiles are the vital-sign profiles by the part of the id they are made for
	// (each derives from US Core Vital Signs and the base FHIR vital-signs profile).
	vitalProfiles = map[string]string{
		"bp": usCore("us-core-blood-pressure"), "hr": usCore("us-core-heart-rate"), "rr": usCore("us-core-respiratory-rate"),
		"temp": usCore("us-core-body-temperature"), "spo2": usCore("us-core-pulse-oximetry"), "weight": usCore("us-core-body-weight"),
		"height": usCore("us-core-body-height"), "bmi": usCore("us-core-bmi"), "head": usCore("us-core-head-circumference"),
		"bmipct": usCore("pediatric-bmi-for-age"),
	}
)

// supportedProfiles are the profiles each type claims where its resources conform, for the
// CapabilityStatement.
func supportedProfiles(kind string) []string {
	switch kind {
	case "Patient":
		return []string{profilePatient}
	case "AllergyIntolerance":
		return []string{profileAllergy}
	case "Encounter":
		return []string{profileEncounter}
	case "Condition":
		return []string{profileCondition}
	case "Observation":
		out := []string{profileLabObservation}
		for _, part := range sortedKeys(vitalProfiles) {
			out = append(out, vitalProfiles[part])
		}
		return out
	case "ServiceRequest":
		return []string{profileServiceRequest}
	case "MedicationRequest":
		return []string{profileMedicationReq}
	case "Organization":
		return []string{profileOrganization}
	case "DiagnosticReport":
		return []string{profileDiagnosticReport, profileNoteReport}
	}
	return nil
}

// claim adds profile to b's meta when the resource conforms to it.
func (b *base) claim(profile string, conforms bool) {
	if conforms && b.Meta != nil {
		b.Meta.Profile = append(b.Meta.Profile, profile)
	}
}

// coded reports whether c says something: a coding with a code, or a text.
func coded(c *CodeableConcept) bool {
	if c == nil {
		return false
	}
	return c.Text != "" || slices.ContainsFunc(c.Coding, func(x Coding) bool { return x.Code != "" })
}

// has reports whether c holds the code of system.
func has(c *CodeableConcept, system, code string) bool {
	return c != nil && slices.ContainsFunc(c.Coding, func(x Coding) bool { return x.System == system && x.Code == code })
}

func hasIn(list []CodeableConcept, system, code string) bool {
	return slices.ContainsFunc(list, func(c CodeableConcept) bool { return has(&c, system, code) })
}

func referenced(r *Reference) bool { return r != nil && r.Reference != "" }

// toTheDay reports whether a dateTime is given at least to the day (US Core's us-core-1 and
// the vital signs' vs-1).
func toTheDay(dt string) bool { return len(dt) >= len("2006-01-02") }

// patientConforms: an identifier with its system and value, a name with a family or given
// part (us-core-6), and a gender of the administrative-gender codes.
func patientConforms(p Patient) bool {
	named := slices.ContainsFunc(p.Name, func(n HumanName) bool { return n.Family != "" || len(n.Given) > 0 })
	identified := slices.ContainsFunc(p.Identifier, func(i Identifier) bool { return i.System != "" && i.Value != "" })
	return identified && named && slices.Contains([]string{"male", "female", "other", "unknown"}, p.Gender)
}

// allergyConforms: the substance (or the recorded absence), the patient, and a
// manifestation for every reaction.
func allergyConforms(a AllergyIntolerance) bool {
	for _, r := range a.Reaction {
		// A manifestation is known (its text) or said to be unknown (data-absent-reason), as
		// US Core has a mandatory element with no value sent.
		if len(r.Manifestation) == 0 {
			return false
		}
	}
	return coded(a.Code) && referenced(a.Patient)
}

// encounterConforms: status, class, a type and the patient.
func encounterConforms(e Encounter) bool {
	typed := slices.ContainsFunc(e.Type, func(c CodeableConcept) bool { return coded(&c) })
	return e.Status != "" && e.Class.Code != "" && typed && referenced(e.Subject)
}

// conditionConforms: the encounter-diagnosis category, a code, the patient, and statuses
// from their code systems.
func conditionConforms(c Condition) bool {
	return hasIn(c.Category, systemCondCategory, "encounter-diagnosis") && coded(c.Code) && referenced(c.Subject) &&
		(c.ClinicalStatus == nil || inSystem(c.ClinicalStatus, systemCondClinical)) &&
		(c.VerificationStatus == nil || inSystem(c.VerificationStatus, systemCondVerify))
}

// inSystem reports whether every coding of c is of system.
func inSystem(c *CodeableConcept, system string) bool {
	return len(c.Coding) > 0 && !slices.ContainsFunc(c.Coding, func(x Coding) bool { return x.System != system })
}

// observationStatuses are the codes of Observation.status (a required binding).
var observationStatuses = []string{"registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"}

// labConforms: the laboratory category, a code, the patient, a time to the day, and a value
// or the reason there is none (us-core-2); a quantity's unit is UCUM or uncoded.
func labConforms(o Observation) bool {
	valued := o.ValueQuantity != nil || o.ValueCodeable != nil || o.ValueString != "" || o.DataAbsentReason != nil
	ucum := o.ValueQuantity == nil || o.ValueQuantity.System == "" || o.ValueQuantity.System == systemUCUM
	return slices.Contains(observationStatuses, o.Status) && hasIn(o.Category, systemObsCategory, "laboratory") && coded(o.Code) &&
		referenced(o.Subject) && toTheDay(o.EffectiveDateTime) && valued && ucum
}

// ucumQuantity reports whether q is a whole UCUM quantity: value, unit, system and code.
func ucumQuantity(q *Quantity) bool {
	return q != nil && q.Unit != "" && q.System == systemUCUM && q.Code != ""
}

// vitalConforms: the vital-signs category, the profile's LOINC codes, the patient, a time to
// the day, and a UCUM quantity, or for a panel components each with a UCUM quantity or the
// reason there is none (vs-3).
func vitalConforms(o Observation, loinc ...string) bool {
	for _, code := range loinc {
		if !has(o.Code, systemLOINC, code) {
			return false
		}
	}
	measured := ucumQuantity(o.ValueQuantity)
	if len(o.Component) > 0 {
		measured = o.ValueQuantity == nil
		for _, c := range o.Component {
			measured = measured && coded(c.Code) && (ucumQuantity(c.ValueQuantity) || c.DataAbsentReason != nil)
		}
	}
	return slices.Contains(observationStatuses, o.Status) && hasIn(o.Category, systemObsCategory, "vital-signs") &&
		referenced(o.Subject) && toTheDay(o.EffectiveDateTime) && measured
}

// hasComponents reports whether o has a component of each LOINC code (a blood pressure's
// systolic and diastolic).
func hasComponents(o Observation, loinc ...string) bool {
	for _, code := range loinc {
		if !slices.ContainsFunc(o.Component, func(c ObservationComponent) bool { return has(c.Code, systemLOINC, code) }) {
			return false
		}
	}
	return true
}

// serviceRequestConforms: status, intent, a code and the patient.
func serviceRequestConforms(s ServiceRequest) bool {
	return s.Status != "" && s.Intent != "" && coded(s.Code) && referenced(s.Subject)
}

// medicationRequestConforms: status, intent, the medicine and the patient.
func medicationRequestConforms(m MedicationRequest) bool {
	return m.Status != "" && m.Intent != "" && coded(m.MedicationCodeableConcept) && referenced(m.Subject)
}

// organizationConforms: active (always written) and a name.
func organizationConforms(o Organization) bool { return strings.TrimSpace(o.Name) != "" }

// reportedStatuses are the statuses under which a laboratory report carries its time and
// when it was issued (us-core-8, us-core-9).
var reportedStatuses = []string{"partial", "preliminary", "final", "amended", "corrected", "appended"}

// diagnosticReportConforms: status, the LAB category, a code, the patient, and, once
// results are out, the time and when it was issued.
func diagnosticReportConforms(d DiagnosticReport) bool {
	reported := !slices.Contains(reportedStatuses, d.Status) || (toTheDay(d.EffectiveDateTime) && d.Issued != "")
	return d.Status != "" && hasIn(d.Category, systemV20074, "LAB") && coded(d.Code) && referenced(d.Subject) && reported
}
