package growth

import (
	"math"
	"testing"
)

func f(x float64) *float64 { return &x }
func n(x int) *int         { return &x }

// The SD values of WHO's own z-score tables (rounded to one decimal as WHO prints them),
// read back from the LMS rows shipped here: a check that the tables were transcribed whole.
func TestTablesGiveWHOPublishedValues(t *testing.T) {
	cases := []struct {
		name              string
		indicator, sex, m string
		x, z, want        float64
	}{
		{"boys weight-for-age 12 months median", WFA, "M", "", 12, 0, 9.6},
		{"boys weight-for-age 12 months -2 SD", WFA, "M", "", 12, -2, 7.7},
		{"boys weight-for-age 12 months +2 SD", WFA, "M", "", 12, 2, 12.0},
		{"girls weight-for-age 60 months -3 SD", WFA, "F", "", 60, -3, 12.1},
		{"girls weight-for-age 60 months +3 SD", WFA, "F", "", 60, 3, 29.5},
		{"girls length-for-age 24 months median", LHFA, "F", lying, 24, 0, 86.4},
		{"girls height-for-age 24 months median", LHFA, "F", standing, 24, 0, 85.7},
		{"boys height-for-age 60 months -2 SD", LHFA, "M", standing, 60, -2, 100.7},
		{"boys head circumference 0 months median", HCFA, "M", "", 0, 0, 34.5},
		{"girls head circumference 36 months +2 SD", HCFA, "F", "", 36, 2, 51.3},
		{"boys weight-for-length 75 cm -2 SD", WFL, "M", lying, 75, -2, 8.1},
		{"girls weight-for-height 100 cm +2 SD", WFL, "F", standing, 100, 2, 18.4},
		{"boys BMI-for-age 0-2 at 12 months median", BFA, "M", lying, 12, 0, 16.8},
		{"girls BMI-for-age 2-5 at 48 months +2 SD", BFA, "F", standing, 48, 2, 18.5},
		{"boys BMI-for-age 2007 at 61 months +1 SD", BFA, "M", standing, 61, 1, 16.6},
		{"girls BMI-for-age 2007 at 191 months median", BFA, "F", standing, 191, 0, 20.7},
		{"boys height-for-age 2007 at 120 months -2 SD", LHFA, "M", standing, 120, -2, 125.0},
		{"girls height-for-age 2007 at 228 months median", LHFA, "F", standing, 228, 0, 163.2},
		{"boys weight-for-age 2007 at 120 months median", WFA, "M", "", 120, 0, 31.2},
		{"girls weight-for-age 2007 at 61 months -2 SD", WFA, "F", "", 61, -2, 14.0},
	}
	for _, c := range cases {
		r, ok := at(tables[tableKey{c.indicator, c.sex, c.m}], c.x)
		if !ok {
			t.Errorf("%s: no row", c.name)
			continue
		}
		if got := math.Round(r.value(c.z)*10) / 10; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.1f, WHO's table says %.1f", c.name, got, c.want)
		}
	}
}

// A typing slip in a transcribed row shows as a kink: the medians of every table change
// smoothly from one row to the next.
func TestTablesAreSmooth(t *testing.T) {
	for k, rows := range tables {
		if len(rows) < 3 {
			t.Errorf("%v: %d rows", k, len(rows))
		}
		for i := 1; i+1 < len(rows); i++ {
			a, b, c := rows[i-1], rows[i], rows[i+1]
			if a.x == b.x || b.x == c.x {
				t.Errorf("%v: two rows at %v", k, b.x)
				continue
			}
			mid := a.m + (c.m-a.m)*(b.x-a.x)/(c.x-a.x)
			// 0-2 months grow fastest; elsewhere the median lies within 1.5% of its neighbours' line.
			tol := 0.015
			if b.x <= 3 && k.indicator != WFL {
				tol = 0.06
			}
			if math.Abs(b.m-mid)/mid > tol {
				t.Errorf("%v at %v: M %v off its neighbours' line %v", k, b.x, b.m, mid)
			}
			if math.Abs(b.s-(a.s+c.s)/2) > 0.004 {
				t.Errorf("%v at %v: S %v off its neighbours %v, %v", k, b.x, b.s, a.s, c.s)
			}
		}
	}
}

