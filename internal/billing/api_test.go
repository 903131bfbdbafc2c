package billing_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type bill struct {
	ID      int64  `json:"id"`
	Number  string `json:"number"`
	Status  string `json:"status"`
	Patient struct {
		Name string `json:"name"`
	} `json:"patient"`
	Doctor string `json:"doctor"`
	Lines  []struct {
		ID          int64  `json:"id"`
		Code        string `json:"code"`
		Description string `json:"description"`
		UnitPrice   int64  `json:"unit_price"`
		Discount    int64  `json:"discount"`
		Amount      int64  `json:"amount"`
		AddedBy     string `json:"added_by"`
	} `json:"lines"`
	Payments []struct {
		Kind    string `json:"kind"`
		Amount  int64  `json:"amount"`
		Change  int64  `json:"change"`
		Receipt string `json:"receipt"`
	} `json:"payments"`
	Subtotal     int64  `json:"subtotal"`
	Discount     int64  `json:"discount"`
	Total        int64  `json:"total"`
	Paid         int64  `json:"paid"`
	Balance      int64  `json:"balance"`
	ReplacesID   *int64 `json:"replaces_id"`
	ReplacedByID *int64 `json:"replaced_by_id"`
	Version      int    `json:"version"`
}

type moved struct {
	Bill    bill `json:"bill"`
	Payment struct {
		Change  int64  `json:"change"`
		Receipt string `json:"receipt"`
	} `json:"payment"`
}

type setup struct {
	env                          *apitest.Env
	admin, doctor, front, nurse  *apitest.Client
	patientID                    int64
	consultation, procedure, lab int64 // service ids
}

func newSetup(t *testing.T, db *database.DB) *setup {
	env := apitest.New(t, db)
	s := &setup{env: env}
	s.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	s.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	s.front = env.LoggedIn("front", env.CreateUser("front", "receptionist"))
	s.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	var p struct{ ID int64 }
	s.front.Do("POST", "/api/patients", map[string]any{"first_name": "Lan", "last_name": "Trần", "birth_date": "1950-06-15", "sex": "female", "history": map[string]any{"allergy_status": "none"}}).JSON(t, &p)
	s.patientID = p.ID
	s.consultation = s.service(t, "CONS-NEW", "Consultation", "consultation", 50000)
	s.procedure = s.service(t, "PROC-DRESS", "Wound dressing", "procedure", 35050)
	s.lab = s.service(t, "LAB-CBC", "Complete blood count", "laboratory", 25000)
	return s
}

func (s *setup) service(t *testing.T, code, name, category string, price int64) int64 {
	t.Helper()
	var sv struct{ ID int64 }
	r := s.admin.Do("POST", "/api/services", map[string]any{"code": code, "name": name, "category": category, "price": price})
	if r.Status != http.StatusCreated {
		t.Fatalf("service %s: %d %s", code, r.Status, r.Body)
	}
	r.JSON(t, &sv)
	return sv.ID
}

