package catalogue

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// The results catalogue as an administrator keeps it (issue 35): every analyte with its
// names in the four languages, limits and ranges, edited one at a time or exported and
// imported as CSV. The units an analyte may be entered in and their conversions are
// chemistry, shipped and tested (ADR 28): shown here, not edited.

// AnalyteLabels are an analyte's names in every language, for editing.
type AnalyteLabels struct {
	EN string `json:"en"`
	RU string `json:"ru"`
	ZH string `json:"zh"`
	VI string `json:"vi"`
}

// AnalyteEdit is an analyte with everything an administrator may change.
type AnalyteEdit struct {
	Code          string         `json:"code"`
	LOINC         string         `json:"loinc"`
	Type          string         `json:"type"`
	Unit          string         `json:"unit"`
	Decimals      int            `json:"decimals"`
	PlausibleLow  *float64       `json:"plausible_low"`
	PlausibleHigh *float64       `json:"plausible_high"`
	Answers       string         `json:"answers"`
	Labels        AnalyteLabels  `json:"labels"`
	Ranges        []Range        `json:"ranges"`
	Critical      []CriticalBand `json:"critical"`
	DeltaRules    []DeltaRule    `json:"delta_rules"`
	Units         []Unit         `json:"units"`
	Version       int            `json:"version"`
}

var (
	loincPattern   = regexp.MustCompile(`^[0-9]{1,7}-[0-9]$`)
	analytePattern = regexp.MustCompile(`^[A-Z0-9][A-Z0-9%_.-]{0,19}$`)
	answersPattern = regexp.MustCompile(`^[a-z0-9+_-]+:(N|A|AA)(,[a-z0-9+_-]+:(N|A|AA))*$`)
)

// validCheckDigit is LOINC's mod-10 check digit (the Luhn algorithm over the code's digits).
func validCheckDigit(code string) bool {
	body, check, _ := strings.Cut(code, "-")
	sum := 0
	for i := 0; i < len(body); i++ {
		d := int(body[len(body)-1-i] - '0')
		if i%2 == 0 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10-sum%10)%10 == int(check[0]-'0')
}

// ValidLOINC says whether code is written as a LOINC code with its right check digit.
func ValidLOINC(code string) bool { return loincPattern.MatchString(code) && validCheckDigit(code) }

// MaxRanges is how many age and sex bands one analyte may have.
const MaxRanges = 40

func finite(f *float64) bool { return f == nil || (!math.IsNaN(*f) && !math.IsInf(*f, 0)) }

