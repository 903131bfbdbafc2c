package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// The cashier's review of 2026-11-29: drawers.

func (s *setup) finalBill(t *testing.T, minutes int) bill {
	t.Helper()
	appt := s.book(t, minutes)
	b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.procedure, "quantity": 1})
	b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.consultation, "quantity": 1})
	return apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
}

// M4 (case D): the cashier took cash and closed her drawer exactly; a supervisor's cash refund
// is never taken from that closed drawer: with no drawer of her own open it is refused, once
// she opens hers it comes out of hers. A card refund opens no drawer. The float freezes by one
// rule in the cash-up page and in the payment dialog.
func TestACashRefundComesFromAnOpenDrawer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		apitest.Do[drawer](t, s.front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 100000})
		b := s.finalBill(t, 60)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total})
		d := apitest.Do[cashUp](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers[0]
		countAndClose(t, s.front, d.ShiftID, d.Version, 100000+b.Total)
		refund := map[string]any{"method": "cash", "amount": 35050, "reason": "dressing not given", "line_id": b.Lines[0].ID}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), refund); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a cash refund with no drawer open: %d %s", r.Status, r.Body)
		}
		named := map[string]any{"method": "cash", "amount": 35050, "reason": "dressing not given", "line_id": b.Lines[0].ID, "drawer_id": s.env.UserID("front")}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), named); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a cash refund from the closed drawer named: %d %s", r.Status, r.Body)
		}
		// A card refund moves no cash: it opens no drawer for anyone.
		card := s.finalBill(t, 90)
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", card.ID), map[string]any{"method": "card", "amount": card.Total})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", card.ID), map[string]any{"method": "card", "amount": 10000, "reason": "overcharged"})
		if ds := apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers; len(ds) != 1 || ds[0].ClosedAt == nil {
			t.Fatalf("card money opened a drawer: %+v", ds)
		}
		// The supervisor opens her own drawer: the refund comes out of it.
		apitest.Do[drawer](t, s.admin, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 50000})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), refund)
		for _, x := range apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers {
			switch {
			case x.Cashier == "Test front" && x.DrawerCash != 100000+b.Total:
				t.Errorf("the closed drawer moved: %+v", x)
			case x.Cashier == "Test admin" && (x.CashRefunded != 35050 || x.DrawerCash != 50000-35050):
				t.Errorf("the supervisor's drawer: %+v", x)
			}
		}
		// One freeze rule: after cash left her drawer, the float changes neither way.
		if r := s.admin.Do("PUT", "/api/drawers/float", map[string]any{"opening_float": 100000}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("PUT float after a cash refund: %d", r.Status)
		}
		if ask := apitest.Do[struct{ Ask string }](t, s.admin, http.StatusOK, "GET", "/api/drawers/float", nil).Ask; ask != "none" {
			t.Errorf("the payment dialog asks %q of a drawer cash has left", ask)
		}
	})
}

// M5: the float of a new cashier's first drawer is asked, never taken as 0 unasked; 0 given
// on purpose is a float.
func TestTheFirstDrawerAsksItsFloat(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		b := s.finalBill(t, 60)
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("the first cash with no float: %d %s", r.Status, r.Body)
		}
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 0})
		d := apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers[0]
		if d.OpeningFloat != 0 || d.DrawerCash != b.Total {
			t.Fatalf("drawer: %+v", d)
		}
	})
}

// M6: a drawer left open overnight takes no cash on the next clinic day: it is closed first,
// and the cash-up shows the day it opened.
func TestYesterdaysDrawerIsClosedFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		yesterday := time.Now().UTC().AddDate(0, 0, -1)
		if _, err := db.Exec(`INSERT INTO drawer_shifts (cashier_id, opened_at, opening_float, float_counted) VALUES ($1, $2, 0, 1)`, s.env.UserID("front"), yesterday); err != nil {
			t.Fatal(err)
		}
		b := s.finalBill(t, 60)
		r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total})
		if r.Status != http.StatusConflict {
			t.Fatalf("cash into yesterday's drawer: %d %s", r.Status, r.Body)
		}
		d := apitest.Do[struct {
			Drawers []struct {
				ShiftID   int64  `json:"shift_id"`
				OpenedDay string `json:"opened_day"`
				Version   int    `json:"version"`
			} `json:"drawers"`
		}](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers
		if len(d) != 1 || d[0].OpenedDay != yesterday.Format(time.DateOnly) {
			t.Fatalf("the cash-up's drawers: %+v", d)
		}
		countAndClose(t, s.front, d[0].ShiftID, d[0].Version, 0)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 0})
	})
}