// book makes an appointment of the patient with the doctor, minutes from now.
func (s *setup) book(t *testing.T, minutes int) int64 {
	t.Helper()
	var docs struct{ Data []struct{ ID int64 } }
	s.front.Do("GET", "/api/doctors", nil).JSON(t, &docs)
	var a struct{ ID int64 }
	r := s.front.Do("POST", "/api/appointments", map[string]any{"patient_id": s.patientID, "doctor_id": docs.Data[0].ID,
		"starts_at": time.Now().UTC().Add(time.Duration(minutes) * time.Minute).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 10, "type": "new"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &a)
	return a.ID
}

// A whole visit's fees: the doctor charges a procedure during the visit, the front desk adds
// the consultation and a 20 % discount with a reason, finalises, takes part in cash (with
// change) and the rest by card; the cash-up then shows both methods.
func TestVisitBillFromChargeToCashUp(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		appt := s.book(t, 60)
		path := fmt.Sprintf("/api/appointments/%d/bill", appt)

		b := apitest.Do[bill](t, s.doctor, http.StatusCreated, "POST", path+"/lines", map[string]any{"service_id": s.procedure, "quantity": 1})
		if b.Status != "draft" || b.Subtotal != 35050 || b.Lines[0].AddedBy != "Test doc" || b.Patient.Name != "Lan Trần" || b.Doctor == "" {
			t.Errorf("first charge: %+v", b)
		}
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", path+"/lines", map[string]any{"service_id": s.consultation, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "PUT", fmt.Sprintf("/api/bills/%d", b.ID), map[string]any{"discount_kind": "percent", "discount_value": 2000, "discount_reason": "senior citizen", "version": b.Version})
		// 500.00 + 350.50 = 850.50; 20 % = 170.10; due 680.40.
		if b.Subtotal != 85050 || b.Discount != 17010 || b.Total != 68040 {
			t.Errorf("totals: %d - %d = %d", b.Subtotal, b.Discount, b.Total)
		}
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		if b.Status != "final" || !strings.HasSuffix(b.Number, "-000001") || b.Balance != 68040 {
			t.Errorf("finalised: %s %s balance %d", b.Status, b.Number, b.Balance)
		}
		// Fixed, by SQL too (TestBillRules: through the API).
		// Marking which order a line charges changes no amount (migration 00061), but not along with an amount.
		for _, q := range []string{`UPDATE bills SET total = 1 WHERE id = $1`, `UPDATE bill_lines SET amount = 1 WHERE bill_id = $1`,
			`UPDATE bill_lines SET lab_order_id = 1, amount = amount + 1 WHERE bill_id = $1`, `UPDATE bill_lines SET lab_order_id = 1, quantity = 2 WHERE bill_id = $1`,
			`DELETE FROM bill_lines WHERE bill_id = $1`, `DELETE FROM bills WHERE id = $1`, `UPDATE bills SET status = 'draft' WHERE id = $1`} {
			if _, err := db.Exec(q, b.ID); err == nil || !strings.Contains(err.Error(), "finalised bill") {
				t.Errorf("%s: %v", q, err)
			}
		}

		// 300 in cash from 500 handed over (change 200), then the rest by card.
		m := apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": 30000, "tendered": 50000})
		if m.Payment.Change != 20000 || m.Bill.Balance != 38040 || !strings.HasPrefix(m.Payment.Receipt, "PR-") {
			t.Errorf("cash: %+v", m)
		}
		// Each paper its own series: a bill's number is not a patient's (2026-000001), a
		// receipt's is given once whatever writes.
		if !regexp.MustCompile(`^BL-\d{4}-\d{6}$`).MatchString(b.Number) {
			t.Errorf("a bill numbered %q", b.Number)
		}
		if _, err := db.Exec(`INSERT INTO payments (bill_id, kind, method, amount, receipt, received_at, day) SELECT bill_id, kind, method, amount, receipt, received_at, day FROM payments WHERE receipt = $1`, m.Payment.Receipt); err == nil {
			t.Errorf("receipt %s given twice", m.Payment.Receipt)
		}
		m = apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "card", "amount": 38040, "reference": "slip 0042"})
		if m.Bill.Balance != 0 || m.Bill.Paid != 68040 {
			t.Errorf("paid: %+v", m.Bill)
		}
		if _, err := db.Exec(`UPDATE payments SET amount = 1`); err == nil {
			t.Error("a payment was changed by SQL")
		}

		var cash struct {
			Rows []struct {
				Cashier string `json:"cashier"`
				Method  string `json:"method"`
				Net     int64  `json:"net"`
			} `json:"rows"`
			Total struct{ Net int64 } `json:"total"`
		}
		s.admin.Do("GET", "/api/reports/cash-up", nil).JSON(t, &cash)
		if len(cash.Rows) != 2 || cash.Rows[0].Method != "cash" || cash.Rows[0].Net != 30000 || cash.Rows[1].Method != "card" || cash.Rows[1].Net != 38040 || cash.Total.Net != 68040 {
			t.Errorf("cash-up: %+v", cash)
		}
		// The cash-up against a GROUP BY over the rows.
		if sum := dbtest.Count(t, db, `SELECT COALESCE(SUM(CASE WHEN kind = 'refund' THEN -amount ELSE amount END), 0) FROM payments`); int64(sum) != cash.Total.Net {
			t.Errorf("cash-up total %d, rows %d", cash.Total.Net, sum)
		}

		// The queue's tags: this visit paid, another without a bill untagged.
		other := s.book(t, 120)
		var tags struct {
			Data []struct {
				AppointmentID int64  `json:"appointment_id"`
				Status        string `json:"status"`
				Balance       int64  `json:"balance"`
			} `json:"data"`
		}
		s.front.Do("GET", fmt.Sprintf("/api/bill-tags?appointments=%d,%d", appt, other), nil).JSON(t, &tags)
		if len(tags.Data) != 1 || tags.Data[0].AppointmentID != appt || tags.Data[0].Status != "final" || tags.Data[0].Balance != 0 {
			t.Errorf("tags: %+v", tags)
		}
		// Today's figure: what the cash-up says.
		var today struct {
			Collected int64 `json:"collected"`
			Payments  int   `json:"payments"`
		}
		s.admin.Do("GET", "/api/reports/today", nil).JSON(t, &today)
		if today.Collected != 68040 || today.Payments != 2 {
			t.Errorf("today: %+v", today)
		}

		// Prints: the statement (with the doctor's details) and the receipt, each audited.
		var printed struct {
			DoctorDetails *struct {
				Name string `json:"name"`
			} `json:"doctor_details"`
		}
		apitest.Do[struct{}](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/print", b.ID), map[string]any{"document": "receipt"})
		s.front.Do("POST", fmt.Sprintf("/api/bills/%d/print", b.ID), map[string]any{"document": "statement"}).JSON(t, &printed)
		if printed.DoctorDetails == nil || printed.DoctorDetails.Name == "" {
			t.Errorf("statement's doctor: %+v", printed)
		}
		// Audited with the patient: finalise, both payments and both prints.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('bill.finalise', 'bill.payment', 'bill.print') AND patient_id = $1`, s.patientID); n != 5 {
			t.Errorf("audited: %d events", n)
		}
		// Each in the reader's language: the payment's method and the document printed in words.
		details := map[string]string{}
		rows, err := db.QueryContext(context.Background(), `SELECT action, detail FROM audit_events WHERE action IN ('bill.payment', 'bill.print') ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var action, detail string
			if err := rows.Scan(&action, &detail); err != nil {
				t.Fatal(err)
			}
			details[action] = audit.DetailIn("vi", detail)
		}
		rows.Close()
		if !strings.Contains(details["bill.payment"], "tiền mặt") && !strings.Contains(details["bill.payment"], "thẻ") {
			t.Errorf("a payment is audited in Vietnamese as %q", details["bill.payment"])
		}
		if !strings.HasPrefix(details["bill.print"], "bảng kê chi phí khám bệnh ") {
			t.Errorf("a statement's print is audited in Vietnamese as %q", details["bill.print"])
		}
	})
}

// Voiding: never with money on the bill (refunded first, with a reason); the replacement
// starts as a draft with the same charges and takes the next number when finalised.
func TestVoidAndReplaceAfterRefund(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		appt := s.book(t, 60)
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.consultation, "quantity": 2})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		m := apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": 100000})
		b = m.Bill
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"reason": "charged twice", "version": b.Version}); r.Status != http.StatusForbidden {
			t.Errorf("a receptionist voiding: %d", r.Status)
		}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"reason": "charged twice", "version": b.Version}); r.Status != http.StatusConflict {
			t.Errorf("voiding a paid bill: %d", r.Status)
		}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": 100000}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a refund without a reason: %d", r.Status)
		}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": 100001, "reason": "charged twice"}); r.Status != http.StatusConflict {
			t.Errorf("refunding more than was paid: %d", r.Status)
		}
		m = apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID), map[string]any{"method": "cash", "amount": 100000, "reason": "charged twice"})
		if m.Bill.Paid != 0 || !strings.HasPrefix(m.Payment.Receipt, "RS-") {
			t.Errorf("refunded: %+v", m)
		}
		if r := s.admin.Do("POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"reason": " ", "version": m.Bill.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a void without a reason: %d", r.Status)
		}
		next := apitest.Do[bill](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", b.ID), map[string]any{"reason": "charged twice", "replace": true, "version": m.Bill.Version})
		if next.Status != "draft" || next.ReplacesID == nil || *next.ReplacesID != b.ID || next.Total != 100000 || len(next.Lines) != 1 {
			t.Errorf("replacement: %+v", next)
		}
		old := apitest.Do[bill](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if old.Status != "void" || old.ReplacedByID == nil || *old.ReplacedByID != next.ID || old.Number != b.Number {
			t.Errorf("voided: %+v", old)
		}
		// The visit's bill is now the replacement; correct it and finalise: the next number.
		cur := apitest.Do[bill](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", appt), nil)
		cur = apitest.Do[bill](t, s.front, http.StatusOK, "PUT", fmt.Sprintf("/api/bills/%d/lines/%d", cur.ID, cur.Lines[0].ID), map[string]any{"service_id": s.consultation, "quantity": 1, "version": cur.Version})
		cur = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", cur.ID), map[string]any{"version": cur.Version})
		if cur.ID != next.ID || cur.Total != 50000 || !strings.HasSuffix(cur.Number, "-000002") {
			t.Errorf("replacement finalised: %d %d %s", cur.ID, cur.Total, cur.Number)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('bill.void', 'bill.refund') AND patient_id = $1`, s.patientID); n != 2 {
			t.Errorf("audited: %d events", n)
		}
	})
}

