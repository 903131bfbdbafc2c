package prescription_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/i18n"
)

// A quantity is read as the prescriber's language writes numbers and kept as the record
// keeps them; one that could be a thousands group is refused naming the line, never guessed.
func TestQuantitiesAreReadAsTheLanguageWritesThem(t *testing.T) {
	const cldr = "CLDR number symbols (ru, vi decimal \",\"; vi group \".\"; en, zh group \",\")"
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for _, row := range []struct {
			lang, quantity string
			key, stored    string
			source         string
		}{
			{"vi", "1.500", "validation.thousands_separator", "", cldr + "; results review C3"},
			{"en", "1,500", "validation.thousands_separator", "", cldr},
			{"en", "1,5", "validation.decimal_point", "", cldr},
			{"ru", "1,5", "", "1.5", cldr},
			{"vi", "0.500", "", "0.5", "a zero whole part is no thousands group"},
			{"ru", "1 000", "", "1000", "SI Brochure: digits grouped with a space"},
			{"en", "21", "", "21", cldr},
		} {
			t.Run(row.lang+" "+row.quantity, func(t *testing.T) {
				s.doctor.SetCookie("language", row.lang)
				defer s.doctor.SetCookie("language", "en")
				line := map[string]any{"medicine": "Paracetamol 500 mg tablet", "quantity": row.quantity}
				r := s.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/prescriptions", s.apptID), map[string]any{"items": []any{line}})
				if row.key != "" {
					if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["items.0.quantity"]) != 1 ||
						fields["items.0.quantity"][0] != i18n.T(row.lang, row.key) {
						t.Errorf("%d %s, want %s (%s)", r.Status, r.Body, row.key, row.source)
					}
					return
				}
				var out rx
				r.JSON(t, &out)
				if r.Status != http.StatusCreated || len(out.Items) != 1 || out.Items[0].Quantity == nil || *out.Items[0].Quantity != row.stored {
					t.Errorf("%d %s, want %s (%s)", r.Status, r.Body, row.stored, row.source)
				}
			})
		}
	})
}
