package fhir

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"emr/internal/auth"
	"emr/internal/i18n"
)

// Page sizes: _count's default and most.
const (
	DefaultCount = 20
	MaxCount     = 100
)

// totalCap is how many matches _total counts at most: past it, "estimate" says the cap and
// "accurate" asks for a narrower search.
const totalCap = 10_000

// paramKind is how a search parameter's value is read.
type paramKind int

const (
	kindToken paramKind = iota + 1
	kindString
	kindDate
	kindReference
)

// common are the parameters every type takes (besides its own).
var common = map[string]paramKind{"_id": kindToken, "_lastUpdated": kindDate}

// control are the result parameters, read apart from the search's conditions (_include and
// _revinclude add resources to a page, they select none). _pretty is one of FHIR's general
// parameters (R4 http, "general parameters"), a request to indent the answer for a human,
// which a server may ignore: a read takes it silently, and a search does too rather than
// name it as unknown, or refuse it under strict handling, as it did.
var control = []string{"_count", "_sort", "_total", "_format", "_pretty", "_cursor", "_elements", "_summary", "_include", "_revinclude"}

// query is a search's parameters as read: the conditions by name (each occurrence a list
// of values, any of which may match), the page and the applied parameters for self.
type query struct {
	values  map[string][][]string
	count   int
	desc    bool // _sort=-_id
	total   string
	cursor  cursor
	applied url.Values
	// countOnly is _summary=count: the total alone, no resources.
	countOnly bool
	// tests are the conditions tested on the resources built (all must hold): a search that
	// has any examines at most scanBudget records for a page.
	tests []func(Resource) bool
	// notes are what the searchset's OperationOutcome warns of: a parameter ignored, a code
	// system the server does not write. Shared by the query's copies.
	notes *[]*Error
}

// warn adds a warning to the searchset's OperationOutcome.
func (q query) warn(code, key, expression string, args ...any) {
	*q.notes = append(*q.notes, &Error{Code: code, Key: key, Args: args, Expression: expression})
}

// test adds a condition tested on the resources built.
func (q *query) test(keep func(Resource) bool) { q.tests = append(q.tests, keep) }

// parseQuery reads r's search parameters for a type taking params. A parameter the type
// does not know is ignored (left out of the self link, and named in the searchset's
// OperationOutcome) unless the caller asks for strict handling, which refuses it; a
// modifier the server does not support is refused either way, as the search rules require
// (ignoring :not or :missing would widen the answer). A malformed value is 400 with the
// parameter named. Every refusal names every parameter at fault, not the first alone.
func parseQuery(r *http.Request, params map[string]paramKind) (query, error) {
	q := query{values: map[string][][]string{}, count: DefaultCount, total: "none", applied: url.Values{}, notes: new([]*Error)}
	strict := preferHandling(r) == "strict"
	raw := r.URL.Query()
	var refused Errors
	for _, name := range sortedKeys(raw) {
		values := raw[name]
		base, modifier, _ := strings.Cut(name, ":")
		kind, known := params[base]
		if !known {
			kind, known = common[base]
		}
		switch {
		case slices.Contains(control, base):
			continue
		case chained(base, modifier):
			// Ignoring a chain would widen the answer (every patient's for patient.identifier=…),
			// so it is refused under lenient handling too, as an unsupported modifier is.
			refused = append(refused, invalid("fhir.unsupported_chain", name, name))
			continue
		case !known && strict:
			refused = append(refused, invalid("fhir.unknown_parameter", name, name))
			continue
		case !known:
			q.warn("not-supported", "fhir.ignored_parameter", name, name)
			continue
		case modifier != "" && !supportedModifier(kind, modifier):
			refused = append(refused, invalid("fhir.unsupported_modifier", name, name))
			continue
		}
		key := name
		if kind == kindReference {
			key = base // subject:Patient is subject: the one type a reference here may name
		}
		for _, v := range values {
			if strings.TrimSpace(v) == "" {
				refused = append(refused, invalid("fhir.bad_value", name, name))
				break
			}
			q.values[key] = append(q.values[key], splitValues(kind, v))
			q.applied.Add(name, v)
		}
	}
	// _summary=count answers the count alone; =false is the whole resources, as always.
	// Neither the summaries nor _elements are made: under lenient handling the resources
	// come whole and the outcome says so, under strict handling the search is refused.
	for _, name := range []string{"_summary", "_elements"} {
		v, given := raw[name]
		switch {
		case !given:
		case name == "_summary" && len(v) == 1 && v[0] == "count":
			q.countOnly = true
			q.applied.Set(name, "count")
		case name == "_summary" && len(v) == 1 && v[0] == "false":
		case strict:
			refused = append(refused, invalid("fhir.unknown_parameter", name, name+"="+strings.Join(v, ",")))
		default:
			q.warn("not-supported", "fhir.ignored_parameter", name, name+"="+strings.Join(v, ","))
		}
	}
	if len(refused) > 0 {
		return q, refused
	}
	if _, given := q.values["_id"]; given {
		q.values["_id"] = q.idValues()
	}
	if s := raw.Get("_count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return q, invalid("fhir.bad_value", "_count", "_count")
		}
		q.count = min(n, MaxCount)
	}
	switch s := raw.Get("_sort"); s {
	case "", "_id":
	case "-_id":
		q.desc = true
		q.applied.Set("_sort", s)
	default:
		return q, invalid("fhir.unsupported_sort", "_sort", s)
	}
	switch s := raw.Get("_total"); s {
	case "", "none":
	case "estimate", "accurate":
		q.total = s
		q.applied.Set("_total", s)
	default:
		return q, invalid("fhir.bad_value", "_total", "_total")
	}
	if s := raw.Get("_cursor"); s != "" {
		c, err := decodeCursor(s)
		if err != nil {
			return q, invalid("fhir.bad_cursor", "_cursor")
		}
		q.cursor = c
	}
	if q.countOnly && q.total == "none" {
		q.total = "estimate" // the count, capped as _total=estimate is
	}
	q.applied.Set("_count", strconv.Itoa(q.count))
	if err := q.testDate("_lastUpdated", func(res Resource) string { return updatedOf(res) }); err != nil {
		return q, err
	}
	return q, nil
}

