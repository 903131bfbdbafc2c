package result_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type result struct {
	ID          int64   `json:"id"`
	Analyte     string  `json:"analyte"`
	Label       string  `json:"label"`
	Entered     string  `json:"entered"`
	EnteredUnit string  `json:"entered_unit"`
	Value       *string `json:"value"`
	Comparator  string  `json:"comparator"`
	Unit        string  `json:"unit"`
	Answer      string  `json:"answer"`
	Flag        string  `json:"flag"`
	Delta       string  `json:"delta"`
	Status      string  `json:"status"`
	Current     bool    `json:"current"`
	Range       struct {
		Low, High *string
		Source    string
		Note      string `json:"note"`
	} `json:"range"`
}

type order struct {
	ID          int64    `json:"id"`
	Test        string   `json:"test"`
	TestLabel   string   `json:"test_label"`
	Status      string   `json:"status"`
	Reason      string   `json:"reason"`
	Note        string   `json:"note"`
	ToReview    bool     `json:"to_review"`
	Attention   int      `json:"attention"`
	Corrections int      `json:"corrections"`
	Version     int      `json:"version"`
	Results     []result `json:"results"`
	Replaced    []result `json:"replaced"`
	Events      []struct {
		Status, Reason, ByName string
	} `json:"events"`
}

type list struct {
	Data []order `json:"data"`
}

// clinic is a running server with a doctor, a nurse and a receptionist, the starter
// catalogue, and a male patient born in 1980 whose visit is in progress.
type clinic struct {
	env                 *apitest.Env
	doctor, nurse, rec  *apitest.Client
	admin               *apitest.Client
	doctorID, patientID int64
	visitID             int64
	visitVersion        int
	visitPath           string
	visitDay            string // the visit's day in the clinic's zone (UTC): tomorrow when begun within the day's last hour
}

func newClinic(t *testing.T, db *database.DB) *clinic {
	t.Helper()
	if err := catalogue.InstallStarter(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	env := apitest.New(t, db)
	c := &clinic{env: env}
	c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	c.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	c.rec = env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
	c.doctorID = env.UserID("doc")
	var p struct{ ID int64 }
	c.rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Nguyễn", "birth_date": "1980-01-02", "sex": "male"}).JSON(t, &p)
	c.patientID = p.ID
	var a struct{ ID int64 }
	at := time.Now().UTC().Add(time.Hour).Truncate(time.Minute)
	starts := at.Format(time.RFC3339)
	c.visitDay = at.Format(time.DateOnly)
	r := c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.doctorID,
		"starts_at": starts, "duration_minutes": 15, "type": "new", "reason": "Tired"})
	r.JSON(t, &a)
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	c.visitID = a.ID
	c.visitPath = fmt.Sprintf("/api/appointments/%d/visit", a.ID)
	c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
	c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
	return c
}

// order saves the visit's form with tests ordered, and returns the visit's orders.
func (c *clinic) order(t *testing.T, tests ...string) []order {
	t.Helper()
	var orders []map[string]any
	for _, code := range tests {
		orders = append(orders, map[string]any{"code": code, "note": ""})
	}
	r := c.doctor.Do("PUT", c.visitPath, map[string]any{"version": c.visitVersion, "chief_complaint": "Tired", "orders": orders,
		"vitals": map[string]any{"bp_systolic": 120, "bp_diastolic": 80, "weight": 70, "height": 175}})
	if r.Status != http.StatusOK {
		t.Fatalf("save visit: %d %s", r.Status, r.Body)
	}
	c.visitVersion++
	return c.orders(t)
}

