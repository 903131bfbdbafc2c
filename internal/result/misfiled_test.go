package result_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// misfiledItem is a row of the misfiled list as a client reads it.
type misfiledItem struct {
	ResultID  int64  `json:"result_id"`
	OrderID   int64  `json:"order_id"`
	Test      string `json:"test"`
	TestLabel string `json:"test_label"`
	Reason    string `json:"reason"`
	By        string `json:"retracted_by"`
	Critical  bool   `json:"critical"`
	Version   int    `json:"version"`
	Result    struct {
		Analyte string
		Value   *string
	}
	Patient *struct{ ID int64 }
}

type misfiledPage struct {
	Data []misfiledItem `json:"data"`
	Meta struct {
		Total   int `json:"total"`
		Page    int `json:"page"`
		PerPage int `json:"per_page"`
	} `json:"meta"`
}

func misfiledList(t *testing.T, c *apitest.Client, query string) misfiledPage {
	t.Helper()
	return apitest.Do[misfiledPage](t, c, http.StatusOK, "GET", "/api/results/misfiled"+query, nil)
}

// otherPatient registers another patient with a visit of the clinic's doctor in progress,
// with tests ordered on it, and returns the patient's id and the visit's orders.
func (c *clinic) otherPatient(t *testing.T, first, birth, sex string, tests ...string) (int64, []order) {
	t.Helper()
	var p struct{ ID int64 }
	c.rec.Do("POST", "/api/patients", map[string]any{"first_name": first, "last_name": "Trần", "birth_date": birth, "sex": sex}).JSON(t, &p)
	var a struct{ ID int64 }
	// Each patient's visit at a time of its own: the doctor sees several.
	starts := time.Now().UTC().Add(3*time.Hour + time.Duration(p.ID)*20*time.Minute).Truncate(time.Minute).Format(time.RFC3339)
	r := c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": c.doctorID,
		"starts_at": starts, "duration_minutes": 15, "type": "new", "reason": "Check-up"})
	r.JSON(t, &a)
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
	c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
	var orders []map[string]any
	for _, code := range tests {
		orders = append(orders, map[string]any{"code": code, "note": ""})
	}
	if r := c.doctor.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0, "chief_complaint": "Check-up",
		"orders": orders}); r.Status != http.StatusOK {
		t.Fatalf("save visit: %d %s", r.Status, r.Body)
	}
	var l list
	c.nurse.Do("GET", fmt.Sprintf("/api/appointments/%d/orders", a.ID), nil).JSON(t, &l)
	return p.ID, l.Data
}

// misfiledClinic is a clinic whose patient's BMP (K 7.2, critical; Na 140), collected and
// with the laboratory's report attached, was withdrawn as another patient's; and a second
// patient, a woman, with a BMP ordered before that sample was taken and not yet collected.
type misfiledClinic struct {
	*clinic
	bmp    order
	file   int64
	other  int64
	target order
	k, na  misfiledItem
}

func newMisfiledClinic(t *testing.T, db *database.DB) *misfiledClinic {
	t.Helper()
	return newMisfiledClinicWith(t, db, nil)
}

// newMisfiledClinicWith is newMisfiledClinic, with before run once the right patient's order
// is placed and before the wrong patient's sample is taken.
func newMisfiledClinicWith(t *testing.T, db *database.DB, before func(c *clinic)) *misfiledClinic {
	t.Helper()
	c := newClinic(t, db)
	bmp := find(c.order(t, "BMP"), "BMP")
	// The right patient's order is placed before the sample is taken: the sample can be its.
	other, orders := c.otherPatient(t, "Lan", "1990-05-06", "female", "BMP")
	if before != nil {
		before(c)
	}
	bmp = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", bmp.ID), map[string]any{"version": bmp.Version})
	bmp = recorded(t, c, bmp, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "7.2"}, map[string]any{"analyte": "NA", "unit": "mmol/L", "value": "140"})
	var linked struct {
		Version      int    `json:"version"`
		ReportFileID *int64 `json:"report_file_id"`
	}
	pdf := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
	c.nurse.Upload("POST", fmt.Sprintf("/api/lab-orders/%d/report?version=%d", bmp.ID, bmp.Version), "lab.pdf", pdf).JSON(t, &linked)
	if linked.ReportFileID == nil {
		t.Fatal("no report linked")
	}
	bmp = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", bmp.ID),
		map[string]any{"version": linked.Version, "category": "wrong_patient", "reason": "label swapped with the next patient's tube"})
	m := &misfiledClinic{clinic: c, bmp: bmp, file: *linked.ReportFileID, other: other, target: find(orders, "BMP")}
	for _, it := range misfiledList(t, c.nurse, "").Data {
		switch it.Result.Analyte {
		case "K":
			m.k = it
		case "NA":
			m.na = it
		}
	}
	if m.k.ResultID == 0 || m.na.ResultID == 0 || !m.k.Critical || m.na.Critical {
		t.Fatalf("the misfiled list: %+v %+v", m.k, m.na)
	}
	return m
}

