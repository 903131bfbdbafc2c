// Package auditlog serves the audit log viewer (spec /administrator/audit): the events
// filtered by user, patient, action, outcome, time and emergency flag, sorted by any column
// and paged by keyset so that page 10,000 costs what page 1 does, and the CSV export of a
// filter (itself audited).
package auditlog

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/httpjson"
)

var actionPattern = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)*$`)

// ParseQuery reads the filters, sort and page position from a URL query.
func ParseQuery(get func(string) string, paged bool) (audit.Query, error) {
	var v apperr.Validation
	q := audit.Query{Sort: "at", Desc: true, PerPage: httpjson.DefaultPerPage}
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
	switch get("credential") { // made with an API token or a backend client
	case "", "0", "false":
	case "1", "true":
		q.Credential = true
	default:
		v.Add("credential", "validation.query")
	}
	if s := get("sort"); s != "" {
		q.Desc = strings.HasPrefix(s, "-")
		q.Sort = strings.TrimPrefix(s, "-")
		if !audit.Sorts(q.Sort) {
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
		for name, c := range map[string]**audit.Cursor{"after": &q.After, "before": &q.Before} {
			if s := get(name); s != "" {
				parsed, err := audit.ParseCursor(s, q.Sort)
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