func TestCompute(t *testing.T) {
	boy := Child{Sex: "male", BirthDate: "2024-01-15"}
	cases := []struct {
		name      string
		child     Child
		m         Measurement
		indicator string
		z         float64 // expected within 0.06
		none      bool
	}{
		{"boy at 12 months, 7.7 kg: weight-for-age about -2", boy, Measurement{On: "2025-01-15", Weight: f(7.7)}, WFA, -2.0, false},
		{"boy at 12 months, 9.6479 kg: the median", boy, Measurement{On: "2025-01-15", Weight: f(9.6479)}, WFA, 0, false},
		{"girl at 24 months, 86.4 cm lying: length median", Child{Sex: "female", BirthDate: "2023-01-01"}, Measurement{On: "2024-12-31", Height: f(86.4153), Position: Lying}, LHFA, 0, false},
		{"girl at 23 months measured standing: 0.7 cm added", Child{Sex: "female", BirthDate: "2023-01-01"}, Measurement{On: "2024-12-01", Height: f(85.5202 - 0.7), Position: Standing}, LHFA, 0, false},
		{"other sex: no score", Child{Sex: "other", BirthDate: "2024-01-15"}, Measurement{On: "2025-01-15", Weight: f(9.6)}, WFA, 0, true},
		{"unknown sex: no score", Child{Sex: "unknown", BirthDate: "2024-01-15"}, Measurement{On: "2025-01-15", Weight: f(9.6)}, WFA, 0, true},
		{"adult: no score", Child{Sex: "male", BirthDate: "1990-01-01"}, Measurement{On: "2025-01-15", Weight: f(70), Height: f(175)}, BFA, 0, true},
		{"11 years: no weight-for-age (reference ends at 10)", Child{Sex: "male", BirthDate: "2014-01-01"}, Measurement{On: "2025-01-15", Weight: f(35)}, WFA, 0, true},
		{"6 years: no weight-for-height (under 5 only)", Child{Sex: "male", BirthDate: "2019-01-01"}, Measurement{On: "2025-01-15", Weight: f(20), Height: f(115)}, WFL, 0, true},
	}
	for _, c := range cases {
		points, _, err := Compute(c.child, []Measurement{c.m})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		z := points[0].Z.Get(c.indicator)
		switch {
		case c.none && z != nil:
			t.Errorf("%s: z %v, want none", c.name, *z)
		case !c.none && z == nil:
			t.Errorf("%s: no z", c.name)
		case !c.none && math.Abs(*z-c.z) > 0.06: // WHO prints the SD values to one decimal (7.7 kg is 7.74)
			t.Errorf("%s: z %v, want %v", c.name, *z, c.z)
		}
	}
}

// WHO's restricted application beyond ±3 SD, worked by hand from the 12-month boys' row.
func TestRestrictedBeyondThreeSD(t *testing.T) {
	r, _ := at(tables[tableKey{WFA, "M", ""}], 12)
	sd3, sd2 := r.value(3), r.value(2)
	x := sd3 + (sd3-sd2)/2 // half a 2-3 SD step past +3
	z, _ := zOf(tables[tableKey{WFA, "M", ""}], 12, x, true)
	if math.Abs(z-3.5) > 1e-9 {
		t.Errorf("z %v, want 3.5", z)
	}
	sd3n, sd2n := r.value(-3), r.value(-2)
	z, _ = zOf(tables[tableKey{WFA, "M", ""}], 12, sd3n-(sd2n-sd3n), true)
	if math.Abs(z+4) > 1e-9 {
		t.Errorf("z %v, want -4", z)
	}
}