func (m *misfiledClinic) resolvePath(id int64) string {
	return fmt.Sprintf("/api/lab-results/%d/misfiled/resolve", id)
}

// TestAMisfiledValueIsRefiledOnTheRightPatient (C3 and C4 of the laboratory clinician's
// review, 2026-11-29): a value withdrawn as another patient's is recorded on the right
// patient's order of the same test with its original observation time, entered text and
// performer, judged for that patient as any new value (flag, alert); the two rows name each
// other; the laboratory's report moves to that patient and order; both patients' audit trails
// say so; the task leaves the list and its critical alert closes.
func TestAMisfiledValueIsRefiledOnTheRightPatient(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		m := newMisfiledClinic(t, db)
		var orders struct{ Data []order }
		apitest.Do[struct{}](t, m.nurse, http.StatusUnprocessableEntity, "GET", fmt.Sprintf("/api/lab-results/%d/misfiled/orders?patient_id=%d", m.k.ResultID, m.patientID), nil)
		orders = apitest.Do[struct{ Data []order }](t, m.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-results/%d/misfiled/orders?patient_id=%d", m.k.ResultID, m.other), nil)
		if len(orders.Data) != 1 || orders.Data[0].ID != m.target.ID {
			t.Fatalf("the right patient's orders to refile to: %+v", orders.Data)
		}
		// The right patient's read is audited on them.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'results.list' AND entity_type = 'patient' AND patient_id = $1`, m.other); n != 1 {
			t.Errorf("the refiling's read of the right patient audited %d times", n)
		}
		body := func(v map[string]any) map[string]any {
			out := map[string]any{"version": m.k.Version, "outcome": "refiled", "order_id": m.target.ID, "order_version": m.target.Version}
			for k, x := range v {
				out[k] = x
			}
			return out
		}
		for _, row := range []struct {
			name   string
			patch  map[string]any
			status int
		}{
			{"a stale task", map[string]any{"version": m.k.Version + 1}, http.StatusConflict},
			{"a stale order", map[string]any{"order_version": m.target.Version + 1}, http.StatusConflict},
			{"no order", map[string]any{"order_id": 0}, http.StatusUnprocessableEntity},
			{"the wrong patient again", map[string]any{"order_id": m.bmp.ID, "order_version": m.bmp.Version}, http.StatusUnprocessableEntity},
			{"no such order", map[string]any{"order_id": 999999}, http.StatusNotFound},
		} {
			if r := m.nurse.Do("POST", m.resolvePath(m.k.ResultID), body(row.patch)); r.Status != row.status {
				t.Errorf("%s: %d %s", row.name, r.Status, r.Body)
			}
		}
		if r := m.rec.Do("POST", m.resolvePath(m.k.ResultID), body(nil)); r.Status != http.StatusForbidden {
			t.Errorf("the front desk refiles: %d", r.Status)
		}
		done := apitest.Do[struct {
			RefiledResultID *int64 `json:"refiled_result_id"`
		}](t, m.nurse, http.StatusOK, "POST", m.resolvePath(m.k.ResultID), body(nil))
		if done.RefiledResultID == nil {
			t.Fatal("no refiled row returned")
		}
		if r := m.nurse.Do("POST", m.resolvePath(m.k.ResultID), body(map[string]any{"version": m.k.Version + 1})); r.Status != http.StatusConflict {
			t.Errorf("refiled twice: %d %s", r.Status, r.Body)
		}

		// On the right patient's order: the value as entered, at the sample's time, judged for her.
		var got struct {
			order
			ReportFileID *int64 `json:"report_file_id"`
			Results      []struct {
				ID          int64     `json:"id"`
				Analyte     string    `json:"analyte"`
				Entered     string    `json:"entered"`
				Value       *string   `json:"value"`
				Flag        string    `json:"flag"`
				ObservedAt  time.Time `json:"observed_at"`
				RefiledFrom *int64    `json:"refiled_from"`
				Performer   string    `json:"performer"`
			} `json:"results"`
		}
		m.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", m.target.ID), nil).JSON(t, &got)
		if len(got.Results) != 1 || got.Results[0].ID != *done.RefiledResultID || got.Results[0].Entered != "7.2" || got.Results[0].Flag != "HH" ||
			got.Results[0].RefiledFrom == nil || *got.Results[0].RefiledFrom != m.k.ResultID {
			t.Fatalf("the refiled value: %+v", got.Results)
		}
		if got.Status != "final" || !got.ToReview {
			t.Errorf("the right patient's order after the refiling: %s, to review %v", got.Status, got.ToReview)
		}
		var observed time.Time
		if err := db.QueryRow(`SELECT observed_at FROM lab_results WHERE id = $1`, m.k.ResultID).Scan(&observed); err != nil {
			t.Fatal(err)
		}
		if !got.Results[0].ObservedAt.Equal(observed) {
			t.Errorf("observed at %v, the sample was taken at %v", got.Results[0].ObservedAt, observed)
		}
		// Both directions.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE id = $1 AND refiled_to = $2 AND misfiled_outcome = 'refiled'`,
			m.k.ResultID, *done.RefiledResultID); n != 1 {
			t.Errorf("the withdrawn row does not name where it went")
		}
		// The critical value raises its alert for the right patient's doctor; the misfiled one closes.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE patient_id = $1 AND misfiled = 0 AND is_open = 1`, m.other); n != 1 {
			t.Errorf("the right patient's critical value raised %d alerts", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE result_id = $1 AND misfiled = 1 AND is_open = 0`, m.k.ResultID); n != 1 {
			t.Errorf("the misfiled alert is not closed")
		}
		// The laboratory's report goes with it: the right patient's, linked to her order.
		if got.ReportFileID == nil || *got.ReportFileID != m.file {
			t.Errorf("the report on the right patient's order: %v", got.ReportFileID)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patient_files WHERE id = $1 AND patient_id = $2 AND other_patient_at IS NULL`, m.file, m.other); n != 1 {
			t.Errorf("the report did not move to the right patient")
		}
		for _, a := range []struct {
			action  string
			patient int64
		}{
			{"lab_result.misfiled_resolved", m.patientID},
			{"lab_order.refiled", m.other},
			{"lab_order.report_refiled", m.patientID},
			{"lab_order.report_refiled", m.other},
		} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND patient_id = $2`, a.action, a.patient); n != 1 {
				t.Errorf("%s audited %d times on patient %d", a.action, n, a.patient)
			}
		}
		// Na, refiled second, finds the report moved already and the order's version moved on.
		if r := m.nurse.Do("POST", m.resolvePath(m.na.ResultID), map[string]any{"version": m.na.Version, "outcome": "refiled",
			"order_id": m.target.ID, "order_version": m.target.Version}); r.Status != http.StatusConflict {
			t.Errorf("refiled on an order read before it changed: %d %s", r.Status, r.Body)
		}
		apitest.Do[struct{}](t, m.nurse, http.StatusOK, "POST", m.resolvePath(m.na.ResultID), map[string]any{"version": m.na.Version, "outcome": "refiled",
			"order_id": m.target.ID, "order_version": got.Version})
		if page := misfiledList(t, m.nurse, ""); page.Meta.Total != 0 || len(page.Data) != 0 {
			t.Errorf("resolved values still listed: %+v", page)
		}
		// The value already there refuses a second refiling of the same analyte.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE order_id = $1 AND is_current = 1`, m.target.ID); n != 2 {
			t.Errorf("the right patient's order holds %d values", n)
		}
	})
}

