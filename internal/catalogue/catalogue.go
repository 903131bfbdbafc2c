// Package catalogue keeps the clinic's coded lists: diagnosis codes (ICD-10 by default,
// with labels in the four interface languages) and the laboratory and imaging tests a
// visit can order. A starter list of each ships with the binary; admins import a full
// code set from CSV.
package catalogue

import (
	"bytes"
	"context"
	"database/sql"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/textsearch"
)

//go:embed icd10_starter.tsv
var icd10Starter []byte

//go:embed lab_tests_starter.tsv
var labTestsStarter []byte

// Corrections to labels an earlier starter list shipped wrong (list, code, language, the
// label as shipped, the right one; no right one: the entry is retired). A database upgraded
// from that list gets them only where the label is still as shipped: a clinic's own wording
// is kept.
//
//go:embed starter_corrections.tsv
var starterCorrections []byte

// Labels holds a name in each interface language; English is required, the others fall
// back to it.
type Labels struct {
	EN, RU, ZH, VI string
}

// In returns the label in lang, or the English one when that language has none.
func (l Labels) In(lang string) string {
	s := map[string]string{"ru": l.RU, "zh": l.ZH, "vi": l.VI}[lang]
	if s == "" {
		return l.EN
	}
	return s
}

// Code is one diagnosis code as the API shows it: its label in the caller's language.
type Code struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// LabTest is one orderable test.
type LabTest struct {
	Code  string `json:"code"`
	Kind  string `json:"kind"` // lab, imaging or functional (ECG, echocardiography)
	Label string `json:"label"`
	// Includes are the other tests this one reports every analyte of (a panel's members: CMP
	// includes BMP), so that ordering both is seen where it is typed.
	Includes []string `json:"includes"`
}

// Store reads and writes the catalogues.
type Store struct {
	DB *database.DB
	// HasResults, when set, tells whether results of an analyte were recorded (the results
	// store's): its canonical unit is then fixed, as every value stored and every delta and
	// trend reads values in it (M3 of the laboratory clinician's review, 2026-11-29).
	HasResults func(ctx context.Context, q database.Querier, analyte string) (bool, error)
}

// codePattern accepts ICD-10 and ICD-10-CM codes (A09, J06.9, S52.501A) and other code
// systems' plain codes: letters, digits, dots and dashes.
var codePattern = regexp.MustCompile(`^[A-Z0-9][A-Z0-9.\-]{0,11}$`)

