package database

import (
	"cmp"
	"database/sql"
	"slices"
)

// Column reads the one column of every row of a query (its rows and error as QueryContext
// returns them), e.g. a list of ids.
func Column[T any](rows *sql.Rows, err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// InChunks calls read with the values, sorted and each once, at most n at a time, so that
// the IN list of a read by many ids keeps a bounded number of placeholders.
func InChunks[T cmp.Ordered](values []T, n int, read func(chunk []T) error) error {
	values = slices.Compact(slices.Sorted(slices.Values(values)))
	for len(values) > 0 {
		chunk := values[:min(len(values), n)]
		values = values[len(chunk):]
		if err := read(chunk); err != nil {
			return err
		}
	}
	return nil
}
