package catalogue

import (
	"context"
	"os"
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

// TestEveryRangeNamesItsSource: each shipped reference or critical range says where its
// numbers come from (a guideline, the research notes, or a laboratory convention for the
// clinic's medical lead to confirm).
func TestEveryRangeNamesItsSource(t *testing.T) {
	rows, err := readTSV(labRangesStarter, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if strings.TrimSpace(r[8]) == "" {
			t.Errorf("the range of %s (%s, from %s months) names no source", r[0], r[1], r[2])
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
		if cbc.LOINC != "58410-2" || len(cbc.Analytes) != 10 || cbc.Analytes[2].Code != "HGB" || cbc.Analytes[2].Label != "Гемоглобин" {
			t.Fatalf("CBC: %+v", cbc)
		}
		hb := cbc.Analytes[2]
		v, err := hb.Canonical(12.5, "g/dL")
		if err != nil {
			t.Fatal(err)
		}
		woman, okW := hb.RangeFor("female", 360)
		man, okM := hb.RangeFor("male", 360)
		if Flag(v, woman, okW) != FlagNormal || Flag(v, man, okM) != FlagLow {
			t.Errorf("Hb 12.5 g/dL: woman %s, man %s", Flag(v, woman, okW), Flag(v, man, okM))
		}
		glu, err := s.TestResults(ctx, "GLU", "en")
		if err != nil {
			t.Fatal(err)
		}
		g := glu.Analytes[0]
		mmol, err := g.Canonical(126, "mg/dL")
		r, ok := g.RangeFor("male", 500)
		if err != nil || Format(mmol, g.Decimals) != "7.0" || Flag(mmol, r, ok) != FlagHigh {
			t.Errorf("126 mg/dL glucose: %v %v %s", mmol, err, Flag(mmol, r, ok))
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
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_ranges WHERE analyte = 'HGB'`); n != 6 {
			t.Errorf("haemoglobin ranges after a second install: %d", n)
		}
	})
}

// TestEveryDeltaLimitNamesItsSource: an analyte with a delta limit has its row, limit and
// source in docs/lab-catalogue.md's delta table.
func TestEveryDeltaLimitNamesItsSource(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lab-catalogue.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Delta checks")
	rows, err := readTSV(labAnalytesStarter, 14)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r[7] == "" && r[8] == "" {
			continue
		}
		limit := r[7] + " %"
		if r[8] != "" {
			limit = r[8] + " "
		}
		line := ""
		for _, l := range strings.Split(section, "\n") {
			if strings.HasPrefix(l, "| "+r[0]+" ") {
				line = l
			}
		}
		if line == "" || !strings.Contains(line, "| "+limit) || strings.Count(line, "|") < 4 {
			t.Errorf("%s's delta limit (%s) has no row with its source in docs/lab-catalogue.md", r[0], strings.TrimSpace(limit))
		}
	}
}
