package result_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// A later value flagged as a change from one since retracted as entered in error is flagged
// again against what stands (the clinician's review of withdrawals, 2026-11-28): creatinine 95,
// then 60 typed in error, then 95 flagged +58 %; once the 60 is withdrawn, the last 95 is no
// change from the first, and its order no longer asks for attention on that account.
func TestADeltaFromAWithdrawnValueIsReadAgain(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		visit := func(hours int) {
			var a struct{ ID int64 }
			starts := time.Now().UTC().Add(time.Duration(hours) * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
			c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.doctorID,
				"starts_at": starts, "duration_minutes": 15, "type": "follow-up", "reason": "Review"}).JSON(t, &a)
			c.visitID, c.visitPath, c.visitVersion = a.ID, fmt.Sprintf("/api/appointments/%d/visit", a.ID), 0
			c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
			c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
		}
		creatinine := func(value string) order {
			t.Helper()
			var rec struct {
				Order order `json:"order"`
			}
			r := record(c.nurse, find(c.order(t, "CREA"), "CREA"), true, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": value})
			if r.Status != http.StatusOK {
				t.Fatalf("record creatinine %s: %d %s", value, r.Status, r.Body)
			}
			r.JSON(t, &rec)
			return rec.Order
		}
		creatinine("95")
		visit(3)
		typo := creatinine("60")
		visit(5)
		last := creatinine("95")
		if last.Results[0].Delta != "U" {
			t.Fatalf("95 after 60 is not flagged as a rise: %+v", last.Results[0])
		}
		apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", typo.ID),
			map[string]any{"version": typo.Version, "category": "transcription", "reason": "60 typed for 96, from the analyser printout"})
		again := apitest.Do[order](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", last.ID), nil)
		if again.Results[0].Delta != "" || again.Version == last.Version {
			t.Errorf("after the 60 was withdrawn, the last 95: %+v (version %d → %d)", again.Results[0], last.Version, again.Version)
		}
	})
}
