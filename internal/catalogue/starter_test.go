package catalogue

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// qualifiers are the ICD-10 wordings that narrow a concept without changing it: two labels
// that differ only in these name the same disease twice.
var qualifiers = regexp.MustCompile(`(?i)\s*\([^)]*\)|,?\s*(unspecified|without complications?|not elsewhere classified|other specified|other)\b`)

// TestStarterCodesAreDiagnosesEachOnce: the shipped ICD-10 list offers diagnoses only (no
// external cause of chapter XX, V01-Y98, and no category WHO has retired), and no concept twice.
func TestStarterCodesAreDiagnosesEachOnce(t *testing.T) {
	codes, bad, err := parseCodes(icd10Starter)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	retired := []string{"I84"} // haemorrhoids moved to K64 in 2016
	concept := map[string]string{}
	for _, c := range codes {
		if strings.ContainsAny(c.code[:1], "VWXYU") {
			t.Errorf("%s %q is not a diagnosis (external cause or special purpose)", c.code, c.labels.EN)
		}
		for _, r := range retired {
			if strings.HasPrefix(c.code, r) {
				t.Errorf("%s: category %s is retired", c.code, r)
			}
		}
		key := strings.ToLower(strings.Trim(qualifiers.ReplaceAllString(c.labels.EN, ""), " ,"))
		if other, ok := concept[key]; ok {
			t.Errorf("%s and %s are both %q", other, c.code, key)
		}
		concept[key] = c.code
		if c.labels.RU == "" || c.labels.ZH == "" || c.labels.VI == "" {
			t.Errorf("%s lacks a translation: %+v", c.code, c.labels)
		}
	}
}

// TestAnUpgradedStarterIsCorrected: a database that received an earlier starter list gets
// the corrected labels where they are still as shipped, keeps a clinic's own wording, and no
// longer offers the retired codes (records that hold them still show them), on both engines.
func TestAnUpgradedStarterIsCorrected(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		if err := InstallStarter(ctx, db); err != nil {
			t.Fatal(err)
		}
		// Back to the list as version 3 shipped it, with one label the clinic has reworded.
		fixes, err := readTSV(starterCorrections, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fixes {
			if f[4] == "" {
				dbtest.Tamper(t, db, `INSERT INTO diagnosis_codes (code, label_en, terms) VALUES ('`+f[1]+`', '`+f[3]+`', 'x')`)
				continue
			}
			if stmt := correctionSQL[f[0]+"/"+f[2]]; stmt != "" {
				if _, err := db.ExecContext(ctx, stmt, f[1], f[4], f[3]); err != nil {
					t.Fatal(err)
				}
			}
		}
		dbtest.Tamper(t, db, `UPDATE diagnosis_codes SET label_vi = 'Sốt Dengue (phòng khám)' WHERE code = 'A90'`)
		dbtest.Tamper(t, db, `DELETE FROM diagnosis_codes WHERE code = 'M62.6'`)
		dbtest.Tamper(t, db, `UPDATE counters SET value = 3 WHERE name = 'catalogue:starter'`)
		// Version 3's medicines had no names in other languages; a clinic had named one itself.
		dbtest.Tamper(t, db, `UPDATE medicines SET name_ru = '', name_zh = '', name_vi = '', terms = ' x '`)
		dbtest.Tamper(t, db, `UPDATE medicines SET name_zh = '扑热息痛片' WHERE generic_name = 'Paracetamol' AND form = 'tablet'`)

		if err := InstallStarter(ctx, db); err != nil {
			t.Fatal(err)
		}
		label := func(code, column string) (s string) {
			t.Helper()
			if err := db.QueryRowContext(ctx, `SELECT `+column+` FROM diagnosis_codes WHERE code = $1`, code).Scan(&s); err != nil {
				t.Fatal(code, err)
			}
			return s
		}
		for code, want := range map[string]string{"A91": "Sốt xuất huyết Dengue", "O21.0": "Nôn nặng khi có thai, mức độ nhẹ", "A90": "Sốt Dengue (phòng khám)"} {
			if got := label(code, "label_vi"); got != want {
				t.Errorf("%s in Vietnamese: %q, want %q", code, got, want)
			}
		}
		if got := label("M62.8", "label_en"); got != "Other specified disorders of muscle" {
			t.Errorf("M62.8: %q", got)
		}
		if got := label("M62.6", "label_en"); got != "Muscle strain" {
			t.Errorf("M62.6: %q", got)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM diagnosis_codes WHERE code IN ('I84.9', 'W57') AND NOT active`); n != 2 {
			t.Errorf("%d of the two retired codes are inactive", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM diagnosis_codes WHERE terms = '' OR (code = 'A91' AND terms LIKE '%nang%')`); n != 0 {
			t.Errorf("%d codes have stale search terms", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM medicines WHERE name_ru = '' OR name_zh = ''`); n != 0 {
			t.Errorf("%d medicines not named on upgrade", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM medicines WHERE name_zh = '扑热息痛片' AND terms LIKE '%扑热息痛片%'`); n != 1 {
			t.Errorf("the clinic's own name was not kept and found: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM medicines WHERE name_zh = '阿莫西林' AND terms LIKE '%阿莫西林%'`); n == 0 {
			t.Error("the starter's Chinese names are not searchable")
		}
		if got := func() (s string) {
			_ = db.QueryRowContext(ctx, `SELECT label_zh FROM lab_tests WHERE code = 'CBC'`).Scan(&s)
			return s
		}(); got != "血常规" {
			t.Errorf("CBC in Chinese: %q", got)
		}
	})
}
