package immunisation

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The catalogue is data: five tables shipped beside this reader, each row with its source
// (docs/knowledge.md, "Immunisations"):
//   - antigens.tsv: what a dose protects against, named in the four languages;
//   - vaccines.tsv: one row per product (CVX, ATC, live, antigens, components, names, brands);
//   - programmes.tsv: one row per schedule (country, names, grace days, overdue days);
//   - schedules.tsv: one row per schedule, antigen and dose (ages, intervals, maximum age);
//   - catchup.tsv: the shorter series of a late start (Hib, pneumococcal…).
// Ages and intervals are written in a compact notation of whole units: "0d", "6w", "2m",
// "4m15d", "1y", "14w6d" (d days, w weeks, m calendar months, y calendar years). Months and
// years are added to the date as calendar months, a day past the month's end clamped to its
// last day (31 January + 1 month = 28 or 29 February); weeks and days are added as days.

//go:embed antigens.tsv
var antigensTSV []byte

//go:embed vaccines.tsv
var vaccinesTSV []byte

//go:embed programmes.tsv
var programmesTSV []byte

//go:embed schedules.tsv
var schedulesTSV []byte

//go:embed catchup.tsv
var catchupTSV []byte

// Languages the catalogue names everything in; the first is the fallback.
var Languages = []string{"en", "ru", "zh", "vi"}

// Routes a vaccine is given by: intramuscular, subcutaneous, intradermal, by mouth, intranasal.
var Routes = []string{"IM", "SC", "ID", "PO", "IN"}

// Antigen is what a dose protects against (measles, pertussis…), the unit the schedules count.
type Antigen struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// Schedule is a country's (or WHO's) programme, as shipped.
type Schedule struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	Country string `json:"country"`
	Source  string `json:"source"`
	// GraceDays: a dose given up to this many days before its minimum age or interval still
	// counts (ACIP's 4 days); 0 where the schedule's text says nothing of it.
	GraceDays int `json:"grace_days"`
	// National: a state's immunisation programme (Viet Nam's TCMR…), not a recommendation
	// (WHO's, a paediatric society's).
	National bool `json:"national"`
	// OverdueDays: a dose is overdue this many days after its due date unless its row gives an
	// overdue age.
	OverdueDays int `json:"overdue_days"`
	// FeverFrom: the temperature (°C) from which the programme's screening defers a dose (Viet
	// Nam's checklist 37.5; the Brighton Collaboration's fever 38.0 elsewhere).
	FeverFrom float64 `json:"fever_from"`
}

// Catalogue is the vaccine products, antigens and schedules shipped as data.
type Catalogue struct {
	antigens   []antigenRow
	antigenBy  map[string]int
	vaccines   []Vaccine
	vaccineBy  map[string]int
	programmes []programme
	programBy  map[string]int
	// rows[schedule][antigen]: the doses in dose order.
	rows map[string]map[string][]doseRow
	// catchup[schedule][antigen]: by first age, ascending.
	catchup map[string]map[string][]catchupRow
	// products[schedule][antigen]: the products that give it, the schedule's named first.
	products map[string]map[string][]string
	// ages[i]: the ages vaccines[i] may be given at (nil: no limit).
	ages []productAges
}

type productAges struct{ min, max *age }

// fits says whether a product may be given to a child born on birth on day t: not under its
// minimum age (less grace days, as a schedule's minimum age) nor past its maximum.
func (c *Catalogue) fits(vaccine string, birth, t time.Time, grace int) bool {
	return !c.tooYoung(vaccine, birth, t, grace) && !c.tooOld(vaccine, birth, t)
}

// FitsAge says whether a product may be given on day to a person born on birth (YYYY-MM-DD):
// within its ages, no grace days. Unknown product or unreadable day: true (nothing to say).
func (c *Catalogue) FitsAge(vaccine, birth, day string) bool {
	b, ok1 := parseDay(birth)
	t, ok2 := parseDay(day)
	return !ok1 || !ok2 || c.fits(vaccine, b, t, 0)
}