// check trims an analyte and adds what is wrong with it to v, field names under prefix.
func (a *AnalyteEdit) check(v *apperr.Validation, prefix string) {
	a.Code, a.LOINC, a.Unit, a.Answers = strings.ToUpper(strings.TrimSpace(a.Code)), strings.TrimSpace(a.LOINC), strings.TrimSpace(a.Unit), strings.TrimSpace(a.Answers)
	for _, s := range []*string{&a.Labels.EN, &a.Labels.RU, &a.Labels.ZH, &a.Labels.VI} {
		*s = strings.TrimSpace(*s)
		if utf8.RuneCountInString(*s) > 200 {
			v.Add(prefix+"labels", "validation.too_long")
		}
	}
	if !analytePattern.MatchString(a.Code) {
		v.Add(prefix+"code", "catalogue.analyte_code")
	}
	if a.LOINC != "" && !ValidLOINC(a.LOINC) {
		v.Add(prefix+"loinc", "catalogue.loinc_invalid")
	}
	if a.Labels.EN == "" {
		v.Add(prefix+"labels.en", "validation.required")
	}
	switch a.Type {
	case Numeric:
		if a.Unit == "" {
			v.Add(prefix+"unit", "validation.required")
		}
	case Coded:
		if !answersPattern.MatchString(a.Answers) {
			v.Add(prefix+"answers", "catalogue.answers_format")
		}
	case Text:
	default:
		v.Add(prefix+"type", "catalogue.analyte_type")
	}
	if a.Decimals < 0 || a.Decimals > 4 {
		v.Add(prefix+"decimals", "catalogue.decimals")
	}
	for field, f := range map[string]*float64{"plausible_low": a.PlausibleLow, "plausible_high": a.PlausibleHigh} {
		if !finite(f) || (f != nil && *f < 0 && field != "plausible_low") {
			v.Add(prefix+field, "validation.number")
		}
	}
	if a.PlausibleLow != nil && a.PlausibleHigh != nil && *a.PlausibleLow >= *a.PlausibleHigh {
		v.Add(prefix+"plausible_high", "result.range_inverted")
	}
	// Each list of bands: at most MaxRanges, and only for a number.
	for field, n := range map[string]int{"ranges": len(a.Ranges), "critical": len(a.Critical), "delta_rules": len(a.DeltaRules)} {
		if n > MaxRanges {
			v.Add(prefix+field, "validation.too_many")
		}
		if a.Type != Numeric && n > 0 {
			v.Add(prefix+field, "catalogue.ranges_numeric_only")
		}
	}
	for i := range a.Ranges {
		checkRange(v, fmt.Sprintf("%sranges.%d.", prefix, i), &a.Ranges[i], a)
	}
	for i := range a.Critical {
		checkCritical(v, fmt.Sprintf("%scritical.%d.", prefix, i), &a.Critical[i], a)
	}
	if len(a.Critical) > 0 && !coversEveryAge(a.Critical) {
		// Critical limits that stop at an age leave the patients of the other ages unprotected
		// (issue 52): bands from birth to no upper end, or none.
		v.Add(prefix+"critical", "catalogue.critical_uncovered")
	}
	windows := map[int]bool{}
	for i := range a.DeltaRules {
		d, at := &a.DeltaRules[i], fmt.Sprintf("%sdelta_rules.%d.", prefix, i)
		d.Source = strings.TrimSpace(d.Source)
		if d.WindowHours < 1 || d.WindowHours > MaxDeltaWindowHours {
			v.Add(at+"window_hours", "catalogue.delta_window")
		} else if windows[d.WindowHours] {
			v.Add(at+"window_hours", "catalogue.delta_window_twice")
		}
		windows[d.WindowHours] = true
		for field, f := range map[string]*float64{"percent": d.Percent, "abs": d.Abs} {
			if !finite(f) || (f != nil && *f <= 0) {
				v.Add(at+field, "validation.number")
			}
		}
		if d.Percent == nil && d.Abs == nil {
			v.Add(at+"percent", "catalogue.delta_empty")
		}
		if utf8.RuneCountInString(d.Source) > 1000 {
			v.Add(at+"source", "validation.too_long")
		}
	}
}

// coversEveryAge reports whether critical bands cover every age from birth on, without a gap.
func coversEveryAge(bands []CriticalBand) bool {
	sorted := slices.Clone(bands)
	slices.SortFunc(sorted, func(a, b CriticalBand) int { return cmp.Compare(a.FromMonths, b.FromMonths) })
	at := 0
	for _, b := range sorted {
		if b.FromMonths > at {
			return false
		}
		if b.ToMonths == nil {
			return true
		}
		at = max(at, *b.ToMonths)
	}
	return false
}

// MaxDeltaWindowHours is the longest window a delta rule may look back over: ten years.
const MaxDeltaWindowHours = 24 * 3653

// checkCritical checks one critical band: its ages, its limits in order and within what a
// person can have, at least one of them.
func checkCritical(v *apperr.Validation, prefix string, c *CriticalBand, a *AnalyteEdit) {
	c.Source = strings.TrimSpace(c.Source)
	if c.FromMonths < 0 || (c.ToMonths != nil && *c.ToMonths <= c.FromMonths) {
		v.Add(prefix+"age_to_months", "catalogue.range_ages")
	}
	for field, b := range map[string]*float64{"critical_low": c.Low, "critical_high": c.High} {
		switch {
		case !finite(b):
			v.Add(prefix+field, "validation.number")
		case b != nil && ((a.PlausibleLow != nil && *b < *a.PlausibleLow) || (a.PlausibleHigh != nil && *b > *a.PlausibleHigh)):
			v.Add(prefix+field, "catalogue.range_implausible")
		}
	}
	if c.Low != nil && c.High != nil && finite(c.Low) && finite(c.High) && *c.Low >= *c.High {
		v.Add(prefix+"critical_high", "catalogue.range_order")
	}
	if c.Low == nil && c.High == nil {
		v.Add(prefix+"critical_low", "catalogue.range_empty")
	}
	if utf8.RuneCountInString(c.Source) > 1000 {
		v.Add(prefix+"source", "validation.too_long")
	}
}

