package growth

import (
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// DaysPerMonth is the WHO's month (365.25 / 12 days): ages in days become the tables' months.
const DaysPerMonth = 30.4375

// MaxAgeMonths is the end of the WHO 2007 reference (19 years): no scores past it.
const MaxAgeMonths = 228

// lyingUntilDays is the age from which a child is measured standing (24 months, as the WHO
// Child Growth Standards switch from length to height).
const lyingUntilDays = 731

// positionShift is what standing height is shorter than recumbent length (WHO Child Growth
// Standards: add 0.7 cm to a height measured before 24 months, take it off a length
// measured after).
const positionShift = 0.7

// Positions a length or height was measured in; "" is not said: lying before 24 months and
// standing after, as the WHO recommends.
const (
	Lying    = "lying"
	Standing = "standing"
)

// Child is what the scores need of the patient: sex "male" or "female" (any other has no
// scores), birth date (YYYY-MM-DD), and the gestation at birth in completed weeks, if known.
type Child struct {
	Sex            string
	BirthDate      string
	GestationWeeks *int
}

// Measurement is one day's measurements of the child; nil is not measured.
type Measurement struct {
	On       string   // YYYY-MM-DD
	Weight   *float64 // kg
	Height   *float64 // cm, recumbent length or standing height
	Position string   // Lying, Standing or "" (not said)
	Head     *float64 // head circumference, cm
}

// Scores are a point's values by indicator; nil where the indicator does not apply (age out
// of its table, a measurement missing, sex not male or female).
type Scores struct {
	WFA  *float64 `json:"wfa"`
	LHFA *float64 `json:"lhfa"`
	WFL  *float64 `json:"wfl"`
	HCFA *float64 `json:"hcfa"`
	BFA  *float64 `json:"bfa"`
}

// Get is the score of an indicator.
func (s *Scores) Get(indicator string) *float64 {
	switch indicator {
	case WFA:
		return s.WFA
	case LHFA:
		return s.LHFA
	case WFL:
		return s.WFL
	case HCFA:
		return s.HCFA
	case BFA:
		return s.BFA
	}
	return nil
}

func (s *Scores) set(indicator string, v *float64) {
	switch indicator {
	case WFA:
		s.WFA = v
	case LHFA:
		s.LHFA = v
	case WFL:
		s.WFL = v
	case HCFA:
		s.HCFA = v
	case BFA:
		s.BFA = v
	}
}

// Point is one measurement scored: the ages that day (the corrected age, when the child was
// born before 37 weeks and is under 24 months, is the one the scores use), the measurements,
// the z-scores (two decimals) and the percentiles (one decimal).
type Point struct {
	On               string   `json:"on"`
	AgeDays          int      `json:"age_days"`
	CorrectedAgeDays *int     `json:"corrected_age_days"`
	Weight           *float64 `json:"weight"`
	Height           *float64 `json:"height"`
	Head             *float64 `json:"head"`
	BMI              *float64 `json:"bmi"`
	// Measure is how the length or height was taken as scored: "length" (lying) or "height"
	// (standing); "" without one.
	Measure string `json:"measure"`
	Z       Scores `json:"z"`
	Pct     Scores `json:"pct"`
}

// Flag is a WHO cut-off a point's z-score meets.
type Flag struct {
	On        string  `json:"on"`
	Code      string  `json:"code"`
	Indicator string  `json:"indicator"`
	Z         float64 `json:"z"`
}

// sexKey is the tables' key of a patient's sex; "" for any other than male or female.
func sexKey(sex string) string {
	switch sex {
	case "male":
		return "M"
	case "female":
		return "F"
	}
	return ""
}

// Scorable says whether the child's sex is one the WHO tables are given for.
func (c Child) Scorable() bool { return sexKey(c.Sex) != "" }

// Ages are the child's age in days on day (YYYY-MM-DD), and the corrected age (nil when it
// does not apply: born at 37 weeks or later, gestation not known, or 24 months or older).
func (c Child) Ages(day string) (int, *int, error) {
	birth, err := time.Parse(time.DateOnly, c.BirthDate)
	if err != nil {
		return 0, nil, fmt.Errorf("birth date %q: %w", c.BirthDate, err)
	}
	on, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return 0, nil, fmt.Errorf("day %q: %w", day, err)
	}
	days := int(on.Sub(birth).Hours() / 24)
	if c.GestationWeeks == nil || *c.GestationWeeks >= 37 || !on.Before(birth.AddDate(2, 0, 0)) {
		return days, nil, nil
	}
	corrected := days - (40-*c.GestationWeeks)*7
	return days, &corrected, nil
}

// Compute scores the measurements of a child, in the order given, and lists the flags
// their z-scores raise. A child whose sex is not male or female gets the points without
// scores.
func Compute(c Child, list []Measurement) ([]Point, []Flag, error) {
	sex := sexKey(c.Sex)
	points := make([]Point, 0, len(list))
	flags := []Flag{}
	for _, m := range list {
		days, corrected, err := c.Ages(m.On)
		if err != nil {
			return nil, nil, err
		}
		p := Point{On: m.On, AgeDays: days, CorrectedAgeDays: corrected, Weight: m.Weight, Height: m.Height, Head: m.Head}
		age := days
		if corrected != nil {
			age = *corrected
		}
		var height *float64 // as the tables of the age want it
		if m.Height != nil {
			h := *m.Height
			p.Measure = "height"
			if age < lyingUntilDays {
				p.Measure = "length"
			}
			switch {
			case m.Position == Standing && age < lyingUntilDays:
				h += positionShift
			case m.Position == Lying && age >= lyingUntilDays:
				h -= positionShift
			}
			height = &h
		}
		if m.Weight != nil && m.Height != nil && *m.Height > 0 {
			b := round(*m.Weight/math.Pow(*m.Height/100, 2), 1)
			p.BMI = &b
		}
		if sex != "" && days >= 0 && age >= 0 {
			score(&p, sex, float64(age)/DaysPerMonth, m.Weight, height, m.Head)
		}
		flags = append(flags, flagsOf(p, float64(age)/DaysPerMonth)...)
		points = append(points, p)
	}
	return points, flags, nil
}

