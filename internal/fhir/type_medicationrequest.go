package fhir

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/prescription"
)

// typeMedicationRequest describes MedicationRequest: who reads it, its search, its versions.
var typeMedicationRequest = resourceType{
	kind:    "MedicationRequest",
	reads:   []ReadRule{{"MedicationRequest", "", []auth.Permission{auth.WritePrescription, auth.WriteDiagnosis, auth.RecordVitals}, "GET /api/prescriptions/{id}"}},
	params:  medicationRequestParams,
	filters: medicationRequestTokens,
	plan:    medicationRequestPlan,
	action:  "medicationrequest",
	versions: func(h *Handler, _ recordSources) []versionSource {
		return []versionSource{h.prescriptionVersions(toMedicationRequests)}
	},
}

// prescriptionVersions is the versions of prescriptions, each expanded to a type's resources.
func (h *Handler) prescriptionVersions(expand func(prescription.Prescription) []Resource) versionSource {
	return sourceOf("prescription", headID, keptOf[prescription.Prescription](h.DB, prescription.VersionKind),
		func(ctx context.Context, id int64, _ string) (prescription.Prescription, bool, error) {
			return firstOf(h.Prescriptions.Page(ctx, []int64{id}, 0, 0, false, 1))
		}, expand, func(rx prescription.Prescription) int64 {
			if rx.PatientID == nil {
				return 0
			}
			return *rx.PatientID
		})
}

// medicationRequestPlan reads a MedicationRequest search: the prescriptions (the patient's,
// those of _id), each giving its lines; the date and the encounter are tested on the lines
// built.
func medicationRequestPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := patientOf(*q)
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.recordIDs(true)
	if err := q.testDate("authoredon", func(res Resource) string { return res.(MedicationRequest).AuthoredOn }); err != nil {
		return searchPlan{}, err
	}
	encounter, err := q.reference("encounter", "Encounter")
	if err != nil {
		return searchPlan{}, err
	}
	if encounter != 0 {
		at := ref("Encounter", encounter)
		q.test(func(res Resource) bool {
			e := res.(MedicationRequest).Encounter
			return e != nil && e.Reference == at.Reference
		})
	}
	expand := toMedicationRequests
	if idGiven {
		expand = func(rx prescription.Prescription) []Resource {
			return keepIDs(toMedicationRequests(rx), q.values["_id"])
		}
	}
	match := pid >= 0 && coded && encounter >= 0 && (!idGiven || len(ids) > 0)
	return searchPlan{src: h.prescriptionSource(ids, max(pid, 0), match, expand), entity: "prescription", patient: max(pid, 0)}, nil
}

func toMedicationRequests(rx prescription.Prescription) []Resource {
	if rx.PatientID == nil {
		return nil // a blank-form prescription names no patient of the register
	}
	status := prescriptionStatus[rx.Status]
	if status == "" {
		status = "unknown"
	}
	updated := rx.UpdatedAt
	authored := rx.CreatedAt
	if rx.IssuedAt != nil {
		authored = *rx.IssuedAt
	}
	var out []Resource
	for i, it := range rx.Items {
		m := MedicationRequest{
			base:   newBase("MedicationRequest", strconv.FormatInt(rx.ID, 10)+"-"+strconv.Itoa(i+1), rx.Version, updated),
			Status: status, Intent: "order", MedicationCodeableConcept: &CodeableConcept{Text: it.Medicine},
			Subject: ref("Patient", *rx.PatientID), AuthoredOn: instant(authored),
		}
		if rx.AppointmentID != nil {
			m.Encounter = ref("Encounter", *rx.AppointmentID)
		}
		if rx.Prescriber != nil && rx.Prescriber.ID != 0 {
			m.Requester = ref("Practitioner", rx.Prescriber.ID)
			m.Requester.Display = rx.Prescriber.Name
		}
		var parts []string
		for _, p := range []string{it.Dose, it.Frequency, it.Duration, it.Instructions} {
			if strings.TrimSpace(p) != "" {
				parts = append(parts, strings.TrimSpace(p))
			}
		}
		if len(parts) > 0 || it.Route != "" {
			d := Dosage{Text: strings.Join(parts, "; ")}
			if it.Route != "" {
				d.Route = &CodeableConcept{Text: it.Route}
			}
			m.DosageInstruction = []Dosage{d}
		}
		dr := DispenseRequest{}
		if it.Refills > 0 {
			refills := it.Refills
			dr.NumberOfRepeatsAllowed = &refills
		}
		if it.Quantity != nil {
			if v, err := strconv.ParseFloat(string(*it.Quantity), 64); err == nil {
				dr.Quantity = &SimpleQuantity{Value: v, Unit: it.Unit}
			}
		}
		if dr.NumberOfRepeatsAllowed != nil || dr.Quantity != nil {
			m.DispenseRequest = &dr
		}
		if rx.Notes != "" {
			m.Note = []Annotation{{Text: rx.Notes}}
		}
		m.claim(profileMedicationReq, medicationRequestConforms(m))
		out = append(out, m)
	}
	return out
}

var medicationRequestParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "status": kindToken, "intent": kindToken, "authoredon": kindDate, "encounter": kindReference,
}

// medicationRequestTokens are MedicationRequest's token parameters, tested on the lines built.
var medicationRequestTokens = map[string]tokenParam{
	"status": codeParam(systemMedRequestStatus, func(res Resource) string { return res.(MedicationRequest).Status }),
	"intent": codeParam(systemMedRequestIntent, func(res Resource) string { return res.(MedicationRequest).Intent }),
}

// MedicationRequest is one line of a prescription.
type MedicationRequest struct {
	base
	Status                    string           `json:"status"`
	Intent                    string           `json:"intent"`
	MedicationCodeableConcept *CodeableConcept `json:"medicationCodeableConcept"`
	Subject                   *Reference       `json:"subject"`
	Encounter                 *Reference       `json:"encounter,omitempty"`
	AuthoredOn                string           `json:"authoredOn,omitempty"`
	Requester                 *Reference       `json:"requester,omitempty"`
	Note                      []Annotation     `json:"note,omitempty"`
	DosageInstruction         []Dosage         `json:"dosageInstruction,omitempty"`
	DispenseRequest           *DispenseRequest `json:"dispenseRequest,omitempty"`
}

// Dosage is how a medicine is taken, as the prescription says it.
type Dosage struct {
	Text  string           `json:"text,omitempty"`
	Route *CodeableConcept `json:"route,omitempty"`
}

// DispenseRequest is how much to dispense, and how many refills.
type DispenseRequest struct {
	NumberOfRepeatsAllowed *int            `json:"numberOfRepeatsAllowed,omitempty"`
	Quantity               *SimpleQuantity `json:"quantity,omitempty"`
}

var prescriptionStatus = map[string]string{prescription.Draft: "draft", prescription.Issued: "active", prescription.Cancelled: "cancelled"}

func (h *Handler) prescriptionSource(ids []int64, patientID int64, match bool, expand func(prescription.Prescription) []Resource) source {
	return h.prescriptions(ids, patientID).source(match, expand)
}

// Code systems of MedicationRequest's status and intent.
const (
	systemMedRequestStatus = "http://hl7.org/fhir/CodeSystem/medicationrequest-status"
	systemMedRequestIntent = "http://hl7.org/fhir/CodeSystem/medicationrequest-intent"
)
