// Package growth scores a child's weight, length/height, head circumference and BMI against
// the WHO Child Growth Standards (0-5 years) and the WHO Growth Reference 2007 (5-19 years):
// z-scores from the WHO's LMS tables (shipped beside this file as TSV, each with its
// source), percentiles, the WHO cut-off flags, and the SD curves a chart draws.
package growth

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The indicators, as keys of the API and the tables.
const (
	WFA  = "wfa"  // weight-for-age
	LHFA = "lhfa" // length/height-for-age
	WFL  = "wfl"  // weight-for-length (under 24 months) or weight-for-height (24-60 months)
	HCFA = "hcfa" // head circumference-for-age
	BFA  = "bfa"  // BMI-for-age
)

// Indicators are the indicators in the order a screen lists them.
var Indicators = []string{WFA, LHFA, WFL, HCFA, BFA}

// Measures of a length-based table: L recumbent length, H standing height; "" where the
// table does not depend on it.
const (
	lying    = "L"
	standing = "H"
)

// lms is one row of a table: at x (age in months, or length/height in cm), the Box-Cox power
// L, the median M and the coefficient of variation S.
type lms struct{ x, l, m, s float64 }

type tableKey struct{ indicator, sex, measure string }

var (
	//go:embed wfa.tsv
	wfaTSV string
	//go:embed lhfa.tsv
	lhfaTSV string
	//go:embed wflh.tsv
	wflhTSV string
	//go:embed hcfa.tsv
	hcfaTSV string
	//go:embed bfa.tsv
	bfaTSV string
)

// tables are the WHO's LMS tables by indicator, sex ("M", "F") and measure, each sorted by x.
var tables = mustReadTables()

func mustReadTables() map[tableKey][]lms {
	out := map[tableKey][]lms{}
	for _, f := range []struct {
		indicator, tsv string
		measured       bool
	}{{WFA, wfaTSV, false}, {LHFA, lhfaTSV, true}, {WFL, wflhTSV, true}, {HCFA, hcfaTSV, false}, {BFA, bfaTSV, true}} {
		if err := readTable(out, f.indicator, f.tsv, f.measured); err != nil {
			panic(fmt.Sprintf("growth: %s table: %v", f.indicator, err))
		}
	}
	for k, rows := range out {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].x < rows[j].x })
		out[k] = rows
	}
	return out
}

// readTable adds the rows of one TSV: sex, [measure,] x, l, m, s, source. Comment lines start
// with '#'; the first other line is the header.
func readTable(into map[tableKey][]lms, indicator, tsv string, measured bool) error {
	header := true
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		f := strings.Split(line, "\t")
		want := 6
		if measured {
			want = 7
		}
		if len(f) != want {
			return fmt.Errorf("line %d: %d columns, want %d", n+1, len(f), want)
		}
		k := tableKey{indicator: indicator, sex: f[0]}
		if k.sex != "M" && k.sex != "F" {
			return fmt.Errorf("line %d: sex %q", n+1, k.sex)
		}
		if measured {
			k.measure, f = f[1], f[1:]
			if k.measure != lying && k.measure != standing {
				return fmt.Errorf("line %d: measure %q", n+1, k.measure)
			}
		}
		var v [4]float64
		for i := range v {
			x, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				return fmt.Errorf("line %d: %w", n+1, err)
			}
			v[i] = x
		}
		if v[2] <= 0 || v[3] <= 0 || strings.TrimSpace(f[5]) == "" {
			return fmt.Errorf("line %d: M and S must be positive and the source named", n+1)
		}
		into[k] = append(into[k], lms{x: v[0], l: v[1], m: v[2], s: v[3]})
	}
	return nil
}

// at is the table's L, M and S at x, interpolated linearly between its rows; false outside it.
func at(rows []lms, x float64) (lms, bool) {
	if len(rows) == 0 || x < rows[0].x || x > rows[len(rows)-1].x {
		return lms{}, false
	}
	i := sort.Search(len(rows), func(i int) bool { return rows[i].x >= x })
	if rows[i].x == x || i == 0 {
		return rows[i], true
	}
	a, b := rows[i-1], rows[i]
	t := (x - a.x) / (b.x - a.x)
	mix := func(p, q float64) float64 { return p + (q-p)*t }
	return lms{x: x, l: mix(a.l, b.l), m: mix(a.m, b.m), s: mix(a.s, b.s)}, true
}

// span is the first and last x of a table.
func span(rows []lms) (float64, float64) {
	if len(rows) == 0 {
		return 0, -1
	}
	return rows[0].x, rows[len(rows)-1].x
}
