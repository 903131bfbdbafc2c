package patient

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"emr/internal/database"
	"emr/internal/textsearch"
)

// Filter is a search of the register for programs (the FHIR API): every condition set must
// hold. Its pages are keyset pages in id order — after (or, going back, before) an id —
// so that a page never repeats or skips a patient while others are registered.
type Filter struct {
	IDs []int64 // one of these ids
	MRN string  // this patient number exactly
	// Identifier is an identifier of another system the patient has (Received).
	Identifier *IdentifierMatch
	Words      []string // every word starts a part of the name (textsearch.Tokens)
	Sex        string
	BirthFrom  string // birth date on or after (YYYY-MM-DD)
	BirthTo    string // birth date before
	UpdatedGE  *time.Time
	UpdatedLT  *time.Time
	Archived   *bool // nil: either
	// WithoutHistory leaves the medical history out of the patients read (their lists
	// empty, allergies not asked): for readers that show demographics only.
	WithoutHistory bool
	After          int64 // ids above this one (ascending), or below it (descending)
	Descending     bool
	Limit          int
}

// IdentifierMatch finds patients by an identifier, as FHIR's token search reads one: a
// value in any system (the patient number too, when OrNumber), a value with no system
// (HasSystem, System ""), a value in a system, or any value of a system (Value "").
type IdentifierMatch struct {
	System    string
	Value     string
	HasSystem bool
	OrNumber  bool // the value may also be the clinic's own patient number
}

// condition is m's SQL condition on p.id, its values numbered from n by arg: each form
// reads the identifiers' indexes (value first, or the system's unique index).
func (m IdentifierMatch) condition(arg func(any) string) string {
	switch {
	case !m.HasSystem && m.OrNumber:
		v := arg(m.Value)
		// One id list from both indexes: an OR of the number and a subquery makes PostgreSQL
		// walk every patient in id order, filtering each.
		return "p.id IN (SELECT id FROM patients WHERE mrn = " + v + " UNION SELECT patient_id FROM patient_identifiers WHERE value = " + v + ")"
	case !m.HasSystem:
		return "p.id IN (SELECT patient_id FROM patient_identifiers WHERE value = " + arg(m.Value) + ")"
	case m.Value == "" && m.System != "":
		return "p.id IN (SELECT patient_id FROM patient_identifiers WHERE system = " + arg(m.System) + " AND system <> '')"
	}
	return "p.id IN (SELECT patient_id FROM patient_identifiers WHERE value = " + arg(m.Value) + " AND system = " + arg(m.System) + ")"
}

// Page returns up to f.Limit patients matching f, in id order from f.After, and the last
// id it looked at (where the next page starts, even when a name search stopped early).
func (s *Store) Page(ctx context.Context, f Filter) ([]Patient, int64, error) {
	return s.page(ctx, s.DB, f)
}

// PageIn is Page as q sees the register: inside a writer's transaction, with the patients
// it has written (a FHIR transaction's conditional references).
func (s *Store) PageIn(ctx context.Context, q database.Querier, f Filter) ([]Patient, int64, error) {
	return s.page(ctx, q, f)
}

// page is Page on q (a transaction, or the database).
func (s *Store) page(ctx context.Context, q database.Querier, f Filter) ([]Patient, int64, error) {
	if len(f.Words) == 0 {
		list, err := s.pageWhere(ctx, q, f, nil)
		last := f.After
		if len(list) > 0 {
			last = list[len(list)-1].ID
		}
		return list, last, err
	}
	// A name search takes its matches from the name-token index in id order (nameWalk),
	// a batch at a time, and checks each batch against the rest of the filter by primary key.
	var out []Patient
	after := f.After
	batch := max(f.Limit, 16)
	walk, err := s.nameWalkOf(ctx, q, f.Words, f.Descending)
	if err != nil {
		return nil, after, err
	}
	for {
		ids, err := walk.matches(ctx, q, after, batch)
		if err != nil {
			return nil, after, err
		}
		if len(ids) == 0 {
			return out, after, nil
		}
		g := f
		g.After, g.Limit = 0, f.Limit-len(out)
		matched, err := s.pageWhere(ctx, q, g, ids)
		if err != nil {
			return nil, after, err
		}
		for _, p := range matched {
			out = append(out, p)
			after = p.ID
			if len(out) == f.Limit {
				return out, after, nil
			}
		}
		after = ids[len(ids)-1]
		if len(ids) < batch {
			return out, after, nil
		}
		batch = min(4*batch, 2000) // the rest of the filter is selective: read more at a time
	}
}

