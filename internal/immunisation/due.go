package immunisation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"emr/internal/database"
	"emr/internal/patient"
)

// The due table (immunisation_due) holds each child's next dose per antigen — the forecast's
// first open recommendation — so that the clinic's list of 20,000 children is an index range,
// not 20,000 forecasts. It is rebuilt for a child whenever the child's record changes (the
// record store calls RefreshDue), the patient is registered, their birth date changes or they
// are archived or restored (the patient store's ChildChanged hook), and for every child when the clinic's schedules
// change (RequestRefreshAll in the settings' save, then RefreshAll). The forecast stays the
// truth: the table is what it said on the last change.

// DueSettings is what of the clinic's immunisation settings the due list and its reminders read.
type DueSettings struct {
	Schedules []string `json:"schedules"`
	Reminders struct {
		On         bool     `json:"on"`
		DaysBefore int      `json:"days_before"`
		Channels   []string `json:"channels"`
	} `json:"reminders"`
}

// ReadDueSettings reads the clinic's schedules and reminder settings, through the clinic's
// immunisation settings (settings.go).
var ReadDueSettings = func(ctx context.Context, q database.Querier) (DueSettings, error) {
	set, err := ReadSettings(ctx, q)
	if err != nil {
		return DueSettings{}, err
	}
	var s DueSettings
	s.Schedules = set.Schedules
	s.Reminders.On, s.Reminders.DaysBefore, s.Reminders.Channels = set.Reminders.On, set.Reminders.DaysBefore, set.Reminders.Channels
	return s.withDefaults(), nil
}

func (s DueSettings) withDefaults() DueSettings {
	if len(s.Schedules) == 0 {
		s.Schedules = slices.Clone(DefaultSettings().Schedules)
	}
	if s.Reminders.DaysBefore < 0 { // 0: on the due day itself, as the settings allow
		s.Reminders.DaysBefore = 7
	}
	if s.Reminders.Channels == nil {
		s.Reminders.Channels = []string{"sms", "email"}
	}
	return s
}

// open says whether a recommendation is a dose still to give (not complete, aged out,
// refused or contraindicated): a deferred one is, from its day to come back.
func open(r Recommendation) bool {
	return r.Status == StatusUpcoming || r.Status == StatusDue || r.Status == StatusOverdue || r.Status == StatusDeferred
}

// forecastOf is the forecast of a child's record as of asOf under the clinic's schedules:
// its completed doses (given here or elsewhere) and exclusions (refusals, contraindications).
// The child is read through the patient store (found false: no such patient).
func forecastOf(ctx context.Context, q database.Querier, patientID int64, schedules []string, asOf string) (Forecast, patient.Brief, bool, error) {
	found, err := patient.Briefs(ctx, q, []int64{patientID})
	if err != nil {
		return Forecast{}, patient.Brief{}, false, err
	}
	p, ok := found[patientID]
	if !ok {
		return Forecast{}, p, false, nil
	}
	child := Child{BirthDate: p.BirthDate, Sex: p.Sex}
	doses, excl, err := recordOf(ctx, q, patientID)
	if err != nil {
		return Forecast{}, p, false, err
	}
	return Default().Forecast(schedules, child, doses, excl, asOf), p, true, nil
}

