package result_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// A flagCase is one row of issue 52's case table: a patient of an age and sex, a value typed
// in a unit and a language, and what the server must make of it — the stored value, the flag,
// the range note, whether the ordering doctor is alerted and how the order ranks — with the
// row's source.
type flagCase struct {
	name       string
	age        string // "7y", "2m", "17y364d", "18y", "" (no birth date)
	sex        string
	test       string
	analyte    string
	value      string
	answer     string // a coded answer instead of a value
	unit       string
	lang       string
	status     int    // 200 unless refused
	field      string // the field a refusal names
	stored     string // the canonical value stored
	comparator string
	flag       string
	note       string
	alerts     int
	attention  int
	source     string
}

// birthDate is the birth date of a patient of age on today.
func birthDate(age string, today time.Time) string {
	if age == "" {
		return ""
	}
	var y, m, d int
	rest := age
	if i := strings.Index(rest, "y"); i >= 0 {
		fmt.Sscan(rest[:i], &y)
		rest = rest[i+1:]
	}
	if i := strings.Index(rest, "m"); i >= 0 {
		fmt.Sscan(rest[:i], &m)
		rest = rest[i+1:]
	}
	if i := strings.Index(rest, "d"); i >= 0 {
		fmt.Sscan(rest[:i], &d)
	}
	return today.AddDate(-y, -m, -d).Format(time.DateOnly)
}