// supportedModifier reports whether a parameter of kind takes modifier: :exact on a string,
// and on a reference the one type it names (subject:Patient).
// chained reports whether a parameter's name is a chain (patient.identifier,
// subject:Patient.name) or a reverse chain (_has:…): none is supported.
func chained(base, modifier string) bool {
	return base == "_has" || strings.Contains(base, ".") || strings.Contains(modifier, ".")
}

func supportedModifier(kind paramKind, modifier string) bool {
	return (kind == kindString && modifier == "exact") || (kind == kindReference && modifier == "Patient")
}

// idValues reads _id's values as tokens: an id has no code system, so "|123" is 123, and a
// value naming a system matches nothing (it is kept as "", no id), with a warning.
func (q query) idValues() [][]string {
	occurrences := q.values["_id"]
	for _, list := range occurrences {
		for i, v := range list {
			t := parseToken(v)
			if t.hasSystem && t.system != "" {
				q.warn("code-invalid", "fhir.unknown_system", "_id", "_id", t.system)
				t.code = ""
			}
			list[i] = t.code
		}
	}
	return occurrences
}

// keeps says whether res meets the conditions tested on built resources.
func (q query) keeps(res Resource) bool {
	for _, keep := range q.tests {
		if !keep(res) {
			return false
		}
	}
	return true
}

// testDate adds the condition of a date parameter on the instant or date at reads from a
// resource built ("" or unreadable: no match), when the parameter is given.
func (q *query) testDate(name string, at func(Resource) string) error {
	rng, ok, err := q.dates(name)
	if err != nil || !ok {
		return err
	}
	q.test(func(res Resource) bool { return rng.holds(at(res)) })
	return nil
}

// holds reports whether the instant or date v (FHIR's formats) lies in the range: a date is
// taken at its start, as the register's dates are compared.
func (rng dateRange) holds(v string) bool {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		if t, _, _, err = parseDate(v); err != nil {
			return false
		}
	}
	return (rng.From.IsZero() || !t.Before(rng.From)) && (rng.To.IsZero() || t.Before(rng.To))
}

// one is the single value of a parameter that takes one, "" when absent; several
// occurrences or a list is 400.
func (q query) one(name string) (string, error) {
	v := q.values[name]
	if len(v) == 0 {
		return "", nil
	}
	if len(v) > 1 || len(v[0]) > 1 {
		return "", invalid("fhir.one_value", name, name)
	}
	return v[0][0], nil
}

// ids reads _id: numeric ids only (anything else matches nothing, as no such id exists).
func (q query) ids() (ids []int64, given bool) {
	for _, list := range q.values["_id"] {
		given = true
		for _, v := range list {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
				ids = append(ids, n)
			}
		}
	}
	return ids, given
}

// recordIDs reads _id as the ids of the records the resources come from: the ids
// themselves, or, for resources made from part of a record ("{record}-{part}"), their
// record's.
func (q query) recordIDs(derived bool) (ids []int64, given bool) {
	for _, list := range q.values["_id"] {
		given = true
		for _, v := range list {
			if derived {
				v, _, _ = strings.Cut(v, "-")
			}
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
				ids = append(ids, n)
			}
		}
	}
	return ids, given
}

