package catalogue

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/database"
)

// The shipped results catalogue (docs/lab-catalogue.md names the source of each LOINC code):
// the analytes, the other units they may be entered in, their reference ranges, and what
// each orderable test reports.
var (
	//go:embed lab_analytes.tsv
	labAnalytesStarter []byte
	//go:embed lab_units.tsv
	labUnitsStarter []byte
	//go:embed lab_ranges.tsv
	labRangesStarter []byte
	//go:embed lab_test_results.tsv
	labTestResultsStarter []byte
	//go:embed lab_critical_limits.tsv
	labCriticalStarter []byte
	//go:embed lab_delta_rules.tsv
	labDeltaStarter []byte
)

// optional checks a shipped number and keeps it as its decimal text (the columns are
// text: exact, and archived as such), "" being none.
func optional(s string) (any, error) {
	if s = strings.TrimSpace(s); s == "" {
		return nil, nil
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return nil, err
	}
	return s, nil
}

func optionals(ss ...string) ([]any, error) {
	out := make([]any, len(ss))
	for i, s := range ss {
		v, err := optional(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out[i] = v
	}
	return out, nil
}

// installResultsCatalogue adds the shipped analytes, units, ranges and test contents that a
// database does not have yet; what a clinic has edited stays as it is. A test's LOINC code
// and turnaround are filled in only where the clinic has none.
func installResultsCatalogue(ctx context.Context, tx *sql.Tx) error {
	analytes, err := readTSV(labAnalytesStarter, 14)
	if err != nil {
		return err
	}
	for _, a := range analytes {
		n, err := optionals(a[5], a[6], a[7], a[8])
		if err != nil {
			return fmt.Errorf("analyte %s: %w", a[0], err)
		}
		decimals, _ := strconv.Atoi(a[4])
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_analytes (code, loinc, type, unit, decimals, plausible_low, plausible_high,
			delta_percent, delta_abs, answers, label_en, label_ru, label_zh, label_vi)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (code) DO NOTHING`,
			a[0], a[1], a[2], a[3], decimals, n[0], n[1], n[2], n[3], a[9], a[10], a[11], a[12], a[13]); err != nil {
			return fmt.Errorf("analyte %s: %w", a[0], err)
		}
	}
	units, err := readTSV(labUnitsStarter, 5)
	if err != nil {
		return err
	}
	for _, u := range units {
		factor, err := optional(u[3])
		if err != nil {
			return fmt.Errorf("unit %s %s: %w", u[0], u[1], err)
		}
		if factor == nil {
			factor = "0"
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_analyte_units (analyte, unit, conversion, factor, loinc)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (analyte, unit) DO NOTHING`, u[0], u[1], u[2], factor, u[4]); err != nil {
			return fmt.Errorf("unit %s %s: %w", u[0], u[1], err)
		}
	}
	ranges, err := readTSV(labRangesStarter, 7) // the seventh column is the source of the numbers, for people
	if err != nil {
		return err
	}
	for _, r := range ranges {
		n, err := optionals(r[3], r[4], r[5])
		if err != nil {
			return fmt.Errorf("range of %s: %w", r[0], err)
		}
		from, _ := strconv.Atoi(r[2])
		// Ranges are shipped once: a band the clinic has (or has had shipped) stays its own.
		var have bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM lab_ranges WHERE analyte = $1 AND sex = $2 AND age_from_months = $3)`,
			r[0], r[1], from).Scan(&have); err != nil || have {
			if err != nil {
				return fmt.Errorf("range of %s: %w", r[0], err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_ranges (analyte, sex, age_from_months, age_to_months, low, high)
			VALUES ($1, $2, $3, $4, $5, $6)`, r[0], r[1], from, n[0], n[1], n[2]); err != nil {
			return fmt.Errorf("range of %s: %w", r[0], err)
		}
	}
	// Critical bands and delta rules, each row with its source, shipped once per band (a band
	// the clinic has, by its first age or window, stays its own).
	critical, err := readTSV(labCriticalStarter, 6)
	if err != nil {
		return err
	}
	for _, c := range critical {
		n, err := optionals(c[2], c[3], c[4])
		if err != nil {
			return fmt.Errorf("critical limits of %s: %w", c[0], err)
		}
		from, _ := strconv.Atoi(c[1])
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_critical_limits (analyte, age_from_months, age_to_months, critical_low, critical_high, source)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (analyte, age_from_months) DO NOTHING`, c[0], from, n[0], n[1], n[2], c[5]); err != nil {
			return fmt.Errorf("critical limits of %s: %w", c[0], err)
		}
	}
	deltas, err := readTSV(labDeltaStarter, 5)
	if err != nil {
		return err
	}
	for _, d := range deltas {
		n, err := optionals(d[2], d[3])
		if err != nil {
			return fmt.Errorf("delta rule of %s: %w", d[0], err)
		}
		hours, _ := strconv.Atoi(d[1])
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_delta_rules (analyte, window_hours, percent, abs, source)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (analyte, window_hours) DO NOTHING`, d[0], hours, n[0], n[1], d[4]); err != nil {
			return fmt.Errorf("delta rule of %s: %w", d[0], err)
		}
	}
	tests, err := readTSV(labTestResultsStarter, 4)
	if err != nil {
		return err
	}
	for _, t := range tests {
		hours, _ := strconv.Atoi(t[2])
		if _, err := tx.ExecContext(ctx, `UPDATE lab_tests SET loinc = $2, turnaround_hours = $3 WHERE code = $1 AND loinc = ''`,
			t[0], t[1], hours); err != nil {
			return fmt.Errorf("test %s: %w", t[0], err)
		}
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM lab_tests WHERE code = $1)`, t[0]).Scan(&exists); err != nil {
			return fmt.Errorf("test %s: %w", t[0], err)
		}
		if !exists { // a test the clinic removed before it was ever installed
			continue
		}
		for i, analyte := range strings.Split(t[3], ",") {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lab_test_analytes (test, analyte, position) VALUES ($1, $2, $3)
				ON CONFLICT (test, analyte) DO NOTHING`, t[0], analyte, i+1); err != nil {
				return fmt.Errorf("test %s analyte %s: %w", t[0], analyte, err)
			}
		}
	}
	return nil
}