// score fills a point's z-scores and percentiles at age (months).
func score(p *Point, sex string, months float64, weight, height, head *float64) {
	if months > MaxAgeMonths {
		return
	}
	measure := standing
	if months*DaysPerMonth < lyingUntilDays {
		measure = lying
	}
	put := func(indicator string, rows []lms, x, value float64, restricted bool) {
		z, ok := zOf(rows, x, value, restricted)
		if !ok || math.IsNaN(z) || math.IsInf(z, 0) {
			return
		}
		zr, pr := round(z, 2), round(100*normalCDF(z), 1)
		p.Z.set(indicator, &zr)
		p.Pct.set(indicator, &pr)
	}
	if weight != nil {
		put(WFA, tables[tableKey{WFA, sex, ""}], months, *weight, true)
	}
	if height != nil {
		put(LHFA, tables[tableKey{LHFA, sex, measure}], months, *height, false)
		if weight != nil {
			if months <= 60 {
				put(WFL, tables[tableKey{WFL, sex, measure}], *height, *weight, true)
			}
			put(BFA, tables[tableKey{BFA, sex, measure}], months, *weight/math.Pow(*height/100, 2), true)
		}
	}
	if head != nil {
		put(HCFA, tables[tableKey{HCFA, sex, ""}], months, *head, false)
	}
}

// zOf is the z-score of value at x in a table; restricted is the WHO's restricted
// application of the LMS method for the weight-based indicators beyond ±3 SD (WHO Child
// Growth Standards, Methods and development (2006), chapter 7; WHO Anthro manual): the
// distance past ±3 SD is measured in units of the distance between the 2 and 3 SD values.
func zOf(rows []lms, x, value float64, restricted bool) (float64, bool) {
	r, ok := at(rows, x)
	if !ok || value <= 0 {
		return 0, false
	}
	z := lmsZ(r, value)
	if restricted {
		switch {
		case z > 3:
			sd3, sd2 := r.value(3), r.value(2)
			z = 3 + (value-sd3)/(sd3-sd2)
		case z < -3:
			sd3, sd2 := r.value(-3), r.value(-2)
			z = -3 + (value-sd3)/(sd2-sd3)
		}
	}
	return z, true
}

// lmsZ is z = ((X/M)^L − 1)/(L·S), or ln(X/M)/S when L is 0.
func lmsZ(r lms, x float64) float64 {
	if r.l == 0 {
		return math.Log(x/r.m) / r.s
	}
	return (math.Pow(x/r.m, r.l) - 1) / (r.l * r.s)
}

// value is the measurement at z: M·(1 + L·S·z)^(1/L), or M·e^(S·z) when L is 0.
func (r lms) value(z float64) float64 {
	if r.l == 0 {
		return r.m * math.Exp(r.s*z)
	}
	return r.m * math.Pow(1+r.l*r.s*z, 1/r.l)
}

// normalCDF is the standard normal distribution's Φ(z).
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// FlagRule is one row of flags.tsv: the flag code a z-score of the indicator raises at ages
// from FromMonth (inclusive) to ToMonth (exclusive) when below (op "<") or above (">") Z.
type FlagRule struct {
	Code, Group, Indicator string
	FromMonth, ToMonth     float64
	Op                     string
	Z                      float64
	Source                 string
}

//go:embed flags.tsv
var flagsTSV string

// FlagRules are the cut-offs, in the file's order.
var FlagRules = mustReadFlags(flagsTSV)

func mustReadFlags(tsv string) []FlagRule {
	var out []FlagRule
	header := true
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			panic(fmt.Sprintf("growth: flags.tsv line %d: %d columns", n+1, len(f)))
		}
		var num [3]float64
		for i, s := range []string{f[3], f[4], f[6]} {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				panic(fmt.Sprintf("growth: flags.tsv line %d: %v", n+1, err))
			}
			num[i] = x
		}
		if (f[5] != "<" && f[5] != ">") || strings.TrimSpace(f[7]) == "" {
			panic(fmt.Sprintf("growth: flags.tsv line %d: operator or source", n+1))
		}
		out = append(out, FlagRule{Code: f[0], Group: f[1], Indicator: f[2], FromMonth: num[0], ToMonth: num[1], Op: f[5], Z: num[2], Source: f[7]})
	}
	return out
}

// flagsOf are the flags of a point scored at age (months): in each group, the first rule met.
func flagsOf(p Point, months float64) []Flag {
	var out []Flag
	done := map[string]bool{}
	for _, r := range FlagRules {
		if done[r.Group] || months < r.FromMonth || months >= r.ToMonth {
			continue
		}
		z := p.Z.Get(r.Indicator)
		if z == nil || (r.Op == "<" && !(*z < r.Z)) || (r.Op == ">" && !(*z > r.Z)) {
			continue
		}
		done[r.Group] = true
		out = append(out, Flag{On: p.On, Code: r.Code, Indicator: r.Indicator, Z: *z})
	}
	return out
}
