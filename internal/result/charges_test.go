package result_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/feereport"
)

type billOut struct {
	ID      int64  `json:"id"`
	Status  string `json:"status"`
	Version int    `json:"version"`
	Total   int64  `json:"total"`
	Lines   []struct {
		ID         int64  `json:"id"`
		Code       string `json:"code"`
		LabOrderID *int64 `json:"lab_order_id"`
	} `json:"lines"`
}

type orderCharges struct {
	Ordered int `json:"ordered"`
	Charged int `json:"charged"`
	Orders  []struct {
		OrderID    int64  `json:"order_id"`
		Test       string `json:"test"`
		LineID     *int64 `json:"line_id"`
		Linked     bool   `json:"linked"`
		Withdrawn  bool   `json:"withdrawn"`
		IncludedIn string `json:"included_in"`
		ZeroPrice  bool   `json:"zero_price"`
		ListPrice  *int64 `json:"list_price"`
	} `json:"orders"`
}

// A test ordered on a visit is charged on the visit's bill as its linked price-list service,
// once per order; taken off before collection, its charge goes; a test linked to no service
// is not charged and the desk is told; a final bill keeps the charge of an order cancelled
// after and shows it as a refund to consider (issue 55, m9).
func TestOrdersReachTheBill(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		for code, price := range map[string]int{"LAB-BMP": 180000, "LAB-CBC": 90000} {
			if r := c.admin.Do("POST", "/api/services", map[string]any{"code": code, "name": code, "category": "laboratory", "price": price}); r.Status != http.StatusCreated {
				t.Fatalf("service %s: %d %s", code, r.Status, r.Body)
			}
		}
		bill := func() billOut {
			return apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", c.visitID), nil)
		}
		charges := func() orderCharges {
			return apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		}
		charged := func(b billOut, orderID int64) int {
			n := 0
			for _, l := range b.Lines {
				if l.LabOrderID != nil && *l.LabOrderID == orderID {
					n++
				}
			}
			return n
		}

		// HBSAG's shipped link (LAB-HBSAG) names no service of this clinic.
		orders := c.order(t, "BMP", "CBC", "HBSAG")
		bmp, cbc := find(orders, "BMP"), find(orders, "CBC")
		b := bill()
		if len(b.Lines) != 2 || charged(b, bmp.ID) != 1 || charged(b, cbc.ID) != 1 || b.Total != 270000 {
			t.Fatalf("ordered tests on the bill: %+v", b)
		}
		oc := charges()
		if oc.Ordered != 3 || oc.Charged != 2 || len(oc.Orders) != 3 || oc.Orders[2].Test != "HBSAG" || oc.Orders[2].Linked || oc.Orders[2].LineID != nil {
			t.Fatalf("ordered beside charged: %+v", oc)
		}

		// Saving the form again orders nothing new and charges nothing twice; told twice of
		// one order, billing still charges it once.
		c.order(t, "BMP", "CBC", "HBSAG")
		fees := &billing.Store{DB: db, Days: feereport.Book{}}
		for range 2 {
			if err := db.Tx(context.Background(), func(tx *sql.Tx) error {
				return fees.ChargeOrder(context.Background(), tx, audit.Event{}, c.visitID, bmp.ID, "LAB-BMP")
			}); err != nil {
				t.Fatal(err)
			}
		}
		if b = bill(); len(b.Lines) != 2 || charged(b, bmp.ID) != 1 {
			t.Fatalf("charged once per order: %+v", b)
		}

		// CBC taken off the form before collection: its charge goes.
		c.order(t, "BMP", "HBSAG")
		if b = bill(); len(b.Lines) != 1 || charged(b, cbc.ID) != 0 || b.Total != 180000 {
			t.Fatalf("cancelled order still charged: %+v", b)
		}
		if oc = charges(); oc.Ordered != 2 || oc.Charged != 1 {
			t.Fatalf("after the cancellation: %+v", oc)
		}

		// A final bill is not changed: BMP cancelled after it keeps its line, flagged.
		b = apitest.Do[billOut](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		bmp = find(c.orders(t), "BMP")
		if r := c.doctor.Do("POST", fmt.Sprintf("/api/lab-orders/%d/cancel", bmp.ID), map[string]any{"version": bmp.Version, "reason": "Patient declined"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		if b = bill(); b.Status != "final" || len(b.Lines) != 1 || b.Total != 180000 {
			t.Fatalf("final bill changed: %+v", b)
		}
		oc = charges()
		if oc.Ordered != 1 || oc.Charged != 0 || len(oc.Orders) != 2 || !oc.Orders[0].Withdrawn || oc.Orders[0].LineID == nil {
			t.Fatalf("cancelled order still charged, shown: %+v", oc)
		}

		// Voided and replaced, the replacement copies every line, the cancelled BMP's too (the
		// cashier's review, C2: the desk decides): the draft shows it cancelled and still
		// charged, and the desk takes the line off.
		b = bill()
		repl := apitest.Do[billOut](t, c.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"version": b.Version, "reason": "BMP cancelled", "replace": true})
		if repl.Status != "draft" || len(repl.Lines) != 1 || repl.Total != 180000 {
			t.Fatalf("the replacement does not copy every line: %+v", repl)
		}
		if oc = charges(); oc.Ordered != 1 || oc.Charged != 0 || len(oc.Orders) != 2 || !oc.Orders[0].Withdrawn || oc.Orders[0].LineID == nil {
			t.Errorf("after void and replace: %+v", oc)
		}
		apitest.Do[billOut](t, c.rec, http.StatusOK, "DELETE", fmt.Sprintf("/api/bills/%d/lines/%d?version=%d", repl.ID, repl.Lines[0].ID, repl.Version), nil)
		if oc = charges(); oc.Ordered != 1 || len(oc.Orders) != 1 || oc.Orders[0].Withdrawn {
			t.Errorf("after the desk removed the line: %+v", oc)
		}
	})
}

