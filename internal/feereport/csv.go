package feereport

import (
	"emr/internal/billing"
	"emr/internal/httpjson"
	"io"
	"strconv"
	"time"
)

// WriteBillsCSV writes a bills report as CSV, amounts in major units and times in the
// clinic's time zone (loc), with their offset.
func WriteBillsCSV(w io.Writer, rep BillsReport, loc *time.Location) error {
	units := billing.MinorUnits(rep.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write("number", "status", "finalised_at", "mrn", "patient", "doctor", "subtotal", "discount", "total", "paid", "credited", "balance", "currency")
	for _, b := range rep.Data {
		cw.Write(b.Number, b.Status, b.FinalisedAt.In(loc).Format(time.RFC3339), b.Patient.MRN, b.Patient.Name, b.Doctor,
			b.Subtotal.Major(units), b.Discount.Major(units), b.Total.Major(units), b.Paid.Major(units),
			b.Credited.Major(units), b.Balance.Major(units), rep.Currency)
	}
	return cw.Flush()
}

// WriteRevenueCSV writes a revenue report as CSV, amounts in major units.
func WriteRevenueCSV(w io.Writer, rep Revenue) error {
	units := billing.MinorUnits(rep.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write(rep.By, "name", "count", "amount", "currency", "credited")
	for _, row := range rep.Rows {
		cw.Write(row.Key, row.Name, strconv.Itoa(row.Count), row.Amount.Major(units), rep.Currency, row.Credited.Major(units))
	}
	if rep.By == "service" && rep.BillDiscounts != 0 {
		cw.Write("", "bill discounts", "", (-rep.BillDiscounts).Major(units), rep.Currency)
	}
	if rep.By == "service" && rep.CreditedApart != 0 {
		cw.Write("", "credited, no service named", "", (-rep.CreditedApart).Major(units), rep.Currency)
	}
	cw.Write("", "total", "", rep.Total.Major(units), rep.Currency)
	return cw.Flush()
}

// WriteOutstandingCSV writes the outstanding bills as CSV, amounts in major units and times
// in the clinic's time zone (loc), with their offset.
func WriteOutstandingCSV(w io.Writer, list []billing.Owing, currency string, loc *time.Location) error {
	units := billing.MinorUnits(currency)
	cw := httpjson.NewCSV(w)
	cw.Write("number", "finalised_at", "mrn", "patient", "total", "paid", "credited", "balance", "currency")
	for _, o := range list {
		cw.Write(o.Number, o.FinalisedAt.In(loc).Format(time.RFC3339), o.Patient.MRN, o.Patient.Name,
			o.Total.Major(units), o.Paid.Major(units), o.Credited.Major(units), o.Balance.Major(units), currency)
	}
	return cw.Flush()
}

// WriteCashUpCSV writes a day's cash-up as CSV: a row per cashier and method, then per
// method, then the total; amounts in major units.
func WriteCashUpCSV(w io.Writer, c billing.CashUp) error {
	units := billing.MinorUnits(c.Currency)
	cw := httpjson.NewCSV(w)
	cw.Write("day", "cashier", "method", "payments", "received", "refunds", "refunded", "net", "currency")
	row := func(cashier string, m billing.MethodSum) {
		cw.Write(c.Day, cashier, m.Method, strconv.Itoa(m.Payments), m.Received.Major(units), strconv.Itoa(m.Refunds),
			m.Refunded.Major(units), m.Net.Major(units), c.Currency)
	}
	for _, r := range c.Rows {
		row(r.Cashier, r.MethodSum)
	}
	for _, m := range c.Methods {
		row("", m)
	}
	row("", c.Total)
	return cw.Flush()
}
