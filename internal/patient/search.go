package patient

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"emr/internal/apperr"
	"emr/internal/database"
	"emr/internal/httpjson"
	"emr/internal/textsearch"
)

// Page sizes offered, the default, and how many matches a search counts at most (counting
// further would cost more than the number is worth: the list then says "1000+").
const (
	DefaultPerPage = 15
	CountCap       = 200
	maxTokens      = 5
)

// ListQuery is a page of the register: a search text, a page, a sort and whether to list
// archived patients instead of active ones.
type ListQuery struct {
	Q        string
	Page     int
	PerPage  int
	Sort     string
	Archived bool
}

// ListResult is one page, and how many patients match (exact unless TotalExact is false).
type ListResult struct {
	Data       []Summary
	Total      int
	TotalExact bool
}

// sorts are the allowed list orders: a column list for ORDER BY, never user text.
var sorts = map[string]string{
	"name": "p.sort_name, p.id", "-name": "p.sort_name DESC, p.id DESC",
	"mrn": "p.mrn_digits", "-mrn": "p.mrn_digits DESC",
	"created_at": "p.created_at, p.id", "-created_at": "p.created_at DESC, p.id DESC",
}

var numberQuery = regexp.MustCompile(`^[0-9+()\-. ]+$`)

const summaryColumns = `p.id, p.mrn, p.first_name, p.middle_name, p.last_name, p.sex, p.birth_date, p.phone,
	p.archived_at IS NOT NULL, p.photo_file_id IS NOT NULL`

// ParseListQuery reads ?q=&page=&per_page=&sort=&archived= and checks each value.
func ParseListQuery(get func(string) string) (ListQuery, error) {
	q := ListQuery{Q: strings.TrimSpace(get("q")), Page: 1, PerPage: DefaultPerPage, Sort: get("sort")}
	var v apperr.Validation
	// The one rule of every list: a page size of httpjson.PageSizes, anything else is 422.
	q.Page, q.PerPage = httpjson.Page(get, &v)
	if q.Sort == "" {
		q.Sort = "name"
	}
	if _, ok := sorts[q.Sort]; !ok {
		v.Add("sort", "validation.query")
	}
	if len([]rune(q.Q)) > 100 {
		v.Add("q", "validation.too_long")
	}
	q.Archived = get("archived") == "1" || get("archived") == "true"
	return q, v.Err()
}

