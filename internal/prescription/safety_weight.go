package prescription

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/immunisation"
	"emr/internal/patient"
	"emr/internal/textsearch"
)

// Doses by weight (issue 59, item 6). A child's line of a medicine the dose table has rows for
// (catalogue.PaediatricDoses) is checked against the table for the child's age and latest
// recorded weight: a dose above the most one dose or one day may hold for the weight, a child
// younger or lighter than the table's rows are for. A line dosed by weight also needs a weight,
// measured no longer ago than the clinic allows. Each finding needs a reason, as the other
// findings of the medicine-safety check do.

// Kinds of finding.
const (
	FindDoseAboveMax      = "dose_above_max"       // one dose above the most for the weight
	FindDoseAboveDaily    = "dose_above_daily_max" // a day's doses above the most for the weight
	FindDoseUnderAge      = "dose_under_min_age"   // the child is younger than the table's rows
	FindDoseUnderWeight   = "dose_under_min_weight"
	FindWeightMissing     = "weight_missing"  // a dose by weight, and no weight recorded
	FindWeightStale       = "weight_stale"    // a dose by weight from a weight older than the limit
	FindDoseUnreadable    = "dose_unreadable" // a child's dose that cannot be read in mg
	FindDoseMismatch      = "dose_mismatch"   // the dose by weight's numbers are not what prints
	mismatchShare         = 0.02              // a measured dose may round this share off the box's
	mismatchMg            = 0.5
	adultYears            = 18
	doseTolerance         = 1.02 // a dose measured in a syringe may round a little above
	maxMgPerKg            = 1000
	maxDosesPerDay        = 24
	maxDoseMg             = 100000
	weightIndicationLimit = 40
)

// DoseFacts are the numbers a dose finding speaks of. Zero is not known or not set.
type DoseFacts struct {
	DoseMg      float64 `json:"dose_mg,omitempty"`
	DayMg       float64 `json:"day_mg,omitempty"`
	MaxDoseMg   float64 `json:"max_dose_mg,omitempty"`
	MaxDayMg    float64 `json:"max_day_mg,omitempty"`
	MgPerKg     float64 `json:"mg_per_kg,omitempty"`
	WeightKg    float64 `json:"weight_kg,omitempty"`
	WeightOn    string  `json:"weight_on,omitempty"`
	WeightDays  int     `json:"weight_age_days,omitempty"`
	LimitDays   int     `json:"limit_days,omitempty"`
	AgeMonths   int     `json:"age_months,omitempty"`
	MinMonths   int     `json:"min_age_months,omitempty"`
	MinWeightKg float64 `json:"min_weight_kg,omitempty"`
	Indication  string  `json:"indication,omitempty"`
	// For dose_mismatch: the dose by weight's dose and doses a day, beside the printed ones.
	BoxDoseMg      float64 `json:"box_dose_mg,omitempty"`
	DosesPerDay    int     `json:"doses_per_day,omitempty"`
	BoxDosesPerDay int     `json:"box_doses_per_day,omitempty"`
}

// WeightFacts are the patient's latest recorded weight as the editor shows it, with its age
// in days and the clinic's limit.
type WeightFacts struct {
	Kg         float64 `json:"kg"`
	On         string  `json:"on"`
	AgeDays    int     `json:"age_days"`
	Stale      bool    `json:"stale"`
	MaxAgeDays int     `json:"max_age_days"`
}

// LineDoses are the dose table's rows for a line's medicine, and its strength (for a liquid,
// the mg in PerML millilitres), for the editor to dose it by weight.
type LineDoses struct {
	Line     int                        `json:"line"`
	Strength *catalogue.Strength        `json:"strength"`
	Rows     []catalogue.PaediatricDose `json:"rows"`
}

// child is what the dose check knows of the patient.
type child struct {
	known    bool // a patient with a birth date
	birth    time.Time
	today    time.Time
	weight   *appointment.Weight
	maxDays  int
	ageMonth int
	adult    bool
}

