package catalogue

import (
	"errors"
	"math"
	"testing"
	"time"
)

func f(v float64) *float64 { return &v }
func n(v int) *int         { return &v }

var (
	glucose = Analyte{Code: "GLUF", Type: Numeric, Unit: "mmol/L", Decimals: 1, PlausibleLow: f(0.5), PlausibleHigh: f(100),
		Units:  []Unit{{Unit: "mg/dL", Conversion: "factor", Factor: 0.05551, LOINC: "1558-6"}},
		Ranges: []Range{{Sex: "any", FromMonths: 216, Low: f(3.9), High: f(5.5), CriticalLow: f(2.8), CriticalHigh: f(22.2)}}}
	hba1c = Analyte{Code: "HBA1C", Type: Numeric, Unit: "%", Decimals: 1, DeltaAbs: f(1),
		Units: []Unit{{Unit: "mmol/mol", Conversion: "hba1c_ifcc", LOINC: "59261-8"}}}
	haemoglobin = Analyte{Code: "HGB", Type: Numeric, Unit: "g/L", Units: []Unit{{Unit: "g/dL", Conversion: "factor", Factor: 10}},
		Ranges: []Range{
			{Sex: "male", FromMonths: 216, Low: f(135), High: f(175), CriticalLow: f(70), CriticalHigh: f(200)},
			{Sex: "female", FromMonths: 216, Low: f(120), High: f(155), CriticalLow: f(70), CriticalHigh: f(200)},
			{Sex: "any", FromMonths: 6, ToMonths: n(60), Low: f(110), High: f(140)},
			{Sex: "any", FromMonths: 60, ToMonths: n(144), Low: f(115), High: f(155)},
		}}
	potassium = Analyte{Code: "K", Type: Numeric, Unit: "mmol/L", Decimals: 1, PlausibleLow: f(1), PlausibleHigh: f(15),
		Ranges: []Range{{Sex: "any", FromMonths: 216, Low: f(3.5), High: f(5.1), CriticalLow: f(3.0), CriticalHigh: f(6.0)}}}
	creatinine = Analyte{Code: "CREA", Type: Numeric, Unit: "umol/L", DeltaPercent: f(50),
		Units: []Unit{{Unit: "mg/dL", Conversion: "factor", Factor: 88.4}}}
)

// Issue 35: "126 mg/dL" glucose is stored as 7.0 mmol/L, flagged H against 3.9–5.5, and
// shown back in mg/dL as 126; HbA1c converts by the NGSP/IFCC equation both ways.
func TestUnitConversionsBothWays(t *testing.T) {
	for _, c := range []struct {
		a      Analyte
		v      float64
		unit   string
		want   float64
		digits int
	}{
		{glucose, 126, "mg/dL", 7.0, 1},
		{glucose, 7.0, "mmol/L", 7.0, 1},
		{glucose, 90, "mg/dL", 5.0, 1},
		{hba1c, 53, "mmol/mol", 7.0, 1},
		{hba1c, 48, "mmol/mol", 6.5, 1},
		{haemoglobin, 12.5, "g/dL", 125, 0},
		{creatinine, 1.0, "mg/dL", 88, 0},
	} {
		got, err := c.a.Canonical(c.v, c.unit)
		if err != nil || Round(got, c.digits) != c.want {
			t.Errorf("%s %v %s = %v (%v), want %v", c.a.Code, c.v, c.unit, got, err, c.want)
		}
		back, err := c.a.In(got, c.unit)
		if err != nil || math.Abs(back-c.v) > 1e-9 {
			t.Errorf("%s back into %s: %v (%v), want %v", c.a.Code, c.unit, back, err, c.v)
		}
	}
	if v, _ := hba1c.In(7.0, "mmol/mol"); Format(v, hba1c.DecimalsIn("mmol/mol")) != "53" {
		t.Errorf("7.0 %% in mmol/mol = %s, want 53", Format(v, 0))
	}
	if v, _ := glucose.In(7.0, "mg/dL"); Format(v, glucose.DecimalsIn("mg/dL")) != "126" {
		t.Errorf("7.0 mmol/L in mg/dL = %s (%d decimals), want 126", Format(v, glucose.DecimalsIn("mg/dL")), glucose.DecimalsIn("mg/dL"))
	}
	if haemoglobin.DecimalsIn("g/dL") != 1 {
		t.Errorf("g/dL haemoglobin decimals: %d, want 1", haemoglobin.DecimalsIn("g/dL"))
	}
	if _, err := glucose.Canonical(5, "g/L"); !errors.Is(err, ErrUnknownUnit) {
		t.Errorf("a unit glucose is not entered in: %v", err)
	}
}

