// Package billing keeps the clinic's fees: the services price list, the bill of a visit (or
// of a walk-in patient) with its lines and discounts, finalising with a gap-free number,
// voiding, payments and refunds, and the financial reports over them (ADR 22).
package billing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/i18n"
)

// Money is an amount in the clinic currency's minor units (centavos, kopecks, fen; whole
// đồng for VND): never floating point. A type of its own, so that an amount is never added
// to a count, a percentage or an id by mistake: Percent and Discount are its arithmetic,
// Major its writing.
type Money int64

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

// Percent is pct hundredths of a percent of m, rounded half up to the minor unit: the
// rounding a cashier does by hand (12.5 % of 1.01 is 0.13). m and pct are non-negative and
// bounded, so the product fits.
func (m Money) Percent(pct int64) Money {
	return (m*Money(pct) + 5000) / 10000
}

// Discount is the discount of kind and value on m: never more than m. value is an amount in
// minor units (DiscountAmount) or hundredths of a percent (DiscountPercent).
func (m Money) Discount(kind string, value int64) Money {
	var d Money
	switch kind {
	case DiscountAmount:
		d = Money(value)
	case DiscountPercent:
		d = m.Percent(value)
	}
	return min(d, m)
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
		if value <= 0 || Money(value) > maxMoney {
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

// Major writes m in major units with the currency's decimals: 35050 → "350.50" (units 2),
// 200000 → "200000" (units 0).
func (m Money) Major(units int) string {
	if units == 0 {
		return strconv.FormatInt(int64(m), 10)
	}
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	p := Money(1)
	for range units {
		p *= 10
	}
	return fmt.Sprintf("%s%d.%0*d", sign, m/p, units, m%p)
}

// ParseMajor reads an amount a person typed in major units, as lang writes it, into minor
// units: i18n.ParseAmount's rule ("350,50" in Russian; "200.000" đồng in Vietnamese, a
// currency without decimals; "1.500" refused where it could be a thousands group). The error
// is the reading's (i18n.NumberKey names it); an amount beyond any fee is i18n.ErrNotANumber.
func ParseMajor(lang, s string, units int) (Money, error) {
	n, err := i18n.ParseAmount(lang, s, units)
	if err != nil {
		return 0, err
	}
	if m := Money(n); m <= maxMoney {
		return m, nil
	}
	return 0, i18n.ErrNotANumber
}
