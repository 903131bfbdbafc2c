package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type settled struct {
	bill
	Credited int64 `json:"credited"`
	Payments []struct {
		Kind    string `json:"kind"`
		Amount  int64  `json:"amount"`
		Credit  int64  `json:"credit"`
		LineID  *int64 `json:"line_id"`
		Drawer  string `json:"drawer"`
		Payer   string `json:"payer"`
		Receipt string `json:"receipt"`
	} `json:"payments"`
}

// finalPaid is a visit bill of a consultation and a dressing (85,050), finalised and paid
// in full by the front desk with method.
func (s *setup) finalPaid(t *testing.T, minutes int, method string) settled {
	t.Helper()
	appt := s.book(t, minutes)
	b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.procedure, "quantity": 1})
	b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.consultation, "quantity": 1})
	b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
	apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": method, "amount": b.Total})
	return apitest.Do[settled](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
}

// A refund for a service not given settles: the bill asks that much less, so a full refund
// leaves nothing owing; only a refund marked "still owed" leaves the patient owing again.
// openDrawers opens the desk's drawer with a float of 0 counted in, as a cashier does at the
// start of her day.
func (s *setup) openDrawers(t *testing.T) {
	t.Helper()
	apitest.Do[drawer](t, s.front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 0})
}

func TestRefundsSettle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		b := s.finalPaid(t, 60, "cash")
		dressing := b.Lines[0]
		refunds := fmt.Sprintf("/api/bills/%d/refunds", b.ID)
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"more than the service's charge", map[string]any{"method": "cash", "amount": 35051, "reason": "not given", "line_id": dressing.ID}, http.StatusUnprocessableEntity},
			{"a line of no bill", map[string]any{"method": "cash", "amount": 100, "reason": "not given", "line_id": 999999}, http.StatusUnprocessableEntity},
			{"a still-owed refund naming a service", map[string]any{"method": "cash", "amount": 100, "reason": "wrong method", "still_owed": true, "line_id": dressing.ID}, http.StatusUnprocessableEntity},
			{"the drawer of nobody", map[string]any{"method": "cash", "amount": 100, "reason": "not given", "drawer_id": 999999}, http.StatusUnprocessableEntity},
		} {
			if r := s.admin.Do("POST", refunds, c.body); r.Status != c.want {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM payments WHERE kind = 'refund'`); n != 0 {
			t.Errorf("refused refunds wrote %d rows", n)
		}

		// The dressing was not given: refunded and credited, named; the cash leaves the drawer
		// that took it (the front desk's), not the supervisor's who authorised it.
		m := apitest.Do[struct{ Bill settled }](t, s.admin, http.StatusCreated, "POST", refunds, map[string]any{"method": "cash", "amount": 35050, "reason": "dressing not needed", "line_id": dressing.ID})
		got := m.Bill
		last := got.Payments[len(got.Payments)-1]
		if got.Paid != 50000 || got.Credited != 35050 || got.Balance != 0 || got.Status != "final" || last.Credit != 35050 || last.LineID == nil || last.Drawer != "Test front" {
			t.Errorf("after a refund of a service not given: paid %d credited %d balance %d, refund %+v", got.Paid, got.Credited, got.Balance, last)
		}
		// The refund slip prints (audited); a bill with no refund has none to print.
		apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/print", b.ID), map[string]any{"document": "refund"})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'bill.print' AND detail LIKE '%"audit.document.refund"%' AND detail LIKE '%RS-%'`); n != 1 {
			t.Errorf("the refund slip's print audited %d times", n)
		}
		// The rest refunded too: still nothing owed, and the bill is off the outstanding list.
		got = apitest.Do[struct{ Bill settled }](t, s.admin, http.StatusCreated, "POST", refunds, map[string]any{"method": "cash", "amount": 50000, "reason": "visit cancelled by the doctor"}).Bill
		if got.Paid != 0 || got.Credited != 85050 || got.Balance != 0 {
			t.Errorf("after a full refund: paid %d credited %d balance %d", got.Paid, got.Credited, got.Balance)
		}
		var owed struct {
			Total   int   `json:"total"`
			Balance int64 `json:"balance"`
		}
		s.admin.Do("GET", "/api/reports/outstanding", nil).JSON(t, &owed)
		if owed.Total != 0 || owed.Balance != 0 {
			t.Errorf("outstanding after full refunds: %+v", owed)
		}
		// The queue's tag of the visit agrees: nothing to pay.
		var tags struct {
			Data []struct {
				Balance  int64 `json:"balance"`
				Credited int64 `json:"credited"`
			} `json:"data"`
		}
		appt := dbtest.Count(t, db, `SELECT appointment_id FROM bills WHERE id = $1`, b.ID)
		s.front.Do("GET", fmt.Sprintf("/api/bill-tags?appointments=%d", appt), nil).JSON(t, &tags)
		if len(tags.Data) != 1 || tags.Data[0].Balance != 0 || tags.Data[0].Credited != 85050 {
			t.Errorf("the queue's tag after full refunds: %+v", tags.Data)
		}
		type revenue struct {
			Credited int64 `json:"credited"`
			Total    int64 `json:"total"`
		}
		today := time.Now().Format(time.DateOnly)
		for _, by := range []string{"service", "doctor"} {
			rev := apitest.Do[revenue](t, s.admin, http.StatusOK, "GET", "/api/reports/revenue?by="+by+"&from="+today+"&to="+today, nil)
			if rev.Credited != 85050 || rev.Total != 0 {
				t.Errorf("revenue by %s after full credit: %+v", by, rev)
			}
		}

		// Money given back to be taken another way: owed again, and outstanding.
		card := s.finalPaid(t, 120, "card")
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/print", card.ID), map[string]any{"document": "refund"}); r.Status != http.StatusNotFound {
			t.Errorf("the refund slip of a bill without refunds: %d", r.Status)
		}
		got = apitest.Do[struct{ Bill settled }](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", card.ID),
			map[string]any{"method": "card", "amount": card.Total, "reason": "card of another person", "still_owed": true}).Bill
		if got.Balance != card.Total || got.Credited != 0 {
			t.Errorf("a still-owed refund: balance %d credited %d", got.Balance, got.Credited)
		}
		s.admin.Do("GET", "/api/reports/outstanding", nil).JSON(t, &owed)
		if owed.Total != 1 || owed.Balance != card.Total {
			t.Errorf("outstanding after a still-owed refund: %+v", owed)
		}
		// Paid again in cash by the patient's son, whom the receipt names; never more than it asks.
		paidBy := apitest.Do[struct{ Bill settled }](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", card.ID), map[string]any{"method": "cash", "amount": 100, "payer": " Trần Văn Minh (son) "}).Bill
		if p := paidBy.Payments[len(paidBy.Payments)-1]; p.Payer != "Trần Văn Minh (son)" {
			t.Errorf("payer: %q", p.Payer)
		}
		card.Total -= 100
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/payments", card.ID), map[string]any{"method": "cash", "amount": card.Total + 1}); r.Status != http.StatusConflict {
			t.Errorf("overpaying: %d", r.Status)
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": 1}); r.Status != http.StatusConflict {
			t.Errorf("paying a fully credited bill: %d", r.Status)
		}
		// The days' sums and the bills agree after the credits (what a rebuild would give).
		if sum := dbtest.Count(t, db, `SELECT COALESCE(SUM(credited), 0) FROM bill_days`); sum != dbtest.Count(t, db, `SELECT SUM(credited) FROM bills WHERE status = 'final'`) {
			t.Errorf("days' credited %d", sum)
		}
	})
}