// Numbers: concurrent finalisers get 1..n without a gap or a repeat, and a finalise that
// fails (a stale version) takes none.
func TestBillNumbersAreGapFreeUnderConcurrency(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		const n = 12
		bills := make([]bill, n)
		for i := range bills {
			// A patient each: a patient's open draft is reopened, not doubled.
			var p struct{ ID int64 }
			s.front.Do("POST", "/api/patients", map[string]any{"first_name": fmt.Sprint("Walk", i), "last_name": "In", "birth_date": "1960-01-01", "sex": "male",
				"history": map[string]any{"allergy_status": "none"}}).JSON(t, &p)
			b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": p.ID})
			bills[i] = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"description": "Home visit", "unit_price": 10000 + i, "quantity": 1})
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/finalise", bills[0].ID), map[string]any{"version": bills[0].Version - 1}); r.Status != http.StatusConflict {
			t.Errorf("stale finalise: %d", r.Status)
		}
		var wg sync.WaitGroup
		numbers := make([]string, n)
		for i, b := range bills {
			wg.Go(func() {
				var out bill
				r := s.front.Do("POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
				if r.Status != http.StatusOK {
					t.Errorf("finalise %d: %d %s", b.ID, r.Status, r.Body)
					return
				}
				r.JSON(t, &out)
				numbers[i] = out.Number
			})
		}
		wg.Wait()
		seen := map[string]bool{}
		for _, num := range numbers {
			seen[num] = true
		}
		year := time.Now().Year()
		for i := 1; i <= n; i++ {
			if num := fmt.Sprintf("BL-%d-%06d", year, i); !seen[num] {
				t.Errorf("number %s missing from %v", num, numbers)
			}
		}
	})
}