func (c child) weightDays() int {
	if c.weight == nil {
		return 0
	}
	on, err := time.Parse(time.DateOnly, c.weight.On)
	if err != nil {
		return 0
	}
	return daysBetween(on, c.today)
}

func (c child) stale() bool { return c.weight != nil && c.weightDays() > c.maxDays }

// readChild reads the patient's birth date and latest weight (patientID 0: none).
func (s *Store) readChild(ctx context.Context, q database.Querier, patientID int64) (child, error) {
	today := civil(s.now(), s.Loc)
	// How old a weight may be: the clinic's children's-care setting (weight_max_age_days).
	maxDays, err := immunisation.WeightMaxAgeDays(ctx, q)
	if err != nil {
		return child{}, err
	}
	c := child{today: today, maxDays: maxDays}
	if patientID == 0 {
		return c, nil
	}
	people, err := patient.Summaries(ctx, q, []int64{patientID})
	if err != nil {
		return c, err
	}
	if b, err := time.Parse(time.DateOnly, people[patientID].BirthDate); err == nil {
		c.known, c.birth = true, b
		c.ageMonth = monthsBetween(b, today)
		c.adult = c.ageMonth >= adultYears*12
	}
	if c.weight, err = appointment.LatestWeight(ctx, q, patientID, today.Format(time.DateOnly)); err != nil {
		return c, err
	}
	return c, nil
}

// monthsBetween counts whole calendar months from a to b.
func monthsBetween(a, b time.Time) int {
	m := (b.Year()-a.Year())*12 + int(b.Month()-a.Month())
	if b.Day() < a.Day() {
		m--
	}
	return max(m, 0)
}

// facts is the patient's latest weight as the editor shows it (nil: none recorded).
func (c child) facts() *WeightFacts {
	if c.weight == nil {
		return nil
	}
	return &WeightFacts{Kg: c.weight.Kg, On: c.weight.On, AgeDays: c.weightDays(), Stale: c.stale(), MaxAgeDays: c.maxDays}
}

// doseRows are the table's rows for a line: of its medicine's ingredients (the catalogue
// entry's, or those the line's words name), of its indication when it names one.
func doseRows(it Item, l lineDrugs, m *catalogue.Medicine) []catalogue.PaediatricDose {
	ingredients := strings.Join(l.Substances, " + ")
	if m != nil && m.Ingredients != "" {
		ingredients = m.Ingredients
	}
	if ingredients == "" {
		return nil
	}
	rows := catalogue.DosesFor(ingredients)
	if it.ByWeight != nil && it.ByWeight.Indication != "" {
		var named []catalogue.PaediatricDose
		for _, r := range rows {
			if r.Indication == it.ByWeight.Indication {
				named = append(named, r)
			}
		}
		if len(named) > 0 {
			return named
		}
	}
	return rows
}

// limits are the most permissive of a line's rows (no finding for a dose some row allows).
type limits struct {
	maxDose, maxDay, minWeight float64
	minMonths, perDay          int
}

func limitsOf(rows []catalogue.PaediatricDose, weight float64) limits {
	var l limits
	for i, r := range rows {
		if i == 0 {
			l = limits{maxDose: r.MaxDose(weight), maxDay: r.MaxDay(weight), minWeight: r.MinWeightKg, minMonths: r.MinAgeMonths, perDay: r.DosesPerDay}
			continue
		}
		l.maxDose, l.maxDay, l.perDay = max(l.maxDose, r.MaxDose(weight)), max(l.maxDay, r.MaxDay(weight)), max(l.perDay, r.DosesPerDay)
		l.minWeight, l.minMonths = min(l.minWeight, r.MinWeightKg), min(l.minMonths, r.MinAgeMonths)
	}
	return l
}