func scanSummaries(rows *sql.Rows, err error) ([]Summary, error) {
	if err != nil {
		return nil, fmt.Errorf("list patients: %w", err)
	}
	defer rows.Close()
	out := []Summary{}
	for rows.Next() {
		var s Summary
		if err := rows.Scan(&s.ID, &s.MRN, &s.FirstName, &s.MiddleName, &s.LastName, &s.Sex, &s.BirthDate, &s.Phone, &s.Archived, &s.HasPhoto); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func archivedCondition(archived bool) string {
	if archived {
		return "p.archived_at IS NOT NULL"
	}
	return "p.archived_at IS NULL"
}

// List returns one page of the register. Every path is an index range scan that stops
// after the page: no whole-table scan and no whole-table count.
func (s *Store) List(ctx context.Context, q ListQuery) (ListResult, error) {
	offset := (q.Page - 1) * q.PerPage
	switch {
	case q.Q == "":
		return s.listAll(ctx, q, offset)
	case numberQuery.MatchString(q.Q) && len(textsearch.Digits(q.Q)) >= 3:
		return s.searchNumber(ctx, q, offset)
	default:
		return s.searchName(ctx, q, offset)
	}
}

func (s *Store) listAll(ctx context.Context, q ListQuery, offset int) (ListResult, error) {
	order := sorts[q.Sort]
	if q.Archived {
		order = "p.archived_at DESC, p.id DESC"
	}
	data, err := scanSummaries(s.DB.QueryContext(ctx, `SELECT `+summaryColumns+` FROM patients p WHERE `+archivedCondition(q.Archived)+
		` ORDER BY `+order+` LIMIT $1 OFFSET $2`, q.PerPage, offset))
	if err != nil {
		return ListResult{}, err
	}
	var total int
	if q.Archived { // archived patients are few, and the partial index holds only them
		err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM patients p WHERE p.archived_at IS NOT NULL`).Scan(&total)
	} else {
		total, err = s.ActiveCount(ctx)
	}
	if err != nil {
		return ListResult{}, fmt.Errorf("count patients: %w", err)
	}
	return ListResult{Data: data, Total: total, TotalExact: true}, nil
}

// searchName matches names. One word walks the token index in order from the word's range
// start and stops after the rows it needs; a patient with several name parts in the range is
// taken at the first one. Several words go to the full-text index.
func (s *Store) searchName(ctx context.Context, q ListQuery, offset int) (ListResult, error) {
	words := textsearch.Tokens(q.Q)
	if len(words) == 0 {
		return ListResult{Data: []Summary{}, TotalExact: true}, nil
	}
	if len(words) > 1 {
		return s.searchWords(ctx, q, words[:min(len(words), maxTokens)], offset)
	}
	if !q.Archived {
		return s.walkTokens(ctx, q, words[0], offset)
	}
	// Archived patients are few: their search may look each candidate up.
	return s.onePass(ctx, `SELECT t.patient_id FROM patient_name_tokens t
		WHERE t.token >= $1 AND t.token < $2
		AND NOT EXISTS (SELECT 1 FROM patient_name_tokens d WHERE d.patient_id = t.patient_id AND d.token >= $1 AND d.token < t.token)
		AND EXISTS (SELECT 1 FROM patients p WHERE p.id = t.patient_id AND p.archived_at IS NOT NULL)
		ORDER BY t.token, t.patient_id LIMIT $3`, []any{words[0], textsearch.PrefixEnd(words[0])}, q, offset)
}

// walkTokens lists the active patients with a name part starting with word, in (part, id)
// order, each at its first part in the range — the rows and order of a query checking every
// candidate with subqueries, for a fraction of the reads: it reads the token index alone, in
// order, a batch at a time, drops repeats in Go and archived patients with one probe of
// their small index per batch, and stops when it has the rows the page and the count need.
// (SQLite's page cache starts empty after every commit of another connection, so a lookup
// per candidate was a page read per candidate, and most of a search's cost: ADR 21.)
func (s *Store) walkTokens(ctx context.Context, q ListQuery, word string, offset int) (ListResult, error) {
	end := textsearch.PrefixEnd(word)
	afterToken, afterID := word, int64(0) // (word, 0) precedes every row of the range
	return s.activeOnly(ctx, q, offset, func(limit int) ([]int64, error) {
		rows, err := s.DB.QueryContext(ctx, `SELECT token, patient_id FROM patient_name_tokens
			WHERE (token, patient_id) > ($1, $2) AND token < $3 ORDER BY token, patient_id LIMIT $4`, afterToken, afterID, end, limit)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			if err := rows.Scan(&afterToken, &afterID); err != nil {
				return nil, err
			}
			ids = append(ids, afterID)
		}
		return ids, rows.Err()
	})
}

// activeOnly pages through an ordered source of patient ids — next returns the ids of up to
// limit rows after those it returned before, repeats included — keeping each patient once
// and leaving archived ones out, until it has the rows the page and the count need.
func (s *Store) activeOnly(ctx context.Context, q ListQuery, offset int, next func(limit int) ([]int64, error)) (ListResult, error) {
	need := max(offset+q.PerPage, CountCap+1)
	var ids []int64
	seen := map[int64]bool{}
	for len(ids) < need {
		batch := 2 * (need - len(ids))
		read, err := next(batch)
		if err != nil {
			return ListResult{}, fmt.Errorf("search patients: %w", err)
		}
		var fresh []int64
		for _, id := range read {
			if !seen[id] {
				seen[id] = true
				fresh = append(fresh, id)
			}
		}
		archived, err := s.archivedAmong(ctx, fresh)
		if err != nil {
			return ListResult{}, err
		}
		for _, id := range fresh {
			if !archived[id] && len(ids) < need {
				ids = append(ids, id)
			}
		}
		if len(read) < batch {
			break // the source is exhausted
		}
	}
	data, err := s.byIDs(ctx, ids[min(offset, len(ids)):min(offset+q.PerPage, len(ids))])
	return ListResult{Data: data, Total: min(len(ids), CountCap), TotalExact: len(ids) <= CountCap}, err
}

// archivedAmong says which of ids are archived patients, through the index of their ids.
func (s *Store) archivedAmong(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	in, args := database.InIDs(s.DB, "id", ids, 1)
	index := "" // PostgreSQL's planner probes it by itself; SQLite's would look up each row
	if s.DB.Engine == database.SQLite {
		index = " INDEXED BY patients_archived_id"
	}
	archived, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT id FROM patients`+index+` WHERE archived_at IS NOT NULL AND `+in, args...))
	if err != nil {
		return nil, fmt.Errorf("search patients: %w", err)
	}
	for _, id := range archived {
		out[id] = true
	}
	return out, nil
}

// onePass runs an ordered id query (its last parameter is the row limit) once for both the
// count, up to the cap, and the page's ids, then reads the page's rows by primary key. The
// order keeps the query on its index walk; the match work is not done twice.
func (s *Store) onePass(ctx context.Context, query string, args []any, q ListQuery, offset int) (ListResult, error) {
	rows, err := s.DB.QueryContext(ctx, query, append(args, max(offset+q.PerPage, CountCap+1))...)
	if err != nil {
		return ListResult{}, fmt.Errorf("search patients: %w", err)
	}
	var ids []int64
	seen := map[int64]bool{} // a patient can match twice (number and phone)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return ListResult{}, err
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return ListResult{}, err
	}
	data, err := s.byIDs(ctx, ids[min(offset, len(ids)):min(offset+q.PerPage, len(ids))])
	return ListResult{Data: data, Total: min(len(ids), CountCap), TotalExact: len(ids) <= CountCap}, err
}

