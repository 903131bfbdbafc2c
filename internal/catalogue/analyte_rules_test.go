package catalogue_test

import (
	"context"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestResultsCatalogueRules: what editing the results catalogue refuses, as one request each.
func TestResultsCatalogueRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if err := catalogue.InstallStarter(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		doctor := env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
		// potassium reads the analyte's version now.
		potassium := func(t *testing.T) apitest.Vars {
			list := apitest.Do[struct{ Data []analyte }](t, admin, http.StatusOK, "GET", "/api/lab-analytes", nil)
			for _, a := range list.Data {
				if a.Code == "K" {
					return apitest.Vars{"version": a.Version}
				}
			}
			t.Fatal("no potassium in the catalogue")
			return nil
		}
		// edit is potassium as the editor sends it, with changes.
		edit := func(change map[string]any, offset int) func(apitest.Vars) any {
			return func(v apitest.Vars) any {
				body := map[string]any{"loinc": "2823-3", "type": "numeric", "unit": "mmol/L", "decimals": 1, "plausible_low": 1, "plausible_high": 15,
					"answers": "", "labels": map[string]string{"en": "Potassium", "ru": "Калий", "zh": "钾", "vi": "Kali"}, "version": v["version"].(int) + offset,
					"ranges": []map[string]any{{"sex": "any", "age_from_months": 216, "low": 3.5, "high": 5.1}}}
				for k, x := range change {
					body[k] = x
				}
				return body
			}
		}
		apitest.Run(t, env, map[string]*apitest.Client{"admin": admin, "doctor": doctor}, []apitest.Scenario{
			{Name: "a doctor does not edit the catalogue", As: "doctor", Method: "GET", Path: "/api/lab-analytes", Status: http.StatusForbidden},
			{Name: "a range's bounds are in order", As: "admin", Setup: potassium, Method: "PUT", Path: "/api/lab-analytes/K",
				BodyOf: edit(map[string]any{"ranges": []map[string]any{{"sex": "any", "age_from_months": 216, "low": 5.5, "high": 3.5}}}, 0), Status: http.StatusUnprocessableEntity, Contains: []string{`"ranges.0.high"`}},
			{Name: "a LOINC code's check digit is checked", As: "admin", Setup: potassium, Method: "PUT", Path: "/api/lab-analytes/K",
				BodyOf: edit(map[string]any{"loinc": "2823-4"}, 0), Status: http.StatusUnprocessableEntity, Contains: []string{`"loinc"`}},
			{Name: "an edit at a stale version is refused", As: "admin", Setup: potassium, Method: "PUT", Path: "/api/lab-analytes/K",
				BodyOf: edit(nil, -1), Status: http.StatusConflict},
			{Name: "a test's turnaround is bounded and its analytes known and once each", As: "admin", Method: "PUT", Path: "/api/lab-test-definitions/ELEC",
				Body:   map[string]any{"loinc": "24326-1", "turnaround_hours": 0, "analytes": []string{"NA", "NA", "XX"}},
				Status: http.StatusUnprocessableEntity, Contains: []string{`"turnaround_hours"`, `"analytes.1"`}},
		})
		r := admin.Upload("POST", "/api/lab-analytes/import", "x.csv", []byte("code,name\nA,B\n"))
		if r.Status != http.StatusUnprocessableEntity {
			t.Errorf("not a catalogue file: %d %s", r.Status, r.Body)
		}
	})
}