// TestAMisfiledValueIsResolvedOtherwise (C3): a new sample asked for chases the original
// patient's order again; an owner who cannot be identified needs the reason; a resolution
// needs its outcome. Each leaves the list, audited on the patient it was recorded against.
func TestAMisfiledValueIsResolvedOtherwise(t *testing.T) {
	for _, row := range []struct {
		name    string
		body    map[string]any
		status  int
		outcome string
	}{
		{"no outcome", map[string]any{"note": "found the owner"}, http.StatusUnprocessableEntity, ""},
		{"an outcome not known", map[string]any{"outcome": "deleted"}, http.StatusUnprocessableEntity, ""},
		{"unidentified without a reason", map[string]any{"outcome": "unidentified", "note": "no"}, http.StatusUnprocessableEntity, ""},
		{"unidentified", map[string]any{"outcome": "unidentified", "note": "both tubes unlabelled, the laboratory cannot tell"}, http.StatusOK, "unidentified"},
		{"unidentified, in ideographs", map[string]any{"outcome": "unidentified", "note": "无标签"}, http.StatusOK, "unidentified"},
		{"recollect", map[string]any{"outcome": "recollect"}, http.StatusOK, "recollect"},
	} {
		t.Run(row.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				m := newMisfiledClinic(t, db)
				// The original order's chase ended (its doctor said nothing was needed): asking
				// for a new sample chases it again.
				if _, err := db.Exec(`UPDATE lab_orders SET repeat_needed = 0 WHERE id = $1`, m.bmp.ID); err != nil {
					t.Fatal(err)
				}
				body := map[string]any{"version": m.na.Version}
				for k, v := range row.body {
					body[k] = v
				}
				r := m.nurse.Do("POST", m.resolvePath(m.na.ResultID), body)
				if r.Status != row.status {
					t.Fatalf("%d %s", r.Status, r.Body)
				}
				left := misfiledList(t, m.nurse, "")
				if row.status != http.StatusOK {
					if left.Meta.Total != 2 {
						t.Errorf("a refused resolution closed the task: %+v", left)
					}
					return
				}
				if left.Meta.Total != 1 || left.Data[0].ResultID != m.k.ResultID {
					t.Errorf("the list after resolving Na: %+v", left)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE id = $1 AND misfiled_outcome = $2`, m.na.ResultID, row.outcome); n != 1 {
					t.Errorf("the outcome is not kept")
				}
				repeat := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_orders WHERE id = $1 AND repeat_needed = 1`, m.bmp.ID)
				if want := map[bool]int{true: 1, false: 0}[row.outcome == "recollect"]; repeat != want {
					t.Errorf("the original order chased: %d, want %d", repeat, want)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_result.misfiled_resolved' AND patient_id = $1
					AND detail LIKE '%audit.misfiled.`+row.outcome+`%'`, m.patientID); n != 1 {
					t.Errorf("the resolution audited %d times", n)
				}
				// The report stays another patient's document: nobody was found to move it to.
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patient_files WHERE id = $1 AND other_patient_at IS NOT NULL`, m.file); n != 1 {
					t.Errorf("the report left the marked state without a refiling")
				}
			})
		})
	}
}

