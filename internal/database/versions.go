package database

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// The record_versions table keeps every version of the versioned records other than
// patients (whose versions are the patient store's own): appointments, visit forms, lab
// orders, prescriptions, medicines recorded as taken, documents, staff accounts, the clinic's
// settings. The record's
// owning store writes a snapshot, the record as it reads it, in the transaction of each
// change that moves the record's version, so the record and its history never disagree;
// the FHIR API's vread and _history read them (ADR 35). Each kind belongs to the package that
// writes it; this file is the only SQL that names the table.

// Kept is one kept version of a record of type T.
type Kept[T any] struct {
	Seq        int64 // its place among every version kept, of every kind
	RecordID   int64
	Version    int
	RecordedAt time.Time
	Record     T
}

// KeepVersion keeps record, version `version` of the kind's record id, in q (the change's
// transaction). A version is kept once: keeping it again is an error.
func KeepVersion(ctx context.Context, q Querier, kind string, id int64, version int, at time.Time, record any) error {
	data, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("keep %s %d version %d: %w", kind, id, version, err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO record_versions (kind, record_id, version, recorded_at, data) VALUES ($1, $2, $3, $4, $5)`,
		kind, id, version, at.UTC(), string(data)); err != nil {
		return fmt.Errorf("keep %s %d version %d: %w", kind, id, version, err)
	}
	return nil
}

// KeptQuery selects kept versions, newest first: of one record (ID not 0) — its version
// Version when not 0, else those below version Before (0: all) — or, with ID 0, of every
// record of the kind, below Seq Before when not 0 and recorded at or after Since when it is
// not zero.
type KeptQuery struct {
	ID      int64
	Version int
	Before  int64
	Since   time.Time
	Limit   int
}

// ReadKept reads the kind's kept versions q selects.
func ReadKept[T any](ctx context.Context, db Querier, kind string, q KeptQuery) ([]Kept[T], error) {
	where, tail, args := KeptWhere(q, "record_id", 2)
	list, err := ScanKept[T](db.QueryContext(ctx, `SELECT id, record_id, version, recorded_at, data FROM record_versions
		WHERE kind = $1 AND `+where+tail, append([]any{kind}, args...)...))
	if err != nil {
		return nil, fmt.Errorf("read kept %s versions: %w", kind, err)
	}
	return list, nil
}

// KeptWhere is the condition and the ORDER BY … LIMIT tail selecting q's kept versions from
// a versions table (columns id, version, recorded_at, and recordColumn: fixed text, never
// input), with their arguments numbered from first.
func KeptWhere(q KeptQuery, recordColumn string, first int) (where, tail string, args []any) {
	n := func(i int) string { return "$" + strconv.Itoa(first+i) }
	limit := max(q.Limit, 1)
	switch {
	case q.ID != 0 && q.Version != 0:
		return recordColumn + " = " + n(0) + " AND version = " + n(1), "", []any{q.ID, q.Version}
	case q.ID != 0:
		before := q.Before
		if before == 0 {
			before = math.MaxInt32
		}
		return recordColumn + " = " + n(0) + " AND version < " + n(1), " ORDER BY version DESC LIMIT " + n(2), []any{q.ID, before, limit}
	default:
		before := q.Before
		if before == 0 {
			before = math.MaxInt64
		}
		return "id < " + n(0) + " AND recorded_at >= " + n(1), " ORDER BY id DESC LIMIT " + n(2), []any{before, q.Since.UTC(), limit}
	}
}

// ScanKept reads rows of (id, record, version, recorded_at, data) as kept versions.
func ScanKept[T any](rows *sql.Rows, err error) ([]Kept[T], error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Kept[T]
	for rows.Next() {
		var k Kept[T]
		var data string
		if err := rows.Scan(&k.Seq, &k.RecordID, &k.Version, &k.RecordedAt, &data); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &k.Record); err != nil {
			return nil, fmt.Errorf("kept version %d: %w", k.Seq, err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}