// m4: a shift opened between local and UTC midnight is on its clinic day's cash-up (SQLite
// compared clinic-zone time with UTC text).
func TestAShiftIsOnItsClinicDay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		hcm, err := time.LoadLocation("Asia/Ho_Chi_Minh")
		if err != nil {
			t.Skip("no time zone data")
		}
		opened := time.Date(2026, 11, 29, 6, 30, 0, 0, hcm).UTC() // 23:30 UTC on the 28th
		if _, err := db.Exec(`INSERT INTO drawer_shifts (cashier_id, opened_at, closed_at, opening_float, float_counted, counted, expected)
			VALUES ($1, $2, $3, 0, 1, 0, 0)`, s.env.UserID("front"), opened, opened.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		store := &billing.Store{DB: db, Loc: hcm}
		for day, want := range map[string]int{"2026-11-29": 1, "2026-11-28": 0} {
			c, err := store.CashUp(context.Background(), day, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Drawers) != want {
				t.Errorf("%s: %d drawers, want %d", day, len(c.Drawers), want)
			}
		}
	})
}

// M8 (case F): a bill 20 % off, its dressing's share credited in full: revenue by service
// reads the dressing 0 and the consultation its share, 40,000; the rows add up to the total.
func TestACreditedLineReadsNoRevenue(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		appt := s.book(t, 60)
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.procedure, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.consultation, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "PUT", fmt.Sprintf("/api/bills/%d", b.ID), map[string]any{"discount_kind": "percent", "discount_value": 2000, "discount_reason": "senior citizen", "version": b.Version})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": 28040, "reason": "dressing not given", "line_id": b.Lines[0].ID})
		day := time.Now().Format(time.DateOnly)
		rev := apitest.Do[struct {
			Rows []struct {
				Key      string `json:"key"`
				Amount   int64  `json:"amount"`
				Credited int64  `json:"credited"`
			} `json:"rows"`
			BillDiscounts int64 `json:"bill_discounts"`
			CreditedApart int64 `json:"credited_apart"`
			Total         int64 `json:"total"`
		}](t, s.admin, http.StatusOK, "GET", "/api/reports/revenue?by=service&from="+day+"&to="+day, nil)
		got, sum := map[string]int64{}, int64(0)
		for _, r := range rev.Rows {
			got[r.Key], sum = r.Amount, sum+r.Amount
		}
		if got["PROC-DRESS"] != 0 || got["CONS-NEW"] != 40000 || rev.Total != 40000 || sum-rev.BillDiscounts-rev.CreditedApart != rev.Total {
			t.Fatalf("revenue by service: %+v", rev)
		}
	})
}

// m5: the SQLite trigger that keeps a final bill's lines names every column of bill_lines, so
// a column added later is not left unguarded (PostgreSQL compares whole rows).
func TestTheFinalLinesTriggerNamesEveryColumn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if db.Engine != database.SQLite {
			t.Skip("PostgreSQL compares the whole row")
		}
		var trigger string
		if err := db.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'bill_lines_update_fixed'`).Scan(&trigger); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(`SELECT name FROM pragma_table_info('bill_lines')`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var col string
			if err := rows.Scan(&col); err != nil {
				t.Fatal(err)
			}
			n++
			if !strings.Contains(trigger, "NEW."+col+" ") {
				t.Errorf("the trigger does not guard bill_lines.%s", col)
			}
		}
		if n < 15 {
			t.Fatalf("read %d columns", n)
		}
	})
}
