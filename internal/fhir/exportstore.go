package fhir

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"emr/internal/database"
)

// Export states.
const (
	exportRunning   = "running"
	exportDone      = "done"
	exportFailed    = "failed"
	exportCancelled = "cancelled"
	// exportExpired is a finished export whose files were deleted at their expiry.
	exportExpired = "expired"
)

// exportKeep is how long an export's files are kept after it finished; exportStale how long
// a running export may go without a heartbeat before it is taken for dead (its instance
// stopped).
const (
	exportKeep  = 24 * time.Hour
	exportStale = 2 * time.Minute
	// MaxRunningExports is how many exports may run at once, server-wide: interactive
	// requests come first.
	MaxRunningExports = 2
)

// exportSkew moves the exports' clock (tests only: SetExportClock).
var exportSkew atomic.Int64

// exportNow is the exports' clock: when files expire, and heartbeats.
func exportNow() time.Time { return time.Now().Add(time.Duration(exportSkew.Load())).UTC() }

// exportJob is a bulk export as stored.
type exportJob struct {
	ID       int64
	Job      string
	UserID   int64
	ClientID int64
	// TokenID is the API token that started it (0: a browser session, or the backend client
	// ClientID): its status and files answer that credential alone.
	TokenID int64
	// LeftOut is what the export left out as its requester may not read it: types, and
	// categories of a type it reads in part ("Observation:laboratory").
	LeftOut         []string
	Request         string
	Types           []string
	Since           *time.Time
	GroupDoctor     int64
	Status          string
	Progress        string
	Counts          map[string]int
	Error           string
	TransactionTime time.Time
	HeartbeatAt     time.Time
	FinishedAt      *time.Time
}

// expires is when a finished export's files are deleted (nil while it runs).
func (j exportJob) expires() *time.Time {
	if j.FinishedAt == nil {
		return nil
	}
	t := j.FinishedAt.Add(exportKeep)
	return &t
}

// exports keeps the bulk exports and their files' chunks (the tables' one owner).
type exports struct{ db *database.DB }

func nullable(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// start records a new running export, unless MaxRunningExports run already.
func (x exports) start(ctx context.Context, j exportJob) (int64, error) {
	var id int64
	err := x.db.Tx(ctx, func(tx *sql.Tx) error {
		now := exportNow()
		// A running export whose instance stopped beating is failed, so it frees its place.
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_exports SET status = $1, error = $2, finished_at = $3 WHERE status = $4 AND heartbeat_at < $5`,
			exportFailed, "the server running it stopped", now, exportRunning, now.Add(-exportStale)); err != nil {
			return err
		}
		var running int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bulk_exports WHERE status = $1`, exportRunning).Scan(&running); err != nil {
			return err
		}
		if running >= MaxRunningExports {
			return errBusy
		}
		types, _ := json.Marshal(j.Types)
		leftOut, _ := json.Marshal(append([]string{}, j.LeftOut...))
		var since any
		if j.Since != nil {
			since = j.Since.UTC()
		}
		return tx.QueryRowContext(ctx, `INSERT INTO bulk_exports (job, user_id, client_id, token_id, request, types, left_out, since, group_doctor, status,
			transaction_time, created_at, heartbeat_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING id`, j.Job, nullable(j.UserID), nullable(j.ClientID), nullable(j.TokenID),
			j.Request, string(types), string(leftOut), since, nullable(j.GroupDoctor), exportRunning, j.TransactionTime.UTC(), now).Scan(&id)
	})
	return id, err
}

var errBusy = errors.New("exports busy")

// get reads an export by its job id; nil when there is none.
func (x exports) get(ctx context.Context, job string) (*exportJob, error) {
	var j exportJob
	var types, leftOut, counts string
	var since, finished sql.NullTime
	var user, client, token, doctor sql.NullInt64
	err := x.db.QueryRowContext(ctx, `SELECT id, job, user_id, client_id, token_id, request, types, left_out, since, group_doctor, status, progress, counts, error,
		transaction_time, heartbeat_at, finished_at
		FROM bulk_exports WHERE job = $1`, job).Scan(&j.ID, &j.Job, &user, &client, &token, &j.Request, &types, &leftOut, &since, &doctor, &j.Status, &j.Progress,
		&counts, &j.Error, &j.TransactionTime, &j.HeartbeatAt, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read export: %w", err)
	}
	j.UserID, j.ClientID, j.TokenID, j.GroupDoctor = user.Int64, client.Int64, token.Int64, doctor.Int64
	if since.Valid {
		j.Since = &since.Time
	}
	if finished.Valid {
		j.FinishedAt = &finished.Time
	}
	_ = json.Unmarshal([]byte(types), &j.Types)
	_ = json.Unmarshal([]byte(leftOut), &j.LeftOut)
	_ = json.Unmarshal([]byte(counts), &j.Counts)
	return &j, nil
}