// Two cashiers taking the same balance at once: one succeeds, the others get 409, and the
// bill is never overpaid.
func TestConcurrentPaymentsNeverOverpay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.lab, "quantity": 3})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		second := s.env.LoggedIn("front2", s.env.CreateUser("front2", "receptionist"))
		var wg sync.WaitGroup
		statuses := make([]int, 8)
		for i := range statuses {
			c := s.front
			if i%2 == 1 {
				c = second
			}
			wg.Go(func() {
				statuses[i] = c.Do("POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "card", "amount": b.Balance}).Status
			})
		}
		wg.Wait()
		ok := 0
		for _, st := range statuses {
			switch st {
			case http.StatusCreated:
				ok++
			case http.StatusConflict:
			default:
				t.Errorf("payment: %d", st)
			}
		}
		after := apitest.Do[bill](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", b.ID), nil)
		if ok != 1 || after.Paid != 75000 || len(after.Payments) != 1 {
			t.Errorf("%d payments succeeded; paid %d of 75000 in %d payments", ok, after.Paid, len(after.Payments))
		}
	})
}

// The price list: a code once, CSV export and import round trip in the clinic's currency
// (đồng have no decimals), withdrawn services charge nothing new.
func TestPriceListImportExportAndCurrency(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		if r := s.admin.Do("POST", "/api/services", map[string]any{"code": "cons-new", "name": "Again", "category": "consultation", "price": 1}); r.Status != http.StatusConflict {
			t.Errorf("a code twice: %d", r.Status)
		}
		if r := s.doctor.Do("POST", "/api/services", map[string]any{"code": "X", "name": "X", "category": "other", "price": 1}); r.Status != http.StatusForbidden {
			t.Errorf("a doctor adding a service: %d", r.Status)
		}
		var set struct {
			Currency   string `json:"currency"`
			MinorUnits int    `json:"minor_units"`
			Version    int    `json:"version"`
		}
		s.admin.Do("GET", "/api/fees/settings", nil).JSON(t, &set)
		set = apitest.Do[struct {
			Currency   string `json:"currency"`
			MinorUnits int    `json:"minor_units"`
			Version    int    `json:"version"`
		}](t, s.admin, http.StatusOK, "PUT", "/api/fees/settings", map[string]any{"currency": "VND", "consultation": map[string]string{"new": "CONS-NEW"}, "version": set.Version})
		if set.Currency != "VND" || set.MinorUnits != 0 {
			t.Errorf("settings: %+v", set)
		}
		csv := "code,name,category,price,active\nCONS-NEW,Khám bệnh,consultation,200000,yes\nPROC-INJ,Tiêm,procedure,50000\nBAD,Half,procedure,1.5\nLAB-CBC,Complete blood count,laboratory,25000,no\n@SUM(A1),=1+2,other,100,yes\n"
		var rep struct {
			Inserted, Updated, Rejected int
			Errors                      []struct {
				Line  int    `json:"line"`
				Field string `json:"field"`
			}
		}
		s.admin.Upload("POST", "/api/services/import", "services.csv", []byte(csv)).JSON(t, &rep)
		if rep.Inserted != 2 || rep.Updated != 2 || rep.Rejected != 1 || rep.Errors[0].Line != 4 || rep.Errors[0].Field != "price" {
			t.Errorf("import: %+v", rep)
		}
		r := s.admin.Do("GET", "/api/services/export", nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "CONS-NEW,Khám bệnh,consultation,200000,yes") || !strings.Contains(string(r.Body), "LAB-CBC,Complete blood count,laboratory,25000,no") {
			t.Errorf("export: %d %s", r.Status, r.Body)
		}
		// Every cell is guarded against formulas, the code too (a spreadsheet would run it).
		if !strings.Contains(string(r.Body), "'@SUM(A1),'=1+2,other,100,yes") {
			t.Errorf("a formula in the price list's export: %s", r.Body)
		}
		// A withdrawn service is not charged; a new visit's bill starts with its consultation.
		appt := s.book(t, 90)
		if r := s.front.Do("POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.lab, "quantity": 1}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("charging a withdrawn service: %d", r.Status)
		}
		b := apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/bill", appt), nil)
		if len(b.Lines) != 1 || b.Lines[0].Code != "CONS-NEW" || b.Total != 200000 {
			t.Errorf("a new visit's bill: %+v", b)
		}
		// Bills are in đồng now: the currency stays.
		if r := s.admin.Do("PUT", "/api/fees/settings", map[string]any{"currency": "PHP", "version": set.Version}); r.Status != http.StatusConflict {
			t.Errorf("changing the currency under bills: %d", r.Status)
		}
	})
}

