package catalogue_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type analyte struct {
	Code     string `json:"code"`
	LOINC    string `json:"loinc"`
	Type     string `json:"type"`
	Unit     string `json:"unit"`
	Decimals int    `json:"decimals"`
	Answers  string `json:"answers"`
	Labels   struct {
		EN string `json:"en"`
		RU string `json:"ru"`
	} `json:"labels"`
	PlausibleLow  *float64         `json:"plausible_low"`
	PlausibleHigh *float64         `json:"plausible_high"`
	Ranges        []map[string]any `json:"ranges"`
	Version       int              `json:"version"`
}

// TestResultsCatalogueEditAndCSV: an administrator edits an analyte's ranges, exports the
// catalogue, and imports a file that changes one analyte, adds one, and has a bad line that
// rejects its analyte whole (TestResultsCatalogueRules: what an edit refuses).
func TestResultsCatalogueEditAndCSV(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if err := catalogue.InstallStarter(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		var list struct{ Data []analyte }
		admin.Do("GET", "/api/lab-analytes", nil).JSON(t, &list)
		var k analyte
		for _, a := range list.Data {
			if a.Code == "K" {
				k = a
			}
		}
		if k.LOINC != "2823-3" || len(k.Ranges) == 0 {
			t.Fatalf("potassium: %+v", k)
		}
		body := map[string]any{"loinc": "2823-3", "type": "numeric", "unit": "mmol/L", "decimals": 1, "plausible_low": 1, "plausible_high": 15,
			"answers": "", "labels": map[string]string{"en": "Potassium", "ru": "Калий", "zh": "钾", "vi": "Kali"}, "version": k.Version,
			"ranges": []map[string]any{{"sex": "any", "age_from_months": 216, "low": 3.4, "high": 5.3, "critical_low": 2.8, "critical_high": 6.2}}}
		r := admin.Do("PUT", "/api/lab-analytes/K", body)
		var saved analyte
		r.JSON(t, &saved)
		if r.Status != http.StatusOK || len(saved.Ranges) != 1 || saved.Version != k.Version+1 {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}

		r = admin.Do("GET", "/api/lab-analytes/export", nil)
		csv := string(r.Body)
		if r.Status != http.StatusOK || !strings.HasPrefix(csv, "analyte,loinc,type,unit,") || !strings.Contains(csv, "K,2823-3,numeric,mmol/L,1,1,15,,,,Potassium,Калий,钾,Kali,any,216,,3.4,5.3,2.8,6.2") {
			t.Fatalf("export: %d %.400s", r.Status, csv)
		}
		header := strings.SplitN(csv, "\n", 2)[0]
		file := header + "\n" +
			"K,2823-3,numeric,mmol/L,1,1,15,,,,Potassium,Калий,钾,Kali,any,216,,3.5,5.1,3.0,6.0\n" +
			"K,2823-3,numeric,mmol/L,1,1,15,,,,Potassium,Калий,钾,Kali,female,0,216,3.6,5.2,,\n" +
			"MG,19123-9,numeric,mmol/L,2,0.1,5,,,,Magnesium,Магний,镁,Magiê,any,216,,0.66,1.07,0.4,2.0\n" +
			"NA,2951-2,numeric,mmol/L,0,80,200,,,,Sodium,Натрий,钠,Natri,any,216,,136,145,120,160\n" +
			"NA,2951-2,numeric,mmol/L,0,80,200,,,,Sodium,Натрий,钠,Natri,male,216,,abc,145,,\n"
		r = admin.Upload("POST", "/api/lab-analytes/import", "catalogue.csv", []byte(file))
		var rep struct {
			Inserted, Updated, Rejected int
			Errors                      []struct {
				Line    int
				Message string
			}
		}
		r.JSON(t, &rep)
		if r.Status != http.StatusOK || rep.Inserted != 1 || rep.Updated != 1 || rep.Rejected != 1 || rep.Errors[0].Line != 6 || rep.Errors[0].Message == "" {
			t.Fatalf("import: %d %s", r.Status, r.Body)
		}
		admin.Do("GET", "/api/lab-analytes", nil).JSON(t, &list)
		for _, a := range list.Data {
			switch a.Code {
			case "K":
				if len(a.Ranges) != 2 {
					t.Errorf("potassium's ranges are the file's: %+v", a.Ranges)
				}
			case "NA":
				if len(a.Ranges) != 1 || a.Ranges[0]["low"] != 135.0 {
					t.Errorf("sodium was rejected whole, its ranges kept: %+v", a.Ranges)
				}
			}
		}
		// A panel's definition: LOINC checked, turnaround bounded, its analytes known and once each.
		var defs struct {
			Data []struct {
				Code     string   `json:"code"`
				LOINC    string   `json:"loinc"`
				Analytes []string `json:"analytes"`
			}
		}
		admin.Do("GET", "/api/lab-test-definitions", nil).JSON(t, &defs)
		if len(defs.Data) < 30 || defs.Data[0].Code == "" {
			t.Fatalf("definitions: %+v", defs.Data[:1])
		}
		r = admin.Do("PUT", "/api/lab-test-definitions/ELEC", map[string]any{"loinc": "24326-1", "turnaround_hours": 12, "analytes": []string{"NA", "K", "CL", "MG"}})
		var tr struct {
			TurnaroundHours int `json:"turnaround_hours"`
			Analytes        []struct{ Code string }
		}
		r.JSON(t, &tr)
		if r.Status != http.StatusOK || tr.TurnaroundHours != 12 || len(tr.Analytes) != 4 || tr.Analytes[3].Code != "MG" {
			t.Fatalf("definition: %d %s", r.Status, r.Body)
		}
	})
}