// TestResults is what a test reports: its LOINC code, its expected turnaround and its
// analytes in report order, with units, answers and ranges, labels in lang.
type TestResults struct {
	Code            string    `json:"code"`
	Kind            string    `json:"kind"`
	Label           string    `json:"label"`
	LOINC           string    `json:"loinc"`
	TurnaroundHours int       `json:"turnaround_hours"`
	Analytes        []Analyte `json:"analytes"`
}

// TestResults reads what the test code reports; sql.ErrNoRows when there is no such test.
func (s *Store) TestResults(ctx context.Context, code, lang string) (TestResults, error) {
	return ReadTestResults(ctx, s.DB, code, lang)
}

// ReadTestResults is TestResults read through q (a writer's transaction: the catalogue as
// the write sees it).
func ReadTestResults(ctx context.Context, q database.Querier, code, lang string) (TestResults, error) {
	var t TestResults
	var l Labels
	err := q.QueryRowContext(ctx, `SELECT code, kind, label_en, label_ru, label_zh, label_vi, loinc, turnaround_hours
		FROM lab_tests WHERE code = $1`, code).Scan(&t.Code, &t.Kind, &l.EN, &l.RU, &l.ZH, &l.VI, &t.LOINC, &t.TurnaroundHours)
	if err != nil {
		return t, err
	}
	t.Label = l.In(lang)
	t.Analytes, err = loadAnalytes(ctx, q, lang, code,
		analyteSelect+` FROM lab_test_analytes ta JOIN lab_analytes a ON a.code = ta.analyte WHERE ta.test = $1 ORDER BY ta.position`,
		`SELECT u.analyte, u.unit, u.conversion, u.factor, u.loinc FROM lab_analyte_units u
		JOIN lab_test_analytes ta ON ta.analyte = u.analyte WHERE ta.test = $1 ORDER BY u.analyte, u.unit`,
		`SELECT r.analyte, r.sex, r.age_from_months, r.age_to_months, r.low, r.high
		FROM lab_ranges r JOIN lab_test_analytes ta ON ta.analyte = r.analyte WHERE ta.test = $1 ORDER BY r.analyte, r.sex, r.age_from_months`,
		`SELECT c.analyte, c.age_from_months, c.age_to_months, c.critical_low, c.critical_high, c.source
		FROM lab_critical_limits c JOIN lab_test_analytes ta ON ta.analyte = c.analyte WHERE ta.test = $1 ORDER BY c.analyte, c.age_from_months`,
		`SELECT d.analyte, d.window_hours, d.percent, d.abs, d.source
		FROM lab_delta_rules d JOIN lab_test_analytes ta ON ta.analyte = d.analyte WHERE ta.test = $1 ORDER BY d.analyte, d.window_hours`)
	return t, err
}

// ReadAnalyte reads one analyte with its units and ranges, label in lang; NotFound when
// there is no such analyte.
func ReadAnalyte(ctx context.Context, q database.Querier, code, lang string) (Analyte, error) {
	list, err := loadAnalytes(ctx, q, lang, code,
		analyteSelect+` FROM lab_analytes a WHERE a.code = $1`,
		`SELECT u.analyte, u.unit, u.conversion, u.factor, u.loinc FROM lab_analyte_units u WHERE u.analyte = $1 ORDER BY u.unit`,
		`SELECT r.analyte, r.sex, r.age_from_months, r.age_to_months, r.low, r.high
		FROM lab_ranges r WHERE r.analyte = $1 ORDER BY r.sex, r.age_from_months`,
		`SELECT c.analyte, c.age_from_months, c.age_to_months, c.critical_low, c.critical_high, c.source
		FROM lab_critical_limits c WHERE c.analyte = $1 ORDER BY c.age_from_months`,
		`SELECT d.analyte, d.window_hours, d.percent, d.abs, d.source FROM lab_delta_rules d WHERE d.analyte = $1 ORDER BY d.window_hours`)
	if err != nil {
		return Analyte{}, err
	}
	if len(list) == 0 {
		return Analyte{}, apperr.NotFound("catalogue.analyte_not_found")
	}
	return list[0], nil
}

