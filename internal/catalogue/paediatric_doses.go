package catalogue

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Doses by weight (issue 59, item 6): for the common children's medicines of the starter
// catalogue, the usual dose in mg per kg, how many doses a day, and the most a dose and a day
// may hold, with the youngest age and the lightest weight the row is for. Each row cites its
// source, and says whether its numbers were checked against that text (yes, partly, no): a
// clinic's medical lead confirms them before relying on them (docs/knowledge.md).

//go:embed paediatric_doses.tsv
var paediatricDosesTSV []byte

// PaediatricDose is one row of the table: a medicine (by its active ingredients) for one
// indication. Doses are in mg of the first ingredient (amoxicillin for co-amoxiclav). A limit
// of 0 is none.
type PaediatricDose struct {
	// Ingredients as the catalogue writes them: "amoxicillin + clavulanic acid".
	Ingredients string `json:"ingredients"`
	// Indication is a key the interface names: pain_fever, infection, pneumonia, asthma.
	Indication string `json:"indication"`
	// MinAgeMonths is the youngest age (calendar months) the row is for; MinWeightKg the
	// lightest weight; MaxWeightKg the weight from which adult doses apply.
	MinAgeMonths int     `json:"min_age_months"`
	MinWeightKg  float64 `json:"min_weight_kg"`
	MaxWeightKg  float64 `json:"max_weight_kg"`
	// MgPerKg is the usual dose; MaxMgPerKgDose the most a dose may hold for the weight.
	MgPerKg        float64 `json:"mg_per_kg"`
	MaxMgPerKgDose float64 `json:"max_mg_per_kg_dose"`
	// DosesPerDay is how many doses a day at most.
	DosesPerDay int `json:"doses_per_day"`
	// MaxDoseMg and MaxDayMg cap a dose and a day whatever the weight; MaxDayMgPerKg is the
	// daily most for the weight.
	MaxDoseMg     float64 `json:"max_dose_mg"`
	MaxDayMgPerKg float64 `json:"max_day_mg_per_kg"`
	MaxDayMg      float64 `json:"max_day_mg"`
	// Confirmed says whether the numbers were checked against the source: yes, partly, no.
	Confirmed string `json:"confirmed"`
	Source    string `json:"source"`
}

// MaxDose is the most one dose may hold for a child of weight kg (0 when the row has no limit).
func (d PaediatricDose) MaxDose(weight float64) float64 {
	return lowest(d.MaxMgPerKgDose*weight, d.MaxDoseMg)
}

// MaxDay is the most a day may hold for a child of weight kg (0 when the row has no limit).
func (d PaediatricDose) MaxDay(weight float64) float64 {
	return lowest(d.MaxDayMgPerKg*weight, d.MaxDayMg)
}

// lowest is the smaller of the limits that are set (above 0), or 0.
func lowest(a, b float64) float64 {
	switch {
	case a <= 0:
		return max(b, 0)
	case b <= 0:
		return a
	}
	return min(a, b)
}

// PaediatricDoses is the shipped table.
var PaediatricDoses = mustPaediatricDoses()

func mustPaediatricDoses() []PaediatricDose {
	rows, err := readPaediatricDoses(paediatricDosesTSV)
	if err != nil {
		panic(err)
	}
	return rows
}

func readPaediatricDoses(data []byte) ([]PaediatricDose, error) {
	recs, err := readTSV(data, 13)
	if err != nil {
		return nil, err
	}
	out := make([]PaediatricDose, 0, len(recs))
	for i, r := range recs {
		var d PaediatricDose
		var bad error
		num := func(s string) float64 {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || f < 0 {
				bad = fmt.Errorf("paediatric_doses.tsv row %d: %q is not a number", i+2, s)
			}
			return f
		}
		d.Ingredients, d.Indication = strings.Join(Ingredients(strings.ToLower(r[0])), " + "), r[1]
		d.MinAgeMonths = int(num(r[2]))
		d.MinWeightKg, d.MaxWeightKg, d.MgPerKg, d.MaxMgPerKgDose = num(r[3]), num(r[4]), num(r[5]), num(r[6])
		d.DosesPerDay = int(num(r[7]))
		d.MaxDoseMg, d.MaxDayMgPerKg, d.MaxDayMg = num(r[8]), num(r[9]), num(r[10])
		d.Confirmed, d.Source = r[11], r[12]
		if bad != nil {
			return nil, bad
		}
		if d.Ingredients == "" || d.Indication == "" || d.MgPerKg <= 0 || d.DosesPerDay < 1 || d.Source == "" ||
			!slices.Contains([]string{"yes", "partly", "no"}, d.Confirmed) {
			return nil, fmt.Errorf("paediatric_doses.tsv row %d is incomplete", i+2)
		}
		out = append(out, d)
	}
	return out, nil
}