// service adds a laboratory service to the price list and answers its id.
func (c *clinic) service(t *testing.T, code string, price int) int64 {
	t.Helper()
	return apitest.Do[struct{ ID int64 }](t, c.admin, http.StatusCreated, "POST", "/api/services", map[string]any{"code": code, "name": code, "category": "laboratory", "price": price}).ID
}

// A charge is recognised for an order whenever it appears: the line the desk adds by hand
// for a test whose service was created after ordering is taken as that order's, so the
// warning clears and a second one is refused as a duplicate; a line changed to another
// service charges its order no longer (issue 55, major 1).
func TestHandChargeFoundLater(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		orders := c.order(t, "CBC", "CRP")
		crp := find(orders, "CRP")
		charges := func() orderCharges {
			return apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		}
		if oc := charges(); oc.Ordered != 2 || oc.Charged != 1 {
			t.Fatalf("before CRP is on the price list: %+v", oc)
		}
		service := c.service(t, "LAB-CRP", 70000)
		b := apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", c.visitID), nil)
		lines := fmt.Sprintf("/api/bills/%d/lines", b.ID)
		b = apitest.Do[billOut](t, c.rec, http.StatusCreated, "POST", lines, map[string]any{"service_id": service, "quantity": 1})
		var hand int64
		for _, l := range b.Lines {
			if l.Code == "LAB-CRP" && l.LabOrderID != nil && *l.LabOrderID == crp.ID {
				hand = l.ID
			}
		}
		if oc := charges(); hand == 0 || oc.Ordered != 2 || oc.Charged != 2 {
			t.Fatalf("the hand-added CRP is not taken as the order's: %+v, %+v", b.Lines, oc)
		}
		if r := c.rec.Do("POST", lines, map[string]any{"service_id": service, "quantity": 1}); r.Status != http.StatusConflict {
			t.Errorf("CRP added twice: %d %s", r.Status, r.Body)
		}
		// The CRP line changed to a blood count: CRP is not charged by it any more.
		fbc := apitest.Do[struct{ ID int64 }](t, c.admin, http.StatusCreated, "POST", "/api/services", map[string]any{"code": "LAB-FBC", "name": "FBC", "category": "laboratory", "price": 50000}).ID
		apitest.Do[billOut](t, c.rec, http.StatusOK, "PUT", fmt.Sprintf("%s/%d", lines, hand), map[string]any{"service_id": fbc, "quantity": 1, "version": b.Version})
		if oc := charges(); oc.Charged != 1 {
			t.Errorf("an FBC line still charges CRP: %+v", oc)
		}
	})
}

