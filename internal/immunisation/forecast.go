package immunisation

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

const dayLayout = "2006-01-02"

// age is an age or an interval in whole calendar units: "4m15d" is four calendar months and
// fifteen days; "4y-1d" the day before the fourth birthday (a maximum age "under 4 years").
type age struct{ years, months, weeks, days int }

var ageRE = regexp.MustCompile(`^(?:(\d+)y)?(?:(\d+)m)?(?:(\d+)w)?(?:(\d+)d)?(?:-(\d+)d)?$`)

func parseAge(s string) (age, error) {
	m := ageRE.FindStringSubmatch(s)
	if s == "" || m == nil {
		return age{}, fmt.Errorf("%q is not an age (e.g. 0d, 6w, 2m, 4m15d, 1y)", s)
	}
	n := func(x string) int {
		if x == "" {
			return 0
		}
		v, _ := strconv.Atoi(x)
		return v
	}
	return age{years: n(m[1]), months: n(m[2]), weeks: n(m[3]), days: n(m[4]) - n(m[5])}, nil
}

func optAge(s string) (*age, error) {
	if s == "" {
		return nil, nil
	}
	a, err := parseAge(s)
	return &a, err
}

// after is the day this long after t: calendar months first (clamped to the month's last day),
// then weeks and days.
func (a age) after(t time.Time) time.Time {
	return addMonths(t, a.years*12+a.months).AddDate(0, 0, a.weeks*7+a.days)
}

// approxDays orders ages (a month as 30 days, a year as 365): used only to sort catch-up rows.
func (a age) approxDays() int { return a.years*365 + a.months*30 + a.weeks*7 + a.days }

func (a age) less(b age) bool { return a.approxDays() < b.approxDays() }

func (a age) String() string {
	var b strings.Builder
	for _, p := range []struct {
		n int
		u string
	}{{a.years, "y"}, {a.months, "m"}, {a.weeks, "w"}, {a.days, "d"}} {
		if p.n < 0 {
			fmt.Fprintf(&b, "-%d%s", -p.n, p.u)
		} else if p.n != 0 {
			fmt.Fprintf(&b, "%d%s", p.n, p.u)
		}
	}
	if b.Len() == 0 {
		return "0d"
	}
	return b.String()
}

// addMonths adds calendar months, a day past the target month's end clamped to its last day.
func addMonths(t time.Time, months int) time.Time {
	if months == 0 {
		return t
	}
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(months), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC)
}

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse(dayLayout, s)
	return t, err == nil
}

// day writes t as YYYY-MM-DD (as t.Format(dayLayout), without the layout's parsing: the
// forecast writes a few dozen of these per child).
func day(t time.Time) string {
	y, m, d := t.Date()
	if y < 0 || y > 9999 {
		return t.Format(dayLayout)
	}
	b := [10]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + int(m)/10), byte('0' + int(m)%10), '-', byte('0' + d/10), byte('0' + d%10)}
	return string(b[:])
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Statuses of a recommendation.
const (
	StatusUpcoming        = "upcoming"
	StatusDue             = "due"
	StatusOverdue         = "overdue"
	StatusComplete        = "complete"
	StatusAgedOut         = "aged_out"
	StatusRefused         = "refused"
	StatusContraindicated = "contraindicated"
	// StatusDeferred: a deferral's day to come back is still to come (the dose is due from it).
	StatusDeferred = "deferred"
)

