package catalogue

import (
	"context"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestEveryLOINCCodeHasItsSources: a shipped LOINC code is one that docs/lab-catalogue.md
// names with the sources it was checked against (issue 35), and has the shape of one (digits,
// a dash, the check digit).
func TestEveryLOINCCodeHasItsSources(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lab-catalogue.md")
	if err != nil {
		t.Fatal(err)
	}
	table := string(doc)
	if !validCheckDigit("718-7") || validCheckDigit("718-6") || !validCheckDigit("2160-0") || validCheckDigit("2160-1") {
		t.Fatal("the check digit rule")
	}
	check := func(code, where string) {
		if code == "" {
			return
		}
		if !loincPattern.MatchString(code) || !validCheckDigit(code) {
			t.Errorf("%s: %q is not a LOINC code (shape or check digit)", where, code)
		}
		if !strings.Contains(table, code) {
			t.Errorf("%s: LOINC %s is not in docs/lab-catalogue.md with its sources", where, code)
		}
	}
	for _, f := range []struct {
		data     []byte
		columns  int
		code, at int
	}{{labAnalytesStarter, 14, 0, 1}, {labUnitsStarter, 5, 0, 4}, {labTestResultsStarter, 4, 0, 1}} {
		rows, err := readTSV(f.data, f.columns)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			check(r[f.at], r[f.code])
		}
	}
}

// TestEveryRangeNamesItsSource: each shipped reference range, critical band and delta rule
// says where its numbers come from (a guideline, a handbook, the research notes, or a
// laboratory convention for the clinic's medical lead to confirm).
func TestEveryRangeNamesItsSource(t *testing.T) {
	for _, f := range []struct {
		name        string
		data        []byte
		columns, at int
	}{{"lab_ranges.tsv", labRangesStarter, 7, 6}, {"lab_critical_limits.tsv", labCriticalStarter, 6, 5}, {"lab_delta_rules.tsv", labDeltaStarter, 5, 4}} {
		rows, err := readTSV(f.data, f.columns)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if strings.TrimSpace(r[f.at]) == "" {
				t.Errorf("%s: the row of %s (%s, %s) names no source", f.name, r[0], r[1], r[2])
			}
		}
	}
}

// TestCriticalBandsCoverEveryAge (issue 52, C1): the analytes with critical limits have them
// from birth to old age, band after band without a gap, so no child loses them.
func TestCriticalBandsCoverEveryAge(t *testing.T) {
	rows, err := readTSV(labCriticalStarter, 6)
	if err != nil {
		t.Fatal(err)
	}
	bands := map[string][][2]int{}
	for _, r := range rows {
		from, _ := strconv.Atoi(r[1])
		to := -1
		if r[2] != "" {
			to, _ = strconv.Atoi(r[2])
		}
		bands[r[0]] = append(bands[r[0]], [2]int{from, to})
	}
	for _, code := range []string{"K", "NA", "GLU", "GLUF", "CA", "HCO3", "HGB", "PLT", "WBC", "INR", "ANC"} {
		list := bands[code]
		if len(list) == 0 {
			t.Errorf("%s has no critical limits", code)
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i][0] < list[j][0] })
		at := 0
		for _, b := range list {
			if b[0] != at {
				t.Errorf("%s: critical bands leave a gap or overlap at %d months (next starts at %d)", code, at, b[0])
			}
			at = b[1]
		}
		if at != -1 {
			t.Errorf("%s: the last critical band ends at %d months: old age uncovered", code, at)
		}
	}
}