// liveInjectable says whether a product is a live vaccine given by injection (SC or IM: the
// 28-day rule between live injectable vaccines; BCG, intradermal, and oral or intranasal
// live vaccines are not held to it).
func (c *Catalogue) liveInjectable(vaccine string) bool {
	vi, ok := c.vaccineBy[vaccine]
	return ok && c.vaccines[vi].Live && (c.vaccines[vi].Route == "SC" || c.vaccines[vi].Route == "IM")
}

func (c *Catalogue) tooYoung(vaccine string, birth, t time.Time, grace int) bool {
	vi, ok := c.vaccineBy[vaccine]
	return ok && c.ages[vi].min != nil && t.Before(c.ages[vi].min.after(birth).AddDate(0, 0, -grace))
}

func (c *Catalogue) tooOld(vaccine string, birth, t time.Time) bool {
	vi, ok := c.vaccineBy[vaccine]
	return ok && c.ages[vi].max != nil && t.After(c.ages[vi].max.after(birth))
}

// countRule is one entry of a row's counts_with: a product, counting for the dose when given at
// or after from (nil: at any age).
type countRule struct {
	vaccine string
	from    *age
}

// counts says whether a dose of vaccine given on day t counts for the row: any product
// containing the antigen when the row's counts_with is empty, else only those it names.
func (r doseRow) counts(vaccine string, birth, t time.Time) bool {
	if len(r.countsWith) == 0 {
		return true
	}
	for _, cr := range r.countsWith {
		if cr.vaccine == vaccine && (cr.from == nil || !t.Before(cr.from.after(birth))) {
			return true
		}
	}
	return false
}

type antigenRow struct {
	key    string
	names  map[string]string
	source string
	// cvx is the CVX code of a vaccine against the antigen of no stated product (its
	// "unspecified formulation" code, or its only vaccine); snomed the SNOMED CT code of the
	// disease it protects against (antigens.tsv, codes_source).
	cvx, snomed string
}

type programme struct {
	key, country, source string
	names                map[string]string
	grace, overdueDays   int
	feverFrom            float64
	// national: the programme is a state's (programmes.tsv national): a dose a later
	// schedule forecasts beside it is a service vaccine, outside the programme.
	national bool
	// until: the age from which the programme forecasts nothing more (its childhood
	// schedule's end): a dose not given by then is aged out.
	until age
}

// doseRow is one row of schedules.tsv.
type doseRow struct {
	schedule, antigen string
	dose              int
	minAge, dueAge    age
	overdueAge        *age
	maxAge            *age
	// onMax: "skip" (past its maximum age the dose is dropped and the series goes on) or
	// "end" (the series ends: the child has aged out).
	onMax       string
	minInterval age
	// repeat: when this row ends the child's series, the dose comes round again this long
	// after the last valid one (influenza, yearly), at the earliest repeatMin after it.
	repeat    *age
	repeatMin age
	sex       string // "" any, "female", "male"
	vaccines  []string
	// countsWith: the products a dose counts with (empty: any containing the antigen); an
	// entry "td@7y" counts only when given at or after 7 years.
	countsWith []countRule
	// ifGiven: the row is part of the series only when a dose that counted before it was one
	// of these products (a third rotavirus dose after RotaTeq); empty: always.
	ifGiven []string
	source  string
}

// catchupRow is one row of catchup.tsv: a first dose at or after from makes the series the
// rows doses (by the schedule's dose numbers), interval apart when given. A row with without
// set is not a late start: while that antigen is contraindicated, a child who had fewer doses
// than the first one the row leaves out before the contraindication began has the row's
// shorter series, each later dose due its interval after the one before (Russia's АДС-анатоксин
// course of two and a booster when pertussis vaccine may not be given).
type catchupRow struct {
	from    age
	doses   []int
	without string
	// intervals: by dose number, the interval before each dose but the first (one value in the
	// table: the same before each).
	intervals map[int]age
	// overdueAfter: by dose number, how long after the dose before it is overdue (the АДС
	// booster's 12 months after the course); none: the programme's overdue days after due.
	overdueAfter map[int]age
	source       string
}

