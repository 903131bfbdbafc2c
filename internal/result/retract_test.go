package result_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	lab "emr/internal/result"
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
			category := "transcription"
			if row == 0 {
				category = "wrong_patient"
			}
			return map[string]any{"version": version, "result_id": row, "category": category, "reason": reason}
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
			// Another patient's sample is the whole specimen, never one analyte of it.
			{"one result as another patient's", 1, map[string]any{"version": v, "result_id": k.ID, "category": "wrong_patient",
				"reason": "another patient's sample"}, http.StatusUnprocessableEntity},
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
		r = c.nurse.Do("POST", path, body(v, k.ID, "typed on the wrong order"))
		r.JSON(t, &d)
		if r.Status != http.StatusOK || len(d.Results) != 1 || d.Results[0].Analyte != "NA" || !d.ToReview || d.Attention == 2 {
			t.Fatalf("retract K: %d %s", r.Status, r.Body)
		}
		if len(d.Replaced) != 1 || d.Replaced[0].Status != "entered_in_error" || d.Replaced[0].RetractReason != "typed on the wrong order" ||
			d.Replaced[0].Retractor == "" || d.Replaced[0].Performer != "City Reference Laboratory" || *d.Replaced[0].Value != "7.2" {
			t.Errorf("history of the retracted result: %+v", d.Replaced)
		}
		if last := d.Events[len(d.Events)-1]; last.Status != "entered_in_error" || last.Reason != "typed on the wrong order" {
			t.Errorf("event: %+v", last)
		}
		var alerts struct{ Data []lab.Alert }
		c.doctor.Do("GET", "/api/results/alerts", nil).JSON(t, &alerts)
		if len(alerts.Data) != 1 || !alerts.Data[0].Open || alerts.Data[0].WithdrawnAt == nil {
			t.Errorf("the alert of a retracted result is not shown withdrawn: %+v", alerts)
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
		if r.Status != http.StatusOK || len(d.Results) != 0 || len(d.Replaced) != 2 || d.Status != "ordered" || !d.ToReview {
			t.Fatalf("the whole report: %d %s", r.Status, r.Body)
		}
		if r := c.nurse.Do("POST", path, body(d.Version, 0, "wrong patient")); r.Status != http.StatusConflict {
			t.Errorf("nothing left: %d %s", r.Status, r.Body)
		}
	})
}

// queued is an order as the review queue lists it.
type queued struct {
	order
	Withdrawn bool `json:"withdrawn_to_review"`
}

