package database

import (
	"context"
	"database/sql"
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
		values, known, err := y.next(ctx, q, year, n-len(out))
		if err != nil {
			return nil, err
		}
		if base == -1 {
			if base = known.Int64; !known.Valid {
				if base, err = y.base(ctx, q, year, values[0]); err != nil {
					return nil, err
				}
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

// next takes n values of the sequence, with the year's base read by the same statement (not
// valid when the year has none yet): one round trip for a registration's number, not two.
func (y Yearly) next(ctx context.Context, q Querier, year, n int) ([]int64, sql.NullInt64, error) {
	var base sql.NullInt64
	rows, err := q.QueryContext(ctx, `SELECT nextval(CAST($1 AS TEXT)::regclass), (SELECT value FROM counters WHERE name = $3)
		FROM generate_series(1, $2)`, y.Sequence, n, y.Counter+"-base:"+strconv.Itoa(year))
	if err != nil {
		return nil, base, fmt.Errorf("number %s: %w", y.Counter, err)
	}
	defer rows.Close()
	out := make([]int64, 0, n)
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v, &base); err != nil {
			return nil, base, fmt.Errorf("number %s: %w", y.Counter, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, base, fmt.Errorf("number %s: %w", y.Counter, err)
	}
	return out, base, nil
}

// base is the year's base; a year without one takes first, the first value it was given,
// as its number 1.
func (y Yearly) base(ctx context.Context, q Querier, year int, first int64) (int64, error) {
	return SetCounterOnce(ctx, q, y.Counter+"-base:"+strconv.Itoa(year), first-1)
}

// Ensure makes the year's next number greater than last (after a restore or a copy between
// engines, whose numbering state differs): on SQLite the year's counter is raised to last;
// on PostgreSQL the year's base is moved so that the sequence's next value gives a greater
// number, unless it does already.
func (y Yearly) Ensure(ctx context.Context, q Querier, engine Engine, year int, last int64) error {
	if engine != Postgres {
		name := y.Counter + ":" + strconv.Itoa(year)
		v, err := Counter(ctx, q, name)
		if err != nil || v >= last {
			return err
		}
		return SetCounter(ctx, q, name, last)
	}
	var seq int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(last_value, 0) FROM pg_sequences WHERE schemaname = current_schema() AND sequencename = $1`, y.Sequence).Scan(&seq); err != nil {
		return fmt.Errorf("number %s: %w", y.Counter, err)
	}
	name := y.Counter + "-base:" + strconv.Itoa(year)
	base, err := Counter(ctx, q, name)
	if err != nil {
		return err
	}
	var set int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM counters WHERE name = $1`, name).Scan(&set); err != nil {
		return fmt.Errorf("number %s: %w", y.Counter, err)
	}
	if set > 0 && seq-base >= last {
		return nil
	}
	return SetCounter(ctx, q, name, seq-last)
}