// Reasons a dose does not count.
const (
	ReasonTooEarly  = "too_early"
	ReasonTooClose  = "too_close"
	ReasonTooLate   = "too_late"
	ReasonNotNeeded = "not_needed"
	// ReasonWrongVaccine: the schedule's dose is not given with this product (the row's
	// counts_with): bOPV for an IPV dose, Td for an infant's DTP dose.
	ReasonWrongVaccine = "wrong_vaccine"
	// ReasonProductAge: the product was given outside the ages it may be given at
	// (vaccines.tsv min_age, max_age).
	ReasonProductAge = "product_age"
	// ReasonLiveInterval: a live injectable vaccine given 1 to 27 days after another (not the
	// same day): it does not count (ACIP General Best Practice Guidelines; WHO).
	ReasonLiveInterval = "live_interval"
	// ReasonLowWeight: a hepatitis B dose given to a baby under 2,000 g does not count towards
	// the series; three more follow from 1 month of age (China NIP 2021, 乙肝疫苗 "出生体重
	// <2000g…满1月龄后，再按0、1、6月程序完成3剂次"; ACIP hepatitis B recommendations 2018,
	// preterm infants under 2,000 g: the birth dose is not counted).
	ReasonLowWeight = "low_weight"
)

// lowWeightAntigen is the antigen whose doses a weight under 2,000 g does not count.
const lowWeightAntigen = "hepb"

// lowWeightRestart is the age from which a series restarts after a dose that did not count
// for the baby's weight (China NIP 2021; ACIP 2018: at chronological age 1 month).
var lowWeightRestart = age{months: 1}