// NormalizeCode is how codes are stored and compared: trimmed, upper case.
func NormalizeCode(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// terms is the folded text that word search runs over: words separated by single spaces,
// with a leading space so that " word" finds a word's start. Chinese stays unspaced.
func terms(code string, l Labels) string { return foldTerms(code, l.EN, l.RU, l.ZH, l.VI) }

// foldTerms folds parts into the searchable words of a catalogue entry.
func foldTerms(parts ...string) string {
	return " " + strings.Join(words(strings.Join(parts, " ")), " ") + " "
}

// words splits folded text into its words: letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(textsearch.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordConditions appends a LIKE pattern to args for each of q's first five words and
// returns the condition that all of them match terms ("FALSE" when q has no words).
func wordConditions(q string, args []any) (string, []any) {
	var conds []string
	for _, w := range words(q) {
		args = append(args, wordPattern(w))
		conds = append(conds, fmt.Sprintf(`terms LIKE $%d ESCAPE '\'`, len(args)))
		if len(conds) == 5 {
			break
		}
	}
	if len(conds) == 0 {
		return "FALSE", args
	}
	return strings.Join(conds, " AND "), args
}

// wordPattern matches a query word at the start of a label's word; Chinese, written
// without spaces, matches anywhere.
func wordPattern(w string) string {
	for _, r := range w {
		if unicode.Is(unicode.Han, r) {
			return "%" + likeEscape(w) + "%"
		}
	}
	return "% " + likeEscape(w) + "%"
}

// MaxResults is how many codes one search returns.
const MaxResults = 20

// Search finds active codes by code prefix ("j06", "E11.9") or by words that all occur in
// a label in any of the four languages ("pharyng", "гастрит", "胃炎"); lang chooses the
// label shown.
func (s *Store) Search(ctx context.Context, q, lang string) ([]Code, error) {
	q = strings.TrimSpace(q)
	if utf8.RuneCountInString(q) > 100 {
		return nil, apperr.Invalid("validation.query")
	}
	args := []any{}
	where := "active"
	if q != "" {
		prefix := NormalizeCode(q)
		args = append(args, prefix, textsearch.PrefixEnd(prefix))
		var cond string
		cond, args = wordConditions(q, args)
		where += " AND ((code >= $1 AND code < $2) OR (" + cond + "))"
	}
	args = append(args, MaxResults)
	rows, err := s.DB.QueryContext(ctx, `SELECT code, label_en, label_ru, label_zh, label_vi FROM diagnosis_codes
		WHERE `+where+` ORDER BY code LIMIT $`+fmt.Sprint(len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("search codes: %w", err)
	}
	defer rows.Close()
	out := []Code{}
	for rows.Next() {
		var c Code
		var l Labels
		if err := rows.Scan(&c.Code, &l.EN, &l.RU, &l.ZH, &l.VI); err != nil {
			return nil, err
		}
		c.Label = l.In(lang)
		out = append(out, c)
	}
	return out, rows.Err()
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Labels returns the labels of the given codes in lang (codes not in the list are left out).
func (s *Store) Labels(ctx context.Context, q database.Querier, codes []string, lang string) (map[string]string, error) {
	return CodeLabels(ctx, q, codes, lang)
}

// CodeLabels returns the labels of the given codes in lang, read through q: inside a caller's
// transaction, without a store (codes not in the list are left out).
func CodeLabels(ctx context.Context, q database.Querier, codes []string, lang string) (map[string]string, error) {
	out := map[string]string{}
	err := database.InChunks(codes, 200, func(chunk []string) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT code, label_en, label_ru, label_zh, label_vi FROM diagnosis_codes WHERE code IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("read code labels: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var code string
			var l Labels
			if err := rows.Scan(&code, &l.EN, &l.RU, &l.ZH, &l.VI); err != nil {
				return err
			}
			out[code] = l.In(lang)
		}
		return rows.Err()
	})
	return out, err
}

// LabTests lists the active orderable tests, labs first, with labels in lang.
func (s *Store) LabTests(ctx context.Context, lang string) ([]LabTest, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT code, kind, label_en, label_ru, label_zh, label_vi FROM lab_tests
		WHERE active ORDER BY CASE kind WHEN 'lab' THEN 0 WHEN 'imaging' THEN 1 ELSE 2 END, code`)
	if err != nil {
		return nil, fmt.Errorf("list lab tests: %w", err)
	}
	defer rows.Close()
	out := []LabTest{}
	for rows.Next() {
		var t LabTest
		var l Labels
		if err := rows.Scan(&t.Code, &t.Kind, &l.EN, &l.RU, &l.ZH, &l.VI); err != nil {
			return nil, err
		}
		t.Label, t.Includes = l.In(lang), []string{}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	codes := make([]string, len(out))
	for i, t := range out {
		codes[i] = t.Code
	}
	analytes, err := TestAnalytes(ctx, s.DB, codes)
	if err != nil {
		return nil, err
	}
	for i, panel := range out {
		for _, member := range out {
			if Includes(analytes[panel.Code], analytes[member.Code]) {
				out[i].Includes = append(out[i].Includes, member.Code)
			}
		}
	}
	return out, nil
}

// Includes says whether a test reporting panel reports every analyte of a test reporting
// member, and more (the billing of orders reads the same rule, ADR 41).
func Includes(panel, member []string) bool {
	return len(member) > 0 && len(panel) > len(member) && !slices.ContainsFunc(member, func(a string) bool { return !slices.Contains(panel, a) })
}

// LabTestExists reports whether code is an active orderable test.
func LabTestExists(ctx context.Context, q database.Querier, code string) (bool, error) {
	var ok bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM lab_tests WHERE code = $1 AND active)`, code).Scan(&ok)
	return ok, err
}

// CodeExists reports whether code is an active diagnosis code.
func CodeExists(ctx context.Context, q database.Querier, code string) (bool, error) {
	var ok bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM diagnosis_codes WHERE code = $1 AND active)`, code).Scan(&ok)
	return ok, err
}

// RowError is one rejected line of an import, with the message key that says why.
type RowError struct {
	Line int    `json:"line"`
	Key  string `json:"-"`
	// Message is Key in the caller's language (filled by the handler).
	Message string `json:"message"`
}

// ImportReport says what an import did.
type ImportReport struct {
	Inserted  int `json:"inserted"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Rejected  int `json:"rejected"`
	// Errors are the rejected lines, the first MaxImportErrors of them.
	Errors []RowError `json:"errors"`
}

