package appointment

import (
	"testing"

	"emr/internal/audit"
)

// TestChangedSectionsInWords: a visit saved with only an order added is described as such,
// in each reader's words, never as a diagnosis saved; a save that changed nothing says
// nothing.
func TestChangedSectionsInWords(t *testing.T) {
	old := Content{Diagnoses: []Diagnosis{{Code: "J06.9"}}}
	ordered := old
	ordered.Orders = []Order{{Code: "CBC"}}
	for lang, want := range map[string]string{"en": "changed: tests ordered", "ru": "изменено: назначенные исследования", "zh": "修改了：检验申请", "vi": "đã sửa: xét nghiệm đã chỉ định"} {
		if got := audit.DetailIn(lang, changedSections(old, ordered)); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := changedSections(old, old); got != "" {
		t.Errorf("nothing changed: %q", got)
	}
}
