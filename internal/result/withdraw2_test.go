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

// TestACorrectionWithdrawsWhatWasActedOn (issue 55, K1, K2, J6; ISO 15189:2022 §7.4.1.8,
// CLIA 42 CFR 493.1291(k), CLSI GP47): a changed value withdraws the acknowledgement of the
// old one even when the new value is critical too; an alert nobody acknowledged is carried to
// a new critical value, and an acknowledgement written for the old value is then refused; an
// unchanged value sent again keeps its alert, never raising a fresh one.
func TestACorrectionWithdrawsWhatWasActedOn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)

		// K1: 7.2 acknowledged by Dr Lead, corrected to 2.1.
		o, _ := l.withdrawable(t)
		o, _ = l.final(t, o, "7.2", "")
		a := alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), map[string]any{
			"result_id": a.Result.ID, "contact": "phone", "action": "Insulin-dextrose, calcium gluconate, sent to ED", "received_by": "system"})
		o, _ = l.final(t, o, "2.1", "wrong value typed, K is 2.1")
		as := alertsOf(t, db, o.ID)
		if len(as) != 2 || as[0].WithdrawnAt == nil || as[0].WithdrawnCategory != lab.WithdrawnCorrected || !as[0].Open {
			t.Fatalf("K1: the acknowledged 7.2 after its correction to 2.1: %+v", as)
		}
		if as[1].WithdrawnAt != nil || !as[1].Open || as[1].Result.Value == nil || *as[1].Result.Value != "2.1" {
			t.Errorf("K1: the 2.1 alert: %+v", as[1])
		}
		if w, ok := sees(t, l.lead, as[0].ID); !ok || w.Standing == nil || *w.Standing.Value != "2.1" || w.Standing.Flag != as[1].Result.Flag {
			t.Errorf("K1: the acknowledger's notice of the withdrawal (J1: with the value that now stands): %v %+v", ok, w.Standing)
		}

		// K2: an open 7.2 corrected to 2.1 is carried; an acknowledgement written for 7.2 is refused.
		o, _ = l.withdrawable(t)
		o, _ = l.final(t, o, "7.2", "")
		a = alertsOf(t, db, o.ID)[0]
		seen := a.Result.ID
		o, _ = l.final(t, o, "2.1", "wrong value typed, K is 2.1")
		as = alertsOf(t, db, o.ID)
		if len(as) != 1 || as[0].WithdrawnAt != nil || !as[0].Open {
			t.Fatalf("K2: the open alert after the correction: %+v", as)
		}
		for _, body := range []map[string]any{
			{"result_id": seen, "contact": "phone", "action": "Kayexalate for K 7.2", "received_by": "telephone", "read_back": "K 7.2"},
			{"contact": "phone", "action": "Kayexalate for K 7.2", "received_by": "telephone", "read_back": "K 7.2"},
		} {
			if r := l.doctor.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), body); r.Status != http.StatusConflict {
				t.Errorf("K2: an acknowledgement of 7.2 on the alert now 2.1: %d %s", r.Status, r.Body)
			}
		}
		apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), map[string]any{
			"result_id": as[0].Result.ID, "contact": "phone", "action": "Oral potassium", "received_by": "system"})

		// J6: a sodium correction sends the acknowledged 7.2 again: it keeps its one alert.
		o, _ = l.withdrawable(t)
		o, _ = l.final(t, o, "7.2", "")
		a = alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", ""))
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		rec := apitest.Do[struct{ Alerts int }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{
			"version": o.Version, "final": true, "reason": "Na typo",
			"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "7.2"}, {"analyte": "NA", "unit": "mmol/L", "value": "141"}}})
		as = alertsOf(t, db, o.ID)
		if rec.Alerts != 0 || len(as) != 1 || as[0].Open || as[0].AcknowledgedAt == nil || as[0].WithdrawnAt != nil || !as[0].Result.Current {
			t.Errorf("J6: an unchanged acknowledged 7.2 after a sodium correction: raised %d, %+v", rec.Alerts, as)
		}
		if n := escalate(t, db, 0); n != 0 {
			t.Errorf("J6: escalated %d", n)
		}
	})
}

