package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// Yearly names a numbering that starts again each year where gaps are allowed (patient
// numbers): a number taken by a transaction that then rolls back is not given again. On
// PostgreSQL the numbers come from a sequence, which holds no lock, so concurrent writers
// never wait for each other; a year's numbers are the sequence's values less the year's
// base, set once when the year takes its first number. On SQLite, which has one writer at
// a time anyway, they come from the counter "Counter:YEAR" in the writer's transaction.
// Gap-free numbers (bills, documents) use AddToCounter instead: the counter's row is locked
// only by transactions taking a number of that kind, until they commit.
type Yearly struct {
	Counter  string // the counters' name prefix ("mrn")
	Sequence string // the PostgreSQL sequence, created by a migration
}

// Take returns n numbers of year, in increasing order, for a transaction on engine.
func (y Yearly) Take(ctx context.Context, q Querier, engine Engine, year, n int) ([]int64, error) {
	out := make([]int64, 0, n)
	if engine != Postgres {
		last, err := AddToCounter(ctx, q, y.Counter+":"+strconv.Itoa(year), int64(n))
		for i := range int64(n) {
			out = append(out, last-int64(n)+1+i)
		}
		return out, err
	}
	base := int64(-1) // unknown until the first value is taken
	for len(out) < n {
		values, err := y.next(ctx, q, n-len(out))
		if err != nil {
			return nil, err
		}
		if base == -1 {
			if base, err = y.base(ctx, q, year, values[0]); err != nil {
				return nil, err
			}
		}
		for _, v := range values {
			// A value taken before another transaction set the year's base falls at or
			// under it: it is skipped (a gap) and another is taken.
			if v > base {
				out = append(out, v-base)
			}
		}
	}
	return out, nil
}

// next takes n values of the sequence.
func (y Yearly) next(ctx context.Context, q Querier, n int) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT nextval(CAST($1 AS TEXT)::regclass) FROM generate_series(1, $2)`, y.Sequence, n)
	if err != nil {
		return nil, fmt.Errorf("number %s: %w", y.Counter, err)
	}
	defer rows.Close()
	out := make([]int64, 0, n)
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("number %s: %w", y.Counter, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("number %s: %w", y.Counter, err)
	}
	return out, nil
}

// base is the year's base; a year without one takes first, the first value it was given,
// as its number 1.
func (y Yearly) base(ctx context.Context, q Querier, year int, first int64) (int64, error) {
	name := y.Counter + "-base:" + strconv.Itoa(year)
	var base int64
	err := q.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&base)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = q.ExecContext(ctx, `INSERT INTO counters (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, first-1)
		if err == nil {
			err = q.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&base)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("number %s: %w", y.Counter, err)
	}
	return base, nil
}

// AddToTotal adds delta to the named total in the caller's transaction on engine. On
// PostgreSQL the change is a row of its own, so concurrent writers never wait for each
// other's commit; FoldTotals folds the rows. On SQLite, whose one writer never waits for
// another, the name's one row is updated.
func AddToTotal(ctx context.Context, q Querier, engine Engine, name string, delta int64) error {
	if engine != Postgres {
		res, err := q.ExecContext(ctx, `UPDATE totals SET value = value + $2 WHERE name = $1`, name, delta)
		if err != nil {
			return fmt.Errorf("total %s: %w", name, err)
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO totals (name, value) VALUES ($1, $2)`, name, delta); err != nil {
		return fmt.Errorf("total %s: %w", name, err)
	}
	return nil
}

// Total returns the named total, 0 when nothing was ever added.
func Total(ctx context.Context, q Querier, name string) (int64, error) {
	var v int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(value), 0) FROM totals WHERE name = $1`, name).Scan(&v); err != nil {
		return 0, fmt.Errorf("total %s: %w", name, err)
	}
	return v, nil
}

// FoldTotals folds each total's rows into one, in one statement: the rows it deletes are the
// ones it adds up (rows of transactions still open are left for the next fold).
func FoldTotals(ctx context.Context, db *DB) error {
	if db.Engine != Postgres {
		return nil
	}
	_, err := db.ExecContext(ctx, `WITH moved AS (
		DELETE FROM totals WHERE name IN (SELECT name FROM totals GROUP BY name HAVING COUNT(*) > 1) RETURNING name, value)
		INSERT INTO totals (name, value) SELECT name, SUM(value) FROM moved GROUP BY name`)
	if err != nil {
		return fmt.Errorf("fold totals: %w", err)
	}
	return nil
}