// Revenue by service is net of what refunds credited: a refund for one service not given
// takes its row down, a credit naming no service is a row of its own, and the rows add up to
// the total; by doctor, a walk-in bill's row says so in words (issue 55, m17).
func TestRevenueIsNetOfRefunds(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.procedure, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b.ID), map[string]any{"service_id": s.lab, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": b.Total})
		lab := b.Lines[1]
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID),
			map[string]any{"method": "cash", "amount": lab.UnitPrice, "reason": "sample never taken", "line_id": lab.ID})
		apitest.Do[moved](t, s.admin, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/refunds", b.ID),
			map[string]any{"method": "cash", "amount": 5000, "reason": "waited an hour"})

		today := time.Now().Format(time.DateOnly)
		var rev struct {
			Rows []struct {
				Key      string `json:"key"`
				Name     string `json:"name"`
				Amount   int64  `json:"amount"`
				Credited int64  `json:"credited"`
			} `json:"rows"`
			BillDiscounts int64 `json:"bill_discounts"`
			CreditedApart int64 `json:"credited_apart"`
			Total         int64 `json:"total"`
		}
		s.admin.Do("GET", "/api/reports/revenue?by=service&from="+today+"&to="+today, nil).JSON(t, &rev)
		sum := int64(0)
		byKey, credited := map[string]int64{}, map[string]int64{}
		for _, r := range rev.Rows {
			sum += r.Amount
			byKey[r.Key], credited[r.Key] = r.Amount, r.Credited
		}
		// The service wholly credited says so: charged, credited, 0 — not a bare "1 · 0".
		if byKey[lab.Code] != 0 || credited[lab.Code] != lab.UnitPrice || rev.CreditedApart != 5000 || rev.Total != b.Total-lab.UnitPrice-5000 || sum-rev.BillDiscounts-rev.CreditedApart != rev.Total {
			t.Errorf("revenue by service not net of credits: %+v (bill %d)", rev, b.Total)
		}
		s.admin.SetCookie("language", "vi")
		s.admin.Do("GET", "/api/reports/revenue?by=doctor&from="+today+"&to="+today, nil).JSON(t, &rev)
		if len(rev.Rows) != 1 || rev.Rows[0].Key != "" || rev.Rows[0].Name != "Khách vãng lai, không có bác sĩ" || rev.Rows[0].Amount != rev.Total {
			t.Errorf("revenue by doctor, a walk-in: %+v", rev)
		}
	})
}

