package result_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
	"emr/internal/mail/mailtest"
	lab "emr/internal/result"
)

// loop is a clinic set up for the critical-result loop: the nurse role covers, Dr Lead is the
// medical lead, and the staff have e-mail addresses.
type loop struct {
	*clinic
	lead           *apitest.Client
	leadID         int64
	nurseID        int64
	patients       int
	settingVersion int
}

const leadPassword = "copper harbour 9 meadow quilt"

func newLoop(t *testing.T, db *database.DB) *loop {
	t.Helper()
	l := &loop{clinic: newClinic(t, db)}
	u := apitest.Do[struct{ ID int64 }](t, l.admin, http.StatusCreated, "POST", "/api/users", map[string]any{"username": "lead", "name": "Dr Lead",
		"email": "lead@clinic.test", "roles": []string{"doctor"}, "password": leadPassword})
	l.leadID, l.nurseID = u.ID, l.env.UserID("nurse")
	l.lead = l.env.LoggedIn("lead", leadPassword)
	l.email(t, l.nurseID, "nurse@clinic.test", "nurse")
	l.email(t, l.doctorID, "doc@clinic.test", "doctor")
	st := apitest.Do[lab.Settings](t, l.admin, http.StatusOK, "PUT", "/api/settings/results", map[string]any{"escalate_after_minutes": 30,
		"covering_role": "nurse", "lead_after_minutes": 20, "medical_lead_id": l.leadID, "version": 0})
	l.settingVersion = st.Version
	return l
}

// email gives account id an e-mail address, as an administrator does.
func (l *loop) email(t *testing.T, id int64, address, role string) {
	t.Helper()
	u := apitest.Do[struct {
		Name    string
		Version int
	}](t, l.admin, http.StatusOK, "GET", fmt.Sprintf("/api/users/%d", id), nil)
	apitest.Do[any](t, l.admin, http.StatusOK, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"name": u.Name, "email": address,
		"roles": []string{role}, "active": true, "version": u.Version})
}

