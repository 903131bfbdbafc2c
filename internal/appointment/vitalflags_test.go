package appointment

import (
	"slices"
	"testing"

	"emr/internal/i18n"
)

// TestVitalBandsTable holds the bands table to what its reader relies on: every age from
// birth to 120 years has bands for each vital that is flagged (a baby's diastolic pressure
// from its first birthday), no age has two rows of one vital at one level, and every band
// is named in the four languages.
func TestVitalBandsTable(t *testing.T) {
	from := map[string]int{"bp_systolic": 0, "bp_diastolic": 12, "heart_rate": 0, "respiratory_rate": 0, "temperature": 0, "spo2": 0}
	for months := 0; months <= 1440; months++ {
		seen := map[[2]string]bool{}
		has := map[string]bool{}
		for _, b := range VitalBandsAt(months, "en") {
			key := [2]string{b.Vital, b.Flag}
			if seen[key] {
				t.Errorf("%d months: two %s rows for %s", months, b.Flag, b.Vital)
			}
			seen[key], has[b.Vital] = true, true
		}
		for vital, first := range from {
			if months >= first && !has[vital] {
				t.Errorf("%d months: no band for %s", months, vital)
			}
		}
	}
	for _, b := range vitalBands {
		for _, lang := range i18n.Languages {
			if !slices.Contains(i18n.Keys(lang), "vitals.ages."+b.ages) {
				t.Errorf("%s: no %s name for the band %q", b.Vital, lang, b.ages)
			}
		}
	}
	for _, bad := range []string{
		"vital\tfrom_months\tto_months\tages\tflag\twhen\tlimit\tsource\npulse\t0\t\tall\tH\t>\t100\tx\n",
		"vital\tfrom_months\tto_months\tages\tflag\twhen\tlimit\tsource\nheart_rate\t0\t\tall\tHIGH\t>\t100\tx\n",
		"vital\tfrom_months\tto_months\tages\tflag\twhen\tlimit\tsource\nheart_rate\t12\t12\tall\tH\t>\t100\tx\n",
		"vital\tfrom_months\tto_months\tages\tflag\twhen\tlimit\tsource\nheart_rate\t0\t\tall\tH\t=>\t100\tx\n",
		"vital\tfrom_months\tto_months\tages\tflag\twhen\tlimit\tsource\nheart_rate\t0\t\tall\tH\t>\t100\t\n",
	} {
		if _, err := readVitalBands(bad); err == nil {
			t.Errorf("accepted a bad table:\n%s", bad)
		}
	}
}
