package catalogue

import (
	"slices"
	"testing"
)

func TestAllergensAreReadInEveryLanguage(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct {
		text      string
		class     string
		substance string
	}{
		{"Penicillin", "penicillins", ""},
		{"penicillins (rash)", "penicillins", ""},
		{"Аллергия к пенициллину", "penicillins", ""},
		{"青霉素过敏", "penicillins", ""},
		{"Penicilin", "penicillins", ""},
		{"Sulfonamides", "sulfonamides", ""},
		{"НПВС", "nsaids", ""},
		{"Iodine contrast", "iodinated_contrast", ""},
		{"Aspirin", "", "acetylsalicylic acid"},
		{"Amoxicillin", "", "amoxicillin"},
		{"阿莫西林", "", "amoxicillin"},
		{"Peanuts", "", "peanuts"},
	} {
		a := d.Allergen(c.text)
		if c.class != "" && !slices.Contains(a.Classes, c.class) || c.class == "" && len(a.Classes) > 0 || a.Substance != c.substance {
			t.Errorf("%q: %+v, want class %q substance %q", c.text, a, c.class, c.substance)
		}
	}
	if a := d.Allergen("Aspirin"); !slices.Contains(a.SubstanceClasses, "nsaids") {
		t.Errorf("aspirin is not among the NSAIDs: %+v", a)
	}
}

func TestLinesAreProfiledByCatalogueAndText(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct {
		text        string
		ingredients string
		atc         string
		substance   string
		class       string
	}{
		{"Amoxicillin + clavulanic acid 875 mg + 125 mg tablet", "amoxicillin + clavulanic acid", "J01CR02", "amoxicillin", "penicillins"},
		{"Augmentin 625", "amoxicillin; clavulanic acid", "", "amoxicillin", "penicillins"},
		{"Ampicillin 500 mg", "", "", "ampicillin", "penicillins"},
		{"Амоксициллина 500 мг", "", "", "amoxicillin", "penicillins"},
		{"阿莫西林胶囊 0.5g", "", "", "amoxicillin", "penicillins"},
		{"Amoxicilin 500mg", "", "", "amoxicillin", "penicillins"},
		{"Co-amoxiclav 625 mg", "", "", "amoxicillin", "penicillins"},
		{"Cefalexin 500 mg", "", "", "cefalexin", "cephalosporins"},
		{"头孢克肟", "", "", "cefixime", "cephalosporins"},
		{"Bactrim forte", "trimethoprim + sulfamethoxazole", "J01EE01", "sulfamethoxazole", "sulfonamides"},
		{"Diclofenac 50 mg", "", "", "diclofenac", "nsaids"},
	} {
		p := d.Line(c.text, Ingredients(c.ingredients), c.atc)
		if !slices.Contains(p.Substances, c.substance) || !slices.Contains(p.Classes, c.class) {
			t.Errorf("%q: %+v, want %s in %s", c.text, p, c.substance, c.class)
		}
	}
	// Words that merely begin like a class's name are not that class.
	if p := d.Line("Ferrous sulfate 200 mg", []string{"ferrous sulfate"}, "B03AA07"); len(p.Classes) > 0 {
		t.Errorf("ferrous sulfate classed as %v", p.Classes)
	}
	if p := d.Line("Paracetamol 500 mg", nil, ""); len(p.Classes) > 0 || !slices.Equal(p.Substances, []string{"paracetamol"}) {
		t.Errorf("paracetamol: %+v", p)
	}
}

func TestStarterMedicinesAreClassified(t *testing.T) {
	rows, bad, err := parseMedicines(medicinesStarter)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	for _, m := range rows {
		if m.Ingredients == "" || !ATCPattern.MatchString(m.ATC) {
			t.Errorf("%s %s: ingredients %q, ATC %q", m.GenericName, m.Strength, m.Ingredients, m.ATC)
		}
	}
}
