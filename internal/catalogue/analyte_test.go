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
		Units:    []Unit{{Unit: "mg/dL", Conversion: "factor", Factor: 0.05551, LOINC: "1558-6"}},
		Ranges:   []Range{{Sex: "any", FromMonths: 216, Low: f(3.9), High: f(5.5)}},
		Critical: []CriticalBand{{FromMonths: 0, ToMonths: n(216), Low: f(2.9), High: f(22.2)}, {FromMonths: 216, Low: f(2.8), High: f(22.2)}}}
	hba1c = Analyte{Code: "HBA1C", Type: Numeric, Unit: "%", Decimals: 1, DeltaRules: []DeltaRule{{WindowHours: 8760, Abs: f(1)}},
		Units: []Unit{{Unit: "mmol/mol", Conversion: "hba1c_ifcc", LOINC: "59261-8"}}}
	haemoglobin = Analyte{Code: "HGB", Type: Numeric, Unit: "g/L", Units: []Unit{{Unit: "g/dL", Conversion: "factor", Factor: 10}},
		Ranges: []Range{
			{Sex: "male", FromMonths: 216, Low: f(135), High: f(175)},
			{Sex: "female", FromMonths: 216, Low: f(120), High: f(155)},
			{Sex: "any", FromMonths: 6, ToMonths: n(60), Low: f(110), High: f(140)},
			{Sex: "any", FromMonths: 60, ToMonths: n(144), Low: f(115), High: f(155)},
		},
		Critical: []CriticalBand{{FromMonths: 0, ToMonths: n(1), Low: f(95), High: f(223)}, {FromMonths: 1, Low: f(70), High: f(200)}}}
	potassium = Analyte{Code: "K", Type: Numeric, Unit: "mmol/L", Decimals: 1, PlausibleLow: f(1), PlausibleHigh: f(15),
		Ranges: []Range{{Sex: "any", FromMonths: 216, Low: f(3.5), High: f(5.1)}, {Sex: "any", FromMonths: 12, ToMonths: n(216), Low: f(3.4), High: f(4.7)}},
		Critical: []CriticalBand{{FromMonths: 0, ToMonths: n(1), Low: f(2.8), High: f(7.0)}, {FromMonths: 1, ToMonths: n(216), Low: f(2.8), High: f(6.5)},
			{FromMonths: 216, Low: f(3.0), High: f(6.0)}}}
	creatinine = Analyte{Code: "CREA", Type: Numeric, Unit: "umol/L",
		DeltaRules: []DeltaRule{{WindowHours: 48, Abs: f(26.5)}, {WindowHours: 168, Percent: f(50)}},
		Units:      []Unit{{Unit: "mg/dL", Conversion: "factor", Factor: 88.4}}}
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
		return Flag(v, haemoglobin.LimitsFor(sex, months))
	}
	if got := flag("female", 360, 12.5); got != FlagNormal {
		t.Errorf("woman of 30, Hb 12.5 g/dL: %q, want N", got)
	}
	if got := flag("male", 360, 12.5); got != FlagLow {
		t.Errorf("man of 30, Hb 12.5 g/dL: %q, want L", got)
	}
	if _, note, ok := haemoglobin.RangeFor("male", 215); ok || note != NoteNoBand {
		t.Error("no band covers 215 months in this table: no range, said so")
	}
	if r, _, ok := haemoglobin.RangeFor("female", 60); !ok || *r.Low != 115 {
		t.Errorf("60 months is the second child band's first month: %+v %v", r, ok)
	}
	if r, _, ok := haemoglobin.RangeFor("female", 59); !ok || *r.Low != 110 {
		t.Errorf("59 months is the first band's last: %+v %v", r, ok)
	}
	if got := flag("female", 5, 12.0); got != "" {
		t.Errorf("an infant of 5 months, no reference band: %q, want no flag rather than an adult's", got)
	}
}