// The reports against GROUP BY over the rows: the bills of a range and their totals, revenue
// by service (rows and the bills' own discounts add up to the total) and by doctor, the
// outstanding list, CSV exports (audited), and a range that is no range.
func TestReportsAddUpToTheRows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		final := func(b bill) bill {
			return apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		}
		// A visit: consultation + 2 × lab with 10 % off the lab line, 5 % off the bill.
		appt := s.book(t, 60)
		b1 := apitest.Do[bill](t, s.doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.consultation, "quantity": 1})
		b1 = apitest.Do[bill](t, s.doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b1.ID), map[string]any{"service_id": s.lab, "quantity": 2, "discount_kind": "percent", "discount_value": 1000, "discount_reason": "staff family"})
		b1 = apitest.Do[bill](t, s.front, http.StatusOK, "PUT", fmt.Sprintf("/api/bills/%d", b1.ID), map[string]any{"discount_kind": "percent", "discount_value": 500, "discount_reason": "senior citizen", "version": b1.Version})
		b1 = final(b1)
		// 500.00 + (500.00 - 50.00) = 950.00; 5 % = 47.50 → 902.50.
		if b1.Total != 90250 {
			t.Fatalf("bill 1 total %d", b1.Total)
		}
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b1.ID), map[string]any{"method": "cash", "amount": 50000})
		// A walk-in: a dressing and a free-text charge, paid in full; and a voided one.
		b2 := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		b2 = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b2.ID), map[string]any{"service_id": s.procedure, "quantity": 1})
		b2 = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b2.ID), map[string]any{"description": "Home visit", "unit_price": 20000, "quantity": 1})
		b2 = final(b2)
		apitest.Do[moved](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b2.ID), map[string]any{"method": "card", "amount": b2.Total})
		b3 := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		b3 = final(apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", b3.ID), map[string]any{"service_id": s.lab, "quantity": 1}))
		apitest.Do[bill](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/void", b3.ID), map[string]any{"reason": "wrong patient", "version": b3.Version})

		today := time.Now().Format(time.DateOnly)
		week := time.Now().AddDate(0, 0, -7).Format(time.DateOnly)
		var rep struct {
			Totals struct {
				Bills, Void                                  int
				Subtotal, Discount, Total, Paid, Outstanding int64
			} `json:"totals"`
			Data []struct {
				Number string `json:"number"`
				Status string `json:"status"`
				Doctor string `json:"doctor"`
			} `json:"data"`
			Total int `json:"total"`
		}
		s.admin.Do("GET", "/api/reports/bills?from="+week+"&to="+today, nil).JSON(t, &rep)
		var want struct{ n, subtotal, discount, total, paid int64 }
		want.n = int64(dbtest.Count(t, db, `SELECT COUNT(*) FROM bills WHERE status = 'final'`))
		want.subtotal = int64(dbtest.Count(t, db, `SELECT SUM(subtotal) FROM bills WHERE status = 'final'`))
		want.discount = int64(dbtest.Count(t, db, `SELECT SUM(discount) FROM bills WHERE status = 'final'`))
		want.total = int64(dbtest.Count(t, db, `SELECT SUM(total) FROM bills WHERE status = 'final'`))
		want.paid = int64(dbtest.Count(t, db, `SELECT SUM(paid) FROM bills WHERE status = 'final'`))
		tt := rep.Totals
		if int64(tt.Bills) != want.n || tt.Void != 1 || tt.Subtotal != want.subtotal || tt.Discount != want.discount || tt.Total != want.total ||
			tt.Paid != want.paid || tt.Outstanding != want.total-want.paid || rep.Total != 3 || len(rep.Data) != 3 || rep.Data[2].Status != "void" || rep.Data[0].Doctor != "Test doc" {
			t.Errorf("bills report: %+v, want %+v", rep, want)
		}
		// Yesterday's range holds none of today's bills.
		yesterday := time.Now().AddDate(0, 0, -1).Format(time.DateOnly)
		s.admin.Do("GET", "/api/reports/bills?from="+week+"&to="+yesterday, nil).JSON(t, &rep)
		if rep.Total != 0 || rep.Totals.Total != 0 {
			t.Errorf("an earlier range: %+v", rep)
		}

		var rev struct {
			Rows []struct {
				Key    string `json:"key"`
				Name   string `json:"name"`
				Count  int    `json:"count"`
				Amount int64  `json:"amount"`
			} `json:"rows"`
			BillDiscounts int64 `json:"bill_discounts"`
			Total         int64 `json:"total"`
		}
		s.admin.Do("GET", "/api/reports/revenue?by=service&from="+today+"&to="+today, nil).JSON(t, &rev)
		byKey := map[string]int64{}
		sum := int64(0)
		for _, r := range rev.Rows {
			byKey[r.Key+"/"+r.Name] = r.Amount
			sum += r.Amount
		}
		// Each line counts after its share of its bill's own discount (the cashier's review, M8):
		// bill 1's 4,750 off is borne by its consultation (2,500) and its blood count (2,250).
		if byKey["CONS-NEW/Consultation"] != 47500 || byKey["LAB-CBC/Complete blood count"] != 42750 || byKey["PROC-DRESS/Wound dressing"] != 35050 ||
			byKey["/Home visit"] != 20000 || rev.BillDiscounts != 0 || sum-rev.BillDiscounts != rev.Total || rev.Total != want.total {
			t.Errorf("revenue by service: %+v", rev)
		}
		s.admin.Do("GET", "/api/reports/revenue?by=doctor&from="+today+"&to="+today, nil).JSON(t, &rev)
		if len(rev.Rows) != 2 || rev.Rows[0].Name != "Test doc" || rev.Rows[0].Amount != 90250 || rev.Rows[1].Key != "" || rev.Rows[1].Amount != b2.Total {
			t.Errorf("revenue by doctor: %+v", rev)
		}

		var owing struct {
			Data []struct {
				Number  string `json:"number"`
				Balance int64  `json:"balance"`
			} `json:"data"`
			Total   int   `json:"total"`
			Balance int64 `json:"balance"`
		}
		s.admin.Do("GET", "/api/reports/outstanding", nil).JSON(t, &owing)
		if len(owing.Data) != 1 || owing.Data[0].Number != b1.Number || owing.Data[0].Balance != 40250 || owing.Total != 1 || owing.Balance != 40250 {
			t.Errorf("outstanding: %+v", owing)
		}
		// Against the rows; and a page past the end is empty, with the same count.
		if sum := dbtest.Count(t, db, `SELECT COALESCE(SUM(total - paid), 0) FROM bills WHERE status = 'final'`); int64(sum) != owing.Balance {
			t.Errorf("outstanding %d, rows %d", owing.Balance, sum)
		}
		owing.Data = nil
		s.admin.Do("GET", "/api/reports/outstanding?page=2&per_page=10", nil).JSON(t, &owing)
		if len(owing.Data) != 0 || owing.Total != 1 {
			t.Errorf("outstanding page 2: %+v", owing)
		}

		for _, path := range []string{"/api/reports/bills?format=csv&from=" + today + "&to=" + today, "/api/reports/revenue?format=csv&by=service&from=" + today + "&to=" + today,
			"/api/reports/cash-up?format=csv", "/api/reports/outstanding?format=csv"} {
			r := s.admin.Do("GET", path, nil)
			if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") || !strings.Contains(string(r.Body), "USD") {
				t.Errorf("%s: %d %s", path, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'report.export'`); n != 4 {
			t.Errorf("exports audited: %d", n)
		}
		for _, q := range []string{"from=" + today + "&to=" + week, "from=2026-13-01&to=" + today, "from=2020-01-01&to=" + today} {
			if r := s.admin.Do("GET", "/api/reports/bills?"+q, nil); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("bills report %s: %d", q, r.Status)
			}
		}
		if r := s.admin.Do("GET", "/api/reports/revenue?by=nurse&from="+today+"&to="+today, nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("revenue by nurse: %d", r.Status)
		}
	})
}

// A doctor and the front desk charging a visit's first services at the same moment: one
// bill, both charges on it (two services; the same one twice would be refused, unconfirmed).
func TestFirstChargesAtOnceShareOneBill(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for round := range 4 {
			appt := s.book(t, 60+30*round)
			var wg sync.WaitGroup
			ids := make([]int64, 2)
			for i, c := range []*apitest.Client{s.doctor, s.front} {
				service := []int64{s.lab, s.procedure}[i]
				wg.Go(func() {
					r := c.Do("POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": service, "quantity": 1})
					if r.Status != http.StatusCreated {
						t.Errorf("charge %d: %d %s", i, r.Status, r.Body)
						return
					}
					var b bill
					r.JSON(t, &b)
					ids[i] = b.ID
				})
			}
			wg.Wait()
			b := apitest.Do[bill](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/bill", appt), nil)
			if ids[0] != ids[1] || ids[0] != b.ID || len(b.Lines) != 2 {
				t.Errorf("round %d: bills %v, the visit's %d with %d lines", round, ids, b.ID, len(b.Lines))
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM bills WHERE appointment_id = $1`, appt); n != 1 {
				t.Errorf("round %d: %d bills", round, n)
			}
		}
	})
}

