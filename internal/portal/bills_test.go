package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/feereport"
)

type portalBills struct {
	Balance int64 `json:"balance"`
	Issued  int   `json:"issued"`
	Bills   []struct {
		Number   string `json:"number"`
		Status   string `json:"status"`
		Subtotal int64  `json:"subtotal"`
		Discount int64  `json:"discount"`
		Total    int64  `json:"total"`
		Paid     int64  `json:"paid"`
		Credited int64  `json:"credited"`
		Balance  int64  `json:"balance"`
		Lines    []struct {
			Discount int64 `json:"discount"`
			Amount   int64 `json:"amount"`
		} `json:"lines"`
		Receipts []struct {
			Kind      string `json:"kind"`
			Amount    int64  `json:"amount"`
			Credit    int64  `json:"credit"`
			StillOwed bool   `json:"still_owed"`
		} `json:"receipts"`
	} `json:"bills"`
}

// TestPortalBalanceIsEveryBills (the cashier's review of 2026-11-29): the balance is what
// every final bill of the record asks, summed by billing in SQL, not the newest 50 listed:
// the three oldest bills owe and are not on the page, yet they are in the balance. Each bill
// listed adds up: its lines to the subtotal, less the bill's own discount to the total, and
// total − credited − paid to the balance; a "still owed" refund is marked as such, a credit
// never.
func TestPortalBalanceIsEveryBills(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		lan := w.patient(t, "Portal", "1985-03-04", map[string]any{"email": "lan@example.test"})
		w.invite(t, lan)
		ctx := context.Background()
		fees := &billing.Store{DB: db, Loc: time.UTC, Days: feereport.Book{}}
		e := audit.Event{ActorID: w.env.UserID("rec"), ActorName: "rec"}
		price := func(m billing.Money) *billing.Money { return &m }
		issue := func(lines ...billing.LineInput) billing.Bill {
			t.Helper()
			b, _, err := fees.CreateWalkIn(ctx, e, lan)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lines {
				if b, err = fees.AddLine(ctx, e, b.ID, 0, l, true); err != nil {
					t.Fatal(err)
				}
			}
			if b, err = fees.Finalise(ctx, e, b.ID, b.Version); err != nil {
				t.Fatal(err)
			}
			return b
		}
		visit := billing.LineInput{Description: "Consultation", Quantity: 1, UnitPrice: price(1000)}
		must := func(_ billing.Bill, _ billing.Payment, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}

		for range 3 { // the oldest: unpaid, 1,000 each
			issue(visit)
		}
		for range 48 { // paid in full
			b := issue(visit)
			must(fees.Pay(ctx, e, b.ID, billing.PaymentInput{Method: "card", Amount: 1000}))
		}
		// A discount: 6,000 at 10 % off the line, and 4,000; the bill 10 % off: 9,400 − 940.
		d, _, err := fees.CreateWalkIn(ctx, e, lan)
		if err != nil {
			t.Fatal(err)
		}
		d, _ = fees.AddLine(ctx, e, d.ID, 0, billing.LineInput{Description: "Ultrasound", Quantity: 1, UnitPrice: price(6000), DiscountKind: billing.DiscountPercent, DiscountValue: 1000, DiscountReason: "Senior"}, true)
		d, _ = fees.AddLine(ctx, e, d.ID, 0, billing.LineInput{Description: "Blood count", Quantity: 2, UnitPrice: price(2000)}, true)
		if d, err = fees.Update(ctx, e, d.ID, billing.BillInput{DiscountKind: billing.DiscountPercent, DiscountValue: 1000, DiscountReason: "Senior", Version: d.Version}); err != nil {
			t.Fatal(err)
		}
		if d, err = fees.Finalise(ctx, e, d.ID, d.Version); err != nil || d.Total != 8460 {
			t.Fatalf("the discounted bill: %d (%v)", d.Total, err)
		}
		// Paid 2,000, all given back to be paid another way: owed again.
		owedAgain := issue(billing.LineInput{Description: "X-ray", Quantity: 1, UnitPrice: price(2000)})
		must(fees.Pay(ctx, e, owedAgain.ID, billing.PaymentInput{Method: "card", Amount: 2000}))
		must(fees.Refund(ctx, e, owedAgain.ID, billing.RefundInput{Method: "card", Amount: 2000, Reason: "Paid by the wrong card", StillOwed: true}))
		// Paid 3,000, refunded for a service not given: credited, nothing owed.
		credited := issue(billing.LineInput{Description: "Dressing", Quantity: 1, UnitPrice: price(3000)})
		must(fees.Pay(ctx, e, credited.ID, billing.PaymentInput{Method: "card", Amount: 3000}))
		must(fees.Refund(ctx, e, credited.ID, billing.RefundInput{Method: "card", Amount: 3000, Reason: "Not given"}))
		// Withdrawn.
		void := issue(visit)
		if _, err := fees.Void(ctx, e, void.ID, billing.VoidInput{Reason: "Wrong patient", Version: void.Version}); err != nil {
			t.Fatal(err)
		}

		c := w.portalClient(t)
		w.signInByCode(t, c, "lan@example.test")
		r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/bills", lan), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("bills: %d %s", r.Status, r.Body)
		}
		var got portalBills
		r.JSON(t, &got)
		// 3 × 1,000 unlisted + 8,460 + 2,000; the newest 50 alone come to 10,460.
		if got.Balance != 13460 || got.Issued != 55 || len(got.Bills) != 50 {
			t.Fatalf("balance %d, %d issued, %d listed; want 13,460, 55, 50", got.Balance, got.Issued, len(got.Bills))
		}
		byNumber := map[string]int{}
		for i, b := range got.Bills {
			byNumber[b.Number] = i
			var lines int64
			for _, l := range b.Lines {
				lines += l.Amount
			}
			if lines != b.Subtotal || b.Subtotal-b.Discount != b.Total {
				t.Errorf("%s: lines %d, subtotal %d − discount %d ≠ total %d", b.Number, lines, b.Subtotal, b.Discount, b.Total)
			}
			if b.Status == "final" && b.Total-b.Credited-b.Paid != b.Balance {
				t.Errorf("%s: %d − %d − %d ≠ balance %d", b.Number, b.Total, b.Credited, b.Paid, b.Balance)
			}
		}
		if b := got.Bills[byNumber[d.Number]]; b.Subtotal != 9400 || b.Discount != 940 || b.Total != 8460 || b.Lines[0].Discount != 600 || b.Balance != 8460 {
			t.Errorf("the discounted bill: %+v", b)
		}
		if b := got.Bills[byNumber[owedAgain.Number]]; b.Balance != 2000 || b.Credited != 0 || len(b.Receipts) != 2 || !b.Receipts[1].StillOwed || b.Receipts[1].Kind != "refund" {
			t.Errorf("the bill owed again: %+v", b)
		}
		if b := got.Bills[byNumber[credited.Number]]; b.Balance != 0 || b.Credited != 3000 || b.Paid != 0 || len(b.Receipts) != 2 || b.Receipts[1].StillOwed || b.Receipts[0].StillOwed {
			t.Errorf("the credited bill: %+v", b)
		}
		if b := got.Bills[byNumber[void.Number]]; b.Status != "void" || b.Balance != 0 {
			t.Errorf("the void bill: %+v", b)
		}
	})
}