func TestRoundingIsHalfAwayFromZero(t *testing.T) {
	for v, want := range map[float64]string{7.05: "7.1", 7.04: "7.0", 6.95: "7.0", 0.25: "0.3", 125.5: "125.5"} {
		if got := Format(v, 1); got != want {
			t.Errorf("Format(%v, 1) = %s, want %s", v, got, want)
		}
	}
	if got := Format(6.99, 0); got != "7" {
		t.Errorf("Format(6.99, 0) = %s", got)
	}
}

func TestPlausibilityRefusesTypingMistakes(t *testing.T) {
	if err := potassium.Plausible(60); !errors.Is(err, ErrImplausible) {
		t.Errorf("potassium 60: %v", err)
	}
	if err := potassium.Plausible(6.8); err != nil {
		t.Errorf("potassium 6.8: %v", err)
	}
	if err := potassium.Plausible(15); err != nil {
		t.Errorf("potassium 15, the limit itself: %v", err)
	}
	if err := potassium.Plausible(15.01); err == nil {
		t.Error("potassium 15.01 accepted")
	}
}

func TestMonthsOldCountsCalendarMonths(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse(time.DateOnly, s); return v }
	for _, c := range []struct {
		birth, on string
		want      int
	}{
		{"2008-03-15", "2026-03-15", 216}, // the 18th birthday
		{"2008-03-15", "2026-03-14", 215}, // the day before
		{"2026-01-31", "2026-02-28", 1},   // the 31st clipped to February's last day
		{"2026-01-31", "2026-02-27", 0},
		{"2024-02-29", "2025-02-28", 12},
		{"2026-05-01", "2026-04-01", 0}, // not born yet: never negative
	} {
		if got := MonthsOld(d(c.birth), d(c.on)); got != c.want {
			t.Errorf("born %s, on %s: %d months, want %d", c.birth, c.on, got, c.want)
		}
	}
}

// Issue 35: Hb 12.5 g/dL is normal for a 30-year-old woman and low for a 30-year-old man;
// the bands' edges belong to the band they start.
func TestRangeBySexAndAgeAtTheEdges(t *testing.T) {
	flag := func(sex string, months int, gdl float64) string {
		v, _ := haemoglobin.Canonical(gdl, "g/dL")
		r, ok := haemoglobin.RangeFor(sex, months)
		return Flag(v, r, ok)
	}
	if got := flag("female", 360, 12.5); got != FlagNormal {
		t.Errorf("woman of 30, Hb 12.5 g/dL: %q, want N", got)
	}
	if got := flag("male", 360, 12.5); got != FlagLow {
		t.Errorf("man of 30, Hb 12.5 g/dL: %q, want L", got)
	}
	if _, ok := haemoglobin.RangeFor("male", 215); ok {
		t.Error("no band covers 215 months in this table: no range, no flag")
	}
	if r, ok := haemoglobin.RangeFor("female", 60); !ok || *r.Low != 115 {
		t.Errorf("60 months is the second child band's first month: %+v %v", r, ok)
	}
	if r, ok := haemoglobin.RangeFor("female", 59); !ok || *r.Low != 110 {
		t.Errorf("59 months is the first band's last: %+v %v", r, ok)
	}
	if _, ok := haemoglobin.RangeFor("female", 5); ok {
		t.Error("an infant of 5 months: no band, so no flag rather than an adult's")
	}
	if _, ok := haemoglobin.RangeFor("unknown", 360); ok {
		t.Error("a sex the adult bands do not name: no range")
	}
	if got := Flag(100, Range{}, false); got != "" {
		t.Errorf("no range, flag %q", got)
	}
}