// rareWord bounds how many name parts a word may start and still be read all at once: below
// the threshold nameWalkOf works out (at most this), every match is read from the token
// index's range and sorted; above it, matches are dense enough that walking the (patient,
// token) index in id order finds a page quickly.
const rareWord = 10_000

// rarity remembers for a minute whether a word is rare (which way its search reads): a
// register changes that slowly, and either way finds the same patients.
var rarity = wordRarity{words: map[string]rarityEntry{}}

type rarityEntry struct {
	rare  bool
	until time.Time
}

type wordRarity struct {
	mu    sync.Mutex
	words map[string]rarityEntry
}

func (c *wordRarity) get(w string) (rare, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.words[w]
	if !ok || time.Now().After(e.until) {
		return false, false
	}
	return e.rare, true
}

func (c *wordRarity) put(w string, rare bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.words) > 10_000 {
		c.words = map[string]rarityEntry{}
	}
	c.words[w] = rarityEntry{rare: rare, until: time.Now().Add(time.Minute)}
}

// mergeTokens bounds how many distinct name parts a word may start and still be read as
// that many walks merged (nameWalk): a surname or a common given name starts one to a
// few; a letter or two start hundreds.
const mergeTokens = 8

// nameWalk is how a name search reads its candidates, worked out once per search: the
// longest word gives them through the name-token index, the other words are checked against
// each batch. A word that starts few distinct parts is read as one walk of the (part,
// patient) index per part, in id order, merged: each reads only the rows the page needs.
// Otherwise rareWord says which way the index is read.
type nameWalk struct {
	s     *Store
	words []string
	lead  int
	desc  bool
	query string                        // "" when the lead word starts no name part
	args  func(from int64, n int) []any // the query's arguments
}

func (s *Store) nameWalkOf(ctx context.Context, q database.Querier, words []string, desc bool) (nameWalk, error) {
	words = words[:min(len(words), maxTokens)]
	lead := 0
	for i, w := range words {
		if len([]rune(w)) > len([]rune(words[lead])) {
			lead = i
		}
	}
	nw := nameWalk{s: s, words: words, lead: lead, desc: desc}
	w := words[lead]
	end := textsearch.PrefixEnd(w)
	op, order := ">", "ASC"
	if desc {
		op, order = "<", "DESC"
	}
	parts, err := prefixParts(ctx, q, w, end)
	if err != nil || len(parts) == 0 {
		return nw, err
	}
	if len(parts) <= mergeTokens {
		nw.query, nw.args = mergedWalk(len(parts), op, order), func(from int64, n int) []any {
			out := []any{from, n}
			for _, p := range parts {
				out = append(out, p)
			}
			return out
		}
		return nw, nil
	}
	nw.query, err = s.prefixWalk(ctx, q, w, end, op, order)
	nw.args = func(from int64, n int) []any { return []any{from, w, end, n} }
	return nw, err
}

// matches lists up to limit ids, after `after` in id order (below it when descending), of
// the patients every one of whose words starts a part of their name.
func (nw nameWalk) matches(ctx context.Context, q database.Querier, after int64, limit int) ([]int64, error) {
	if nw.query == "" {
		return nil, nil
	}
	from := after
	if nw.desc && from == 0 {
		from = 1<<63 - 1
	}
	// Twice the rows a page needs: a patient with two parts in the range comes twice. The
	// other words may reject candidates: then more are read, from where these end.
	var out []int64
	for len(out) < limit {
		rows, err := database.Column[int64](q.QueryContext(ctx, nw.query, nw.args(from, 2*limit)...))
		if err != nil {
			return nil, fmt.Errorf("search patient names: %w", err)
		}
		candidates := slices.Compact(rows)
		if len(candidates) == 0 {
			break
		}
		from = candidates[len(candidates)-1]
		matched, err := nw.s.withWords(ctx, q, nw.words, nw.lead, candidates)
		if err != nil {
			return nil, err
		}
		out = append(out, matched[:min(len(matched), limit-len(out))]...)
		if len(rows) < 2*limit {
			break
		}
	}
	return out, nil
}