var flagCases = []flagCase{
	// C1: critical limits belong to the analyte, whatever reference band applies or none.
	{name: "K-child-critical-high", age: "7y", sex: "male", test: "ELEC", analyte: "K", value: "7.0", unit: "mmol/L",
		stored: "7.0", flag: "HH", alerts: 1, attention: 2, source: "Kost GJ, Pediatrics 1991;88:597; CLSI GP47"},
	{name: "K-17y364d-critical-high", age: "17y364d", sex: "female", test: "ELEC", analyte: "K", value: "6.8", unit: "mmol/L",
		stored: "6.8", flag: "HH", alerts: 1, attention: 2, source: "Kost 1991 (children 6.5); the day before the 18th birthday"},
	{name: "K-18y-critical-high", age: "18y", sex: "female", test: "ELEC", analyte: "K", value: "6.8", unit: "mmol/L",
		stored: "6.8", flag: "HH", alerts: 1, attention: 2, source: "CAP surveys: adult 6.0"},
	{name: "K-child-6.2-high-not-critical", age: "7y", sex: "male", test: "ELEC", analyte: "K", value: "6.2", unit: "mmol/L",
		stored: "6.2", flag: "H", attention: 1, source: "Nelson: child 3.4–4.7; Kost 1991: critical 6.5"},
	{name: "K-child-normal", age: "7y", sex: "male", test: "ELEC", analyte: "K", value: "4.2", unit: "mmol/L",
		stored: "4.2", flag: "N", source: "Nelson: child 3.4–4.7"},
	{name: "glucose-child-critical-low", age: "8y", sex: "female", test: "GLU", analyte: "GLUF", value: "2.0", unit: "mmol/L",
		stored: "2.0", flag: "LL", alerts: 1, attention: 2, source: "ISPAD 2022 level 2 < 3.0 mmol/L"},
	{name: "glucose-child-critical-high", age: "8y", sex: "female", test: "GLU", analyte: "GLUF", value: "30", unit: "mmol/L",
		stored: "30", flag: "HH", alerts: 1, attention: 2, source: "CAP surveys (≥ 22.2 at every age)"},
	{name: "glucose-child-mgdL-critical-low", age: "3y", sex: "male", test: "GLU", analyte: "GLUF", value: "40", unit: "mg/dL",
		stored: "2.2", flag: "LL", alerts: 1, attention: 2, source: "ISPAD 2022; 40 mg/dL = 2.2 mmol/L"},
	{name: "Hb-infant-2m-critical", age: "2m", sex: "female", test: "CBC", analyte: "HGB", value: "60", unit: "g/L",
		stored: "60", flag: "LL", alerts: 1, attention: 2, source: "CAP surveys: Hb ≤ 70 g/L at any age; Harriet Lane 2 months 94–130"},
	{name: "Hb-infant-2m-normal", age: "2m", sex: "male", test: "CBC", analyte: "HGB", value: "110", unit: "g/L",
		stored: "110", flag: "N", source: "Harriet Lane: 94–141 g/L at 2–6 months"},
	{name: "WBC-toddler-15-normal", age: "2y", sex: "male", test: "CBC", analyte: "WBC", value: "15.0", unit: "10*9/L",
		stored: "15.0", flag: "N", source: "Harriet Lane / Nathan and Oski: 6.0–17.5 at 1–3 years"},
	{name: "ANC-critical", age: "45y", sex: "female", test: "CBC", analyte: "ANC", value: "0.25", unit: "10*9/L",
		stored: "0.25", flag: "LL", alerts: 1, attention: 2, source: "CAP surveys, ICSH: ANC < 0.5"},
	{name: "calcium-critical-low", age: "50y", sex: "male", test: "BMP", analyte: "CA", value: "1.50", unit: "mmol/L",
		stored: "1.50", flag: "LL", alerts: 1, attention: 2, source: "CAP surveys (Howanitz 2002; Wagar 2007)"},
	{name: "calcium-mgdL-critical-high", age: "50y", sex: "male", test: "BMP", analyte: "CA", value: "14.0", unit: "mg/dL",
		stored: "3.49", flag: "HH", alerts: 1, attention: 2, source: "CAP surveys: 12–13 mg/dL"},
	{name: "TBIL-newborn-10d-300", age: "10d", sex: "female", test: "LFT", analyte: "TBIL", value: "300", unit: "umol/L",
		stored: "300", flag: "HH", note: "no_band", alerts: 1, attention: 2, source: "Kost 1991: newborn bilirubin ≥ 15 mg/dL (257 µmol/L) is critical"},
	{name: "Hb-newborn-224-no-alert", age: "2d", sex: "male", test: "CBC", analyte: "HGB", value: "224", unit: "g/L",
		stored: "224", flag: "N", source: "Harriet Lane: 145–225 g/L at 1–3 days; the critical high lies above it"},
	// C2: every sex is covered.
	{name: "Hb-sex-other-critical", age: "35y", sex: "other", test: "CBC", analyte: "HGB", value: "60", unit: "g/L",
		stored: "60", flag: "LL", note: "any_sex", alerts: 1, attention: 2, source: "CAP surveys: the Hb limit does not depend on sex"},
	{name: "Hb-sex-unknown-union-normal", age: "35y", sex: "unknown", test: "CBC", analyte: "HGB", value: "125", unit: "g/L",
		stored: "125", flag: "N", note: "any_sex", source: "union of 120–155 (women) and 135–175 (men)"},
	{name: "Hb-sex-other-below-every-band", age: "35y", sex: "other", test: "CBC", analyte: "HGB", value: "115", unit: "g/L",
		stored: "115", flag: "L", note: "any_sex", attention: 1, source: "below both sexes' bands"},
	// M4/item 6: "no range applies" is never blank, and never ranked as normal (a patient
	// without a birth date cannot be registered here; catalogue's TestCriticalLimitsBelongToTheAnalyte
	// holds the strictest limits for one).
	{name: "TSH-child-no-band", age: "6y", sex: "female", test: "THYROID", analyte: "TSH", value: "2.5", unit: "m[IU]/L",
		stored: "2.5", flag: "", note: "no_band", attention: 1, source: "no paediatric TSH band shipped"},
	// C3: a Vietnamese grouping dot is never a decimal point.
	{name: "ALT-vietnamese-thousands-dot", age: "40y", sex: "male", test: "LFT", analyte: "ALT", value: "1.500", unit: "U/L", lang: "vi",
		status: 422, field: "results.0.value", source: "CLDR vi: decimal ',', group '.'"},
	{name: "ALT-zh-1.500-refused", age: "40y", sex: "male", test: "LFT", analyte: "ALT", value: "1.500", unit: "U/L", lang: "zh",
		status: 422, field: "results.0.value", source: "ALT is reported in whole numbers: a point before three digits groups thousands"},
	{name: "ALT-en-1.500-refused", age: "40y", sex: "male", test: "LFT", analyte: "ALT", value: "1.500", unit: "U/L",
		status: 422, field: "results.0.value", source: "ALT is reported in whole numbers: a point before three digits groups thousands"},
	{name: "K-en-4.125-three-decimals-reported-rounded", age: "40y", sex: "male", test: "ELEC", analyte: "K", value: "4.125", unit: "mmol/L",
		stored: "4.1", flag: "N", source: "K is reported with one decimal (RCPath/ACB harmonisation): three decimals are a precise value, not a thousands group, reported at the analyte's precision"},
	{name: "K-en-5.96-mmol-critical", age: "40y", sex: "male", test: "ELEC", analyte: "K", value: "5.96", unit: "mmol/L",
		stored: "6.0", flag: "HH", alerts: 1, attention: 2, source: "CLSI GP47: critical limits apply to the reported value; 5.96 is reported 6.0, at the critical limit"},
	{name: "K-en-5.96-meq-critical", age: "40y", sex: "male", test: "ELEC", analyte: "K", value: "5.96", unit: "meq/L",
		stored: "6.0", flag: "HH", alerts: 1, attention: 2, source: "the same reading in an identical unit is judged the same (issue 54 clinician's review)"},
	{name: "TSH-en-0.004-kept", age: "40y", sex: "female", test: "TSH", analyte: "TSH", value: "0.004", unit: "m[IU]/L",
		stored: "0.004", flag: "L", attention: 1, source: "a suppressed TSH is reported to 0.001 mIU/L: never rounded to 0.00 (issue 54)"},
	{name: "ALT-vietnamese-plain", age: "40y", sex: "male", test: "LFT", analyte: "ALT", value: "1500", unit: "U/L", lang: "vi",
		stored: "1500", flag: "H", attention: 1, source: "CLDR vi"},
	{name: "glucose-vietnamese-decimal-comma", age: "40y", sex: "male", test: "GLU", analyte: "GLUF", value: "5,4", unit: "mmol/L", lang: "vi",
		stored: "5.4", flag: "N", source: "CLDR vi: decimal ','"},
	// M2/item 4: a quantitative result carries its unit.
	{name: "glucose-without-unit", age: "40y", sex: "male", test: "GLU", analyte: "GLUF", value: "90",
		status: 422, field: "results.0.unit", source: "HL7 v2 OBX-6; FHIR Quantity"},
	{name: "ESR-without-unit-one-unit-only", age: "40y", sex: "male", test: "ESR", analyte: "ESR", value: "10",
		stored: "10", flag: "N", source: "an analyte with one unit: it is that unit"},
	// M3/item 5: censored values keep their comparator and are flagged against their limit.
	{name: "TSH-below-detection", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: "<0.01", unit: "m[IU]/L",
		stored: "0.01", comparator: "<", flag: "L", attention: 1, source: "CLSI EP17; FHIR Quantity.comparator"},
	{name: "ALT-above-range", age: "40y", sex: "female", test: "LFT", analyte: "ALT", value: "> 500", unit: "U/L",
		stored: "500", comparator: ">", flag: "H", attention: 1, source: "FHIR Quantity.comparator"},
	{name: "CRP-below-detection-normal", age: "40y", sex: "female", test: "CRP", analyte: "CRP", value: "≤1", unit: "mg/L",
		stored: "1", comparator: "<=", flag: "N", source: "0–5 mg/L; a CRP is never below 0"},
	{name: "TSH-censored-either-side", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: "<0.5", unit: "m[IU]/L",
		stored: "0.5", comparator: "<", flag: "", note: "censored", attention: 1, source: "either side of 0.40: not ranked as normal"},
	// M5, minor 10 (item 7): coded results that need action stand out.
	{name: "hCG-positive-flagged", age: "25y", sex: "female", test: "PREG", analyte: "UHCG", answer: "positive",
		flag: "A", attention: 1, source: "MHRA valproate/isotretinoin pregnancy prevention; HL7 v2 table 0078 A"},
	{name: "HIV-screen-reactive", age: "25y", sex: "female", test: "HIV", analyte: "HIVAGAB", answer: "reactive",
		flag: "A", attention: 1, source: "CDC 2014 HIV testing algorithm: a reactive screen needs confirmatory testing"},
	{name: "HCV-screen-indeterminate", age: "25y", sex: "male", test: "HCV", analyte: "HCVAB", answer: "indeterminate",
		flag: "A", attention: 1, source: "WHO 2019: an indeterminate screen is retested"},
	{name: "HBsAg-non-reactive", age: "25y", sex: "male", test: "HBSAG", analyte: "HBSAG", answer: "non-reactive",
		flag: "N", source: "HL7 v2 table 0078 N"},
	{name: "TSH-ultrasensitive-below-0.001-kept", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: "<0.001", unit: "m[IU]/L",
		stored: "0.001", comparator: "<", flag: "L", attention: 1, source: "a censored limit as the laboratory wrote it"},
	{name: "TSH-below-zero-impossible", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: "<0", unit: "m[IU]/L",
		status: 422, field: "results.0.value", source: "no TSH lies below 0"},
	{name: "TSH-negative-zero-stored-as-zero", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: "-0", unit: "m[IU]/L",
		stored: "0", flag: "L", attention: 1, source: "−0 is 0"},
	{name: "value-too-long", age: "40y", sex: "female", test: "THYROID", analyte: "TSH", value: strings.Repeat("0", 40) + "5", unit: "m[IU]/L",
		status: 422, field: "results.0.value", source: "ASVS 5.1.4: a measurement is not 41 characters"},
	// Minor 1–3 and 11: guideline limits.
	{name: "HDL-woman-48mgdL-low", age: "40y", sex: "female", test: "LIPID", analyte: "HDL", value: "48", unit: "mg/dL",
		stored: "1.24", flag: "L", attention: 1, source: "NCEP ATP III: < 50 mg/dL in women"},
	{name: "TG-150mgdL-borderline", age: "40y", sex: "female", test: "LIPID", analyte: "TG", value: "150", unit: "mg/dL",
		stored: "1.69", flag: "H", attention: 1, source: "NCEP ATP III: 150–199 mg/dL borderline high"},
	{name: "TG-149mgdL-normal", age: "40y", sex: "female", test: "LIPID", analyte: "TG", value: "149", unit: "mg/dL",
		stored: "1.68", flag: "N", source: "NCEP ATP III: < 150 mg/dL normal"},
	{name: "cholesterol-200mgdL-borderline", age: "40y", sex: "female", test: "LIPID", analyte: "CHOL", value: "200", unit: "mg/dL",
		stored: "5.17", flag: "H", attention: 1, source: "NCEP ATP III: < 200 mg/dL desirable"},
	{name: "LDL-3.0-above-goal", age: "40y", sex: "female", test: "LIPID", analyte: "LDL", value: "3.00", unit: "mmol/L",
		stored: "3.00", flag: "H", attention: 1, source: "ESC/EAS 2019: < 3.0 mmol/L the goal at low risk"},
	{name: "HDL-woman-50mgdL-normal", age: "40y", sex: "female", test: "LIPID", analyte: "HDL", value: "50", unit: "mg/dL",
		stored: "1.29", flag: "N", source: "NCEP ATP III: < 50 mg/dL low in women"},
	{name: "ESR-woman-80y-35", age: "80y", sex: "female", test: "ESR", analyte: "ESR", value: "35", unit: "mm/h",
		stored: "35", flag: "N", source: "Miller 1983: (age + 10)/2 = 45 for women of 80"},
	{name: "glucose-51mgdL-rounds-to-critical", age: "40y", sex: "male", test: "GLU", analyte: "GLUF", value: "51", unit: "mg/dL",
		stored: "2.8", flag: "LL", alerts: 1, attention: 2, source: "rounded to the reporting precision before flagging: the safe side (documented)"},
}

