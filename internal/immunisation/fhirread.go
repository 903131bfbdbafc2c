package immunisation

// The reads the FHIR API's Immunization and ImmunizationRecommendation are made from (issue
// 59): a page of records in id order (of one patient, among ids, changed since a time), each
// with its reactions and the names of the accounts it names; and a patient's forecast as the
// chart shows it. They read the tables with placeholders only and change nothing.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// Recorded is one record of the immunisation record as the FHIR API reads it: a dose given
// here or elsewhere, a refusal or a contraindication, with its reactions.
type Recorded struct {
	ID            int64
	PatientID     int64
	Kind          string // given, elsewhere, refused, contraindicated
	Status        string // completed, entered_in_error
	Vaccine       string
	Antigen       string
	OccurredOn    string
	DoseNumber    int // 0: not said
	Lot           string
	Expiry        string
	Site          string
	Route         string
	GivenBy       int64 // 0: none (elsewhere, or not said)
	GivenByName   string
	Performer     string
	Source        string // "", card, registry, parent
	Place         string
	Reason        string
	UntilOn       string
	AppointmentID int64 // 0: none
	Note          string
	ErrorReason   string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	Version       int
	Reactions     []RecordedReaction
	// LowWeight: the dose's screening said the baby weighed under 2,000 g (the forecast's
	// Dose.LowWeight).
	LowWeight bool
}

// InError reports whether the record was marked entered in error.
func (r Recorded) InError() bool { return r.Status == "entered_in_error" }

// RecordedReaction is an adverse event following a dose, as the FHIR API reads it.
type RecordedReaction struct {
	ID          int64
	OnsetOn     string
	Reaction    string
	Severity    string
	Serious     bool
	Description string
	ReportedTo  string
	Status      string
}

// PageFilter selects the records a page reads: of one patient (0: every patient's), among
// IDs (none: any), changed at or after Since (nil: any), after the id After (below it when
// Descending; 0: from the first, or the last), Limit of them.
type PageFilter struct {
	PatientID int64
	// PatientIDs, when there are any, are the patients whose records are read (ascending
	// only; PatientID and IDs are then not read).
	PatientIDs []int64
	IDs        []int64
	Since      *time.Time
	After      int64
	Descending bool
	Limit      int
}

const recordedColumns = `id, patient_id, kind, status, vaccine, antigen, occurred_on, COALESCE(dose_number, 0), lot, expiry, site, route,
	COALESCE(given_by, 0), performer, source, place, reason, until_on, COALESCE(appointment_id, 0), note, error_reason, created_at, updated_at, version, screening
	FROM immunisations`

// RecordsPage reads one page of records in id order, each with its reactions (entered in
// error ones left out) and the name of who gave it.
func RecordsPage(ctx context.Context, q database.Querier, f PageFilter) ([]Recorded, error) {
	where, tail, args := database.KeysetPage(q, "id", f.IDs, "patient_id", f.PatientID, f.After, f.Descending, max(f.Limit, 1))
	if len(f.PatientIDs) > 0 {
		where, tail, args = database.KeysetAmong(q, "id", "patient_id", f.PatientIDs, f.After, max(f.Limit, 1))
	}
	if f.Since != nil {
		// The keyset's limit is its last argument: the condition goes before it.
		limit := args[len(args)-1]
		args = append(args[:len(args)-1], f.Since.UTC(), limit)
		where += " AND updated_at >= $" + strconv.Itoa(len(args)-1)
		order := " ASC"
		if f.Descending {
			order = " DESC"
		}
		tail = " ORDER BY id" + order + " LIMIT $" + strconv.Itoa(len(args))
	}
	rows, err := q.QueryContext(ctx, `SELECT `+recordedColumns+` WHERE `+where+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("read immunisations: %w", err)
	}
	var out []Recorded
	for rows.Next() {
		var r Recorded
		var screening string
		if err := rows.Scan(&r.ID, &r.PatientID, &r.Kind, &r.Status, &r.Vaccine, &r.Antigen, &r.OccurredOn, &r.DoseNumber, &r.Lot, &r.Expiry,
			&r.Site, &r.Route, &r.GivenBy, &r.Performer, &r.Source, &r.Place, &r.Reason, &r.UntilOn, &r.AppointmentID, &r.Note,
			&r.ErrorReason, &r.CreatedAt, &r.UpdatedAt, &r.Version, &screening); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read an immunisation: %w", err)
		}
		r.LowWeight = lowWeightIn(screening)
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	return out, withReactionsAndNames(ctx, q, out)
}

// RecordByID reads one record, false when there is none.
func RecordByID(ctx context.Context, q database.Querier, id int64) (Recorded, bool, error) {
	list, err := RecordsPage(ctx, q, PageFilter{IDs: []int64{id}, Limit: 1})
	if err != nil || len(list) == 0 {
		return Recorded{}, false, err
	}
	return list[0], true, nil
}

