package audit

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"emr/internal/database"
)

// Events are appended outside the chain and chained afterwards, in batches, by one sealer
// (ADR 21): it takes the chain's head, gives the waiting events their positions in the
// order they were written, hashes each onto the one before, and writes the batch's head to
// audit_seals — all in one transaction. Requests never wait for it.

// SealBound is how long an event may stay outside the chain: Verify reports events sealed
// later, and the health check warns while one waits longer.
const SealBound = 2 * time.Second

// SealEvery is how often the server's sealer looks for events to chain.
const SealEvery = time.Second

// sealBatch bounds the events one transaction chains.
const sealBatch = 5000

// sealLock is the PostgreSQL advisory lock that lets one instance seal at a time.
const sealLock int64 = 0x656d725f61756474

// Head locks the chain's head for the rest of tx and returns its position and hash.
func Head(ctx context.Context, tx *sql.Tx) (seq int64, hash string, err error) {
	seq, hash, _, err = head(ctx, tx)
	return seq, hash, err
}

func head(ctx context.Context, tx *sql.Tx) (seq int64, hash string, legacyThrough int64, err error) {
	err = tx.QueryRowContext(ctx, `UPDATE audit_chain SET seq = seq WHERE id = 1 RETURNING seq, hash, legacy_through`).Scan(&seq, &hash, &legacyThrough)
	if err != nil {
		return 0, "", 0, fmt.Errorf("read the audit chain's head: %w", err)
	}
	return seq, hash, legacyThrough, nil
}

// MoveHead makes the event at seq, hashed hash, the chain's head and writes the seal of the
// batch that ends there; sealedAt is nil for events chained as they were written (loaded).
func MoveHead(ctx context.Context, tx *sql.Tx, seq int64, hash string, sealedAt *time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE audit_chain SET seq = $1, hash = $2 WHERE id = 1`, seq, hash); err != nil {
		return fmt.Errorf("move the audit chain's head: %w", err)
	}
	var at any
	if sealedAt != nil {
		at = sealedAt.UTC()
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO audit_seals (last_seq, hash, sealed_at) VALUES ($1, $2, $3)`, seq, hash, at); err != nil {
		return fmt.Errorf("seal audit events: %w", err)
	}
	return nil
}

// SealPending chains every event written and not yet chained, and returns how many it
// chained. On PostgreSQL, when another instance is sealing, it returns 0 at once.
func SealPending(ctx context.Context, db *database.DB) (int, error) {
	total := 0
	for {
		n, err := sealOnce(ctx, db)
		total += n
		if err != nil || n < sealBatch {
			return total, err
		}
	}
}

func sealOnce(ctx context.Context, db *database.DB) (int, error) {
	n := 0
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if db.Engine == database.Postgres {
			var mine bool
			if err := tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock($1)`, sealLock).Scan(&mine); err != nil || !mine {
				return err
			}
		}
		seq, prev, legacyThrough, err := head(ctx, tx)
		if err != nil {
			return err
		}
		waiting, err := unsealed(ctx, tx, legacyThrough)
		if err != nil || len(waiting) == 0 {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `UPDATE audit_events SET seq = $1, prev_hash = $2, hash = $3 WHERE id = $4 AND seq IS NULL`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, w := range waiting {
			seq++
			hash := chainHash(prev, seq, w.Event)
			res, err := stmt.ExecContext(ctx, seq, prev, hash, w.id)
			if err != nil {
				return fmt.Errorf("seal audit event %d: %w", w.id, err)
			}
			if k, err := res.RowsAffected(); err != nil || k != 1 {
				return fmt.Errorf("seal audit event %d: it was sealed meanwhile (%v)", w.id, err)
			}
			prev = hash
		}
		now := time.Now()
		if err := MoveHead(ctx, tx, seq, prev, &now); err != nil {
			return err
		}
		n = len(waiting)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

type waitingEvent struct {
	id int64
	Event
}

// unsealed reads the oldest events outside the chain (not the legacy ones before it), in
// the order they were written.
func unsealed(ctx context.Context, tx *sql.Tx, legacyThrough int64) ([]waitingEvent, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, at, COALESCE(actor_id, 0), actor_name, action, entity_type, entity_id, patient_id,
		address, outcome, detail, emergency, COALESCE(credential, '') FROM audit_events WHERE seq IS NULL AND id > $1 ORDER BY id LIMIT $2`, legacyThrough, sealBatch)
	if err != nil {
		return nil, fmt.Errorf("read unsealed audit events: %w", err)
	}
	defer rows.Close()
	var out []waitingEvent
	for rows.Next() {
		var w waitingEvent
		if err := rows.Scan(&w.id, &w.At, &w.ActorID, &w.ActorName, &w.Action, &w.EntityType, &w.EntityID, &w.PatientID,
			&w.Address, &w.Outcome, &w.Detail, &w.Emergency, &w.Credential); err != nil {
			return nil, fmt.Errorf("read unsealed audit events: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// Backlog is how many events wait outside the chain and how long the oldest has waited.
func Backlog(ctx context.Context, db database.Querier, now time.Time) (int64, time.Duration, error) {
	const waiting = `FROM audit_events WHERE seq IS NULL AND id > (SELECT legacy_through FROM audit_chain WHERE id = 1)`
	var n int64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) `+waiting).Scan(&n); err != nil {
		return 0, 0, fmt.Errorf("read the audit backlog: %w", err)
	}
	if n == 0 {
		return 0, 0, nil
	}
	var oldest time.Time
	if err := db.QueryRowContext(ctx, `SELECT at `+waiting+` ORDER BY id LIMIT 1`).Scan(&oldest); err != nil {
		return 0, 0, fmt.Errorf("read the audit backlog: %w", err)
	}
	return n, max(now.Sub(oldest), 0), nil
}

// ReadHead returns the chain's head, without locking it: for a backup's snapshot and for
// checking a restore.
func ReadHead(ctx context.Context, q database.Querier) (seq int64, hash string, err error) {
	if err := q.QueryRowContext(ctx, `SELECT seq, hash FROM audit_chain WHERE id = 1`).Scan(&seq, &hash); err != nil {
		return 0, "", fmt.Errorf("read the audit chain's head: %w", err)
	}
	return seq, hash, nil
}
