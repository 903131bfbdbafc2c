package catalogue

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestAllergiesAreReadWhole(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct {
		text       string
		classes    []string
		substances []string
		unknown    string
		vague      string
		negated    bool
	}{
		{text: "Penicillin", classes: []string{"penicillins"}},
		{text: "Аллергия к пенициллину", classes: []string{"penicillins"}},
		{text: "青霉素过敏", classes: []string{"penicillins"}},
		{text: "Augmentin", substances: []string{"amoxicillin", "clavulanic acid"}},
		{text: "Paracetamol, Amoxicillin", substances: []string{"paracetamol", "amoxicillin"}},
		{text: "Аспирин, пенициллин", classes: []string{"penicillins"}, substances: []string{"acetylsalicylic acid"}},
		{text: "阿莫西林、布洛芬过敏", substances: []string{"amoxicillin", "ibuprofen"}},
		{text: "Biseptol", substances: []string{"sulfamethoxazole", "trimethoprim"}},
		{text: "Sulfa drugs", classes: []string{"sulfonamides"}},
		{text: "Ferrous sulfate", substances: []string{"ferrous sulfate"}},
		{text: "Zyloprim (SJS)", substances: []string{"allopurinol"}},
		{text: "Nitroxoline hives", unknown: "nitroxoline"},
		{text: "呋喃唑酮过敏", unknown: "呋喃唑酮"},
		{text: "Seafood (iodine)"},
		{text: "碘过敏"},
		{text: "Latex"},
		{text: "Antibiotics", vague: "antibiotics_any"},
		{text: "thuốc giảm đau", vague: "analgesics_any"},
		{text: "penicillin — delabelled 2025", negated: true},
		{text: "аллергия на пенициллин не подтверждена", negated: true},
		{text: "否认青霉素过敏", negated: true},
	} {
		a := d.Allergen(c.text)
		var unknown []string
		for _, u := range a.Unknown {
			unknown = append(unknown, strings.Join(u, " "))
		}
		if !sameSet(a.Classes, c.classes) || !sameSet(a.Substances, c.substances) || strings.Join(unknown, ",") != c.unknown ||
			strings.Join(a.Vague, ",") != c.vague || a.Negated != c.negated {
			t.Errorf("%q: %+v", c.text, a)
		}
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func TestLinesAreProfiledByCatalogueTextBrandsAndStems(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct {
		text        string
		ingredients string
		atc         string
		substances  []string
		class       string
	}{
		{"Amoxicillin + clavulanic acid 875 mg + 125 mg tablet", "amoxicillin + clavulanic acid", "J01CR02", []string{"amoxicillin", "clavulanic acid"}, "penicillins"},
		{"Klamoxyl 625", "amoxicillin trihydrate; potassium clavulanate", "", []string{"amoxicillin", "clavulanic acid"}, "penicillins"},
		{"Амоксициллина 500 мг", "", "", []string{"amoxicillin"}, "penicillins"},
		{"Amoxiclav 625 mg", "", "", []string{"amoxicillin", "clavulanic acid"}, "penicillins"},
		{"头孢克肟", "", "", []string{"cefixime"}, "cephalosporins"},
		{"Cefoxitin 1 g", "", "", nil, "cephalosporins"},
		{"美洛西林钠", "", "", nil, "penicillins"},
		{"Цефекон Д 100 мг", "", "", []string{"paracetamol"}, "analgesics_any"},
		{"Neozep Forte", "", "", []string{"paracetamol", "phenylephrine", "chlorphenamine"}, "antihistamines"},
		{"维C银翘片", "", "", []string{"paracetamol", "chlorphenamine"}, "antihistamines"},
		{"Entresto 50 mg", "", "", []string{"sacubitril", "valsartan"}, "arbs"},
		{"Rabeprazole 20 mg", "", "", []string{"rabeprazole"}, "ppis"},
		{"Dexlansoprazole 30 mg", "", "", nil, "ppis"},
		{"Clonazepam 0.5 mg", "", "", []string{"clonazepam"}, "gaba_hypnotics"},
		{"胺碘酮 200mg", "", "", []string{"amiodarone"}, "qt_prolonging"},
	} {
		p := d.Line(c.text, Ingredients(c.ingredients), c.atc)
		if !slices.Contains(p.Classes, c.class) || c.substances != nil && !sameSet(p.Substances, c.substances) {
			t.Errorf("%q: %+v, want %v in %s", c.text, p, c.substances, c.class)
		}
	}
	for _, c := range []struct{ text, notClass string }{
		{"Ferrous sulfate 200 mg", "sulfonamides"},
		{"Glucosamine 1500 mg", "nsaids"},
		{"Glucosamine 1500 mg", "nsaids_any"},
		{"Nystatin 100000 IU", "statins"},
		{"Aripiprazole 10 mg", "ppis"},
		{"依普利酮片", "ace_inhibitors"},
		{"胺碘酮片", "iodinated_contrast"},
		{"Povidon iod 10%", "iodinated_contrast"},
		{"Celecoxib 200 mg", "nsaids"},
		{"Paracetamol 500 mg", "nsaids"},
	} {
		if p := d.Line(c.text, nil, ""); slices.Contains(p.Classes, c.notClass) {
			t.Errorf("%q classed as %s: %+v", c.text, c.notClass, p)
		}
	}
}

// TestKnowledgeIsComplete: every substance and class is named in the four languages, and no
// Chinese name of one substance hides inside another's unless the longer one is known (the
// longest name wins, so a known longer name is safe).
func TestKnowledgeIsComplete(t *testing.T) {
	d := KnownDrugs
	if len(d.Substances) < 240 || d.Aliases < 60 || len(d.Interactions) < 30 {
		t.Errorf("knowledge shrank: %d substances, %d aliases, %d interactions", len(d.Substances), d.Aliases, len(d.Interactions))
	}
	for _, s := range d.Substances {
		if s.Names.EN == "" || s.Names.RU == "" || s.Names.ZH == "" || s.Names.VI == "" {
			t.Errorf("substance %s lacks a name: %+v", s.Key, s.Names)
		}
		for _, code := range s.ATC {
			if !ATCPattern.MatchString(code) {
				t.Errorf("substance %s: ATC %q", s.Key, code)
			}
		}
		// Each substance reads as itself in every language.
		for _, n := range []string{s.Names.EN, s.Names.RU, s.Names.ZH, s.Names.VI} {
			if p := d.Line(n, nil, ""); !slices.Contains(p.Substances, s.Key) {
				t.Errorf("%q does not read as %s: %v", n, s.Key, p.Substances)
			}
		}
	}
	for _, c := range d.Classes {
		if c.Names.EN == "" || c.Names.RU == "" || c.Names.ZH == "" || c.Names.VI == "" {
			t.Errorf("class %s lacks a name", c.Key)
		}
	}
	for _, in := range d.Interactions {
		if in.Source == "" || in.Mechanism == "" {
			t.Errorf("interaction %s without its source or mechanism", in.Key)
		}
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
		if p := KnownDrugs.Line(m.GenericName, Ingredients(m.Ingredients), m.ATC); len(p.Substances) == 0 || slices.ContainsFunc(p.Substances, func(s string) bool { return KnownDrugs.Substance(s) == nil }) {
			t.Errorf("%s: ingredients %q not all known: %v", m.GenericName, m.Ingredients, p.Substances)
		}
		if strings.EqualFold(m.GenericName, "ranitidine") {
			t.Errorf("ranitidine is withdrawn (NDMA, 2020) and must not be offered")
		}
	}
}

func BenchmarkReadLine(b *testing.B) {
	for b.Loop() {
		KnownDrugs.Line("Amoxicillin + clavulanic acid 875 mg + 125 mg tablet, 2 times a day", []string{"amoxicillin", "clavulanic acid"}, "J01CR02")
	}
}

// A shipped rule's source is what a pharmacist can look up (a paper, a label, a guideline),
// never the project's own review notes, which staff read on every warning (the clinic
// manager's run, 2026-11-29: "… review of the current-medicines list 2026-11-29 (m10)").
func TestInteractionSourcesCiteWhatCanBeLookedUp(t *testing.T) {
	ticket := regexp.MustCompile(`\((?:[CMm]\d+|major \d+|minor \d+)\)|review of the|issue \d+`)
	for _, in := range KnownDrugs.Interactions {
		for _, text := range []string{in.Source, in.Mechanism} {
			if ticket.MatchString(text) {
				t.Errorf("%s cites a review note: %q", in.Key, text)
			}
		}
	}
}

// TestSharedOrder: what two medicines share does not hang on which is written first (m8 of
// the pharmacist's review of 2026-11-29), nor on the order of a product's ingredients.
func TestSharedOrder(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct{ a, b, kind, key string }{
		{"Co-amoxiclav 625 mg", "Clavulanic acid + amoxicillin", "substance", "amoxicillin"},
		{"Berodual", "Ipratropium + fenoterol", "substance", "fenoterol"},
		{"Ibuprofen 400 mg", "Diclofenac 50 mg", "class", ""},
	} {
		a, b := d.Line(c.a, nil, ""), d.Line(c.b, nil, "")
		k1, key1 := d.Shared(a, b)
		k2, key2 := d.Shared(b, a)
		if k1 != k2 || key1 != key2 || k1 != c.kind || (c.key != "" && key1 != c.key) {
			t.Errorf("%s / %s: %s %s, reversed %s %s; want %s %s", c.a, c.b, k1, key1, k2, key2, c.kind, c.key)
		}
	}
}