// reference reads a reference parameter (patient, subject) naming one resource of kind:
// "123", "Patient/123" or an absolute URL ending so. 0, with no error, when absent.
func (q query) reference(name, kind string) (int64, error) {
	v, err := q.one(name)
	if err != nil || v == "" {
		return 0, err
	}
	if i := strings.LastIndex(v, kind+"/"); i >= 0 {
		v = v[i+len(kind)+1:]
	} else if strings.Contains(v, "/") {
		return 0, invalid("fhir.bad_reference", name, name)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return -1, nil // a well-formed reference to no such resource matches nothing
	}
	return n, nil
}

var datePattern = regexp.MustCompile(`^(eq|ne|lt|gt|ge|le|sa|eb|ap)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$`)

// dateRange is a half-open range of instants: [From, To); a zero end is open.
type dateRange struct{ From, To time.Time }

// dates reads every occurrence of a date parameter into one range (the occurrences must
// all hold). Prefixes eq, lt, le, gt and ge; a value stands for its whole precision
// (1980 is the year 1980).
func (q query) dates(name string) (dateRange, bool, error) {
	var out dateRange
	occurrences := q.values[name]
	for _, list := range occurrences {
		if len(list) > 1 {
			return out, false, invalid("fhir.one_value", name, name)
		}
		start, end, prefix, err := parseDate(list[0])
		if err != nil {
			return out, false, invalid("fhir.bad_date", name, name)
		}
		var from, to time.Time
		switch prefix {
		case "", "eq":
			from, to = start, end
		case "lt":
			to = start
		case "le":
			to = end
		case "gt":
			from = end
		case "ge":
			from = start
		default:
			return out, false, invalid("fhir.unsupported_prefix", name, prefix)
		}
		if !from.IsZero() && (out.From.IsZero() || from.After(out.From)) {
			out.From = from
		}
		if !to.IsZero() && (out.To.IsZero() || to.Before(out.To)) {
			out.To = to
		}
	}
	return out, len(occurrences) > 0, nil
}

func parseDate(v string) (start, end time.Time, prefix string, err error) {
	m := datePattern.FindStringSubmatch(v)
	if m == nil {
		return start, end, "", fmt.Errorf("not a date: %q", v)
	}
	prefix = m[1]
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	loc := time.UTC
	if z := m[9]; z != "" && z != "Z" {
		t, perr := time.Parse("-07:00", z)
		if perr != nil {
			return start, end, "", perr
		}
		loc = t.Location()
	}
	year, month, day := num(m[2], 0), num(m[3], 1), num(m[4], 1)
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return start, end, "", fmt.Errorf("not a date: %q", v)
	}
	// A fraction of a second is the value's precision (R4 search, date: the value stands for
	// the range its precision implies): .5 is the tenth of a second from .5, .679 the
	// millisecond. Read as a whole second, "gt" a resource's own lastUpdated (a client
	// syncing) skipped what changed later in that second, and "lt" what changed earlier.
	fraction, step := fractionOf(m[8])
	start = time.Date(year, time.Month(month), day, num(m[5], 0), num(m[6], 0), num(m[7], 0), fraction, loc)
	if start.Day() != day {
		return start, end, "", fmt.Errorf("not a date: %q", v)
	}
	switch {
	case m[8] != "":
		end = start.Add(step)
	case m[3] == "":
		end = start.AddDate(1, 0, 0)
	case m[4] == "":
		end = start.AddDate(0, 1, 0)
	case m[5] == "":
		end = start.AddDate(0, 0, 1)
	case m[7] == "":
		end = start.Add(time.Minute)
	default:
		end = start.Add(time.Second)
	}
	return start.UTC(), end.UTC(), prefix, nil
}

// fractionOf reads a fraction of a second's digits as nanoseconds and the step of its last
// digit (".5": 500ms and 100ms); none is 0 and 0.
func fractionOf(digits string) (nanos int, step time.Duration) {
	if digits == "" {
		return 0, 0
	}
	step = time.Second
	for range digits {
		step /= 10
	}
	n, _ := strconv.Atoi(digits)
	return n * int(step), step
}

// cursor is where a page starts: after (or, going back, before) the entry at Pos of the
// record with ID. The first page has none.
type cursor struct {
	ID   int64
	Pos  int
	Back bool
	set  bool
}

func (c cursor) encode() string {
	dir := "n"
	if c.Back {
		dir = "p"
	}
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%s.%d.%d", dir, c.ID, c.Pos))
}