type codeRow struct {
	code   string
	labels Labels
}

// importBatch is how many good rows an import writes per transaction: short transactions
// leave the database to other writers between them (SQLite has one writer at a time), and
// only a batch is held in memory at once.
const importBatch = 500

// importPause is the gap an import leaves between its batches for other writers.
const importPause = 10 * time.Millisecond

// Progress hears how far an import has got: rows written, and about how many the file has.
type Progress func(done, total int)

type progressKey struct{}

// WithProgress returns a context in which an import reports its progress to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// importRows streams an import file into table: parse hands over each good row as it is
// read, and every importBatch rows are written in a transaction of their own, audited in it
// (e, the importer's, with the batch's counts; the last batch's with the file's rejected
// lines too); the table's
// statistics are refreshed when rows were added. Rows are independent and an
// import is idempotent (matched rows are updated, not added twice), so an import cut short
// is finished by importing the file again.
func importRows[T any](ctx context.Context, db *database.DB, e audit.Event, data []byte, parse func([]byte, func(T) error) ([]RowError, error),
	write func(tx *sql.Tx, rows []T, rep *ImportReport) error, table string) (ImportReport, error) {
	var rep ImportReport
	batch := make([]T, 0, importBatch)
	good, written := 0, 0
	progress, _ := ctx.Value(progressKey{}).(Progress)
	lines := bytes.Count(data, []byte("\n")) // about the rows: the lines, less the header
	if !bytes.HasSuffix(data, []byte("\n")) {
		lines++
	}
	lines = max(lines-1, 1)
	rejected := ""
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			before := rep
			if err := write(tx, batch, &rep); err != nil {
				return err
			}
			e.Action, e.EntityType, e.Outcome = "catalogue.import", table, audit.Success
			e.Detail = fmt.Sprintf("rows %d to %d: inserted %d, updated %d, unchanged %d%s", written+1, written+len(batch),
				rep.Inserted-before.Inserted, rep.Updated-before.Updated, rep.Unchanged-before.Unchanged, rejected)
			return audit.Record(ctx, tx, e)
		})
		written += len(batch)
		if progress != nil && err == nil {
			progress(written, max(lines, written))
		}
		batch = batch[:0]
		// A breath between batches: a writer waiting on SQLite's lock (which it polls)
		// gets in, rather than the import taking the lock again at once.
		time.Sleep(importPause)
		return err
	}
	bad, err := parse(data, func(row T) error {
		good++
		if batch = append(batch, row); len(batch) == importBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		rejected = fmt.Sprintf("; rejected %d lines of the file", len(bad))
		err = flush()
	}
	counts := rep
	rep = newReport(bad)
	rep.Inserted, rep.Updated, rep.Unchanged = counts.Inserted, counts.Updated, counts.Unchanged
	if err != nil {
		return rep, err
	}
	if good == 0 && len(bad) == 0 {
		return rep, apperr.Invalid("catalogue.empty")
	}
	if rep.Inserted > 0 {
		// Statistics taken when the table was small would make its searches scan it.
		return rep, db.AnalyzeTables(ctx, table)
	}
	return rep, nil
}