// searchWords matches several words through the engine's full-text index, which intersects
// the words' posting lists instead of probing each patient of the most common word: every
// word must start a part of the name. Results come in registration order.
func (s *Store) searchWords(ctx context.Context, q ListQuery, words []string, offset int) (ListResult, error) {
	switch s.DB.Engine {
	case database.SQLite:
		quoted := make([]string, len(words))
		for i, w := range words { // tokens are letters and digits only: nothing to escape
			quoted[i] = `"` + w + `"*`
		}
		match := strings.Join(quoted, " ")
		if q.Archived {
			return s.onePass(ctx, `SELECT p.id FROM patient_search s JOIN patients p ON p.id = s.rowid
				WHERE patient_search MATCH $1 AND p.archived_at IS NOT NULL ORDER BY s.rowid LIMIT $2`, []any{match}, q, offset)
		}
		// The index alone, in its own order (rowid = id): no sort, no row read per match.
		var after int64
		return s.activeOnly(ctx, q, offset, func(limit int) ([]int64, error) {
			ids, err := database.Column[int64](s.DB.QueryContext(ctx,
				`SELECT rowid FROM patient_search WHERE patient_search MATCH $1 AND rowid > $2 ORDER BY rowid LIMIT $3`, match, after, limit))
			if len(ids) > 0 {
				after = ids[len(ids)-1]
			}
			return ids, err
		})
	default:
		// Every word is an exact term of the prefix index. The first matches in storage order
		// are taken as the index finds them (the scan stops early), then sorted: past the count
		// cap, which matches are listed is the storage order's choice.
		for i, w := range words {
			if r := []rune(w); len(r) > textsearch.MaxPrefix {
				words[i] = string(r[:textsearch.MaxPrefix])
			}
		}
		return s.onePass(ctx, `SELECT m.id FROM (SELECT p.id FROM patients p
			WHERE p.search_vector @@ to_tsquery('simple', $1) AND `+archivedCondition(q.Archived)+` LIMIT $2) m ORDER BY m.id`,
			[]any{strings.Join(words, " & ")}, q, offset)
	}
}