// Issue 52 (C1, C2): critical limits are the analyte's, by age, whatever reference band
// applies or none; a patient of sex other or unknown gets the union of the sexes' bands.
// Sources: CLSI GP47; Kost GJ, Pediatrics 1991;88:597; CAP surveys (Howanitz 2002).
func TestCriticalLimitsBelongToTheAnalyte(t *testing.T) {
	for _, c := range []struct {
		name   string
		a      Analyte
		sex    string
		months int
		v      float64
		flag   string
		note   string
	}{
		{"K-child-critical-high: 7 years, 7.0", potassium, "male", 84, 7.0, FlagCriticalHigh, ""},
		{"K-17y364d-critical-high: the day before 18, 6.8", potassium, "female", 215, 6.8, FlagCriticalHigh, ""},
		{"K on the 18th birthday, 6.8", potassium, "female", 216, 6.8, FlagCriticalHigh, ""},
		{"K child 6.4: high, not critical (limit 6.5)", potassium, "female", 84, 6.4, FlagHigh, ""},
		{"K adult 6.4: critical (limit 6.0)", potassium, "female", 300, 6.4, FlagCriticalHigh, ""},
		{"K newborn 6.8: no reference band here, not critical (limit 7.0)", potassium, "male", 0, 6.8, "", NoteNoBand},
		{"K newborn 7.0: critical without a reference band", potassium, "male", 0, 7.0, FlagCriticalHigh, NoteNoBand},
		{"K infant of 6 months 2.5: critical low without a reference band", potassium, "female", 6, 2.5, FlagCriticalLow, NoteNoBand},
		{"glucose-child-critical-low: 8 years, 2.0", glucose, "female", 96, 2.0, FlagCriticalLow, NoteNoBand},
		{"glucose-child-critical-high: 8 years, 30", glucose, "female", 96, 30, FlagCriticalHigh, NoteNoBand},
		{"glucose child 2.9: level 2 hypoglycaemia (ISPAD)", glucose, "male", 96, 2.9, FlagCriticalLow, NoteNoBand},
		{"glucose adult 2.9: low, not critical", glucose, "male", 400, 2.9, FlagLow, ""},
		{"Hb-infant-2m-critical: 60 g/L", haemoglobin, "female", 2, 60, FlagCriticalLow, NoteNoBand},
		{"Hb newborn 90 g/L: critical (limit 95)", haemoglobin, "male", 0, 90, FlagCriticalLow, NoteNoBand},
		{"Hb-sex-other-critical: 35 years, 60 g/L", haemoglobin, "other", 420, 60, FlagCriticalLow, NoteAnySex},
		{"Hb sex unknown, 35 years, 60 g/L", haemoglobin, "unknown", 420, 60, FlagCriticalLow, NoteAnySex},
		{"Hb sex other, 125 g/L: inside the union (120–175)", haemoglobin, "other", 420, 125, FlagNormal, NoteAnySex},
		{"Hb sex other, 118 g/L: below every sex's band", haemoglobin, "other", 420, 118, FlagLow, NoteAnySex},
		{"Hb sex other, 160 g/L: inside the union", haemoglobin, "other", 420, 160, FlagNormal, NoteAnySex},
		{"Hb sex other, 180 g/L: above every sex's band", haemoglobin, "other", 420, 180, FlagHigh, NoteAnySex},
		{"Hb sex other, child band for any sex", haemoglobin, "other", 100, 112, FlagLow, ""},
		{"K unknown birth date, 6.2: the strictest limits (6.0)", potassium, "male", -1, 6.2, FlagCriticalHigh, NoteNoBirthDate},
		{"K unknown birth date, 5.8: no reference, not critical", potassium, "male", -1, 5.8, "", NoteNoBirthDate},
		{"K unknown birth date, 2.9: the strictest low (3.0)", potassium, "male", -1, 2.9, FlagCriticalLow, NoteNoBirthDate},
	} {
		l := c.a.LimitsFor(c.sex, c.months)
		if got := Flag(c.v, l); got != c.flag || l.Note != c.note {
			t.Errorf("%s: flag %q note %q, want %q %q", c.name, got, l.Note, c.flag, c.note)
		}
	}
}

// Several bands of one age and sex: the strictest bounds win; critical bands likewise.
func TestOverlappingBandsTakeTheStrictestBounds(t *testing.T) {
	a := Analyte{Ranges: []Range{
		{Sex: "any", FromMonths: 0, Low: f(1), High: f(10)},
		{Sex: "any", FromMonths: 100, Low: f(2), High: f(12)},
	}, Critical: []CriticalBand{{FromMonths: 0, High: f(20)}, {FromMonths: 100, Low: f(0.5), High: f(25)}}}
	l := a.LimitsFor("male", 200)
	if !l.Reference || *l.Low != 2 || *l.High != 10 || *l.CriticalLow != 0.5 || *l.CriticalHigh != 20 {
		t.Errorf("strictest: %+v", l)
	}
}

// Issue 35: flags at each boundary — the normal band is inclusive, a critical limit itself
// is critical.
func TestFlagsAtEachBoundary(t *testing.T) {
	l := potassium.LimitsFor("female", 400)
	for v, want := range map[float64]string{
		2.9: FlagCriticalLow, 3.0: FlagCriticalLow, 3.1: FlagLow, 3.49: FlagLow, 3.5: FlagNormal, 4.2: FlagNormal,
		5.1: FlagNormal, 5.11: FlagHigh, 5.99: FlagHigh, 6.0: FlagCriticalHigh, 6.8: FlagCriticalHigh,
	} {
		if got := Flag(v, l); got != want {
			t.Errorf("potassium %v: %q, want %q", v, got, want)
		}
	}
	open := Limits{High: f(5.2), Reference: true} // a total cholesterol: no lower limit
	if Flag(0.9, open) != FlagNormal || Flag(5.3, open) != FlagHigh {
		t.Error("a range with one bound")
	}
	if !Critical(FlagCriticalHigh) || !Critical(FlagCritical) || Critical(FlagHigh) || Critical(FlagAbnormal) {
		t.Error("only LL, HH and AA are critical")
	}
}

