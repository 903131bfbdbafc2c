package audit

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
)

// Reading the log: the viewer's filters, sorts and keyset pages, its export, and a user's
// own recent activity. The audit package is the only one whose SQL reads audit_events.

// Stored is one audit event as stored, for the viewer.
type Stored struct {
	ID         int64     `json:"id"`
	Seq        *int64    `json:"seq"` // nil for an event older than the hash chain, or not yet sealed into it (at most SealBound)
	At         time.Time `json:"at"`
	ActorID    *int64    `json:"actor_id"`
	ActorName  string    `json:"actor_name"`
	Action     string    `json:"action"`
	EntityType string    `json:"entity_type"`
	EntityID   string    `json:"entity_id"`
	PatientID  int64     `json:"patient_id"`
	Address    string    `json:"address"`
	Outcome    string    `json:"outcome"`
	Detail     string    `json:"detail"`
	Emergency  bool      `json:"emergency"`
	// Credential is the API token or backend client the request came with, "" for none.
	Credential string `json:"credential"`
	Hash       string `json:"hash"`
}

// countCap bounds the count of a filter: past it the viewer says "more than".
const countCap = 10_000

// sortKey is a sortable column: the stored columns it orders by, then id.
type sortKey struct {
	cols   []string
	kind   string             // how cursor values are read back: "time", "int" or "text"
	values func(Stored) []any // an event's values of cols, for its cursor
}

var sortKeys = map[string]sortKey{
	"at":      {[]string{"e.at"}, "time", func(e Stored) []any { return []any{e.At.Format(time.RFC3339Nano)} }},
	"user":    {[]string{"e.actor_name"}, "text", func(e Stored) []any { return []any{e.ActorName} }},
	"action":  {[]string{"e.action"}, "text", func(e Stored) []any { return []any{e.Action} }},
	"entity":  {[]string{"e.entity_type", "e.entity_id"}, "text", func(e Stored) []any { return []any{e.EntityType, e.EntityID} }},
	"patient": {[]string{"e.patient_id"}, "int", func(e Stored) []any { return []any{e.PatientID} }},
	"outcome": {[]string{"e.outcome"}, "text", func(e Stored) []any { return []any{e.Outcome} }},
	"address": {[]string{"e.address"}, "text", func(e Stored) []any { return []any{e.Address} }},
}

// Query filters, sorts and pages the events (the audit log viewer's request).
type Query struct {
	User      string
	PatientID int64
	Action    string
	Outcome   string
	From, To  time.Time
	Emergency bool
	// Credential keeps the events written on a request made with an API token or a backend
	// client.
	Credential bool
	Sort       string // a sortKeys name
	Desc       bool
	PerPage    int
	After      *Cursor // the page after this row…
	Before     *Cursor // …or the page before it
}

// Cursor is a row's position in the sort: its sort column values and id.
type Cursor struct {
	Values []any `json:"v"`
	ID     int64 `json:"id"`
}

