package result_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// The cashier's review of 2026-11-29: marking a line as a test's charge, and withdrawn orders.

type dayList struct {
	Data []struct {
		OrderID int64  `json:"order_id"`
		Test    string `json:"test"`
		Problem string `json:"problem"`
	} `json:"data"`
}

type lineOut struct {
	ID         int64  `json:"id"`
	Code       string `json:"code"`
	Amount     int64  `json:"amount"`
	LabOrderID *int64 `json:"lab_order_id"`
	ByOrder    bool   `json:"by_order"`
}

type billLines struct {
	ID      int64     `json:"id"`
	Version int       `json:"version"`
	Status  string    `json:"status"`
	Total   int64     `json:"total"`
	Lines   []lineOut `json:"lines"`
}

func (c *clinic) writtenOut(t *testing.T, text string, price int) billLines {
	t.Helper()
	return apitest.Do[billLines](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", c.visitID),
		map[string]any{"description": text, "quantity": 1, "unit_price": price})
}

func (c *clinic) mark(t *testing.T, b billLines, line, order int64) apitest.Response {
	t.Helper()
	var cur struct {
		Version int `json:"version"`
	}
	c.rec.Do("GET", fmt.Sprintf("/api/bills/%d", b.ID), nil).JSON(t, &cur)
	return c.rec.Do("POST", fmt.Sprintf("/api/bills/%d/lines/%d/order", b.ID, line), map[string]any{"order_id": order, "version": cur.Version})
}