// TestAnUnresolvedCriticalMisfiledValueEscalates (C2 of the laboratory clinician's review):
// a critical value withdrawn as another patient's raises an alert of its own, open until
// the value is resolved, which the sweep escalates as any alert (covering role, then the
// medical lead); it cannot be acknowledged away. A value not critical raises none.
func TestAnUnresolvedCriticalMisfiledValueEscalates(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		m := newMisfiledClinic(t, db)
		var id int64
		if err := db.QueryRow(`SELECT id FROM critical_alerts WHERE result_id = $1 AND misfiled = 1 AND is_open = 1`, m.k.ResultID).Scan(&id); err != nil {
			t.Fatalf("no misfiled alert for the critical value: %v", err)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE result_id = $1`, m.na.ResultID); n != 0 {
			t.Errorf("a value not critical raised %d alerts", n)
		}
		alerts := apitest.Do[struct {
			Data []struct {
				ID       int64 `json:"id"`
				Misfiled bool  `json:"misfiled"`
			}
		}](t, m.doctor, http.StatusOK, "GET", "/api/results/alerts", nil).Data
		seen := false
		for _, a := range alerts {
			seen = seen || a.ID == id && a.Misfiled
		}
		if !seen {
			t.Errorf("the ordering doctor does not see the misfiled alert: %+v", alerts)
		}
		if r := m.doctor.Do("POST", fmt.Sprintf("/api/results/alerts/%d/acknowledge", id), map[string]any{"contact": "phone", "action": "called",
			"received_by": "system"}); r.Status != http.StatusConflict {
			t.Errorf("a misfiled alert acknowledged: %d %s", r.Status, r.Body)
		}
		escalate(t, db, 31*time.Minute)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE id = $1 AND escalated_at IS NOT NULL`, id); n != 1 {
			t.Fatal("the misfiled alert did not escalate")
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'critical_alert.escalate' AND entity_id = $1 AND detail LIKE 'misfiled%'`,
			fmt.Sprint(id)); n != 1 {
			t.Errorf("the escalation audited %d times as misfiled", n)
		}
		apitest.Do[struct{}](t, m.nurse, http.StatusOK, "POST", m.resolvePath(m.k.ResultID), map[string]any{"version": m.k.Version, "outcome": "recollect"})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE id = $1 AND is_open = 0`, id); n != 1 {
			t.Error("resolving the value left its alert open")
		}
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'critical_alert.escalate' AND entity_id = $1`, fmt.Sprint(id))
		escalate(t, db, 3*time.Hour)
		if after := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'critical_alert.escalate' AND entity_id = $1`, fmt.Sprint(id)); after != before {
			t.Error("a resolved misfiled value still escalates")
		}
	})
}