func (c Cursor) String() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseCursor reads a page position of the sort called sort (a Sorts name).
func ParseCursor(s, sort string) (*Cursor, error) {
	key, ok := sortKeys[sort]
	if !ok {
		return nil, fmt.Errorf("unknown sort %q", sort)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	var c struct {
		Values []json.RawMessage `json:"v"`
		ID     int64             `json:"id"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if len(c.Values) != len(key.cols) {
		return nil, fmt.Errorf("cursor has %d values, want %d", len(c.Values), len(key.cols))
	}
	out := &Cursor{ID: c.ID}
	for _, rv := range c.Values {
		switch key.kind {
		case "int":
			var n int64
			if err := json.Unmarshal(rv, &n); err != nil {
				return nil, err
			}
			out.Values = append(out.Values, n)
		case "time":
			var t time.Time
			if err := json.Unmarshal(rv, &t); err != nil {
				return nil, err
			}
			out.Values = append(out.Values, t.UTC())
		default:
			var s string
			if err := json.Unmarshal(rv, &s); err != nil {
				return nil, err
			}
			out.Values = append(out.Values, s)
		}
	}
	return out, nil
}

// where builds the filter clause from fixed SQL fragments and numbered parameters.
func (q Query) where() (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, vals ...any) {
		for _, val := range vals {
			cond = strings.Replace(cond, "?", "$"+strconv.Itoa(len(args)+1), 1)
			args = append(args, val)
		}
		conds = append(conds, cond)
	}
	if q.User != "" {
		add("e.actor_name IN (?, ?)", q.User, strings.ToLower(q.User))
	}
	if q.PatientID != 0 {
		add("e.patient_id = ?", q.PatientID)
	}
	if q.Action != "" {
		add("e.action = ?", q.Action)
	}
	if q.Outcome != "" {
		add("e.outcome = ?", q.Outcome)
	}
	if !q.From.IsZero() {
		add("e.at >= ?", q.From)
	}
	if !q.To.IsZero() {
		add("e.at < ?", q.To)
	}
	if q.Emergency {
		add("e.emergency")
	}
	if q.Credential {
		add("e.credential IS NOT NULL")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return "WHERE " + strings.Join(conds, " AND "), args
}

// orderBy is the ORDER BY clause of q's sort, reversed when backward.
func (q Query) orderBy(backward bool) string {
	dir := "ASC"
	if q.Desc != backward {
		dir = "DESC"
	}
	cols := append(slices.Clone(sortKeys[q.Sort].cols), "e.id")
	for i, col := range cols {
		cols[i] = col + " " + dir
	}
	return "ORDER BY " + strings.Join(cols, ", ")
}

// pageIDs returns the ids of up to limit events of the filter (where, args) in q's order,
// starting after cursor c (or before it, backward). A cursor (v1, …, vk, id) splits into
// ranges that each one index serves exactly — (c1 = v1, …, ck = vk, id > id0), then
// (c1 = v1, …, ck > vk), …, (c1 > v1) — read in that order until the page is full. (A
// row-value comparison would be one statement, but SQLite's planner only uses its first
// column, which reads every row sharing that value.)
func (q Query) pageIDs(ctx context.Context, db database.Querier, where string, args []any, c *Cursor, backward bool, limit int) ([]int64, error) {
	cols := append(slices.Clone(sortKeys[q.Sort].cols), "e.id")
	cmp := ">"
	if q.Desc != backward {
		cmp = "<"
	}
	type part struct {
		cond string
		args []any
	}
	parts := []part{{}}
	if c != nil {
		vals := append(slices.Clone(c.Values), c.ID)
		parts = parts[:0]
		for i := len(cols) - 1; i >= 0; i-- {
			var conds []string
			pargs := slices.Clone(args)
			for j := 0; j <= i; j++ {
				op := "="
				if j == i {
					op = cmp
				}
				pargs = append(pargs, vals[j])
				conds = append(conds, cols[j]+" "+op+" $"+strconv.Itoa(len(pargs)))
			}
			parts = append(parts, part{strings.Join(conds, " AND "), pargs})
		}
	}
	var ids []int64
	for _, p := range parts {
		w, a := where, args
		if p.cond != "" {
			w, a = joinWhere(where, p.cond), p.args
		}
		rows, err := db.QueryContext(ctx, `SELECT e.id FROM audit_events e `+w+` `+q.orderBy(backward)+` LIMIT `+strconv.Itoa(limit-len(ids)), a...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(ids) == limit {
			break
		}
	}
	return ids, nil
}

func joinWhere(where, cond string) string {
	if where == "" {
		return "WHERE " + cond
	}
	return where + " AND " + cond
}

const columns = `e.id, e.seq, e.at, e.actor_id, e.actor_name, e.action, e.entity_type, e.entity_id, e.patient_id,
	e.address, e.outcome, e.detail, e.emergency, COALESCE(e.credential, ''), e.hash`

func scanStored(rows *sql.Rows) (Stored, error) {
	var e Stored
	var seq, actor sql.NullInt64
	err := rows.Scan(&e.ID, &seq, &e.At, &actor, &e.ActorName, &e.Action, &e.EntityType, &e.EntityID, &e.PatientID,
		&e.Address, &e.Outcome, &e.Detail, &e.Emergency, &e.Credential, &e.Hash)
	if seq.Valid {
		e.Seq = &seq.Int64
	}
	if actor.Valid {
		e.ActorID = &actor.Int64
	}
	e.At = e.At.UTC()
	return e, err
}

// List answers one page of q.
func List(ctx context.Context, db database.Querier, q Query) (Page, error) {
	var page Page
	page.PerPage = q.PerPage
	where, args := q.where()
	c, backward := q.After, false
	if q.Before != nil {
		c, backward = q.Before, true
	}
	if c == nil { // later pages keep the first page's count
		var total int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM audit_events e `+where+` LIMIT `+strconv.Itoa(countCap+1)+`) t`, args...).Scan(&total); err != nil {
			return page, fmt.Errorf("count audit events: %w", err)
		}
		page.Total, page.TotalCapped = new(min(total, countCap)), total > countCap
	}
	ids, err := q.pageIDs(ctx, db, where, args, c, backward, q.PerPage+1)
	if err != nil {
		return page, fmt.Errorf("list audit events: %w", err)
	}
	if page.Events, err = byID(ctx, db, ids); err != nil {
		return page, fmt.Errorf("list audit events: %w", err)
	}
	more := len(page.Events) > q.PerPage
	if more {
		page.Events = page.Events[:q.PerPage]
	}
	if backward {
		slices.Reverse(page.Events)
	}
	if len(page.Events) > 0 {
		first, last := q.cursorOf(page.Events[0]), q.cursorOf(page.Events[len(page.Events)-1])
		// Going forward there is a page before whenever we started from a cursor, and one
		// after when the query found more; going backward, the other way round.
		if (!backward && more) || backward {
			page.Next = last.String()
		}
		if (backward && more) || (!backward && c != nil) {
			page.Prev = first.String()
		}
	}
	return page, nil
}

