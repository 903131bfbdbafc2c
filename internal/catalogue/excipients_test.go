package catalogue

import (
	"slices"
	"testing"
)

// TestExcipientsAreReadAsAllergens: an allergy to an excipient or a vaccine component is read
// in each language, and judged against a line that holds it (a capsule shell, a vaccine's
// components), never against one that does not.
func TestExcipientsAreReadAsAllergens(t *testing.T) {
	d := KnownDrugs
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Gelatin (anaphylaxis)", []string{"gelatin"}},
		{"желатин", []string{"gelatin"}},
		{"明胶过敏", []string{"gelatin"}},
		{"Eggs", []string{"egg"}},
		{"аллергия на куриное яйцо", []string{"egg"}},
		{"Neomycin", []string{"neomycin"}},
		{"Latex", []string{"latex"}},
		{"Arachis oil", []string{"peanut"}},
		{"Penicillin", nil},
	} {
		if got := d.Allergen(c.text).Excipients; !sameSet(got, c.want) {
			t.Errorf("%q: excipients %v, want %v", c.text, got, c.want)
		}
	}
	capsule := d.Line("Amoxicillin 500 mg capsule", []string{"amoxicillin"}, "J01CA04").WithExcipients(ExcipientsOf(Medicine{GenericName: "Amoxicillin", Form: "capsule"}))
	tablet := d.Line("Paracetamol 500 mg", []string{"paracetamol"}, "N02BE01").WithExcipients(ExcipientsOf(Medicine{GenericName: "Paracetamol", Form: "tablet"}))
	gelatin := d.Allergen("Gelatin")
	severe := ReadReaction("severe", "anaphylaxis", "Gelatin")
	if m, ok := d.Judge(gelatin, severe, capsule); !ok || m.Kind != "excipient" || m.Key != "gelatin" || m.Tier != TierHard || !m.Blocking {
		t.Errorf("gelatin anaphylaxis, capsule: %+v %v", m, ok)
	}
	if m, ok := d.Judge(gelatin, severe, tablet); ok {
		t.Errorf("gelatin anaphylaxis, tablet: %+v", m)
	}
	// A vaccine's components, as the immunisation check reads them.
	yellowFever := d.Line("Yellow fever vaccine", nil, "J07BL01").WithExcipients(d.Components([]string{"egg", "gelatine"}))
	mmr := d.Line("MMR vaccine", nil, "J07BD52").WithExcipients(d.Components([]string{"gelatin", "neomycin"}))
	egg := d.Allergen("Egg")
	if _, ok := d.Judge(egg, ReadReaction("severe", "anaphylaxis", "Egg"), yellowFever); !ok {
		t.Error("egg anaphylaxis, yellow fever vaccine: no finding")
	}
	if m, ok := d.Judge(egg, ReadReaction("severe", "anaphylaxis", "Egg"), mmr); ok {
		t.Errorf("egg allergy, MMR: %+v (ACIP: no precaution)", m)
	}
	if got := d.Components([]string{"Gelatine", "egg protein", "thiomersal"}); !slices.Equal(got, []string{"gelatin", "egg", "thiomersal"}) {
		t.Errorf("components %v", got)
	}
	if d.ComponentName("gelatin", "ru") != "Желатин" || d.ComponentName("unknown", "ru") != "unknown" {
		t.Error("component names")
	}
}