// Issue 52 (M3): censored values are flagged against the limit on their side (CLSI EP17;
// FHIR Quantity.comparator); a value that could lie either side of a limit is not ranked.
func TestCensoredValues(t *testing.T) {
	tsh := Analyte{PlausibleLow: f(0), Ranges: []Range{{Sex: "any", FromMonths: 216, Low: f(0.4), High: f(4.0)}}}
	crp := Analyte{PlausibleLow: f(0), Ranges: []Range{{Sex: "any", FromMonths: 0, Low: f(0), High: f(5)}}}
	alt := Analyte{PlausibleLow: f(0), Ranges: []Range{{Sex: "any", FromMonths: 216, Low: f(0), High: f(41)}}}
	for _, c := range []struct {
		name string
		a    Analyte
		v    float64
		cmp  string
		flag string
		note string
	}{
		{"TSH-below-detection: <0.01", tsh, 0.01, Less, FlagLow, ""},
		{"TSH <0.4: below the low itself", tsh, 0.4, Less, FlagLow, ""},
		{"TSH <=0.4: could be 0.4, normal", tsh, 0.4, LessOrEqual, "", NoteCensored},
		{"TSH <0.5: either side of 0.4", tsh, 0.5, Less, "", NoteCensored},
		{"TSH >100: above the high", tsh, 100, More, FlagHigh, ""},
		{"TSH >2: either side of 4.0", tsh, 2, More, "", NoteCensored},
		{"CRP <1: inside 0–5 (no CRP below 0)", crp, 1, Less, FlagNormal, ""},
		{"CRP <10: either side of 5", crp, 10, Less, "", NoteCensored},
		{"ALT >500", alt, 500, More, FlagHigh, ""},
		{"ALT >=41: could be 41", alt, 41, MoreOrEqual, "", NoteCensored},
		{"K <2.0: critical low", potassium, 2.0, Less, FlagCriticalLow, ""},
		{"K <3.4: low (3.5), could be critical — flagged low", potassium, 3.4, Less, FlagLow, ""},
		{"K >7: critical high", potassium, 7, More, FlagCriticalHigh, ""},
		{"no comparator: as Flag", potassium, 4.0, "", FlagNormal, ""},
	} {
		got, note := FlagCensored(c.v, c.cmp, c.a.LimitsFor("female", 400))
		if got != c.flag || note != c.note {
			t.Errorf("%s: %q %q, want %q %q", c.name, got, note, c.flag, c.note)
		}
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

// Issue 52 (M6): each delta rule compares only with earlier results inside its window;
// creatinine by KDIGO 2012 (≥ 26.5 µmol/L within 48 h, or ≥ 1.5× within 7 days), the
// baseline being the lowest (for a rise) or highest (for a fall) in the window.
func TestDeltaCheckWithinItsWindow(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	ago := func(h float64) time.Time { return now.Add(-time.Duration(h * float64(time.Hour))) }
	for _, c := range []struct {
		name    string
		a       Analyte
		earlier []Earlier
		v       float64
		want    string
	}{
		{"delta-creatinine-+27umol within 48 h", creatinine, []Earlier{{80, ago(0.5)}}, 107, FlagUp},
		{"creatinine +26 µmol/L (+32 %) within 48 h: neither rule", creatinine, []Earlier{{80, ago(2)}}, 106, ""},
		{"creatinine +27 µmol/L 72 h ago (+34 %): outside 48 h, under 50 %", creatinine, []Earlier{{80, ago(72)}}, 107, ""},
		{"creatinine ×1.5 within 7 days", creatinine, []Earlier{{60, ago(150)}}, 90, FlagUp},
		{"creatinine ×1.5 eight days ago: outside every window", creatinine, []Earlier{{60, ago(8 * 24)}}, 90, ""},
		{"creatinine: baseline is the lowest in the window", creatinine, []Earlier{{100, ago(10)}, {70, ago(40)}}, 100, FlagUp},
		{"creatinine falls by half within 7 days", creatinine, []Earlier{{90, ago(100)}}, 45, FlagDown},
		{"creatinine ×1.5 five years ago: not flagged", creatinine, []Earlier{{60, ago(5 * 8760)}}, 90, ""},
		{"HbA1c +1 % within a year", hba1c, []Earlier{{7.0, ago(2000)}}, 8.0, FlagUp},
		{"HbA1c −0.9 %", hba1c, []Earlier{{8.0, ago(2000)}}, 7.1, ""},
		{"HbA1c −1.1 %", hba1c, []Earlier{{8.0, ago(2000)}}, 6.9, FlagDown},
		{"potassium: no rule in this table", potassium, []Earlier{{3.5, ago(1)}}, 6.0, ""},
		{"no earlier result", creatinine, nil, 300, ""},
		{"a later result is not an earlier one", creatinine, []Earlier{{60, now.Add(time.Hour)}}, 90, ""},
	} {
		if got := c.a.Delta(c.v, now, c.earlier); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if creatinine.MaxDeltaWindow() != 168*time.Hour || potassium.MaxDeltaWindow() != 0 {
		t.Error("the longest window")
	}
}