func decodeCursor(s string) (cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, err
	}
	parts := strings.Split(string(b), ".")
	if len(parts) != 3 || (parts[0] != "n" && parts[0] != "p") {
		return cursor{}, fmt.Errorf("bad cursor")
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	pos, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || id < 0 || pos < -1 {
		return cursor{}, fmt.Errorf("bad cursor")
	}
	return cursor{ID: id, Pos: pos, Back: parts[0] == "p", set: true}, nil
}

// group is one record (a patient, a visit) and the resources it gives, in their order.
type group struct {
	ID        int64
	Resources []Resource
}

// source reads up to limit records after id `after` (0: from the start) in id order, or
// before it (0: from the end) when desc.
type source func(ctx context.Context, after int64, desc bool, limit int) ([]group, error)

// entry is one resource of a page and its key.
type entry struct {
	id  int64
	pos int
	res Resource
}

// scanBudget is how many records any search examines for one page at most, whatever filters
// the records' resources — a condition tested on the resources built (_lastUpdated, a code,
// a status, a date of a resource made from part of a record), _id among a record's
// resources, what the caller may not read, an account a staff search does not name: past it
// the page holds what was found, maybe nothing, and its link goes on from there, so no
// request walks a whole table.
var scanBudget = 2000

// groupEnd is a position past every entry of a record.
const groupEnd = 1 << 30

// walk is one page as collect read it.
type walk struct {
	page []entry // in the sort's order
	more bool    // there may be entries further in the walk's direction
	far  cursor  // the last entry the walk consumed (where the next walk goes on from)
	went bool    // the walk consumed an entry (far is one)
}

// collect reads one page of count entries from src at q's cursor. Pages are keyset pages
// over (record id, position): a resource added while a client pages is either on a later
// page or not seen, never seen twice, and none is skipped.
func collect(ctx context.Context, src source, q query) (walk, error) {
	c := q.cursor
	// The direction of the walk: the sort's, turned round for a previous page.
	desc := q.desc != c.Back
	want := q.count + 1         // one more says whether there is a next page
	batch := max(q.count+1, 10) // a page and one more, in one read when each record gives one resource
	// The first read includes the cursor's own record: it may hold entries past Pos.
	var from int64
	if c.set && desc {
		from = c.ID + 1
	} else if c.set {
		from = c.ID - 1
	}
	var w walk
	examined := 0
walking:
	for len(w.page) < want {
		groups, err := src(ctx, from, desc, batch)
		if err != nil {
			return walk{}, err
		}
		for _, g := range groups {
			// The cursor's own record, read again for its entries past Pos, is not counted: a
			// page always examines a record it has not seen.
			if own := c.set && g.ID == c.ID; !own {
				if examined >= scanBudget {
					w.more = true
					break walking
				}
				examined++
			}
			list := make([]entry, len(g.Resources))
			for i, res := range g.Resources {
				list[i] = entry{id: g.ID, pos: i, res: res}
			}
			if desc {
				slices.Reverse(list)
			}
			for _, e := range list {
				if c.set && e.id == c.ID && ((!desc && e.pos <= c.Pos) || (desc && e.pos >= c.Pos)) {
					continue
				}
				if len(w.page) >= want {
					break
				}
				keep := q.keeps(e.res)
				if keep {
					w.page = append(w.page, e)
				}
				if (keep && len(w.page) <= q.count) || (!keep && len(w.page) < q.count) {
					w.far, w.went = cursor{ID: e.id, Pos: e.pos}, true
				}
			}
			if len(w.page) < q.count {
				// The whole record was consumed, entries or none: the walk goes on past it.
				end := groupEnd
				if desc {
					end = -1
				}
				w.far, w.went = cursor{ID: g.ID, Pos: end}, true
			}
			from = g.ID
		}
		if len(groups) < batch {
			break
		}
	}
	if len(w.page) > q.count {
		w.more = true
	}
	w.page = w.page[:min(len(w.page), q.count)]
	if c.Back {
		slices.Reverse(w.page)
	}
	return w, nil
}

// countAll counts src's entries q keeps up to totalCap, and whether it stopped there.
func countAll(ctx context.Context, src source, q query) (int, bool, error) {
	n, examined, after := 0, 0, int64(0)
	for {
		groups, err := src(ctx, after, false, 500)
		if err != nil {
			return 0, false, err
		}
		for _, g := range groups {
			for _, res := range g.Resources {
				if q.keeps(res) {
					n++
				}
			}
			after = g.ID
		}
		examined += len(groups)
		if n > totalCap || examined > totalCap {
			return min(n, totalCap), true, nil
		}
		if len(groups) < 500 {
			return n, false, nil
		}
	}
}