// checkRange checks one band: its sex and ages, its bounds in order (critical low ≤ low ≤
// high ≤ critical high), within what a person can have.
func checkRange(v *apperr.Validation, prefix string, r *Range, a *AnalyteEdit) {
	if !slices.Contains([]string{"any", "female", "male"}, r.Sex) {
		v.Add(prefix+"sex", "catalogue.range_sex")
	}
	if r.FromMonths < 0 || (r.ToMonths != nil && *r.ToMonths <= r.FromMonths) {
		v.Add(prefix+"age_to_months", "catalogue.range_ages")
	}
	bounds := []*float64{r.Low, r.High}
	names := []string{"low", "high"}
	var last *float64
	for i, b := range bounds {
		if !finite(b) {
			v.Add(prefix+names[i], "validation.number")
			continue
		}
		if b == nil {
			continue
		}
		if last != nil && *b < *last {
			v.Add(prefix+names[i], "catalogue.range_order")
		}
		if (a.PlausibleLow != nil && *b < *a.PlausibleLow) || (a.PlausibleHigh != nil && *b > *a.PlausibleHigh) {
			v.Add(prefix+names[i], "catalogue.range_implausible")
		}
		last = b
	}
	if r.Low == nil && r.High == nil {
		v.Add(prefix+"low", "catalogue.range_empty")
	}
}

// Analytes lists every analyte with its units and ranges, by code.
func (s *Store) Analytes(ctx context.Context) ([]AnalyteEdit, error) {
	return readAnalyteEdits(ctx, s.DB, "")
}

func readAnalyteEdits(ctx context.Context, q database.Querier, code string) ([]AnalyteEdit, error) {
	where, args := "", []any{}
	if code != "" {
		where, args = " WHERE a.code = $1", []any{code}
	}
	rows, err := q.QueryContext(ctx, `SELECT a.code, a.loinc, a.type, a.unit, a.decimals, a.plausible_low, a.plausible_high,
		a.answers, a.label_en, a.label_ru, a.label_zh, a.label_vi, a.version FROM lab_analytes a`+where+` ORDER BY a.code`, args...)
	if err != nil {
		return nil, fmt.Errorf("read analytes: %w", err)
	}
	out := []AnalyteEdit{}
	at := map[string]int{}
	for rows.Next() {
		var a AnalyteEdit
		if err := rows.Scan(&a.Code, &a.LOINC, &a.Type, &a.Unit, &a.Decimals, &a.PlausibleLow, &a.PlausibleHigh,
			&a.Answers, &a.Labels.EN, &a.Labels.RU, &a.Labels.ZH, &a.Labels.VI, &a.Version); err != nil {
			rows.Close()
			return nil, err
		}
		a.Ranges, a.Units, a.Critical, a.DeltaRules = []Range{}, []Unit{}, []CriticalBand{}, []DeltaRule{}
		at[a.Code] = len(out)
		out = append(out, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	where = strings.Replace(where, "a.code", "analyte", 1)
	return out, readBands(ctx, q, `SELECT analyte, unit, conversion, factor, loinc FROM lab_analyte_units`+where+` ORDER BY analyte, unit`,
		`SELECT analyte, sex, age_from_months, age_to_months, low, high FROM lab_ranges`+where+` ORDER BY analyte, sex, age_from_months, id`,
		`SELECT analyte, age_from_months, age_to_months, critical_low, critical_high, source FROM lab_critical_limits`+where+` ORDER BY analyte, age_from_months`,
		`SELECT analyte, window_hours, percent, abs, source FROM lab_delta_rules`+where+` ORDER BY analyte, window_hours`,
		args, func(code string) *bands {
			i, ok := at[code]
			if !ok {
				return nil
			}
			a := &out[i]
			return &bands{&a.Units, &a.Ranges, &a.Critical, &a.DeltaRules}
		})
}

// SaveAnalyte replaces analyte code's fields and ranges with in, if in.Version is still the
// stored one. Results already recorded keep the ranges they were judged by.
func (s *Store) SaveAnalyte(ctx context.Context, e audit.Event, code string, in AnalyteEdit) (AnalyteEdit, error) {
	in.Code = code
	var v apperr.Validation
	in.check(&v, "")
	if err := v.Err(); err != nil {
		return in, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var version int
		var typ, unit string
		err := tx.QueryRowContext(ctx, `SELECT version, type, unit FROM lab_analytes WHERE code = $1`, code).Scan(&version, &typ, &unit)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.NotFound("catalogue.analyte_not_found")
		}
		if err != nil {
			return err
		}
		if version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		if typ != in.Type {
			v.Add("type", "catalogue.analyte_type_fixed")
			return v.Err()
		}
		if unit != in.Unit && s.HasResults != nil {
			recorded, err := s.HasResults(ctx, tx, code)
			if err != nil {
				return err
			}
			if recorded {
				v.Add("unit", "catalogue.analyte_unit_fixed")
				return v.Err()
			}
		}
		// Critical limits and delta rules an edit does not send are kept, never erased.
		if in.Critical == nil || in.DeltaRules == nil {
			stored, err := readAnalyteEdits(ctx, tx, code)
			if err != nil || len(stored) == 0 {
				return err
			}
			if in.Critical == nil {
				in.Critical = stored[0].Critical
			}
			if in.DeltaRules == nil {
				in.DeltaRules = stored[0].DeltaRules
			}
		}
		return writeAnalyte(ctx, tx, e, in, false)
	})
	if err != nil {
		return in, err
	}
	list, err := readAnalyteEdits(ctx, s.DB, code)
	if err != nil || len(list) == 0 {
		return in, err
	}
	return list[0], nil
}

