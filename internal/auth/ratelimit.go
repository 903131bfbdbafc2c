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
	if err := checkWindow(key, t.Window); err != nil {
		return 0, err
	}
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

// A network's failed checks at the public pages (a one-time code at online booking or the
// portal's sign-in, a portal access code), counted together across codes, holds and
// records: past PublicFailureLimit in PublicFailureWindow the network is refused every such
// check, a right one too, until its window ends (the attacker's review, M4). An IPv6 /64's
// failures also count for its /48 (AddressSite), past PublicSiteFailureLimit: one site holds
// 65,536 /64s, each with a budget of its own otherwise.
const (
	PublicFailureLimit     = 20
	PublicSiteFailureLimit = 60
	PublicFailureWindow    = time.Hour
)

// TakeFailure takes one of block's failure slots before a public check, as the login takes
// a try before the password is checked: 0 when the check may go ahead, else how long the
// network must wait (and nothing is counted). A check that turned out right, or was never
// made, gives its slot back (GiveBackFailure); so only failures stay counted, and however
// many checks run at once, at most PublicFailureLimit of them fail in a window. An IPv6
// block's site (its /48) takes one of its own slots too.
func (t *Throttle) TakeFailure(ctx context.Context, block string) (time.Duration, error) {
	f := Throttle{DB: t.DB, Window: PublicFailureWindow, Now: t.Now}
	wait, err := f.TakeMany(ctx, "public-failure:"+block, 1, PublicFailureLimit)
	if err != nil || wait > 0 {
		return wait, err
	}
	if site := AddressSite(block); site != "" {
		wait, err := f.TakeMany(ctx, "public-failure-site:"+site, 1, PublicSiteFailureLimit)
		if err != nil || wait > 0 {
			if err := t.GiveBack(ctx, "public-failure:"+block); err != nil {
				return 0, err
			}
			return wait, err
		}
	}
	return 0, nil
}

// GiveBackFailure returns a slot TakeFailure took for a check that was right or not made.
func (t *Throttle) GiveBackFailure(ctx context.Context, block string) error {
	if site := AddressSite(block); site != "" {
		if err := t.GiveBack(ctx, "public-failure-site:"+site); err != nil {
			return err
		}
	}
	return t.GiveBack(ctx, "public-failure:"+block)
}
