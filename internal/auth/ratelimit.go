package auth

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// TakeMany counts n units of work for key in its window (a window starts at a key's first
// unit and lasts t.Window), in one atomic upsert on the login's throttle table, so every
// instance shares the count: 0 when they fit under limit, else how long until the window
// ends — and then they are not counted (a refused request did nothing).
func (t *Throttle) TakeMany(ctx context.Context, key string, n, limit int) (time.Duration, error) {
	now := t.now()
	var wait time.Duration
	// Through the database's writer: on SQLite a write beside it waits for the write lock
	// with the busy timeout, and while Bundles keep the writer busy it can wait past it.
	err := t.DB.Tx(ctx, func(tx *sql.Tx) error {
		var start time.Time
		var count int
		err := tx.QueryRowContext(ctx, `INSERT INTO login_throttle (key, window_start, tries) VALUES ($1, $2, $4)
		ON CONFLICT (key) DO UPDATE SET
			tries = CASE WHEN login_throttle.window_start <= $3 THEN excluded.tries ELSE login_throttle.tries + excluded.tries END,
			window_start = CASE WHEN login_throttle.window_start <= $3 THEN excluded.window_start ELSE login_throttle.window_start END
		RETURNING window_start, tries`, key, now, now.Add(-t.Window), n).Scan(&start, &count)
		if err != nil {
			return fmt.Errorf("count %s: %w", key, err)
		}
		if count <= limit {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE login_throttle SET tries = tries - $2 WHERE key = $1 AND tries >= $2`, key, n); err != nil {
			return fmt.Errorf("give back %s: %w", key, err)
		}
		wait = max(start.Add(t.Window).Sub(now), time.Second)
		return nil
	})
	return wait, err
}
