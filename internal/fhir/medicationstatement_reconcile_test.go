package fhir_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestFHIRMedicationStatementReconciled: what a reconciliation records maps to R4 (the route
// to dosage.route, the indication to reasonCode, a source other than the patient to
// informationSource's display, adherence — R5's — to a note); an entry entered in error is
// given as entered-in-error with its reason, a new version, its history keeping it active.
func TestFHIRMedicationStatementReconciled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		id, v := c.recordTaken(t, c.patientID, map[string]any{"medicine": "Warfarin 5 mg", "dose": "1 tablet", "source": "elsewhere",
			"route": "oral", "indication": "atrial fibrillation", "adherence": "irregular", "information_source": "pharmacy"})
		api, _ := c.token(t, "doc", "")
		path := fmt.Sprintf("/fhir/R4/MedicationStatement/taken-%d", id)
		b, _ := json.Marshal(get(t, api, path, http.StatusOK))
		got := string(b)
		for _, want := range []string{`"dosage":[{"route":{"text":"oral"},"text":"1 tablet"}]`, `"reasonCode":[{"text":"atrial fibrillation"}]`,
			`"informationSource":{"display":"Pharmacy record"}`, `{"text":"Adherence: taking irregularly"}`} {
			if !strings.Contains(got, want) {
				t.Errorf("the statement lacks %s: %s", want, got)
			}
		}
		if r := c.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/entered-in-error", id), map[string]any{"reason": "Wrong patient", "version": v}); r.Status != http.StatusOK {
			t.Fatalf("mark: %d %s", r.Status, r.Body)
		}
		res := get(t, api, path, http.StatusOK)
		b, _ = json.Marshal(res)
		if res["status"] != "entered-in-error" || !strings.Contains(string(b), `"statusReason":[{"text":"Wrong patient"}]`) {
			t.Errorf("in error: %s", b)
		}
		var history []string
		for _, e := range entries(get(t, api, path+"/_history", http.StatusOK)) {
			history = append(history, e["status"].(string))
		}
		if !slices.Equal(history, []string{"entered-in-error", "active"}) {
			t.Errorf("history: %v", history)
		}
		if got := ids(get(t, api, fmt.Sprintf("/fhir/R4/MedicationStatement?patient=%d&status=entered-in-error", c.patientID), http.StatusOK)); len(got) != 1 {
			t.Errorf("searched by status: %v", got)
		}
	})
}