// TestALaterReportDiffersFromThePreliminary (issue 55, J1): a critical preliminary 7.2 the
// final report gives as 5.9 (high, not critical) is withdrawn as superseded, never as
// "corrected" with no reason: the final needs the reason it differs.
func TestALaterReportDiffersFromThePreliminary(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, _ := l.withdrawable(t)
		body := map[string]any{"version": o.Version, "final": true,
			"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "5.9"}, {"analyte": "NA", "unit": "mmol/L", "value": "140"}}}
		r := l.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), body)
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a final differing from a critical preliminary without a reason: %d %s", r.Status, r.Body)
		}
		if as := alertsOf(t, db, o.ID); as[0].WithdrawnAt != nil {
			t.Fatalf("refused, yet withdrawn: %+v", as[0])
		}
		body["reason"] = "preliminary read on a haemolysed aliquot; final on a fresh one"
		if rec := apitest.Do[struct{ Withdrawn int }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), body); rec.Withdrawn != 1 {
			t.Errorf("the recording does not say it withdrew the alert: %+v", rec)
		}
		a := alertsOf(t, db, o.ID)[0]
		if a.WithdrawnCategory != lab.WithdrawnSuperseded || a.WithdrawnReason != body["reason"] || !a.Open {
			t.Errorf("the preliminary's alert: %+v", a)
		}
	})
}

// TestAWithdrawalIsClosedByAnotherClinician (issue 55, J3): the covering nurse who withdraws
// an escalated alert's value cannot close its follow-up herself (409), nor can an
// administrator through the administrator role alone (403); the ordering doctor can.
func TestAWithdrawalIsClosedByAnotherClinician(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, k := l.withdrawable(t)
		a := alertsOf(t, db, o.ID)[0]
		escalate(t, db, 31*time.Minute)
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "result_id": k, "category": "other", "reason": "not right"})
		path := fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID)
		followup := map[string]any{"followup": "no_action_needed"}
		if r := l.nurse.Do("POST", path, followup); r.Status != http.StatusConflict {
			t.Errorf("the withdrawer closes her own withdrawal: %d %s", r.Status, r.Body)
		}
		if r := l.admin.Do("POST", path, followup); r.Status != http.StatusForbidden {
			t.Errorf("an administrator closes a withdrawal: %d %s", r.Status, r.Body)
		}
		if a = alertsOf(t, db, o.ID)[0]; !a.Open || a.WithdrawalSeenAt != nil {
			t.Fatalf("refused, yet closed: %+v", a)
		}
		apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", path, map[string]any{"followup": "patient_contacted"})
	})
}