// C1 (case A): withdrawing an order takes off only the line the order put on the bill; a line
// the desk marked by hand as its charge (here a consultation written out, picked by mistake)
// stays on the bill, unmarked. A line of another price-list service cannot be marked at all.
func TestWithdrawnOrderLeavesAHandMarkedLine(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		cons := apitest.Do[struct{ ID int64 }](t, c.admin, http.StatusCreated, "POST", "/api/services",
			map[string]any{"code": "CONS-X", "name": "Consultation", "category": "consultation", "price": 150000}).ID
		orders := c.order(t, "CRP", "CBC")
		crp, cbc := find(orders, "CRP"), find(orders, "CBC")
		b := c.writtenOut(t, "Consultation", 200000)
		written := b.Lines[len(b.Lines)-1].ID
		b = apitest.Do[billLines](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": cons, "quantity": 1})
		consLine := b.Lines[len(b.Lines)-1].ID
		if r := c.mark(t, b, consLine, crp.ID); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a consultation service's line marked as CRP's charge: %d %s", r.Status, r.Body)
		}
		if r := c.mark(t, b, written, crp.ID); r.Status != http.StatusOK {
			t.Fatalf("mark the written-out line: %d %s", r.Status, r.Body)
		}
		before := apitest.Do[billLines](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		c.order(t, "CBC") // CRP taken off the form before collection
		after := apitest.Do[billLines](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if after.Total != before.Total || len(after.Lines) != len(before.Lines) {
			t.Fatalf("withdrawing CRP changed the bill: %d (%d lines) → %d (%d lines)", before.Total, len(before.Lines), after.Total, len(after.Lines))
		}
		for _, l := range after.Lines {
			if l.ID == written && l.LabOrderID != nil {
				t.Fatalf("the written-out line still charges the withdrawn CRP: %+v", l)
			}
		}
		// CBC's own line goes with CBC.
		var cbcLine *lineOut
		for i, l := range after.Lines {
			if l.LabOrderID != nil && *l.LabOrderID == cbc.ID {
				cbcLine = &after.Lines[i]
			}
		}
		if cbcLine == nil || !cbcLine.ByOrder {
			t.Fatalf("CBC's line is not the order's own: %+v", after.Lines)
		}
		if r := c.doctor.Do("PUT", c.visitPath, map[string]any{"version": c.visitVersion, "chief_complaint": "Tired", "orders": []any{},
			"vitals": map[string]any{"bp_systolic": 120, "bp_diastolic": 80, "weight": 70, "height": 175}}); r.Status != http.StatusOK {
			t.Fatalf("save visit: %d %s", r.Status, r.Body)
		}
		c.visitVersion++
		gone := apitest.Do[billLines](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if gone.Total != after.Total-90000 || len(gone.Lines) != len(after.Lines)-1 {
			t.Fatalf("CBC withdrawn: total %d lines %d, want %d and %d", gone.Total, len(gone.Lines), after.Total-90000, len(after.Lines)-1)
		}
	})
}

// M1 (case B) and the refusals of a mark: a line refunded in full, or at price 0, charges
// nothing and cannot be a test's charge; a void bill takes no mark (409). M2 (case C): a
// cancelled order's line refunded in full is settled: off the desk's day list, shown as
// charging nothing, and a second refund is refused.
func TestMarksAndRefundedLines(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		orders := c.order(t, "CRP", "CBC")
		crp := find(orders, "CRP")
		c.writtenOut(t, "Free leaflet", 0)
		b := c.writtenOut(t, "Dressing", 30000)
		var dressing, leaflet, cbcLine int64
		for _, l := range b.Lines {
			switch {
			case l.LabOrderID != nil:
				cbcLine = l.ID
			case l.Amount == 0:
				leaflet = l.ID
			default:
				dressing = l.ID
			}
		}
		if r := c.mark(t, b, leaflet, crp.ID); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a price-0 line marked: %d %s", r.Status, r.Body)
		}
		b = apitest.Do[billLines](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[map[string]any](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 0})
		apitest.Do[map[string]any](t, c.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID),
			map[string]any{"method": "cash", "amount": 30000, "reason": "dressing not given", "line_id": dressing})
		if r := c.mark(t, b, dressing, crp.ID); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a refunded line marked as CRP's charge: %d %s", r.Status, r.Body)
		}
		oc := apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		if oc.Ordered != 2 || oc.Charged != 1 {
			t.Fatalf("ordered %d charged %d, want 2 and 1", oc.Ordered, oc.Charged)
		}
		// CBC cancelled after the final bill, refunded against its line: settled.
		cbc := find(c.orders(t), "CBC")
		apitest.Do[order](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/cancel", cbc.ID), map[string]any{"version": cbc.Version, "reason": "Patient declined"})
		list := apitest.Do[dayList](t, c.rec, http.StatusOK, "GET", "/api/bill-orders?day="+c.visitDay, nil)
		if len(list.Data) != 2 || !hasProblem(list, cbc.ID, "cancelled_charged") {
			t.Fatalf("before the refund the day list should hold CRP and CBC cancelled-charged: %+v", list.Data)
		}
		apitest.Do[map[string]any](t, c.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID),
			map[string]any{"method": "cash", "amount": 90000, "reason": "CBC cancelled", "line_id": cbcLine})
		list = apitest.Do[dayList](t, c.rec, http.StatusOK, "GET", "/api/bill-orders?day="+c.visitDay, nil)
		if hasProblem(list, cbc.ID, "cancelled_charged") {
			t.Fatalf("CBC refunded still listed cancelled and charged: %+v", list.Data)
		}
		oc = apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		for _, o := range oc.Orders {
			if o.OrderID == cbc.ID && !o.ZeroPrice {
				t.Fatalf("CBC's refunded line reads as charging: %+v", o)
			}
		}
		if r := c.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": 90000, "reason": "again", "line_id": cbcLine}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("second refund of CBC: %d %s", r.Status, r.Body)
		}
		// A void bill takes no mark.
		b2 := apitest.Do[billLines](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		apitest.Do[billLines](t, c.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"version": b2.Version, "reason": "wrong patient"})
		if r := c.mark(t, b, leaflet, crp.ID); r.Status != http.StatusConflict {
			t.Fatalf("a mark on a void bill: %d %s", r.Status, r.Body)
		}
	})
}

func hasProblem(l dayList, order int64, problem string) bool {
	for _, o := range l.Data {
		if o.OrderID == order && o.Problem == problem {
			return true
		}
	}
	return false
}