// The consultation fee shows from the moment the visit is under way, and is never charged
// twice by accident: a visit that has arrived shows the bill it will have (its consultation,
// not written yet); the desk charging the consultation by hand as the first charge leaves it
// on the bill once; charging it again is refused with a 409 naming it, unless confirmed.
func TestConsultationIsChargedOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var set struct{ Version int }
		s.admin.Do("GET", "/api/fees/settings", nil).JSON(t, &set)
		if r := s.admin.Do("PUT", "/api/fees/settings", map[string]any{"currency": "VND", "consultation": map[string]string{"new": "CONS-NEW"}, "version": set.Version}); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		appt := s.book(t, 5)
		path := fmt.Sprintf("/api/appointments/%d/bill", appt)
		if r := s.front.Do("GET", path, nil); r.Status != http.StatusNotFound {
			t.Errorf("the bill of a visit only booked: %d", r.Status)
		}
		if r := s.front.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", appt), nil); r.Status != http.StatusOK {
			t.Fatalf("arrive: %d %s", r.Status, r.Body)
		}
		var preview struct {
			ID      int64 `json:"id"`
			Preview bool  `json:"preview"`
			Total   int64 `json:"total"`
			Lines   []struct {
				Code string `json:"code"`
			} `json:"lines"`
		}
		if r := s.front.Do("GET", path, nil); r.Status != http.StatusOK {
			t.Fatalf("the bill of an arrived visit: %d %s", r.Status, r.Body)
		} else {
			r.JSON(t, &preview)
		}
		if !preview.Preview || preview.ID != 0 || len(preview.Lines) != 1 || preview.Lines[0].Code != "CONS-NEW" || preview.Total != 50000 {
			t.Errorf("the arrived visit's bill: %+v", preview)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM bills WHERE appointment_id = $1`, appt); n != 0 {
			t.Errorf("looking at the bill wrote %d", n)
		}

		// The desk charges the consultation by hand, as the first charge.
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", path+"/lines", map[string]any{"service_id": s.consultation, "quantity": 1})
		if len(b.Lines) != 1 || b.Total != 50000 {
			t.Errorf("the consultation charged by hand on a new bill: %+v", b)
		}
		r := s.front.Do("POST", path+"/lines", map[string]any{"service_id": s.consultation, "quantity": 1})
		if msg, code, _ := r.Error(t); r.Status != http.StatusConflict || code != "billing.duplicate_service" || !strings.Contains(msg, "Consultation") {
			t.Errorf("the same service twice: %d %s %s", r.Status, code, msg)
		}
		b = apitest.Do[bill](t, s.front, http.StatusCreated, "POST", path+"/lines", map[string]any{"service_id": s.consultation, "quantity": 1, "confirm_duplicate": true})
		if len(b.Lines) != 2 || b.Total != 100000 {
			t.Errorf("the same service twice, confirmed: %+v", b)
		}
	})
}

// "Bill without a visit" clicked twice makes one draft: the patient's open walk-in bill is
// reopened (200) until it is finalised; then a new one is written (201).
func TestWalkInDraftIsReopened(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		first := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		again := apitest.Do[bill](t, s.front, http.StatusOK, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		if again.ID != first.ID {
			t.Errorf("a second click wrote bill %d beside the open %d", again.ID, first.ID)
		}
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/lines", first.ID), map[string]any{"service_id": s.lab, "quantity": 1})
		apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		if next := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID}); next.ID == first.ID {
			t.Error("a finalised bill was reopened as a draft")
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM bills WHERE patient_id = $1`, s.patientID); n != 2 {
			t.Errorf("%d bills", n)
		}
	})
}

