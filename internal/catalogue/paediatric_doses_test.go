package catalogue

import (
	"slices"
	"testing"
)

// TestPaediatricDosesNameStarterMedicines: every medicine the table doses by weight is in the
// starter catalogue, in a liquid a child can take, and every row's limits hold its usual dose.
func TestPaediatricDosesNameStarterMedicines(t *testing.T) {
	starter, bad, err := parseMedicines(medicinesStarter)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	if len(PaediatricDoses) < 8 {
		t.Fatalf("%d rows", len(PaediatricDoses))
	}
	for _, d := range PaediatricDoses {
		liquid := slices.ContainsFunc(starter, func(m MedicineInput) bool {
			s, ok := ReadStrength(m.Strength)
			return IngredientsKey(m.Ingredients) == IngredientsKey(d.Ingredients) && ok && s.PerML > 0
		})
		if !liquid {
			t.Errorf("%s: no liquid of it in the starter catalogue", d.Ingredients)
		}
		if d.MaxMgPerKgDose < d.MgPerKg || (d.MaxDayMgPerKg > 0 && d.MaxDayMgPerKg < d.MgPerKg*float64(d.DosesPerDay)-1e-9) {
			t.Errorf("%s %s: limits below the usual dose: %+v", d.Ingredients, d.Indication, d)
		}
	}
}

func TestReadStrength(t *testing.T) {
	for _, c := range []struct {
		in    string
		mg    float64
		perML float64
		ok    bool
	}{
		{"120 mg/5 mL", 120, 5, true},
		{"400 mg + 57 mg/5 mL", 400, 5, true},
		{"500 mg", 500, 0, true},
		{"1 g", 1000, 0, true},
		{"4 mg/mL", 4, 1, true},
		{"3.3 g/5 mL", 3300, 5, true},
		{"1%", 0, 0, false},
		{"", 0, 0, false},
	} {
		s, ok := ReadStrength(c.in)
		if ok != c.ok || s.Mg != c.mg || s.PerML != c.perML {
			t.Errorf("%q: got %+v %v", c.in, s, ok)
		}
	}
}

func TestFindStrength(t *testing.T) {
	for _, c := range []struct {
		in    string
		mg    float64
		perML float64
		ok    bool
	}{
		{"Paracetamol syrup 120 mg/5 mL", 120, 5, true},
		{"Amoxicillin 250mg/5ml suspension", 250, 5, true},
		{"Co-amoxiclav 400 mg + 57 mg/5 mL", 400, 5, true},
		{"Ибупрофен суспензия 100 мг/5 мл", 100, 5, true},
		{"Парацетамол 500 мг таблетки", 500, 0, true},
		{"对乙酰氨基酚混悬液 160毫克/5毫升", 160, 5, true},
		{"Paracetamol drops 100 mg/mL", 100, 1, true},
		{"Prednisolone 5 mg tablets", 5, 0, true},
		{"Hapacol 250", 0, 0, false},
		// Two amounts written other than "A mg + B mg": which is the counted one cannot be told.
		{"Co-amoxiclav 250/62.5 mg/5 mL", 0, 0, false},
		{"Augmentin 500mg/125mg tablets", 0, 0, false},
		{"Amoxicillin/clavulanic acid 400mg/57mg per 5ml", 0, 0, false},
		{"Amoxicillin 500 mg, clavulanic acid 125 mg", 0, 0, false},
		{"Vitamin D3 1000 IU", 0, 0, false},
		{"Azithromycin 200 mg per 5 mL", 200, 0, true},
	} {
		s, ok := FindStrength(c.in)
		if ok != c.ok || s.Mg != c.mg || s.PerML != c.perML {
			t.Errorf("%q: got %+v %v, want %v %v %v", c.in, s, ok, c.mg, c.perML, c.ok)
		}
	}
}

func TestPaediatricDoseLimits(t *testing.T) {
	para := DosesFor("Paracetamol")
	if len(para) != 1 {
		t.Fatal(para)
	}
	// 12 kg: 15 mg/kg a dose = 180 mg, 60 mg/kg a day = 720 mg; 80 kg: capped at 1 g and 4 g.
	if got := para[0].MaxDose(12); got != 180 {
		t.Errorf("max dose 12 kg: %v", got)
	}
	if got := para[0].MaxDay(12); got != 720 {
		t.Errorf("max day 12 kg: %v", got)
	}
	if para[0].MaxDose(80) != 1000 || para[0].MaxDay(80) != 4000 {
		t.Errorf("80 kg: %v %v", para[0].MaxDose(80), para[0].MaxDay(80))
	}
	if len(DosesFor("clavulanic acid/Amoxicillin")) != 1 || len(DosesFor("Amoxicillin + Clavulanic acid")) != 1 || len(DosesFor("amoxicillin")) != 2 {
		t.Error("ingredients matched wrongly")
	}
}
