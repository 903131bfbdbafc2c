package charting_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// starterCase is what a starter order set must hold, in every language, and where it comes
// from. The sets are examples a clinic reviews before use; these are the facts they must not
// lose in a translation or an edit of the code.
type starterCase struct {
	name     string // the English name's beginning
	code     string // the primary diagnosis
	tests    []string
	medicine string // the line's medicine label, its beginning (none: no line)
	quantity string
	followUp int // days
	planHas  string
	source   string
}

var starterCases = []starterCase{
	{"Hypertension", "I10", []string{"BMP", "LIPID"}, "Amlodipine 5 mg", "30", 28, "130/80",
		"ACC/AHA 2017 hypertension guideline (target below 130/80; a calcium-channel blocker first-line; electrolytes, creatinine and lipids at follow-up); amlodipine 5 mg once daily the usual starting dose (BNF)"},
	{"Type 2 diabetes", "E11.9", []string{"HBA1C", "CREA", "LIPID", "UA"}, "Metformin 500 mg", "60", 90, "metformin",
		"ADA Standards of Care in Diabetes 2025, sections 9 (metformin first-line, taken with meals, held when dehydrated) and 4, 11, 12 (HbA1c each 3 months until at goal; kidney, lipids, feet and eyes yearly)"},
	{"Upper respiratory infection", "J06.9", nil, "Paracetamol 500 mg", "20", 0, "no antibiotic",
		"NICE NG120/CG69 and CDC: self-limiting respiratory infections need no antibiotic; paracetamol at most 4 g in 24 hours (BNF)"},
	{"Cystitis", "N39.0", []string{"UA", "UCULT"}, "Nitrofurantoin 100 mg", "10", 0, "modified-release",
		"IDSA 2010 (Gupta et al., Clin Infect Dis 2011): nitrofurantoin 100 mg twice daily for 5 days in uncomplicated cystitis of non-pregnant women; AGS Beers 2019: avoid when creatinine clearance is below 30 mL/min"},
	{"Gastroenteritis", "A09", nil, "Oral rehydration salts", "10", 0, "Oral rehydration",
		"WHO, The treatment of diarrhoea (2005): oral rehydration with ORS, continued feeding, and the danger signs for return"},
}

// TestStarterSetsHoldTheirCases: each starter set, in each of the four languages, holds the
// diagnosis, tests, medicine, quantity, follow-up and plan its case names (table above, each
// with its source), and is marked as an example.
func TestStarterSetsHoldTheirCases(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		english := map[string]set{}
		for _, lang := range []string{"en", "ru", "zh", "vi"} {
			c.doctor.SetCookie("language", lang)
			var list struct{ Data []set }
			if r := c.doctor.Do("GET", "/api/order-sets", nil); r.Status != http.StatusOK {
				t.Fatalf("%s: %d", lang, r.Status)
			} else {
				r.JSON(t, &list)
			}
			if len(list.Data) != len(starterCases) {
				t.Fatalf("%s: %d starter sets, want %d", lang, len(list.Data), len(starterCases))
			}
			for i, want := range starterCases {
				var got set
				if lang == "en" {
					j := slices.IndexFunc(list.Data, func(s set) bool { return strings.HasPrefix(s.Name, want.name) })
					if j < 0 {
						t.Fatalf("no starter set %q", want.name)
					}
					got = list.Data[j]
					english[want.name] = got
				} else { // the same set in another language: the same diagnosis and tests
					en := english[want.name]
					j := slices.IndexFunc(list.Data, func(s set) bool {
						return len(s.Content.Diagnoses) > 0 && s.Content.Diagnoses[0].Code == want.code && s.ID != en.ID
					})
					if j < 0 {
						t.Fatalf("%s: no starter set for %s", lang, want.code)
					}
					got = list.Data[j]
				}
				var tests []string
				for _, o := range got.Content.Orders {
					tests = append(tests, o.Code)
				}
				switch {
				case !got.Example || got.Scope != "clinic":
					t.Errorf("%s %d: not the clinic's example: %+v", lang, i, got)
				case got.Content.Diagnoses[0].Code != want.code || !got.Content.Diagnoses[0].Primary:
					t.Errorf("%s %s: diagnosis %+v", lang, want.name, got.Content.Diagnoses)
				case !slices.Equal(tests, want.tests):
					t.Errorf("%s %s: tests %v, want %v", lang, want.name, tests, want.tests)
				case got.Content.Days != want.followUp:
					t.Errorf("%s %s: follow-up %d, want %d", lang, want.name, got.Content.Days, want.followUp)
				case len(got.Content.Items) != 1 || got.Content.Items[0]["quantity"] != want.quantity || got.Content.Items[0]["medicine_id"] == nil:
					t.Errorf("%s %s: line %v", lang, want.name, got.Content.Items)
				case lang == "en" && !strings.HasPrefix(got.Content.Items[0]["medicine"].(string), want.medicine):
					t.Errorf("%s: medicine %v, want %s", want.name, got.Content.Items[0]["medicine"], want.medicine)
				case lang == "en" && !strings.Contains(strings.ToLower(got.Content.Plan), strings.ToLower(want.planHas)):
					t.Errorf("%s: plan %q lacks %q (%s)", want.name, got.Content.Plan, want.planHas, want.source)
				case lang != "en" && (got.Content.Plan == "" || got.Content.Plan == english[want.name].Content.Plan):
					t.Errorf("%s %s: plan not in the language: %q", lang, want.name, got.Content.Plan)
				}
			}
		}
	})
}