// leftOut is the first of the schedule's doses the row's series leaves out (0: none).
func (cr catchupRow) leftOut(rows []doseRow) int {
	for _, r := range rows {
		if !slices.Contains(cr.doses, r.dose) {
			return r.dose
		}
	}
	return 0
}

var (
	defaultOnce sync.Once
	defaultCat  *Catalogue
)

// Default is the shipped catalogue, read once.
func Default() *Catalogue {
	defaultOnce.Do(func() {
		c, err := load(antigensTSV, vaccinesTSV, programmesTSV, schedulesTSV, catchupTSV)
		if err != nil {
			panic("immunisation: the shipped catalogue does not read: " + err.Error())
		}
		defaultCat = c
	})
	return defaultCat
}

// Vaccine is the product of a key, its Name in lang.
func (c *Catalogue) Vaccine(key, lang string) (Vaccine, bool) {
	i, ok := c.vaccineBy[key]
	if !ok {
		return Vaccine{}, false
	}
	return c.named(c.vaccines[i], lang), true
}

// Vaccines are every product, named in lang, in the catalogue's order.
func (c *Catalogue) Vaccines(lang string) []Vaccine {
	out := make([]Vaccine, len(c.vaccines))
	for i, v := range c.vaccines {
		out[i] = c.named(v, lang)
	}
	return out
}

func (c *Catalogue) named(v Vaccine, lang string) Vaccine {
	v.Name = pick(v.Names, lang)
	v.Antigens = slices.Clone(v.Antigens)
	v.Components = slices.Clone(v.Components)
	return v
}

// Antigens are every antigen, named in lang.
func (c *Catalogue) Antigens(lang string) []Antigen {
	out := make([]Antigen, len(c.antigens))
	for i, a := range c.antigens {
		out[i] = Antigen{Key: a.key, Name: pick(a.names, lang)}
	}
	return out
}

// Antigen is the antigen of a key, named in lang.
func (c *Catalogue) Antigen(key, lang string) (Antigen, bool) {
	i, ok := c.antigenBy[key]
	if !ok {
		return Antigen{}, false
	}
	return Antigen{Key: key, Name: pick(c.antigens[i].names, lang)}, true
}

// AntigenCodes are the codes of antigen key: the CVX code of a vaccine against it whose
// product is not stated, and the SNOMED CT code of the disease; "" where the table has none.
func (c *Catalogue) AntigenCodes(key string) (cvx, snomed string) {
	i, ok := c.antigenBy[key]
	if !ok {
		return "", ""
	}
	return c.antigens[i].cvx, c.antigens[i].snomed
}

// ForecastOver reports whether a person born on birth (YYYY-MM-DD) is, on asOf, past the end
// of every schedule of schedules the catalogue has (programmes.tsv, forecast_until): nothing
// is forecast for them any more. An unreadable day, or no known schedule: false.
func (c *Catalogue) ForecastOver(schedules []string, birth, asOf string) bool {
	end, ok := c.ForecastEnd(schedules, birth)
	t, ok2 := parseDay(asOf)
	return ok && ok2 && !t.Before(end)
}

// ForecastEnd is the day a person born on birth (YYYY-MM-DD) is past the end of every schedule
// of schedules the catalogue has (programmes.tsv, forecast_until); false for an unreadable day
// or no known schedule.
func (c *Catalogue) ForecastEnd(schedules []string, birth string) (time.Time, bool) {
	b, ok := parseDay(birth)
	if !ok {
		return time.Time{}, false
	}
	var end time.Time
	known := false
	for _, s := range schedules {
		if i, ok := c.programBy[s]; ok {
			known = true
			if e := c.programmes[i].until.after(b); e.After(end) {
				end = e
			}
		}
	}
	return end, known
}