// A specimen rejected after collection and the test ordered again charges the patient once:
// the new order takes the charge the not-done one kept, on a draft bill as on a final one
// (issue 55, major 4).
func TestReorderAfterNotDoneChargesOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 90000)
		bill := func() billOut {
			return apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", c.visitID), nil)
		}
		// The order wanted now: the one of the list not withdrawn.
		wanted := func(orders []order) order {
			for _, o := range orders {
				if o.Test == "CBC" && o.Status == "ordered" {
					return o
				}
			}
			return order{}
		}
		reject := func() {
			o := wanted(c.orders(t))
			o = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
			apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", o.ID), map[string]any{"version": o.Version, "reason": "Specimen haemolysed"})
		}
		c.order(t, "CBC")
		reject()
		again := wanted(c.order(t, "CBC"))
		b := bill()
		if len(b.Lines) != 1 || b.Total != 90000 || b.Lines[0].LabOrderID == nil || *b.Lines[0].LabOrderID != again.ID {
			t.Fatalf("CBC ordered again after a rejected specimen: %+v", b)
		}
		oc := apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		if oc.Ordered != 1 || oc.Charged != 1 || len(oc.Orders) != 1 {
			t.Errorf("the desk sees: %+v", oc)
		}
		// A final bill is not changed, and not charged twice either.
		apitest.Do[billOut](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		reject()
		c.order(t, "CBC")
		if b = bill(); b.Status != "final" || b.Total != 90000 || len(b.Lines) != 1 {
			t.Errorf("ordered again after the bill was final: %+v", b)
		}
	})
}

// The desk's day list shows every order of the day's visits to act on: one not charged (its
// test linked to no service, or ordered after the bill was final) and one cancelled after the
// bill was final and still charged; a charged order is not listed (issue 55, major 2).
func TestOrdersToChargeOfTheDay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-BMP", 180000)
		bmp := find(c.order(t, "BMP", "HBSAG"), "BMP")
		visit := apitest.Do[struct {
			StartsAt time.Time `json:"starts_at"`
		}](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d", c.visitID), nil)
		type row struct {
			AppointmentID int64  `json:"appointment_id"`
			Test          string `json:"test"`
			Problem       string `json:"problem"`
			Linked        bool   `json:"linked"`
			Patient       struct {
				Name string `json:"name"`
			} `json:"patient"`
		}
		list := func() []row {
			return apitest.Do[struct{ Data []row }](t, c.rec, http.StatusOK, "GET", "/api/bill-orders?day="+visit.StartsAt.Format(time.DateOnly), nil).Data
		}
		if l := list(); len(l) != 1 || l[0].Test != "HBSAG" || l[0].Problem != "not_charged" || l[0].Linked || l[0].AppointmentID != c.visitID || l[0].Patient.Name == "" {
			t.Fatalf("the day's list: %+v", l)
		}
		b := apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", c.visitID), nil)
		apitest.Do[billOut](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[order](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/cancel", bmp.ID), map[string]any{"version": bmp.Version, "reason": "Patient declined"})
		if l := list(); len(l) != 2 || l[0].Test != "BMP" || l[0].Problem != "cancelled_charged" {
			t.Errorf("after BMP was cancelled on a final bill: %+v", l)
		}
		if r := c.rec.Do("GET", "/api/bill-orders?day=yesterday", nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a day that is no date: %d", r.Status)
		}
		if r := c.nurse.Do("GET", "/api/bill-orders", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse reading the desk's list: %d", r.Status)
		}
	})
}