// TestAStatementKeepsItsDoctorAsFinalised: one signature policy for every paper — the bill
// copies its doctor (details and drawn signature) when it is finalised, and its statement
// prints that copy after the doctor renames themselves or draws a new signature; a draft
// shows the doctor as they are. The copy is fixed with the bill (the database refuses a change).
func TestAStatementKeepsItsDoctorAsFinalised(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		first := apitest.SignaturePNG(t)
		if r := s.doctor.Upload("PUT", "/api/profile/signature", "sig.png", first); r.Status != http.StatusOK {
			t.Fatalf("signature: %d %s", r.Status, r.Body)
		}
		appt := s.book(t, 60)
		b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.consultation, "quantity": 1})
		b = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})

		// The doctor changes their name and draws again.
		var me struct{ Version int }
		s.doctor.Do("GET", "/api/get-profile", nil).JSON(t, &me)
		if r := s.doctor.Do("PATCH", "/api/update-profile", map[string]any{"name": "Dr Renamed", "version": me.Version}); r.Status != http.StatusOK {
			t.Fatalf("rename: %d %s", r.Status, r.Body)
		}
		second := apitest.SignaturePNG(t)
		second = append(second[:len(second):len(second)], 0) // a different drawing
		if r := s.doctor.Upload("PUT", "/api/profile/signature", "sig.png", second); r.Status != http.StatusOK {
			t.Fatalf("second signature: %d %s", r.Status, r.Body)
		}

		var printed struct {
			DoctorDetails struct {
				Name         string `json:"name"`
				HasSignature bool   `json:"has_signature"`
				SignatureURL string `json:"signature_url"`
			} `json:"doctor_details"`
		}
		s.front.Do("POST", fmt.Sprintf("/api/bills/%d/print", b.ID), map[string]any{"document": "statement"}).JSON(t, &printed)
		if d := printed.DoctorDetails; d.Name != "Test doc" || !d.HasSignature || d.SignatureURL != fmt.Sprintf("/api/bills/%d/signature", b.ID) {
			t.Errorf("the statement's doctor: %+v", d)
		}
		r := s.front.Do("GET", printed.DoctorDetails.SignatureURL, nil)
		if r.Status != http.StatusOK || !bytes.Equal(r.Body, first) {
			t.Errorf("the statement's signature: %d, the first drawing %v", r.Status, bytes.Equal(r.Body, first))
		}

		// A draft shows the doctor as they are now.
		draft := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", s.book(t, 120)), map[string]any{"service_id": s.lab, "quantity": 1})
		var open struct {
			DoctorDetails struct{ Name string } `json:"doctor_details"`
		}
		s.front.Do("GET", fmt.Sprintf("/api/bills/%d", draft.ID), nil).JSON(t, &open)
		if open.DoctorDetails.Name != "Dr Renamed" {
			t.Errorf("a draft's doctor: %+v", open.DoctorDetails)
		}

		if _, err := db.ExecContext(context.Background(), `UPDATE bills SET signer = '{}' WHERE id = $1`, b.ID); err == nil {
			t.Error("a finalised bill's doctor was changed")
		}
	})
}
