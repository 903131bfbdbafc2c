package billing

import "testing"

// Percentage discounts round half up to the currency's minor unit (a cent; a whole đồng).
func TestPercentDiscountRoundsHalfUpInMinorUnits(t *testing.T) {
	for _, c := range []struct {
		amount Money
		pct    int64 // hundredths of a percent
		want   Money
	}{
		{101, 1250, 13},             // 12.5 % of 1.01 = 0.12625 → 0.13
		{100, 1250, 13},             // 0.125 → 0.13 (half up)
		{99, 1250, 12},              // 0.12375 → 0.12
		{35000, 2000, 7000},         // 20 % of 350.00
		{33333, 2000, 6667},         // 66.666 → 66.67
		{150000, 2000, 30000},       // VND 150,000 đồng: 30,000
		{12345, 3333, 4115},         // 33.33 % of 12,345 đồng = 4114.6885 → 4115
		{5, 1000, 1},                // 10 % of 5 đồng = 0.5 → 1
		{4, 1000, 0},                // 0.4 → 0
		{maxMoney, 10000, maxMoney}, // the largest amount, all of it: no overflow
	} {
		if got := c.amount.Percent(c.pct); got != c.want {
			t.Errorf("%d%% of %d = %d, want %d", c.pct, c.amount, got, c.want)
		}
	}
	if d := Money(500).Discount(DiscountAmount, 800); d != 500 {
		t.Errorf("an amount discount over the amount: %d, want the amount", d)
	}
	if d := Money(35000).Discount(DiscountPercent, 2000); d != 7000 {
		t.Errorf("20 %% off 350.00: %d", d)
	}
	if d := Money(35000).Discount(NoDiscount, 2000); d != 0 {
		t.Errorf("no discount: %d", d)
	}
}

func TestMajorUnitsTextRoundTrips(t *testing.T) {
	for _, c := range []struct {
		text  string
		units int
		want  Money
		ok    bool
	}{
		{"350", 2, 35000, true}, {"350.5", 2, 35050, true}, {"350.50", 2, 35050, true}, {"0.01", 2, 1, true},
		{"200000", 0, 200000, true}, {"200000.5", 0, 0, false}, {"350.505", 2, 0, false}, {"-5", 2, 0, false},
		{"1,000", 2, 0, false}, {"", 2, 0, false}, {"5.", 2, 0, false}, {"₱5", 2, 0, false}, {"99999999999999", 2, 0, false},
	} {
		got, err := ParseMajor("en", c.text, c.units)
		ok := err == nil
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("ParseMajor(%q, %d) = %d %v, want %d %v", c.text, c.units, got, ok, c.want, c.ok)
		}
		if back, _ := ParseMajor("vi", got.Major(c.units), c.units); ok && back != got {
			t.Errorf("%d.Major(%d) = %q reads back as %d", got, c.units, got.Major(c.units), back)
		}
	}
	if Money(-35050).Major(2) != "-350.50" || Money(200000).Major(0) != "200000" || Money(5).Major(2) != "0.05" {
		t.Error("Major writes a negative, a whole-unit and a sub-unit amount")
	}
	if MinorUnits("VND") != 0 || MinorUnits("PHP") != 2 || MinorUnits("rub") != 2 {
		t.Error("minor units of VND, PHP, RUB")
	}
}

// TestShareOfDiscount: a line's part of its bill's own discount (what the lines come to less
// the bill's total), shared in proportion and rounded half up — what a refund naming the line
// credits is its amount less this, and revenue by service counts the same (the cashier's review
// of 2026-11-29, M8; migration 00080 on both engines). Each line is rounded on its own, so the
// parts of three equal lines may miss the discount by a minor unit: the last case.
func TestShareOfDiscount(t *testing.T) {
	for _, c := range []struct {
		name                 string
		amount, lines, total Money
		want                 Money
	}{
		{"no discount", 25000, 100000, 100000, 0},
		{"a surcharge is no discount", 25000, 100000, 110000, 0},
		{"no lines", 0, 0, 0, 0},
		{"a 20 % discount: the review's 25,000 test", 25000, 100000, 80000, 5000},
		{"the whole bill free", 25000, 100000, 0, 25000},
		{"half rounds up", 1, 2, 1, 1},
		{"under half rounds down", 1, 3, 2, 0},
		{"the PostgreSQL case of 00080 (10,000 of 30,000, total 29,999)", 10000, 30000, 29999, 0},
		{"and its 20,000 line", 20000, 30000, 29999, 1},
		{"three equal lines, discount 2: each 1, three in all", 10000, 30000, 29998, 1},
	} {
		if got := ShareOfDiscount(c.amount, c.lines, c.total); got != c.want {
			t.Errorf("%s: ShareOfDiscount(%d, %d, %d) = %d, want %d", c.name, c.amount, c.lines, c.total, got, c.want)
		}
	}
}
