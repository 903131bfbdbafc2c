package result_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// A result retracted as recorded against the wrong patient leaves the right patient without it:
// it waits on the results desk's list until someone says how it was resolved (M6 of the
// clinician's review of withdrawals); a transcription error is no such task.
func TestAWrongPatientResultWaitsUntilResolved(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		type misfiled struct {
			ResultID  int64  `json:"result_id"`
			TestLabel string `json:"test_label"`
			Reason    string `json:"reason"`
			By        string `json:"retracted_by"`
			Result    struct{ Value *string }
			Patient   *struct{ ID int64 }
		}
		list := func() []misfiled {
			return apitest.Do[struct{ Data []misfiled }](t, c.nurse, http.StatusOK, "GET", "/api/results/misfiled", nil).Data
		}
		retract := func(test, value, category string) {
			t.Helper()
			o := find(c.order(t, test), test)
			var rec struct {
				Order order `json:"order"`
			}
			record(c.nurse, o, true, map[string]any{"analyte": test, "unit": "umol/L", "value": value}).JSON(t, &rec)
			apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", rec.Order.ID),
				map[string]any{"version": rec.Order.Version, "category": category, "reason": "label swapped with the next patient's tube"})
		}
		retract("CREA", "88", "wrong_patient")
		got := list()
		if len(got) != 1 || got[0].Result.Value == nil || *got[0].Result.Value != "88" || got[0].Patient == nil || got[0].Patient.ID != c.patientID ||
			got[0].Reason != "label swapped with the next patient's tube" || got[0].By == "" || got[0].TestLabel == "" {
			t.Fatalf("the wrong-patient result on the list: %+v", got)
		}
		resolve := fmt.Sprintf("/api/lab-results/%d/misfiled/resolve", got[0].ResultID)
		if r := c.rec.Do("POST", resolve, map[string]any{"note": "recorded on Lan Trần's order"}); r.Status != http.StatusForbidden {
			t.Errorf("the front desk resolves it: %d", r.Status)
		}
		if r := c.nurse.Do("POST", resolve, map[string]any{"note": "ok"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("resolved without saying how: %d %s", r.Status, r.Body)
		}
		if len(list()) != 1 {
			t.Fatal("a refused resolution closed the task")
		}
		if r := c.nurse.Do("POST", resolve, map[string]any{"note": "recorded on Lan Trần's order of the same morning"}); r.Status != http.StatusNoContent {
			t.Fatalf("resolve: %d %s", r.Status, r.Body)
		}
		if r := c.nurse.Do("POST", resolve, map[string]any{"note": "recorded on Lan Trần's order of the same morning"}); r.Status != http.StatusConflict {
			t.Errorf("resolved twice: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_result.misfiled_resolved' AND patient_id = $1`, c.patientID); n != 1 {
			t.Errorf("the resolution audited %d times", n)
		}
		retract("CREA", "95", "transcription")
		if got := list(); len(got) != 0 {
			t.Errorf("resolved, or a transcription error, still listed: %+v", got)
		}
	})
}
