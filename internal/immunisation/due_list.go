package immunisation

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// The age bands of the due list, by birth date: [from, to) years of age.
var Bands = []string{"0-1y", "1-2y", "2-6y", "6-18y"}

var bandYears = map[string][2]int{"0-1y": {0, 1}, "1-2y": {1, 2}, "2-6y": {2, 6}, "6-18y": {6, 18}}

// The statuses the list filters by, as of the clinic's today: due (from the due day, not yet
// overdue), overdue (from the overdue day), all (both).
var DueStatuses = []string{"due", "overdue", "all"}

// ChildAgeLimit is the age (years) from which a patient is no longer on the children's list.
const ChildAgeLimit = 18

// DueQuery is a page of the due list asked for.
type DueQuery struct {
	Status  string // due, overdue, all ("" all)
	Antigen string
	Band    string
	// Before, when set (YYYY-MM-DD, not before today), lists too what falls due by that day:
	// the doses coming up, to remind of in advance.
	Before string
	After  string // the cursor of the page before ("" the first page)
	Limit  int
}

// DueItem is one child's next dose of an antigen on the list.
type DueItem struct {
	PatientID   int64  `json:"patient_id"`
	MRN         string `json:"mrn"`
	Name        string `json:"name"`
	BirthDate   string `json:"birth_date"`
	AgeBand     string `json:"age_band"`
	Antigen     string `json:"antigen"`
	AntigenName string `json:"antigen_name"`
	DoseNumber  int    `json:"dose_number"`
	Schedule    string `json:"schedule"`
	// OutsideProgramme: the clinic's first schedule is a national programme and this dose
	// comes from a later one (a service vaccine).
	OutsideProgramme bool       `json:"outside_programme"`
	DueOn            string     `json:"due_on"`
	OverdueOn        string     `json:"overdue_on"`
	Status           string     `json:"status"`
	LastRemindedAt   *time.Time `json:"last_reminded_at"`
	Contact          Contact    `json:"contact"`
}

// Contact is how the list shows a child's family may be reached.
type Contact struct {
	Phone string `json:"phone"`
	Email string `json:"email"`
}

// DueCounts are the children's doses due and overdue under the list's antigen and band.
type DueCounts struct {
	Due     int `json:"due"`
	Overdue int `json:"overdue"`
	// Capped says a count stopped at CountCap: there are more.
	Capped bool `json:"capped"`
}

// CountCap is the most rows a count of the list walks: a screen says "1000+" past it.
const CountCap = 1000

// DuePage is one page of the list.
type DuePage struct {
	Items []DueItem `json:"items"`
	Next  *string   `json:"next"`
	// Counts are given with the first page only (null on the next ones): counting is a walk
	// of every row due, a page by key is not.
	Counts *DueCounts `json:"counts"`
	AsOf   string     `json:"as_of"`
}

// MaxDueLimit is the most rows one page holds.
const MaxDueLimit = 200