// byID reads the events with ids, in that order.
func byID(ctx context.Context, db database.Querier, ids []int64) ([]Stored, error) {
	out := []Stored{}
	if len(ids) == 0 {
		return out, nil
	}
	marks, args := database.InList(ids, 1)
	rows, err := db.QueryContext(ctx, `SELECT `+columns+` FROM audit_events e WHERE e.id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := map[int64]Stored{}
	for rows.Next() {
		e, err := scanStored(rows)
		if err != nil {
			return nil, err
		}
		found[e.ID] = e
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		out = append(out, found[id])
	}
	return out, nil
}

// cursorOf is e's position in q's sort.
func (q Query) cursorOf(e Stored) Cursor {
	return Cursor{Values: sortKeys[q.Sort].values(e), ID: e.ID}
}

// Rows are the events of an export, read one at a time.
type Rows struct{ rows *sql.Rows }

// Export reads every event of q's filter, in its order, for streaming.
func Export(ctx context.Context, db database.Querier, q Query) (*Rows, error) {
	where, args := q.where()
	rows, err := db.QueryContext(ctx, `SELECT `+columns+` FROM audit_events e `+where+` `+q.orderBy(false), args...)
	if err != nil {
		return nil, fmt.Errorf("export audit events: %w", err)
	}
	return &Rows{rows: rows}, nil
}

// Next moves to the next event; false at the end or on an error.
func (r *Rows) Next() bool { return r.rows.Next() }

// Event reads the current event.
func (r *Rows) Event() (Stored, error) { return scanStored(r.rows) }

// Close ends the read.
func (r *Rows) Close() error { return r.rows.Close() }

// Page is one page of events with the cursors of its neighbours.
type Page struct {
	Events      []Stored
	Total       *int // matching events, at most countCap; counted on the first page only
	TotalCapped bool // more than countCap match
	PerPage     int
	Next, Prev  string // "" on the last page, "" on the first
}

// Sorts reports whether sort names a sortable column.
func Sorts(sort string) bool {
	_, ok := sortKeys[sort]
	return ok
}

// RecentBy returns the last n events of actorID, newest first, with the events about the
// account's API tokens that someone else wrote (an administrator's token made for it, or
// ended): the account's owner sees what was done to its credentials.
func RecentBy(ctx context.Context, q database.Querier, actorID int64, n int) ([]Stored, error) {
	out, err := recent(ctx, q, `SELECT `+columns+` FROM audit_events e WHERE e.actor_id = $1 ORDER BY e.at DESC, e.id DESC LIMIT $2`, actorID, n)
	if err != nil {
		return nil, err
	}
	about, err := recent(ctx, q, `SELECT `+columns+` FROM audit_events e WHERE e.entity_type = 'user' AND e.entity_id = $1
		AND e.action LIKE 'api\_token.%' ESCAPE '\' AND (e.actor_id IS NULL OR e.actor_id <> $2) ORDER BY e.id DESC LIMIT $3`,
		strconv.FormatInt(actorID, 10), actorID, n)
	if err != nil {
		return nil, err
	}
	out = append(out, about...)
	slices.SortStableFunc(out, func(a, b Stored) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	return out[:min(n, len(out))], nil
}

func recent(ctx context.Context, q database.Querier, query string, args ...any) ([]Stored, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read activity: %w", err)
	}
	defer rows.Close()
	out := []Stored{}
	for rows.Next() {
		e, err := scanStored(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Err is the error that ended the read, if any.
func (r *Rows) Err() error { return r.rows.Err() }
