package result

import "testing"

func str(s string) *string { return &s }

// TestLinesReadAsEachLanguageWritesThem: a printed result carries its value in both units
// when typed in another, its flag in words, the range that applied, and a preliminary mark;
// Russian writes Cyrillic units and a decimal comma.
func TestLinesReadAsEachLanguageWritesThem(t *testing.T) {
	k := Result{Label: "Kali", Type: "numeric", Value: str("6.8"), Unit: "mmol/L", Entered: "6.8", EnteredUnit: "mmol/L", Flag: "HH",
		Range: Range{Low: str("3.5"), High: str("5.1")}, Status: Final}
	glu := Result{Label: "Glucose", Type: "numeric", Value: str("7.0"), Unit: "mmol/L", Entered: "126", EnteredUnit: "mg/dL", Flag: "N",
		Range: Range{Low: str("3.9"), High: str("7.8")}, Status: Preliminary}
	hbs := Result{Label: "HBsAg", Type: "coded", Answer: "positive", Flag: "A", Status: Final}
	crea := Result{Label: "Creatinine", Type: "numeric", Value: str("95"), Unit: "umol/L", EnteredUnit: "umol/L", Entered: "95", Flag: "N", Delta: "U", Status: Final}
	for _, c := range []struct {
		lang string
		r    Result
		want string
	}{
		{"en", k, "Kali: 6.8 mmol/L — critically high (reference 3.5–5.1 mmol/L)"},
		{"ru", k, "Kali: 6,8 ммоль/л — критически высоко (референсный интервал 3,5–5,1 ммоль/л)"},
		{"en", glu, "Glucose: 7.0 mmol/L (126 mg/dL) (reference 3.9–7.8 mmol/L) — preliminary"},
		{"zh", hbs, "HBsAg：阳性 — 异常"},
		{"vi", crea, "Creatinine: 95 µmol/L, tăng mạnh so với lần trước"},
		// Issue 52: a censored value prints its comparator; a range with no interval says so;
		// the union of the sexes' bands is said to be one; a reactive screen needs confirming.
		{"en", Result{Label: "TSH", Type: "numeric", Value: str("0.01"), Comparator: "<", Unit: "m[IU]/L", EnteredUnit: "m[IU]/L", Flag: "L",
			Range: Range{Low: str("0.4"), High: str("4")}, Status: Final}, "TSH: < 0.01 mIU/L — low (reference 0.4–4 mIU/L)"},
		{"ru", Result{Label: "Калий", Type: "numeric", Value: str("7.0"), Unit: "mmol/L", EnteredUnit: "mmol/L", Flag: "HH",
			Range: Range{Note: "no_band"}, Status: Final}, "Калий: 7,0 ммоль/л — критически высоко (нет референсного интервала для возраста и пола пациента)"},
		{"en", Result{Label: "Haemoglobin", Type: "numeric", Value: str("125"), Unit: "g/L", EnteredUnit: "g/L", Flag: "N",
			Range: Range{Low: str("120"), High: str("175"), Note: "any_sex"}, Status: Final},
			"Haemoglobin: 125 g/L (reference 120–175 g/L; sex not recorded: the male and female ranges together)"},
		{"vi", Result{Label: "HIV", Type: "coded", Answer: "reactive", Flag: "A", Status: Final}, "HIV: có phản ứng — cần xét nghiệm khẳng định — bất thường"},
	} {
		if got := c.r.Line(c.lang); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
	lines := Lines([]Order{{TestLabel: "Panel", Results: []Result{k, glu}}, {TestLabel: "HBsAg", Results: []Result{hbs}}, {TestLabel: "XR"}}, "en")
	if len(lines) != 4 || lines[0] != "Panel:" || lines[3] != hbs.Line("en") {
		t.Errorf("lines: %q", lines)
	}
	// Issue 54: results an external laboratory performed name it after the test's results.
	external := hbs
	external.Performer = "City Reference Laboratory"
	lines = Lines([]Order{{TestLabel: "HBsAg", Results: []Result{external}}}, "ru")
	if len(lines) != 2 || lines[1] != "Выполнено в лаборатории: City Reference Laboratory" {
		t.Errorf("performed elsewhere: %q", lines)
	}
}