// clean checks q against today, in the user's language.
func (q *DueQuery) clean(today string) (cursor, error) {
	var v apperr.Validation
	var c cursor
	if q.Status == "" {
		q.Status = "all"
	}
	if !contains(DueStatuses, q.Status) {
		v.Add("status", "validation.invalid_choice")
	}
	if q.Band != "" && !contains(Bands, q.Band) {
		v.Add("band", "validation.invalid_choice")
	}
	q.Antigen = strings.TrimSpace(q.Antigen)
	if len(q.Antigen) > 40 {
		v.Add("antigen", "validation.too_long")
	}
	if q.Before != "" {
		if _, err := time.Parse(time.DateOnly, q.Before); err != nil {
			v.Add("before", "validation.date_format")
		} else if q.Before < today {
			q.Before = today
		}
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 1 || q.Limit > MaxDueLimit {
		v.Add("limit", "validation.query")
	}
	if q.After != "" {
		var ok bool
		if c, ok = parseCursor(q.After); !ok {
			v.Add("after_id", "immunisation.bad_cursor")
		}
	}
	return c, v.Err()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cursor is the last row of a page: the list's order is due day (overdue day for the doses
// due), patient, antigen.
type cursor struct {
	due     string
	patient int64
	antigen string
}

func (c cursor) String() string {
	return c.due + "." + strconv.FormatInt(c.patient, 10) + "." + c.antigen
}

func parseCursor(s string) (cursor, bool) {
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return cursor{}, false
	}
	if _, err := time.Parse(time.DateOnly, parts[0]); err != nil {
		return cursor{}, false
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id < 1 || parts[2] == "" {
		return cursor{}, false
	}
	return cursor{due: parts[0], patient: id, antigen: parts[2]}, true
}

// yearsBefore is the day years before day (YYYY-MM-DD), as a birthday counts.
func yearsBefore(day string, years int) string {
	t, _ := time.Parse(time.DateOnly, day)
	return t.AddDate(-years, 0, 0).Format(time.DateOnly)
}

// bandOf is the age band of a child born on birth, on day today ("" past the last band).
func bandOf(birth, today string) string {
	for _, b := range Bands {
		y := bandYears[b]
		if birth <= yearsBefore(today, y[0]) && birth > yearsBefore(today, y[1]) {
			return b
		}
	}
	return ""
}

// filter is the WHERE of the list's rows under q's antigen and band (not the status), its
// arguments from $1 on: the rows not past their latest day, of patients on the register
// under the children's age limit. It reads the due table alone: the rows carry the child's
// birth date and whether archived (kept by the patient store's ChildChanged hook).
//
// with is the statement's WITH of the rows it reads (band, as d): the due table (the WITH
// then folded into the statement by the planner), or for an age band of a year the band's rows first
// — a range of the birth-date index, materialised then sorted — since a band is a small
// part of the list whose rows lie scattered along the order's index (a walk of it would
// pass most of the list before the band's page).
func (q DueQuery) filter(today string) (with, where string, args []any) {
	var b strings.Builder
	with = `WITH band AS (SELECT * FROM immunisation_due) `
	args = []any{today, yearsBefore(today, ChildAgeLimit)}
	// The age limit is written NOT (… <=) so that SQLite does not take it for a range of the
	// birth-date index: it holds for nearly every row, and the order's index is the one to
	// walk (a band below is the birth-date range). PostgreSQL reads it as the range and
	// weighs it by its statistics.
	b.WriteString(`d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= $1) AND NOT (d.birth_date <= $2)`)
	if q.Antigen != "" {
		args = append(args, q.Antigen)
		fmt.Fprintf(&b, ` AND d.antigen = $%d`, len(args))
	}
	if q.Band != "" {
		y := bandYears[q.Band]
		args = append(args, yearsBefore(today, y[1]), yearsBefore(today, y[0]))
		// The band's bounds as NOT (…), as the age limit: a wide band (a third of the list
		// and more) is a filter on the walk of the order's index, which carries the birth
		// date; a band of a year (a small part of the list, its rows scattered along that
		// index) is read first, below.
		fmt.Fprintf(&b, ` AND NOT (d.birth_date <= $%d) AND NOT (d.birth_date > $%d)`, len(args)-1, len(args))
		if y[1]-y[0] > 1 {
			return with, b.String(), args
		}
		antigen := ""
		if q.Antigen != "" {
			antigen = " AND antigen = $3"
		}
		with = fmt.Sprintf(`WITH band AS MATERIALIZED (SELECT * FROM immunisation_due WHERE archived = FALSE%s AND birth_date > $%d AND birth_date <= $%d) `,
			antigen, len(args)-1, len(args))
	}
	return with, b.String(), args
}

// DueList reads a page of the clinic's due list as of today (the clinic's day), names in lang.
func DueList(ctx context.Context, db database.Querier, q DueQuery, today, lang string) (DuePage, error) {
	after, err := q.clean(today)
	if err != nil {
		return DuePage{}, err
	}
	with, where, args := q.filter(today)
	horizon := today
	if q.Before != "" {
		horizon = q.Before
	}
	page := DuePage{Items: []DueItem{}, AsOf: today}
	// The counts: as of today, under the antigen and band only; on the first page, each up
	// to CountCap (a walk of at most that many rows, not of every row due).
	if q.After == "" {
		var c DueCounts
		for _, part := range []struct {
			cmp string
			n   *int
		}{{">", &c.Due}, {"<=", &c.Overdue}} {
			countArgs := append(append([]any{}, args...), today, CountCap+1)
			k := len(countArgs)
			// The due day as NOT (… >): the count walks the overdue day's index (the doses due
			// are the first rows past today there), not every row due before today.
			if err := db.QueryRowContext(ctx, with+`SELECT COUNT(*) FROM (SELECT 1 FROM band d
				WHERE `+where+` AND NOT (d.due_on > $`+strconv.Itoa(k-1)+`) AND d.overdue_on `+part.cmp+` $`+strconv.Itoa(k-1)+` LIMIT $`+strconv.Itoa(k)+`) c`,
				countArgs...).Scan(part.n); err != nil {
				return DuePage{}, fmt.Errorf("count the due list: %w", err)
			}
			if *part.n > CountCap {
				*part.n, c.Capped = CountCap, true
			}
		}
		page.Counts = &c
	}
	args = append(args, horizon)
	where += ` AND d.due_on <= $` + strconv.Itoa(len(args))
	switch q.Status {
	case "due":
		args = append(args, today)
		where += ` AND d.overdue_on > $` + strconv.Itoa(len(args))
	case "overdue":
		args = append(args, today)
		where += ` AND d.overdue_on <= $` + strconv.Itoa(len(args))
	}
	// The order: by due day; the doses due (not yet overdue) by the day they become overdue,
	// the soonest first, an index range of its own (immunisation_due_overdue) rather than a
	// walk past every overdue row.
	order := "d.due_on"
	if q.Status == "due" {
		order = "d.overdue_on"
	}
	if q.After != "" {
		args = append(args, after.due, after.patient, after.antigen)
		k := len(args)
		// The first comparison bounds the index range; the row value the rest of the order.
		where += fmt.Sprintf(` AND %[1]s >= $%[2]d AND (%[1]s, d.patient_id, d.antigen) > ($%[2]d, $%[3]d, $%[4]d)`, order, k-2, k-1, k)
	}
	args = append(args, q.Limit+1)
	set, err := ReadDueSettings(ctx, db) // the clinic's first schedule: which doses are outside it
	if err != nil {
		return DuePage{}, err
	}
	rows, err := db.QueryContext(ctx, with+`SELECT d.patient_id, d.birth_date, d.antigen, d.dose_number, d.schedule, d.due_on, d.overdue_on, r.sent_at
		FROM band d LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
		WHERE `+where+` ORDER BY `+order+`, d.patient_id, d.antigen LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return DuePage{}, fmt.Errorf("read the due list: %w", err)
	}
	defer rows.Close()
	names := antigenNames(lang)
	for rows.Next() {
		var it DueItem
		var sent sql.NullTime
		if err := rows.Scan(&it.PatientID, &it.BirthDate, &it.Antigen, &it.DoseNumber, &it.Schedule, &it.DueOn, &it.OverdueOn, &sent); err != nil {
			return DuePage{}, err
		}
		it.AgeBand = bandOf(it.BirthDate, today)
		it.AntigenName = names.of(it.Antigen)
		it.OutsideProgramme = Default().OutsideProgramme(set.Schedules, it.Schedule)
		it.Status = "due"
		if it.OverdueOn <= today {
			it.Status = "overdue"
		} else if it.DueOn > today {
			it.Status = "upcoming"
		}
		if sent.Valid {
			t := sent.Time.UTC()
			it.LastRemindedAt = &t
		}
		page.Items = append(page.Items, it)
	}
	if err := rows.Err(); err != nil {
		return DuePage{}, err
	}
	rows.Close()
	// The page's children, through the patient store: name, number and how reached.
	ids := make([]int64, 0, len(page.Items))
	for _, it := range page.Items {
		ids = append(ids, it.PatientID)
	}
	slices.Sort(ids)
	children, err := patient.Briefs(ctx, db, slices.Compact(ids))
	if err != nil {
		return DuePage{}, err
	}
	for i := range page.Items {
		c := children[page.Items[i].PatientID]
		page.Items[i].MRN, page.Items[i].Name = c.MRN, i18n.PersonName(lang, c.FirstName, c.MiddleName, c.LastName)
		page.Items[i].Contact = Contact{Phone: c.Phone, Email: c.Email}
	}
	if len(page.Items) > q.Limit {
		page.Items = page.Items[:q.Limit]
		last := page.Items[q.Limit-1]
		day := last.DueOn
		if q.Status == "due" {
			day = last.OverdueOn
		}
		next := cursor{due: day, patient: last.PatientID, antigen: last.Antigen}.String()
		page.Next = &next
	}
	return page, nil
}

// names are the catalogue's antigen names in one language, the key for one it lacks.
type names map[string]string

func (n names) of(key string) string {
	if s, ok := n[key]; ok && s != "" {
		return s
	}
	return key
}

func antigenNames(lang string) names {
	out := names{}
	for _, a := range Default().Antigens(lang) {
		out[a.Key] = a.Name
	}
	return out
}