type drawer struct {
	ShiftID      int64  `json:"shift_id"`
	Cashier      string `json:"cashier"`
	OpeningFloat int64  `json:"opening_float"`
	CashReceived int64  `json:"cash_received"`
	CashRefunded int64  `json:"cash_refunded"`
	DrawerCash   int64  `json:"drawer_cash"`
	Counted      *int64 `json:"counted"`
	Difference   *int64 `json:"difference"`
	Other        []struct {
		Method string `json:"method"`
		Net    int64  `json:"net"`
	} `json:"other"`
	Version        int        `json:"version"`
	ClosedAt       *time.Time `json:"closed_at"`
	FirstCount     *int64     `json:"first_count"`
	AcknowledgedBy string     `json:"acknowledged_by"`
	CountExpected  *int64     `json:"count_expected"`
	CountNote      string     `json:"count_note"`
	Note           string     `json:"note"`
}

// countAndClose counts drawer id blind, then closes it with the same count.
func countAndClose(t *testing.T, c *apitest.Client, id int64, version int, counted int64) drawer {
	t.Helper()
	d := apitest.Do[drawer](t, c, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", id), map[string]any{"counted": counted, "version": version})
	return apitest.Do[drawer](t, c, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/close", id), map[string]any{"counted": counted, "version": d.Version})
}

type cashUp struct {
	Mine    bool     `json:"mine"`
	Blind   bool     `json:"blind"`
	Drawers []drawer `json:"drawers"`
	Rows    []struct {
		Cashier string `json:"cashier"`
		Method  string `json:"method"`
		Net     int64  `json:"net"`
	} `json:"rows"`
}

// A cashier closes her own drawer: float, cash in, cash out (a supervisor's refund from her
// drawer counts there), what the drawer should hold, the count and the difference; card is
// listed apart. She sees her drawer alone and no revenue; the close is audited and final.
func TestCashierClosesHerDrawer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		if r := s.front.Do("PUT", "/api/drawers/float", map[string]any{"opening_float": -1}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a negative float: %d", r.Status)
		}
		apitest.Do[drawer](t, s.front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 100000})
		cash := s.finalPaid(t, 60, "cash") // 85,050 in cash
		// Once cash has moved the float is frozen: lowering it would hide a shortfall (issue 55, m18).
		if r := s.front.Do("PUT", "/api/drawers/float", map[string]any{"opening_float": 90000}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"opening_float"`) {
			t.Errorf("re-setting the float after cash was taken: %d %s", r.Status, r.Body)
		}
		card := s.finalPaid(t, 120, "card") // 85,050 by card
		apitest.Do[struct{ Bill settled }](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", cash.ID),
			map[string]any{"method": "cash", "amount": 35050, "reason": "dressing not given", "line_id": cash.Lines[0].ID})
		_ = card
		// The supervisor takes cash at her own till: her drawer, not the receptionist's.
		own := s.book(t, 180)
		b := apitest.Do[bill](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", own), map[string]any{"service_id": s.lab, "quantity": 1})
		b = apitest.Do[bill](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 0})

		// Her drawer open and not yet counted, she counts it blind: what it should hold, and the
		// cash in and out of it, are null for her — in the JSON and the CSV (the review of the
		// blind count, finding 2); the supervisor sees them.
		raw := s.front.Do("GET", "/api/reports/cash-up", nil)
		for _, hidden := range []string{`"drawer_cash":null`, `"cash_received":null`, `"cash_refunded":null`, `"count_expected":null`} {
			if !strings.Contains(string(raw.Body), hidden) {
				t.Errorf("her blind cash-up lacks %s: %s", hidden, raw.Body)
			}
		}
		mine := apitest.Do[cashUp](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil)
		if !mine.Mine || !mine.Blind || len(mine.Drawers) != 1 {
			t.Fatalf("the receptionist's cash-up: %+v", mine)
		}
		d := mine.Drawers[0]
		if d.Cashier != "Test front" || d.OpeningFloat != 100000 || d.CashReceived != 0 || d.CashRefunded != 0 || d.DrawerCash != 0 ||
			len(d.Other) != 1 || d.Other[0].Method != "card" || d.Other[0].Net != 85050 || d.Counted != nil {
			t.Errorf("her drawer: %+v", d)
		}
		for _, row := range mine.Rows {
			if row.Cashier != "Test front" || row.Method == "cash" {
				t.Errorf("she sees another's takings, or the cash before her count: %+v", row)
			}
		}
		if csv := s.front.Do("GET", "/api/reports/cash-up?format=csv", nil); strings.Contains(string(csv.Body), ",cash,") {
			t.Errorf("her blind cash-up's CSV shows the cash: %s", csv.Body)
		}
		if one := s.front.Do("GET", fmt.Sprintf("/api/drawers/%d", d.ShiftID), nil); !strings.Contains(string(one.Body), `"drawer_cash":null`) {
			t.Errorf("her blind drawer: %s", one.Body)
		}
		if seen := apitest.Do[drawer](t, s.admin, http.StatusOK, "GET", fmt.Sprintf("/api/drawers/%d", d.ShiftID), nil); seen.DrawerCash != 150000 || seen.CashReceived != 85050 {
			t.Errorf("the supervisor reads her drawer: %+v", seen)
		}
		all := apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil)
		if all.Mine || all.Blind || len(all.Drawers) != 2 {
			t.Errorf("the supervisor's cash-up: %+v", all)
		}
		for _, path := range []string{"/api/reports/revenue?by=service", "/api/reports/bills", "/api/reports/outstanding"} {
			if r := s.front.Do("GET", path, nil); r.Status != http.StatusForbidden {
				t.Errorf("a receptionist reading %s: %d", path, r.Status)
			}
		}
		var other int64
		for _, x := range all.Drawers {
			if x.Cashier == "Test admin" {
				other = x.ShiftID
			}
		}
		if r := s.front.Do("GET", fmt.Sprintf("/api/drawers/%d", other), nil); r.Status != http.StatusNotFound {
			t.Errorf("reading another's drawer: %d", r.Status)
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/drawers/%d/close", other), map[string]any{"counted": 0, "version": 1}); r.Status != http.StatusNotFound {
			t.Errorf("closing another's drawer: %d", r.Status)
		}
		if r := s.nurse.Do("GET", "/api/reports/cash-up", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse reading the cash-up: %d", r.Status)
		}

		close := fmt.Sprintf("/api/drawers/%d/close", d.ShiftID)
		if r := s.front.Do("POST", close, map[string]any{"counted": 149000, "version": d.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("closing a stale drawer: %d", r.Status)
		}
		// Not counted blind yet: the close is refused and changes nothing (finding 1).
		if r := s.front.Do("POST", close, map[string]any{"counted": 150000, "version": d.Version}); r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "blind") {
			t.Errorf("closing a drawer not counted: %d %s", r.Status, r.Body)
		}
		// Counted blind first (the cashier's review, M7): the first count is kept, and a second
		// count does not replace it.
		counted := apitest.Do[drawer](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID), map[string]any{"counted": 148000, "version": d.Version})
		if counted.FirstCount == nil || *counted.FirstCount != 148000 || counted.ClosedAt != nil || counted.DrawerCash != 150000 || counted.Version != d.Version+1 ||
			counted.CountExpected == nil || *counted.CountExpected != 150000 || counted.CashReceived != 85050 {
			t.Errorf("counted blind: %+v", counted)
		}
		// Counted, the drawer takes no more cash, in or out, nor a new float (finding 4).
		late := s.book(t, 200)
		lb := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", late), map[string]any{"service_id": s.lab, "quantity": 1})
		lb = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", lb.ID), map[string]any{"version": lb.Version})
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/payments", lb.ID), map[string]any{"method": "cash", "amount": lb.Total}); r.Status != http.StatusConflict || !strings.Contains(string(r.Body), "counted") {
			t.Errorf("cash into a counted drawer: %d %s", r.Status, r.Body)
		}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", cash.ID), map[string]any{"method": "cash", "amount": 100, "reason": "overcharged", "line_id": cash.Lines[1].ID,
			"drawer_id": s.env.UserID("front")}); r.Status != http.StatusConflict {
			t.Errorf("cash out of a counted drawer: %d %s", r.Status, r.Body)
		}
		if r := s.front.Do("PUT", "/api/drawers/float", map[string]any{"opening_float": 100000}); r.Status != http.StatusConflict {
			t.Errorf("a float into a counted drawer: %d %s", r.Status, r.Body)
		}
		// The first count differs and she gave no note with it: the close asks for one.
		if r := s.admin.Do("POST", close, map[string]any{"counted": 148000, "note": "  ", "acknowledge": true, "version": counted.Version}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"note"`) {
			t.Errorf("closing short without a note: %d %s", r.Status, r.Body)
		}
		again := apitest.Do[drawer](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID), map[string]any{"counted": 150000, "version": counted.Version})
		if again.FirstCount == nil || *again.FirstCount != 148000 || again.Version != counted.Version {
			t.Errorf("counted again: %+v", again)
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID), map[string]any{"counted": -5, "version": counted.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a negative count: %d", r.Status)
		}
		if r := s.front.Do("POST", close, map[string]any{"counted": 149000, "note": "a 1,000 note short", "version": d.Version}); r.Status != http.StatusConflict {
			t.Errorf("closing at the version before the count: %d", r.Status)
		}
		d.Version = counted.Version
		// The clinic's limit is 0 by default: a cashier's difference is acknowledged by a
		// supervisor, and the close is refused without one (M7).
		if r := s.front.Do("POST", close, map[string]any{"counted": 149000, "note": "a 1,000 note short", "acknowledge": true, "version": d.Version}); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(r.Body), `"acknowledge"`) || !strings.Contains(string(r.Body), "supervisor") {
			t.Errorf("a cashier closing a difference over the limit: %d %s", r.Status, r.Body)
		}
		if r := s.admin.Do("POST", close, map[string]any{"counted": 149000, "note": "a 1,000 note short", "version": d.Version}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"acknowledge"`) {
			t.Errorf("a supervisor closing a difference without acknowledging it: %d %s", r.Status, r.Body)
		}
		closed := apitest.Do[drawer](t, s.admin, http.StatusOK, "POST", close, map[string]any{"counted": 149000, "note": "a 1,000 note short", "acknowledge": true, "version": d.Version})
		if closed.Counted == nil || *closed.Counted != 149000 || closed.Difference == nil || *closed.Difference != -1000 || closed.DrawerCash != 150000 ||
			closed.FirstCount == nil || *closed.FirstCount != 148000 || closed.AcknowledgedBy != "Test admin" {
			t.Errorf("closed: %+v", closed)
		}
		if r := s.front.Do("POST", close, map[string]any{"counted": 150000, "version": closed.Version}); r.Status != http.StatusConflict {
			t.Errorf("closing twice: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'drawer.close'`); n != 1 {
			t.Errorf("the close audited %d times", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'drawer.count'`); n != 1 {
			t.Errorf("the blind count audited %d times", n)
		}
		var detail string
		if err := db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'drawer.close'`).Scan(&detail); err != nil {
			t.Fatal(err)
		}
		// In the reader's language, amounts in the currency's units, the note as written.
		if en, ru := audit.DetailIn("en", detail), audit.DetailIn("ru", detail); !strings.Contains(en, "difference -10.00 USD") || !strings.Contains(en, "note: a 1,000 note short") ||
			!strings.Contains(en, "first count 1480.00 USD") || !strings.Contains(en, "limit of 0.00 USD acknowledged") ||
			!strings.Contains(ru, "расхождение -10.00 USD") {
			t.Errorf("the close is audited as %q / %q", en, ru)
		}
		// The next cash payment opens a new shift, with the float she counts into it: asked,
		// not taken as 0 (issue 55, m18); the closed one keeps its count.
		appt := s.book(t, 240)
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.procedure, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.consultation, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		pay := fmt.Sprintf("/api/bills/%d/payments", b.ID)
		// A card payment first opens the new shift by itself (no cash, no float to ask); the
		// first cash into it still asks for the float (the cashier's review, 2026-11-29).
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", pay, map[string]any{"method": "card", "amount": 5050})
		if r := s.front.Do("POST", pay, map[string]any{"method": "cash", "amount": b.Total - 5050}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"opening_float"`) {
			t.Errorf("a cash payment into a drawer closed, with no float: %d %s", r.Status, r.Body)
		}
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", pay, map[string]any{"method": "cash", "amount": b.Total - 5050, "opening_float": 50000})
		after := apitest.Do[cashUp](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil)
		if len(after.Drawers) != 2 || after.Drawers[0].ShiftID != d.ShiftID || after.Drawers[0].DrawerCash != 150000 || after.Drawers[1].OpeningFloat != 50000 || !after.Blind {
			t.Errorf("after the close: %+v", after.Drawers)
		}
	})
}

// A refund for a service not given credits the bill first: on an unpaid bill it is a credit
// note that moves no cash; on a bill part paid, cash goes back only for what was paid beyond
// the new total; a named line's credit is limited to its share after the bill's own discount
// (issue 55, major 3).
func TestCreditBeforeCash(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		final := func(minutes int, discount int) bill {
			appt := s.book(t, minutes)
			b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.procedure, "quantity": 1})
			b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.consultation, "quantity": 1})
			if discount > 0 {
				b = apitest.Do[bill](t, s.front, http.StatusOK, "PUT", fmt.Sprintf("/api/bills/%d", b.ID), map[string]any{"discount_kind": "percent", "discount_value": discount, "discount_reason": "senior citizen", "version": b.Version})
			}
			return apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		}
		refund := func(b bill, amount int64) (settled, int) {
			r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": amount, "reason": "dressing not given", "line_id": b.Lines[0].ID})
			return apitest.Do[settled](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil), r.Status
		}
		// Unpaid: the dressing credited, no cash leaves any drawer.
		unpaid := final(60, 0)
		after, status := refund(unpaid, 35050)
		if status != http.StatusCreated || after.Paid != 0 || after.Credited != 35050 || after.Balance != 50000 || len(after.Payments) != 1 || after.Payments[0].Amount != 0 {
			t.Errorf("crediting an unpaid bill: %d %+v", status, after)
		}
		if drawers := apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers; len(drawers) != 0 {
			t.Errorf("a credit note opened a drawer: %+v", drawers)
		}
		// Part paid (30,000 of 85,050): the credit leaves 20,000 owing, no cash back.
		s.openDrawers(t)
		part := final(120, 0)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", part.ID), map[string]any{"method": "cash", "amount": 30000})
		after, status = refund(part, 35050)
		if status != http.StatusCreated || after.Paid != 30000 || after.Credited != 35050 || after.Balance != 20000 {
			t.Errorf("crediting a part-paid bill: %d %+v", status, after)
		}
		// Paid 60,000 of 85,050: 10,000 of it was beyond the new total of 50,000, and goes back.
		over := final(180, 0)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", over.ID), map[string]any{"method": "cash", "amount": 60000})
		if after, status = refund(over, 35050); status != http.StatusCreated || after.Paid != 50000 || after.Credited != 35050 || after.Balance != 0 {
			t.Errorf("crediting a bill paid beyond its new total: %d %+v", status, after)
		}
		// 20 % off: the dressing's share is 28,040, not its 35,050.
		senior := final(240, 2000)
		if _, status = refund(senior, 35050); status != http.StatusUnprocessableEntity {
			t.Errorf("crediting a line past its discounted share: %d", status)
		}
		if after, status = refund(senior, 28040); status != http.StatusCreated || after.Credited != 28040 || after.Balance != 40000 {
			t.Errorf("crediting a line its discounted share: %d %+v", status, after)
		}
	})
}

// The payment form learns before the cashier presses Receive whether her drawer's float is
// asked: required for any drawer whose float is not counted in yet (the day's first too, 0
// allowed: the cashier's review, M5), none once it has a float or cash (the clinic manager's
// run, 2026-11-29: the first drawer opened at 0 unasked, the next one asked only after a refusal).
func TestTheFloatIsAskedBeforeThePayment(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		ask := func() string {
			return apitest.Do[struct{ Ask string }](t, s.front, http.StatusOK, "GET", "/api/drawers/float", nil).Ask
		}
		if got := ask(); got != "required" {
			t.Fatalf("the day's first drawer: %q", got)
		}
		final := func(minutes int) bill {
			appt := s.book(t, minutes)
			b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.consultation, "quantity": 1})
			return apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		}
		b := final(60)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 20000})
		if got := ask(); got != "none" {
			t.Errorf("after the first cash: %q", got)
		}
		mine := apitest.Do[cashUp](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil)
		if len(mine.Drawers) != 1 || mine.Drawers[0].OpeningFloat != 20000 {
			t.Fatalf("the float given with the first cash: %+v", mine.Drawers)
		}
		d := mine.Drawers[0]
		countAndClose(t, s.front, d.ShiftID, d.Version, 20000+b.Total)
		if got := ask(); got != "required" {
			t.Errorf("after a close: %q", got)
		}
		// A float of 0 counted in on purpose is counted: nothing more is asked.
		apitest.Do[drawer](t, s.front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 0})
		if got := ask(); got != "none" {
			t.Errorf("after a float of 0 set on purpose: %q", got)
		}
		if r := s.nurse.Do("GET", "/api/drawers/float", nil); r.Status != http.StatusForbidden {
			t.Errorf("one who takes no payment asks: %d", r.Status)
		}
	})
}

// A clinic that tolerates small differences sets a limit: a difference within it closes on the
// cashier's word (with its note), one over it still needs a supervisor (the cashier's review, M7).
func TestDifferenceWithinTheClinicLimit(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var set struct {
			Currency     string            `json:"currency"`
			Consultation map[string]string `json:"consultation"`
			Limit        int64             `json:"drawer_difference_limit"`
			Version      int               `json:"version"`
		}
		s.admin.Do("GET", "/api/fees/settings", nil).JSON(t, &set)
		if set.Limit != 0 {
			t.Errorf("the default limit: %d", set.Limit)
		}
		if r := s.admin.Do("PUT", "/api/fees/settings", map[string]any{"currency": set.Currency, "drawer_difference_limit": -1, "version": set.Version}); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(r.Body), "drawer_difference_limit") {
			t.Errorf("a negative limit: %d %s", r.Status, r.Body)
		}
		s.admin.Do("PUT", "/api/fees/settings", map[string]any{"currency": set.Currency, "drawer_difference_limit": 2000, "version": set.Version}).JSON(t, &set)
		if set.Limit != 2000 {
			t.Fatalf("the limit saved: %+v", set)
		}
		s.openDrawers(t)
		s.finalPaid(t, 60, "cash") // 85,050 in cash
		d := apitest.Do[cashUp](t, s.front, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers[0]
		close := fmt.Sprintf("/api/drawers/%d/close", d.ShiftID)
		// Counted blind 20.00 short, with her note: within the limit.
		counted := apitest.Do[drawer](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID),
			map[string]any{"counted": 83050, "note": "change given twice", "version": d.Version})
		// A close with another count than the first needs a supervisor, even within the limit
		// (the review of the blind count, finding 1).
		if r := s.front.Do("POST", close, map[string]any{"counted": 83000, "note": "recounted", "version": counted.Version}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"acknowledge"`) {
			t.Errorf("a recount at the close: %d %s", r.Status, r.Body)
		}
		closed := apitest.Do[drawer](t, s.front, http.StatusOK, "POST", close, map[string]any{"counted": 83050, "version": counted.Version})
		if closed.Difference == nil || *closed.Difference != -2000 || closed.AcknowledgedBy != "" || closed.FirstCount == nil || *closed.FirstCount != 83050 ||
			closed.CountNote != "change given twice" || closed.Note != "" {
			t.Errorf("closed within the limit: %+v", closed)
		}
	})
}

