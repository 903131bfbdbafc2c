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

// TestResultRules: each rule of recording, acknowledging, reviewing and correcting results as
// one request, on an order of a visit of its own brought to the state the rule needs.
func TestResultRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		visits := 0
		// ordered is test ordered on a new patient's visit, under way.
		ordered := func(t *testing.T, test string) order {
			visits++
			p := apitest.Do[struct{ ID int64 }](t, c.rec, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Bình", "last_name": fmt.Sprintf("Lê %d", visits),
				"birth_date": "1975-05-06", "sex": "male", "history": map[string]any{"allergy_status": "none"}})
			a := apitest.Do[struct{ ID int64 }](t, c.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": c.doctorID,
				"starts_at": time.Now().UTC().Add(time.Duration(2+visits) * time.Hour).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
			apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
			apitest.Do[any](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
			apitest.Do[any](t, c.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0, "orders": []map[string]any{{"code": test, "note": ""}}})
			l := apitest.Do[list](t, c.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/orders", a.ID), nil)
			return l.Data[0]
		}
		vars := func(o order) apitest.Vars { return apitest.Vars{"order": o.ID, "version": o.Version} }
		bmp := func(t *testing.T) apitest.Vars { return vars(ordered(t, "BMP")) }
		hbsag := func(t *testing.T) apitest.Vars { return vars(ordered(t, "HBSAG")) }
		// critical is a BMP collected and resulted final with a critical potassium: its alert open.
		critical := func(t *testing.T) apitest.Vars {
			o := ordered(t, "BMP")
			o = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
			rec := apitest.Do[struct{ Order order }](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID),
				map[string]any{"version": o.Version, "final": true, "results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "6.8"}}})
			alerts := apitest.Do[struct{ Data []struct{ ID, OrderID int64 } }](t, c.doctor, http.StatusOK, "GET", "/api/results/alerts", nil)
			v := vars(rec.Order)
			v["alert"] = alerts.Data[len(alerts.Data)-1].ID
			return v
		}
		acknowledged := func(t *testing.T) apitest.Vars {
			v := critical(t)
			apitest.Do[any](t, c.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", v["alert"]), map[string]any{"contact": "phone", "action": "Sent to emergency", "received_by": "system"})
			return v
		}
		reviewed := func(t *testing.T) apitest.Vars {
			v := acknowledged(t)
			apitest.Do[any](t, c.doctor, http.StatusOK, "POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": v["order"], "version": v["version"]}}})
			o := apitest.Do[order](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", v["order"]), nil)
			v["version"] = o.Version
			return v
		}
		results := func(final bool, rs ...map[string]any) func(apitest.Vars) any {
			return func(v apitest.Vars) any {
				return map[string]any{"version": v["version"], "final": final, "results": rs}
			}
		}
		review := func(offset int) func(apitest.Vars) any {
			return func(v apitest.Vars) any {
				return map[string]any{"orders": []map[string]any{{"id": v["order"], "version": v["version"].(int) + offset}}}
			}
		}
		nothingStored := func(t *testing.T, _ apitest.Response, v apitest.Vars) {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE order_id = $1`, v["order"]); n != 0 {
				t.Errorf("refused results were stored: %d", n)
			}
		}
		clients := map[string]*apitest.Client{"doctor": c.doctor, "nurse": c.nurse, "rec": c.rec}
		apitest.Run(t, c.env, clients, []apitest.Scenario{
			{Name: "the front desk reads no order", As: "rec", Setup: bmp, Method: "GET", Path: "/api/lab-orders/{order}", Status: http.StatusForbidden},
			{Name: "the front desk records no result", As: "rec", Setup: bmp, Method: "PUT", Path: "/api/lab-orders/{order}/results",
				BodyOf: results(true, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "4.0"}), Status: http.StatusForbidden, After: nothingStored},
			{Name: "an analyte of another test, a decimal comma in English, an implausible value and an unknown unit are refused, line by line", As: "nurse", Setup: bmp,
				Method: "PUT", Path: "/api/lab-orders/{order}/results",
				BodyOf: results(true, map[string]any{"analyte": "HGB", "unit": "g/L", "value": "130"}, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "4,1"},
					map[string]any{"analyte": "NA", "unit": "mmol/L", "value": "900"}, map[string]any{"analyte": "GLU", "value": "100", "unit": "g/L"}),
				Status: http.StatusUnprocessableEntity, Contains: []string{`"results.0.analyte"`, `"results.1.value"`, `"results.2.value"`, `"results.3.unit"`}, After: nothingStored},
			{Name: "a coded answer must be one of the test's", As: "nurse", Setup: hbsag, Method: "PUT", Path: "/api/lab-orders/{order}/results",
				BodyOf: results(true, map[string]any{"analyte": "HBSAG", "answer": "maybe"}), Status: http.StatusUnprocessableEntity, After: nothingStored},
			{Name: "acknowledging a critical result says how the patient was reached and what was done", As: "doctor", Setup: critical, Method: "POST",
				Path: "/api/results/alerts/{alert}/acknowledge", Body: map[string]any{"contact": "", "action": ""}, Status: http.StatusUnprocessableEntity, Contains: []string{`"contact"`, `"action"`}},
			{Name: "a nurse acknowledges no alert", As: "nurse", Setup: critical, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: map[string]any{"contact": "phone", "action": "x", "received_by": "system"}, Status: http.StatusForbidden},
			{Name: "an alert is acknowledged once", As: "doctor", Setup: acknowledged, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: map[string]any{"contact": "phone", "action": "again", "received_by": "system"}, Status: http.StatusConflict},
			{Name: "a nurse reviews no result", As: "nurse", Setup: acknowledged, Method: "POST", Path: "/api/results/review", BodyOf: review(0), Status: http.StatusForbidden},
			{Name: "a review at a stale version is refused", As: "doctor", Setup: acknowledged, Method: "POST", Path: "/api/results/review", BodyOf: review(-1), Status: http.StatusConflict},
			{Name: "a resulted order is not cancelled", As: "nurse", Setup: reviewed, Method: "POST", Path: "/api/lab-orders/{order}/cancel",
				BodyOf: apitest.AtVersion(0, map[string]any{"reason": "x"}), Status: http.StatusConflict},
			{Name: "a correction needs a reason", As: "nurse", Setup: reviewed, Method: "PUT", Path: "/api/lab-orders/{order}/results",
				BodyOf: results(true, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "4.4"}), Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
		})
	})
}