// newReport starts the report of an import that rejected the lines bad.
func newReport(bad []RowError) ImportReport {
	rep := ImportReport{Errors: bad, Rejected: len(bad)}
	if len(rep.Errors) > MaxImportErrors {
		rep.Errors = rep.Errors[:MaxImportErrors]
	}
	if rep.Errors == nil {
		rep.Errors = []RowError{}
	}
	return rep
}

// MaxImportErrors is how many bad lines an import reports; past that it still counts.
const MaxImportErrors = 200

// parseCodes reads a CSV (comma, semicolon or tab separated, found from the header line)
// with the columns code and label_en, and optionally label_ru, label_zh, label_vi in any
// order. Bad rows are reported by line and left out; the good ones are returned.
func parseCodes(data []byte) ([]codeRow, []RowError, error) {
	var rows []codeRow
	bad, err := streamCodes(data, func(r codeRow) error { rows = append(rows, r); return nil })
	return rows, bad, err
}

// streamCodes reads a codes CSV as parseCodes does, handing each good row to emit as it is read.
func streamCodes(data []byte, emit func(codeRow) error) ([]RowError, error) {
	seen := map[string]bool{}
	var emitErr error
	bad, err := readCSV(data, []string{"code", "label_en"}, func(field func(string) string) string {
		row := codeRow{code: NormalizeCode(field("code")), labels: Labels{
			EN: field("label_en"), RU: field("label_ru"), ZH: field("label_zh"), VI: field("label_vi")}}
		key := ""
		switch {
		case !codePattern.MatchString(row.code):
			key = "catalogue.bad_code"
		case row.labels.EN == "":
			key = "catalogue.no_label"
		case utf8.RuneCountInString(row.labels.EN) > 300 || utf8.RuneCountInString(row.labels.RU) > 300 ||
			utf8.RuneCountInString(row.labels.ZH) > 300 || utf8.RuneCountInString(row.labels.VI) > 300:
			key = "catalogue.label_too_long"
		case seen[row.code]:
			key = "catalogue.duplicate_code"
		}
		if key == "" && emitErr == nil {
			seen[row.code] = true
			emitErr = emit(row)
		}
		return key
	})
	if err == nil {
		err = emitErr
	}
	return bad, err
}