// BornForEnds are the days (YYYY-MM-DD) between which the births lie whose ForecastEnd under
// schedules falls from from to to (a few days wider: a month's last day); false for no known
// schedule.
func (c *Catalogue) BornForEnds(schedules []string, from, to time.Time) (string, string, bool) {
	var lo, hi time.Time
	known := false
	for _, s := range schedules {
		i, ok := c.programBy[s]
		if !ok {
			continue
		}
		u := c.programmes[i].until
		back := func(t time.Time) time.Time {
			return addMonths(t, -(u.years*12+u.months)).AddDate(0, 0, -(u.weeks*7 + u.days))
		}
		l, h := back(from).AddDate(0, 0, -3), back(to).AddDate(0, 0, 3)
		if !known || l.Before(lo) {
			lo = l
		}
		if !known || h.After(hi) {
			hi = h
		}
		known = true
	}
	return lo.Format(dayLayout), hi.Format(dayLayout), known
}

// Schedules are every shipped schedule, named in lang.
func (c *Catalogue) Schedules(lang string) []Schedule {
	out := make([]Schedule, len(c.programmes))
	for i, p := range c.programmes {
		out[i] = Schedule{Key: p.key, Name: pick(p.names, lang), Country: p.country, Source: p.source,
			GraceDays: p.grace, OverdueDays: p.overdueDays, National: p.national, FeverFrom: p.feverFrom}
	}
	return out
}

// ProductsFor are the products that give a dose of antigen under schedule, the schedule's
// named first (the forecast's Vaccines before it drops those the child is not of an age for).
func (c *Catalogue) ProductsFor(schedule, antigen string) []string {
	return slices.Clone(c.products[schedule][antigen])
}

// OutsideProgramme says whether a dose forecast by schedule is outside the clinic's national
// programme: the clinic's first schedule is a national programme (programmes.tsv national)
// and schedule is a later one (WHO's, a paediatric society's) — a service vaccine the family
// pays for, "ngoài TCMR (tiêm dịch vụ)".
func (c *Catalogue) OutsideProgramme(schedules []string, schedule string) bool {
	if len(schedules) == 0 || schedule == "" || schedule == schedules[0] {
		return false
	}
	i, ok := c.programBy[schedules[0]]
	return ok && c.programmes[i].national
}

// HasSchedule says whether key is a shipped schedule.
func (c *Catalogue) HasSchedule(key string) bool {
	_, ok := c.programBy[key]
	return ok
}

// VaccinesFor are the keys of the products that give a dose of antigen, in catalogue order.
func (c *Catalogue) VaccinesFor(antigen string) []string {
	var out []string
	for _, v := range c.vaccines {
		if slices.Contains(v.Antigens, antigen) {
			out = append(out, v.Key)
		}
	}
	return out
}

func pick(names map[string]string, lang string) string {
	if n := names[lang]; n != "" {
		return n
	}
	return names["en"]
}

// table is a TSV with a header row, read by column name.
type table struct {
	name string
	cols map[string]int
	rows [][]string
}

func readTable(name string, data []byte) (*table, error) {
	t := &table{name: name, cols: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	header := true
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if header {
			for i, f := range fields {
				t.cols[f] = i
			}
			header = false
			continue
		}
		if len(fields) != len(t.cols) {
			return nil, fmt.Errorf("%s line %d: %d fields, the header has %d", name, line, len(fields), len(t.cols))
		}
		t.rows = append(t.rows, fields)
	}
	return t, sc.Err()
}

// require says which of cols the table lacks.
func (t *table) require(cols ...string) error {
	for _, c := range cols {
		if _, ok := t.cols[c]; !ok {
			return fmt.Errorf("%s has no column %s", t.name, c)
		}
	}
	return nil
}

func (t *table) get(row []string, col string) string {
	i, ok := t.cols[col]
	if !ok {
		panic(t.name + " has no column " + col)
	}
	return strings.TrimSpace(row[i])
}

func (t *table) names(row []string) map[string]string {
	m := map[string]string{}
	for _, l := range Languages {
		m[l] = t.get(row, l)
	}
	return m
}

