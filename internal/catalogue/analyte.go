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
	PlausibleLow  *float64       `json:"plausible_low,omitempty"`
	PlausibleHigh *float64       `json:"plausible_high,omitempty"`
	Ranges        []Range        `json:"ranges"`
	Critical      []CriticalBand `json:"critical"`
	DeltaRules    []DeltaRule    `json:"delta_rules"`
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
// inclusive at both ends. A nil bound is no bound. Critical limits are not the band's: they
// are the analyte's own (CriticalBand), so a patient no band fits still has them.
type Range struct {
	Sex        string   `json:"sex"`
	FromMonths int      `json:"age_from_months"`
	ToMonths   *int     `json:"age_to_months"`
	Low        *float64 `json:"low"`
	High       *float64 `json:"high"`
}

// CriticalBand is an analyte's critical limits for an age band in completed months
// [FromMonths, ToMonths), whatever the sex (CLSI GP47: critical-risk results are defined per
// analyte); a value at or beyond a limit is critical.
type CriticalBand struct {
	FromMonths int      `json:"age_from_months"`
	ToMonths   *int     `json:"age_to_months"`
	Low        *float64 `json:"critical_low"`
	High       *float64 `json:"critical_high"`
	Source     string   `json:"source"`
}

// DeltaRule is a delta check: a change of at least Percent per cent, or of at least Abs in
// the canonical unit, since an earlier result observed within WindowHours before this one.
type DeltaRule struct {
	WindowHours int      `json:"window_hours"`
	Percent     *float64 `json:"percent"`
	Abs         *float64 `json:"abs"`
	Source      string   `json:"source"`
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

// Reasons a value was judged without a sex-specific reference interval or without one at
// all (Limits.Note), kept with the result and said on screen and paper.
const (
	NoteAnySex      = "any_sex"       // the sex is other or unknown: the union of the sexes' bands
	NoteNoBand      = "no_band"       // no reference interval for the patient's age and sex
	NoteNoBirthDate = "no_birth_date" // the age is unknown: no reference interval, the strictest critical limits
	NoteCensored    = "censored"      // a censored value (<, >) whose side of the interval cannot be told
)

// Limits are what a value is judged against: the reference interval that applies (when
// Reference), and the analyte's critical limits for the age, which apply whether or not a
// reference interval does. Note says why the interval is missing or not sex-specific.
type Limits struct {
	Low, High                 *float64
	CriticalLow, CriticalHigh *float64
	Reference                 bool
	Note                      string
	Floor                     *float64 // the lowest value a person can have (a censored "<x" lies above it)
}

// inBand reports whether an age in months falls in [from, to).
func inBand(months, from int, to *int) bool {
	return months >= from && (to == nil || months < *to)
}

// RangeFor picks the reference interval of a patient of a sex at an age in months: among
// the ranges of their age, those of their sex before those for any sex; when several
// remain, their strictest bounds (the highest low, the lowest high). A patient whose sex is
// neither male nor female gets the ranges for any sex, or else the union of the sexes'
// ranges (the lowest low, the highest high: flagged only outside every sex's band), with
// NoteAnySex. ok is false when no range applies (an age none covers).
func (a Analyte) RangeFor(sex string, months int) (r Range, note string, ok bool) {
	var own, anySex, other []Range
	for _, c := range a.Ranges {
		if !inBand(months, c.FromMonths, c.ToMonths) {
			continue
		}
		switch c.Sex {
		case sex:
			own = append(own, c)
		case "any":
			anySex = append(anySex, c)
		default:
			other = append(other, c)
		}
	}
	pick := own
	if len(pick) == 0 {
		pick = anySex
	}
	if len(pick) == 0 && sex != "male" && sex != "female" && len(other) > 0 {
		r = other[0]
		for _, c := range other[1:] {
			r.Low, r.High = lowerOrNone(r.Low, c.Low), higherOrNone(r.High, c.High)
		}
		r.Sex = "any"
		return r, NoteAnySex, true
	}
	if len(pick) == 0 {
		return Range{}, NoteNoBand, false
	}
	r = pick[0]
	for _, c := range pick[1:] {
		r.Low, r.High = higher(r.Low, c.Low), lower(r.High, c.High)
	}
	return r, "", true
}

// CriticalFor is the analyte's critical limits at an age in months (the strictest where
// bands overlap); months < 0 (the age is unknown) takes the strictest of every band, since
// a critical value must never go unannounced for want of a birth date.
func (a Analyte) CriticalFor(months int) (low, high *float64) {
	for _, c := range a.Critical {
		if months >= 0 && !inBand(months, c.FromMonths, c.ToMonths) {
			continue
		}
		low, high = higher(low, c.Low), lower(high, c.High)
	}
	return low, high
}

// LimitsFor is everything a value of a patient of a sex at an age in months (-1: unknown)
// is judged against.
func (a Analyte) LimitsFor(sex string, months int) Limits {
	l := Limits{Floor: a.PlausibleLow}
	l.CriticalLow, l.CriticalHigh = a.CriticalFor(months)
	if months < 0 {
		l.Note = NoteNoBirthDate
		return l
	}
	r, note, ok := a.RangeFor(sex, months)
	l.Low, l.High, l.Reference, l.Note = r.Low, r.High, ok, note
	return l
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

// lowerOrNone and higherOrNone widen a union of bands: a bound one band lacks is no bound.
func lowerOrNone(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	return lower(a, b)
}

func higherOrNone(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	return higher(a, b)
}

// Comparators of a censored value (FHIR Quantity.comparator): the true value lies below or
// above the number reported (a result under the limit of quantitation, "<0.01").
const (
	Less        = "<"
	LessOrEqual = "<="
	More        = ">"
	MoreOrEqual = ">="
)

// Flag is a numeric value's flag: LL at or below the critical low, HH at or above the
// critical high (whether or not a reference interval applies), else against the reference
// interval L below the low, H above the high, N inside; "" when no interval applies.
func Flag(v float64, l Limits) string {
	switch {
	case l.CriticalLow != nil && v <= *l.CriticalLow:
		return FlagCriticalLow
	case l.CriticalHigh != nil && v >= *l.CriticalHigh:
		return FlagCriticalHigh
	case !l.Reference:
		return ""
	case l.Low != nil && v < *l.Low:
		return FlagLow
	case l.High != nil && v > *l.High:
		return FlagHigh
	}
	return FlagNormal
}

// FlagCensored is the flag of a censored value: the number v with its comparator says only
// on which side of v the true value t lies. "<0.01" TSH (low 0.40) is L, ">500" ALT is H,
// "<1" CRP (0–5, and a CRP cannot be below 0) is N, "<2.0" potassium is LL. Where t could lie
// on either side of a limit ("<3.6" potassium, low 3.5), the flag is "" with NoteCensored, so
// the order is not ranked as normal. Without a comparator it is Flag.
func FlagCensored(v float64, comparator string, l Limits) (flag, note string) {
	switch comparator {
	case Less, LessOrEqual:
		strict := comparator == Less
		switch {
		case l.CriticalLow != nil && v <= *l.CriticalLow: // t < v ≤ critical low
			return FlagCriticalLow, ""
		case !l.Reference:
			return "", ""
		case l.Low != nil && (v < *l.Low || (strict && v == *l.Low)): // t below the low
			return FlagLow, ""
		case (l.High == nil || v <= *l.High) && l.CriticalLow == nil && (l.Low == nil || (l.Floor != nil && *l.Low <= *l.Floor)):
			return FlagNormal, "" // t between a floor no one is under and the high
		}
	case More, MoreOrEqual:
		strict := comparator == More
		switch {
		case l.CriticalHigh != nil && v >= *l.CriticalHigh:
			return FlagCriticalHigh, ""
		case !l.Reference:
			return "", ""
		case l.High != nil && (v > *l.High || (strict && v == *l.High)):
			return FlagHigh, ""
		case (l.Low == nil || v >= *l.Low) && l.CriticalHigh == nil && l.High == nil:
			return FlagNormal, ""
		}
	default:
		return Flag(v, l), ""
	}
	return "", NoteCensored
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

// Earlier is an earlier result of the same patient and analyte (canonical value), for the
// delta check.
type Earlier struct {
	Value      float64
	ObservedAt time.Time
}

// Delta is the delta check of a canonical value observed at a time against the patient's
// earlier results: for each rule, against the results observed within its window before
// (the lowest of them for a rise, the highest for a fall: KDIGO's baseline), U or D when the
// change reaches the rule's percentage or absolute limit; "" when no rule fires.
func (a Analyte) Delta(v float64, at time.Time, earlier []Earlier) string {
	best, flag := 0.0, ""
	for _, rule := range a.DeltaRules {
		from := at.Add(-time.Duration(rule.WindowHours) * time.Hour)
		var lo, hi *float64
		for _, e := range earlier {
			if e.ObservedAt.Before(from) || e.ObservedAt.After(at) {
				continue
			}
			lo, hi = lower(lo, &e.Value), higher(hi, &e.Value)
		}
		if lo == nil {
			continue
		}
		for _, c := range []struct {
			base float64
			flag string
		}{{*lo, FlagUp}, {*hi, FlagDown}} {
			change := v - c.base
			if (c.flag == FlagUp && change <= 0) || (c.flag == FlagDown && change >= 0) {
				continue
			}
			size := math.Abs(change)
			fires := (rule.Abs != nil && size >= *rule.Abs-1e-9) ||
				(rule.Percent != nil && c.base != 0 && size/math.Abs(c.base)*100 >= *rule.Percent-1e-9)
			if rel := size / math.Max(math.Abs(c.base), 1e-9); fires && rel > best {
				best, flag = rel, c.flag
			}
		}
	}
	return flag
}

// MaxDeltaWindow is the longest window of the analyte's delta rules (0 without rules): the
// earlier results the check needs are those observed within it.
func (a Analyte) MaxDeltaWindow() time.Duration {
	var longest int
	for _, r := range a.DeltaRules {
		longest = max(longest, r.WindowHours)
	}
	return time.Duration(longest) * time.Hour
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