// analyteSelect is the start of a query of analytes for loadAnalytes, up to its FROM.
const analyteSelect = `SELECT a.code, a.loinc, a.type, a.unit, a.decimals, a.plausible_low, a.plausible_high,
	a.answers, a.label_en, a.label_ru, a.label_zh, a.label_vi`

// loadAnalytes reads analytes, then their units, ranges, critical bands and delta rules, by
// queries that take the one argument arg.
func loadAnalytes(ctx context.Context, q database.Querier, lang string, arg any, analytesSQL, unitsSQL, rangesSQL, criticalSQL, deltaSQL string) ([]Analyte, error) {
	out := []Analyte{}
	rows, err := q.QueryContext(ctx, analytesSQL, arg)
	if err != nil {
		return nil, fmt.Errorf("read analytes: %w", err)
	}
	byCode := map[string]int{}
	for rows.Next() {
		var a Analyte
		var answers string
		var al Labels
		if err := rows.Scan(&a.Code, &a.LOINC, &a.Type, &a.Unit, &a.Decimals, &a.PlausibleLow, &a.PlausibleHigh,
			&answers, &al.EN, &al.RU, &al.ZH, &al.VI); err != nil {
			rows.Close()
			return nil, err
		}
		a.Label, a.Answers, a.Units, a.Ranges = al.In(lang), parseAnswers(answers), []Unit{}, []Range{}
		a.Critical, a.DeltaRules = []CriticalBand{}, []DeltaRule{}
		byCode[a.Code] = len(out)
		out = append(out, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slot := func(code string) *bands {
		if i, ok := byCode[code]; ok {
			a := &out[i]
			return &bands{&a.Units, &a.Ranges, &a.Critical, &a.DeltaRules}
		}
		return nil
	}
	return out, readBands(ctx, q, unitsSQL, rangesSQL, criticalSQL, deltaSQL, []any{arg}, slot)
}

// bands are the lists of one analyte that readBands fills.
type bands struct {
	units    *[]Unit
	ranges   *[]Range
	critical *[]CriticalBand
	deltas   *[]DeltaRule
}

// readBands runs the queries of units, ranges, critical bands and delta rules (each taking
// args; the analyte's code first) and adds each row to the lists slot gives for its analyte
// (nil: not wanted).
func readBands(ctx context.Context, q database.Querier, unitsSQL, rangesSQL, criticalSQL, deltaSQL string, args []any, slot func(code string) *bands) error {
	var analyte string
	var u Unit
	if err := each(ctx, q, unitsSQL, args, []any{&analyte, &u.Unit, &u.Conversion, &u.Factor, &u.LOINC}, func() {
		if a := slot(analyte); a != nil {
			*a.units = append(*a.units, u)
		}
	}); err != nil {
		return fmt.Errorf("read units: %w", err)
	}
	var r Range
	if err := each(ctx, q, rangesSQL, args, []any{&analyte, &r.Sex, &r.FromMonths, &r.ToMonths, &r.Low, &r.High}, func() {
		if a := slot(analyte); a != nil {
			*a.ranges = append(*a.ranges, r)
		}
	}); err != nil {
		return fmt.Errorf("read ranges: %w", err)
	}
	var c CriticalBand
	if err := each(ctx, q, criticalSQL, args, []any{&analyte, &c.FromMonths, &c.ToMonths, &c.Low, &c.High, &c.Source}, func() {
		if a := slot(analyte); a != nil {
			*a.critical = append(*a.critical, c)
		}
	}); err != nil {
		return fmt.Errorf("read critical limits: %w", err)
	}
	var d DeltaRule
	if err := each(ctx, q, deltaSQL, args, []any{&analyte, &d.WindowHours, &d.Percent, &d.Abs, &d.Source}, func() {
		if a := slot(analyte); a != nil {
			*a.deltas = append(*a.deltas, d)
		}
	}); err != nil {
		return fmt.Errorf("read delta rules: %w", err)
	}
	return nil
}

// each runs query and, for every row, scans it into dest and calls add (Scan gives a
// nullable column a fresh pointer, or nil, on every row: add may keep what it reads).
func each(ctx context.Context, q database.Querier, query string, args, dest []any, add func()) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		add()
	}
	return rows.Err()
}