// IngredientsKey writes a set of active ingredients one way, whatever their order, case or
// separators: "Clavulanic acid/Amoxicillin" and "amoxicillin + clavulanic acid" alike.
func IngredientsKey(s string) string {
	parts := Ingredients(strings.ToLower(s))
	slices.Sort(parts)
	return strings.Join(parts, " + ")
}

// DosesFor are the table's rows for a medicine of these ingredients ("amoxicillin +
// clavulanic acid", in any order), none when it has none.
func DosesFor(ingredients string) []PaediatricDose {
	key := IngredientsKey(ingredients)
	var out []PaediatricDose
	for _, d := range PaediatricDoses {
		if IngredientsKey(d.Ingredients) == key {
			out = append(out, d)
		}
	}
	return out
}

// strengthPattern reads a strength's first amount and, for a liquid, its volume:
// "120 mg/5 mL", "400 mg + 57 mg/5 mL", "500 mg", "1 g", "100 mcg/dose".
var strengthPattern = regexp.MustCompile(`^\s*(\d+(?:[.,]\d+)?)\s*(mg|g|mcg)\b(?:.*?/\s*(\d+(?:[.,]\d+)?)?\s*(mL|ml)\b)?`)

// strengthInText finds a strength written inside a medicine's name as typed (a line not from
// the catalogue): "Paracetamol syrup 120 mg/5 mL", "Амоксициллин 250 мг/5 мл", "扑热息痛 120毫克/5毫升".
var strengthInText = regexp.MustCompile(`(?i)(\d+(?:[.,]\d+)?)\s*(mg|g|mcg|мг|г|мкг|毫克|克|微克)(?:(?:[^/\p{L}][^/]{0,12}?)?/\s*(\d+(?:[.,]\d+)?)?\s*(ml|мл|毫升)(?:[^\p{L}]|$)|[^/\p{L}]|$)`)

// massAmount is an amount of mass; combined is what stands between a combination's two amounts
// when written "400 mg + 57 mg"; fraction is an amount written "250/62.5" (no unit between).
var (
	massAmount = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|мг|г|мкг|毫克|克|微克)(?:[^\p{L}]|$)`)
	combined   = regexp.MustCompile(`^\s*\+\s*$`)
	fraction   = regexp.MustCompile(`\d(?:[.,]\d+)?\s*/\s*\d`)
)

// FindStrength reads the first strength written anywhere in text (a medicine's name as typed),
// as ReadStrength reads a catalogue entry's: the prescription's dose check reads a liquid's
// strength from a line typed by hand (pharmacist's review, issue 59).
func FindStrength(text string) (Strength, bool) {
	m := strengthInText.FindStringSubmatch(text)
	if m == nil {
		return Strength{}, false
	}
	// A name with two amounts is a combination whose doses are counted in its first
	// ingredient ("400 mg + 57 mg/5 mL": amoxicillin). Written any other way ("250/62.5 mg/5 mL",
	// "500mg/125mg") which amount is which cannot be told safely: not read (a dose then cannot
	// be checked, and says so), rather than read as the second ingredient's (the clinical
	// re-read: a co-amoxiclav dose read through its clavulanate was four times too much).
	amounts := massAmount.FindAllStringIndex(text, -1)
	if len(amounts) > 1 && !combined.MatchString(text[amounts[0][1]:amounts[1][0]]) || fraction.MatchString(text) {
		return Strength{}, false
	}
	return strengthOf(m)
}

// Strength is a medicine's amount of its first ingredient: Mg in each unit (a tablet) or in
// PerML millilitres of a liquid (PerML 0 for a solid).
type Strength struct {
	Mg    float64 `json:"mg"`
	PerML float64 `json:"per_ml"`
}

// ReadStrength reads a catalogue strength; false when it names no amount in mg, g or mcg.
func ReadStrength(s string) (Strength, bool) {
	m := strengthPattern.FindStringSubmatch(s)
	if m == nil {
		return Strength{}, false
	}
	return strengthOf(m)
}

// strengthOf is the strength a match of strengthPattern or strengthInText holds: the amount
// (m[1]) in its unit (m[2], mg, g or mcg in any of the four languages) and, for a liquid (m[4]),
// the millilitres it is in (m[3], 1 when not written).
func strengthOf(m []string) (Strength, bool) {
	n, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
	if err != nil {
		return Strength{}, false
	}
	switch strings.ToLower(m[2]) {
	case "g", "г", "克":
		n *= 1000
	case "mcg", "мкг", "微克":
		n /= 1000
	}
	out := Strength{Mg: n}
	if m[4] != "" {
		out.PerML = 1
		if m[3] != "" {
			out.PerML, _ = strconv.ParseFloat(strings.Replace(m[3], ",", ".", 1), 64)
		}
	}
	return out, n > 0
}