// A panel and its member tests ordered on one visit: the desk is told which tests the panel
// includes (every analyte of them), so a member is not charged twice unknowingly (issue 55,
// major 4).
func TestPanelIncludesItsMembers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.order(t, "CBC", "BMP", "ELEC", "CREA", "CMP")
		oc := apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		got := map[string]string{}
		for _, o := range oc.Orders {
			got[o.Test] = o.IncludedIn
		}
		want := map[string]string{"CBC": "", "BMP": "Comprehensive metabolic panel", "ELEC": "Comprehensive metabolic panel", "CREA": "", "CMP": ""}
		for test, in := range want {
			if got[test] != in {
				t.Errorf("%s included in %q, want %q", test, got[test], in)
			}
		}
	})
}

// A test charged at price 0 (the starter list installs its services unpriced) is on the bill
// but not counted as charged: the desk sees it as not charged, and the day's list shows it
// (issue 55, m9).
func TestZeroPriceIsNotCharged(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.service(t, "LAB-CBC", 0)
		c.order(t, "CBC")
		oc := apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		if oc.Ordered != 1 || oc.Charged != 0 || len(oc.Orders) != 1 || !oc.Orders[0].ZeroPrice || oc.Orders[0].LineID == nil {
			t.Errorf("a CBC at price 0: %+v", oc)
		}
	})
}

// A line of more than one unit that the desk added by hand before the order is no single
// order's (cancelling the order would take every unit off): the order is charged on a line of
// its own, as a line added by hand after it would be (the cashier's review, 2026-11-28).
func TestAnOrderLeavesAHandLineOfTwoUnits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		service := c.service(t, "LAB-CBC", 90000)
		// Each order carries its test's list price, which the desk sees when marking a line (M3).
		defer func() {
			oc := apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
			if len(oc.Orders) != 1 || oc.Orders[0].ListPrice == nil || *oc.Orders[0].ListPrice != 90000 {
				t.Errorf("the CBC's list price: %+v", oc)
			}
		}()
		b := apitest.Do[billOut](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", c.visitID), map[string]any{"service_id": service, "quantity": 2})
		cbc := find(c.order(t, "CBC"), "CBC")
		b = apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if len(b.Lines) != 2 || b.Lines[0].LabOrderID != nil || b.Lines[1].LabOrderID == nil || *b.Lines[1].LabOrderID != cbc.ID {
			t.Errorf("the order took the two-unit line made by hand: %+v", b.Lines)
		}
	})
}

// An order whose test's service is deactivated tells the desk so, not that no service is
// linked (the cashier's review, 2026-11-28).
func TestADeactivatedServiceIsSaid(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		id := c.service(t, "LAB-CRP", 70000)
		apitest.Do[any](t, c.admin, http.StatusOK, "PUT", fmt.Sprintf("/api/services/%d", id), map[string]any{"code": "LAB-CRP", "name": "LAB-CRP",
			"category": "laboratory", "price": 70000, "active": false, "version": 1})
		c.order(t, "CRP", "CBC")
		oc := apitest.Do[struct {
			Orders []struct {
				Test            string `json:"test"`
				Linked          bool   `json:"linked"`
				ServiceInactive bool   `json:"service_inactive"`
			} `json:"orders"`
		}](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		for _, o := range oc.Orders {
			if o.Linked || o.ServiceInactive != (o.Test == "CRP") {
				t.Errorf("%s: linked %v, service inactive %v", o.Test, o.Linked, o.ServiceInactive)
			}
		}
		if len(oc.Orders) != 2 {
			t.Errorf("orders: %+v", oc.Orders)
		}
	})
}

