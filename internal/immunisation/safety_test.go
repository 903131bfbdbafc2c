package immunisation

import (
	"slices"
	"strings"
	"testing"

	"emr/internal/catalogue"
)

// TestConditionCodes: the ranges and prefixes of safety_conditions.tsv, read as ICD-10
// writes them (with or without the dot, any case).
func TestConditionCodes(t *testing.T) {
	has := func(name, code string) bool {
		return slices.ContainsFunc(conditions, func(c condition) bool { return c.name == name && c.system == "icd10" && c.matches(code) })
	}
	for _, c := range []struct {
		name, code string
		want       bool
	}{
		{conditionPregnancy, "O09.9", true},
		{conditionPregnancy, "o9a.11", true},
		{conditionPregnancy, "O80", false}, // delivery: MMR is given post partum
		{conditionPregnancy, "O92.1", false},
		{conditionPregnancy, "O99.0", true},
		{conditionPregnancy, "Z34.9", true},
		{conditionPregnancy, "Z3A20", true},
		{conditionPregnancy, "Z30.0", false}, // contraception
		{conditionPregnancy, "P07.3", false},
		{conditionImmunosupp, "D84.9", true},
		{conditionImmunosupp, "D80.0", true},
		{conditionImmunosupp, "D85", false},
		{conditionImmunosupp, "D89.9", true},
		{conditionImmunosupp, "D89.1", false},
		{conditionImmunosupp, "B20", true},
		{conditionImmunosupp, "B24", true},
		{conditionImmunosupp, "B25.0", false},
		{conditionImmunosupp, "C91.0", true},
		{conditionImmunosupp, "C80", true}, // a solid tumour: a warning (ask the oncologist)
		{conditionImmunosupp, "C64", true},
		{conditionImmunosupp, "D10", false},
		{conditionImmunosupp, "Z92.6", true},
		{conditionImmunosupp, "C97", false},
		{conditionImmunosupp, "Z94.0", true},
		{conditionImmunosupp, "Z79.52", true},
		{conditionImmunosupp, "Z79.5", false},
	} {
		if got := has(c.name, c.code); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.name, c.code, got, c.want)
		}
	}
}

// TestShippedVaccineComponents holds the shipped catalogue's components to what the safety
// check can read: each one an excipient or a substance of the medicine-safety reading (a
// component it cannot read is never checked), egg in a yellow fever vaccine, and no egg in a
// measles or influenza vaccine (ACIP 2023–24: an egg allergy is no reason to withhold them).
func TestShippedVaccineComponents(t *testing.T) {
	drugs := catalogue.KnownDrugs
	for _, v := range Default().Vaccines("en") {
		comps := drugs.Components(v.Components)
		for _, written := range v.Components {
			for _, c := range drugs.Components([]string{written}) {
				if drugs.Excipient(c) == nil && drugs.Substance(c) == nil {
					t.Errorf("vaccine %s: component %q is neither an excipient (internal/catalogue/excipients.tsv) nor a substance", v.Key, written)
				}
			}
		}
		antigen := func(word string) bool {
			return slices.ContainsFunc(v.Antigens, func(a string) bool { return strings.Contains(a, word) })
		}
		switch {
		case antigen("yellow"):
			if !slices.Contains(comps, "egg") {
				t.Errorf("vaccine %s (yellow fever) holds no egg", v.Key)
			}
		case v.Key == "measles_ru":
			// Russia's ЖКВ is grown on quail embryo cells and its instruction contraindicates it
			// after a severe reaction to quail eggs: judged as egg protein.
			if !slices.Contains(comps, "egg") || !slices.Contains(comps, "gentamicin") {
				t.Errorf("ЖКВ: components %v, want egg and gentamicin (its instruction)", comps)
			}
		case antigen("measles") || antigen("influenza"):
			if slices.Contains(comps, "egg") {
				t.Errorf("vaccine %s lists egg: ACIP 2023–24 asks no egg precaution for it", v.Key)
			}
		}
	}
}
