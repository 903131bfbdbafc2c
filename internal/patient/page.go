package patient

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
	"emr/internal/textsearch"
)

// Filter is a search of the register for programs (the FHIR API): every condition set must
// hold. Its pages are keyset pages in id order — after (or, going back, before) an id —
// so that a page never repeats or skips a patient while others are registered.
type Filter struct {
	IDs        []int64  // one of these ids
	MRN        string   // this patient number exactly
	Words      []string // every word starts a part of the name (textsearch.Tokens)
	Sex        string
	BirthFrom  string // birth date on or after (YYYY-MM-DD)
	BirthTo    string // birth date before
	UpdatedGE  *time.Time
	UpdatedLT  *time.Time
	Archived   *bool // nil: either
	After      int64 // ids above this one (ascending), or below it (descending)
	Descending bool
	Limit      int
}

// scanBatch is how many name matches are read at a time when a search is driven by the
// name index and checked against the other conditions.
const scanBatch = 500

// Page returns up to f.Limit patients matching f, in id order from f.After, and the last
// id it looked at (where the next page starts, even when a name search stopped early).
func (s *Store) Page(ctx context.Context, f Filter) ([]Patient, int64, error) {
	return s.page(ctx, s.DB, f)
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
	// A name search walks the name index in id order, a batch at a time, and checks each
	// batch's candidates against the rest of the filter by primary key.
	var out []Patient
	after := f.After
	for {
		ids, err := s.nameMatches(ctx, q, f.Words, after, f.Descending, scanBatch)
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
		if len(ids) < scanBatch {
			return out, after, nil
		}
	}
}

// nameMatches lists up to limit ids, after `after` in id order, of the patients every one
// of whose words starts a part of their name: the engine's full-text index, in id order.
func (s *Store) nameMatches(ctx context.Context, q database.Querier, words []string, after int64, desc bool, limit int) ([]int64, error) {
	words = words[:min(len(words), maxTokens)]
	cmp, order := ">", "ASC"
	if desc {
		cmp, order = "<", "DESC"
		if after == 0 {
			after = 1<<63 - 1
		}
	}
	var query string
	var match string
	switch s.DB.Engine {
	case database.SQLite:
		quoted := make([]string, len(words))
		for i, w := range words { // tokens are letters and digits only: nothing to escape
			quoted[i] = `"` + w + `"*`
		}
		match = strings.Join(quoted, " ")
		query = `SELECT rowid FROM patient_search WHERE patient_search MATCH $1 AND rowid ` + cmp + ` $2 ORDER BY rowid ` + order + ` LIMIT $3`
	default:
		cut := make([]string, len(words))
		for i, w := range words {
			if r := []rune(w); len(r) > textsearch.MaxPrefix {
				w = string(r[:textsearch.MaxPrefix])
			}
			cut[i] = w
		}
		match = strings.Join(cut, " & ")
		query = `SELECT id FROM patients WHERE search_vector @@ to_tsquery('simple', $1) AND id ` + cmp + ` $2 ORDER BY id ` + order + ` LIMIT $3`
	}
	ids, err := database.Column[int64](q.QueryContext(ctx, query, match, after, limit))
	if err != nil {
		return nil, fmt.Errorf("search patient names: %w", err)
	}
	return ids, nil
}

// pageWhere reads the patients matching f's conditions but its words, among ids when not
// nil, in id order from f.After, up to f.Limit. Each condition is a fixed fragment with a
// bound parameter.
func (s *Store) pageWhere(ctx context.Context, q database.Querier, f Filter, ids []int64) ([]Patient, error) {
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
	query := `SELECT ` + patientColumns + ` FROM patients p`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	query += ` ORDER BY p.id ` + order + ` LIMIT ` + arg(f.Limit)
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
	return out, rows.Err()
}