// weightFindings checks each line's dose against the dose table for the child: the dose as
// it prints and the frequency as written, whatever a dose by weight's numbers say.
func weightFindings(c child, items []Item, lines []lineDrugs, r *reader) []Finding {
	var out []Finding
	if !c.known {
		return out
	}
	for i, it := range items {
		if i >= len(lines) {
			break
		}
		var med *catalogue.Medicine
		if it.MedicineID != nil {
			if m, ok := r.cache[*it.MedicineID]; ok && m.ID != 0 {
				med = &m
			}
		}
		byWeight := it.ByWeight != nil && it.ByWeight.MgPerKg > 0
		rows := doseRows(it, lines[i], med)
		if !byWeight && (c.adult || len(rows) == 0) {
			continue
		}
		add := func(kind, key string, f DoseFacts) {
			out = append(out, Finding{Line: i, Kind: kind, Key: key, Tier: catalogue.TierHigh, RequiresReason: true, Dosing: &f})
		}
		// A child's line of a medicine the table has rows for, or one dosed by weight, needs a
		// weight measured lately.
		switch {
		case c.weight == nil:
			add(FindWeightMissing, "weight:missing", DoseFacts{LimitDays: c.maxDays})
		case c.stale():
			add(FindWeightStale, "weight:stale:"+c.weight.On, DoseFacts{WeightKg: c.weight.Kg, WeightOn: c.weight.On, WeightDays: c.weightDays(), LimitDays: c.maxDays})
		}
		if len(rows) == 0 || c.adult {
			continue
		}
		// The weight the most for the weight is read from: one measured lately, or the one a
		// dose by weight was worked from (said stale above). Without one (or with a plain dose
		// and a weight too old) only the table's most a dose and a day of any weight hold.
		written := strings.TrimSpace(it.Dose)
		perKg, isPerKg := dosePerKgOf(written)
		var weight float64
		if c.weight != nil && (!c.stale() || byWeight || isPerKg) {
			weight = c.weight.Kg
		}
		lim := limitsOf(rows, weight)
		source := rows[0].Source
		if c.ageMonth < lim.minMonths {
			add(FindDoseUnderAge, fmt.Sprintf("dose:age:%d", lim.minMonths), DoseFacts{AgeMonths: c.ageMonth, MinMonths: lim.minMonths})
			out[len(out)-1].Source = source
		}
		if c.weight != nil && c.weight.Kg < lim.minWeight {
			add(FindDoseUnderWeight, "dose:weight:"+num(lim.minWeight), DoseFacts{WeightKg: c.weight.Kg, WeightOn: c.weight.On, MinWeightKg: lim.minWeight})
			out[len(out)-1].Source = source
		}
		if written == "" {
			continue // nothing written yet
		}
		dose, readable := doseMg(written, it, med)
		if isPerKg {
			// "15 mg/kg": in mg for the latest weight (the one it is worked from, said stale
			// above); without a weight it cannot be told (said missing above).
			if c.weight == nil {
				continue
			}
			dose, readable = perKg*c.weight.Kg, true
		}
		if !readable {
			add(FindDoseUnreadable, "dose:unreadable:"+textsearch.Fold(written), DoseFacts{})
			out[len(out)-1].Source = source
			continue
		}
		perDay := dosesPerDay(it.Frequency)
		if perDay == 0 {
			perDay = lim.perDay
			if it.ByWeight != nil && it.ByWeight.DosesPerDay > 0 {
				perDay = it.ByWeight.DosesPerDay
			}
		}
		// The box's numbers are not what prints: the dose or the doses a day differ.
		if b := it.ByWeight; b != nil && ((b.DoseMg > 0 && math.Abs(dose-b.DoseMg) > max(b.DoseMg*mismatchShare, mismatchMg)) ||
			(b.DosesPerDay > 0 && dosesPerDay(it.Frequency) > 0 && b.DosesPerDay != perDay)) {
			add(FindDoseMismatch, "dose:mismatch:"+num(round1(dose))+":"+num(round1(b.DoseMg))+":"+strconv.Itoa(perDay)+":"+strconv.Itoa(b.DosesPerDay),
				DoseFacts{DoseMg: round1(dose), BoxDoseMg: round1(b.DoseMg), DosesPerDay: perDay, BoxDosesPerDay: b.DosesPerDay})
		}
		facts := DoseFacts{DoseMg: round1(dose), WeightKg: weight, MaxDoseMg: round1(lim.maxDose), MaxDayMg: round1(lim.maxDay), DayMg: round1(dose * float64(perDay))}
		if weight > 0 {
			facts.WeightOn = c.weight.On
		}
		if byWeight {
			facts.MgPerKg = it.ByWeight.MgPerKg
		}
		if len(rows) == 1 {
			facts.Indication = rows[0].Indication
		}
		switch {
		case lim.maxDose > 0 && dose > lim.maxDose*doseTolerance:
			add(FindDoseAboveMax, "dose:max:"+num(facts.DoseMg)+":"+num(weight), facts)
			out[len(out)-1].Source = source
		case lim.maxDay > 0 && dose*float64(perDay) > lim.maxDay*doseTolerance:
			add(FindDoseAboveDaily, "dose:day:"+num(facts.DayMg)+":"+num(weight), facts)
			out[len(out)-1].Source = source
		}
	}
	return out
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// doseAmount reads a dose as written: "180 mg", «7,5 мл», "5 mL", "0.5 g", "180毫克".
var doseAmount = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*(mg|мг|毫克|ml|мл|毫升|g|г|克)(?:\P{L}|$)`)

// dosePerKg reads a dose written per kg: "15 mg/kg", «15 мг/кг», "15 mg/kg（最多1000 mg）".
var dosePerKg = regexp.MustCompile(`^\s*(\d+(?:[.,]\d+)?)\s*(?:mg|мг|毫克)\s*/\s*(?:kg|кг|公斤|千克)`)

// dosePerKgOf is a dose's mg per kg when it is written so.
func dosePerKgOf(written string) (float64, bool) {
	m := dosePerKg.FindStringSubmatch(textsearch.Fold(written))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
	return n, err == nil && n > 0
}

// doseCount reads a dose written as a count of tablets or capsules, in the four languages
// (folded): "2 tablets", "1/2 tablet", "½ tab", "1 ½ tablets", «2 таб.», «1 капсула», "2片",
// "1粒", "1 viên"; a range ("1-2 tablets") reads as its most.
var doseCount = regexp.MustCompile(`^\s*(?:(\d+(?:[.,]\d+)?)\s*(?:-|–|to|до)\s*)?(\d+(?:[.,]\d+)?\s*(?:½|¼|¾)?|\d+\s*/\s*\d+|½|¼|¾)\s*` +
	`(?:tablets?|tabs?\b|caps(?:ules?)?\b|таблет\p{L}*|таб(?:\P{L}|$)|капсул\p{L}*|капс(?:\P{L}|$)|片|粒|vien\b)`)

// countOf reads a count as "2", "2.5", "1/2", "½" or "1 ½".
func countOf(s string) float64 {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", ".")
	if a, b, ok := strings.Cut(s, "/"); ok {
		x, _ := strconv.ParseFloat(strings.TrimSpace(a), 64)
		y, _ := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if y == 0 {
			return 0
		}
		return x / y
	}
	var n float64
	for frac, v := range map[string]float64{"½": 0.5, "¼": 0.25, "¾": 0.75} {
		if rest, ok := strings.CutSuffix(s, frac); ok {
			s, n = strings.TrimSpace(rest), v
		}
	}
	if s == "" {
		return n
	}
	whole, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return whole + n
}

// strengthOf is a line's strength: its catalogue entry's, else one written in the medicine's
// name as typed ("Paracetamol syrup 120 mg/5 mL").
func strengthOf(it Item, med *catalogue.Medicine) (catalogue.Strength, bool) {
	if med != nil {
		if st, ok := catalogue.ReadStrength(med.Strength); ok {
			return st, true
		}
	}
	return catalogue.FindStrength(it.Medicine)
}

// doseMg is a dose as written in mg: in mg, in g, in mL of a liquid of known strength, or a
// count of tablets or capsules of known strength; false when it cannot be told.
func doseMg(written string, it Item, med *catalogue.Medicine) (float64, bool) {
	folded := textsearch.Fold(written)
	st, known := strengthOf(it, med)
	if m := doseCount.FindStringSubmatch(folded); m != nil {
		n := countOf(m[2])
		if !known || st.PerML != 0 || n <= 0 {
			return 0, false
		}
		return n * st.Mg, true
	}
	m := doseAmount.FindStringSubmatch(folded)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	switch m[2] {
	case "mg", "мг", "毫克":
		return n, true
	case "g", "г", "克":
		return n * 1000, true
	}
	if !known || st.PerML == 0 {
		return 0, false
	}
	return n * st.Mg / st.PerML, true
}

// dosesPerDay is how many doses a day a line's frequency says (as the supply reads it,
// supply.go); 0 when it cannot be told.
func dosesPerDay(frequency string) int {
	return int(math.Ceil(timesADay(textsearch.Fold(frequency))))
}

// checkByWeight checks a line's dose by weight as sent.
func checkByWeight(b *ByWeight, field func(string) string, v *apperr.Validation) {
	if b == nil {
		return
	}
	b.Indication = strings.TrimSpace(b.Indication)
	if math.IsNaN(b.MgPerKg) || b.MgPerKg <= 0 || b.MgPerKg > maxMgPerKg {
		v.Add(field("by_weight.mg_per_kg"), "prescription.by_weight.mg_per_kg")
	}
	if math.IsNaN(b.DoseMg) || b.DoseMg < 0 || b.DoseMg > maxDoseMg {
		v.Add(field("by_weight.dose_mg"), "prescription.by_weight.dose_mg")
	}
	if b.DosesPerDay < 0 || b.DosesPerDay > maxDosesPerDay {
		v.Add(field("by_weight.doses_per_day"), "prescription.by_weight.doses_per_day")
	}
	if len(b.Indication) > weightIndicationLimit {
		v.Add(field("by_weight.indication"), "validation.too_long")
	}
}

// stampWeights sets on each line dosed by weight the weight the server knows it by (the
// patient's latest) and, when the editor sent none, the dose it makes; a line on a blank pad
// (no patient) keeps none.
func stampWeights(c child, items []Item) {
	for i := range items {
		b := items[i].ByWeight
		if b == nil {
			continue
		}
		b.WeightKg, b.WeightOn = 0, ""
		if c.weight != nil {
			b.WeightKg, b.WeightOn = c.weight.Kg, c.weight.On
			if b.DoseMg == 0 {
				b.DoseMg = round1(b.MgPerKg * c.weight.Kg)
			}
		}
	}
}

// dosing is what the editor needs to dose the lines by weight: the patient's latest weight
// and each line's rows of the dose table.
func (s *Store) dosing(ctx context.Context, patientID int64, items []Item) (*WeightFacts, []LineDoses, error) {
	drugs, err := catalogue.DrugsFor(ctx, s.DB, s.DB)
	if err != nil {
		return nil, nil, err
	}
	r := &reader{ctx: ctx, q: s.DB, drugs: drugs, cache: map[int64]catalogue.Medicine{}}
	lines, err := r.lines(items)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.readChild(ctx, s.DB, patientID)
	if err != nil {
		return nil, nil, err
	}
	return c.facts(), doseTables(c, items, lines, r), nil
}

// doseTables are the dose table's rows for each line that has some, for the editor: none for
// an adult's line (an adult's dose is not worked out by weight) unless it is dosed so already.
func doseTables(c child, items []Item, lines []lineDrugs, r *reader) []LineDoses {
	out := []LineDoses{}
	for i, it := range items {
		if i >= len(lines) {
			break
		}
		if c.adult && it.ByWeight == nil {
			continue
		}
		var med *catalogue.Medicine
		if it.MedicineID != nil {
			if m, ok := r.cache[*it.MedicineID]; ok && m.ID != 0 {
				med = &m
			}
		}
		rows := doseRows(Item{}, lines[i], med)
		if len(rows) == 0 {
			continue
		}
		ld := LineDoses{Line: i, Rows: rows}
		if st, ok := strengthOf(it, med); ok {
			ld.Strength = &st
		}
		out = append(out, ld)
	}
	return out
}