// readCSV reads an import file (comma, semicolon or tab separated, found from the header
// line) whose header names at least the required columns, in any order. row is called
// for each data line with a reader of its trimmed fields by column name, and returns the
// message key that rejects the line, or "" to keep it. Rejected lines are returned.
func readCSV(data []byte, required []string, row func(field func(string) string) string) ([]RowError, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a spreadsheet's byte-order mark
	if !utf8.Valid(data) {
		return nil, apperr.Invalid("catalogue.not_utf8")
	}
	header, _, _ := bytes.Cut(data, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ','
	for _, sep := range []rune{'\t', ';'} {
		if bytes.ContainsRune(header, sep) {
			r.Comma = sep
			break
		}
	}
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	head, err := r.Read()
	if err != nil {
		return nil, apperr.Invalid("catalogue.no_header")
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, name := range required {
		if _, ok := col[name]; !ok {
			return nil, apperr.Invalid("catalogue.no_header")
		}
	}
	var bad []RowError
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var perr *csv.ParseError
			if errors.As(err, &perr) {
				bad = append(bad, RowError{Line: perr.Line, Key: "catalogue.bad_line"})
				continue
			}
			return nil, fmt.Errorf("read csv: %w", err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		field := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if key := row(field); key != "" {
			bad = append(bad, RowError{Line: line, Key: key})
		}
	}
	return bad, nil
}

// ImportCodes adds the file's codes and updates the labels of codes already known; the
// same file imported twice changes nothing the second time.
func (s *Store) ImportCodes(ctx context.Context, e audit.Event, data []byte) (ImportReport, error) {
	return importRows(ctx, s.DB, e, data, streamCodes, func(tx *sql.Tx, rows []codeRow, rep *ImportReport) error {
		known := map[string]Labels{}
		existing, err := tx.QueryContext(ctx, `SELECT code, label_en, label_ru, label_zh, label_vi FROM diagnosis_codes`)
		if err != nil {
			return fmt.Errorf("read codes: %w", err)
		}
		for existing.Next() {
			var code string
			var l Labels
			if err := existing.Scan(&code, &l.EN, &l.RU, &l.ZH, &l.VI); err != nil {
				existing.Close()
				return err
			}
			known[code] = l
		}
		existing.Close()
		var fresh []codeRow
		for _, r := range rows {
			old, ok := known[r.code]
			switch {
			case !ok:
				fresh = append(fresh, r)
			case old == r.labels:
				rep.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE diagnosis_codes SET label_en = $1, label_ru = $2, label_zh = $3, label_vi = $4,
					terms = $5, active = TRUE WHERE code = $6`, r.labels.EN, r.labels.RU, r.labels.ZH, r.labels.VI, terms(r.code, r.labels), r.code); err != nil {
					return fmt.Errorf("update code %s: %w", r.code, err)
				}
				rep.Updated++
			}
		}
		rep.Inserted = len(fresh)
		return insertCodes(ctx, tx, s.DB, fresh)
	}, "diagnosis_codes")
}

// insertCodes writes new codes in multi-row statements.
func insertCodes(ctx context.Context, tx *sql.Tx, db *database.DB, rows []codeRow) error {
	const perStatement = 300 // 6 parameters each
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), perStatement)]
		rows = rows[len(chunk):]
		var q strings.Builder
		q.WriteString(`INSERT INTO diagnosis_codes (code, label_en, label_ru, label_zh, label_vi, terms) VALUES `)
		args := make([]any, 0, len(chunk)*6)
		for i, r := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(")
			for j := range 6 {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString(db.Placeholder(len(args) + j + 1))
			}
			q.WriteString(")")
			args = append(args, r.code, r.labels.EN, r.labels.RU, r.labels.ZH, r.labels.VI, terms(r.code, r.labels))
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("insert codes: %w", err)
		}
	}
	return nil
}

// starterVersion is raised when the shipped starter lists change, so that existing
// databases receive the new entries (entries already there are left as the clinic has them).
const starterVersion = 9

// InstallStarter adds the shipped starter lists (ICD-10 codes, lab/imaging tests, medicines) once
// per starterVersion. It runs after migrations at every start and is cheap when done.
func InstallStarter(ctx context.Context, db *database.DB) error {
	have, err := database.Counter(ctx, db, "catalogue:starter")
	if err != nil {
		return fmt.Errorf("read starter version: %w", err)
	}
	if have >= starterVersion {
		return nil
	}
	codes, bad, err := parseCodes(icd10Starter)
	if err != nil || len(bad) > 0 {
		return fmt.Errorf("starter codes: %v %v", err, bad)
	}
	tests, err := readTSV(labTestsStarter, 6)
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, c := range codes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO diagnosis_codes (code, label_en, label_ru, label_zh, label_vi, terms)
				VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code) DO NOTHING`,
				c.code, c.labels.EN, c.labels.RU, c.labels.ZH, c.labels.VI, terms(c.code, c.labels)); err != nil {
				return fmt.Errorf("starter code %s: %w", c.code, err)
			}
		}
		for _, t := range tests {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lab_tests (code, kind, label_en, label_ru, label_zh, label_vi, service_code)
				VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (code) DO NOTHING`, t[0], t[1], t[2], t[3], t[4], t[5], starterService(t[0], t[1])); err != nil {
				return fmt.Errorf("starter test %s: %w", t[0], err)
			}
		}
		if err := installMedicines(ctx, tx); err != nil {
			return err
		}
		if err := installResultsCatalogue(ctx, tx); err != nil {
			return err
		}
		// Ranitidine was withdrawn worldwide (NDMA, 2020): the starter entry is no longer
		// offered (prescriptions that name it keep it); famotidine takes its place.
		if _, err := tx.ExecContext(ctx, `UPDATE medicines SET active = FALSE, version = version + 1
			WHERE generic_name = 'Ranitidine' AND brand = '' AND strength = '150 mg' AND form = 'tablet' AND active`); err != nil {
			return fmt.Errorf("retire ranitidine: %w", err)
		}
		if err := correctStarter(ctx, tx); err != nil {
			return err
		}
		return database.SetCounter(ctx, tx, "catalogue:starter", starterVersion)
	})
}

// starterService is the price-list code a shipped test is charged as: the starter price
// list's (billing's) LAB-<test> for a laboratory test, and the few whose starter service has
// a code of its own; ” for the rest. Migration 00050 links the tests of older databases so.
func starterService(code, kind string) string {
	switch {
	case code == "GLU":
		return "LAB-FBS"
	case code == "ECG":
		return "PROC-ECG"
	case code == "XR-CHEST":
		return "IMG-CXR"
	case kind == "lab":
		return "LAB-" + code
	}
	return ""
}

// correctionSQL is, per list and language, the statement that puts a corrected label in
// place of the shipped one ($1 code, $2 as shipped, $3 corrected).
var correctionSQL = map[string]string{
	"diagnosis/en": `UPDATE diagnosis_codes SET label_en = $3, terms = '' WHERE code = $1 AND label_en = $2`,
	"diagnosis/ru": `UPDATE diagnosis_codes SET label_ru = $3, terms = '' WHERE code = $1 AND label_ru = $2`,
	"diagnosis/zh": `UPDATE diagnosis_codes SET label_zh = $3, terms = '' WHERE code = $1 AND label_zh = $2`,
	"diagnosis/vi": `UPDATE diagnosis_codes SET label_vi = $3, terms = '' WHERE code = $1 AND label_vi = $2`,
	"test/en":      `UPDATE lab_tests SET label_en = $3 WHERE code = $1 AND label_en = $2`,
	"test/ru":      `UPDATE lab_tests SET label_ru = $3 WHERE code = $1 AND label_ru = $2`,
	"test/zh":      `UPDATE lab_tests SET label_zh = $3 WHERE code = $1 AND label_zh = $2`,
	"test/vi":      `UPDATE lab_tests SET label_vi = $3 WHERE code = $1 AND label_vi = $2`,
}

// correctStarter applies starterCorrections, then refreshes the search terms of the codes it changed.
func correctStarter(ctx context.Context, tx *sql.Tx) error {
	rows, err := readTSV(starterCorrections, 5)
	if err != nil {
		return fmt.Errorf("starter corrections: %w", err)
	}
	for _, r := range rows {
		list, code, lang, was, now := r[0], r[1], r[2], r[3], r[4]
		if now == "" { // retired: no longer offered, still shown on the records that hold it
			if _, err := tx.ExecContext(ctx, `UPDATE diagnosis_codes SET active = FALSE WHERE code = $1 AND label_en = $2`, code, was); err != nil {
				return fmt.Errorf("retire %s: %w", code, err)
			}
			continue
		}
		stmt, ok := correctionSQL[list+"/"+lang]
		if !ok {
			return fmt.Errorf("starter correction %s %s: no list %s/%s", list, code, list, lang)
		}
		if _, err := tx.ExecContext(ctx, stmt, code, was, now); err != nil {
			return fmt.Errorf("correct %s %s: %w", code, lang, err)
		}
	}
	stale, err := tx.QueryContext(ctx, `SELECT code, label_en, label_ru, label_zh, label_vi FROM diagnosis_codes WHERE terms = ''`)
	if err != nil {
		return err
	}
	var fixed []codeRow
	for stale.Next() {
		var c codeRow
		if err := stale.Scan(&c.code, &c.labels.EN, &c.labels.RU, &c.labels.ZH, &c.labels.VI); err != nil {
			stale.Close()
			return err
		}
		fixed = append(fixed, c)
	}
	stale.Close()
	if err := stale.Err(); err != nil {
		return err
	}
	for _, c := range fixed {
		if _, err := tx.ExecContext(ctx, `UPDATE diagnosis_codes SET terms = $2 WHERE code = $1`, c.code, terms(c.code, c.labels)); err != nil {
			return err
		}
	}
	return nil
}