// prefixParts lists the distinct name parts starting with word (end is textsearch.PrefixEnd's),
// up to mergeTokens+1: one index seek each, as a loose scan of the (part, patient) index.
func prefixParts(ctx context.Context, q database.Querier, word, end string) ([]string, error) {
	// ORDER BY … LIMIT 1 rather than MIN: PostgreSQL, guessing a word rare, would read all of
	// its matches to aggregate them.
	parts, err := database.Column[string](q.QueryContext(ctx, `WITH RECURSIVE t(part) AS (
		SELECT (SELECT token FROM patient_name_tokens WHERE token >= $1 AND token < $2 ORDER BY token LIMIT 1)
		UNION ALL SELECT (SELECT token FROM patient_name_tokens WHERE token > t.part AND token < $2 ORDER BY token LIMIT 1) FROM t WHERE t.part IS NOT NULL)
		SELECT part FROM t WHERE part IS NOT NULL LIMIT $3`, word, end, mergeTokens+1))
	if err != nil {
		return nil, fmt.Errorf("search patient names: %w", err)
	}
	return parts, nil
}

// mergedWalk is the query reading, for n name parts ($3…), the patients having each after
// $1 (before it: op "<, order "DESC") in id order, up to $2 of each, merged in id order: n
// index range scans of $2 rows, whatever the register's size.
func mergedWalk(n int, op, order string) string {
	walks := make([]string, n)
	for i := range walks {
		walks[i] = `SELECT * FROM (SELECT patient_id FROM patient_name_tokens WHERE token = $` + strconv.Itoa(i+3) + ` AND patient_id ` + op +
			` $1 ORDER BY patient_id ` + order + ` LIMIT $2) AS w` + strconv.Itoa(i)
	}
	return strings.Join(walks, " UNION ALL ") + ` ORDER BY 1 ` + order + ` LIMIT $2`
}

