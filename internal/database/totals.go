package database

import (
	"context"
	"fmt"
)

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

// FoldTotalsIn folds each total's rows into one with q, on either engine: after a copy from
// PostgreSQL, whose writers append rows, SQLite's writer expects one row per name.
func FoldTotalsIn(ctx context.Context, q Querier, _ Engine) error {
	rows, err := q.QueryContext(ctx, `SELECT name, SUM(value) FROM totals GROUP BY name HAVING COUNT(*) > 1`)
	if err != nil {
		return fmt.Errorf("fold totals: %w", err)
	}
	sums := map[string]int64{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			rows.Close()
			return fmt.Errorf("fold totals: %w", err)
		}
		sums[name] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("fold totals: %w", err)
	}
	for name, v := range sums {
		if _, err := q.ExecContext(ctx, `DELETE FROM totals WHERE name = $1`, name); err != nil {
			return fmt.Errorf("fold totals: %w", err)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO totals (name, value) VALUES ($1, $2)`, name, v); err != nil {
			return fmt.Errorf("fold totals: %w", err)
		}
	}
	return nil
}
