package catalogue

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// An analyte is one thing a test reports: a number in a unit (haemoglobin, potassium), a
// coded answer (HBsAg negative or positive) or text (an imaging report). Its numbers are the
// results catalogue's (issue 35, ADR 28); this file holds the arithmetic that turns a typed
// value into a stored, flagged one, with no database in sight so that every rule is tested
// on its own.

// Analyte types.
const (
	Numeric = "numeric"
	Coded   = "coded"
	Text    = "text"
)

// Flags of HL7 v2 table 0078 (FHIR Observation.interpretation): a numeric value against its
// range (N, L, H, and the critical LL, HH), a coded answer (N, A, the critical AA), and the
// delta check's significant change up or down (U, D) since the last result.
const (
	FlagNormal       = "N"
	FlagLow          = "L"
	FlagHigh         = "H"
	FlagCriticalLow  = "LL"
	FlagCriticalHigh = "HH"
	FlagAbnormal     = "A"
	FlagCritical     = "AA"
	FlagUp           = "U"
	FlagDown         = "D"
)

// Critical tells whether a flag must reach the ordering doctor at once and be acknowledged.
func Critical(flag string) bool {
	return flag == FlagCriticalLow || flag == FlagCriticalHigh || flag == FlagCritical
}

// Analyte is an analyte of the catalogue.
type Analyte struct {
	Code     string   `json:"code"`
	LOINC    string   `json:"loinc"`
	Type     string   `json:"type"`
	Unit     string   `json:"unit"` // UCUM, the canonical unit: results are compared and charted in it
	Decimals int      `json:"decimals"`
	Label    string   `json:"label"`
	Units    []Unit   `json:"units"` // the other units it may be entered in
	Answers  []Answer `json:"answers,omitempty"`
	// Values outside [PlausibleLow, PlausibleHigh] (canonical unit) are refused: a person
	// cannot have them, so they are typing mistakes.
	PlausibleLow  *float64 `json:"plausible_low,omitempty"`
	PlausibleHigh *float64 `json:"plausible_high,omitempty"`
	// A change since the patient's last result of at least DeltaPercent per cent, or of at
	// least DeltaAbs in the canonical unit, is flagged U or D even inside the range.
	DeltaPercent *float64 `json:"delta_percent,omitempty"`
	DeltaAbs     *float64 `json:"delta_abs,omitempty"`
	Ranges       []Range  `json:"ranges"`
}

// Unit is another unit an analyte may be entered in: canonical = entered × Factor, or the
// IFCC–NGSP master equation for HbA1c (Conversion "hba1c_ifcc"). LOINC is the code of a value
// reported in that unit when its property differs from the canonical one (mass, not moles).
type Unit struct {
	Unit       string  `json:"unit"`
	Conversion string  `json:"conversion"`
	Factor     float64 `json:"factor,omitempty"`
	LOINC      string  `json:"loinc,omitempty"`
}

// Answer is a coded answer and the flag it carries (N, A or AA).
type Answer struct {
	Code string `json:"code"`
	Flag string `json:"flag"`
}

// Range is a reference range for a sex ("any", "female", "male") and an age band in
// completed months, [FromMonths, ToMonths) (ToMonths nil: no upper end). The normal band is
// inclusive at both ends; a value at or beyond a critical limit is critical. A nil bound is
// no bound.
type Range struct {
	Sex          string   `json:"sex"`
	FromMonths   int      `json:"age_from_months"`
	ToMonths     *int     `json:"age_to_months"`
	Low          *float64 `json:"low"`
	High         *float64 `json:"high"`
	CriticalLow  *float64 `json:"critical_low"`
	CriticalHigh *float64 `json:"critical_high"`
}

// Errors of a value that cannot be stored; the handler names the field and says why.
var (
	ErrUnknownUnit = errors.New("the analyte is not entered in this unit")
	ErrImplausible = errors.New("the value lies outside what a person can have")
	ErrUnknownCode = errors.New("not an answer of this test")
)

// entryUnit is the analyte's other unit named unit.
func (a Analyte) entryUnit(unit string) (Unit, bool) {
	for _, u := range a.Units {
		if u.Unit == unit {
			return u, true
		}
	}
	return Unit{}, false
}

// Canonical turns a value entered in unit into the analyte's canonical unit.
func (a Analyte) Canonical(value float64, unit string) (float64, error) {
	if unit == a.Unit || unit == "" {
		return value, nil
	}
	u, ok := a.entryUnit(unit)
	switch {
	case !ok:
		return 0, ErrUnknownUnit
	case u.Conversion == "hba1c_ifcc":
		return value/10.929 + 2.15, nil // the IFCC–NGSP master equation, mmol/mol = 10.929 × (% − 2.15)
	}
	return value * u.Factor, nil
}

// In turns a canonical value into unit (the chart's unit toggle, the printed second unit).
func (a Analyte) In(canonical float64, unit string) (float64, error) {
	if unit == a.Unit || unit == "" {
		return canonical, nil
	}
	u, ok := a.entryUnit(unit)
	switch {
	case !ok:
		return 0, ErrUnknownUnit
	case u.Conversion == "hba1c_ifcc":
		return (canonical - 2.15) * 10.929, nil
	}
	return canonical / u.Factor, nil
}

