package auth

import (
	"context"
	"fmt"
	"math"
	"time"

	"emr/internal/database"
)

// Throttle counts failed logins in the database (so every instance sees the same counts)
// and refuses further tries once a key has failed Limit times within Window.
type Throttle struct {
	DB     *database.DB
	Window time.Duration
	Now    func() time.Time
}

// Login-throttling limits: per username, and per client address (higher, since a clinic's
// staff often share one address).
const (
	UserFailureLimit    = 5
	AddressFailureLimit = 30
	ThrottleWindow      = 15 * time.Minute
)

func (t *Throttle) now() time.Time {
	if t.Now != nil {
		return t.Now().UTC()
	}
	return time.Now().UTC()
}

// RetryAfter returns how long key must wait before another try, or 0 when it may try now.
func (t *Throttle) RetryAfter(ctx context.Context, key string, limit int) (time.Duration, error) {
	now := t.now()
	var count int
	var oldest *time.Time
	rows, err := t.DB.QueryContext(ctx, `SELECT at FROM login_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3`,
		key, now.Add(-t.Window), limit)
	if err != nil {
		return 0, fmt.Errorf("count login failures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var at time.Time
		if err := rows.Scan(&at); err != nil {
			return 0, err
		}
		count++
		oldest = &at
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if count < limit {
		return 0, nil
	}
	// The oldest of the last `limit` failures leaves the window at this time.
	return oldest.Add(t.Window).Sub(now), nil
}

// Fail records a failed try for each key and forgets failures older than the window.
func (t *Throttle) Fail(ctx context.Context, keys ...string) error {
	now := t.now()
	for _, k := range keys {
		if _, err := t.DB.ExecContext(ctx, `INSERT INTO login_failures (key, at) VALUES ($1, $2)`, k, now); err != nil {
			return fmt.Errorf("record login failure: %w", err)
		}
		if _, err := t.DB.ExecContext(ctx, `DELETE FROM login_failures WHERE key = $1 AND at <= $2`, k, now.Add(-t.Window)); err != nil {
			return fmt.Errorf("forget old login failures: %w", err)
		}
	}
	return nil
}

// Reset forgets the failures of key (after a successful login).
func (t *Throttle) Reset(ctx context.Context, key string) error {
	if _, err := t.DB.ExecContext(ctx, `DELETE FROM login_failures WHERE key = $1`, key); err != nil {
		return fmt.Errorf("reset login failures: %w", err)
	}
	return nil
}

// Seconds rounds d up to whole seconds, at least 1, for a Retry-After header.
func Seconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}
