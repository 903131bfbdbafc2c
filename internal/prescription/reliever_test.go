package prescription_test

import (
	"net/http"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// A reliever prescribed for the third time in a year prompts a review of the asthma's control
// (GINA 2024: three or more SABA canisters a year; the pharmacist's review of the refill window,
// row 9): a caution that needs no reason, once, on the first reliever line. Drafts never issued,
// and relievers of more than a year ago, do not count. Its count is of canisters, the lines
// being written included (the pharmacist's review of 2026-11-29, M1).
func TestARelieverPrescribedTooOftenIsSaid(t *testing.T) {
	type prior struct {
		daysAgo int
		draft   bool
	}
	for _, c := range []struct {
		name    string
		before  []prior
		lines   []string
		want    bool
		wantLen int
	}{
		{"two issued in the year: the third is said", []prior{{60, false}, {200, false}}, []string{"salbutamol"}, true, 3},
		{"one issued in the year: the second is not", []prior{{60, false}}, []string{"salbutamol"}, false, 0},
		{"one of them over a year ago", []prior{{60, false}, {400, false}}, []string{"salbutamol"}, false, 0},
		{"a draft never issued does not count", []prior{{60, false}, {200, true}}, []string{"salbutamol"}, false, 0},
		{"another medicine is not a reliever", []prior{{60, false}, {200, false}}, []string{"amoxicillin"}, false, 0},
		{"two reliever lines: said once, both counted", []prior{{60, false}, {200, false}}, []string{"salbutamol", "salbutamol"}, true, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				s := newSetup(t, db)
				salbutamol := s.medicineID(t, "Salbutamol")
				item := func(name string) map[string]any {
					if name == "salbutamol" {
						return map[string]any{"medicine_id": salbutamol, "medicine": "Salbutamol 100 mcg/dose inhaler", "dose": "2 puffs", "frequency": "when needed", "quantity": "1", "unit": "inhaler"}
					}
					return map[string]any{"medicine": "Amoxicillin 500 mg capsule", "dose": "1 capsule", "frequency": "3 times a day", "duration": "5 days"}
				}
				for _, p := range c.before {
					var rx struct{ ID int64 }
					r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{item("salbutamol")}})
					if r.Status != http.StatusCreated {
						t.Fatalf("%d %s", r.Status, r.Body)
					}
					r.JSON(t, &rx)
					at := time.Now().UTC().AddDate(0, 0, -p.daysAgo)
					q := `UPDATE prescriptions SET status = 'issued', created_at = $1, issued_at = $1 WHERE id = $2`
					if p.draft {
						q = `UPDATE prescriptions SET created_at = $1 WHERE id = $2`
					}
					if _, err := db.Exec(q, at, rx.ID); err != nil {
						t.Fatal(err)
					}
				}
				var items []any
				for _, l := range c.lines {
					items = append(items, item(l))
				}
				got := s.check(t, map[string]any{"patient_id": s.patientID, "items": items})
				var prompts []finding
				for _, f := range got.Findings {
					if f.Kind == "reliever_overuse" {
						prompts = append(prompts, f)
					}
				}
				if (len(prompts) > 0) != c.want || len(prompts) > 1 {
					t.Fatalf("reliever prompts %+v, want %v (all: %s)", prompts, c.want, kinds(got.Findings))
				}
				if c.want && (prompts[0].Line != 0 || prompts[0].Tier != "low" || prompts[0].Count != c.wantLen) {
					t.Errorf("the prompt: %+v", prompts[0])
				}
			})
		})
	}
}
