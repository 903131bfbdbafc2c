package result

import (
	"slices"
	"strings"

	"emr/internal/i18n"
)

// ruUnits are the UCUM units as Russian writes them on paper (the other languages write the
// international symbols).
var ruUnits = map[string]string{
	"mmol/L": "ммоль/л", "umol/L": "мкмоль/л", "pmol/L": "пмоль/л", "mmol/mol": "ммоль/моль", "g/L": "г/л", "g/dL": "г/дл",
	"mg/dL": "мг/дл", "mg/L": "мг/л", "ug/L": "мкг/л", "ng/mL": "нг/мл", "ng/dL": "нг/дл", "mm/h": "мм/ч", "10*9/L": "×10⁹/л",
	"10*12/L": "×10¹²/л", "10*3/uL": "×10³/мкл", "10*6/uL": "×10⁶/мкл", "L/L": "л/л", "fL": "фл", "pg": "пг", "s": "с",
	"U/L": "Ед/л", "m[IU]/L": "мМЕ/л", "mL/min/{1.73_m2}": "мл/мин/1,73 м²", "meq/L": "мэкв/л",
}

// symbols are the UCUM codes written as people write them.
var symbols = map[string]string{
	"umol/L": "µmol/L", "ug/L": "µg/L", "10*9/L": "×10⁹/L", "10*12/L": "×10¹²/L", "10*3/uL": "×10³/µL", "10*6/uL": "×10⁶/µL",
	"m[IU]/L": "mIU/L", "mL/min/{1.73_m2}": "mL/min/1.73 m²", "meq/L": "mEq/L", "mg/dL{BUN}": "mg/dL", "[pH]": "", "{INR}": "", "1": "",
}

// UnitIn writes a UCUM unit as lang writes it.
func UnitIn(lang, unit string) string {
	if lang == "ru" {
		if u, ok := ruUnits[unit]; ok {
			return u
		}
	}
	if u, ok := symbols[unit]; ok {
		return u
	}
	return unit
}

// decimalIn writes decimal text in lang's notation.
func decimalIn(lang, s string) string {
	if lang == "ru" || lang == "vi" {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// paren puts s in brackets after what precedes it, as lang writes them: full-width in Chinese.
func paren(lang, s string) string {
	if lang == "zh" {
		return "（" + s + "）"
	}
	return " (" + s + ")"
}

// comparatorSign is a censored value's comparator as printed before the number.
var comparatorSign = map[string]string{"<": "< ", "<=": "≤ ", ">": "> ", ">=": "≥ "}

func quantityIn(lang, value, unit string) string {
	if u := UnitIn(lang, unit); u != "" {
		return decimalIn(lang, value) + " " + u
	}
	return decimalIn(lang, value)
}

// Line is a result as a printed line in lang: "Potassium: 6.8 mmol/L — critical high
// (reference 3.5–5.1 mmol/L)"; a report's text after its name.
func (r Result) Line(lang string) string {
	var b strings.Builder
	b.WriteString(r.Label)
	b.WriteString(i18n.T(lang, "result.print.colon"))
	switch r.Type {
	case "numeric":
		if r.Value != nil {
			b.WriteString(comparatorSign[r.Comparator] + quantityIn(lang, *r.Value, r.Unit))
			if r.EnteredUnit != "" && r.EnteredUnit != r.Unit {
				b.WriteString(paren(lang, quantityIn(lang, r.Entered, r.EnteredUnit)))
			}
		}
	case "coded":
		b.WriteString(i18n.T(lang, "result.answer."+r.Answer))
	default:
		b.WriteString(strings.Join(strings.Fields(r.Text), " "))
	}
	if r.Flag != "" && r.Flag != "N" {
		b.WriteString(" — " + i18n.T(lang, "result.flag."+r.Flag))
	}
	if r.Delta != "" {
		b.WriteString(", " + i18n.T(lang, "result.delta."+r.Delta))
	}
	rng := r.rangeIn(lang)
	switch {
	case rng != "" && r.Range.Note != "":
		b.WriteString(paren(lang, i18n.T(lang, "result.print.reference", rng)+"; "+i18n.T(lang, "result.print.note."+r.Range.Note)))
	case rng != "":
		b.WriteString(paren(lang, i18n.T(lang, "result.print.reference", rng)))
	case r.Type == "numeric" && r.Range.Note != "":
		// A number no reference interval judged says so: never blank, as if normal.
		b.WriteString(paren(lang, i18n.T(lang, "result.print.note."+r.Range.Note)))
	}
	if r.Status == Preliminary {
		b.WriteString(" — " + i18n.T(lang, "result.print.preliminary"))
	}
	return b.String()
}

func (r Result) rangeIn(lang string) string {
	low, high := r.Range.Low, r.Range.High
	switch {
	case low != nil && high != nil:
		return strings.TrimSpace(decimalIn(lang, *low) + "–" + quantityIn(lang, *high, r.Unit))
	case low != nil:
		return "≥ " + quantityIn(lang, *low, r.Unit)
	case high != nil:
		return "≤ " + quantityIn(lang, *high, r.Unit)
	}
	return ""
}

// Lines are a visit's results as printed lines in lang, test by test: a panel's name first,
// then its results (a single test's result names itself).
func Lines(orders []Order, lang string) []string {
	out := []string{}
	for _, o := range orders {
		if len(o.Results) == 0 {
			continue
		}
		if len(o.Results) > 1 {
			out = append(out, o.TestLabel+strings.TrimRight(i18n.T(lang, "result.print.colon"), " "))
		}
		var performers []string
		for _, r := range o.Results {
			out = append(out, r.Line(lang))
			if r.Performer != "" && !slices.Contains(performers, r.Performer) {
				performers = append(performers, r.Performer)
			}
		}
		// Results an external laboratory performed say which (the clinic's own need not).
		if len(performers) > 0 {
			out = append(out, i18n.T(lang, "result.print.performer", strings.Join(performers, "; ")))
		}
	}
	return out
}
