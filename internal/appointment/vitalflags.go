package appointment

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/catalogue"
	"emr/internal/i18n"
)

// VitalBand is one row of the vital-sign bands (vital_bands.tsv): for a patient whose age
// on the visit's day is within the band, a vital that compares with Limit as When says is
// given Flag.
type VitalBand struct {
	Vital      string  `json:"vital"`
	FromMonths int     `json:"from_months"`
	ToMonths   *int    `json:"to_months"`
	Flag       string  `json:"flag"`
	When       string  `json:"when"`
	Limit      float64 `json:"limit"`
	// Ages names the band in the reader's language ("1 year", "18 years and over").
	Ages   string `json:"ages"`
	Source string `json:"source"`
	ages   string // the band's key (message vitals.ages.<key>)
}

// VitalFlag is how one measured vital compares with the bands of the patient's age: Flag is
// an HL7 v3 ObservationInterpretation code (N, L, H, LL, HH); When and Limit are the limit
// crossed (none for N).
type VitalFlag struct {
	Flag   string   `json:"flag"`
	When   string   `json:"when,omitempty"`
	Limit  *float64 `json:"limit,omitempty"`
	Ages   string   `json:"ages"`
	Source string   `json:"source,omitempty"`
}

// VitalFlags are the flags of a visit's measured vitals by the vital's key ("heart_rate").
// A vital not measured, or without bands for the age (weight, height; a baby's diastolic
// pressure), has none.
type VitalFlags map[string]VitalFlag

//go:embed vital_bands.tsv
var vitalBandsTSV string

// vitalBands are the rows of vital_bands.tsv, in file order.
var vitalBands = mustReadVitalBands(vitalBandsTSV)

// severity orders the flags: a severe row that holds wins over a plain one.
var severity = map[string]int{"L": 1, "H": 1, "LL": 2, "HH": 2}

// VitalSeverity orders flags: 0 for N (or none), 1 for L and H, 2 for LL and HH.
func VitalSeverity(flag string) int { return severity[flag] }

func mustReadVitalBands(tsv string) []VitalBand {
	list, err := readVitalBands(tsv)
	if err != nil {
		panic(err)
	}
	return list
}

// readVitalBands reads the bands table, refusing a row that names an unknown vital, flag
// or comparison, or an empty band.
func readVitalBands(tsv string) ([]VitalBand, error) {
	var out []VitalBand
	header := false
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			header = true
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("vital_bands.tsv line %d: %d columns, want 8", n+1, len(f))
		}
		b := VitalBand{Vital: f[0], Flag: f[4], When: f[5], ages: f[3], Source: f[7]}
		var err error
		if b.FromMonths, err = strconv.Atoi(f[1]); err != nil {
			return nil, fmt.Errorf("vital_bands.tsv line %d: from_months: %w", n+1, err)
		}
		if f[2] != "" {
			to, err := strconv.Atoi(f[2])
			if err != nil || to <= b.FromMonths {
				return nil, fmt.Errorf("vital_bands.tsv line %d: to_months must be after from_months", n+1)
			}
			b.ToMonths = &to
		}
		if b.Limit, err = strconv.ParseFloat(f[6], 64); err != nil {
			return nil, fmt.Errorf("vital_bands.tsv line %d: limit: %w", n+1, err)
		}
		switch {
		case !slices.ContainsFunc(VitalRanges, func(r vitalRange) bool { return r.field == b.Vital }):
			return nil, fmt.Errorf("vital_bands.tsv line %d: unknown vital %q", n+1, b.Vital)
		case severity[b.Flag] == 0:
			return nil, fmt.Errorf("vital_bands.tsv line %d: unknown flag %q", n+1, b.Flag)
		case b.When != "<" && b.When != ">" && b.When != ">=":
			return nil, fmt.Errorf("vital_bands.tsv line %d: unknown comparison %q", n+1, b.When)
		case b.ages == "" || strings.TrimSpace(b.Source) == "":
			return nil, fmt.Errorf("vital_bands.tsv line %d: ages and source are required", n+1)
		}
		out = append(out, b)
	}
	return out, nil
}

// holds answers whether x crosses the row's limit.
func (b VitalBand) holds(x float64) bool {
	switch b.When {
	case "<":
		return x < b.Limit
	case ">":
		return x > b.Limit
	}
	return x >= b.Limit
}

// low answers whether the row marks values below its limit.
func (b VitalBand) low() bool { return b.When == "<" }

// MonthsOld is the age in completed months on day of someone born on birth (both
// YYYY-MM-DD); ok is false if either date cannot be read.
func MonthsOld(birth, day string) (months int, ok bool) {
	b, err1 := time.Parse(time.DateOnly, birth)
	d, err2 := time.Parse(time.DateOnly, day)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return catalogue.MonthsOld(b, d), true
}

// VitalBandsAt are the bands of an age in completed months, with their names in lang.
func VitalBandsAt(months int, lang string) []VitalBand {
	out := []VitalBand{}
	for _, b := range vitalBands {
		if months >= b.FromMonths && (b.ToMonths == nil || months < *b.ToMonths) {
			b.Ages = i18n.T(lang, "vitals.ages."+b.ages)
			out = append(out, b)
		}
	}
	return out
}

// FlagVitals flags the measured vitals of a patient born on birth, measured on day (both
// YYYY-MM-DD), against the bands of their age then, with the bands' names in lang. A vital
// is N only where the bands bound it on both sides (SpO2 cannot exceed 100 %), so that a
// band with a low limit only does not call a high value normal.
func FlagVitals(v Vitals, birth, day, lang string) VitalFlags {
	out := VitalFlags{}
	months, ok := MonthsOld(birth, day)
	if !ok {
		return out
	}
	bands := VitalBandsAt(months, lang)
	for _, r := range VitalRanges {
		x := r.value(&v)
		if x == nil {
			continue
		}
		var worst *VitalBand
		var hasLow, hasHigh bool
		ages := ""
		for i, b := range bands {
			if b.Vital != r.field {
				continue
			}
			hasLow, hasHigh, ages = hasLow || b.low(), hasHigh || !b.low(), cmp.Or(ages, b.Ages)
			if b.holds(*x) && (worst == nil || severity[b.Flag] > severity[worst.Flag]) {
				worst = &bands[i]
			}
		}
		switch {
		case worst != nil:
			limit := worst.Limit
			out[r.field] = VitalFlag{Flag: worst.Flag, When: worst.When, Limit: &limit, Ages: worst.Ages, Source: worst.Source}
		case hasLow && (hasHigh || r.field == "spo2"):
			out[r.field] = VitalFlag{Flag: "N", Ages: ages}
		}
	}
	return out
}
