package result_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// retracted is a result as the order's history shows it once entered in error.
type retracted struct {
	result
	Performer     string `json:"performer"`
	RetractReason string `json:"retract_reason"`
	Retractor     string `json:"retracted_by_name"`
}

// TestResultEnteredInError (issue 54): who records results may retract one (or the whole
// report) entered in error, with a reason; it leaves the current results, the trend and
// the critical alerts, stays in the order's history with its reason, sends a final order
// back for review, and is audited. What cannot be retracted is refused, nothing changed.
func TestResultEnteredInError(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		bmp := find(c.order(t, "BMP"), "BMP")
		c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", bmp.ID), map[string]any{"version": bmp.Version}).JSON(t, &bmp)
		var rec struct {
			Order  order `json:"order"`
			Alerts int   `json:"alerts"`
		}
		r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", bmp.ID), map[string]any{"version": bmp.Version, "final": true,
			"performer": "City Reference Laboratory", "results": []map[string]any{
				{"analyte": "K", "unit": "mmol/L", "value": "7.2"}, {"analyte": "NA", "unit": "mmol/L", "value": "140"}}})
		r.JSON(t, &rec)
		if r.Status != http.StatusOK || rec.Alerts != 1 || len(rec.Order.Results) != 2 {
			t.Fatalf("record: %d %s", r.Status, r.Body)
		}
		var k result
		for _, x := range rec.Order.Results {
			if x.Analyte == "K" {
				k = x
			}
		}
		path := fmt.Sprintf("/api/lab-orders/%d/retract", bmp.ID)
		body := func(version int, row int64, reason string) map[string]any {
			return map[string]any{"version": version, "result_id": row, "reason": reason}
		}
		v := rec.Order.Version

		// Refused, nothing changed: no permission, no reason, a stale version, a row of no
		// such result.
		for _, row := range []struct {
			name string
			who  int
			body map[string]any
			want int
		}{
			{"the receptionist", 0, body(v, k.ID, "wrong patient"), http.StatusForbidden},
			{"no reason", 1, body(v, k.ID, "  "), http.StatusUnprocessableEntity},
			{"a stale version", 1, body(v-1, k.ID, "wrong patient"), http.StatusConflict},
			{"no such result", 1, body(v, k.ID+1000, "wrong patient"), http.StatusNotFound},
		} {
			who := c.rec
			if row.who == 1 {
				who = c.nurse
			}
			if r := who.Do("POST", path, row.body); r.Status != row.want {
				t.Errorf("%s: %d %s", row.name, r.Status, r.Body)
			}
		}

		// The potassium entered in error: out of the current results, the trend and the
		// doctor's alerts; kept in the history with its reason; back to review.
		var d struct {
			order
			Replaced []retracted `json:"replaced"`
		}
		r = c.nurse.Do("POST", path, body(v, k.ID, "another patient's sample"))
		r.JSON(t, &d)
		if r.Status != http.StatusOK || len(d.Results) != 1 || d.Results[0].Analyte != "NA" || !d.ToReview || d.Attention == 2 {
			t.Fatalf("retract K: %d %s", r.Status, r.Body)
		}
		if len(d.Replaced) != 1 || d.Replaced[0].Status != "entered_in_error" || d.Replaced[0].RetractReason != "another patient's sample" ||
			d.Replaced[0].Retractor == "" || d.Replaced[0].Performer != "City Reference Laboratory" || *d.Replaced[0].Value != "7.2" {
			t.Errorf("history of the retracted result: %+v", d.Replaced)
		}
		if last := d.Events[len(d.Events)-1]; last.Status != "entered_in_error" || last.Reason != "another patient's sample" {
			t.Errorf("event: %+v", last)
		}
		var alerts struct{ Data []any }
		c.doctor.Do("GET", "/api/results/alerts", nil).JSON(t, &alerts)
		if len(alerts.Data) != 0 {
			t.Errorf("the alert of a retracted result is still open: %+v", alerts)
		}
		var trend struct{ Points []any }
		c.doctor.Do("GET", fmt.Sprintf("/api/patients/%d/trend?analyte=K", c.patientID), nil).JSON(t, &trend)
		if len(trend.Points) != 0 {
			t.Errorf("the trend still shows the retracted value: %+v", trend)
		}
		var audited int
		if err := db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_order.entered_in_error'
			AND entity_id = $1`, fmt.Sprint(bmp.ID)).Scan(&audited); err != nil || audited != 1 {
			t.Errorf("audited: %d %v", audited, err)
		}

		// Once retracted it is no longer current; the whole report takes what is left; then
		// there is nothing to retract.
		if r := c.nurse.Do("POST", path, body(d.Version, k.ID, "again")); r.Status != http.StatusConflict {
			t.Errorf("retracted twice: %d %s", r.Status, r.Body)
		}
		r = c.nurse.Do("POST", path, body(d.Version, 0, "wrong patient"))
		r.JSON(t, &d)
		if r.Status != http.StatusOK || len(d.Results) != 0 || len(d.Replaced) != 2 {
			t.Fatalf("the whole report: %d %s", r.Status, r.Body)
		}
		if r := c.nurse.Do("POST", path, body(d.Version, 0, "wrong patient")); r.Status != http.StatusConflict {
			t.Errorf("nothing left: %d %s", r.Status, r.Body)
		}
	})
}
