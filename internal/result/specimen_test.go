package result_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// drawn is an order as its page reads it, with the visit's other orders collected.
type drawn struct {
	order
	SameDraw []order `json:"same_draw"`
}

// recorded records results on order o (final) and answers the order as recorded.
func recorded(t *testing.T, c *clinic, o order, results ...map[string]any) order {
	t.Helper()
	var rec struct {
		Order order `json:"order"`
	}
	r := record(c.nurse, o, true, results...)
	if r.Status != http.StatusOK {
		t.Fatalf("record %s: %d %s", o.Test, r.Status, r.Body)
	}
	r.JSON(t, &rec)
	return rec.Order
}

// TestAnotherPatientsSampleIsTheWholeSpecimen (C1 of the laboratory clinician's review,
// 2026-11-29; CLSI GP33): misidentification is a property of the specimen. One analyte cannot
// be retracted as another patient's, the rest of the report left standing; the whole report
// is, and the order's page offers the visit's other collected orders, withdrawn in the same
// action with the same category and reason when chosen. Every withdrawn value goes on the
// misfiled list; an order of another visit cannot be withdrawn so.
func TestAnotherPatientsSampleIsTheWholeSpecimen(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		orders := c.order(t, "BMP", "CREA")
		bmp, crea := find(orders, "BMP"), find(orders, "CREA")
		for _, o := range []*order{&bmp, &crea} {
			*o = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		}
		bmp = recorded(t, c, bmp, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "7.2"}, map[string]any{"analyte": "NA", "unit": "mmol/L", "value": "128"},
			map[string]any{"analyte": "GLU", "unit": "mmol/L", "value": "2.5"})
		crea = recorded(t, c, crea, map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "300"})
		var k int64
		for _, r := range bmp.Results {
			if r.Analyte == "K" {
				k = r.ID
			}
		}
		page := apitest.Do[drawn](t, c.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", bmp.ID), nil)
		if len(page.SameDraw) != 1 || page.SameDraw[0].ID != crea.ID || len(page.SameDraw[0].Results) != 1 {
			t.Fatalf("the visit's other collected order is not offered: %+v", page.SameDraw)
		}

		path := fmt.Sprintf("/api/lab-orders/%d/retract", bmp.ID)
		for _, row := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"one analyte as another patient's", map[string]any{"version": bmp.Version, "result_id": k, "category": "wrong_patient",
				"reason": "label swapped at the desk"}, http.StatusUnprocessableEntity},
			{"one analyte with the draw's orders", map[string]any{"version": bmp.Version, "result_id": k, "category": "transcription",
				"reason": "typed on the wrong order", "same_draw": []map[string]any{{"id": crea.ID, "version": crea.Version}}}, http.StatusUnprocessableEntity},
			{"an order not of the draw", map[string]any{"version": bmp.Version, "category": "wrong_patient", "reason": "label swapped at the desk",
				"same_draw": []map[string]any{{"id": bmp.ID, "version": bmp.Version}}}, http.StatusUnprocessableEntity},
			{"a stale version of the draw's order", map[string]any{"version": bmp.Version, "category": "wrong_patient", "reason": "label swapped at the desk",
				"same_draw": []map[string]any{{"id": crea.ID, "version": crea.Version - 1}}}, http.StatusConflict},
		} {
			r := c.nurse.Do("POST", path, row.body)
			if r.Status != row.want {
				t.Errorf("%s: %d %s", row.name, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE patient_id = $1 AND is_current = 1`, c.patientID); n != 4 {
			t.Fatalf("a refused retraction withdrew something: %d current", n)
		}
		// The message says what to do, in the user's language.
		r := c.nurse.Do("POST", path, map[string]any{"version": bmp.Version, "result_id": k, "category": "wrong_patient", "reason": "label swapped at the desk"})
		if want := "every result of this report"; !strings.Contains(string(r.Body), want) {
			t.Errorf("the refusal does not say to withdraw the whole report: %s", r.Body)
		}

		// The whole report and the draw's other order: nothing of the specimen left on this
		// patient, each value on the misfiled list, each order's history and audit.
		d := apitest.Do[drawn](t, c.nurse, http.StatusOK, "POST", path, map[string]any{"version": bmp.Version, "category": "wrong_patient",
			"reason": "label swapped at the desk", "same_draw": []map[string]any{{"id": crea.ID, "version": crea.Version}}})
		if len(d.Results) != 0 || d.Status != "ordered" {
			t.Errorf("the report: %+v", d.order)
		}
		after := apitest.Do[order](t, c.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", crea.ID), nil)
		if len(after.Results) != 0 || after.Status != "ordered" || after.Events[len(after.Events)-1].Reason != "label swapped at the desk" {
			t.Errorf("the draw's other order: %+v", after)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE patient_id = $1 AND is_current = 1`, c.patientID); n != 0 {
			t.Errorf("%d values of another patient's sample still stand", n)
		}
		misfiled := apitest.Do[struct {
			Data []struct {
				OrderID int64 `json:"order_id"`
			}
		}](t, c.nurse, http.StatusOK, "GET", "/api/results/misfiled", nil).Data
		if len(misfiled) != 4 {
			t.Errorf("misfiled: %+v", misfiled)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_order.entered_in_error' AND patient_id = $1`, c.patientID); n != 2 {
			t.Errorf("audited %d times", n)
		}
		// M6: the overdue list says a new sample is needed, and why, for both orders.
		overdue := apitest.Do[struct {
			Data []struct {
				ID       int64  `json:"id"`
				Repeat   bool   `json:"repeat_needed"`
				Category string `json:"repeat_category"`
			}
		}](t, c.nurse, http.StatusOK, "GET", "/api/lab-orders/overdue", nil).Data
		chased := map[int64]string{}
		for _, o := range overdue {
			if o.Repeat {
				chased[o.ID] = o.Category
			}
		}
		if len(chased) != 2 || chased[bmp.ID] != "wrong_patient" || chased[crea.ID] != "wrong_patient" {
			t.Errorf("the overdue list after a wrong patient's sample: %+v", overdue)
		}
	})
}