// raise records a critical potassium on a new patient's visit and returns its alert's id.
func (l *loop) raise(t *testing.T) int64 {
	t.Helper()
	l.patients++
	p := apitest.Do[struct{ ID int64 }](t, l.rec, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Hà", "last_name": fmt.Sprintf("Trần %d", l.patients),
		"birth_date": "1970-03-04", "sex": "female", "history": map[string]any{"allergy_status": "none"}})
	a := apitest.Do[struct{ ID int64 }](t, l.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": l.doctorID,
		"starts_at": time.Now().UTC().Add(time.Duration(3+l.patients) * time.Hour).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
	apitest.Do[any](t, l.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
	apitest.Do[any](t, l.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
	apitest.Do[any](t, l.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0, "orders": []map[string]any{{"code": "BMP", "note": ""}}})
	o := apitest.Do[list](t, l.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/orders", a.ID), nil).Data[0]
	o = apitest.Do[order](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
	rec := apitest.Do[struct{ Alerts int }](t, l.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID),
		map[string]any{"version": o.Version, "final": true, "results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "6.8"}}})
	if rec.Alerts != 1 {
		t.Fatalf("no alert raised: %+v", rec)
	}
	alerts := apitest.Do[struct{ Data []lab.Alert }](t, l.doctor, http.StatusOK, "GET", "/api/results/alerts", nil)
	return alerts.Data[len(alerts.Data)-1].ID
}

// at is the results store on the clock moved by d from now: how tests run the escalation
// sweep later than they are; with e-mail on.
func at(db *database.DB, d time.Duration) *lab.Store {
	return &lab.Store{DB: db, Now: func() time.Time { return time.Now().Add(d) }, Email: true}
}

func escalate(t *testing.T, db *database.DB, d time.Duration) int {
	t.Helper()
	n, err := at(db, d).Escalate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sees reports whether c's list of open alerts holds alert id, and returns it.
func sees(t *testing.T, c *apitest.Client, id int64) (lab.Alert, bool) {
	t.Helper()
	alerts := apitest.Do[struct{ Data []lab.Alert }](t, c, http.StatusOK, "GET", "/api/results/alerts", nil)
	i := slices.IndexFunc(alerts.Data, func(a lab.Alert) bool { return a.ID == id })
	if i < 0 {
		return lab.Alert{}, false
	}
	return alerts.Data[i], true
}

func ack(contact, receivedBy, readBack string) map[string]any {
	return map[string]any{"contact": contact, "action": "Called the patient", "received_by": receivedBy, "read_back": readBack}
}

// TestCriticalLoopRules: each rule of the settings and of acknowledging as one request
// (sources: CAP Laboratory General checklist, critical results; Joint Commission
// NPSG.02.03.01; ADR 37).
func TestCriticalLoopRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		settingsBody := func(fields map[string]any) func(apitest.Vars) any {
			return func(apitest.Vars) any {
				body := map[string]any{"escalate_after_minutes": 30, "covering_role": "nurse", "lead_after_minutes": 30, "medical_lead_id": l.leadID, "version": l.settingVersion}
				for k, v := range fields {
					body[k] = v
				}
				return body
			}
		}
		unchanged := func(t *testing.T, _ apitest.Response, _ apitest.Vars) {
			st := apitest.Do[lab.Settings](t, l.admin, http.StatusOK, "GET", "/api/settings/results", nil)
			if st.EscalateAfterMinutes != 30 || st.LeadAfterMinutes != 20 || st.CoveringRole != "nurse" || st.Version != l.settingVersion {
				t.Errorf("a refused change was kept: %+v", st)
			}
		}
		critical := func(t *testing.T) apitest.Vars { return apitest.Vars{"alert": l.raise(t)} }
		escalated := func(t *testing.T) apitest.Vars {
			v := critical(t)
			escalate(t, db, 31*time.Minute)
			return v
		}
		stillOpen := func(t *testing.T, _ apitest.Response, v apitest.Vars) {
			if a, ok := sees(t, l.doctor, v["alert"].(int64)); !ok || !a.Open {
				t.Errorf("a refused acknowledgement closed the alert")
			}
		}
		clients := map[string]*apitest.Client{"admin": l.admin, "doctor": l.doctor, "nurse": l.nurse, "rec": l.rec, "lead": l.lead}
		apitest.Run(t, l.env, clients, []apitest.Scenario{
			{Name: "an interval of 61 minutes is refused, naming the limits", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"escalate_after_minutes": 61}), Status: http.StatusUnprocessableEntity,
				Contains: []string{`"escalate_after_minutes"`, "5", "60"}, After: unchanged},
			{Name: "an interval of 4 minutes is refused", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"escalate_after_minutes": 4}), Status: http.StatusUnprocessableEntity, Contains: []string{`"escalate_after_minutes"`}, After: unchanged},
			{Name: "the medical lead's interval is held to the same hour", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"lead_after_minutes": 61}), Status: http.StatusUnprocessableEntity, Contains: []string{`"lead_after_minutes"`}, After: unchanged},
			{Name: "a covering role that cannot see and acknowledge critical results is refused", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"covering_role": "receptionist"}), Status: http.StatusUnprocessableEntity, Contains: []string{`"covering_role"`}, After: unchanged},
			{Name: "a second level needs a medical lead", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"medical_lead_id": nil}), Status: http.StatusUnprocessableEntity, Contains: []string{`"medical_lead_id"`}, After: unchanged},
			{Name: "a medical lead who cannot acknowledge is refused", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"medical_lead_id": l.env.UserID("rec")}), Status: http.StatusUnprocessableEntity, Contains: []string{`"medical_lead_id"`}, After: unchanged},
			{Name: "a nurse may cover but not be the medical lead: the last level reviews results", As: "admin", Method: "PUT", Path: "/api/settings/results",
				BodyOf: settingsBody(map[string]any{"medical_lead_id": l.nurseID}), Status: http.StatusUnprocessableEntity, Contains: []string{`"medical_lead_id"`, "clinician"}, After: unchanged},
			{Name: "a result taken by telephone needs its read-back", As: "doctor", Setup: critical, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "telephone", ""), Status: http.StatusUnprocessableEntity, Contains: []string{`"read_back"`}, After: stillOpen},
			{Name: "an acknowledgement says how the result was received", As: "doctor", Setup: critical, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "", ""), Status: http.StatusUnprocessableEntity, Contains: []string{`"received_by"`}, After: stillOpen},
			{Name: "a result taken by telephone and read back is acknowledged", As: "doctor", Setup: critical, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "telephone", "K 6.8 mmol/L read back"), Status: http.StatusNoContent},
			{Name: "the covering role acknowledges no alert before it escalates", As: "nurse", Setup: critical, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "system", ""), Status: http.StatusForbidden, After: stillOpen},
			{Name: "the front desk acknowledges no alert", As: "rec", Setup: escalated, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "system", ""), Status: http.StatusForbidden, After: stillOpen},
			{Name: "the front desk sees no alert", As: "rec", Method: "GET", Path: "/api/results/alerts", Status: http.StatusForbidden},
			{Name: "the nurse as covering role acknowledges an escalated alert", As: "nurse", Setup: escalated, Method: "POST", Path: "/api/results/alerts/{alert}/acknowledge",
				Body: ack("phone", "system", ""), Status: http.StatusNoContent},
		})
	})
}

