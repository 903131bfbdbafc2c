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

// TestScreeningFindings: each answer of the screening before a dose and the vaccines it
// concerns (screening_rules.tsv; QĐ 1575/QĐ-BYT 2023, ACIP Contraindications and Precautions,
// China's and Russia's BCG rules); a question not asked or answered no says nothing.
func TestScreeningFindings(t *testing.T) {
	cat := Default()
	yes, no := true, false
	temp := func(c float64) *float64 { return &c }
	const day = "2026-06-01"
	newborn, infant, toddler := "2026-05-25", "2026-03-15", "2024-06-01" // 7 days, 2½ months, 2 years
	for _, c := range []struct {
		name, vaccine, birth string
		s                    Screening
		want                 string
		first                string // the clinic's first schedule
	}{
		{"nothing asked", "mmr", toddler, Screening{}, "", ""},
		{"all answered no", "mmr", toddler, Screening{Fever: &no, AcuteIllness: &no, AbnormalHeartLung: &no, AbnormalConsciousness: &no,
			PreviousSevereReaction: &no, BloodProductsRecent: &no, ImmunosuppressantStoppedRecent: &no}, "", ""},
		{"fever, inactivated vaccine", "dtap", toddler, Screening{Fever: &yes}, "screening_fever:stop", ""},
		{"38.0 °C measured, fever answered no", "ipv", toddler, Screening{Fever: &no, TemperatureC: temp(38.0)}, "screening_fever:stop", ""},
		{"35.5 °C measured", "ipv", toddler, Screening{TemperatureC: temp(35.5)}, "screening_fever:stop", ""},
		{"37.9 °C measured", "ipv", toddler, Screening{TemperatureC: temp(37.9)}, "", ""},
		{"37.5 °C measured in Viet Nam: the checklist's fever", "ipv", toddler, Screening{TemperatureC: temp(37.5)}, "screening_fever:stop", "vn_epi"},
		{"37.4 °C measured in Viet Nam", "ipv", toddler, Screening{TemperatureC: temp(37.4)}, "", "vn_epi"},
		{"37.5 °C measured under WHO", "ipv", toddler, Screening{TemperatureC: temp(37.5)}, "", "who"},
		{"acute illness", "hepb_paed", toddler, Screening{AcuteIllness: &yes}, "screening_acute_illness:stop", ""},
		{"abnormal heart or lung sounds", "pcv13", toddler, Screening{AbnormalHeartLung: &yes}, "screening_heart_lung:stop", ""},
		{"abnormal consciousness", "pcv13", toddler, Screening{AbnormalConsciousness: &yes}, "screening_consciousness:stop", ""},
		{"severe reaction before", "hib", toddler, Screening{PreviousSevereReaction: &yes}, "screening_severe_reaction:stop", ""},
		{"intussusception, rotavirus", "rv1", infant, Screening{Intussusception: &yes}, "intussusception:stop", ""},
		{"intussusception, polio", "bopv", infant, Screening{Intussusception: &yes}, "", ""},
		{"blood products, MMR", "mmr", toddler, Screening{BloodProductsRecent: &yes}, "blood_products:warn", ""},
		{"blood products, varicella", "varicella", toddler, Screening{BloodProductsRecent: &yes}, "blood_products:warn", ""},
		{"blood products, rotavirus (oral)", "rv1", infant, Screening{BloodProductsRecent: &yes}, "", ""},
		{"blood products, yellow fever", "yellow_fever", toddler, Screening{BloodProductsRecent: &yes}, "", ""},
		{"blood products, inactivated", "dtap", toddler, Screening{BloodProductsRecent: &yes}, "", ""},
		{"immunosuppressant stopped, live", "mmr", toddler, Screening{ImmunosuppressantStoppedRecent: &yes}, "immunosuppressant_stopped:stop", ""},
		{"immunosuppressant stopped, inactivated", "dtap", toddler, Screening{ImmunosuppressantStoppedRecent: &yes}, "", ""},
		{"under 2,000 g, BCG", "bcg", newborn, Screening{WeightUnder2000g: &yes}, "bcg_low_weight:stop", ""},
		{"under 2,000 g, HepB birth dose", "hepb_paed", newborn, Screening{WeightUnder2000g: &yes}, "hepb_low_weight:info", ""},
		{"under 2,000 g, HepB at 2 months", "hepb_paed", infant, Screening{WeightUnder2000g: &yes}, "", ""},
		{"BCG at 7 days, no tuberculin test", "bcg", newborn, Screening{}, "", ""},
		{"BCG at 2½ months in Russia, no tuberculin test", "bcg", infant, Screening{}, "bcg_tuberculin:stop", "ru_nc"},
		{"BCG at 2½ months in Russia, tuberculin not negative", "bcg", infant, Screening{TuberculinNegative: &no}, "bcg_tuberculin:stop", "ru_nc"},
		{"BCG at 2½ months in Russia, tuberculin negative", "bcg", infant, Screening{TuberculinNegative: &yes}, "", "ru_nc"},
		{"BCG at exactly 2 months in Russia", "bcg", "2026-04-01", Screening{}, "bcg_tuberculin:stop", "ru_nc"},
		{"BCG a day before 2 months in Russia", "bcg", "2026-04-02", Screening{}, "", "ru_nc"},
		{"BCG at 2½ months in China: no test before 3 months", "bcg", infant, Screening{}, "", "cn_nip"},
		{"BCG at exactly 3 months in China", "bcg", "2026-03-01", Screening{}, "bcg_tuberculin:stop", "cn_nip"},
		{"BCG at 10 months in Viet Nam: TCMR asks no tuberculin test", "bcg", "2025-08-01", Screening{}, "", "vn_epi"},
		{"BCG at 10 months under WHO", "bcg", "2025-08-01", Screening{}, "", "who"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, ok := cat.Vaccine(c.vaccine, "en")
			if !ok {
				t.Fatalf("no vaccine %s", c.vaccine)
			}
			var got []string
			screeningFindings(c.s, v, c.birth, day, c.first, FeverFrom(cat, c.first), "en", func(code, severity, key string, args ...any) *Finding {
				got = append(got, code+":"+severity)
				return &Finding{}
			})
			if s := strings.Join(got, " "); s != c.want {
				t.Errorf("%s, want %s", s, c.want)
			}
		})
	}
}
