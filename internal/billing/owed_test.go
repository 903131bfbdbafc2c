package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestOwedBySumsEveryFinalBill: what a patient owes is every final bill's balance, summed in
// SQL (the portal's balance, the cashier's review of 2026-11-29, C1): a part payment leaves
// the rest, a "still owed" refund asks its money again, a credit note and a void bill ask
// nothing, a draft is not issued, and another patient's bill is not theirs.
func TestOwedBySumsEveryFinalBill(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		ctx := context.Background()
		final := func(patient int64) bill {
			t.Helper()
			b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": patient})
			b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.lab, "quantity": 1})
			return apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		}
		pay := func(b bill, amount int64) {
			t.Helper()
			apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "card", "amount": amount})
		}
		refund := func(b bill, amount int64, stillOwed bool) {
			t.Helper()
			apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID),
				map[string]any{"method": "card", "amount": amount, "reason": "Test", "still_owed": stillOwed})
		}

		if owes, issued, err := billing.OwedBy(ctx, db, s.patientID); err != nil || owes != 0 || issued != 0 {
			t.Fatalf("no bills: %d owed, %d issued (%v)", owes, issued, err)
		}
		final(s.patientID)             // unpaid: 25,000
		pay(final(s.patientID), 10000) // part paid: 15,000
		b := final(s.patientID)        // paid, then 5,000 given back to be paid another way: 5,000
		pay(b, 25000)
		refund(b, 5000, true)
		refund(final(s.patientID), 25000, false) // a credit note on an unpaid bill: nothing
		v := final(s.patientID)                  // withdrawn: nothing
		apitest.Do[bill](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", v.ID), map[string]any{"version": v.Version, "reason": "Wrong patient"})
		d := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID}) // a draft: not issued
		apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", d.ID), map[string]any{"service_id": s.lab, "quantity": 1})
		var other struct{ ID int64 }
		s.front.Do("POST", "/api/patients", map[string]any{"first_name": "Minh", "last_name": "Lê", "birth_date": "1960-01-01", "sex": "male"}).JSON(t, &other)
		final(other.ID) // another patient's: not theirs

		owes, issued, err := billing.OwedBy(ctx, db, s.patientID)
		if err != nil || owes != 45000 || issued != 5 {
			t.Fatalf("owed %d on %d issued bills (%v), want 45,000 on 5", owes, issued, err)
		}
		// The same as the bills list's balances, added up one by one.
		var list struct {
			Data []struct {
				Balance int64 `json:"balance"`
			} `json:"data"`
		}
		s.front.Do("GET", fmt.Sprintf("/api/bills?patient_id=%d&per_page=50", s.patientID), nil).JSON(t, &list)
		var sum int64
		for _, row := range list.Data {
			sum += row.Balance
		}
		if len(list.Data) != 6 || billing.Money(sum) != owes {
			t.Errorf("the list's %d bills add up to %d, OwedBy says %d", len(list.Data), sum, owes)
		}
	})
}
