package result_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	lab "emr/internal/result"
)

// alertsOf are the alerts of order orderID as the critical-results report lists them.
func alertsOf(t *testing.T, db *database.DB, orderID int64) []lab.Alert {
	t.Helper()
	all, err := at(db, 0).AlertReport(context.Background(), time.Now().Add(-48*time.Hour), time.Now().Add(48*time.Hour), "en")
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(all, func(a lab.Alert) bool { return a.OrderID != orderID })
}

// final records order o's potassium (and a normal sodium) as final, with reason when it
// corrects a final result, and returns the order and its potassium row.
func (l *loop) final(t *testing.T, o order, k, reason string) (order, int64) {
	t.Helper()
	o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
	rec := apitest.Do[struct{ Order order }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{
		"version": o.Version, "final": true, "reason": reason,
		"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": k}, {"analyte": "NA", "unit": "mmol/L", "value": "140"}}})
	for _, x := range rec.Order.Results {
		if x.Analyte == "K" {
			return rec.Order, x.ID
		}
	}
	t.Fatal("no potassium")
	return order{}, 0
}

// mails counts the outbox's messages under topic about alert id with status ("" any).
func mails(t *testing.T, db *database.DB, topic string, id int64, status string) int {
	t.Helper()
	return dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1 AND topic_id = $2 AND ($3 = '' OR status = $3)`, topic, id, status)
}

// TestCorrectionWithdrawsTheCriticalValue (issue 55, C1; CLIA 42 CFR 493.1291(k), ISO
// 15189:2022 §7.4.1.8, CLSI GP47): a critical value corrected to one that is not critical no
// longer stands. Its alert, open or acknowledged, is withdrawn (never left to escalate as a
// critical value waiting), and the order waits for its doctor's review, marked, on its own.
func TestCorrectionWithdrawsTheCriticalValue(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		for _, acknowledged := range []bool{false, true} {
			o, _ := l.withdrawable(t)
			o, _ = l.final(t, o, "7.2", "")
			a := alertsOf(t, db, o.ID)[0]
			if acknowledged {
				apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", ""))
			}
			o, _ = l.final(t, o, "4.2", "typo: 4.2")
			a = alertsOf(t, db, o.ID)[0]
			if a.WithdrawnAt == nil || a.WithdrawnCategory != lab.WithdrawnCorrected || a.WithdrawnReason != "typo: 4.2" || !a.Open {
				t.Errorf("acknowledged %v: the alert of the corrected value: %+v", acknowledged, a)
			}
			escalate(t, db, 31*time.Minute)
			if n := mails(t, db, "critical_alert.1", a.ID, "pending"); n != 0 {
				t.Errorf("acknowledged %v: a corrected value still escalates as a critical result waiting: %d", acknowledged, n)
			}
			q := apitest.Do[queued](t, l.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
			if !q.Withdrawn {
				t.Errorf("acknowledged %v: the order is not marked as holding a withdrawal: %+v", acknowledged, q)
			}
			l.raise(t) // another order to review beside it
			queue := apitest.Do[struct{ Data []queued }](t, l.doctor, http.StatusOK, "GET", "/api/results/review", nil).Data
			var items []map[string]any
			for _, x := range queue {
				items = append(items, map[string]any{"id": x.ID, "version": x.Version})
			}
			if r := l.doctor.Do("POST", "/api/results/review", map[string]any{"orders": items}); r.Status != http.StatusConflict {
				t.Errorf("acknowledged %v: a corrected critical value reviewed in a batch: %d %s", acknowledged, r.Status, r.Body)
			}
			// The queue's row says what the correction changed and why: 7.2 replaced, the reason.
			var corrected struct {
				Data []struct {
					ID         int64
					Correction *struct {
						Reason   string
						Replaced []struct{ Value *string }
					}
				}
			}
			l.doctor.Do("GET", "/api/results/review", nil).JSON(t, &corrected)
			for _, x := range corrected.Data {
				if x.ID != o.ID {
					continue
				}
				if c := x.Correction; c == nil || c.Reason != "typo: 4.2" || len(c.Replaced) != 1 || c.Replaced[0].Value == nil || *c.Replaced[0].Value != "7.2" {
					t.Errorf("acknowledged %v: the queue's row of the corrected order: %+v", acknowledged, x.Correction)
				}
			}
		}
	})
}

// TestNotDoneWithdrawsTheCriticalPreliminary (issue 55, C2): a test marked not done after a
// critical preliminary (the specimen rejected) withdraws the value, acknowledged or not: the
// alert is withdrawn, the order waits for its doctor's review, marked, and is chased again.
func TestNotDoneWithdrawsTheCriticalPreliminary(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		for _, acknowledged := range []bool{true, false} {
			o, _ := l.withdrawable(t)
			a := alertsOf(t, db, o.ID)[0]
			if acknowledged {
				apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", ""))
			}
			o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
			apitest.Do[any](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", o.ID),
				map[string]any{"version": o.Version, "reason": "specimen haemolysed, rejected"})
			a = alertsOf(t, db, o.ID)[0]
			if a.WithdrawnAt == nil || a.WithdrawnCategory != lab.WithdrawnNotDone || !a.Open {
				t.Errorf("acknowledged %v: the alert after not done: %+v", acknowledged, a)
			}
			q := apitest.Do[struct {
				queued
				Repeat bool `json:"repeat_needed"`
			}](t, l.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
			if !q.Withdrawn || !q.Repeat {
				t.Errorf("acknowledged %v: the order after not done: %+v", acknowledged, q)
			}
			overdue, err := at(db, 0).Overdue(context.Background(), "en")
			if err != nil || !slices.ContainsFunc(overdue, func(x lab.Order) bool { return x.ID == o.ID }) {
				t.Errorf("acknowledged %v: the test is not chased again: %v", acknowledged, err)
			}
		}
	})
}

// TestWithdrawalEscalatesUntilSeen (issue 55, C3, M1, m2; NPSG.02.03.01): a withdrawal is
// itself a communication that must reach someone responsible. Retracted 5 minutes after it
// was raised, the alert stays open as a withdrawal and escalates on its own clock, e-mailing
// "withdrawn" (the "critical result waiting" e-mails not yet sent are cancelled); the ordering
// doctor, and a colleague who acknowledged it, are e-mailed and see it; it closes only when
// one of them records what was done.
func TestWithdrawalEscalatesUntilSeen(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		ctx := context.Background()

		// Open when retracted: escalates as the alert did.
		o, k := l.withdrawable(t)
		a := alertsOf(t, db, o.ID)[0]
		if _, err := at(db, 5*time.Minute).Retract(ctx, audit.Event{ActorID: l.nurseID}, o.ID, lab.RetractInput{Version: o.Version, Result: k,
			Category: lab.WithdrawnSpecimen, Reason: "haemolysed"}, "en"); err != nil {
			t.Fatal(err)
		}
		if n := mails(t, db, "critical_alert.withdrawn", a.ID, ""); n != 1 {
			t.Errorf("the ordering doctor is not e-mailed the withdrawal: %d", n)
		}
		if escalate(t, db, 31*time.Minute) != 1 || mails(t, db, "critical_alert.withdrawn", a.ID, "") != 2 || mails(t, db, "critical_alert.1", a.ID, "") != 0 {
			t.Errorf("the withdrawal did not escalate to the covering nurse as a withdrawal")
		}
		if _, ok := sees(t, l.nurse, a.ID); !ok {
			t.Errorf("the covering nurse does not see the withdrawal")
		}
		if escalate(t, db, 60*time.Minute) != 1 || mails(t, db, "critical_alert.withdrawn", a.ID, "") != 3 {
			t.Errorf("the withdrawal did not escalate to the medical lead")
		}
		// The nurse withdrew it: the medical lead it reached records the follow-up (J3).
		r := l.lead.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), map[string]any{"followup": "patient_contacted", "note": "Told her; repeat tomorrow"})
		if r.Status != http.StatusNoContent {
			t.Fatalf("withdrawal seen: %d %s", r.Status, r.Body)
		}
		if escalate(t, db, 3*time.Hour) != 0 {
			t.Errorf("a withdrawal seen still escalates")
		}
		if b := alertsOf(t, db, o.ID)[0]; b.Open || b.WithdrawalFollowup != "patient_contacted" || b.WithdrawalSeenName == "" || b.WithdrawalNote == "" {
			t.Errorf("the withdrawal seen: %+v", b)
		}

		// Escalated, its "critical result waiting" e-mail not yet sent: cancelled.
		o, k = l.withdrawable(t)
		a = alertsOf(t, db, o.ID)[0]
		escalate(t, db, 31*time.Minute)
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "result_id": k, "category": "transcription", "reason": "typed on the wrong order"})
		if mails(t, db, "critical_alert.1", a.ID, "pending") != 0 || mails(t, db, "critical_alert.1", a.ID, "cancelled") != 1 {
			t.Errorf("the waiting e-mail of a withdrawn alert is not cancelled")
		}

		// Acknowledged by a colleague before any escalation: the colleague is e-mailed, sees
		// the withdrawal with the acknowledgement, and may record its follow-up; it escalates
		// on the withdrawal's own clock.
		o, _ = l.withdrawable(t)
		a = alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID),
			map[string]any{"contact": "phone", "action": "Sent to ED, calcium gluconate", "received_by": "system"})
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		if _, err := at(db, 2*time.Hour).Retract(ctx, audit.Event{ActorID: l.nurseID}, o.ID, lab.RetractInput{Version: o.Version, Result: 0,
			Category: lab.WithdrawnWrongPatient, Reason: "another patient's sample"}, "en"); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'critical_alert.withdrawn' AND topic_id = $1 AND user_id = $2`, a.ID, l.leadID); n != 1 {
			t.Errorf("the colleague who acknowledged is not e-mailed the withdrawal: %d", n)
		}
		seen, ok := sees(t, l.lead, a.ID)
		if !ok || seen.Acknowledger != "Dr Lead" || seen.Action != "Sent to ED, calcium gluconate" || seen.WithdrawnAt == nil {
			t.Errorf("the colleague who acknowledged does not see the withdrawal: %v %+v", ok, seen)
		}
		escalate(t, db, 2*time.Hour+10*time.Minute)
		early := alertsOf(t, db, o.ID)[0].EscalatedAt
		escalate(t, db, 2*time.Hour+31*time.Minute)
		if early != nil || alertsOf(t, db, o.ID)[0].EscalatedAt == nil {
			t.Errorf("a withdrawal of an acknowledged alert does not escalate on its own clock: %v", early)
		}
		if r := l.lead.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", "")); r.Status != http.StatusConflict {
			t.Errorf("acknowledging a withdrawal as an alert: %d %s", r.Status, r.Body)
		}
		if r := l.lead.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), map[string]any{"followup": "whatever"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a follow-up not among the choices: %d %s", r.Status, r.Body)
		}
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), map[string]any{"followup": "treatment_changed"})
	})
}

