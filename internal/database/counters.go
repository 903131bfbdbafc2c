package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The counters table holds named whole numbers that one write raises atomically: sequences
// (patient numbers on SQLite, gap-free numbers to come), the yearly bases of sequences on
// PostgreSQL (numbers.go) and versions (the roles matrix, the installed starter lists). Each
// name belongs to the package that writes it, by its prefix ("mrn", "roles:", "catalogue:");
// this file is the only SQL that names the table. Totals many writers add to are in the
// totals table (totals.go).

// Counter returns the named counter's value, 0 when it was never set.
func Counter(ctx context.Context, q Querier, name string) (int64, error) {
	var v int64
	err := q.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("counter %s: %w", name, err)
	}
	return v, nil
}

// AddToCounter adds delta to the named counter, creating it, and returns the new value. Run
// in the caller's transaction, concurrent writers on either engine get distinct values.
func AddToCounter(ctx context.Context, q Querier, name string, delta int64) (int64, error) {
	var v int64
	err := q.QueryRowContext(ctx, `INSERT INTO counters (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = counters.value + $2 RETURNING value`, name, delta).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("counter %s: %w", name, err)
	}
	return v, nil
}

// SetCounter sets the named counter to v, creating it.
func SetCounter(ctx context.Context, q Querier, name string, v int64) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO counters (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = $2`, name, v); err != nil {
		return fmt.Errorf("counter %s: %w", name, err)
	}
	return nil
}

// SetCounterOnce sets the named counter to v unless it is set already, and returns its value:
// the first of concurrent writers wins, the others read what it set.
func SetCounterOnce(ctx context.Context, q Querier, name string, v int64) (int64, error) {
	var got int64
	err := q.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = q.ExecContext(ctx, `INSERT INTO counters (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, v)
		if err == nil {
			err = q.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&got)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("counter %s: %w", name, err)
	}
	return got, nil
}