// TestTheWithdrawnAnalyteIsChasedUntilRecorded (issue 55, J2): the chase of a withdrawn
// potassium survives a sodium correction and a review saying a repeat was ordered; any
// retraction category chases it; a repeat recorded on the order takes a collection time of its
// own and ends the chase.
func TestTheWithdrawnAnalyteIsChasedUntilRecorded(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		get := func(id int64) (o struct {
			queued
			Repeat bool `json:"repeat_needed"`
		}) {
			return apitest.Do[struct {
				queued
				Repeat bool `json:"repeat_needed"`
			}](t, l.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", id), nil)
		}
		for _, category := range []string{lab.WithdrawnSpecimen, lab.WithdrawnTranscription} {
			o, _ := l.withdrawable(t)
			o, k := l.final(t, o, "7.2", "")
			o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
				map[string]any{"version": o.Version, "result_id": k, "category": category, "reason": "haemolysed or mistyped"})
			if !get(o.ID).Repeat {
				t.Errorf("%s: the withdrawn potassium is not chased", category)
			}
			apitest.Do[any](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{
				"version": o.Version, "final": true, "reason": "Na typo", "results": []map[string]any{{"analyte": "NA", "unit": "mmol/L", "value": "141"}}})
			if !get(o.ID).Repeat {
				t.Errorf("%s: a sodium correction ends the chase of the potassium", category)
			}
			r := l.doctor.Do("POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": o.ID, "version": get(o.ID).Version}}, "followup": "repeat_ordered"})
			if r.Status != http.StatusOK || !get(o.ID).Repeat {
				t.Errorf("%s: a review saying a repeat was ordered ends the chase: %d %s", category, r.Status, r.Body)
			}
			apitest.Do[any](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{
				"version": get(o.ID).Version, "final": true, "reason": "repeat potassium",
				"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "4.4"}}})
			d := get(o.ID)
			if d.Repeat {
				t.Errorf("%s: a repeat recorded does not end the chase", category)
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results c JOIN lab_results x ON x.order_id = c.order_id AND x.analyte = c.analyte
				WHERE c.order_id = $1 AND c.analyte = 'K' AND c.is_current = 1 AND x.retracted_at IS NOT NULL AND c.observed_at <= x.observed_at`, o.ID); n != 0 {
				t.Errorf("%s: the repeat potassium carries the withdrawn sample's collection time", category)
			}
		}
	})
}

// TestADepartedDoctorsWithdrawalReachesTheMedicalLead (issue 55, J4): the withdrawal of a
// doctor no longer active waits in the medical lead's review queue, never in nobody's.
func TestADepartedDoctorsWithdrawalReachesTheMedicalLead(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, k := l.withdrawable(t)
		apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "haemolysed"})
		u := apitest.Do[struct {
			Name    string
			Version int
		}](t, l.admin, http.StatusOK, "GET", fmt.Sprintf("/api/users/%d", l.doctorID), nil)
		apitest.Do[any](t, l.admin, http.StatusOK, "PUT", fmt.Sprintf("/api/users/%d", l.doctorID), map[string]any{"name": u.Name, "email": "doc@clinic.test",
			"roles": []string{"doctor"}, "active": false, "version": u.Version})
		queue := apitest.Do[struct{ Data []queued }](t, l.lead, http.StatusOK, "GET", "/api/results/review", nil).Data
		if !slices.ContainsFunc(queue, func(x queued) bool { return x.ID == o.ID && x.Withdrawn }) {
			t.Errorf("the departed doctor's withdrawal is not in the medical lead's queue: %+v", queue)
		}
	})
}

// TestWithdrawalEmailsAreShown (issue 55, J4, P5): the e-mails saying an alert was withdrawn
// are listed on the alert with their delivery (one to an account with no address too); the
// ordering doctor who withdraws his own alert's value is not e-mailed about it.
func TestWithdrawalEmailsAreShown(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, k := l.withdrawable(t)
		a := alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", ""))
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		if _, err := at(db, 0).Retract(context.Background(), audit.Event{ActorID: l.doctorID}, o.ID, lab.RetractInput{Version: o.Version, Result: k,
			Category: lab.WithdrawnTranscription, Reason: "my own typo"}, "en"); err != nil {
			t.Fatal(err)
		}
		a = alertsOf(t, db, o.ID)[0]
		var toLead, toSelf int
		for _, m := range a.Emails {
			if m.Withdrawal && m.UserID != nil && *m.UserID == l.leadID {
				toLead++
			}
			if m.Withdrawal && m.UserID != nil && *m.UserID == l.doctorID {
				toSelf++
			}
		}
		if toLead != 1 || toSelf != 0 {
			t.Errorf("withdrawal e-mails shown: to the acknowledger %d (want 1), to the withdrawer himself %d (want 0): %+v", toLead, toSelf, a.Emails)
		}
	})
}

// TestALegacyWithdrawalIsFollowedUp (issue 55, P11, minor): a withdrawal closed before
// follow-ups were kept is followed up from the banner; an acknowledged value's follow-up is
// never "no action needed".
func TestALegacyWithdrawalIsFollowedUp(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, k := l.withdrawable(t)
		a := alertsOf(t, db, o.ID)[0]
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID), ack("phone", "system", ""))
		o = apitest.Do[order](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil)
		apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
			map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "haemolysed"})
		if _, err := db.ExecContext(context.Background(), `UPDATE critical_alerts SET is_open = 0, withdrawn_category = '' WHERE id = $1`, a.ID); err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("/api/results/alerts/%d/acknowledge", a.ID)
		if r := l.lead.Do("POST", path, map[string]any{"followup": "no_action_needed"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("no action needed after an acknowledgement: %d %s", r.Status, r.Body)
		}
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", path, map[string]any{"followup": "treatment_changed"})
		if a = alertsOf(t, db, o.ID)[0]; a.WithdrawalSeenAt == nil || a.WithdrawalFollowup != "treatment_changed" {
			t.Errorf("the legacy withdrawal after its follow-up: %+v", a)
		}
	})
}

// TestAReasonInIdeographs (issue 55, minor): "溶血" (haemolysed) is reason enough for a
// retraction; one character is not.
func TestAReasonInIdeographs(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, k := l.withdrawable(t)
		path := fmt.Sprintf("/api/lab-orders/%d/retract", o.ID)
		if r := l.nurse.Do("POST", path, map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "溶"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("one ideograph: %d %s", r.Status, r.Body)
		}
		apitest.Do[order](t, l.nurse, http.StatusOK, "POST", path, map[string]any{"version": o.Version, "result_id": k, "category": "specimen", "reason": "溶血"})
	})
}

// TestNotDoneAfterACriticalPreliminaryIsChased (issue 55, P15): a critical preliminary
// re-entered as normal, then marked not done, is chased again.
func TestNotDoneAfterACriticalPreliminaryIsChased(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		o, _ := l.withdrawable(t)
		o = apitest.Do[struct{ Order order }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{
			"version": o.Version, "final": false, "reason": "misread: 4.2",
			"results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "4.2"}, {"analyte": "NA", "unit": "mmol/L", "value": "140"}}}).Order
		apitest.Do[any](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", o.ID),
			map[string]any{"version": o.Version, "reason": "specimen rejected"})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_orders WHERE id = $1 AND repeat_needed = 1`, o.ID); n != 1 {
			t.Error("a test marked not done after a critical preliminary is not chased again")
		}
	})
}
