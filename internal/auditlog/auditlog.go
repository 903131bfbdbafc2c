// Package auditlog serves the audit log viewer (spec /administrator/audit): the events
// filtered by user, patient, action, outcome, time and emergency flag, sorted by any column
// and paged by keyset so that page 10,000 costs what page 1 does, and the CSV export of a
// filter (itself audited).
package auditlog

import (
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
	"emr/internal/httpjson"
)

// sortKey is a sortable column: the stored columns it orders by, then id.
type sortKey struct {
	cols []string
	kind string // how cursor values are read back: "time", "int" or "text"
}

var sortKeys = map[string]sortKey{
	"at":      {[]string{"e.at"}, "time"},
	"user":    {[]string{"e.actor_name"}, "text"},
	"action":  {[]string{"e.action"}, "text"},
	"entity":  {[]string{"e.entity_type", "e.entity_id"}, "text"},
	"patient": {[]string{"e.patient_id"}, "int"},
	"outcome": {[]string{"e.outcome"}, "text"},
	"address": {[]string{"e.address"}, "text"},
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

// order returns the ORDER BY clause and, for a cursor, the condition that starts after
// (forward) or before (backward) it in that order.
func (q Query) order(c *cursor, backward bool, args []any) (cond, orderBy string, _ []any) {
	key := sortKeys[q.Sort]
	desc := q.Desc != backward
	dir, cmp := "ASC", ">"
	if desc {
		dir, cmp = "DESC", "<"
	}
	cols := append(slices.Clone(key.cols), "e.id")
	parts := make([]string, len(cols))
	for i, col := range cols {
		parts[i] = col + " " + dir
	}
	orderBy = "ORDER BY " + strings.Join(parts, ", ")
	if c == nil {
		return "", orderBy, args
	}
	ph := make([]string, len(cols))
	for i, val := range append(slices.Clone(c.Values), c.ID) {
		args = append(args, val)
		ph[i] = "$" + strconv.Itoa(len(args))
	}
	return "(" + strings.Join(cols, ", ") + ") " + cmp + " (" + strings.Join(ph, ", ") + ")", orderBy, args
}