// writeAnalyte inserts (fresh) or updates an analyte and replaces its ranges, and audits it.
func writeAnalyte(ctx context.Context, tx *sql.Tx, e audit.Event, in AnalyteEdit, fresh bool) error {
	num := func(f *float64) any {
		if f == nil {
			return nil
		}
		return strconv.FormatFloat(*f, 'f', -1, 64)
	}
	var err error
	if fresh {
		_, err = tx.ExecContext(ctx, `INSERT INTO lab_analytes (code, loinc, type, unit, decimals, plausible_low, plausible_high,
			answers, label_en, label_ru, label_zh, label_vi) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			in.Code, in.LOINC, in.Type, in.Unit, in.Decimals, num(in.PlausibleLow), num(in.PlausibleHigh),
			in.Answers, in.Labels.EN, in.Labels.RU, in.Labels.ZH, in.Labels.VI)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE lab_analytes SET loinc = $2, unit = $3, decimals = $4, plausible_low = $5, plausible_high = $6,
			answers = $7, label_en = $8, label_ru = $9, label_zh = $10, label_vi = $11, version = version + 1
			WHERE code = $1`, in.Code, in.LOINC, in.Unit, in.Decimals, num(in.PlausibleLow), num(in.PlausibleHigh),
			in.Answers, in.Labels.EN, in.Labels.RU, in.Labels.ZH, in.Labels.VI)
	}
	if err != nil {
		return fmt.Errorf("write analyte %s: %w", in.Code, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM lab_ranges WHERE analyte = $1`, in.Code); err != nil {
		return err
	}
	for _, r := range in.Ranges {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_ranges (analyte, sex, age_from_months, age_to_months, low, high)
			VALUES ($1, $2, $3, $4, $5, $6)`, in.Code, r.Sex, r.FromMonths, r.ToMonths, num(r.Low), num(r.High)); err != nil {
			return fmt.Errorf("write range of %s: %w", in.Code, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM lab_critical_limits WHERE analyte = $1`, in.Code); err != nil {
		return err
	}
	for _, c := range in.Critical {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_critical_limits (analyte, age_from_months, age_to_months, critical_low, critical_high, source)
			VALUES ($1, $2, $3, $4, $5, $6)`, in.Code, c.FromMonths, c.ToMonths, num(c.Low), num(c.High), c.Source); err != nil {
			return fmt.Errorf("write critical limits of %s: %w", in.Code, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM lab_delta_rules WHERE analyte = $1`, in.Code); err != nil {
		return err
	}
	for _, d := range in.DeltaRules {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_delta_rules (analyte, window_hours, percent, abs, source)
			VALUES ($1, $2, $3, $4, $5)`, in.Code, d.WindowHours, num(d.Percent), num(d.Abs), d.Source); err != nil {
			return fmt.Errorf("write delta rule of %s: %w", in.Code, err)
		}
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome = "catalogue.analyte_save", "lab_analyte", in.Code, audit.Success
	e.Detail = fmt.Sprintf("%d ranges, %d critical bands, %d delta rules", len(in.Ranges), len(in.Critical), len(in.DeltaRules))
	return audit.Record(ctx, tx, e)
}

// analyteCSVHeader are the columns of the exported and imported results catalogue: an
// analyte's fields on every row of its bands (one row when it has none), each row one band:
// a reference interval (band "reference": sex, ages, low, high), critical limits (band
// "critical": ages, low and high as the critical low and high, source) or a delta rule (band
// "delta": window_hours, percent, abs, source).
var analyteCSVHeader = []string{"analyte", "loinc", "type", "unit", "decimals", "plausible_low", "plausible_high",
	"answers", "label_en", "label_ru", "label_zh", "label_vi", "band", "sex", "age_from_months", "age_to_months", "low", "high",
	"window_hours", "percent", "abs", "source"}

// legacyCSVHeader is the file an earlier version exported: critical limits on the reference
// rows, and delta numbers without a window on the analyte. It is still read (its critical
// limits become critical bands at their ages, its delta numbers a rule over a year).
var legacyCSVHeader = []string{"analyte", "loinc", "type", "unit", "decimals", "plausible_low", "plausible_high", "delta_percent", "delta_abs",
	"answers", "label_en", "label_ru", "label_zh", "label_vi", "sex", "age_from_months", "age_to_months", "low", "high", "critical_low", "critical_high"}

// Bands of a catalogue CSV row.
const (
	bandReference = "reference"
	bandCritical  = "critical"
	bandDelta     = "delta"
)

// WriteAnalytesCSV writes the analytes as CSV (numbers with "." as the point).
func WriteAnalytesCSV(w io.Writer, list []AnalyteEdit) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(analyteCSVHeader)
	num := func(f *float64) string {
		if f == nil {
			return ""
		}
		return strconv.FormatFloat(*f, 'f', -1, 64)
	}
	months := func(m *int) string {
		if m == nil {
			return ""
		}
		return strconv.Itoa(*m)
	}
	write := func(row []string) {
		for i, cell := range row { // a cell a spreadsheet would run as a formula starts with a quote
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				row[i] = "'" + cell
			}
		}
		_ = cw.Write(row)
	}
	for _, a := range list {
		head := []string{a.Code, a.LOINC, a.Type, a.Unit, strconv.Itoa(a.Decimals), num(a.PlausibleLow), num(a.PlausibleHigh),
			a.Answers, a.Labels.EN, a.Labels.RU, a.Labels.ZH, a.Labels.VI}
		if len(a.Ranges)+len(a.Critical)+len(a.DeltaRules) == 0 {
			write(append(head, "", "", "", "", "", "", "", "", "", ""))
		}
		for _, r := range a.Ranges {
			write(slices.Concat(head, []string{bandReference, r.Sex, strconv.Itoa(r.FromMonths), months(r.ToMonths), num(r.Low), num(r.High), "", "", "", ""}))
		}
		for _, c := range a.Critical {
			write(slices.Concat(head, []string{bandCritical, "", strconv.Itoa(c.FromMonths), months(c.ToMonths), num(c.Low), num(c.High), "", "", "", c.Source}))
		}
		for _, d := range a.DeltaRules {
			write(slices.Concat(head, []string{bandDelta, "", "", "", "", "", strconv.Itoa(d.WindowHours), num(d.Percent), num(d.Abs), d.Source}))
		}
	}
	cw.Flush()
	return cw.Error()
}

// ImportAnalytes reads a results catalogue CSV (WriteAnalytesCSV's columns): each analyte
// in the file gets its fields and exactly the file's ranges; one new is added. An analyte
// with any bad row is rejected whole (its ranges are never half replaced); the others are
// written, in one transaction.
func (s *Store) ImportAnalytes(ctx context.Context, e audit.Event, data []byte) (ImportReport, error) {
	rep := ImportReport{Errors: []RowError{}}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	legacy := err == nil && slices.Equal(header, legacyCSVHeader)
	if err != nil || (!legacy && !slices.Equal(header, analyteCSVHeader)) {
		return rep, apperr.Invalid("catalogue.analytes_header")
	}
	type group struct {
		a     AnalyteEdit
		lines []int
		bad   bool
	}
	var order []string
	groups := map[string]*group{}
	unreadable := false
	reject := func(line int, key string) {
		rep.Rejected++
		if len(rep.Errors) < MaxImportErrors {
			rep.Errors = append(rep.Errors, RowError{Line: line, Key: key})
		}
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(rec) != len(header) {
			// A row that cannot be read never lets its analyte be half written: the analyte it
			// names is rejected whole; a row that names none (unreadable quoting) rejects the file.
			reject(line, "catalogue.analytes_row")
			code := ""
			if len(rec) > 0 {
				code = strings.ToUpper(strings.TrimPrefix(strings.TrimSpace(rec[0]), "'"))
			}
			if code == "" {
				unreadable = true
				continue
			}
			if g, ok := groups[code]; ok {
				g.bad = true
			} else {
				groups[code] = &group{bad: true}
				order = append(order, code)
			}
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimPrefix(strings.TrimSpace(rec[i]), "'")
		}
		if legacy {
			rec = fromLegacy(rec)
		}
		a, row, key := parseAnalyteRow(rec)
		g, ok := groups[a.Code]
		if !ok {
			g = &group{a: a}
			g.a.Ranges, g.a.Critical, g.a.DeltaRules = []Range{}, []CriticalBand{}, []DeltaRule{}
			groups[a.Code] = g
			order = append(order, a.Code)
		}
		if g.bad && len(g.lines) == 0 { // named first by an unreadable row
			g.a = a
		}
		g.lines = append(g.lines, line)
		if key != "" {
			g.bad = true
			reject(line, key)
			continue
		}
		g.a.add(row, legacy)
	}
	if unreadable { // nothing is written from a file whose rows cannot all be told apart
		return rep, nil
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		for _, code := range order {
			g := groups[code]
			if g.bad {
				continue
			}
			var typ string
			err := tx.QueryRowContext(ctx, `SELECT type FROM lab_analytes WHERE code = $1`, code).Scan(&typ)
			fresh := errors.Is(err, sql.ErrNoRows)
			if err != nil && !fresh {
				return err
			}
			if legacy && !fresh {
				// A file of the earlier format knows nothing of critical bands by age or delta
				// windows: an analyte the clinic has keeps its own.
				stored, err := readAnalyteEdits(ctx, tx, code)
				if err != nil || len(stored) == 0 {
					return err
				}
				g.a.Critical, g.a.DeltaRules = stored[0].Critical, stored[0].DeltaRules
			}
			var v apperr.Validation
			g.a.check(&v, "")
			if !fresh && typ != g.a.Type {
				v.Add("type", "catalogue.analyte_type_fixed")
			}
			if verr := v.Err(); verr != nil {
				var ae *apperr.Error
				key := "catalogue.analytes_row"
				if errors.As(verr, &ae) {
					for _, keys := range ae.Fields {
						key = keys[0]
						break
					}
				}
				for _, line := range g.lines {
					reject(line, key)
				}
				continue
			}
			if err := writeAnalyte(ctx, tx, e, g.a, fresh); err != nil {
				return err
			}
			if fresh {
				rep.Inserted++
			} else {
				rep.Updated++
			}
		}
		return nil
	})
	return rep, err
}