// The review of the blind count: the close is judged on the first count, never on a count given
// after the expected figure was shown; the acknowledger is not the drawer's cashier; the
// cashier's note comes with her count, apart from the supervisor's at the close. Limit 0,
// expected 1,000,000: counted 800,000 the close is blocked, and a close with 1,000,000 still
// needs the supervisor.
func TestTheCloseIsJudgedOnTheFirstCount(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		d := apitest.Do[drawer](t, s.front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 1000000})
		if d.DrawerCash != 0 || d.CountExpected != nil {
			t.Errorf("the float's answer shows her what the drawer holds: %+v", d)
		}
		close := fmt.Sprintf("/api/drawers/%d/close", d.ShiftID)
		if r := s.front.Do("POST", close, map[string]any{"counted": 1000000, "version": d.Version}); r.Status != http.StatusConflict {
			t.Errorf("closing before the count: %d %s", r.Status, r.Body)
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID), map[string]any{"counted": 800000, "note": strings.Repeat("x", 501), "version": d.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a count note too long: %d", r.Status)
		}
		counted := apitest.Do[drawer](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", d.ShiftID),
			map[string]any{"counted": 800000, "note": "two notes stuck together?", "version": d.Version})
		if counted.CountExpected == nil || *counted.CountExpected != 1000000 || counted.CountNote != "two notes stuck together?" {
			t.Errorf("counted: %+v", counted)
		}
		for _, count := range []int64{800000, 1000000} {
			if r := s.front.Do("POST", close, map[string]any{"counted": count, "note": "found it", "version": counted.Version}); r.Status != http.StatusUnprocessableEntity ||
				!strings.Contains(string(r.Body), `"acknowledge"`) {
				t.Errorf("the cashier closing with %d: %d %s", count, r.Status, r.Body)
			}
		}
		if after := apitest.Do[drawer](t, s.admin, http.StatusOK, "GET", fmt.Sprintf("/api/drawers/%d", d.ShiftID), nil); after.ClosedAt != nil || after.Version != counted.Version || after.Counted != nil {
			t.Errorf("a refused close changed the drawer: %+v", after)
		}
		closed := apitest.Do[drawer](t, s.admin, http.StatusOK, "POST", close, map[string]any{"counted": 1000000, "note": "the 200,000 was in the safe bag", "acknowledge": true, "version": counted.Version})
		if closed.AcknowledgedBy != "Test admin" || closed.FirstCount == nil || *closed.FirstCount != 800000 || closed.CountNote != "two notes stuck together?" ||
			closed.Note != "the 200,000 was in the safe bag" || closed.DrawerCash != 1000000 {
			t.Errorf("closed: %+v", closed)
		}
		var detail string
		if err := db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'drawer.count'`).Scan(&detail); err != nil {
			t.Fatal(err)
		}
		if en := audit.DetailIn("en", detail); !strings.Contains(en, "cashier's note with the count: two notes stuck together?") {
			t.Errorf("the count is audited as %q", en)
		}

		// A supervisor acknowledges no difference of her own drawer (finding 3).
		own := s.book(t, 180)
		b := apitest.Do[bill](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", own), map[string]any{"service_id": s.lab, "quantity": 1})
		b = apitest.Do[bill](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total, "opening_float": 0})
		var mine drawer
		for _, x := range apitest.Do[cashUp](t, s.admin, http.StatusOK, "GET", "/api/reports/cash-up", nil).Drawers {
			if x.Cashier == "Test admin" && x.ClosedAt == nil {
				mine = x
			}
		}
		c := apitest.Do[drawer](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/drawers/%d/count", mine.ShiftID), map[string]any{"counted": b.Total - 100, "note": "short", "version": mine.Version})
		if r := s.admin.Do("POST", fmt.Sprintf("/api/drawers/%d/close", mine.ShiftID), map[string]any{"counted": b.Total - 100, "acknowledge": true, "version": c.Version}); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(r.Body), `"acknowledge"`) {
			t.Errorf("a supervisor acknowledging her own drawer: %d %s", r.Status, r.Body)
		}
	})
}
