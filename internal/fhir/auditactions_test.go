package fhir

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestEveryAuditActionIsListed: each action the FHIR API audits is in the web app's list of
// audited actions, which the architecture test holds to a label in every language; an action
// missing there would show as its code in the audit log and be missing from its filter.
func TestEveryAuditActionIsListed(t *testing.T) {
	raw, err := os.ReadFile("../../web/src/features/administration/auditActions.json")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatal(err)
	}
	for _, a := range AuditActions() {
		if !slices.Contains(listed, a) {
			t.Errorf("%s is audited by the FHIR API but not listed in auditActions.json: add it there, with its label in each language", a)
		}
	}
	if !slices.Contains(AuditActions(), "fhir.observation.list") || !slices.Contains(AuditActions(), "fhir.patient_history.list") {
		t.Errorf("AuditActions misses the composed actions: %v", AuditActions())
	}
}
