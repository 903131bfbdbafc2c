// Package billing keeps the clinic's fees: the services price list, the bill of a visit (or
// of a walk-in patient) with its lines and discounts, finalising with a gap-free number,
// voiding, payments and refunds, and the financial reports over them (ADR 22).
package billing

import (
	"slices"
	"strings"

	"emr/internal/apperr"
)

// Money is an amount in the clinic currency's minor units (centavos, kopecks, fen; whole
// đồng for VND): never floating point.
type Money = int64

// minorUnits is ISO 4217's exponent of the currencies a clinic may keep its fees in.
var minorUnits = map[string]int{
	"PHP": 2, "VND": 0, "RUB": 2, "CNY": 2, "USD": 2, "EUR": 2, "GBP": 2, "JPY": 0, "KRW": 0,
	"THB": 2, "IDR": 2, "MYR": 2, "SGD": 2, "INR": 2, "KZT": 2, "UZS": 2, "AUD": 2, "CAD": 2,
	"HKD": 2, "TWD": 2, "KHR": 2, "LAK": 2, "MMK": 2, "UAH": 2, "BYN": 2, "CHF": 2, "AED": 2,
}

// Currencies lists the currency codes a clinic may choose, for its settings screen.
func Currencies() []string {
	out := make([]string, 0, len(minorUnits))
	for c := range minorUnits {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// MinorUnits is the number of decimal places of currency (2 for an unknown one).
func MinorUnits(currency string) int {
	if n, ok := minorUnits[strings.ToUpper(currency)]; ok {
		return n
	}
	return 2
}

// Discount kinds: none, an amount in minor units, or a percentage in hundredths of a
// percent (2000 is 20 %, 1250 is 12.5 %).
const (
	NoDiscount      = ""
	DiscountAmount  = "amount"
	DiscountPercent = "percent"
)

// maxMoney bounds every amount so that sums of a bill's lines cannot overflow: a hundred
// million pesos (or a hundred billion đồng) a line is far beyond any clinic's fee.
const maxMoney Money = 1e13

// percentOf is pct hundredths of a percent of amount, rounded half up to the minor unit:
// the rounding a cashier does by hand (12.5 % of 1.01 is 0.13). amount and pct are
// non-negative and bounded, so the product fits.
func percentOf(amount Money, pct int64) Money {
	return (amount*pct + 5000) / 10000
}

// discountOn is the discount of kind and value on amount: never more than amount.
func discountOn(amount Money, kind string, value int64) Money {
	var d Money
	switch kind {
	case DiscountAmount:
		d = value
	case DiscountPercent:
		d = percentOf(amount, value)
	}
	return min(d, amount)
}

// checkDiscount validates a discount given at field (a line's or the bill's).
func checkDiscount(v *apperr.Validation, field, kind string, value int64, reason string) {
	switch kind {
	case NoDiscount:
		if value != 0 {
			v.Add(field+"_value", "billing.discount_without_kind")
		}
		return
	case DiscountAmount:
		if value <= 0 || value > maxMoney {
			v.Add(field+"_value", "billing.bad_amount")
		}
	case DiscountPercent:
		if value <= 0 || value > 10000 {
			v.Add(field+"_value", "billing.bad_percent")
		}
	default:
		v.Add(field+"_kind", "billing.bad_discount_kind")
	}
	if strings.TrimSpace(reason) == "" {
		v.Add(field+"_reason", "billing.discount_reason_required")
	}
}
