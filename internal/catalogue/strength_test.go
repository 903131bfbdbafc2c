package catalogue

import "testing"

// TestStrengthInTheReadersUnits: a medicine's label writes its strength's units and decimals
// as the reader does (Russian in Cyrillic: 400 мг, 3,3 г/5 мл, 1000 МЕ), the catalogue's own
// strength unchanged; a unit the list does not know stays as the clinic wrote it.
func TestStrengthInTheReadersUnits(t *testing.T) {
	for _, c := range []struct{ strength, form, lang, want string }{
		{"400 mg", "tablet", "ru", "Ибупрофен 400 мг таблетки"},
		{"3.3 g/5 mL", "syrup", "ru", "Ибупрофен 3,3 г/5 мл сироп"},
		{"200 mcg/dose", "inhaler", "ru", "Ибупрофен 200 мкг/доза ингалятор"},
		{"1000 IU", "capsule", "ru", "Ибупрофен 1000 МЕ капсулы"},
		{"875 mg + 125 mg", "tablet", "ru", "Ибупрофен 875 мг + 125 мг таблетки"},
		{"0.5%", "eye drops", "ru", "Ибупрофен 0,5% глазные капли"},
		{"5 mmol", "tablet", "ru", "Ибупрофен 5 mmol таблетки"},
		{"3.3 g/5 mL", "syrup", "en", "Ibuprofen 3.3 g/5 mL syrup"},
		{"3.3 g/5 mL", "syrup", "zh", "布洛芬 3.3 g/5 mL 糖浆"},
		{"3.3 g/5 mL", "syrup", "vi", "Ibuprofen 3,3 g/5 ml siro"},
	} {
		m := Medicine{GenericName: "Ibuprofen", NameRU: "Ибупрофен", NameZH: "布洛芬", Strength: c.strength, Form: c.form}
		m.Localise(c.lang)
		if m.Label != c.want || m.Strength != c.strength {
			t.Errorf("%s %s in %s: %q (stored %q), want %q", c.strength, c.form, c.lang, m.Label, m.Strength, c.want)
		}
	}
}
