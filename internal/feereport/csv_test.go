package feereport

import (
	"strings"
	"testing"
	"time"

	"emr/internal/billing"
)

// The CSV files write amounts in major units with the currency's decimals, discounts and
// credits as negative rows that add up to the total, and times in the clinic's zone.
func TestCSVFilesAddUpInMajorUnits(t *testing.T) {
	var b strings.Builder
	rev := Revenue{By: "service", Currency: "PHP", Rows: []RevenueRow{{Key: "CONS", Name: "Consultation", Count: 2, Amount: 100000}, {Key: "PROC", Name: "Dressing", Count: 1, Amount: 35050}, {Key: "XRAY", Name: "Chest X-ray", Count: 1, Amount: 0, Credited: 40000}},
		BillDiscounts: 17010, Credited: 5000, CreditedApart: 5000, Total: 113040}
	if err := WriteRevenueCSV(&b, rev); err != nil {
		t.Fatal(err)
	}
	want := "service,name,count,amount,currency,credited\r\nCONS,Consultation,2,1000.00,PHP,0.00\r\nPROC,Dressing,1,350.50,PHP,0.00\r\nXRAY,Chest X-ray,1,0.00,PHP,400.00\r\n" +
		",bill discounts,,-170.10,PHP\r\n,\"credited, no service named\",,-50.00,PHP\r\n,total,,1130.40,PHP\r\n"
	if got := b.String(); normal(got) != normal(want) {
		t.Errorf("revenue CSV:\n%s\nwant:\n%s", got, want)
	}

	b.Reset()
	hcm, _ := time.LoadLocation("Asia/Ho_Chi_Minh")
	owing := []billing.Owing{{Number: "BL-2026-000001", FinalisedAt: time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC), Patient: billing.PatientRef{MRN: "2026-000009", Name: "Lan Trần"},
		Total: 200000, Paid: 50000, Balance: 150000}}
	if err := WriteOutstandingCSV(&b, owing, "VND", hcm); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "BL-2026-000001,2026-11-26T09:00:00+07:00,2026-000009,Lan Trần,200000,50000,0,150000,VND") {
		t.Errorf("outstanding CSV (đồng have no decimals; the time in the clinic's zone): %s", b.String())
	}

	b.Reset()
	c := billing.CashUp{Day: "2026-11-26", Currency: "PHP", Rows: []billing.CashUpRow{{Cashier: "Front", MethodSum: billing.MethodSum{Method: "cash", Payments: 2, Received: 68040, Refunds: 1, Refunded: 5000, Net: 63040}}},
		Methods: []billing.MethodSum{{Method: "cash", Payments: 2, Received: 68040, Refunds: 1, Refunded: 5000, Net: 63040}}, Total: billing.MethodSum{Payments: 2, Received: 68040, Refunds: 1, Refunded: 5000, Net: 63040}}
	if err := WriteCashUpCSV(&b, c); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(normal(b.String())), "\n"); len(lines) != 4 || lines[1] != "2026-11-26,Front,cash,2,680.40,1,50.00,630.40,PHP" {
		t.Errorf("cash-up CSV: %q", lines)
	}
}

func normal(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