// TestACriticalMisfiledValueRanksFirst (C2 of the laboratory clinician's review, 2026-11-29;
// CLSI GP47): a critical value filed to the wrong patient belongs to someone who may be in
// danger: the misfiled list marks it critical and ranks it before older, unremarkable ones.
func TestACriticalMisfiledValueRanksFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		withdraw := func(o order) {
			t.Helper()
			apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", o.ID),
				map[string]any{"version": o.Version, "category": "wrong_patient", "reason": "label swapped at the desk"})
		}
		withdraw(recorded(t, c, find(c.order(t, "CREA"), "CREA"), map[string]any{"analyte": "CREA", "unit": "umol/L", "value": "88"}))
		withdraw(recorded(t, c, find(c.order(t, "CREA", "ELEC"), "ELEC"), map[string]any{"analyte": "K", "unit": "mmol/L", "value": "7.2"},
			map[string]any{"analyte": "NA", "unit": "mmol/L", "value": "140"}, map[string]any{"analyte": "CL", "unit": "mmol/L", "value": "100"}))
		type misfiled struct {
			Critical bool `json:"critical"`
			Result   struct{ Analyte string }
		}
		got := apitest.Do[struct{ Data []misfiled }](t, c.nurse, http.StatusOK, "GET", "/api/results/misfiled", nil).Data
		want := []misfiled{{true, struct{ Analyte string }{"K"}}, {false, struct{ Analyte string }{"CREA"}}, {false, struct{ Analyte string }{"NA"}},
			{false, struct{ Analyte string }{"CL"}}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("the misfiled list: %+v, want %+v", got, want)
		}
	})
}
