package patient

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
)

// snapshot keeps the patient's record as it is now in tx, as the version it has: called by
// every change that moves the version, in the change's transaction.
func snapshot(ctx context.Context, tx database.Querier, id int64, e audit.Event, now time.Time) error {
	p, err := get(ctx, tx, id)
	if err != nil {
		return err
	}
	return keep(ctx, tx, p, e, now)
}

// keep is snapshot of a record the change has just read or written (p as get reads it), so
// that it is not read again.
func keep(ctx context.Context, tx database.Querier, p Patient, e audit.Event, now time.Time) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO patient_versions (patient_id, version, recorded_at, recorded_by, data) VALUES ($1, $2, $3, $4, $5)`,
		p.ID, p.Version, now, e.Actor(), string(data)); err != nil {
		return fmt.Errorf("keep the patient's version: %w", err)
	}
	return nil
}

// Kept reads the kept versions of patients q selects (database.KeptQuery), newest first:
// the snapshots only, not the live record.
func (s *Store) Kept(ctx context.Context, q database.KeptQuery) ([]database.Kept[Patient], error) {
	where, tail, args := database.KeptWhere(q, "patient_id", 1)
	list, err := database.ScanKept[Patient](s.DB.QueryContext(ctx, `SELECT id, patient_id, version, recorded_at, data FROM patient_versions WHERE `+where+tail, args...))
	if err != nil {
		return nil, fmt.Errorf("read patient versions: %w", err)
	}
	for i := range list {
		list[i].Record.History = list[i].Record.History.Known()
	}
	return list, nil
}

// lockKey serialises, on PostgreSQL, the transactions that check for a record before
// writing one (the duplicate check, a conditional create): two of them with the same key
// wait for each other, so neither misses the other's row. SQLite's write transactions are
// serial already.
func lockKey(ctx context.Context, tx *sql.Tx, engine database.Engine, key string) error {
	if key == "" {
		return nil
	}
	return lockKeys(ctx, tx, engine, []int64{keyHash(key)})
}

func keyHash(key string) int64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int64(h.Sum64())
}

// lockKeys takes the advisory locks of keys in one statement, in ascending order (two
// transactions taking overlapping sets never wait for each other in a circle).
func lockKeys(ctx context.Context, tx *sql.Tx, engine database.Engine, keys []int64) error {
	if engine != database.Postgres || len(keys) == 0 {
		return nil
	}
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if _, err := tx.ExecContext(ctx, `SELECT COUNT(pg_advisory_xact_lock(k)) FROM (SELECT unnest($1::bigint[]) AS k ORDER BY 1) locks`, keys); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	return nil
}

// ErrAmbiguous is CreateIfNone's answer when several patients match its condition.
var ErrAmbiguous = errors.New("several patients match")

// CreateIfNone registers in unless a patient matching f exists (a conditional create): it
// returns the patient created (created true), or the one that matched. Several matches are
// ErrAmbiguous. The check and the write are one transaction, serialised with every other
// conditional create of the same condition (key), so parallel requests make one patient.
// A possible duplicate is refused unless distinctFrom names exactly the patients it may be
// (CreateExactly).
func (s *Store) CreateIfNone(ctx context.Context, e audit.Event, in Input, distinctFrom []int64, f Filter, key string) (Patient, bool, error) {
	var p Patient
	var created bool
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		p, created, err = s.CreateIfNoneIn(ctx, tx, e, in, distinctFrom, f, key)
		return err
	})
	return p, created, err
}

// CreateIfNoneIn is CreateIfNone inside the caller's transaction.
func (s *Store) CreateIfNoneIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, distinctFrom []int64, f Filter, key string) (Patient, bool, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, false, err
	}
	if err := lockKey(ctx, tx, s.DB.Engine, "if-none-exist:"+key); err != nil {
		return Patient{}, false, err
	}
	f.Limit, f.After = 2, 0
	found, _, err := s.page(ctx, tx, f)
	switch {
	case err != nil:
		return Patient{}, false, err
	case len(found) > 1:
		return Patient{}, false, ErrAmbiguous
	case len(found) == 1:
		return found[0], false, nil
	}
	p, err := s.create(ctx, tx, e, in, distinctFrom, true)
	return p, err == nil, err
}

// StepError is the step of a Batch that failed, and why.
type StepError struct {
	Step int
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// Batch runs n steps of writes in one transaction (a FHIR batch or transaction Bundle):
// each step gets the transaction, for CreateIn, UpdateIn and the rest. atomic: the first
// step to fail rolls everything back and is returned as a *StepError. Otherwise a failing
// step alone is rolled back (to a savepoint taken before it) and its error kept in the
// returned list, and the others are committed together: one commit for the whole batch.
func (s *Store) Batch(ctx context.Context, atomic bool, n int, step func(i int, tx *sql.Tx) error) ([]error, error) {
	failed := make([]error, n)
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		for i := range n {
			if atomic {
				if err := step(i, tx); err != nil {
					return &StepError{Step: i, Err: err}
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, "SAVEPOINT step"); err != nil {
				return err
			}
			if err := step(i, tx); err != nil {
				failed[i] = err
				if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT step"); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT step"); err != nil {
				return err
			}
		}
		return nil
	})
	return failed, err
}

// Birth is the birth date a kept version of a patient's record gave, and when it was kept.
type Birth struct {
	BirthDate string
	At        time.Time
}

// BirthsKept are the birth dates every kept version of patients gave, oldest first, for each
// patient with a version kept at or after since (or for ids, when given): what a record said of
// the patient's age, and from when.
func BirthsKept(ctx context.Context, q database.Querier, since time.Time, ids []int64) (map[int64][]Birth, error) {
	if ids == nil {
		seen := map[int64]bool{}
		for before := int64(0); ; {
			where, tail, args := database.KeptWhere(database.KeptQuery{Since: since, Before: before, Limit: 500}, "patient_id", 1)
			rows, err := q.QueryContext(ctx, `SELECT id, patient_id FROM patient_versions WHERE `+where+tail, args...)
			if err != nil {
				return nil, fmt.Errorf("read patient versions: %w", err)
			}
			n := 0
			for rows.Next() {
				var pid int64
				if err := rows.Scan(&before, &pid); err != nil {
					rows.Close()
					return nil, fmt.Errorf("read patient versions: %w", err)
				}
				n++
				if !seen[pid] {
					seen[pid] = true
					ids = append(ids, pid)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
			if n < 500 {
				break
			}
		}
	}
	out := map[int64][]Birth{}
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "patient_id", chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT patient_id, recorded_at, data FROM patient_versions WHERE `+in+` ORDER BY patient_id, version`, args...)
		if err != nil {
			return fmt.Errorf("read patient versions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var pid int64
			var b Birth
			var data string
			var p struct {
				BirthDate string `json:"birth_date"`
			}
			if err := rows.Scan(&pid, &b.At, &data); err != nil {
				return fmt.Errorf("read patient versions: %w", err)
			}
			if err := json.Unmarshal([]byte(data), &p); err != nil {
				return fmt.Errorf("patient %d version: %w", pid, err)
			}
			b.BirthDate = p.BirthDate
			out[pid] = append(out[pid], b)
		}
		return rows.Err()
	})
	return out, err
}