// TestIssue52Flags: every row of the case table through the real API, on both engines.
func TestIssue52Flags(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		today := time.Now().UTC()
		for i, fc := range flagCases {
			t.Run(fc.name, func(t *testing.T) {
				p := map[string]any{"first_name": "Case", "last_name": fmt.Sprintf("N%d", i), "sex": fc.sex}
				if b := birthDate(fc.age, today); b != "" {
					p["birth_date"] = b
				}
				var pt struct{ ID int64 }
				r := c.rec.Do("POST", "/api/patients", p)
				if r.JSON(t, &pt); r.Status != http.StatusCreated {
					t.Fatalf("patient: %d %s", r.Status, r.Body)
				}
				var a struct{ ID int64 }
				starts := today.Add(time.Duration(i+2) * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
				c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": pt.ID, "doctor_id": c.doctorID,
					"starts_at": starts, "duration_minutes": 15, "type": "new", "reason": "Case"}).JSON(t, &a)
				c.visitID, c.visitPath, c.visitVersion = a.ID, fmt.Sprintf("/api/appointments/%d/visit", a.ID), 0
				c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
				c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
				o := find(c.order(t, fc.test), fc.test)
				if o.ID == 0 {
					t.Fatalf("no %s order", fc.test)
				}
				lang := fc.lang
				if lang == "" {
					lang = "en"
				}
				c.nurse.SetCookie("language", lang)
				defer c.nurse.SetCookie("language", "en")
				in := map[string]any{"analyte": fc.analyte, "value": fc.value}
				if fc.answer != "" {
					in = map[string]any{"analyte": fc.analyte, "answer": fc.answer}
				}
				if fc.unit != "" {
					in["unit"] = fc.unit
				}
				r = record(c.nurse, o, true, in)
				want := fc.status
				if want == 0 {
					want = http.StatusOK
				}
				if r.Status != want {
					t.Fatalf("%s: %d %s, want %d", fc.source, r.Status, r.Body, want)
				}
				if want != http.StatusOK {
					if !strings.Contains(string(r.Body), `"`+fc.field+`"`) {
						t.Errorf("the refusal names %s: %s", fc.field, r.Body)
					}
					if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_results WHERE order_id = $1`, o.ID); n != 0 {
						t.Errorf("a refused value was stored")
					}
					return
				}
				var rec struct {
					Order  order `json:"order"`
					Alerts int   `json:"alerts"`
				}
				r.JSON(t, &rec)
				var got *result
				for i := range rec.Order.Results {
					if rec.Order.Results[i].Analyte == fc.analyte {
						got = &rec.Order.Results[i]
					}
				}
				if got == nil || (got.Value == nil && fc.answer == "") {
					t.Fatalf("no %s result: %s", fc.analyte, r.Body)
				}
				if got.Value == nil {
					got.Value = new(string)
				}
				if *got.Value != fc.stored || got.Flag != fc.flag || got.Range.Note != fc.note || got.Comparator != fc.comparator ||
					rec.Alerts != fc.alerts || rec.Order.Attention != fc.attention {
					t.Errorf("%s\n got value %s%s flag %q note %q alerts %d attention %d\nwant value %s%s flag %q note %q alerts %d attention %d",
						fc.source, got.Comparator, *got.Value, got.Flag, got.Range.Note, rec.Alerts, rec.Order.Attention,
						fc.comparator, fc.stored, fc.flag, fc.note, fc.alerts, fc.attention)
				}
			})
		}
	})
}

// TestACriticalValueRecordedAgainKeepsOneAlert: a preliminary critical potassium recorded
// again, and then corrected still critical, leaves one open alert, on the current result —
// never a second alert to acknowledge and escalate for the same value.
func TestACriticalValueRecordedAgainKeepsOneAlert(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		o := find(c.order(t, "ELEC"), "ELEC")
		for i, value := range []string{"6.8", "6.9"} {
			r := record(c.nurse, o, false, map[string]any{"analyte": "K", "unit": "mmol/L", "value": value})
			var rec struct {
				Order  order `json:"order"`
				Alerts int   `json:"alerts"`
			}
			if r.JSON(t, &rec); r.Status != http.StatusOK || rec.Alerts != 1 {
				t.Fatalf("record %d: %d %s", i, r.Status, r.Body)
			}
			o = rec.Order
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts WHERE order_id = $1`, o.ID); n != 1 {
			t.Fatalf("alerts for one critical value recorded twice: %d, want 1", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM critical_alerts a JOIN lab_results r ON r.id = a.result_id
			WHERE a.order_id = $1 AND a.is_open = 1 AND r.is_current = 1`, o.ID); n != 1 {
			t.Fatalf("the open alert is not on the current result")
		}
	})
}