// DecimalsIn is how many decimals a value in unit is written with: the canonical unit's
// own, HbA1c in mmol/mol with none; another unit by its factor's scale (126 mg/dL glucose,
// not 126.0).
func (a Analyte) DecimalsIn(unit string) int {
	u, ok := a.entryUnit(unit)
	switch {
	case unit == a.Unit || unit == "" || !ok:
		return a.Decimals
	case u.Conversion == "hba1c_ifcc" || u.Factor == 0:
		return 0
	}
	// log10 of the factor moves the decimal point: g/dL (×10 to g/L) keeps one more decimal
	// than g/L, mg/dL glucose (×0.0555 to mmol/L) one fewer.
	return max(0, a.Decimals+int(math.Round(math.Log10(u.Factor))))
}

// Round rounds a value to n decimals, halves away from zero (7.05 → 7.1).
func Round(v float64, n int) float64 {
	p := math.Pow(10, float64(n))
	return math.Round(v*p) / p
}

// Format writes a value with n decimals ("." as the point; the caller localises it).
func Format(v float64, n int) string { return strconv.FormatFloat(Round(v, n), 'f', n, 64) }

// Plausible reports whether a canonical value is one a person can have.
func (a Analyte) Plausible(canonical float64) error {
	if (a.PlausibleLow != nil && canonical < *a.PlausibleLow) || (a.PlausibleHigh != nil && canonical > *a.PlausibleHigh) {
		return ErrImplausible
	}
	return nil
}

// MonthsOld is a person's age in completed calendar months on a day: born on 31 January,
// one month old on 28 (or 29) February, not on 3 March.
func MonthsOld(birth, on time.Time) int {
	months := (on.Year()-birth.Year())*12 + int(on.Month()-birth.Month())
	// The day of the month not reached yet this month (the birthday's day clipped to the
	// month's length: a 31st birthday falls on the 30th in a 30-day month).
	last := time.Date(on.Year(), on.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if on.Day() < min(birth.Day(), last) {
		months--
	}
	return max(months, 0)
}

// RangeFor picks the range that applies to a patient of a sex at an age in months: among
// the ranges of their age, those of their sex before those for any sex; when several
// remain, their strictest bounds (the highest low, the lowest high). ok is false when no
// range applies (a sex the ranges do not name, an age none covers): the result is then not
// flagged, rather than flagged against an adult's range.
func (a Analyte) RangeFor(sex string, months int) (r Range, ok bool) {
	var own, any []Range
	for _, c := range a.Ranges {
		if months < c.FromMonths || (c.ToMonths != nil && months >= *c.ToMonths) {
			continue
		}
		switch c.Sex {
		case sex:
			own = append(own, c)
		case "any":
			any = append(any, c)
		}
	}
	pick := own
	if len(pick) == 0 {
		pick = any
	}
	if len(pick) == 0 {
		return Range{}, false
	}
	r = pick[0]
	for _, c := range pick[1:] {
		r.Low, r.CriticalLow = higher(r.Low, c.Low), higher(r.CriticalLow, c.CriticalLow)
		r.High, r.CriticalHigh = lower(r.High, c.High), lower(r.CriticalHigh, c.CriticalHigh)
	}
	return r, true
}

func higher(a, b *float64) *float64 {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}

func lower(a, b *float64) *float64 {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

// Flag is a numeric value's flag against a range: LL at or below the critical low, HH at or
// above the critical high, else L below the low, H above the high, else N. Without a range
// there is no flag ("").
func Flag(v float64, r Range, ok bool) string {
	switch {
	case !ok:
		return ""
	case r.CriticalLow != nil && v <= *r.CriticalLow:
		return FlagCriticalLow
	case r.CriticalHigh != nil && v >= *r.CriticalHigh:
		return FlagCriticalHigh
	case r.Low != nil && v < *r.Low:
		return FlagLow
	case r.High != nil && v > *r.High:
		return FlagHigh
	}
	return FlagNormal
}

// AnswerFlag is a coded answer's flag; an answer the test does not have is refused.
func (a Analyte) AnswerFlag(code string) (string, error) {
	for _, ans := range a.Answers {
		if ans.Code == code {
			return ans.Flag, nil
		}
	}
	return "", ErrUnknownCode
}

// Delta is the delta check of a canonical value against the patient's previous one: U or D
// when it changed by at least the analyte's percentage or absolute limit, else "".
func (a Analyte) Delta(previous, v float64) string {
	change := v - previous
	big := (a.DeltaAbs != nil && math.Abs(change) >= *a.DeltaAbs-1e-9) ||
		(a.DeltaPercent != nil && previous != 0 && math.Abs(change)/math.Abs(previous)*100 >= *a.DeltaPercent-1e-9)
	switch {
	case !big || change == 0:
		return ""
	case change > 0:
		return FlagUp
	}
	return FlagDown
}

// parseAnswers reads "negative:N,positive:A" into answers.
func parseAnswers(s string) []Answer {
	var out []Answer
	for _, part := range strings.Split(s, ",") {
		code, flag, ok := strings.Cut(strings.TrimSpace(part), ":")
		if ok && code != "" {
			out = append(out, Answer{Code: code, Flag: flag})
		}
	}
	return out
}
