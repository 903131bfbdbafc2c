package catalogue

import (
	"context"
	"fmt"

	"emr/internal/database"
)

// OrderedTest is what an order shows of its test: its kind, name and expected turnaround,
// and the price-list service it is charged as.
type OrderedTest struct {
	Kind            string
	Label           string
	LOINC           string
	TurnaroundHours int
	ServiceCode     string // the price-list service ordering it charges ('' for none)
}

// OrderedTests reads the tests named by codes (each once; deactivated ones too, since old
// orders still name them), labels in lang.
func OrderedTests(ctx context.Context, q database.Querier, codes []string, lang string) (map[string]OrderedTest, error) {
	out := make(map[string]OrderedTest, len(codes))
	err := database.InChunks(codes, 500, func(chunk []string) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT code, kind, label_en, label_ru, label_zh, label_vi, loinc, turnaround_hours, service_code
			FROM lab_tests WHERE code IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("read tests: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var code string
			var t OrderedTest
			var l Labels
			if err := rows.Scan(&code, &t.Kind, &l.EN, &l.RU, &l.ZH, &l.VI, &t.LOINC, &t.TurnaroundHours, &t.ServiceCode); err != nil {
				return err
			}
			t.Label = l.In(lang)
			out[code] = t
		}
		return rows.Err()
	})
	return out, err
}

// AnalyteNames reads the analytes named by codes (each once): their labels in lang, unit
// and decimals, for results shown without their test's whole catalogue entry.
func AnalyteNames(ctx context.Context, q database.Querier, codes []string, lang string) (map[string]Analyte, error) {
	out := make(map[string]Analyte, len(codes))
	err := database.InChunks(codes, 500, func(chunk []string) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT code, loinc, type, unit, decimals, label_en, label_ru, label_zh, label_vi
			FROM lab_analytes WHERE code IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("read analytes: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var a Analyte
			var l Labels
			if err := rows.Scan(&a.Code, &a.LOINC, &a.Type, &a.Unit, &a.Decimals, &l.EN, &l.RU, &l.ZH, &l.VI); err != nil {
				return err
			}
			a.Label = l.In(lang)
			out[a.Code] = a
		}
		return rows.Err()
	})
	return out, err
}

// TestAnalytes reads the analytes each of tests reports: a panel includes another test when it
// reports every analyte of it (CMP includes BMP, BMP includes ELEC).
func TestAnalytes(ctx context.Context, q database.Querier, tests []string) (map[string][]string, error) {
	out := make(map[string][]string, len(tests))
	err := database.InChunks(tests, 500, func(chunk []string) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT test, analyte FROM lab_test_analytes WHERE test IN (`+marks+`) ORDER BY test, position`, args...)
		if err != nil {
			return fmt.Errorf("read test analytes: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var test, analyte string
			if err := rows.Scan(&test, &analyte); err != nil {
				return err
			}
			out[test] = append(out[test], analyte)
		}
		return rows.Err()
	})
	return out, err
}