func TestCorrectedAge(t *testing.T) {
	c := Child{Sex: "female", BirthDate: "2025-01-01", GestationWeeks: n(32)}
	days, corrected, err := c.Ages("2025-05-01")
	if err != nil {
		t.Fatal(err)
	}
	if days != 120 || corrected == nil || *corrected != 120-8*7 {
		t.Errorf("ages %d, %v; want 120 and 64", days, corrected)
	}
	// From 24 months on, chronological age.
	if _, corrected, _ := c.Ages("2027-01-01"); corrected != nil {
		t.Errorf("corrected age at 24 months: %d", *corrected)
	}
	// Born at term: none.
	term := Child{Sex: "female", BirthDate: "2025-01-01", GestationWeeks: n(38)}
	if _, corrected, _ := term.Ages("2025-05-01"); corrected != nil {
		t.Errorf("corrected age at term: %d", *corrected)
	}
}

func TestFlags(t *testing.T) {
	boy := Child{Sex: "male", BirthDate: "2024-01-15"}
	points, flags, err := Compute(boy, []Measurement{
		{On: "2025-01-15", Weight: f(6.5), Height: f(75.7), Position: Lying},  // very light for age and length
		{On: "2025-01-16", Weight: f(14.5), Height: f(75.7), Position: Lying}, // very heavy for length
	})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, fl := range flags {
		codes[fl.On+" "+fl.Code] = true
	}
	for _, want := range []string{"2025-01-15 severe_underweight", "2025-01-15 severe_wasting", "2025-01-16 obesity"} {
		if !codes[want] {
			t.Errorf("no flag %s in %v (points %+v)", want, flags, points)
		}
	}
	for _, not := range []string{"2025-01-15 underweight", "2025-01-15 wasting", "2025-01-16 overweight"} {
		if codes[not] {
			t.Errorf("flag %s beside its severe form", not)
		}
	}
	// 7 years: BMI-for-age above +1 SD is overweight on the 2007 reference.
	girl := Child{Sex: "female", BirthDate: "2018-01-01"}
	_, flags, _ = Compute(girl, []Measurement{{On: "2025-01-01", Weight: f(28), Height: f(122)}})
	if len(flags) != 1 || flags[0].Code != "overweight" && flags[0].Code != "obesity" {
		t.Errorf("7-year-old BMI 18.8: flags %v", flags)
	}
	// 5 to 19 years: BMI-for-age below -2 SD is thinness, below -3 SD severe thinness (WHO 2007).
	teen := Child{Sex: "male", BirthDate: "2013-01-01"}
	for _, c := range []struct {
		weight float64
		want   string
	}{{30, "severe_thinness"}, {32.5, "thinness"}, {40, ""}} {
		points, flags, _ := Compute(teen, []Measurement{{On: "2025-01-01", Weight: f(c.weight), Height: f(150)}})
		got := ""
		for _, fl := range flags {
			if fl.Code == "thinness" || fl.Code == "severe_thinness" {
				got += fl.Code
			}
		}
		if got != c.want {
			t.Errorf("12-year-old, 150 cm, %v kg: thinness flags %q, want %q (points %+v)", c.weight, got, c.want, points)
		}
	}
}

func TestCurves(t *testing.T) {
	c := Child{Sex: "male", BirthDate: "2024-01-15"}
	cv := Curves(c, 0, 400, 60, 80)
	for _, ind := range Indicators {
		if len(cv[ind].Rows) == 0 {
			t.Errorf("%s: no rows", ind)
		}
	}
	if r := cv[WFA].Rows[12]; math.Abs(r.Values[1]-7.74) > 0.01 || math.Abs(r.Values[2]-9.65) > 0.01 {
		t.Errorf("12-month row %v", r)
	}
	if len(Curves(Child{Sex: "other", BirthDate: "2024-01-15"}, 0, 400, 60, 80)) != 0 {
		t.Error("curves for a sex without tables")
	}
	if len(Curves(Child{Sex: "male", BirthDate: "1990-01-01"}, 12000, 12400, 0, 0)) != 0 {
		t.Error("curves for an adult")
	}
}
