package database

import (
	"cmp"
	"database/sql"
	"slices"
	"strconv"
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

// InIDs returns the condition "column IN (…)" for ids (not empty) and its arguments,
// numbered from first. Read through a *DB on SQLite, the ids travel as one JSON array that
// json_each reads: SQLite's driver looks up every parameter's name in a list, so binding n
// placeholders costs n², which for a few hundred ids cost more than the query itself.
// Otherwise (PostgreSQL, or inside a transaction) it is InList's padded list.
func InIDs(q Querier, column string, ids []int64, first int) (string, []any) {
	if db, ok := q.(*DB); ok && db.Engine == SQLite {
		list := make([]byte, 0, 1+8*len(ids))
		list = append(list, '[')
		for i, id := range ids {
			if i > 0 {
				list = append(list, ',')
			}
			list = strconv.AppendInt(list, id, 10)
		}
		return column + " IN (SELECT value FROM json_each($" + strconv.Itoa(first) + "))", []any{string(append(list, ']'))}
	}
	marks, args := InList(ids, first)
	return column + " IN (" + marks + ")", args
}

// KeysetPage is a page of rows in id order for programs: the WHERE condition and the ORDER
// BY … LIMIT tail, and their arguments. The page starts after `after` (below it when desc; 0:
// from the first, or the last), keeps the rows whose filterColumn is filter when filter is not
// 0, and the rows among ids when there are any.
func KeysetPage(q Querier, idColumn string, ids []int64, filterColumn string, filter, after int64, desc bool, limit int) (where, tail string, args []any) {
	where, args = idColumn+" > $1", []any{after}
	order := "ASC"
	if desc {
		where, order = idColumn+" < $1", "DESC"
		if after <= 0 {
			args[0] = int64(1<<63 - 1)
		}
	}
	if filter != 0 {
		args = append(args, filter)
		where += " AND " + filterColumn + " = $" + strconv.Itoa(len(args))
	}
	if len(ids) > 0 {
		in, inArgs := InIDs(q, idColumn, ids, len(args)+1)
		where += " AND " + in
		args = append(args, inArgs...)
	}
	args = append(args, limit)
	return where, " ORDER BY " + idColumn + " " + order + " LIMIT $" + strconv.Itoa(len(args)), args
}

// KeysetAmong is an ascending KeysetPage of the rows whose column is one of values (not
// empty): the rows of several patients at once, in id order after `after`.
func KeysetAmong(q Querier, idColumn, column string, values []int64, after int64, limit int) (where, tail string, args []any) {
	in, inArgs := InIDs(q, column, values, 2)
	args = append(append([]any{after}, inArgs...), limit)
	return idColumn + " > $1 AND " + in, " ORDER BY " + idColumn + " LIMIT $" + strconv.Itoa(len(args)), args
}