func (c *clinic) orders(t *testing.T) []order {
	t.Helper()
	var l list
	r := c.nurse.Do("GET", fmt.Sprintf("/api/appointments/%d/orders", c.visitID), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("orders: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &l)
	return l.Data
}

func record(who *apitest.Client, o order, final bool, results ...map[string]any) apitest.Response {
	return who.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": o.Version, "final": final, "results": results})
}

func find(orders []order, test string) order {
	for _, o := range orders {
		if o.Test == test && o.Status != "cancelled" {
			return o
		}
	}
	return order{}
}

func TestOrderLoop(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		orders := c.order(t, "BMP", "HBSAG", "XR-CHEST")
		if len(orders) != 3 || orders[0].Status != "ordered" || orders[0].TestLabel == "" {
			t.Fatalf("orders from the visit: %+v", orders)
		}
		// Taking a test off the form before anything happened cancels it; saving again keeps the rest.
		orders = c.order(t, "BMP", "HBSAG")
		if xr := find(orders, "XR-CHEST"); xr.ID != 0 {
			t.Fatalf("XR-CHEST not cancelled: %+v", orders)
		}
		if len(orders) != 3 || orders[2].Status != "cancelled" || orders[2].Reason == "" {
			t.Fatalf("cancelled order kept with its reason: %+v", orders)
		}
		bmp, hbs := find(orders, "BMP"), find(orders, "HBSAG")

		// Collect, then a preliminary glucose in mg/dL: stored as typed and in mmol/L
		// (TestResultRules: who may, and what is refused).
		r := c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", bmp.ID), map[string]any{"version": bmp.Version})
		var d order
		r.JSON(t, &d)
		if r.Status != http.StatusOK || d.Status != "collected" {
			t.Fatalf("collect: %d %s", r.Status, r.Body)
		}
		var rec struct {
			Order  order `json:"order"`
			Alerts int   `json:"alerts"`
		}
		r = record(c.nurse, d, false, map[string]any{"analyte": "GLU", "value": "126", "unit": "mg/dL"})
		r.JSON(t, &rec)
		if r.Status != http.StatusOK || rec.Order.Status != "preliminary" || len(rec.Order.Results) != 1 {
			t.Fatalf("preliminary: %d %s", r.Status, r.Body)
		}
		glu := rec.Order.Results[0]
		if *glu.Value != "7.0" || glu.Unit != "mmol/L" || glu.Entered != "126" || glu.EnteredUnit != "mg/dL" || glu.Flag != "N" {
			t.Fatalf("glucose: %+v", glu)
		}

		// The final result: a critical potassium raises an alert for the ordering doctor.
		r = record(c.nurse, rec.Order, true, map[string]any{"analyte": "GLU", "value": "126", "unit": "mg/dL"},
			map[string]any{"analyte": "K", "unit": "mmol/L", "value": "6.8"}, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "90"})
		r.JSON(t, &rec)
		if r.Status != http.StatusOK || rec.Order.Status != "final" || !rec.Order.ToReview || rec.Alerts != 1 || rec.Order.Attention != 2 {
			t.Fatalf("final: %d %s", r.Status, r.Body)
		}
		var alerts struct {
			Data []struct {
				ID     int64  `json:"id"`
				Result result `json:"result"`
				Open   bool   `json:"open"`
			} `json:"data"`
		}
		c.doctor.Do("GET", "/api/results/alerts", nil).JSON(t, &alerts)
		if len(alerts.Data) != 1 || alerts.Data[0].Result.Flag != "HH" || alerts.Data[0].Result.Analyte != "K" {
			t.Fatalf("doctor's alerts: %+v", alerts)
		}
		// Acknowledged with how the patient was reached, what was done and the read-back.
		ack := fmt.Sprintf("/api/results/alerts/%d/acknowledge", alerts.Data[0].ID)
		if r := c.doctor.Do("POST", ack, map[string]any{"contact": "phone", "action": "Sent to emergency", "received_by": "telephone", "read_back": "K 6.8 read back"}); r.Status != http.StatusNoContent {
			t.Fatalf("acknowledge: %d %s", r.Status, r.Body)
		}
		c.doctor.Do("GET", "/api/results/alerts", nil).JSON(t, &alerts)
		if len(alerts.Data) != 0 {
			t.Fatalf("alert still open: %+v", alerts)
		}
		var report struct {
			Data []struct {
				Contact              string `json:"contact"`
				MinutesToAcknowledge *int   `json:"minutes_to_acknowledge"`
			} `json:"data"`
		}
		c.doctor.Do("GET", "/api/results/alerts/report", nil).JSON(t, &report)
		if len(report.Data) != 1 || report.Data[0].Contact != "phone" || report.Data[0].MinutesToAcknowledge == nil {
			t.Fatalf("report: %+v", report)
		}

		// The review queue: critical first; a review clears it.
		var queue list
		c.doctor.Do("GET", "/api/results/review", nil).JSON(t, &queue)
		if len(queue.Data) != 1 || queue.Data[0].ID != bmp.ID {
			t.Fatalf("queue: %+v", queue)
		}
		var waiting struct{ Count int }
		c.doctor.Do("GET", "/api/results/review/count", nil).JSON(t, &waiting)
		if waiting.Count != 1 {
			t.Fatalf("the dashboard's count: %+v", waiting)
		}
		if r := c.doctor.Do("POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": bmp.ID, "version": queue.Data[0].Version}}, "comment": "Repeat K tomorrow"}); r.Status != http.StatusOK {
			t.Fatalf("review: %d %s", r.Status, r.Body)
		}
		c.doctor.Do("GET", "/api/results/review", nil).JSON(t, &queue)
		if len(queue.Data) != 0 {
			t.Fatalf("queue after review: %+v", queue)
		}
		// A correction (with its reason) keeps the original and goes back to the review queue.
		r = c.doctor.Do("GET", fmt.Sprintf("/api/lab-orders/%d", bmp.ID), nil)
		r.JSON(t, &d)
		r = c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", bmp.ID), map[string]any{"version": d.Version, "final": true,
			"reason": "Haemolysed sample, repeated", "results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": "4.4"}}})
		r.JSON(t, &rec)
		if r.Status != http.StatusOK || rec.Order.Status != "final" || !rec.Order.ToReview || rec.Order.Corrections != 1 || rec.Alerts != 0 {
			t.Fatalf("correction: %d %s", r.Status, r.Body)
		}
		if len(rec.Order.Replaced) != 2 || rec.Order.Replaced[1].Analyte != "K" || *rec.Order.Replaced[1].Value != "6.8" {
			t.Fatalf("the corrected original stays: %+v", rec.Order.Replaced)
		}
		var k result
		for _, x := range rec.Order.Results {
			if x.Analyte == "K" {
				k = x
			}
		}
		if k.Status != "corrected" || k.Flag != "N" || *k.Value != "4.4" {
			t.Fatalf("corrected K: %+v", k)
		}
		if rec.Order.Attention != 0 {
			t.Fatalf("attention after correction: %d", rec.Order.Attention)
		}

		// A coded answer: a reactive screen is abnormal (it needs confirmatory testing).
		r = record(c.nurse, hbs, true, map[string]any{"analyte": "HBSAG", "answer": "reactive"})
		r.JSON(t, &rec)
		if r.Status != http.StatusOK || rec.Order.Results[0].Flag != "A" || rec.Order.Attention != 1 {
			t.Fatalf("coded: %d %s", r.Status, r.Body)
		}
		// The test cannot be taken off the visit once resulted.
		r = c.doctor.Do("PUT", c.visitPath, map[string]any{"version": c.visitVersion, "chief_complaint": "Tired", "orders": []map[string]any{{"code": "BMP"}}})
		if r.Status != http.StatusConflict {
			t.Fatalf("removing a resulted test: %d %s", r.Status, r.Body)
		}
		// The trend of potassium reads the corrected value.
		var trend struct {
			Points []struct {
				Value *string `json:"value"`
				Flag  string  `json:"flag"`
			} `json:"points"`
			Band *struct{ Low, High *float64 } `json:"band"`
		}
		r = c.doctor.Do("GET", fmt.Sprintf("/api/patients/%d/trend?analyte=K", c.patientID), nil)
		r.JSON(t, &trend)
		if r.Status != http.StatusOK || len(trend.Points) != 1 || *trend.Points[0].Value != "4.4" || trend.Band == nil || *trend.Band.Low != 3.5 {
			t.Fatalf("trend: %d %s", r.Status, r.Body)
		}
		// The lab's own report, attached to the order: a PDF by its bytes; a stale version or
		// a text file is refused and stores nothing.
		var hb struct {
			Version      int    `json:"version"`
			ReportFileID *int64 `json:"report_file_id"`
		}
		c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", hbs.ID), nil).JSON(t, &hb)
		pdf := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
		if r := c.nurse.Upload("POST", fmt.Sprintf("/api/lab-orders/%d/report?version=%d", hbs.ID, hb.Version-1), "lab.pdf", pdf); r.Status != http.StatusConflict {
			t.Fatalf("stale report: %d %s", r.Status, r.Body)
		}
		if r := c.nurse.Upload("POST", fmt.Sprintf("/api/lab-orders/%d/report?version=%d", hbs.ID, hb.Version), "lab.txt", []byte("plain text")); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("text report: %d %s", r.Status, r.Body)
		}
		r = c.nurse.Upload("POST", fmt.Sprintf("/api/lab-orders/%d/report?version=%d", hbs.ID, hb.Version), "lab.pdf", pdf)
		r.JSON(t, &hb)
		if r.Status != http.StatusOK || hb.ReportFileID == nil {
			t.Fatalf("report: %d %s", r.Status, r.Body)
		}
		var files struct{ Data []struct{ ID int64 } }
		c.nurse.Do("GET", fmt.Sprintf("/api/patients/%d/files", c.patientID), nil).JSON(t, &files)
		if len(files.Data) != 1 || files.Data[0].ID != *hb.ReportFileID {
			t.Fatalf("the report is among the patient's attachments, once: %+v", files)
		}

		// The vitals trend: one visit measured.
		var vitals struct {
			Data []struct {
				BMI *float64 `json:"bmi"`
			} `json:"data"`
		}
		r = c.nurse.Do("GET", fmt.Sprintf("/api/patients/%d/vitals", c.patientID), nil)
		r.JSON(t, &vitals)
		if r.Status != http.StatusOK || len(vitals.Data) != 1 || vitals.Data[0].BMI == nil || *vitals.Data[0].BMI != 22.9 {
			t.Fatalf("vitals: %d %s", r.Status, r.Body)
		}
	})
}