// Forecast reads a child's doses and exclusions against the schedules chosen (in the clinic's
// order: for each antigen the first schedule that has it), as of a day.
//
// For each antigen the doses are read in date order: a dose under the minimum age or the
// minimum interval from the previous valid dose (less the schedule's grace days) does not
// count (too_early, too_close); past a maximum age that ends the series it does not count
// (too_late); after the series is complete it is not needed. A combination product counts for
// each of its antigens. The next dose: earliest = the later of the minimum age and the last
// valid dose + the minimum interval; due = the later of the recommended age and earliest;
// overdue from the row's overdue age when it falls after the due day, else the due day + the
// schedule's overdue days. A first dose at or after a catch-up row's age makes the series that
// row's (fewer) doses. Ages are chronological (from the birth date), premature infants included.
func (c *Catalogue) Forecast(schedules []string, child Child, doses []Dose, excl []Exclusion, asOf string) Forecast {
	f := Forecast{AsOf: asOf, Evaluations: []Evaluation{}, Recommendations: []Recommendation{}}
	birth, ok := parseDay(child.BirthDate)
	if !ok {
		return f
	}
	today, ok := parseDay(asOf)
	if !ok {
		return f
	}
	sex := normSex(child.Sex)

	// The antigens and which schedule decides each.
	type plan struct {
		schedule string
		rows     []doseRow
	}
	plans := map[string]plan{}
	var order []string
	for _, s := range schedules {
		byAntigen, ok := c.rows[s]
		if !ok {
			continue
		}
		for _, a := range c.antigens {
			if _, done := plans[a.key]; done {
				continue
			}
			rows := byAntigen[a.key]
			if slices.ContainsFunc(rows, func(r doseRow) bool { return r.sex != "" }) {
				rows = slices.DeleteFunc(slices.Clone(rows), func(r doseRow) bool { return r.sex != "" && r.sex != sex })
			}
			if len(rows) > 0 {
				plans[a.key] = plan{schedule: s, rows: rows}
				order = append(order, a.key)
			}
		}
	}

	// The doses of each antigen, in date order.
	sorted := slices.Clone(doses)
	slices.SortStableFunc(sorted, func(a, b Dose) int {
		return cmp.Or(cmp.Compare(a.On, b.On), cmp.Compare(a.ID, b.ID))
	})
	byAntigen := map[string][]onRecord{}
	var unplanned []string
	// Live injectable vaccines not given the same day must be 28 days apart, else the later
	// does not count.
	liveTooSoon := map[int64]bool{}
	var lives []time.Time
	for _, d := range sorted {
		on, ok := parseDay(d.On)
		if !ok || !c.liveInjectable(d.Vaccine) {
			continue
		}
		for _, l := range lives {
			if on.After(l) && on.Before(l.AddDate(0, 0, 28)) {
				liveTooSoon[d.ID] = true
			}
		}
		lives = append(lives, on)
	}
	for _, d := range sorted {
		vi, ok := c.vaccineBy[d.Vaccine]
		if !ok {
			continue
		}
		on, ok := parseDay(d.On)
		if !ok {
			continue
		}
		for _, a := range c.vaccines[vi].Antigens {
			if _, ok := plans[a]; !ok && len(byAntigen[a]) == 0 {
				unplanned = append(unplanned, a)
			}
			// Only a dose before 1 month of age is discounted for the weight: from then a medically
			// stable baby responds whatever it weighs (ACIP 2018; China NIP 2021: 满1月龄后).
			byAntigen[a] = append(byAntigen[a], onRecord{d.ID, on, d.Vaccine, d.LowWeight && a == lowWeightAntigen && on.Before(lowWeightRestart.after(birth))})
		}
	}

	for _, a := range order {
		p := plans[a]
		grace := c.programmes[c.programBy[p.schedule]].grace
		overdueDays := c.programmes[c.programBy[p.schedule]].overdueDays
		// The programme's end: no dose is forecast from that age (the day before it is a
		// row's latest when the row has none, or a later one).
		end := c.programmes[c.programBy[p.schedule]].until.after(birth).AddDate(0, 0, -1)
		latestOf := func(m *age) time.Time {
			if m == nil {
				return end
			}
			if l := m.after(birth); l.Before(end) {
				return l
			}
			return end
		}
		gs := byAntigen[a]

		// The series: the schedule's rows, or a catch-up row's when the first dose that is not
		// too early for dose 1 (or, none given, the first day it could be given) falls at or
		// after its age.
		series := p.rows
		i, counted, skipped := 0, 0, 0
		var catchIntervals, catchOverdue map[int]age
		dueAfterInterval := false // the series' later doses are due their interval after the one before
		ref := later(today, p.rows[0].minAge.after(birth))
		for _, g := range gs {
			if !g.on.Before(p.rows[0].minAge.after(birth).AddDate(0, 0, -grace)) {
				ref = g.on
				break
			}
		}
		pick := func(cr catchupRow) {
			series = nil
			for _, n := range cr.doses {
				for _, r := range p.rows {
					if r.dose == n {
						series = append(series, r)
					}
				}
			}
			catchIntervals, catchOverdue = cr.intervals, cr.overdueAfter
		}
		for _, cr := range c.catchup[p.schedule][a] {
			if cr.without == "" && !ref.Before(cr.from.after(birth)) {
				pick(cr)
			}
		}
		for _, cr := range c.catchup[p.schedule][a] {
			if cr.without != "" && len(series) == len(p.rows) && withoutApplies(cr, p.rows, gs, excl, today) {
				pick(cr)
				dueAfterInterval = true
			}
		}
		if len(series) == 0 {
			continue // a catch-up row naming only doses this child's sex does not have
		}
		series = slices.Clone(series)
		var countedWith []string // the products of the doses that counted
		needed := func(r doseRow) bool {
			return len(r.ifGiven) == 0 || slices.ContainsFunc(r.ifGiven, func(v string) bool { return slices.Contains(countedWith, v) })
		}
		// dropUnneeded drops the next rows that are not part of this child's series (a third
		// rotavirus dose when no dose was RotaTeq).
		dropUnneeded := func() {
			for i < len(series) && !needed(series[i]) {
				series = slices.Delete(series, i, i+1)
			}
		}
		interval := func(r doseRow, first bool) age {
			if iv, ok := catchIntervals[r.dose]; ok && !first {
				return iv
			}
			return r.minInterval
		}

		var prev time.Time
		hasPrev := false
		lowWeight := false // a dose did not count for the baby's weight
		// skipPast drops the skippable rows that can no longer be given on day t.
		skipPast := func(t time.Time) {
			for i < len(series) {
				r := series[i]
				if r.maxAge == nil || r.onMax != "skip" {
					return
				}
				latest := r.maxAge.after(birth)
				earliest := r.minAge.after(birth)
				if hasPrev {
					earliest = later(earliest, interval(r, counted == 0).after(prev))
				}
				if !t.After(latest) && !earliest.After(latest) {
					return
				}
				i++
				skipped++
			}
		}
		gs = slices.Clone(gs)
		for k := range gs {
			skipPast(gs[k].on)
			dropUnneeded()
			if i < len(series) {
				// Doses of one day in the order that lets each count: for this row the first
				// that counts for it and not for the next row (bOPV before IPV when the next
				// row is IPV's), else the first that counts for it.
				r := series[i]
				pick := -1
				for j := k; j < len(gs) && gs[j].on.Equal(gs[k].on); j++ {
					if !r.counts(gs[j].vaccine, birth, gs[j].on) || !c.fits(gs[j].vaccine, birth, gs[j].on, grace) {
						continue
					}
					if pick < 0 {
						pick = j
					}
					if i+1 >= len(series) || !series[i+1].counts(gs[j].vaccine, birth, gs[j].on) {
						pick = j
						break
					}
				}
				if pick > k {
					gs[k], gs[pick] = gs[pick], gs[k]
				}
			}
			g := gs[k]
			ev := Evaluation{DoseID: g.id, On: day(g.on), Antigen: a, Schedule: p.schedule}
			if i >= len(series) || c.tooOld(g.vaccine, birth, g.on) {
				if !c.fits(g.vaccine, birth, g.on, grace) {
					ev.Reason = ReasonProductAge
					f.Evaluations = append(f.Evaluations, ev)
					continue
				}
			}
			if i >= len(series) {
				// Past the series: a repeating dose (influenza) counts when far enough from
				// the last; any other is not needed.
				switch last := series[len(series)-1]; {
				case last.repeat == nil || !hasPrev:
					ev.Reason = ReasonNotNeeded
				case last.maxAge != nil && g.on.After(last.maxAge.after(birth)):
					ev.Reason = ReasonTooLate
				case g.on.Before(last.repeatMin.after(prev).AddDate(0, 0, -grace)):
					ev.Reason = ReasonTooClose
				case liveTooSoon[g.id]:
					ev.Reason = ReasonLiveInterval
				default:
					counted++
					ev.Valid, ev.DoseNumber = true, counted
					prev = g.on
				}
				f.Evaluations = append(f.Evaluations, ev)
				continue
			}
			r := series[i]
			switch {
			case g.lowWeight:
				ev.Reason = ReasonLowWeight
				lowWeight = true
			case r.maxAge != nil && r.onMax == "end" && g.on.After(r.maxAge.after(birth)):
				ev.Reason = ReasonTooLate
			case g.on.Before(r.minAge.after(birth).AddDate(0, 0, -grace)):
				ev.Reason = ReasonTooEarly
			case c.tooYoung(g.vaccine, birth, g.on, grace):
				ev.Reason = ReasonProductAge
			case !r.counts(g.vaccine, birth, g.on):
				ev.Reason = ReasonWrongVaccine
			case hasPrev && g.on.Before(interval(r, counted == 0).after(prev).AddDate(0, 0, -grace)):
				ev.Reason = ReasonTooClose
			case liveTooSoon[g.id]:
				ev.Reason = ReasonLiveInterval
			default:
				counted++
				ev.Valid, ev.DoseNumber = true, counted
				prev, hasPrev = g.on, true
				countedWith = append(countedWith, g.vaccine)
				i++
			}
			f.Evaluations = append(f.Evaluations, ev)
		}

		rec := Recommendation{Antigen: a, Schedule: p.schedule, Vaccines: slices.Clone(c.products[p.schedule][a])}
		skipPast(today)
		dropUnneeded()
		rec.Doses = len(series) - skipped
		for _, r := range series[i:] {
			if !needed(r) {
				rec.Doses--
			}
		}
		if last := series[len(series)-1]; i >= len(series) && last.repeat != nil && hasPrev {
			// The series done, the dose comes round again: due a repeat after the last.
			rec.DoseNumber, rec.Source = counted+1, last.source
			earliest, due := last.repeatMin.after(prev), last.repeat.after(prev)
			back := deferredTo(excl, a, prev)
			earliest, due = later(earliest, back), later(due, back)
			overdue := due.AddDate(0, 0, overdueDays)
			rec.EarliestOn, rec.DueOn, rec.OverdueOn = day(earliest), day(due), day(overdue)
			latest := latestOf(last.maxAge)
			if last.maxAge != nil {
				rec.LatestOn = day(latest)
			}
			agedOut := today.After(latest) || earliest.After(latest)
			rec.Status = status(excl, a, today, due, overdue, back, agedOut)
			if agedOut {
				rec.EarliestOn, rec.DueOn, rec.OverdueOn = "", "", ""
			}
			f.Recommendations = append(f.Recommendations, rec)
			continue
		}
		if i >= len(series) {
			rec.Status, rec.DoseNumber, rec.Source = StatusComplete, counted, series[len(series)-1].source
			if counted == 0 {
				// Every dose was dropped past its maximum age: nothing more is given.
				rec.Status, rec.Source = StatusAgedOut, series[0].source
			}
			f.Recommendations = append(f.Recommendations, rec)
			continue
		}
		r := series[i]
		rec.DoseNumber, rec.Source = counted+1, r.source
		earliest := r.minAge.after(birth)
		if lowWeight && counted == 0 {
			earliest = later(earliest, lowWeightRestart.after(birth))
		}
		if hasPrev {
			earliest = later(earliest, interval(r, counted == 0).after(prev))
		}
		back := deferredTo(excl, a, prev) // prev is zero before the first valid dose
		// A deferral never pushes a dose past the last day it may be given: it is due from the
		// earlier of the two (rotavirus dose 1 deferred past its age limit stays givable).
		if r.maxAge != nil && back.After(latestOf(r.maxAge)) {
			back = latestOf(r.maxAge)
		}
		earliest = later(earliest, back)
		due := later(r.dueAge.after(birth), earliest)
		if dueAfterInterval && hasPrev {
			due = earliest
		}
		overdue := due.AddDate(0, 0, overdueDays)
		if od, ok := catchOverdue[r.dose]; ok && hasPrev && od.after(prev).After(due) {
			overdue = od.after(prev)
		}
		if r.overdueAge != nil && !(dueAfterInterval && hasPrev) {
			if o := r.overdueAge.after(birth); o.After(due) {
				overdue = o
			}
		}
		rec.EarliestOn, rec.DueOn, rec.OverdueOn = day(earliest), day(due), day(overdue)
		// The products for this dose: those that count for its row and that the child is of an
		// age for on the due day (or today, when later).
		on := later(due, today)
		all := rec.Vaccines
		// The products this dose's row names first (the schedule's own for this dose), then
		// the rest that give the antigen.
		forDose := slices.Clone(r.vaccines)
		for _, v := range all {
			if !slices.Contains(forDose, v) {
				forDose = append(forDose, v)
			}
		}
		rec.Vaccines = slices.DeleteFunc(forDose, func(v string) bool {
			return !r.counts(v, birth, on) || !c.fits(v, birth, on, 0)
		})
		// Products that carry another antigen the child must not or will not have give way
		// to those that do not (DT for DTaP), where the catalogue has one; where it has none
		// (rubella alone when measles is contraindicated) the list stays, and the check at
		// giving stops the dose for the contraindication.
		if without := slices.DeleteFunc(slices.Clone(rec.Vaccines), func(v string) bool {
			return c.carriesExcluded(v, a, excl, today, "contraindicated")
		}); len(without) > 0 {
			rec.Vaccines = without
		}
		// A refused antigen's products are named after the others, not removed: the family
		// may take the programme's own combination after all (a hepatitis B refusal does not
		// take Viet Nam's DPT-VGB-Hib off the DTP doses).
		slices.SortStableFunc(rec.Vaccines, func(x, y string) int {
			rx, ry := c.carriesExcluded(x, a, excl, today, "refused"), c.carriesExcluded(y, a, excl, today, "refused")
			switch {
			case rx == ry:
				return 0
			case rx:
				return 1
			}
			return -1
		})
		latest := latestOf(r.maxAge)
		if r.maxAge != nil {
			rec.LatestOn = day(latest)
		}
		agedOut := today.After(latest) || earliest.After(latest)
		rec.Status = status(excl, a, today, due, overdue, back, agedOut)
		if agedOut {
			rec.EarliestOn, rec.DueOn, rec.OverdueOn = "", "", ""
			rec.Vaccines = all // nothing is due: the products that give the antigen
		}
		f.Recommendations = append(f.Recommendations, rec)
	}

	// Doses of antigens no chosen schedule has (a private vaccine): each counts, in order.
	for _, a := range unplanned {
		n := 0
		for _, g := range byAntigen[a] {
			if !c.fits(g.vaccine, birth, g.on, 0) {
				f.Evaluations = append(f.Evaluations, Evaluation{DoseID: g.id, On: day(g.on), Antigen: a, Reason: ReasonProductAge})
				continue
			}
			if liveTooSoon[g.id] {
				f.Evaluations = append(f.Evaluations, Evaluation{DoseID: g.id, On: day(g.on), Antigen: a, Reason: ReasonLiveInterval})
				continue
			}
			n++
			f.Evaluations = append(f.Evaluations, Evaluation{DoseID: g.id, On: day(g.on), Antigen: a, DoseNumber: n, Valid: true})
		}
	}

	slices.SortStableFunc(f.Evaluations, func(x, y Evaluation) int {
		return cmp.Or(cmp.Compare(x.On, y.On), cmp.Compare(x.DoseID, y.DoseID), cmp.Compare(x.Antigen, y.Antigen))
	})
	for i := range f.Recommendations {
		f.Recommendations[i].OutsideProgramme = c.OutsideProgramme(schedules, f.Recommendations[i].Schedule)
	}
	slices.SortStableFunc(f.Recommendations, func(x, y Recommendation) int {
		// Dated ones first by due day, then the rest (complete, aged out); then by antigen.
		if (x.DueOn == "") != (y.DueOn == "") {
			if x.DueOn == "" {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(x.DueOn, y.DueOn), cmp.Compare(x.Antigen, y.Antigen))
	})
	return f
}

// deferredTo is the latest day to come back of the deferrals of antigen recorded on or after
// since (the last valid dose: a deferral of an earlier dose is spent), zero when none: the
// next dose is given from it (QĐ 1575/QĐ-BYT: "tạm hoãn tiêm chủng").
func deferredTo(excl []Exclusion, antigen string, since time.Time) time.Time {
	var back time.Time
	for _, e := range excl {
		if e.Antigen != antigen || e.Kind != KindDeferred {
			continue
		}
		from, ok := parseDay(e.From)
		until, ok2 := parseDay(e.Until)
		if ok && ok2 && !from.Before(since) {
			back = later(back, until)
		}
	}
	return back
}

// status is a recommendation's status on day today (back: the day a deferral said to come
// back, zero when none).
func status(excl []Exclusion, antigen string, today, due, overdue, back time.Time, agedOut bool) string {
	switch {
	case excluded(excl, antigen, "contraindicated", today):
		return StatusContraindicated
	case excluded(excl, antigen, "refused", today):
		return StatusRefused
	case agedOut:
		return StatusAgedOut
	case today.Before(back) && !due.After(back):
		// Deferred: the day to come back is still to come and the dose was due by it (one due
		// months later is upcoming, whatever was deferred today).
		return StatusDeferred
	case today.Before(due):
		// Not yet due, though it may be given from earliest (a catch-up's due day is its
		// earliest): a child is not on the due list months before the schedule's age.
		return StatusUpcoming
	case today.Before(overdue):
		return StatusDue
	}
	return StatusOverdue
}

// productsFor lists the products that give antigen: those the schedule's rows name first (in
// the order named), then the rest of the catalogue's.
func (c *Catalogue) productsFor(antigen string, rows []doseRow) []string {
	out := []string{}
	for _, r := range rows {
		for _, v := range r.vaccines {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	for _, v := range c.VaccinesFor(antigen) {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// carriesExcluded says whether product v gives, besides antigen a, an antigen excluded by kind
// (contraindicated, refused) on day t: with pertussis contraindicated, the diphtheria and tetanus doses are
// offered as DT (or Td from 7 years), not as DTaP or a combination that carries pertussis
// (ACIP General Best Practice Guidelines, Contraindications and Precautions: "DT should be
// used when pertussis vaccine is contraindicated"; WHO pertussis position paper 2015; the
// АКДС instruction: АДС-анатоксин when АКДС is contraindicated).
func (c *Catalogue) carriesExcluded(v, a string, excl []Exclusion, t time.Time, kind string) bool {
	vi, ok := c.vaccineBy[v]
	if !ok {
		return false
	}
	return slices.ContainsFunc(c.vaccines[vi].Antigens, func(o string) bool { return o != a && excluded(excl, o, kind, t) })
}

// onRecord is a dose on the record as the forecast reads it for one antigen.
type onRecord struct {
	id        int64
	on        time.Time
	vaccine   string
	lowWeight bool
}

// withoutApplies says whether a catch-up row's shorter series without an antigen is this
// child's: the antigen is contraindicated (today or when a dose was given) and fewer doses than the first one the row
// leaves out were given before the contraindication began (a child who had all three АКДС
// doses before it keeps the full series: АДС-анатоксин instruction).
func withoutApplies(cr catchupRow, rows []doseRow, gs []onRecord, excl []Exclusion, today time.Time) bool {
	// Contraindicated today, or on the day of a dose given (a temporary contraindication that
	// has ended: the doses given under it are judged by the series in force then).
	if !excluded(excl, cr.without, "contraindicated", today) && !slices.ContainsFunc(gs, func(g onRecord) bool {
		return excluded(excl, cr.without, "contraindicated", g.on)
	}) {
		return false
	}
	began := today
	for _, e := range excl {
		if from, ok := parseDay(e.From); ok && e.Antigen == cr.without && e.Kind == "contraindicated" && from.Before(began) {
			began = from
		}
	}
	before := 0
	for _, g := range gs {
		if g.on.Before(began) {
			before++
		}
	}
	n := cr.leftOut(rows)
	return n > 0 && before < n
}

// excluded says whether a refusal or contraindication of kind holds for antigen on day t.
func excluded(excl []Exclusion, antigen, kind string, t time.Time) bool {
	for _, e := range excl {
		if e.Antigen != antigen || e.Kind != kind {
			continue
		}
		if from, ok := parseDay(e.From); ok && t.Before(from) {
			continue
		}
		if until, ok := parseDay(e.Until); ok && t.After(until) {
			continue
		}
		return true
	}
	return false
}

func normSex(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "f", "female", "woman", "girl":
		return "female"
	case "m", "male", "man", "boy":
		return "male"
	}
	return ""
}

// Evaluate judges a dose about to be given (or recorded) against the record: its evaluation
// for each antigen of its product, as the forecast would read it once saved — too_early,
// too_close, too_late or not_needed when it would not count. The candidate's ID is ignored.
func (c *Catalogue) Evaluate(schedules []string, child Child, doses []Dose, candidate Dose) []Evaluation {
	const id = math.MaxInt64 // after any dose of the same day on the record
	all := make([]Dose, 0, len(doses)+1)
	for _, d := range doses {
		if d.ID != id {
			all = append(all, d)
		}
	}
	candidate.ID = id
	all = append(all, candidate)
	out := []Evaluation{}
	for _, e := range c.Forecast(schedules, child, all, nil, candidate.On).Evaluations {
		if e.DoseID == id {
			e.DoseID = 0
			out = append(out, e)
		}
	}
	return out
}