// TestCriticalLoop: the loop as a story: a patient not reached keeps the alert open and
// escalated on every list; level 1 reaches the covering role, level 2 the medical lead; each
// level's e-mail reaches the mail server; the report shows each level's times.
func TestCriticalLoop(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		l := newLoop(t, db)
		smtp := mailtest.Start(t)
		// The outbox's clock runs with the escalation's: the messages are due when written.
		outbox := &mail.Outbox{DB: db, Server: smtp.Client(mailtest.Password), Domain: "clinic.test", Now: func() time.Time { return time.Now().Add(time.Hour) }}

		// Raised: the doctor's alone; the covering nurse and the lead see it only once it escalates.
		id := l.raise(t)
		if _, ok := sees(t, l.nurse, id); ok {
			t.Fatal("the covering role sees an alert before it escalated")
		}
		if n := escalate(t, db, 29*time.Minute); n != 0 {
			t.Fatalf("escalated before its interval: %d", n)
		}
		// Level 1 after 30 minutes: the covering nurse sees it; the lead does not yet.
		if n := escalate(t, db, 31*time.Minute); n != 1 {
			t.Fatalf("level 1: %d escalated", n)
		}
		if a, ok := sees(t, l.nurse, id); !ok || a.EscalatedAt == nil || a.EscalatedLeadAt != nil {
			t.Fatalf("the covering nurse's list: %+v %v", a, ok)
		}
		if _, ok := sees(t, l.lead, id); ok {
			t.Fatal("the medical lead sees it at level 1")
		}
		// Level 2 twenty minutes later (the lead's interval): the lead sees it.
		if n := escalate(t, db, 31*time.Minute+19*time.Minute); n != 0 {
			t.Fatalf("level 2 before its interval: %d", n)
		}
		if n := escalate(t, db, 31*time.Minute+21*time.Minute); n != 1 {
			t.Fatalf("level 2: %d escalated", n)
		}
		if a, ok := sees(t, l.lead, id); !ok || a.EscalatedLeadAt == nil {
			t.Fatalf("the lead's list: %+v %v", a, ok)
		}

		// Each level's e-mail, from the outbox, to a real mail server: the nurse at level 1,
		// the lead at level 2; no patient's name or value in it.
		if n, err := outbox.SendDue(ctx); err != nil || n != 2 {
			t.Fatalf("sent %d: %v", n, err)
		}
		got := smtp.Messages()
		if len(got) != 2 || got[0].To[0] != "nurse@clinic.test" || got[1].To[0] != "lead@clinic.test" {
			t.Fatalf("the mail server received: %+v", got)
		}
		for _, m := range got {
			if strings.Contains(m.Data, "Tr=E1=BA=A7n") || strings.Contains(m.Data, "6.8") || strings.Contains(m.Data, "Trần") {
				t.Errorf("the e-mail names the patient or the value: %s", m.Data)
			}
		}
		a, _ := sees(t, l.lead, id)
		if len(a.Emails) != 2 || a.Emails[0].Level != 1 || a.Emails[0].Status != mail.Sent || a.Emails[0].Name != "Test nurse" ||
			a.Emails[1].Level != 2 || a.Emails[1].Name != "Dr Lead" || a.Emails[1].SentAt == nil {
			t.Fatalf("delivery on the alert: %+v", a.Emails)
		}

		// The patient not reached: the alert stays open, on every list, with the attempt.
		apitest.Do[any](t, l.nurse, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", id), ack("not_reached", "system", ""))
		for name, c := range map[string]*apitest.Client{"doctor": l.doctor, "nurse": l.nurse, "lead": l.lead} {
			a, ok := sees(t, c, id)
			if !ok || !a.Open || a.NotReachedCount != 1 || a.NotReachedAt == nil || a.NotReachedByName != "Test nurse" || a.AcknowledgedAt != nil {
				t.Errorf("%s's list after the patient was not reached: %+v %v", name, a, ok)
			}
		}
		// Reached: closed, off every list, with each level's times in the report.
		apitest.Do[any](t, l.lead, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", id),
			ack("phone", "telephone", "Potassium 6.8 read back to the laboratory"))
		if _, ok := sees(t, l.doctor, id); ok {
			t.Error("acknowledged, still listed")
		}
		report := apitest.Do[struct{ Data []lab.Alert }](t, l.doctor, http.StatusOK, "GET", "/api/results/alerts/report", nil)
		i := slices.IndexFunc(report.Data, func(a lab.Alert) bool { return a.ID == id })
		if i < 0 {
			t.Fatal("not in the report")
		}
		r := report.Data[i]
		if r.EscalatedAt == nil || r.EscalatedLeadAt == nil || r.AcknowledgedAt == nil || r.MinutesToAcknowledge == nil || r.ReceivedBy != "telephone" ||
			r.Acknowledger != "Dr Lead" || r.NotReachedCount != 1 || len(r.Emails) != 2 {
			t.Fatalf("report: %+v", r)
		}
		for _, action := range []string{"critical_alert.escalate", "critical_alert.not_reached", "critical_alert.acknowledge"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND entity_id = $2`, action, fmt.Sprint(id)); n == 0 {
				t.Errorf("%s not audited", action)
			}
		}
		// The settings newLoop saved are filed as the critical results' (not as the clinic's
		// details), and the critical potassium's recording reads in the reader's words.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'settings.results' AND entity_id = 'results'`); n != 1 {
			t.Errorf("critical-results settings audited as such: %d", n)
		}
		var detail string
		if err := db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'lab_order.final' ORDER BY id LIMIT 1`).Scan(&detail); err != nil {
			t.Fatal(err)
		}
		if got := audit.DetailIn("ru", detail); got != "результаты: K; критических оповещений: 1" {
			t.Errorf("a critical result's recording, in Russian: %q (stored %s)", got, detail)
		}

		// A patient not reached before the alert escalated escalates it at once.
		id2 := l.raise(t)
		apitest.Do[any](t, l.doctor, http.StatusNoContent, "POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", id2), ack("not_reached", "system", ""))
		if a, ok := sees(t, l.nurse, id2); !ok || a.EscalatedAt == nil {
			t.Fatalf("not reached, not escalated to the covering role: %+v %v", a, ok)
		}
	})
}

// TestCoveringRoleWithoutMail: without a mail server the settings say so (alerts stay in
// the app) and escalation writes no e-mail.
func TestCoveringRoleWithoutMail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		st := apitest.Do[lab.Settings](t, l.nurse, http.StatusOK, "GET", "/api/settings/results", nil)
		if st.Email || st.MedicalLeadName != "Dr Lead" || st.LeadAfterMinutes != 20 {
			t.Fatalf("settings: %+v", st)
		}
		id := l.raise(t)
		if _, err := (&lab.Store{DB: db, Now: func() time.Time { return time.Now().Add(31 * time.Minute) }}).Escalate(context.Background()); err != nil {
			t.Fatal(err)
		}
		if a, ok := sees(t, l.nurse, id); !ok || len(a.Emails) != 0 {
			t.Fatalf("escalated without mail: %+v %v", a, ok)
		}
	})
}

// The medical lead stays an active clinician until another is chosen: deactivating the account
// or taking its doctor's role away is refused with the way out, and changes nothing; once
// another lead is chosen, the former one may leave.
func TestTheMedicalLeadStaysUntilReplaced(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		type account struct {
			Name    string
			Active  bool
			Roles   []string
			Version int
		}
		read := func() account {
			return apitest.Do[account](t, l.admin, http.StatusOK, "GET", fmt.Sprintf("/api/users/%d", l.leadID), nil)
		}
		change := func(active bool, roles []string, status int, contains string) {
			t.Helper()
			u := read()
			body := apitest.Do[map[string]any](t, l.admin, status, "PUT", fmt.Sprintf("/api/users/%d", l.leadID), map[string]any{"name": u.Name,
				"email": "lead@clinic.test", "roles": roles, "active": active, "version": u.Version})
			if contains != "" && !strings.Contains(fmt.Sprint(body), contains) {
				t.Errorf("the refusal does not say %q: %v", contains, body)
			}
		}
		change(false, []string{"doctor"}, http.StatusConflict, "medical lead")
		change(true, []string{"nurse"}, http.StatusConflict, "medical lead")
		if u := read(); !u.Active || len(u.Roles) != 1 || u.Roles[0] != "doctor" {
			t.Fatalf("a refused change changed the lead's account: %+v", u)
		}
		change(true, []string{"doctor", "nurse"}, http.StatusOK, "") // more roles keep what a lead needs
		apitest.Do[lab.Settings](t, l.admin, http.StatusOK, "PUT", "/api/settings/results", map[string]any{"escalate_after_minutes": 30,
			"covering_role": "nurse", "lead_after_minutes": 20, "medical_lead_id": l.doctorID, "version": l.settingVersion})
		change(false, []string{"doctor"}, http.StatusOK, "")
	})
}