// searchset answers a search: one page of src as a searchset Bundle with absolute
// fullUrls, self, and next and previous links that carry a cursor. What the caller may not
// read of the type (ReadAccess: a category) is left out of every page, and an outcome entry
// names it.
// The page is audited (record) before it is sent: a read that cannot be audited is not
// served.
func (h *Handler) searchset(w http.ResponseWriter, r *http.Request, kind string, q query, src source, record func(page []entry) error) {
	p := auth.PrincipalFrom(r.Context())
	inc, err := parseIncludes(r, q, kind)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	for name, values := range inc.applied {
		q.applied[name] = values
	}
	src = readableSource(p, src)
	var wk walk
	if !q.countOnly { // _summary=count: the total alone, no page
		if wk, err = collect(r.Context(), src, q); err != nil {
			WriteError(w, r, err)
			return
		}
	}
	page := wk.page
	base := h.baseURL(r)
	b := Bundle{base: base0("Bundle"), BundleType: "searchset", Timestamp: instant(time.Now())}
	if q.total != "none" {
		n, capped, err := countAll(r.Context(), src, q)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if capped && q.total == "accurate" {
			WriteError(w, r, &Error{Status: http.StatusBadRequest, Code: "too-costly", Key: "fhir.total_too_many", Args: []any{totalCap}, Expression: "_total"})
			return
		}
		b.Total = &n
	}
	link := func(rel string, c *cursor) {
		v := url.Values{}
		for k, list := range q.applied {
			v[k] = list
		}
		if c != nil {
			v.Set("_cursor", c.encode())
		}
		b.Link = append(b.Link, BundleLink{Relation: rel, URL: base + "/" + kind + "?" + v.Encode()})
	}
	self := q.cursor
	if self.set {
		link("self", &self)
	} else {
		link("self", nil)
	}
	// The walk went on from the cursor to far: forward, far ends the page and the previous
	// page is before its first entry; going back, far starts it and the next page is after
	// its last.
	if len(page) > 0 || wk.went {
		first, last := wk.far, wk.far
		if len(page) > 0 {
			first = cursor{ID: page[0].id, Pos: page[0].pos}
			last = cursor{ID: page[len(page)-1].id, Pos: page[len(page)-1].pos}
		}
		// Forward, there is a next page when the walk found more, a previous one when it
		// started at a cursor; going back, the reverse: the page it came from is next.
		next, previous := wk.far, first
		hasNext, hasPrevious := wk.more, self.set
		if self.Back {
			next, previous = last, wk.far
			hasNext, hasPrevious = true, wk.more
		}
		if hasNext {
			link("next", &cursor{ID: next.ID, Pos: next.Pos})
		}
		if hasPrevious {
			link("previous", &cursor{ID: previous.ID, Pos: previous.Pos, Back: true})
		}
	}
	b.Entry = make([]BundleEntry, len(page))
	for i, e := range page {
		b.Entry[i] = BundleEntry{FullURL: base + "/" + e.res.ResourceKind() + "/" + e.res.ResourceID(), Resource: e.res, Search: &EntrySearch{Mode: "match"}}
	}
	more, omitted, err := h.include(r, q, kind, inc, page)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	b.Entry = append(b.Entry, more...)
	if oo, any := outcomeOf(i18n.FromRequest(r), append(leftOut(p, []string{kind}), omitted...), *q.notes); any {
		b.Entry = append(b.Entry, BundleEntry{Resource: oo, Search: &EntrySearch{Mode: "outcome"}})
	}
	if err := record(page); err != nil {
		WriteError(w, r, err)
		return
	}
	write(w, http.StatusOK, b)
}

// outcomeOf is a searchset's one OperationOutcome, in lang: what of the type the caller may
// not read (left, as leftOut names it), and the warnings of the search (notes); none when
// there is neither.
func outcomeOf(lang string, left []string, notes []*Error) (OperationOutcome, bool) {
	oo := OperationOutcome{base: base0("OperationOutcome")}
	if len(left) > 0 {
		oo.Issue = append(oo.Issue, Issue{Severity: "information", Code: "suppressed", Diagnostics: i18n.T(lang, "fhir.everything_omitted", named(left))})
	}
	for _, n := range notes {
		oo.Issue = append(oo.Issue, Issue{Severity: "warning", Code: n.Code, Diagnostics: i18n.T(lang, n.Key, n.Args...), Expression: []string{n.Expression}})
	}
	return oo, len(oo.Issue) > 0
}

func base0(kind string) base { return base{ResourceType: kind} }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