// TestWithdrawalReviewedWithFollowup (issue 55, M2, M3, M4, M5, m5): retracting asks for a
// category and a reason a reader can use; the withdrawal of a specimen problem chases the test
// again; every alert of the analyte on the order is withdrawn, an earlier acknowledged one
// too; a withdrawal by the alert's own doctor is flagged; and reviewing the withdrawal needs
// its follow-up, which the report shows.
func TestWithdrawalReviewedWithFollowup(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, _ := l.withdrawable(t)
		first := alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", first.ID), ack("phone", "system", ""))
		o, k := l.final(t, o, "7.2", "")
		if n := len(alertsOf(t, db, o.ID)); n != 1 { // the same value, confirmed: its acknowledged alert, never a second (J6)
			t.Fatalf("the final critical after an acknowledged preliminary: %d alerts", n)
		}
		path := fmt.Sprintf("/api/lab-orders/%d/retract", o.ID)
		for _, bad := range []map[string]any{
			{"version": o.Version, "result_id": k, "reason": "haemolysed"},
			{"version": o.Version, "result_id": k, "category": "because", "reason": "haemolysed"},
			{"version": o.Version, "result_id": k, "category": "other", "reason": "x"},
		} {
			if r := l.doctor.Do("POST", path, bad); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%v: %d %s", bad, r.Status, r.Body)
			}
		}
		// The ordering doctor retracts his own alert's value, K alone, for a specimen problem.
		d := apitest.Do[struct {
			queued
			Repeat bool `json:"repeat_needed"`
		}](t, l.doctor, http.StatusOK, "POST", path, map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "haemolysed"})
		if d.Status != "final" || !d.Repeat {
			t.Errorf("K alone retracted from a final BMP: %+v", d)
		}
		overdue, err := at(db, 0).Overdue(context.Background(), "en")
		if err != nil || !slices.ContainsFunc(overdue, func(x lab.Order) bool { return x.ID == o.ID }) {
			t.Errorf("the potassium is not chased again: %v", err)
		}
		for _, a := range alertsOf(t, db, o.ID) {
			if a.WithdrawnAt == nil || !a.WithdrawnByRecipient {
				t.Errorf("alert %d: not withdrawn, or not flagged as withdrawn by its own doctor: %+v", a.ID, a)
			}
		}
		review := func(body map[string]any) apitest.Response { return l.doctor.Do("POST", "/api/results/review", body) }
		item := []map[string]any{{"id": o.ID, "version": d.Version}}
		if r := review(map[string]any{"orders": item}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a withdrawal reviewed with no follow-up: %d %s", r.Status, r.Body)
		}
		// Never closed by the one who withdrew it (issue 55, J3): another doctor reviews it.
		body := map[string]any{"orders": item, "followup": "repeat_ordered", "comment": "Repeat potassium tomorrow"}
		if r := review(body); r.Status != http.StatusConflict {
			t.Errorf("a withdrawal reviewed by its own withdrawer: %d %s", r.Status, r.Body)
		}
		if r := l.lead.Do("POST", "/api/results/review", body); r.Status != http.StatusOK {
			t.Fatalf("a withdrawal reviewed: %d %s", r.Status, r.Body)
		}
		for _, a := range alertsOf(t, db, o.ID) {
			if a.Open || a.WithdrawalFollowup != "repeat_ordered" || a.WithdrawalNote != "Repeat potassium tomorrow" {
				t.Errorf("alert %d after the review: %+v", a.ID, a)
			}
		}
	})
}

