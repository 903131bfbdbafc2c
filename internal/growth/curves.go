package growth

import "math"

// SDs are the SD lines a chart draws.
var SDs = []float64{-3, -2, 0, 2, 3}

// CurveRow is the value of each SD line at an age (age-based indicators) or a length/height
// (weight-for-length/height: Cm set, AgeDays 0).
type CurveRow struct {
	AgeDays int       `json:"age_days"`
	Cm      *float64  `json:"cm,omitempty"`
	Values  []float64 `json:"values"`
}

// Curve is one indicator's SD lines. X is what the rows run along: "age_days" or "cm";
// Measure, for weight-for-length/height, is "length" or "height".
type Curve struct {
	SDs     []float64  `json:"sds"`
	X       string     `json:"x"`
	Measure string     `json:"measure,omitempty"`
	Rows    []CurveRow `json:"rows"`
}

// Curves are the SD lines of each indicator for a child from fromDays to toDays of age
// (corrected ages where they apply), one row a month; for weight-for-length/height, from
// fromCm to toCm every centimetre, in the length table while the child is under 24 months at
// toDays (the height table after). None for a sex without tables, and none past 19 years.
func Curves(c Child, fromDays, toDays int, fromCm, toCm float64) map[string]Curve {
	out := map[string]Curve{}
	sex := sexKey(c.Sex)
	if sex == "" || fromDays < 0 || float64(fromDays)/DaysPerMonth > MaxAgeMonths {
		return out
	}
	from := math.Floor(float64(fromDays) / DaysPerMonth)
	to := math.Min(math.Ceil(float64(toDays)/DaysPerMonth), MaxAgeMonths)
	for _, ind := range []string{WFA, LHFA, HCFA, BFA} {
		var rows []CurveRow
		for m := from; m <= to; m++ {
			measure := ""
			if ind == LHFA || ind == BFA {
				measure = standing
				if m < 24 {
					measure = lying
				}
			}
			r, ok := at(tables[tableKey{ind, sex, measure}], m)
			if !ok {
				continue
			}
			rows = append(rows, CurveRow{AgeDays: int(math.Round(m * DaysPerMonth)), Values: sdValues(r)})
		}
		if len(rows) > 0 {
			out[ind] = Curve{SDs: SDs, X: "age_days", Rows: rows}
		}
	}
	if to <= 60 {
		measure, name := lying, "length"
		if float64(toDays) >= lyingUntilDays {
			measure, name = standing, "height"
		}
		t := tables[tableKey{WFL, sex, measure}]
		lo, hi := span(t)
		var rows []CurveRow
		for cm := math.Max(math.Floor(fromCm), lo); cm <= math.Min(math.Ceil(toCm), hi); cm++ {
			if r, ok := at(t, cm); ok {
				x := cm
				rows = append(rows, CurveRow{Cm: &x, Values: sdValues(r)})
			}
		}
		if len(rows) > 0 {
			out[WFL] = Curve{SDs: SDs, X: "cm", Measure: name, Rows: rows}
		}
	}
	return out
}

func sdValues(r lms) []float64 {
	out := make([]float64, len(SDs))
	for i, z := range SDs {
		out[i] = round(r.value(z), 2)
	}
	return out
}
