// Package auditlog serves the audit log viewer (spec /administrator/audit): the events
// filtered by user, patient, action, outcome, time and emergency flag, sorted by any column
// and paged by keyset so that page 10,000 costs what page 1 does, and the CSV export of a
// filter (itself audited).
package auditlog

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// sortKey is a sortable column: the stored columns it orders by, then id.
type sortKey struct {
	cols   []string
	kind   string            // how cursor values are read back: "time", "int" or "text"
	values func(Event) []any // an event's values of cols, for its cursor
}

var sortKeys = map[string]sortKey{
	"at":      {[]string{"e.at"}, "time", func(e Event) []any { return []any{e.At.Format(time.RFC3339Nano)} }},
	"user":    {[]string{"e.actor_name"}, "text", func(e Event) []any { return []any{e.ActorName} }},
	"action":  {[]string{"e.action"}, "text", func(e Event) []any { return []any{e.Action} }},
	"entity":  {[]string{"e.entity_type", "e.entity_id"}, "text", func(e Event) []any { return []any{e.EntityType, e.EntityID} }},
	"patient": {[]string{"e.patient_id"}, "int", func(e Event) []any { return []any{e.PatientID} }},
	"outcome": {[]string{"e.outcome"}, "text", func(e Event) []any { return []any{e.Outcome} }},
	"address": {[]string{"e.address"}, "text", func(e Event) []any { return []any{e.Address} }},
}

// Query is a parsed request for events.
type Query struct {
	User      string
	PatientID int64
	Action    string
	Outcome   string
	From, To  time.Time
	Emergency bool
	Sort      string // a sortKeys name
	Desc      bool
	PerPage   int
	After     *cursor // the page after this row…
	Before    *cursor // …or the page before it
}

// cursor is a row's position in the sort: its sort column values and id.
type cursor struct {
	Values []any `json:"v"`
	ID     int64 `json:"id"`
}

func (c cursor) String() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

var actionPattern = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)*$`)

// ParseQuery reads the filters, sort and page position from a URL query.
func ParseQuery(get func(string) string, paged bool) (Query, error) {
	var v apperr.Validation
	q := Query{Sort: "at", Desc: true, PerPage: httpjson.DefaultPerPage}
	q.User = strings.TrimSpace(get("user"))
	if len(q.User) > 200 {
		v.Add("user", "validation.too_long")
	}
	if s := get("patient_id"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			v.Add("patient_id", "validation.query")
		}
		q.PatientID = n
	}
	if q.Action = get("action"); q.Action != "" && (len(q.Action) > 64 || !actionPattern.MatchString(q.Action)) {
		v.Add("action", "validation.query")
	}
	if q.Outcome = get("outcome"); q.Outcome != "" && !slices.Contains([]string{audit.Success, audit.Failure, audit.Denied}, q.Outcome) {
		v.Add("outcome", "validation.invalid_choice")
	}
	for name, t := range map[string]*time.Time{"from": &q.From, "to": &q.To} {
		if s := get(name); s != "" {
			parsed, err := time.Parse(time.RFC3339, s)
			if err != nil {
				v.Add(name, "validation.datetime_format")
			}
			*t = parsed.UTC()
		}
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		v.Add("to", "validation.query")
	}
	switch get("emergency") {
	case "", "0", "false":
	case "1", "true":
		q.Emergency = true
	default:
		v.Add("emergency", "validation.query")
	}
	if s := get("sort"); s != "" {
		q.Desc = strings.HasPrefix(s, "-")
		q.Sort = strings.TrimPrefix(s, "-")
		if _, ok := sortKeys[q.Sort]; !ok {
			v.Add("sort", "validation.invalid_choice")
			q.Sort = "at"
		}
	}
	if paged {
		if s := get("per_page"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || !slices.Contains(httpjson.PageSizes, n) {
				v.Add("per_page", "validation.query")
			} else {
				q.PerPage = n
			}
		}
		for name, c := range map[string]**cursor{"after": &q.After, "before": &q.Before} {
			if s := get(name); s != "" {
				parsed, err := parseCursor(s, sortKeys[q.Sort])
				if err != nil {
					v.Add(name, "validation.query")
				}
				*c = parsed
			}
		}
		if q.After != nil && q.Before != nil {
			v.Add("before", "validation.query")
		}
	}
	return q, v.Err()
}

func parseCursor(s string, key sortKey) (*cursor, error) {
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
	out := &cursor{ID: c.ID}
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
func (q Query) pageIDs(ctx context.Context, db database.Querier, where string, args []any, c *cursor, backward bool, limit int) ([]int64, error) {
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
