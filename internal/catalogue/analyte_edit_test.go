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
	Critical      []map[string]any `json:"critical"`
	DeltaRules    []map[string]any `json:"delta_rules"`
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
		if len(k.Critical) != 3 {
			t.Fatalf("potassium's critical bands: %+v", k.Critical)
		}
		body := map[string]any{"loinc": "2823-3", "type": "numeric", "unit": "mmol/L", "decimals": 1, "plausible_low": 1, "plausible_high": 15,
			"answers": "", "labels": map[string]string{"en": "Potassium", "ru": "Калий", "zh": "钾", "vi": "Kali"}, "version": k.Version,
			"ranges": []map[string]any{{"sex": "any", "age_from_months": 216, "low": 3.4, "high": 5.3}}}
		r := admin.Do("PUT", "/api/lab-analytes/K", body)
		var saved analyte
		r.JSON(t, &saved)
		if r.Status != http.StatusOK || len(saved.Ranges) != 1 || saved.Version != k.Version+1 || len(saved.Critical) != 3 {
			t.Fatalf("save without critical bands keeps them: %d %s", r.Status, r.Body)
		}
		body["version"], body["critical"] = saved.Version, []map[string]any{{"age_from_months": 0, "critical_low": 2.8, "critical_high": 6.2, "source": "our lab"}}
		body["delta_rules"] = []map[string]any{{"window_hours": 72, "abs": 1.2, "source": "our lab"}}
		r = admin.Do("PUT", "/api/lab-analytes/K", body)
		r.JSON(t, &saved)
		if r.Status != http.StatusOK || len(saved.Critical) != 1 || len(saved.DeltaRules) != 1 {
			t.Fatalf("save with critical bands and delta rules: %d %s", r.Status, r.Body)
		}
		for _, bad := range []struct {
			change map[string]any
			field  string
		}{
			{map[string]any{"critical": []map[string]any{{"age_from_months": 0, "critical_low": 6, "critical_high": 3}}}, "critical.0.critical_high"},
			{map[string]any{"critical": []map[string]any{{"age_from_months": 0}}}, "critical.0.critical_low"},
			{map[string]any{"critical": []map[string]any{{"age_from_months": 0, "critical_high": 99}}}, "critical.0.critical_high"},
			{map[string]any{"critical": []map[string]any{{"age_from_months": 0, "age_to_months": 216, "critical_low": 2.8}}}, "critical"},
			{map[string]any{"critical": []map[string]any{{"age_from_months": 1, "critical_low": 2.8}}}, "critical"},
			{map[string]any{"delta_rules": []map[string]any{{"window_hours": 0, "abs": 1}}}, "delta_rules.0.window_hours"},
			{map[string]any{"delta_rules": []map[string]any{{"window_hours": 48}}}, "delta_rules.0.percent"},
			{map[string]any{"delta_rules": []map[string]any{{"window_hours": 48, "abs": 1}, {"window_hours": 48, "percent": 10}}}, "delta_rules.1.window_hours"},
		} {
			b := map[string]any{}
			for k, v := range body {
				b[k] = v
			}
			for k, v := range bad.change {
				b[k] = v
			}
			if r := admin.Do("PUT", "/api/lab-analytes/K", b); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"`+bad.field+`"`) {
				t.Errorf("%v: %d %s, want 422 naming %s", bad.change, r.Status, r.Body, bad.field)
			}
		}

		r = admin.Do("GET", "/api/lab-analytes/export", nil)
		csv := string(r.Body)
		head := "K,2823-3,numeric,mmol/L,1,1,15,,Potassium,Калий,钾,Kali,"
		for _, row := range []string{head + "reference,any,216,,3.4,5.3,,,,", head + "critical,,0,,2.8,6.2,,,,our lab", head + "delta,,,,,,72,,1.2,our lab"} {
			if r.Status != http.StatusOK || !strings.HasPrefix(csv, "analyte,loinc,type,unit,") || !strings.Contains(csv, row) {
				t.Fatalf("export lacks %q: %d %.400s", row, r.Status, csv)
			}
		}
		header := strings.SplitN(csv, "\n", 2)[0]
		file := header + "\n" +
			head + "reference,any,216,,3.5,5.1,,,,\n" +
			head + "reference,female,0,216,3.6,5.2,,,,\n" +
			head + "critical,,0,216,2.8,6.5,,,,children\n" +
			head + "critical,,216,,3.0,6.0,,,,adults\n" +
			"MG,19123-9,numeric,mmol/L,2,0.1,5,,Magnesium,Магний,镁,Magiê,reference,any,216,,0.66,1.07,,,,\n" +
			"NA,2951-2,numeric,mmol/L,0,80,200,,Sodium,Натрий,钠,Natri,reference,any,216,,136,145,,,,\n" +
			"NA,2951-2,numeric,mmol/L,0,80,200,,Sodium,Натрий,钠,Natri,reference,male,216,,abc,145,,,,\n" +
			"CL,2075-0,numeric,mmol/L,0,50,150,,Chloride,Хлор,氯,Clo,weird,any,216,,98,107,,,,\n"
		r = admin.Upload("POST", "/api/lab-analytes/import", "catalogue.csv", []byte(file))
		var rep struct {
			Inserted, Updated, Rejected int
			Errors                      []struct {
				Line    int
				Message string
			}
		}
		r.JSON(t, &rep)
		if r.Status != http.StatusOK || rep.Inserted != 1 || rep.Updated != 1 || rep.Rejected != 2 || rep.Errors[0].Line != 8 || rep.Errors[0].Message == "" || rep.Errors[1].Line != 9 {
			t.Fatalf("import: %d %s", r.Status, r.Body)
		}
		admin.Do("GET", "/api/lab-analytes", nil).JSON(t, &list)
		for _, a := range list.Data {
			switch a.Code {
			case "K":
				if len(a.Ranges) != 2 || len(a.Critical) != 2 || len(a.DeltaRules) != 0 {
					t.Errorf("potassium's bands are the file's: %+v %+v %+v", a.Ranges, a.Critical, a.DeltaRules)
				}
			case "NA":
				if len(a.Ranges) != 1 || a.Ranges[0]["low"] != 135.0 || len(a.Critical) != 1 {
					t.Errorf("sodium was rejected whole, its bands kept: %+v %+v", a.Ranges, a.Critical)
				}
			}
		}
		// A file of the earlier format: for an analyte the clinic has, its critical bands and
		// delta rules stay its own (the file knows nothing of ages or windows); for a new one, its
		// critical limits become critical bands at their ages (once, though both sexes' rows
		// carry them) and its delta numbers a rule over a year.
		legacy := "analyte,loinc,type,unit,decimals,plausible_low,plausible_high,delta_percent,delta_abs,answers,label_en,label_ru,label_zh,label_vi,sex,age_from_months,age_to_months,low,high,critical_low,critical_high\n" +
			"CREA,14682-9,numeric,umol/L,0,5,3000,40,,,Creatinine,Креатинин,肌酐,Creatinin,male,216,,62,106,,900\n" +
			"CREA,14682-9,numeric,umol/L,0,5,3000,40,,,Creatinine,Креатинин,肌酐,Creatinin,female,216,,44,80,,900\n" +
			"PHOS,2777-1,numeric,mmol/L,2,0.1,5,30,,,Phosphate,Фосфор,磷,Phospho,male,0,,0.81,1.45,0.3,3\n" +
			"PHOS,2777-1,numeric,mmol/L,2,0.1,5,30,,,Phosphate,Фосфор,磷,Phospho,female,0,,0.81,1.45,0.3,3\n"
		r = admin.Upload("POST", "/api/lab-analytes/import", "old.csv", []byte(legacy))
		if r.JSON(t, &rep); r.Status != http.StatusOK || rep.Updated != 1 || rep.Inserted != 1 || rep.Rejected != 0 {
			t.Fatalf("legacy import: %d %s", r.Status, r.Body)
		}
		admin.Do("GET", "/api/lab-analytes", nil).JSON(t, &list)
		for _, a := range list.Data {
			switch a.Code {
			case "CREA":
				if len(a.Ranges) != 2 || len(a.Critical) != 0 || len(a.DeltaRules) != 2 {
					t.Errorf("creatinine from the earlier format keeps its own bands and rules: %+v %+v %+v", a.Ranges, a.Critical, a.DeltaRules)
				}
			case "PHOS":
				if len(a.Ranges) != 2 || len(a.Critical) != 1 || a.Critical[0]["critical_high"] != 3.0 ||
					len(a.DeltaRules) != 1 || a.DeltaRules[0]["percent"] != 30.0 || a.DeltaRules[0]["window_hours"] != 8760.0 {
					t.Errorf("a new analyte from the earlier format: %+v %+v %+v", a.Ranges, a.Critical, a.DeltaRules)
				}
			}
		}
		// A row that cannot be read (a comma in an unquoted source) rejects its analyte whole:
		// potassium's critical bands are not half replaced.
		broken := header + "\n" +
			head + "reference,any,216,,3.5,5.1,,,,\n" +
			head + "critical,,0,,2.8,6.5,,,,CAP survey, 2024\n"
		r = admin.Upload("POST", "/api/lab-analytes/import", "broken.csv", []byte(broken))
		if r.JSON(t, &rep); r.Status != http.StatusOK || rep.Updated != 0 || rep.Rejected == 0 {
			t.Fatalf("a broken row: %d %s", r.Status, r.Body)
		}
		admin.Do("GET", "/api/lab-analytes", nil).JSON(t, &list)
		for _, a := range list.Data {
			if a.Code == "K" && len(a.Critical) != 2 {
				t.Errorf("potassium's critical bands were touched by a file with a broken row: %+v", a.Critical)
			}
		}
		// A panel's definition: LOINC checked, turnaround bounded, its analytes known and once each.
		var defs struct {
			Data []struct {
				Code        string   `json:"code"`
				LOINC       string   `json:"loinc"`
				ServiceCode string   `json:"service_code"`
				Analytes    []string `json:"analytes"`
			}
		}
		service := func(code string) string {
			admin.Do("GET", "/api/lab-test-definitions", nil).JSON(t, &defs)
			for _, d := range defs.Data {
				if d.Code == code {
					return d.ServiceCode
				}
			}
			return "(none)"
		}
		// The shipped tests are charged as the starter price list's services (issue 55, m9).
		if bmp, glu, us := service("BMP"), service("GLU"), service("US-ABD"); bmp != "LAB-BMP" || glu != "LAB-FBS" || us != "" {
			t.Fatalf("shipped links: BMP %q, GLU %q, US-ABD %q", bmp, glu, us)
		}
		if len(defs.Data) < 30 || defs.Data[0].Code == "" {
			t.Fatalf("definitions: %+v", defs.Data[:1])
		}
		r = admin.Do("PUT", "/api/lab-test-definitions/ELEC", map[string]any{"loinc": "24326-1", "turnaround_hours": 12, "analytes": []string{"NA", "K", "CL", "MG"},
			"service_code": " lab-lytes "})
		var tr struct {
			TurnaroundHours int `json:"turnaround_hours"`
			Analytes        []struct{ Code string }
		}
		r.JSON(t, &tr)
		if r.Status != http.StatusOK || tr.TurnaroundHours != 12 || len(tr.Analytes) != 4 || tr.Analytes[3].Code != "MG" {
			t.Fatalf("definition: %d %s", r.Status, r.Body)
		}
		if got := service("ELEC"); got != "LAB-LYTES" {
			t.Fatalf("linked service: %q", got)
		}
	})
}
