package billing_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/i18n"
)

// A price typed in the cashier's language: in a currency without decimals the language's own
// thousands sign groups (200.000 đồng); elsewhere a point or comma that could be a thousands
// group is refused naming the price, never read as decimals (issue 52, translations review S6).
func TestPricesAreReadAsTheLanguageWritesThem(t *testing.T) {
	const (
		s6   = "translations review S6: a Vietnamese cashier types 200.000 for 200,000 VND"
		cldr = "CLDR number symbols; ISO 4217 minor units (VND 0, PHP 2)"
	)
	type settings struct {
		Currency   string `json:"currency"`
		MinorUnits int    `json:"minor_units"`
		Version    int    `json:"version"`
	}
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for i, row := range []struct {
			name, currency, lang, price string
			want                        int64  // minor units stored
			key                         string // or the message of the refused price
			source                      string
			args                        []any // the message's example
		}{
			{"1.500 pesos in Vietnamese is refused", "PHP", "vi", "1.500", 0, "validation.thousands_separator", cldr, nil},
			{"1.500,50 pesos in Vietnamese is refused", "PHP", "vi", "1.500,50", 0, "validation.thousands_separator", cldr, nil},
			{"1,500 pesos in English is refused", "PHP", "en", "1,500", 0, "validation.thousands_separator", cldr, nil},
			{"1500,50 pesos in Vietnamese", "PHP", "vi", "1500,50", 150050, "", cldr, nil},
			{"1 500,50 pesos in Russian", "PHP", "ru", "1 500,50", 150050, "", cldr, nil},
			{"350.50 pesos as exported, in Russian", "PHP", "ru", "350.50", 35050, "", "the export writes a point", nil},
			{"200.000 đồng in Vietnamese is two hundred thousand", "VND", "vi", "200.000", 200000, "", s6, nil},
			{"1.200.000 đồng in Vietnamese", "VND", "vi", "1.200.000", 1200000, "", s6, nil},
			{"200 000 đồng in Russian", "VND", "ru", "200 000", 200000, "", cldr, nil},
			{"200.000 đồng in Russian is refused", "VND", "ru", "200.000", 0, "validation.thousands_separator", cldr, nil},
			{"200,5 đồng in Vietnamese has decimals đồng have not", "VND", "vi", "200,5", 0, "billing.bad_price_whole", cldr, []any{"350000"}},
			// The refusal names the line's code and the value, and its example has the
			// currency's decimals (clinic-day review 2026-11-28, m22).
			{"12O000 đồng (a letter O) in English: a whole-number example", "VND", "en", "12O000", 0, "billing.bad_price_whole", "m22", []any{"350000"}},
			{"12O000 pesos in English: an example with centavos", "PHP", "en", "12O000", 0, "billing.bad_price_text", "m22", []any{"350", "350.50"}},
			{"12O000 đồng in Russian", "VND", "ru", "12O000", 0, "billing.bad_price_whole", "m22", []any{"350000"}},
		} {
			t.Run(row.name, func(t *testing.T) {
				var set settings
				s.admin.Do("GET", "/api/fees/settings", nil).JSON(t, &set)
				if set.Currency != row.currency {
					apitest.Do[settings](t, s.admin, http.StatusOK, "PUT", "/api/fees/settings", map[string]any{"currency": row.currency, "consultation": map[string]string{"new": "CONS-NEW"}, "version": set.Version})
				}
				s.admin.SetCookie("language", row.lang)
				defer s.admin.SetCookie("language", "en")
				code := fmt.Sprintf("ROW-%d", i)
				csv := "code,name,category,price,active\n" + code + ",Row,procedure,\"" + row.price + "\",yes\n"
				var rep struct {
					Inserted, Rejected int
					Errors             []struct{ Field, Message string }
				}
				s.admin.Upload("POST", "/api/services/import", "services.csv", []byte(csv)).JSON(t, &rep)
				if row.key != "" {
					want := i18n.T(row.lang, "billing.import_row", code, row.price, i18n.T(row.lang, row.key, row.args...))
					if rep.Rejected != 1 || len(rep.Errors) != 1 || rep.Errors[0].Field != "price" || rep.Errors[0].Message != want {
						t.Errorf("%q: %+v, want %q (%s)", row.price, rep, want, row.source)
					}
					return
				}
				var list struct {
					Data []struct {
						Code  string
						Price int64
					}
				}
				s.admin.Do("GET", "/api/services", nil).JSON(t, &list)
				for _, sv := range list.Data {
					if sv.Code == code && sv.Price == row.want && rep.Inserted == 1 {
						return
					}
				}
				t.Errorf("%q: %+v %+v, want %d (%s)", row.price, rep, list, row.want, row.source)
			})
		}

		// The API takes an amount in minor units as a JSON number; text typed in a language is
		// refused naming the field, never read.
		for _, body := range []map[string]any{
			{"code": "TXT", "name": "Text", "category": "other", "price": "1.500"},
		} {
			s.admin.SetCookie("language", "vi")
			r := s.admin.Do("POST", "/api/services", body)
			s.admin.SetCookie("language", "en")
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["price"]) != 1 {
				t.Errorf("a price as typed text: %d %s", r.Status, r.Body)
			}
		}
	})
}