// byIDs reads the summaries of ids, in that order.
func (s *Store) byIDs(ctx context.Context, ids []int64) ([]Summary, error) {
	if len(ids) == 0 {
		return []Summary{}, nil
	}
	byID, err := Summaries(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	list := make([]Summary, 0, len(ids))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			list = append(list, p)
		}
	}
	return list, nil
}

// searchNumber matches patient numbers, then phone numbers, by their leading digits: the
// number's own digits, and the phone's national digits (textsearch.PhoneKey), so that
// "0912 345", "+84 912 345" and "912 345" find a phone however it was registered. Each branch
// is an ordered index range scan stopped after the rows the page and the count need.
func (s *Store) searchNumber(ctx context.Context, q ListQuery, offset int) (ListResult, error) {
	d, key := textsearch.Digits(q.Q), textsearch.PhoneKey(q.Q)
	branch := func(rank int, col string, from int) string {
		return fmt.Sprintf(`SELECT * FROM (SELECT p.id, %d AS src, p.%s AS k FROM patients p WHERE %s AND p.%s >= $%d AND p.%s < $%d ORDER BY p.%s LIMIT $5) b%d`,
			rank, col, archivedCondition(q.Archived), col, from, col, from+1, col, rank)
	}
	union := branch(0, "mrn_digits", 1) + ` UNION ALL ` + branch(1, "phone_digits", 1)
	if key == "" { // nothing national to match: an empty range
		key = "~"
	}
	union += ` UNION ALL ` + branch(2, "phone_key", 3)
	return s.onePass(ctx, `SELECT id FROM (`+union+`) u ORDER BY src, k, id LIMIT $5`,
		[]any{d, textsearch.PrefixEnd(d), key, textsearch.PrefixEnd(key)}, q, offset)
}

// Duplicates lists up to 10 patients who may be the same person as in: the same normalised
// name, birth date and sex, or the same phone number. except is left out (the patient being
// edited).
func (s *Store) Duplicates(ctx context.Context, in Input, except int64) ([]Summary, error) {
	return duplicates(ctx, s.DB, in, except)
}

// duplicatesQuery is two look-ups by their own indexes — the name key with the birth date
// (patients_duplicate), the phone's national digits (patients_phone_key) — each bounded, merged, and only
// then ordered: neither has an ORDER BY id that would let the planner walk the primary key and
// filter every row, or gather every patient who gave a shared phone number to sort them all.
// The same name and birth date come first: a phone shared by a family or used as a
// placeholder must not crowd the likelier duplicate out.
const duplicatesQuery = `SELECT ` + summaryColumns + ` FROM patients p WHERE p.id IN (
		SELECT id FROM (SELECT d.id FROM patients d WHERE d.name_key = $2 AND d.birth_date = $3 AND d.sex = $4 AND d.id <> $1 LIMIT 50) by_name
		UNION
		SELECT id FROM (SELECT f.id FROM patients f WHERE f.phone_key = $5 AND $5 <> '' AND f.id <> $1 LIMIT 50) by_phone)
	ORDER BY CASE WHEN p.name_key = $2 AND p.birth_date = $3 AND p.sex = $4 THEN 0 ELSE 1 END, p.id LIMIT 10`

func duplicates(ctx context.Context, q database.Querier, in Input, except int64) ([]Summary, error) {
	return scanSummaries(q.QueryContext(ctx, duplicatesQuery, except, NameKey(in.FirstName, in.MiddleName, in.LastName), strings.TrimSpace(in.BirthDate),
		strings.TrimSpace(in.Sex), textsearch.PhoneKey(in.Phone)))
}

// ActiveCount is how many patients are on the register (not archived), kept as a counter by
// every registration, archive and restore.
func (s *Store) ActiveCount(ctx context.Context) (int, error) { return activeCount(ctx, s.DB) }

// activeCount is ActiveCount read on q (a transaction, when the caller holds one).
func activeCount(ctx context.Context, q database.Querier) (int, error) {
	n, err := database.Total(ctx, q, activeTotal)
	return int(n), err
}