// TestCriticalRepeatAfterRetraction (issue 55, test 11): a critical value recorded after a
// retraction, of the whole report or of one row, raises an alert of its own.
func TestCriticalRepeatAfterRetraction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, _ := l.withdrawable(t)
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "category": "wrong_patient", "reason": "wrong patient"})
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		l.final(t, o, "6.9", "")
		o2, _ := l.withdrawable(t)
		o2, k := l.final(t, o2, "7.2", "")
		o2 = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o2.ID),
			map[string]any{"version": o2.Version, "result_id": k, "category": "transcription", "reason": "typed on the wrong order"})
		l.final(t, o2, "2.4", "right value")
		for _, id := range []int64{o.ID, o2.ID} {
			n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE order_id = $1 AND withdrawn_at IS NULL AND is_open = 1 AND misfiled = 0`, id)
			if n != 1 {
				t.Errorf("order %d: open alerts of the critical repeat: %d", id, n)
			}
		}
		// The critical value withdrawn as another patient's has its own alert besides, open
		// until it is resolved from the misfiled list (C2 of the laboratory clinician's review).
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE order_id = $1 AND is_open = 1 AND misfiled = 1`, o.ID); n != 1 {
			t.Errorf("the misfiled critical value's open alerts: %d", n)
		}
	})
}