// TestRangesByPatient: the same haemoglobin is normal for a woman and low for a man; the
// lab's printed range replaces the catalogue's, visibly; a big change since the last
// creatinine is flagged even inside the range; a decimal comma is read in Russian.
func TestRangesByPatient(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		cbc := find(c.order(t, "CBC", "CREA"), "CBC")
		var rec struct {
			Order order `json:"order"`
		}
		c.nurse.SetCookie("language", "ru")
		r := record(c.nurse, cbc, true, map[string]any{"analyte": "HGB", "value": "12,5", "unit": "g/dL"},
			map[string]any{"analyte": "PLT", "unit": "10*9/L", "value": "250", "lab_low": "100", "lab_high": "300"})
		r.JSON(t, &rec)
		c.nurse.SetCookie("language", "en")
		if r.Status != http.StatusOK {
			t.Fatalf("record in Russian: %d %s", r.Status, r.Body)
		}
		for _, x := range rec.Order.Results {
			switch x.Analyte {
			case "HGB":
				if *x.Value != "125" || x.Flag != "L" || x.Range.Source != "catalogue" {
					t.Errorf("a man's Hb 12.5 g/dL: %+v", x)
				}
			case "PLT":
				if x.Range.Source != "lab" || *x.Range.Low != "100" || x.Flag != "N" {
					t.Errorf("lab range: %+v", x)
				}
			}
		}
		crea := find(c.orders(t), "CREA")
		record(c.nurse, crea, true, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "60"})

		// A second visit: creatinine +50 % inside the range is flagged for attention.
		var a struct{ ID int64 }
		starts := time.Now().UTC().Add(3 * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
		c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.doctorID,
			"starts_at": starts, "duration_minutes": 15, "type": "follow-up", "reason": "Review"}).JSON(t, &a)
		c.visitID, c.visitPath, c.visitVersion = a.ID, fmt.Sprintf("/api/appointments/%d/visit", a.ID), 0
		c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
		c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
		crea = find(c.order(t, "CREA"), "CREA")
		r = record(c.nurse, crea, true, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "95"})
		r.JSON(t, &rec)
		if x := rec.Order.Results[0]; x.Flag != "N" || x.Delta != "U" || rec.Order.Attention != 1 {
			t.Fatalf("delta: %+v attention %d", x, rec.Order.Attention)
		}

		// The woman's Hb 12.5 g/dL is normal.
		var p struct{ ID int64 }
		c.rec.Do("POST", "/api/patients", map[string]any{"first_name": "Lan", "last_name": "Trần", "birth_date": "1995-05-05", "sex": "female"}).JSON(t, &p)
		starts = time.Now().UTC().Add(5 * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
		c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": c.doctorID,
			"starts_at": starts, "duration_minutes": 15, "type": "new", "reason": "Tired"}).JSON(t, &a)
		c.visitID, c.visitPath, c.visitVersion = a.ID, fmt.Sprintf("/api/appointments/%d/visit", a.ID), 0
		c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
		c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
		cbc = find(c.order(t, "CBC"), "CBC")
		r = record(c.nurse, cbc, true, map[string]any{"analyte": "HGB", "value": "12.5", "unit": "g/dL"})
		r.JSON(t, &rec)
		if x := rec.Order.Results[0]; x.Flag != "N" {
			t.Fatalf("a woman's Hb 12.5 g/dL: %+v", x)
		}
	})
}

// TestTwoNursesRecordTheSameOrder: both read the order and record at once; one wins, the
// other is told the order changed, and the winner's result is the one stored — nothing is
// half-written and nothing is lost.
func TestTwoNursesRecordTheSameOrder(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		nurse2 := c.env.LoggedIn("nurse2", c.env.CreateUser("nurse2", "nurse"))
		elec := find(c.order(t, "ELEC"), "ELEC")
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		values := []string{"4.0", "4.6"}
		for i, who := range []*apitest.Client{c.nurse, nurse2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = record(who, elec, true, map[string]any{"analyte": "K", "unit": "mmol/L", "value": values[i]}).Status
			}()
		}
		wg.Wait()
		won := -1
		for i, s := range statuses {
			switch s {
			case http.StatusOK:
				won = i
			case http.StatusConflict:
			default:
				t.Fatalf("statuses %v", statuses)
			}
		}
		if won < 0 || statuses[0] == statuses[1] {
			t.Fatalf("statuses %v: exactly one should win", statuses)
		}
		o := find(c.orders(t), "ELEC")
		if len(o.Results) != 1 || *o.Results[0].Value != values[won] || o.Version != elec.Version+1 {
			t.Fatalf("stored: %+v (winner %d)", o, won)
		}
	})
}