// csvRow is what one CSV row holds beyond the analyte's fields: a band of one kind, or none.
type csvRow struct {
	rng      *Range
	critical *CriticalBand
	delta    *DeltaRule
}

// add adds a row's band to the analyte. A legacy file's critical limits come once per age
// (the sexes' rows repeat them) and its delta numbers once per analyte.
func (a *AnalyteEdit) add(row csvRow, legacy bool) {
	if row.rng != nil {
		a.Ranges = append(a.Ranges, *row.rng)
	}
	if row.critical != nil && !(legacy && slices.ContainsFunc(a.Critical, func(c CriticalBand) bool { return c.FromMonths == row.critical.FromMonths })) {
		a.Critical = append(a.Critical, *row.critical)
	}
	if row.delta != nil && !(legacy && len(a.DeltaRules) > 0) {
		a.DeltaRules = append(a.DeltaRules, *row.delta)
	}
}

// fromLegacy rewrites a row of the earlier file as the rows of today's (one or more bands in
// one: the reference band, with its critical limits and the analyte's delta numbers carried
// in columns the parser reads as further bands).
func fromLegacy(rec []string) []string {
	head := []string{rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[9], rec[10], rec[11], rec[12], rec[13]}
	band := ""
	if rec[14] != "" || rec[15] != "" || rec[16] != "" || rec[17] != "" || rec[18] != "" {
		band = bandReference
	}
	out := slices.Concat(head, []string{band, rec[14], rec[15], rec[16], rec[17], rec[18], "", "", "", ""})
	// The legacy columns travel after today's, read by parseAnalyteRow.
	return append(out, rec[19], rec[20], rec[7], rec[8])
}