// recordOf reads what the forecast counts of a patient's record (forecastInput: the completed
// doses, refusals and contraindications, and the antigens an anaphylaxis after a dose rules
// out), oldest first.
func recordOf(ctx context.Context, q database.Querier, patientID int64) ([]Dose, []Exclusion, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, kind, vaccine, antigen, occurred_on, until_on, screening FROM immunisations
		WHERE patient_id = $1 AND status = 'completed' ORDER BY occurred_on, id`, patientID)
	if err != nil {
		return nil, nil, fmt.Errorf("read the immunisation record: %w", err)
	}
	defer rows.Close()
	var records []entry
	for rows.Next() {
		var r entry
		var screening string
		if err := rows.Scan(&r.ID, &r.Kind, &r.Vaccine, &r.Antigen, &r.On, &r.UntilOn, &screening); err != nil {
			return nil, nil, err
		}
		r.LowWeight = lowWeightIn(screening)
		records = append(records, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	harms, err := harmsOfPatient(ctx, q, patientID)
	if err != nil {
		return nil, nil, err
	}
	doses, excl := forecastInput(Default(), records, harms)
	return doses, excl, nil
}

// harmsOfPatient are the reactions recorded after a patient's doses, as the forecast reads them.
func harmsOfPatient(ctx context.Context, q database.Querier, patientID int64) ([]harm, error) {
	rows, err := q.QueryContext(ctx, `SELECT immunisation_id, reaction, onset_on FROM immunisation_reactions
		WHERE patient_id = $1 AND status = 'completed' ORDER BY onset_on, id`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read the reactions: %w", err)
	}
	defer rows.Close()
	var out []harm
	for rows.Next() {
		var h harm
		if err := rows.Scan(&h.DoseID, &h.Reaction, &h.OnsetOn); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// DueLoc is the clinic's time zone, whose day "today" is when a child's due rows are rebuilt
// (set once at start by the server; UTC until then).
var DueLoc = time.UTC

func today(loc *time.Location, now time.Time) string {
	if loc == nil {
		loc = time.UTC
	}
	return now.In(loc).Format(time.DateOnly)
}

// RefreshDue rebuilds, inside tx, patient patientID's rows of the due table from the forecast
// of the record as it is in tx. The record store calls it after every write of a child's
// record; the patient store's ChildChanged hook after a registration, a new birth date, an
// archiving or a restoring. The rows carry the child's birth date and whether archived: what
// the list filters on.
func RefreshDue(ctx context.Context, tx *sql.Tx, patientID int64) error {
	set, err := ReadDueSettings(ctx, tx)
	if err != nil {
		return err
	}
	return refreshDue(ctx, tx, patientID, set.Schedules, today(DueLoc, time.Now()))
}

func refreshDue(ctx context.Context, tx *sql.Tx, patientID int64, schedules []string, asOf string) error {
	f, child, found, err := forecastOf(ctx, tx, patientID, schedules, asOf)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM immunisation_due WHERE patient_id = $1`, patientID); err != nil {
		return fmt.Errorf("clear the child's due rows: %w", err)
	}
	if !found {
		return nil
	}
	seen := map[string]bool{}
	for _, r := range f.Recommendations {
		if seen[r.Antigen] || !open(r) || r.DueOn == "" {
			continue
		}
		seen[r.Antigen] = true
		earliest, overdue := r.EarliestOn, r.OverdueOn
		if earliest == "" {
			earliest = r.DueOn
		}
		if overdue == "" {
			overdue = r.DueOn
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on, latest_on,
			birth_date, archived) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			patientID, r.Antigen, r.DoseNumber, r.Schedule, earliest, r.DueOn, overdue, r.LatestOn, child.BirthDate, child.Archived); err != nil {
			return fmt.Errorf("write a due row: %w", err)
		}
	}
	return nil
}

// RefreshBatch is how many children one transaction of RefreshAll rebuilds.
const RefreshBatch = 200

// RequestRefreshAll marks, inside tx (the settings' save), that every child's due rows are to
// be rebuilt: RefreshAll does it, and a server stopped half-way goes on where it stopped.
// The settings' save calls it when the clinic's schedules change.
func RequestRefreshAll(ctx context.Context, tx *sql.Tx, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM immunisation_due_rebuild WHERE id = 1`); err != nil {
		return fmt.Errorf("restart the due rebuild: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO immunisation_due_rebuild (id, after_patient, requested_at) VALUES (1, 0, $1)`, now.UTC()); err != nil {
		return fmt.Errorf("request the due rebuild: %w", err)
	}
	return nil
}

// RefreshAll rebuilds the due rows of every patient, RefreshBatch at a time (one transaction
// each, each writing how far it got), when a rebuild was requested (RequestRefreshAll); it
// returns how many patients it rebuilt. Resumable: it starts after the last patient a
// finished batch recorded, and a request made meanwhile starts it again from the first.
func RefreshAll(ctx context.Context, db *database.DB) (int, error) {
	done := 0
	for {
		n, more, err := refreshNext(ctx, db)
		done += n
		if err != nil || !more {
			return done, err
		}
		if err := ctx.Err(); err != nil {
			return done, err
		}
	}
}

// refreshNext rebuilds the next batch of a requested rebuild; more says there may be another.
func refreshNext(ctx context.Context, db *database.DB) (int, bool, error) {
	n, more := 0, false
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		n, more = 0, false
		var after int64
		err := tx.QueryRowContext(ctx, `SELECT after_patient FROM immunisation_due_rebuild WHERE id = 1`).Scan(&after)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // none requested
		}
		if err != nil {
			return fmt.Errorf("read the due rebuild: %w", err)
		}
		ids, err := patient.IDsAfter(ctx, tx, after, RefreshBatch)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM immunisation_due_rebuild WHERE id = 1`)
			return err
		}
		set, err := ReadDueSettings(ctx, tx)
		if err != nil {
			return err
		}
		asOf := today(DueLoc, time.Now())
		for _, id := range ids {
			if err := refreshDue(ctx, tx, id, set.Schedules, asOf); err != nil {
				return err
			}
		}
		n, more = len(ids), true
		_, err = tx.ExecContext(ctx, `UPDATE immunisation_due_rebuild SET after_patient = $1 WHERE id = 1`, ids[len(ids)-1])
		return err
	})
	return n, more, err
}