// TestResultsCatalogueIsInstalled: every shipped laboratory test reports its analytes, on
// both engines, with their units, answers and ranges as the domain rules read them.
func TestResultsCatalogueIsInstalled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		if err := InstallStarter(ctx, db); err != nil {
			t.Fatal(err)
		}
		s := &Store{DB: db}
		tests, err := s.LabTests(ctx, "en")
		if err != nil {
			t.Fatal(err)
		}
		for _, lt := range tests {
			tr, err := s.TestResults(ctx, lt.Code, "ru")
			if err != nil || len(tr.Analytes) == 0 {
				t.Errorf("%s reports nothing: %v", lt.Code, err)
			}
		}
		cbc, err := s.TestResults(ctx, "CBC", "ru")
		if err != nil {
			t.Fatal(err)
		}
		if cbc.LOINC != "58410-2" || len(cbc.Analytes) != 11 || cbc.Analytes[2].Code != "HGB" || cbc.Analytes[2].Label != "Гемоглобин" {
			t.Fatalf("CBC: %+v", cbc)
		}
		hb := cbc.Analytes[2]
		v, err := hb.Canonical(12.5, "g/dL")
		if err != nil {
			t.Fatal(err)
		}
		woman, man := hb.LimitsFor("female", 360), hb.LimitsFor("male", 360)
		if Flag(v, woman) != FlagNormal || Flag(v, man) != FlagLow {
			t.Errorf("Hb 12.5 g/dL: woman %s, man %s", Flag(v, woman), Flag(v, man))
		}
		if Flag(60, hb.LimitsFor("female", 2)) != FlagCriticalLow || Flag(60, hb.LimitsFor("other", 420)) != FlagCriticalLow {
			t.Error("Hb 60 g/L at 2 months and in a patient of sex other: critical, from the installed catalogue")
		}
		glu, err := s.TestResults(ctx, "GLU", "en")
		if err != nil {
			t.Fatal(err)
		}
		g := glu.Analytes[0]
		mmol, err := g.Canonical(126, "mg/dL")
		if err != nil || Format(mmol, g.Decimals) != "7.0" || Flag(mmol, g.LimitsFor("male", 500)) != FlagHigh {
			t.Errorf("126 mg/dL glucose: %v %v %s", mmol, err, Flag(mmol, g.LimitsFor("male", 500)))
		}
		ua, err := s.TestResults(ctx, "UA", "vi")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range ua.Analytes {
			if a.Type == Coded {
				if flag, err := a.AnswerFlag("negative"); err != nil || flag != FlagNormal {
					t.Errorf("%s negative: %q %v", a.Code, flag, err)
				}
			}
		}
		// Installing again (every start) adds nothing twice.
		if err := database.SetCounter(ctx, db, "catalogue:starter", 0); err != nil {
			t.Fatal(err)
		}
		if err := InstallStarter(ctx, db); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_ranges WHERE analyte = 'HGB'`); n != 9 {
			t.Errorf("haemoglobin ranges after a second install: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_critical_limits WHERE analyte = 'K'`); n != 3 {
			t.Errorf("potassium critical bands after a second install: %d", n)
		}
	})
}

// TestEveryDeltaRuleIsDocumented: each shipped delta rule has its row (analyte, window and
// limit) in docs/lab-catalogue.md's delta table.
func TestEveryDeltaRuleIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lab-catalogue.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Delta checks")
	rows, err := readTSV(labDeltaStarter, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		want := "| " + r[0] + " | " + r[1] + " h |"
		if !strings.Contains(section, want) {
			t.Errorf("delta rule %s over %s h has no row %q in docs/lab-catalogue.md", r[0], r[1], want)
		}
	}
}

// TestKnowledgeIndexNamesRealFiles: docs/knowledge.md, the index from each clinical rule to
// its file, names files that exist.
func TestKnowledgeIndexNamesRealFiles(t *testing.T) {
	doc, err := os.ReadFile("../../docs/knowledge.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, part := range strings.Split(string(doc), "`")[1:] {
		if !strings.HasPrefix(part, "internal/") {
			continue
		}
		path := strings.Fields(part)[0]
		if _, err := os.Stat("../../" + path); err != nil {
			t.Errorf("docs/knowledge.md names %s, which does not exist", path)
		}
		seen++
	}
	if seen < 10 {
		t.Errorf("docs/knowledge.md names %d files", seen)
	}
}

// TestCriticalLimitsLieOutsideTheReferenceIntervals: a shipped critical limit is never inside
// a reference interval of the same ages (a healthy patient must never alert): the critical
// low below every overlapping band's low, the critical high above every band's high.
func TestCriticalLimitsLieOutsideTheReferenceIntervals(t *testing.T) {
	ranges, err := readTSV(labRangesStarter, 7)
	if err != nil {
		t.Fatal(err)
	}
	critical, err := readTSV(labCriticalStarter, 6)
	if err != nil {
		t.Fatal(err)
	}
	ages := func(from, to string) (int, int) {
		f, _ := strconv.Atoi(from)
		end := 1 << 30
		if to != "" {
			end, _ = strconv.Atoi(to)
		}
		return f, end
	}
	num := func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	for _, c := range critical {
		cf, ct := ages(c[1], c[2])
		for _, r := range ranges {
			if r[0] != c[0] {
				continue
			}
			rf, rt := ages(r[2], r[3])
			if rf >= ct || cf >= rt {
				continue
			}
			if cl, ok := num(c[3]); ok {
				if low, ok := num(r[4]); ok && cl >= low {
					t.Errorf("%s: the critical low %v (from %d months) is not below the reference low %v (%s, from %d months)", c[0], cl, cf, low, r[1], rf)
				}
			}
			if ch, ok := num(c[4]); ok {
				if high, ok := num(r[5]); ok && ch <= high {
					t.Errorf("%s: the critical high %v (from %d months) is not above the reference high %v (%s, from %d months)", c[0], ch, cf, high, r[1], rf)
				}
			}
		}
	}
}