// withdrawable records a preliminary potassium of 7.2 (critical) and a sodium on a new
// patient's BMP and returns the order and its potassium row.
func (l *loop) withdrawable(t *testing.T) (order, int64) {
	t.Helper()
	l.patients++
	p := apitest.Do[struct{ ID int64 }](t, l.rec, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Lan", "last_name": fmt.Sprintf("Phạm %d", l.patients),
		"birth_date": "1960-05-06", "sex": "female", "history": map[string]any{"allergy_status": "none"}})
	a := apitest.Do[struct{ ID int64 }](t, l.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": l.doctorID,
		"starts_at": time.Now().UTC().Add(time.Duration(3+l.patients) * time.Hour).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
	apitest.Do[any](t, l.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
	apitest.Do[any](t, l.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
	apitest.Do[any](t, l.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0, "orders": []map[string]any{{"code": "BMP", "note": ""}}})
	o := apitest.Do[list](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/orders", a.ID), nil).Data[0]
	o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
	rec := apitest.Do[struct {
		Order  order
		Alerts int
	}](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": o.Version, "final": false,
		"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "7.2"}, {"analyte": "NA", "unit": "mmol/L", "value": "140"}}})
	if rec.Alerts != 1 || rec.Order.Status != "preliminary" || rec.Order.ToReview {
		t.Fatalf("preliminary critical: %+v", rec)
	}
	for _, x := range rec.Order.Results {
		if x.Analyte == "K" {
			return rec.Order, x.ID
		}
	}
	t.Fatal("no potassium")
	return order{}, 0
}

// TestWithdrawnCriticalResult (issue 54; ISO 15189:2022 §7.4.1.3 and §7.4.1.8, RCPath
// G158): a preliminary critical potassium retracted as entered in error is not silently
// dropped. Its alert closes as withdrawn with who, when and why, and stays in the lists of
// those it reached, withdrawn (open until its follow-up is recorded, never acknowledged as a
// critical value), until the order is reviewed with its follow-up; each person
// its escalation e-mailed is e-mailed that it was withdrawn; the order, preliminary, goes to
// its doctor's review, first in the queue and marked, and cannot be reviewed in a batch.
func TestWithdrawnCriticalResult(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		ctx := context.Background()
		o, k := l.withdrawable(t)
		alert := apitest.Do[struct{ Data []lab.Alert }](t, l.doctor, http.StatusOK, "GET", "/api/results/alerts", nil).Data[0]
		escalate(t, db, 31*time.Minute) // the covering nurse is e-mailed
		l.raise(t)                      // a final critical on another order: ranks below the withdrawal

		o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "haemolysed"})
		if o.Status != "preliminary" || !o.ToReview || len(o.Results) != 1 {
			t.Errorf("a preliminary order after a retraction: %+v", o)
		}

		// The alert: closed as withdrawn, shown so to the doctor and the covering nurse.
		for who, c := range map[string]*apitest.Client{"doctor": l.doctor, "covering nurse": l.nurse} {
			a, ok := sees(t, c, alert.ID)
			if !ok || !a.Open || a.WithdrawnAt == nil || a.WithdrawnReason != "haemolysed" || a.Withdrawer == "" || a.AcknowledgedAt != nil {
				t.Errorf("%s: the withdrawn alert: %v %+v", who, ok, a)
			}
		}
		r := l.doctor.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", alert.ID), ack("phone", "system", ""))
		if r.Status != http.StatusConflict {
			t.Errorf("acknowledging a withdrawn alert: %d %s", r.Status, r.Body)
		}
		var mails, audited int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'critical_alert.withdrawn' AND topic_id = $1
			AND user_id = $2`, alert.ID, l.nurseID).Scan(&mails); err != nil || mails != 0 {
			// The escalation e-mailed the nurse, but she withdrew it herself: she knows (issue 55, P5).
			t.Errorf("withdrawal e-mail to the nurse who withdrew it: %d %v", mails, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'critical_alert.withdrawn'`).Scan(&mails); err != nil || mails != 0 {
			t.Errorf("withdrawal e-mails to anyone else: %d %v", mails, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE action = 'critical_alert.withdraw' AND entity_id = $1`,
			fmt.Sprint(alert.ID)).Scan(&audited); err != nil || audited != 1 {
			t.Errorf("withdrawal audited: %d %v", audited, err)
		}

		// The review queue: the withdrawal first, marked; the count holds it.
		q := apitest.Do[struct{ Data []queued }](t, l.doctor, http.StatusOK, "GET", "/api/results/review", nil).Data
		if len(q) != 2 || q[0].ID != o.ID || !q[0].Withdrawn || q[1].Withdrawn || q[1].Attention != 2 {
			t.Fatalf("review queue: %+v", q)
		}
		if n := apitest.Do[struct{ Count int }](t, l.doctor, http.StatusOK, "GET", "/api/results/review/count", nil); n.Count != 2 {
			t.Errorf("to review: %+v", n)
		}
		// Not in a batch: refused, nothing changed; on its own: reviewed, its state kept.
		batch := map[string]any{"orders": []map[string]any{{"id": q[0].ID, "version": q[0].Version}, {"id": q[1].ID, "version": q[1].Version}}}
		if r := l.doctor.Do("POST", "/api/results/review", batch); r.Status != http.StatusConflict {
			t.Errorf("a withdrawal reviewed in a batch: %d %s", r.Status, r.Body)
		}
		if q2 := apitest.Do[struct{ Data []queued }](t, l.doctor, http.StatusOK, "GET", "/api/results/review", nil).Data; len(q2) != 2 {
			t.Errorf("a refused batch changed the queue: %+v", q2)
		}
		apitest.Do[any](t, l.doctor, http.StatusOK, "POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": q[0].ID, "version": q[0].Version}},
			"followup": "patient_contacted"})
		after := apitest.Do[queued](t, l.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		if after.Status != "preliminary" || after.ToReview || after.Withdrawn {
			t.Errorf("a preliminary order with its withdrawal reviewed: %+v", after)
		}
		if _, ok := sees(t, l.doctor, alert.ID); ok {
			t.Errorf("the withdrawn alert is still shown once the order was reviewed")
		}
	})
}

// TestRetractedToNothingIsOrderedAgain (issue 54): an order whose every result was retracted
// has no result: it waits for one again (ordered, its collection cleared), so the overdue
// list chases it once due, and a result recorded then is its new result.
func TestRetractedToNothingIsOrderedAgain(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, _ := l.withdrawable(t)
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "category": "wrong_patient", "reason": "another patient's sample"})
		if o.Status != "ordered" || !o.ToReview || len(o.Results) != 0 {
			t.Fatalf("every result retracted: %+v", o)
		}
		overdue, err := at(db, 30*24*time.Hour).Overdue(context.Background(), "en")
		if err != nil || len(overdue) != 1 || overdue[0].ID != o.ID || overdue[0].CollectedAt != nil || !overdue[0].WithdrawnToReview {
			t.Errorf("overdue once due: %+v %v", overdue, err)
		}
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		rec := apitest.Do[struct{ Order order }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": o.Version,
			"final": true, "results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "4.1"}}})
		if rec.Order.Status != "final" || len(rec.Order.Results) != 1 || !rec.Order.ToReview {
			t.Errorf("the repeat recorded: %+v", rec.Order)
		}
	})
}