// TestTheMisfiledListPagesCountsAndIsAudited (m2 of the laboratory clinician's review): the
// list pages at the project's page sizes, says how many wait (and so does its count), and
// its read is audited on each patient it shows; a result withdrawn for another reason is no
// such task.
func TestTheMisfiledListPagesCountsAndIsAudited(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		m := newMisfiledClinic(t, db)
		page := misfiledList(t, m.nurse, "?per_page=10&page=1")
		if page.Meta.Total != 2 || len(page.Data) != 2 || page.Meta.PerPage != 10 || page.Data[0].ResultID != m.k.ResultID {
			t.Errorf("first page: %+v", page)
		}
		if second := misfiledList(t, m.nurse, "?per_page=10&page=2"); second.Meta.Total != 2 || len(second.Data) != 0 {
			t.Errorf("second page: %+v", second)
		}
		if r := m.nurse.Do("GET", "/api/results/misfiled?per_page=7", nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a page size not offered: %d", r.Status)
		}
		count := apitest.Do[struct{ Count int }](t, m.doctor, http.StatusOK, "GET", "/api/results/misfiled/count", nil)
		if count.Count != 2 {
			t.Errorf("count %d", count.Count)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'misfiled_results.list' AND patient_id = $1`, m.patientID); n < 2 {
			t.Errorf("the list's reads audited %d times", n)
		}
		// A transcription error is no misfiled task.
		crea := find(m.order(t, "BMP", "CREA"), "CREA")
		crea = recorded(t, m.clinic, crea, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "88"})
		apitest.Do[order](t, m.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", crea.ID),
			map[string]any{"version": crea.Version, "category": "transcription", "reason": "typed into the wrong field"})
		if got := misfiledList(t, m.nurse, "").Meta.Total; got != 2 {
			t.Errorf("a transcription error listed: %d", got)
		}
	})
}

// TestAMisfiledSampleIsRefiledWholeOnAnOrderThatCanHoldIt (the clinician's review of the
// refiling, 2026-11-29): a refiled value lands only on an order of the right patient placed
// before its sample was taken, with no sample of its own and no value of the analyte — an
// order with its own collected sample would later take the laboratory's real result as a
// "correction" of the refiled one; the orders offered are only those. A wrong-patient
// specimen is whole: once one value went to an order, the rest of the sample goes to that
// order alone. The laboratory's report moves once, marked on the right patient as refiled
// from another patient's record, under a neutral name, and cannot be deleted.
func TestAMisfiledSampleIsRefiledWholeOnAnOrderThatCanHoldIt(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		var spare, collected order
		var third, fourth int64
		m := newMisfiledClinicWith(t, db, func(c *clinic) {
			var orders []order
			third, orders = c.otherPatient(t, "Mai", "1985-03-04", "female", "BMP")
			spare = find(orders, "BMP")
			fourth, orders = c.otherPatient(t, "Hoa", "1975-07-08", "female", "BMP")
			collected = find(orders, "BMP")
			collected = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", collected.ID),
				map[string]any{"version": collected.Version})
		})
		later, orders := m.otherPatient(t, "Thu", "1995-09-10", "female", "BMP")
		placedLater := find(orders, "BMP")

		offered := func(resultID, patientID int64) []int64 {
			t.Helper()
			var ids []int64
			for _, o := range apitest.Do[struct{ Data []order }](t, m.nurse, http.StatusOK, "GET",
				fmt.Sprintf("/api/lab-results/%d/misfiled/orders?patient_id=%d", resultID, patientID), nil).Data {
				ids = append(ids, o.ID)
			}
			return ids
		}
		resolve := func(it misfiledItem, o order) (int, string) {
			t.Helper()
			r := m.nurse.Do("POST", m.resolvePath(it.ResultID), map[string]any{"version": it.Version, "outcome": "refiled",
				"order_id": o.ID, "order_version": o.Version})
			return r.Status, string(r.Body)
		}
		for _, row := range []struct {
			name    string
			patient int64
			order   order
			message string
		}{
			{"an order with a sample of its own", fourth, collected, "sample of its own"},
			{"an order placed after the sample was taken", later, placedLater, "placed after"},
		} {
			if ids := offered(m.k.ResultID, row.patient); len(ids) != 0 {
				t.Errorf("%s offered: %v", row.name, ids)
			}
			if status, body := resolve(m.k, row.order); status != http.StatusUnprocessableEntity || !strings.Contains(body, row.message) {
				t.Errorf("%s: %d %s", row.name, status, body)
			}
		}
		if ids := offered(m.k.ResultID, third); len(ids) != 1 || ids[0] != spare.ID {
			t.Errorf("the order that can hold the sample is not offered: %v", ids)
		}
		if status, body := resolve(m.k, m.target); status != http.StatusOK {
			t.Fatalf("refile K: %d %s", status, body)
		}
		// The rest of the sample goes where K went, and nowhere else.
		if ids := offered(m.na.ResultID, third); len(ids) != 0 {
			t.Errorf("another patient offered for the rest of the sample: %v", ids)
		}
		if status, body := resolve(m.na, spare); status != http.StatusUnprocessableEntity || !strings.Contains(body, "same order") {
			t.Errorf("the sample split between patients: %d %s", status, body)
		}
		target := apitest.Do[order](t, m.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", m.target.ID), nil)
		if ids := offered(m.na.ResultID, m.other); len(ids) != 1 || ids[0] != m.target.ID {
			t.Errorf("the order holding the sample is not offered for the rest of it: %v", ids)
		}
		if status, body := resolve(m.na, target); status != http.StatusOK {
			t.Fatalf("refile Na with the rest of its sample: %d %s", status, body)
		}
		// The report moved once, marked as refiled from another patient's record, named neutrally.
		files := apitest.Do[struct {
			Data []struct {
				ID      int64  `json:"id"`
				Name    string `json:"name"`
				Refiled bool   `json:"refiled"`
			}
		}](t, m.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/patients/%d/files", m.other), nil).Data
		if len(files) != 1 || files[0].ID != m.file || !files[0].Refiled || files[0].Name != fmt.Sprintf("lab-report-%d.pdf", m.file) {
			t.Errorf("the right patient's files: %+v", files)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patient_files WHERE id = $1 AND name_before_refiling = 'lab.pdf' AND refiled_at IS NOT NULL`, m.file); n != 1 {
			t.Errorf("the report's first name is not kept")
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_order.report_refiled'`); n != 2 {
			t.Errorf("the report's move audited %d times, want once on each patient", n)
		}
		if r := m.rec.Do("DELETE", fmt.Sprintf("/api/patients/%d/files/%d", m.other, m.file), nil); r.Status != http.StatusNotFound {
			t.Errorf("a refiled report deleted: %d %s", r.Status, r.Body)
		}
	})
}