// parseAnalyteRow reads one CSV row: the analyte's fields and its band, or the message key of
// what cannot be read. A legacy row (fromLegacy) also carries critical limits and delta
// numbers, which become a critical band at the row's ages and a delta rule over a year.
func parseAnalyteRow(rec []string) (AnalyteEdit, csvRow, string) {
	a := AnalyteEdit{Code: strings.ToUpper(rec[0]), LOINC: rec[1], Type: rec[2], Unit: rec[3], Answers: rec[7],
		Labels: AnalyteLabels{EN: rec[8], RU: rec[9], ZH: rec[10], VI: rec[11]}}
	var row csvRow
	var err error
	if a.Decimals, err = strconv.Atoi(cmp.Or(rec[4], "0")); err != nil {
		return a, row, "catalogue.decimals"
	}
	number := func(cell string) (*float64, bool) {
		if cell == "" {
			return nil, true
		}
		f, err := strconv.ParseFloat(cell, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return &f, true
	}
	cells := []string{rec[5], rec[6], rec[16], rec[17], rec[19], rec[20]}
	if len(rec) > len(analyteCSVHeader) {
		cells = append(cells, rec[22:]...)
	}
	nums := make([]*float64, len(cells))
	for i, cell := range cells {
		var ok bool
		if nums[i], ok = number(cell); !ok {
			return a, row, "validation.number"
		}
	}
	a.PlausibleLow, a.PlausibleHigh = nums[0], nums[1]
	from, to, ages := 0, (*int)(nil), ""
	if rec[14] != "" || rec[15] != "" {
		if from, err = strconv.Atoi(cmp.Or(rec[14], "0")); err != nil {
			ages = "catalogue.range_ages"
		}
		if rec[15] != "" {
			t, err := strconv.Atoi(rec[15])
			if err != nil {
				ages = "catalogue.range_ages"
			}
			to = &t
		}
	}
	switch rec[12] {
	case "":
		if rec[13] != "" || rec[14] != "" || rec[15] != "" || nums[2] != nil || nums[3] != nil || rec[18] != "" || nums[4] != nil || nums[5] != nil {
			return a, row, "catalogue.analytes_band"
		}
	case bandReference:
		row.rng = &Range{Sex: rec[13], FromMonths: from, ToMonths: to, Low: nums[2], High: nums[3]}
	case bandCritical:
		row.critical = &CriticalBand{FromMonths: from, ToMonths: to, Low: nums[2], High: nums[3], Source: rec[21]}
	case bandDelta:
		hours, err := strconv.Atoi(rec[18])
		if err != nil {
			return a, row, "catalogue.delta_window"
		}
		row.delta = &DeltaRule{WindowHours: hours, Percent: nums[4], Abs: nums[5], Source: rec[21]}
	default:
		return a, row, "catalogue.analytes_band"
	}
	if ages != "" {
		return a, row, ages
	}
	if len(nums) == 10 { // a legacy row: critical low, critical high, delta percent, delta abs
		if nums[6] != nil || nums[7] != nil {
			row.critical = &CriticalBand{FromMonths: from, ToMonths: to, Low: nums[6], High: nums[7], Source: "imported from a reference band"}
		}
		if nums[8] != nil || nums[9] != nil {
			row.delta = &DeltaRule{WindowHours: 24 * 365, Percent: nums[8], Abs: nums[9], Source: "imported without a window (a year given)"}
		}
	}
	return a, row, ""
}

// TestDefinition is what a test reports, as an administrator edits it: its LOINC code, its
// expected turnaround and its analytes in report order.
type TestDefinition struct {
	Code            string `json:"code"`
	Kind            string `json:"kind"`
	Label           string `json:"label"`
	LOINC           string `json:"loinc"`
	TurnaroundHours int    `json:"turnaround_hours"`
	// ServiceCode is the code of the price-list service an order of it is charged as ('' for
	// none: the desk is warned of the order instead).
	ServiceCode string   `json:"service_code"`
	Analytes    []string `json:"analytes"`
}

// MaxServiceCode is the longest price-list code a test may name.
const MaxServiceCode = 40

// MaxTestAnalytes is how many analytes one panel may report.
const MaxTestAnalytes = 40

// TestDefinitions lists every test with its LOINC code, turnaround and analytes, label in lang.
func (s *Store) TestDefinitions(ctx context.Context, lang string) ([]TestDefinition, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT code, kind, label_en, label_ru, label_zh, label_vi, loinc, turnaround_hours, service_code FROM lab_tests
		ORDER BY CASE kind WHEN 'lab' THEN 0 WHEN 'imaging' THEN 1 ELSE 2 END, code`)
	if err != nil {
		return nil, fmt.Errorf("read tests: %w", err)
	}
	out := []TestDefinition{}
	at := map[string]int{}
	for rows.Next() {
		var t TestDefinition
		var l Labels
		if err := rows.Scan(&t.Code, &t.Kind, &l.EN, &l.RU, &l.ZH, &l.VI, &t.LOINC, &t.TurnaroundHours, &t.ServiceCode); err != nil {
			rows.Close()
			return nil, err
		}
		t.Label, t.Analytes = l.In(lang), []string{}
		at[t.Code] = len(out)
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	members, err := s.DB.QueryContext(ctx, `SELECT test, analyte FROM lab_test_analytes ORDER BY test, position`)
	if err != nil {
		return nil, err
	}
	defer members.Close()
	for members.Next() {
		var test, analyte string
		if err := members.Scan(&test, &analyte); err != nil {
			return nil, err
		}
		if i, ok := at[test]; ok {
			out[i].Analytes = append(out[i].Analytes, analyte)
		}
	}
	return out, members.Err()
}

// SaveTestDefinition sets test code's LOINC code, turnaround and analytes (in report order).
// Orders already placed keep their results; a new order reports the new analytes.
func (s *Store) SaveTestDefinition(ctx context.Context, e audit.Event, code string, in TestDefinition) error {
	var v apperr.Validation
	in.LOINC = strings.TrimSpace(in.LOINC)
	if in.LOINC != "" && !ValidLOINC(in.LOINC) {
		v.Add("loinc", "catalogue.loinc_invalid")
	}
	if in.TurnaroundHours < 1 || in.TurnaroundHours > 24*90 {
		v.Add("turnaround_hours", "catalogue.turnaround")
	}
	if in.ServiceCode = strings.ToUpper(strings.TrimSpace(in.ServiceCode)); utf8.RuneCountInString(in.ServiceCode) > MaxServiceCode {
		v.Add("service_code", "validation.too_long")
	}
	seen := map[string]bool{}
	for i, a := range in.Analytes {
		if seen[a] {
			v.Add(fmt.Sprintf("analytes.%d", i), "result.duplicate_analyte")
		}
		seen[a] = true
	}
	switch {
	case len(in.Analytes) == 0:
		v.Add("analytes", "validation.required")
	case len(in.Analytes) > MaxTestAnalytes:
		v.Add("analytes", "validation.too_many")
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE lab_tests SET loinc = $1, turnaround_hours = $2, service_code = $3 WHERE code = $4`,
			in.LOINC, in.TurnaroundHours, in.ServiceCode, code)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("catalogue.test_not_found")
		}
		for i, a := range in.Analytes {
			var ok bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM lab_analytes WHERE code = $1)`, a).Scan(&ok); err != nil {
				return err
			}
			if !ok {
				v.Add(fmt.Sprintf("analytes.%d", i), "result.unknown_analyte")
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM lab_test_analytes WHERE test = $1`, code); err != nil {
			return err
		}
		for i, a := range in.Analytes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lab_test_analytes (test, analyte, position) VALUES ($1, $2, $3)`, code, a, i+1); err != nil {
				return fmt.Errorf("test analyte: %w", err)
			}
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "catalogue.test_save", "lab_test", code, audit.Success
		e.Detail = fmt.Sprintf("%d analytes", len(in.Analytes))
		return audit.Record(ctx, tx, e)
	})
}