// prefixWalk is the query reading the patients with a part in [word, end) after $1 in id
// order, for a word that starts many distinct parts: from the word's range of the (part,
// patient) index, sorted, when its matches are few; else walking the (patient, part) index
// in id order.
func (s *Store) prefixWalk(ctx context.Context, q database.Querier, w, end, op, order string) (string, error) {
	rare, known := rarity.get(w)
	if !known {
		// Reading all of a word's matches costs what they number; walking the register in id
		// order costs the register's size over their number for each row of a page: the two
		// meet near the square root of 8 × the register (a page of a few dozen, an index entry
		// read in order far cheaper than one sorted).
		// On q, not the pool: q may be a transaction (a conditional create), which waiting
		// for a second connection could deadlock.
		total, err := activeCount(ctx, q)
		if err != nil {
			return "", err
		}
		threshold := min(max(int(math.Sqrt(float64(8*max(total, 1)))), 100), rareWord)
		var n int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM patient_name_tokens WHERE token >= $1 AND token < $2 LIMIT $3) m`,
			w, end, threshold).Scan(&n); err != nil {
			return "", fmt.Errorf("search patient names: %w", err)
		}
		rare = n < threshold
		rarity.put(w, rare)
	}
	// Each way reads one index, whatever the planner's statistics say (a wrong guess sorts a
	// common word's every match, or walks the register for a rare one): SQLite is told which;
	// on PostgreSQL the walk compares an expression of the token, which the (token, patient)
	// index cannot serve, and the rare way orders by an expression, which the (patient,
	// token) index cannot.
	byToken, byPatient, tokenExpr, orderExpr := "", "", "token", "patient_id"
	if s.DB.Engine == database.SQLite {
		byToken, byPatient = " INDEXED BY sqlite_autoindex_patient_name_tokens_1", " INDEXED BY patient_name_tokens_patient"
	} else {
		tokenExpr, orderExpr = "(token || '')", "patient_id + 0"
	}
	if rare {
		return `SELECT patient_id FROM patient_name_tokens` + byToken + ` WHERE token >= $2 AND token < $3 AND patient_id ` + op + ` $1
			ORDER BY ` + orderExpr + ` ` + order + ` LIMIT $4`, nil
	}
	return `SELECT patient_id FROM patient_name_tokens` + byPatient + ` WHERE patient_id ` + op + ` $1 AND ` + tokenExpr + ` >= $2 AND ` + tokenExpr + ` < $3
		ORDER BY patient_id ` + order + ` LIMIT $4`, nil
}

// withWords keeps, in order, the candidates whose name has a part starting with each word
// but words[lead] (which found them).
func (s *Store) withWords(ctx context.Context, q database.Querier, words []string, lead int, candidates []int64) ([]int64, error) {
	keep := map[int64]bool{}
	for _, id := range candidates {
		keep[id] = true
	}
	for i, other := range words {
		if i == lead || len(keep) == 0 {
			continue
		}
		ids := make([]int64, 0, len(keep))
		for id := range keep {
			ids = append(ids, id)
		}
		in, args := database.InIDs(q, "patient_id", ids, 3)
		found, err := database.Column[int64](q.QueryContext(ctx, `SELECT patient_id FROM patient_name_tokens WHERE token >= $1 AND token < $2 AND `+in,
			append([]any{other, textsearch.PrefixEnd(other)}, args...)...))
		if err != nil {
			return nil, fmt.Errorf("search patient names: %w", err)
		}
		next := map[int64]bool{}
		for _, id := range found {
			next[id] = true
		}
		keep = next
	}
	var out []int64
	for _, id := range candidates {
		if keep[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// pageWhere reads the patients matching f's conditions but its words, among ids when not
// nil, in id order from f.After, up to f.Limit. Each condition is a fixed fragment with a
// bound parameter.
func (s *Store) pageWhere(ctx context.Context, q database.Querier, f Filter, ids []int64) ([]Patient, error) {
	query, args := pageQuery(q, f, ids)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("page patients: %w", err)
	}
	defer rows.Close()
	var out []Patient
	for rows.Next() {
		p, err := scanPatient(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil || ids == nil {
		return out, err
	}
	slices.SortFunc(out, func(a, b Patient) int {
		if f.Descending {
			return cmp.Compare(b.ID, a.ID)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out[:min(len(out), f.Limit)], nil
}

// pageQuery is pageWhere's SQL and its arguments.
func pageQuery(q database.Querier, f Filter, ids []int64) (string, []any) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if ids != nil {
		in, inArgs := database.InIDs(q, "p.id", ids, 1)
		where, args = append(where, in), append(args, inArgs...)
	}
	if len(f.IDs) > 0 {
		in, inArgs := database.InIDs(q, "p.id", f.IDs, len(args)+1)
		where, args = append(where, in), append(args, inArgs...)
	}
	if f.MRN != "" {
		where = append(where, "p.mrn = "+arg(f.MRN))
	}
	if f.Identifier != nil {
		where = append(where, f.Identifier.condition(arg))
	}
	if f.Sex != "" {
		where = append(where, "p.sex = "+arg(f.Sex))
	}
	if f.BirthFrom != "" {
		where = append(where, "p.birth_date >= "+arg(f.BirthFrom))
	}
	if f.BirthTo != "" {
		where = append(where, "p.birth_date < "+arg(f.BirthTo))
	}
	if f.UpdatedGE != nil {
		where = append(where, "p.updated_at >= "+arg(f.UpdatedGE.UTC()))
	}
	if f.UpdatedLT != nil {
		where = append(where, "p.updated_at < "+arg(f.UpdatedLT.UTC()))
	}
	if f.Archived != nil {
		where = append(where, archivedCondition(*f.Archived))
	}
	order := "ASC"
	switch {
	case f.Descending:
		order = "DESC"
		if f.After > 0 {
			where = append(where, "p.id < "+arg(f.After))
		}
	case f.After > 0:
		where = append(where, "p.id > "+arg(f.After))
	}
	columns := patientColumns
	if f.WithoutHistory {
		columns = strings.Replace(columns, "p.history,", "'{}',", 1)
	}
	query := `SELECT ` + columns + ` FROM patients p`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	// Among ids (a name search's batch, at most a few thousand) the rows are ordered here: an
	// ORDER BY … LIMIT with its own parameter costs SQLite a plan per call.
	if ids == nil {
		query += ` ORDER BY p.id ` + order + ` LIMIT ` + arg(f.Limit)
	}
	return query, args
}
