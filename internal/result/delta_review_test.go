package result_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// visitLater starts another visit of c's patient hours from now: its orders are collected
// after the first visit's.
func visitLater(t *testing.T, c *clinic, hours int) {
	t.Helper()
	var a struct{ ID int64 }
	starts := time.Now().UTC().Add(time.Duration(hours) * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
	r := c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.doctorID,
		"starts_at": starts, "duration_minutes": 15, "type": "follow-up", "reason": "Review"})
	r.JSON(t, &a)
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	c.visitID, c.visitPath, c.visitVersion = a.ID, fmt.Sprintf("/api/appointments/%d/visit", a.ID), 0
	c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
	c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
}

// exec runs a statement on db.
func exec(t *testing.T, db *database.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatal(err)
	}
}

// TestACorrectionReadsLaterDeltasAgain (M1 of the laboratory clinician's review, 2026-11-29;
// KDIGO 2012): a creatinine corrected after a later one was recorded has the later one's
// delta flag read again against the corrected value, both ways; a reviewed later order that
// gains a flag goes back to its doctor's review.
func TestACorrectionReadsLaterDeltasAgain(t *testing.T) {
	for _, tc := range []struct {
		name             string
		typed, corrected string
		before, after    string
		backToReview     bool
	}{
		{"a rise hidden by a typo shows", "138", "95", "", "U", true},
		{"a false rise goes", "95", "138", "U", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				c := newClinic(t, db)
				first := recorded(t, c, find(c.order(t, "CREA"), "CREA"), map[string]any{"analyte": "CREA", "unit": "umol/L", "value": tc.typed})
				exec(t, db, `UPDATE lab_results SET observed_at = $1 WHERE order_id = $2`, time.Now().UTC().Add(-3*time.Hour), first.ID)
				visitLater(t, c, 3)
				last := recorded(t, c, find(c.order(t, "CREA"), "CREA"), map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "140"})
				if last.Results[0].Delta != tc.before {
					t.Fatalf("before the correction: delta %q", last.Results[0].Delta)
				}
				apitest.Do[any](t, c.doctor, http.StatusOK, "POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": last.ID, "version": last.Version}}})
				first = apitest.Do[order](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", first.ID), nil)
				r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", first.ID), map[string]any{"version": first.Version, "final": true,
					"reason": "typed wrong, from the analyser printout", "results": []map[string]any{{"analyte": "CREA", "unit": "umol/L", "value": tc.corrected}}})
				if r.Status != http.StatusOK {
					t.Fatalf("correct: %d %s", r.Status, r.Body)
				}
				again := apitest.Do[order](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", last.ID), nil)
				if again.Results[0].Delta != tc.after {
					t.Errorf("after the correction: delta %q, want %q", again.Results[0].Delta, tc.after)
				}
				if again.ToReview != tc.backToReview || (tc.backToReview && again.Status != "final") {
					t.Errorf("the later order: status %s, to review %v", again.Status, again.ToReview)
				}
			})
		})
	}
}

// TestNotDoneLeavesTrendAndDeltas (M2 of the laboratory clinician's review, 2026-11-29; CLSI
// EP33): a preliminary potassium of 7.2 from a haemolysed sample, the test then marked not
// done, never stood: it leaves the trend, later values are not flagged against it, and one
// flagged against it already is read again.
func TestNotDoneLeavesTrendAndDeltas(t *testing.T) {
	elec := func(k string) []map[string]any {
		return []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": k}, {"analyte": "NA", "unit": "mmol/L", "value": "140"},
			{"analyte": "CL", "unit": "mmol/L", "value": "100"}}
	}
	for _, tc := range []struct {
		name       string
		laterFirst bool // the later value is recorded before the test is marked not done
	}{{"recorded after", false}, {"recorded before", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				c := newClinic(t, db)
				o := find(c.order(t, "ELEC"), "ELEC")
				var rec struct {
					Order order `json:"order"`
				}
				record(c.nurse, o, false, elec("7.2")...).JSON(t, &rec)
				exec(t, db, `UPDATE lab_results SET observed_at = $1 WHERE order_id = $2`, time.Now().UTC().Add(-3*time.Hour), o.ID)
				notDone := func() {
					t.Helper()
					o = apitest.Do[order](t, c.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
					apitest.Do[any](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", o.ID),
						map[string]any{"version": o.Version, "reason": "specimen haemolysed, rejected"})
				}
				if !tc.laterFirst {
					notDone()
				}
				visitLater(t, c, 3)
				second := recorded(t, c, find(c.order(t, "ELEC"), "ELEC"), elec("4.0")...)
				if tc.laterFirst {
					notDone()
				}
				second = apitest.Do[order](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", second.ID), nil)
				for _, r := range second.Results {
					if r.Analyte == "K" && r.Delta != "" {
						t.Errorf("K 4.0 flagged %q against a value that never stood", r.Delta)
					}
				}
				var trend struct {
					Points []struct{ Value *string } `json:"points"`
				}
				c.doctor.Do("GET", fmt.Sprintf("/api/patients/%d/trend?analyte=K", c.patientID), nil).JSON(t, &trend)
				if len(trend.Points) != 1 || trend.Points[0].Value == nil || *trend.Points[0].Value != "4.0" {
					t.Errorf("the trend: %+v", trend.Points)
				}
			})
		})
	}
}

// TestAnAnalytesUnitIsFixedOnceResultsExist (M3 of the laboratory clinician's review,
// 2026-11-29): values are stored in their analyte's canonical unit and deltas and trends read
// them so: once a result of it is recorded, the unit cannot change (a creatinine of 95 µmol/L
// would be read as 95 mg/dL); before, it can.
func TestAnAnalytesUnitIsFixedOnceResultsExist(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		recorded(t, c, find(c.order(t, "CREA"), "CREA"), map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "95"})
		type analyte struct {
			Code, LOINC, Type, Unit, Answers string
			Decimals                         int
			PlausibleLow                     *float64 `json:"plausible_low"`
			PlausibleHigh                    *float64 `json:"plausible_high"`
			Labels                           map[string]string
			Version                          int
			Ranges                           []map[string]any
		}
		read := func(code string) analyte {
			for _, a := range apitest.Do[struct{ Data []analyte }](t, c.admin, http.StatusOK, "GET", "/api/lab-analytes", nil).Data {
				if a.Code == code {
					return a
				}
			}
			t.Fatalf("no analyte %s", code)
			return analyte{}
		}
		for _, tc := range []struct {
			code, unit string
			want       int
		}{
			{"CREA", "mg/dL", http.StatusUnprocessableEntity},
			{"CREA", "umol/L", http.StatusOK}, // the same unit: saved
			{"UREA", "mg/dL", http.StatusOK},  // no result of it yet
		} {
			a := read(tc.code)
			body := map[string]any{"loinc": a.LOINC, "type": a.Type, "unit": tc.unit, "decimals": a.Decimals, "plausible_low": a.PlausibleLow,
				"plausible_high": a.PlausibleHigh, "answers": a.Answers, "labels": a.Labels, "version": a.Version, "ranges": a.Ranges}
			r := c.admin.Do("PUT", "/api/lab-analytes/"+tc.code, body)
			if r.Status != tc.want || (tc.want != http.StatusOK && !strings.Contains(string(r.Body), `"unit"`)) {
				t.Errorf("%s in %s: %d %s", tc.code, tc.unit, r.Status, r.Body)
			}
		}
		if a := read("CREA"); a.Unit != "umol/L" {
			t.Errorf("creatinine's unit: %s", a.Unit)
		}
	})
}
