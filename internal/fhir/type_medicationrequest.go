package fhir

import (
	"context"
	"net/http"

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
		return []versionSource{sourceOf("prescription", headID, keptOf[prescription.Prescription](h.DB, prescription.VersionKind),
			func(ctx context.Context, id int64, _ string) (prescription.Prescription, bool, error) {
				return firstOf(h.Prescriptions.Page(ctx, []int64{id}, 0, 0, false, 1))
			}, toMedicationRequests, func(rx prescription.Prescription) int64 {
				if rx.PatientID == nil {
					return 0
				}
				return *rx.PatientID
			})}
	},
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