// A test charged as a line written by hand (its service not on the price list) is marked as
// that line's charge by the desk, on a final bill too, and stops waiting as not charged (the
// clinic manager's run, 2026-11-29: it stayed on the list for good and invited a second charge).
func TestAHandChargeIsMarkedAsTheOrders(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		crp := find(c.order(t, "CRP"), "CRP")
		charges := func() orderCharges {
			return apitest.Do[orderCharges](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill/orders", c.visitID), nil)
		}
		b := apitest.Do[billOut](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", c.visitID),
			map[string]any{"description": "C-reactive protein", "quantity": 1, "unit_price": 70000})
		b = apitest.Do[billOut](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"description": "Swabs", "quantity": 2, "unit_price": 5000})
		b = apitest.Do[billOut](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		if oc := charges(); oc.Charged != 0 || oc.Ordered != 1 {
			t.Fatalf("before marking: %+v", oc)
		}
		line := func(description string) int64 {
			for _, l := range b.Lines {
				if l.Code == "" && description == "C-reactive protein" && l.LabOrderID == nil {
					return l.ID
				}
			}
			return b.Lines[len(b.Lines)-1].ID
		}
		link := func(who *apitest.Client, lineID, orderID int64) apitest.Response {
			var cur struct {
				Version int `json:"version"`
			}
			c.admin.Do("GET", fmt.Sprintf("/api/bills/%d", b.ID), nil).JSON(t, &cur)
			return who.Do("POST", fmt.Sprintf("/api/bills/%d/lines/%d/order", b.ID, lineID), map[string]any{"order_id": orderID, "version": cur.Version})
		}
		crpLine, swabs := b.Lines[0].ID, b.Lines[1].ID
		_ = line
		if r := link(c.nurse, crpLine, crp.ID); r.Status != http.StatusForbidden {
			t.Errorf("the nurse marks a charge: %d", r.Status)
		}
		if r := link(c.rec, swabs, crp.ID); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a line of two units marked as one order's: %d %s", r.Status, r.Body)
		}
		if r := link(c.rec, crpLine, crp.ID+1000); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("an order of no visit of this bill: %d %s", r.Status, r.Body)
		}
		if r := link(c.rec, crpLine, crp.ID); r.Status != http.StatusOK {
			t.Fatalf("mark the hand line as CRP's: %d %s", r.Status, r.Body)
		}
		if oc := charges(); oc.Charged != 1 || oc.Orders[0].LineID == nil || *oc.Orders[0].LineID != crpLine {
			t.Errorf("after marking: %+v", oc)
		}
		if r := link(c.rec, crpLine, crp.ID); r.Status != http.StatusConflict {
			t.Errorf("marked twice: %d %s", r.Status, r.Body)
		}
		after := apitest.Do[billOut](t, c.rec, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if after.Total != b.Total || after.Status != "final" {
			t.Errorf("marking changed the bill: %+v → %+v", b, after)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'bill.link_order'`); n != 1 {
			t.Errorf("marking audited %d times", n)
		}
	})
}

// The review of the blind count, finding 6: a hand line whose unit price differs from the test's
// list price is marked as its charge only by one who may override prices; a line at the list
// price with its own discount is not "another price"; the mark is refused on a stale bill.
func TestAMarkAtAnotherPriceNeedsTheOverride(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		cbc := find(c.order(t, "CBC"), "CBC") // ordered before its service is priced: not charged
		c.service(t, "LAB-CBC", 90000)
		b := apitest.Do[billOut](t, c.rec, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", c.visitID),
			map[string]any{"description": "Full blood count", "quantity": 1, "unit_price": 70000})
		mark := func(who *apitest.Client, version int) apitest.Response {
			return who.Do("POST", fmt.Sprintf("/api/bills/%d/lines/%d/order", b.ID, b.Lines[0].ID), map[string]any{"order_id": cbc.ID, "version": version})
		}
		if r := mark(c.rec, b.Version); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "line_id") {
			t.Errorf("the desk marks a line at another price: %d %s", r.Status, r.Body)
		}
		if r := mark(c.admin, b.Version-1); r.Status != http.StatusConflict {
			t.Errorf("a mark on a stale bill: %d %s", r.Status, r.Body)
		}
		if r := mark(c.admin, b.Version); r.Status != http.StatusOK {
			t.Errorf("one who may override prices marks it: %d %s", r.Status, r.Body)
		}
	})
}