// C2, M2 (case E): a test whose specimen was taken, then not done, keeps its charge (ADR 41
// item 3) through void-and-replace, and is never listed as "cancelled, still charged".
func TestCollectedThenNotDoneKeepsItsChargeThroughReplace(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		cbc := find(c.order(t, "CBC"), "CBC")
		b := c.writtenOut(t, "Consultation", 200000)
		cbc = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", cbc.ID), map[string]any{"version": cbc.Version})
		apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", cbc.ID), map[string]any{"version": cbc.Version, "reason": "Haemolysed, patient left"})
		b = apitest.Do[billLines](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if b.Total != 290000 {
			t.Fatalf("draft after not done (collected): %d, want 290000", b.Total)
		}
		b = apitest.Do[billLines](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		repl := apitest.Do[billLines](t, c.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"version": b.Version, "reason": "wrong discount", "replace": true})
		if repl.Total != 290000 || len(repl.Lines) != 2 {
			t.Fatalf("replacement: %d with %d lines, want 290000 with 2", repl.Total, len(repl.Lines))
		}
		oc := apitest.Do[struct {
			Orders []struct {
				OrderID   int64 `json:"order_id"`
				LineID    *int64
				Collected bool `json:"collected"`
			} `json:"orders"`
		}](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		if len(oc.Orders) != 1 || !oc.Orders[0].Collected {
			t.Fatalf("the panel after replace: %+v", oc.Orders)
		}
		if list := apitest.Do[dayList](t, c.rec, http.StatusOK, "GET", "/api/bill-orders?day="+c.visitDay, nil); hasProblem(list, cbc.ID, "cancelled_charged") {
			t.Fatalf("a collected-then-not-done test listed as cancelled, still charged: %+v", list.Data)
		}
	})
}

// M3: a wrong mark on a final bill is undone by a supervisor with a reason, audited, and the
// right line can then be marked; the desk cannot unmark, nor can anyone unmark a line the
// order put on the bill itself.
func TestSupervisorUnmarksAWrongMark(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		orders := c.order(t, "CRP", "CBC")
		crp, cbc := find(orders, "CRP"), find(orders, "CBC")
		c.writtenOut(t, "Dressing", 30000)
		b := c.writtenOut(t, "CRP test", 120000)
		var dressing, crpLine, cbcLine int64
		for _, l := range b.Lines {
			switch {
			case l.LabOrderID != nil && *l.LabOrderID == cbc.ID:
				cbcLine = l.ID
			case l.Amount == 30000:
				dressing = l.ID
			default:
				crpLine = l.ID
			}
		}
		b = apitest.Do[billLines](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		b = apitest.Do[billLines](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/lines/%d/order", b.ID, dressing), map[string]any{"order_id": crp.ID, "version": b.Version})
		path := fmt.Sprintf("/api/bills/%d/lines/%d/unmark", b.ID, dressing)
		if r := c.rec.Do("POST", path, map[string]any{"reason": "wrong line", "version": b.Version}); r.Status != http.StatusForbidden {
			t.Fatalf("the desk unmarks: %d %s", r.Status, r.Body)
		}
		if r := c.admin.Do("POST", path, map[string]any{"reason": "", "version": b.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("unmark without a reason: %d %s", r.Status, r.Body)
		}
		if r := c.admin.Do("POST", fmt.Sprintf("/api/bills/%d/lines/%d/unmark", b.ID, cbcLine), map[string]any{"reason": "x", "version": b.Version}); r.Status != http.StatusConflict {
			t.Fatalf("unmark the order's own line: %d %s", r.Status, r.Body)
		}
		b = apitest.Do[billLines](t, c.admin, http.StatusOK, "POST", path, map[string]any{"reason": "picked the dressing by mistake", "version": b.Version})
		if b.Status != "final" || b.Lines[0].LabOrderID != nil && b.Lines[0].ID == dressing {
			t.Fatalf("after unmark: %+v", b)
		}
		apitest.Do[billLines](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/lines/%d/order", b.ID, crpLine), map[string]any{"order_id": crp.ID, "version": b.Version})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'bill.unlink_order' AND patient_id = $1`, c.patientID); n != 1 {
			t.Fatalf("unmark audited %d times", n)
		}
		// The schema holds too: a final bill's line cannot be unmarked behind the store's back
		// when the order put it there, nor a void bill's at all.
		if _, err := db.Exec(`UPDATE bill_lines SET lab_order_id = NULL WHERE id = $1`, cbcLine); err == nil {
			t.Fatal("the order's own line on a final bill was unmarked")
		}
	})
}