// Several bands of one age and sex: the strictest bounds win.
func TestOverlappingBandsTakeTheStrictestBounds(t *testing.T) {
	a := Analyte{Ranges: []Range{
		{Sex: "any", FromMonths: 0, Low: f(1), High: f(10), CriticalHigh: f(20)},
		{Sex: "any", FromMonths: 100, Low: f(2), High: f(12), CriticalLow: f(0.5)},
	}}
	r, ok := a.RangeFor("male", 200)
	if !ok || *r.Low != 2 || *r.High != 10 || *r.CriticalLow != 0.5 || *r.CriticalHigh != 20 {
		t.Errorf("strictest: %+v", r)
	}
}

// Issue 35: flags at each boundary — the normal band is inclusive, a critical limit itself
// is critical.
func TestFlagsAtEachBoundary(t *testing.T) {
	r, ok := potassium.RangeFor("female", 400)
	for v, want := range map[float64]string{
		2.9: FlagCriticalLow, 3.0: FlagCriticalLow, 3.1: FlagLow, 3.49: FlagLow, 3.5: FlagNormal, 4.2: FlagNormal,
		5.1: FlagNormal, 5.11: FlagHigh, 5.99: FlagHigh, 6.0: FlagCriticalHigh, 6.8: FlagCriticalHigh,
	} {
		if got := Flag(v, r, ok); got != want {
			t.Errorf("potassium %v: %q, want %q", v, got, want)
		}
	}
	open := Range{High: f(5.2)} // a total cholesterol: no lower limit
	if Flag(0.9, open, true) != FlagNormal || Flag(5.3, open, true) != FlagHigh {
		t.Error("a range with one bound")
	}
	if !Critical(FlagCriticalHigh) || !Critical(FlagCritical) || Critical(FlagHigh) || Critical(FlagAbnormal) {
		t.Error("only LL, HH and AA are critical")
	}
}

func TestCodedAnswersCarryTheirFlags(t *testing.T) {
	hiv := Analyte{Type: Coded, Answers: parseAnswers("negative:N, positive:A")}
	if got, _ := hiv.AnswerFlag("positive"); got != FlagAbnormal {
		t.Errorf("positive: %q", got)
	}
	if got, _ := hiv.AnswerFlag("negative"); got != FlagNormal {
		t.Errorf("negative: %q", got)
	}
	if _, err := hiv.AnswerFlag("maybe"); !errors.Is(err, ErrUnknownCode) {
		t.Errorf("an answer the test does not have: %v", err)
	}
}

// Issue 35: creatinine +50 % since the last result is flagged for attention even inside
// the range; HbA1c by an absolute 1 %.
func TestDeltaCheck(t *testing.T) {
	for _, c := range []struct {
		a        Analyte
		from, to float64
		want     string
	}{
		{creatinine, 60, 90, FlagUp},
		{creatinine, 60, 89, ""},
		{creatinine, 90, 45, FlagDown},
		{creatinine, 90, 46, ""},
		{hba1c, 7.0, 8.0, FlagUp},
		{hba1c, 8.0, 7.1, ""},
		{hba1c, 8.0, 6.9, FlagDown},
		{potassium, 3.5, 6.0, ""}, // no delta limit
	} {
		if got := c.a.Delta(c.from, c.to); got != c.want {
			t.Errorf("%s %v → %v: %q, want %q", c.a.Code, c.from, c.to, got, c.want)
		}
	}
}
