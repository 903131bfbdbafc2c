package result_test

import (
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/i18n"
)

// A result is read as the nurse's language writes numbers; a point or comma that could be a
// thousands group is refused naming the value, never guessed (issue 52, results review C3).
func TestResultNumbersAreReadAsTheLanguageWritesThem(t *testing.T) {
	const (
		c3   = "results review C3; CLDR vi: decimal \",\", group \".\""
		cldr = "CLDR number symbols"
		si   = "SI Brochure / ISO 80000-1: digits grouped with a space"
	)
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		for _, row := range []struct {
			name, lang, value string
			status            int
			key, stored, flag string
			source            string
		}{
			{"ALT 1.500 U/L in Vietnamese is refused, not stored as 2", "vi", "1.500", 422, "validation.thousands_separator", "", "", c3},
			{"ALT 12.000 U/L in Russian is refused", "ru", "12.000", 422, "validation.thousands_separator", "", "", cldr},
			{"ALT 1,500 U/L in English is refused", "en", "1,500", 422, "validation.thousands_separator", "", "", cldr},
			{"ALT 1.500,5 U/L in Vietnamese is refused", "vi", "1.500,5", 422, "validation.thousands_separator", "", "", c3},
			{"ALT 1 500 U/L in Vietnamese is 1500, high", "vi", "1 500", 200, "", "1500", "H", si},
			{"ALT 1500 U/L in Vietnamese is 1500, high", "vi", "1500", 200, "", "1500", "H", c3},
			{"ALT 1\u00a0500 U/L in Russian is 1500, high", "ru", "1\u00a0500", 200, "", "1500", "H", cldr},
			{"ALT 35,4 U/L in Vietnamese is 35 (ALT is reported in whole units)", "vi", "35,4", 200, "", "35", "N", cldr},
		} {
			t.Run(row.name, func(t *testing.T) {
				lft := find(c.order(t, "LFT"), "LFT")
				c.nurse.SetCookie("language", row.lang)
				defer c.nurse.SetCookie("language", "en")
				r := record(c.nurse, lft, false, map[string]any{"analyte": "ALT", "value": row.value, "unit": "U/L"})
				if r.Status != row.status {
					t.Fatalf("%d %s (%s)", r.Status, r.Body, row.source)
				}
				if row.status != http.StatusOK {
					_, _, fields := r.Error(t)
					if got := fields["results.0.value"]; len(got) != 1 || got[0] != i18n.T(row.lang, row.key) {
						t.Errorf("results.0.value: %q, want %s (%s)", got, row.key, row.source)
					}
					if again := find(c.orders(t), "LFT"); len(again.Results) != 0 || again.Version != lft.Version {
						t.Errorf("a refused value changed the order: %+v", again)
					}
					return
				}
				var rec struct {
					Order order `json:"order"`
				}
				r.JSON(t, &rec)
				for _, x := range rec.Order.Results {
					if x.Analyte == "ALT" && (x.Value == nil || *x.Value != row.stored || x.Flag != row.flag) {
						t.Errorf("ALT %q: %+v, want %s %s (%s)", row.value, x, row.stored, row.flag, row.source)
					}
				}
			})
		}
	})
}

// Vitals travel as JSON numbers, read from what was typed by the web app's number reader
// (web/src/lib/number.ts, the same rule): text typed in a language is refused naming the
// vital, never read.
func TestVitalsAreNumbersNotTypedText(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.order(t, "LFT")
		c.nurse.SetCookie("language", "vi")
		r := c.nurse.Do("PUT", c.visitPath+"/vitals", map[string]any{"version": c.visitVersion, "vitals": map[string]any{"weight": "1.500"}})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields) != 1 || len(fields["vitals.weight"]) != 1 {
			t.Errorf("a weight of 1.500 typed in Vietnamese: %d %s", r.Status, r.Body)
		}
	})
}
