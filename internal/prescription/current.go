package prescription

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/user"
)

// Current is a medicine a patient is taking, as a print lists it: "Medicine, dose,
// frequency", prescribed here (last issued Since, supplied until SupplyUntil when it can be
// told), or (Source elsewhere or otc) taken since Started (a date, a month, a year, or empty
// when not known), prescribed by Prescriber, last confirmed at a visit on Confirmed.
type Current struct {
	Text        string
	Since       time.Time
	Source      string
	Started     string
	Prescriber  string
	SupplyUntil string
	Confirmed   *time.Time
	// What a reconciliation recorded of it (recorded medicines only), each printed when set.
	Reconciliation
}

// CurrentMedicines are the medicines patientID is taking as of now, as a referral or a
// visit summary lists them: the lines of prescriptions issued here whose supply lasts (see
// prescribedHere) and the patient still takes, newest first, then those recorded as taken
// from elsewhere or over the counter and not stopped. Each medicine is listed once (m1): a
// product written again here within its supply, or recorded and also prescribed here, is
// the first of them.
func CurrentMedicines(ctx context.Context, q database.Querier, patientID int64, now time.Time) ([]Current, error) {
	here, err := prescribedHere(ctx, q, patientID, now, now.Location())
	if err != nil {
		return nil, err
	}
	taken, err := recorded(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	// the shipped knowledge tells one product from another well enough for a paper
	r := &reader{ctx: ctx, q: q, drugs: catalogue.KnownDrugs, cache: map[int64]catalogue.Medicine{}}
	var kept []lineDrugs
	out := []Current{}
	for _, t := range append(here, taken...) {
		if !t.Active() {
			continue
		}
		l, err := r.line(Item{MedicineID: t.MedicineID, Medicine: t.Medicine, Route: t.Route})
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(kept, func(k lineDrugs) bool { return sameProduct(k, l) || sameName(k, l) }) {
			continue
		}
		kept = append(kept, l)
		var parts []string
		for _, p := range []string{t.Medicine, t.Dose, t.Frequency} {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		out = append(out, Current{Text: strings.Join(parts, ", "), Since: t.RecordedAt, Source: t.Source, Started: t.StartedOn,
			Prescriber: t.Prescriber, SupplyUntil: t.SupplyUntil, Confirmed: t.Confirmed, Reconciliation: t.Reconciliation})
	}
	return out, nil
}

// prescribedHere are the lines of prescriptions issued here (neither a draft never handed to
// the patient nor cancelled) whose supply has not run out — its duration, or its quantity at
// its dose and frequency, when one can be told, else 30 days, as the safety check counts them
// (itemSupply; a year at most) — newest first; their days (issued, last day supplied) are
// loc's.
func prescribedHere(ctx context.Context, q database.Querier, patientID int64, now time.Time, loc *time.Location) ([]Taken, error) {
	return prescribedSince(ctx, q, patientID, now, now, loc)
}

// prescribedSince are the lines of prescriptions issued here whose supply lasted past from
// (from = now: those still supplied, prescribedHere), newest first; a line whose supply ended
// by now has SupplyUntil, its last day.
func prescribedSince(ctx context.Context, q database.Querier, patientID int64, now, from time.Time, loc *time.Location) ([]Taken, error) {
	// The stops first: a second query while the rows below hold their connection waits for
	// another, and requests doing so at once took every connection of the pool and waited forever.
	stops, err := lineStops(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT id, items, prescriber, issued_at, created_at FROM prescriptions
		WHERE patient_id = $1 AND status NOT IN ($2, $4) AND (created_at >= $3 OR issued_at >= $3) ORDER BY id DESC LIMIT 100`,
		patientID, Cancelled, from.AddDate(0, 0, -maxSupplyDays), Draft)
	if err != nil {
		return nil, fmt.Errorf("read current medicines: %w", err)
	}
	defer rows.Close()
	out := []Taken{}
	stoppedBy := map[int]int64{} // by the index in out
	for rows.Next() {
		var id int64
		var items, prescriber string
		var issued sql.NullTime
		var at time.Time
		if err := rows.Scan(&id, &items, &prescriber, &issued, &at); err != nil {
			return nil, fmt.Errorf("read current medicines: %w", err)
		}
		if issued.Valid {
			at = issued.Time
		}
		var lines []Item
		if err := json.Unmarshal([]byte(items), &lines); err != nil {
			return nil, fmt.Errorf("read a prescription's items: %w", err)
		}
		var by Prescriber
		if prescriber != "" {
			_ = json.Unmarshal([]byte(prescriber), &by) // a name missing is no reason to list nothing
		}
		for i, it := range lines {
			end, known := supplyEnd(at, itemSupply(it))
			if !from.Before(end) || strings.TrimSpace(it.Medicine) == "" {
				continue
			}
			if !now.Before(end) {
				known = true // ended: its last day is the one a check after stopping counts from
			}
			i := i
			t := Taken{PatientID: patientID, MedicineID: it.MedicineID, Medicine: it.Medicine, Dose: it.Dose, Frequency: it.Frequency,
				Source: SourceHere, Prescriber: by.Name, StartedOn: at.In(loc).Format(time.DateOnly), RecordedAt: at, PrescriptionID: &id, Line: &i,
				override: it.OverrideReason, overrides: it.Overrides}
			// a line's route counts in the list's review, as in the check (M6)
			t.Route = it.Route
			if stop, ok := stops[[2]int64{id, int64(i)}]; ok { // the patient no longer takes it (M3)
				t.StoppedOn, t.StopReason, t.StopCategory, stoppedBy[len(out)] = stop.on, stop.reason, stop.category, stop.by
			}
			if known {
				t.SupplyUntil = end.In(loc).AddDate(0, 0, -1).Format(time.DateOnly) // its last day
			}
			out = append(out, t)
		}
	}
	if err := rows.Err(); err != nil || len(stoppedBy) == 0 {
		return out, err
	}
	var ids []int64
	for _, by := range stoppedBy {
		ids = append(ids, by)
	}
	names, err := user.Names(ctx, q, ids)
	for i, by := range stoppedBy {
		out[i].StoppedBy = names[by]
	}
	return out, err
}

// supplyEnd is when a line prescribed at with a supply of days runs out: known when its
// duration could be told (days > 0), else recentDays later — one rule for the current
// medicines a paper lists and the duplicates the safety check finds (ADR 25).
func supplyEnd(at time.Time, days int) (end time.Time, known bool) {
	if days > 0 {
		return at.AddDate(0, 0, days), true
	}
	return at.AddDate(0, 0, recentDays), false
}

// Uses counts how often a prescriber wrote each catalogue medicine on prescriptions
// created from since on (the picker's "most used"); the newest 2000 prescriptions at most.
// One index range (prescriptions_creator).
func Uses(ctx context.Context, q database.Querier, userID int64, since time.Time) (map[int64]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT items, created_at FROM prescriptions WHERE created_by = $1 AND kind IN ('visit', 'blank')
		AND status <> 'cancelled' ORDER BY id DESC LIMIT 2000`, userID)
	if err != nil {
		return nil, fmt.Errorf("read uses: %w", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var items string
		var at time.Time
		if err := rows.Scan(&items, &at); err != nil {
			return nil, err
		}
		if at.Before(since) {
			continue
		}
		var list []Item
		if err := json.Unmarshal([]byte(items), &list); err != nil {
			return nil, fmt.Errorf("prescription items: %w", err)
		}
		for _, it := range list {
			if it.MedicineID != nil {
				out[*it.MedicineID]++
			}
		}
	}
	return out, rows.Err()
}