// withReactionsAndNames fills in the records' reactions and the names of who gave them.
func withReactionsAndNames(ctx context.Context, q database.Querier, list []Recorded) error {
	ids := make([]int64, len(list))
	var staff []int64
	at := make(map[int64]int, len(list))
	for i, r := range list {
		ids[i], at[r.ID] = r.ID, i
		if r.GivenBy != 0 {
			staff = append(staff, r.GivenBy)
		}
	}
	in, args := database.InIDs(q, "immunisation_id", ids, 1)
	rows, err := q.QueryContext(ctx, `SELECT id, immunisation_id, onset_on, reaction, severity, serious, description, reported_to, status
		FROM immunisation_reactions WHERE `+in+` AND status = 'completed' ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("read immunisation reactions: %w", err)
	}
	for rows.Next() {
		var x RecordedReaction
		var dose int64
		if err := rows.Scan(&x.ID, &dose, &x.OnsetOn, &x.Reaction, &x.Severity, &x.Serious, &x.Description, &x.ReportedTo, &x.Status); err != nil {
			rows.Close()
			return fmt.Errorf("read an immunisation reaction: %w", err)
		}
		if i, ok := at[dose]; ok {
			list[i].Reactions = append(list[i].Reactions, x)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(staff) == 0 {
		return nil
	}
	names, err := user.Names(ctx, q, staff)
	if err != nil {
		return err
	}
	for i := range list {
		list[i].GivenByName = names[list[i].GivenBy]
	}
	return nil
}

// PatientForecast is a patient's forecast as of a day (YYYY-MM-DD), read against the clinic's
// schedules: the doses given here and elsewhere, the refusals and contraindications (none
// entered in error), and the child's birth date and sex. It also answers when the patient's
// record last changed (the patient or any of their immunisation records). found is false
// when there is no such patient.
func PatientForecast(ctx context.Context, q database.Querier, c *Catalogue, patientID int64, asOf string) (f Forecast, changed time.Time, found bool, err error) {
	s, err := ReadSettings(ctx, q)
	if err != nil {
		return f, changed, false, err
	}
	all, err := PatientForecasts(ctx, q, c, s.Schedules, []int64{patientID}, asOf)
	if err != nil {
		return f, changed, false, err
	}
	pf, ok := all[patientID]
	return pf.Forecast, pf.Changed, ok, nil
}

// PatientsForecast is one patient's forecast as PatientForecasts reads it.
type PatientsForecast struct {
	Forecast Forecast
	// Changed is when the patient's record last changed (the patient or any of their
	// immunisation records).
	Changed time.Time
	// Over: the patient is past the end of every schedule (programmes.tsv, forecast_until):
	// nothing is forecast for them any more, whatever the forecast lists as aged out.
	Over bool
}

// forecastBatch is how many records PatientForecasts reads a query.
const forecastBatch = 500

// PatientForecasts is the forecast of each of patients (those that exist) as of a day, read
// against schedules (the clinic's, read once by the caller): the patients in one query, their
// records with their reactions a page of forecastBatch at a time, whatever their number.
func PatientForecasts(ctx context.Context, q database.Querier, c *Catalogue, schedules []string, patients []int64, asOf string) (map[int64]PatientsForecast, error) {
	out := make(map[int64]PatientsForecast, len(patients))
	if len(patients) == 0 {
		return out, nil
	}
	byID, err := patient.Briefs(ctx, q, patients)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, id := range patients {
		if _, ok := byID[id]; ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	records := map[int64][]entry{}
	harms := map[int64][]harm{}
	changed := map[int64]time.Time{}
	for _, id := range ids {
		changed[id] = byID[id].UpdatedAt
	}
	var after int64
	for {
		list, err := RecordsPage(ctx, q, PageFilter{PatientIDs: ids, After: after, Limit: forecastBatch})
		if err != nil {
			return nil, err
		}
		for _, r := range list {
			if r.UpdatedAt.After(changed[r.PatientID]) {
				changed[r.PatientID] = r.UpdatedAt
			}
			if r.InError() {
				continue
			}
			records[r.PatientID] = append(records[r.PatientID], entry{ID: r.ID, Kind: r.Kind, Vaccine: r.Vaccine, Antigen: r.Antigen, On: r.OccurredOn, UntilOn: r.UntilOn, LowWeight: r.LowWeight})
			for _, x := range r.Reactions { // completed ones only (RecordsPage)
				harms[r.PatientID] = append(harms[r.PatientID], harm{DoseID: r.ID, Reaction: x.Reaction, OnsetOn: x.OnsetOn})
			}
		}
		if len(list) < forecastBatch {
			break
		}
		after = list[len(list)-1].ID
	}
	for _, id := range ids {
		p := byID[id]
		doses, excl := forecastInput(c, records[id], harms[id])
		child := Child{BirthDate: p.BirthDate, Sex: p.Sex}
		out[id] = PatientsForecast{Forecast: c.Forecast(schedules, child, doses, excl, asOf), Changed: changed[id],
			Over: c.ForecastOver(schedules, p.BirthDate, asOf)}
	}
	return out, nil
}

// Ended is a patient whose forecast ended: the instant they were past the end of every schedule.
type Ended struct {
	PatientID int64
	On        time.Time
}

// ForecastsEnded are the active patients whose forecast under schedules ended after from and
// by the day to (YYYY-MM-DD), days in the clinic's zone loc, by id, each with the instant it
// ended: the children an export since from no longer has a recommendation for. A forecast ends
// when a birthday takes the child past the last schedule's age (at the clinic's midnight; for
// one registered before it), or when a corrected birth date puts them past it (at the
// correction).
func ForecastsEnded(ctx context.Context, q database.Querier, c *Catalogue, schedules []string, from time.Time, to string, loc *time.Location) ([]Ended, error) {
	last, ok := parseDay(to)
	lo, hi, known := c.BornForEnds(schedules, from.In(loc), last)
	if !ok || !known {
		return nil, nil
	}
	born, err := patient.BornBetween(ctx, q, lo, hi)
	if err != nil {
		return nil, err
	}
	var out []Ended
	listed := map[int64]bool{}
	for _, b := range born {
		if at, ok := c.endAt(schedules, b.BirthDate, loc); ok && at.After(from) && !at.After(endOfDay(last, loc)) && b.CreatedAt.Before(at) {
			out = append(out, Ended{PatientID: b.ID, On: at})
			listed[b.ID] = true
		}
	}
	// Births corrected since from: a child then, past every schedule now.
	kept, err := patient.BirthsKept(ctx, q, from, nil)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for id := range kept {
		if !listed[id] {
			ids = append(ids, id)
		}
	}
	briefs, err := patient.Briefs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		b, ok := briefs[id]
		versions := kept[id]
		if !ok || b.Archived || len(versions) == 0 || !c.overAt(schedules, b.BirthDate, endOfDay(last, loc), loc) {
			continue
		}
		// Had one: the record as it was at from (its last version before), or a version since,
		// inside a schedule at its time. It ended at the first version since from past every
		// schedule after the last one inside one (a later edit of the phone does not move it).
		since := slices.IndexFunc(versions, func(v patient.Birth) bool { return !v.At.Before(from) })
		if since < 0 {
			since = len(versions)
		}
		had := since > 0 && !c.overAt(schedules, versions[since-1].BirthDate, from, loc)
		var at time.Time
		for _, v := range versions[since:] {
			if !c.overAt(schedules, v.BirthDate, v.At, loc) {
				had, at = true, time.Time{}
			} else if at.IsZero() {
				at = v.At
			}
		}
		if had {
			if at.IsZero() {
				at = versions[len(versions)-1].At
			}
			if end, ok := c.endAt(schedules, b.BirthDate, loc); ok && end.After(at) {
				at = end
			}
			out = append(out, Ended{PatientID: id, On: at})
		}
	}
	slices.SortFunc(out, func(a, b Ended) int { return cmp.Compare(a.PatientID, b.PatientID) })
	return out, nil
}

// ForecastGone reports whether patient id, active, is past every schedule of schedules today
// (YYYY-MM-DD, in the clinic's zone loc) and once was not: registered before the birthday that
// ended the forecast, or a kept version of the record (a birth date since corrected) a child
// inside a schedule at its time. A recommendation of theirs was there and is no more.
func ForecastGone(ctx context.Context, q database.Querier, c *Catalogue, schedules []string, id int64, today string, loc *time.Location) (bool, error) {
	briefs, err := patient.Briefs(ctx, q, []int64{id})
	b, ok := briefs[id]
	day, ok2 := parseDay(today)
	if err != nil || !ok || !ok2 || b.Archived || !c.overAt(schedules, b.BirthDate, endOfDay(day, loc), loc) {
		return false, err
	}
	if end, ok := c.endAt(schedules, b.BirthDate, loc); ok && b.CreatedAt.Before(end) {
		return true, nil
	}
	kept, err := patient.BirthsKept(ctx, q, time.Time{}, []int64{id})
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(kept[id], func(v patient.Birth) bool { return !c.overAt(schedules, v.BirthDate, v.At, loc) }), nil
}

// endAt is the instant the forecast of a child born on birth ends: the clinic's midnight of
// ForecastEnd's day.
func (c *Catalogue) endAt(schedules []string, birth string, loc *time.Location) (time.Time, bool) {
	end, ok := c.ForecastEnd(schedules, birth)
	return time.Date(end.Year(), end.Month(), end.Day(), 0, 0, 0, 0, loc), ok
}

// overAt reports whether one born on birth is past every schedule at the instant at.
func (c *Catalogue) overAt(schedules []string, birth string, at time.Time, loc *time.Location) bool {
	end, ok := c.endAt(schedules, birth, loc)
	return ok && !at.Before(end)
}

// endOfDay is the last instant of day (a date) in loc.
func endOfDay(day time.Time, loc *time.Location) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, 1).Add(-time.Nanosecond)
}