func list(s string) []string {
	if s == "" {
		return []string{}
	}
	parts := strings.Split(s, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func load(antigens, vaccines, programmes, schedules, catchup []byte) (*Catalogue, error) {
	c := &Catalogue{antigenBy: map[string]int{}, vaccineBy: map[string]int{}, programBy: map[string]int{},
		rows: map[string]map[string][]doseRow{}, catchup: map[string]map[string][]catchupRow{}}

	at, err := readTable("antigens.tsv", antigens)
	if err != nil {
		return nil, err
	}
	if err := at.require(append([]string{"key", "source", "cvx_unspecified", "snomed", "codes_source"}, Languages...)...); err != nil {
		return nil, err
	}
	for _, r := range at.rows {
		a := antigenRow{key: at.get(r, "key"), names: at.names(r), source: at.get(r, "source"),
			cvx: at.get(r, "cvx_unspecified"), snomed: at.get(r, "snomed")}
		if (a.cvx != "" || a.snomed != "") && at.get(r, "codes_source") == "" {
			return nil, fmt.Errorf("antigens.tsv %s: codes without codes_source", a.key)
		}
		if _, dup := c.antigenBy[a.key]; dup {
			return nil, fmt.Errorf("antigens.tsv: %s twice", a.key)
		}
		c.antigenBy[a.key] = len(c.antigens)
		c.antigens = append(c.antigens, a)
	}

	vt, err := readTable("vaccines.tsv", vaccines)
	if err != nil {
		return nil, err
	}
	if err := vt.require(append([]string{"key", "cvx", "atc", "live", "antigens", "components", "route", "brands", "min_age", "max_age", "source"}, Languages...)...); err != nil {
		return nil, err
	}
	for _, r := range vt.rows {
		live := vt.get(r, "live")
		if live != "true" && live != "false" {
			return nil, fmt.Errorf("vaccines.tsv %s: live is %q", vt.get(r, "key"), live)
		}
		v := Vaccine{Key: vt.get(r, "key"), CVX: vt.get(r, "cvx"), ATC: vt.get(r, "atc"), Live: live == "true",
			Antigens: list(vt.get(r, "antigens")), Components: list(vt.get(r, "components")), Route: vt.get(r, "route"),
			Names: vt.names(r), Source: vt.get(r, "source"), Brands: map[string][]string{},
			MinAge: vt.get(r, "min_age"), MaxAge: vt.get(r, "max_age")}
		var pa productAges
		if pa.min, err = optAge(v.MinAge); err != nil {
			return nil, fmt.Errorf("vaccines.tsv %s: min_age: %w", v.Key, err)
		}
		if pa.max, err = optAge(v.MaxAge); err != nil {
			return nil, fmt.Errorf("vaccines.tsv %s: max_age: %w", v.Key, err)
		}
		for _, b := range list(vt.get(r, "brands")) {
			country, name, ok := strings.Cut(b, ":")
			if !ok {
				return nil, fmt.Errorf("vaccines.tsv %s: brand %q has no country", v.Key, b)
			}
			v.Brands[country] = append(v.Brands[country], name)
		}
		if !slices.Contains(Routes, v.Route) {
			return nil, fmt.Errorf("vaccines.tsv %s: route %q", v.Key, v.Route)
		}
		for _, a := range v.Antigens {
			if _, ok := c.antigenBy[a]; !ok {
				return nil, fmt.Errorf("vaccines.tsv %s: no antigen %s", v.Key, a)
			}
		}
		if _, dup := c.vaccineBy[v.Key]; dup {
			return nil, fmt.Errorf("vaccines.tsv: %s twice", v.Key)
		}
		c.vaccineBy[v.Key] = len(c.vaccines)
		c.vaccines = append(c.vaccines, v)
		c.ages = append(c.ages, pa)
	}

	pt, err := readTable("programmes.tsv", programmes)
	if err != nil {
		return nil, err
	}
	if err := pt.require(append([]string{"key", "country", "grace_days", "overdue_days", "forecast_until", "national", "fever_from", "source"}, Languages...)...); err != nil {
		return nil, err
	}
	for _, r := range pt.rows {
		p := programme{key: pt.get(r, "key"), country: pt.get(r, "country"), source: pt.get(r, "source"), names: pt.names(r)}
		switch pt.get(r, "national") {
		case "yes":
			p.national = true
		case "no":
		default:
			return nil, fmt.Errorf("programmes.tsv %s: national: %q is not yes or no", p.key, pt.get(r, "national"))
		}
		if p.grace, err = strconv.Atoi(pt.get(r, "grace_days")); err != nil {
			return nil, fmt.Errorf("programmes.tsv %s: grace_days: %w", p.key, err)
		}
		if p.overdueDays, err = strconv.Atoi(pt.get(r, "overdue_days")); err != nil {
			return nil, fmt.Errorf("programmes.tsv %s: overdue_days: %w", p.key, err)
		}
		if p.feverFrom, err = strconv.ParseFloat(pt.get(r, "fever_from"), 64); err != nil || p.feverFrom < 37 || p.feverFrom > 39 {
			return nil, fmt.Errorf("programmes.tsv %s: fever_from: %q is not a temperature from 37 to 39 °C", p.key, pt.get(r, "fever_from"))
		}
		if p.until, err = parseAge(pt.get(r, "forecast_until")); err != nil {
			return nil, fmt.Errorf("programmes.tsv %s: forecast_until: %w", p.key, err)
		}
		c.programBy[p.key] = len(c.programmes)
		c.programmes = append(c.programmes, p)
		c.rows[p.key] = map[string][]doseRow{}
		c.catchup[p.key] = map[string][]catchupRow{}
	}

	st, err := readTable("schedules.tsv", schedules)
	if err != nil {
		return nil, err
	}
	if err := st.require("schedule", "antigen", "dose", "min_age", "due_age", "overdue_age", "max_age", "on_max", "min_interval", "repeat", "repeat_min", "sex", "vaccines", "counts_with", "if_given", "source"); err != nil {
		return nil, err
	}
	for i, r := range st.rows {
		d := doseRow{schedule: st.get(r, "schedule"), antigen: st.get(r, "antigen"), onMax: st.get(r, "on_max"),
			sex: st.get(r, "sex"), vaccines: list(st.get(r, "vaccines")), source: st.get(r, "source")}
		where := fmt.Sprintf("schedules.tsv row %d (%s %s)", i+2, d.schedule, d.antigen)
		if _, ok := c.programBy[d.schedule]; !ok {
			return nil, fmt.Errorf("%s: no schedule %s in programmes.tsv", where, d.schedule)
		}
		if _, ok := c.antigenBy[d.antigen]; !ok {
			return nil, fmt.Errorf("%s: no antigen %s", where, d.antigen)
		}
		if d.dose, err = strconv.Atoi(st.get(r, "dose")); err != nil {
			return nil, fmt.Errorf("%s: dose: %w", where, err)
		}
		if d.minAge, err = parseAge(st.get(r, "min_age")); err != nil {
			return nil, fmt.Errorf("%s: min_age: %w", where, err)
		}
		if d.dueAge, err = parseAge(st.get(r, "due_age")); err != nil {
			return nil, fmt.Errorf("%s: due_age: %w", where, err)
		}
		if d.overdueAge, err = optAge(st.get(r, "overdue_age")); err != nil {
			return nil, fmt.Errorf("%s: overdue_age: %w", where, err)
		}
		if d.maxAge, err = optAge(st.get(r, "max_age")); err != nil {
			return nil, fmt.Errorf("%s: max_age: %w", where, err)
		}
		if s := st.get(r, "min_interval"); s != "" {
			if d.minInterval, err = parseAge(s); err != nil {
				return nil, fmt.Errorf("%s: min_interval: %w", where, err)
			}
		}
		if d.repeat, err = optAge(st.get(r, "repeat")); err != nil {
			return nil, fmt.Errorf("%s: repeat: %w", where, err)
		}
		if s := st.get(r, "repeat_min"); s != "" {
			if d.repeat == nil {
				return nil, fmt.Errorf("%s: repeat_min without repeat", where)
			}
			if d.repeatMin, err = parseAge(s); err != nil {
				return nil, fmt.Errorf("%s: repeat_min: %w", where, err)
			}
		}
		switch d.onMax {
		case "", "skip", "end":
		default:
			return nil, fmt.Errorf("%s: on_max %q (skip or end)", where, d.onMax)
		}
		if d.maxAge != nil && d.onMax == "" {
			return nil, fmt.Errorf("%s: a maximum age needs on_max (skip or end)", where)
		}
		switch d.sex {
		case "", "female", "male":
		default:
			return nil, fmt.Errorf("%s: sex %q", where, d.sex)
		}
		for _, v := range d.vaccines {
			vi, ok := c.vaccineBy[v]
			if !ok {
				return nil, fmt.Errorf("%s: no vaccine %s", where, v)
			}
			if !slices.Contains(c.vaccines[vi].Antigens, d.antigen) {
				return nil, fmt.Errorf("%s: vaccine %s gives no %s", where, v, d.antigen)
			}
		}
		for _, e := range list(st.get(r, "counts_with")) {
			key, from, hasFrom := strings.Cut(e, "@")
			cr := countRule{vaccine: key}
			if hasFrom {
				if cr.from, err = optAge(from); err != nil || cr.from == nil {
					return nil, fmt.Errorf("%s: counts_with %q: %v", where, e, err)
				}
			}
			vi, ok := c.vaccineBy[key]
			if !ok {
				return nil, fmt.Errorf("%s: counts_with: no vaccine %s", where, key)
			}
			if !slices.Contains(c.vaccines[vi].Antigens, d.antigen) {
				return nil, fmt.Errorf("%s: counts_with: vaccine %s gives no %s", where, key, d.antigen)
			}
			d.countsWith = append(d.countsWith, cr)
		}
		d.ifGiven = list(st.get(r, "if_given"))
		for _, v := range d.ifGiven {
			vi, ok := c.vaccineBy[v]
			if !ok || !slices.Contains(c.vaccines[vi].Antigens, d.antigen) {
				return nil, fmt.Errorf("%s: if_given: no vaccine %s that gives %s", where, v, d.antigen)
			}
		}
		rows := c.rows[d.schedule][d.antigen]
		if len(rows) > 0 && rows[len(rows)-1].dose >= d.dose {
			return nil, fmt.Errorf("%s: dose %d out of order", where, d.dose)
		}
		c.rows[d.schedule][d.antigen] = append(rows, d)
	}

	ct, err := readTable("catchup.tsv", catchup)
	if err != nil {
		return nil, err
	}
	if err := ct.require("schedule", "antigen", "first_from", "doses", "interval", "without", "overdue_after", "source"); err != nil {
		return nil, err
	}
	for i, r := range ct.rows {
		s, a := ct.get(r, "schedule"), ct.get(r, "antigen")
		where := fmt.Sprintf("catchup.tsv row %d (%s %s)", i+2, s, a)
		rows := c.rows[s][a]
		if len(rows) == 0 {
			return nil, fmt.Errorf("%s: the schedule has no such antigen", where)
		}
		cr := catchupRow{source: ct.get(r, "source"), without: ct.get(r, "without"), intervals: map[int]age{}, overdueAfter: map[int]age{}}
		if cr.from, err = parseAge(ct.get(r, "first_from")); err != nil {
			return nil, fmt.Errorf("%s: first_from: %w", where, err)
		}
		if _, ok := c.antigenBy[cr.without]; cr.without != "" && !ok {
			return nil, fmt.Errorf("%s: without: no antigen %q", where, cr.without)
		}
		for _, d := range list(ct.get(r, "doses")) {
			n, err := strconv.Atoi(d)
			if err != nil || !slices.ContainsFunc(rows, func(x doseRow) bool { return x.dose == n }) {
				return nil, fmt.Errorf("%s: no dose %q in the schedule", where, d)
			}
			cr.doses = append(cr.doses, n)
		}
		if iv := list(ct.get(r, "interval")); len(iv) > 0 {
			if len(iv) != 1 && len(iv) != len(cr.doses)-1 {
				return nil, fmt.Errorf("%s: interval: one, or one before each dose but the first", where)
			}
			for k, n := range cr.doses[1:] {
				v, err := parseAge(iv[min(k, len(iv)-1)])
				if err != nil {
					return nil, fmt.Errorf("%s: interval: %w", where, err)
				}
				cr.intervals[n] = v
			}
		}
		if od := list(ct.get(r, "overdue_after")); len(od) > 0 {
			if len(od) != len(cr.doses)-1 {
				return nil, fmt.Errorf("%s: overdue_after: one before each dose but the first (- for none)", where)
			}
			for k, n := range cr.doses[1:] {
				if od[k] == "-" {
					continue
				}
				v, err := parseAge(od[k])
				if err != nil {
					return nil, fmt.Errorf("%s: overdue_after: %w", where, err)
				}
				cr.overdueAfter[n] = v
			}
		}
		prev := c.catchup[s][a]
		if len(prev) > 0 && cr.without == "" && prev[len(prev)-1].without == "" && !prev[len(prev)-1].from.less(cr.from) {
			return nil, fmt.Errorf("%s: first_from out of order", where)
		}
		c.catchup[s][a] = append(prev, cr)
	}
	c.products = map[string]map[string][]string{}
	for s, byAntigen := range c.rows {
		c.products[s] = map[string][]string{}
		for a, rows := range byAntigen {
			c.products[s][a] = c.productsFor(a, rows)
		}
	}
	return c, nil
}

// ScheduleDose is one dose of a schedule as shipped (a row of schedules.tsv), for a screen or
// a card that shows the schedule. Ages in the tables' notation ("6w", "2m", "4m15d", "4y-1d").
type ScheduleDose struct {
	Schedule    string   `json:"schedule"`
	Antigen     string   `json:"antigen"`
	AntigenName string   `json:"antigen_name"`
	Dose        int      `json:"dose"`
	MinAge      string   `json:"min_age"`
	DueAge      string   `json:"due_age"`
	OverdueAge  string   `json:"overdue_age,omitempty"`
	MaxAge      string   `json:"max_age,omitempty"`
	OnMax       string   `json:"on_max,omitempty"` // skip or end
	MinInterval string   `json:"min_interval,omitempty"`
	Repeat      string   `json:"repeat,omitempty"` // the dose comes round again this long after the last
	Sex         string   `json:"sex,omitempty"`
	Vaccines    []string `json:"vaccines"`
	Source      string   `json:"source"`
}

// ScheduleDoses are the doses of a schedule, by antigen (in the catalogue's order) then dose;
// none for an unknown key.
func (c *Catalogue) ScheduleDoses(schedule, lang string) []ScheduleDose {
	byAntigen, ok := c.rows[schedule]
	if !ok {
		return nil
	}
	out := []ScheduleDose{}
	for _, a := range c.antigens {
		for _, r := range byAntigen[a.key] {
			d := ScheduleDose{Schedule: schedule, Antigen: a.key, AntigenName: pick(a.names, lang), Dose: r.dose,
				MinAge: r.minAge.String(), DueAge: r.dueAge.String(), OnMax: r.onMax, Sex: r.sex,
				Vaccines: slices.Clone(r.vaccines), Source: r.source}
			if r.overdueAge != nil {
				d.OverdueAge = r.overdueAge.String()
			}
			if r.maxAge != nil {
				d.MaxAge = r.maxAge.String()
			}
			if r.minInterval != (age{}) {
				d.MinInterval = r.minInterval.String()
			}
			if r.repeat != nil {
				d.Repeat = r.repeat.String()
			}
			out = append(out, d)
		}
	}
	return out
}