// beat records progress; it answers false once the export is no longer running (cancelled).
func (x exports) beat(ctx context.Context, id int64, progress string, counts map[string]int) (bool, error) {
	c, _ := json.Marshal(counts)
	res, err := x.db.ExecContext(ctx, `UPDATE bulk_exports SET progress = $1, counts = $2, heartbeat_at = $3 WHERE id = $4 AND status = $5`,
		progress, string(c), exportNow(), id, exportRunning)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// chunk appends a chunk of NDJSON lines of one type.
func (x exports) chunk(ctx context.Context, id int64, kind string, seq, lines int, data []byte) error {
	_, err := x.db.ExecContext(ctx, `INSERT INTO bulk_export_chunks (export_id, type, seq, lines, data) VALUES ($1, $2, $3, $4, $5)`, id, kind, seq, lines, string(data))
	return err
}

// finish ends an export as done or failed (a cancelled one stays cancelled).
func (x exports) finish(ctx context.Context, id int64, status, message string, counts map[string]int) error {
	c, _ := json.Marshal(counts)
	_, err := x.db.ExecContext(ctx, `UPDATE bulk_exports SET status = $1, error = $2, counts = $3, progress = '', finished_at = $4 WHERE id = $5 AND status = $6`,
		status, message, string(c), exportNow(), id, exportRunning)
	return err
}

// cancel ends an export and deletes its files.
func (x exports) cancel(ctx context.Context, id int64) error {
	return x.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_exports SET status = $1, finished_at = $2 WHERE id = $3`, exportCancelled, exportNow(), id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM bulk_export_chunks WHERE export_id = $1`, id)
		return err
	})
}

// sweep deletes the files nobody may download any more: of the exports finished more than
// exportKeep ago (marked expired), and of those that failed, or whose instance stopped
// beating (failed now). Its reads and deletes name the exports by their end, each export's
// chunks by their key.
func (x exports) sweep(ctx context.Context) error {
	now := exportNow()
	return x.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_exports SET status = $1, error = $2, finished_at = $3 WHERE status = $4 AND heartbeat_at < $5`,
			exportFailed, "the server running it stopped", now, exportRunning, now.Add(-exportStale)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_exports SET status = $1 WHERE status = $2 AND finished_at < $3`, exportExpired, exportDone, now.Add(-exportKeep)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM bulk_export_chunks WHERE export_id IN
			(SELECT id FROM bulk_exports WHERE finished_at IS NOT NULL AND (status <> $1 OR finished_at < $2))`, exportDone, now.Add(-exportKeep))
		return err
	})
}

// expire deletes the files of export id, found past its expiry at a read, and marks it so.
func (x exports) expire(ctx context.Context, id int64) error {
	return x.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bulk_exports SET status = $1 WHERE id = $2 AND status = $3`, exportExpired, id, exportDone); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM bulk_export_chunks WHERE export_id = $1`, id)
		return err
	})
}

// SweepExports deletes the bulk export files due for deletion (the server runs it
// periodically; a read of an expired file deletes that export's files at once).
func SweepExports(ctx context.Context, db *database.DB) error { return exports{db}.sweep(ctx) }

// eachChunk streams a type's chunks in order to fn, one at a time.
func (x exports) eachChunk(ctx context.Context, id int64, kind string, fn func(data string) error) error {
	seq := -1
	for {
		var data string
		err := x.db.QueryRowContext(ctx, `SELECT seq, data FROM bulk_export_chunks WHERE export_id = $1 AND type = $2 AND seq > $3 ORDER BY seq LIMIT 1`,
			id, kind, seq).Scan(&seq, &data)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(data); err != nil {
			return err
		}
	}
}
