package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"time"

	"emr/internal/database"
)

// Throttle limits password tries per key ("user:NAME", "addr:ADDRESS") in the database, so
// every instance shares the counts. A try takes its slot before the password is checked, in
// one atomic upsert: however many tries arrive at once, at most Limit of them are checked
// in a window. A successful try gives its slot back (docs/adr/0017).
type Throttle struct {
	DB     *database.DB
	Window time.Duration
	Now    func() time.Time
}

// Login-throttling limits: per username, and per client address (higher, since a clinic's
// staff often share one address; a known account is not refused for its address alone).
const (
	UserFailureLimit    = 5
	AddressFailureLimit = 30
	ThrottleWindow      = 15 * time.Minute
	// KnownAddressFor is how long a successful login makes its address known for the account.
	KnownAddressFor = 90 * 24 * time.Hour
)

func (t *Throttle) now() time.Time {
	if t.Now != nil {
		return t.Now().UTC()
	}
	return time.Now().UTC()
}

// Take claims a try for key: 0 when it may go ahead (the try is counted), else how long
// until the window ends. A window starts at a key's first try and lasts Window.
func (t *Throttle) Take(ctx context.Context, key string, limit int) (time.Duration, error) {
	if err := checkWindow(key, t.Window); err != nil {
		return 0, err
	}
	now := t.now()
	var start time.Time
	var tries int
	err := t.DB.QueryRowContext(ctx, `INSERT INTO login_throttle (key, window_start, tries) VALUES ($1, $2, 1)
		ON CONFLICT (key) DO UPDATE SET
			tries = CASE WHEN login_throttle.window_start <= $3 THEN 1 ELSE login_throttle.tries + 1 END,
			window_start = CASE WHEN login_throttle.window_start <= $3 THEN excluded.window_start ELSE login_throttle.window_start END
		RETURNING window_start, tries`, key, now, now.Add(-t.Window)).Scan(&start, &tries)
	if err != nil {
		return 0, fmt.Errorf("take a login try: %w", err)
	}
	if tries <= limit {
		return 0, nil
	}
	return max(start.Add(t.Window).Sub(now), time.Second), nil
}

// GiveBack returns a try taken for key that turned out right (or was never checked).
func (t *Throttle) GiveBack(ctx context.Context, key string) error {
	if _, err := t.DB.ExecContext(ctx, `UPDATE login_throttle SET tries = tries - 1 WHERE key = $1 AND tries > 0`, key); err != nil {
		return fmt.Errorf("give back a login try: %w", err)
	}
	return nil
}

// RetryAfter says, without taking a try, how long key must wait: 0 when it may try now.
func (t *Throttle) RetryAfter(ctx context.Context, key string, limit int) (time.Duration, error) {
	return t.RetryAfterIn(ctx, t.DB, key, limit)
}

// RetryAfterIn is RetryAfter read through q (a caller's transaction).
func (t *Throttle) RetryAfterIn(ctx context.Context, q database.Querier, key string, limit int) (time.Duration, error) {
	now := t.now()
	var start time.Time
	var tries int
	err := q.QueryRowContext(ctx, `SELECT window_start, tries FROM login_throttle WHERE key = $1`, key).Scan(&start, &tries)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read login tries: %w", err)
	}
	if tries < limit || !start.After(now.Add(-t.Window)) {
		return 0, nil
	}
	return start.Add(t.Window).Sub(now), nil
}

// Reset forgets the tries of key (after a successful login, or in an administrator's
// unlock, inside its audited transaction q).
func (t *Throttle) Reset(ctx context.Context, q database.Querier, key string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM login_throttle WHERE key = $1`, key); err != nil {
		return fmt.Errorf("reset login tries: %w", err)
	}
	return nil
}

// The throttle's windows, for the sweep: a key's window is at most ShortWindow, unless the
// key begins with DayKey, whose windows are at most DayWindow (the clinic-wide SMS caps per
// day, a contact's failed codes per day). TakeMany refuses a longer window under another
// key, so the sweep never ends a window early (the attacker's review, C1: the hourly sweep
// had reset the day caps every hour).
const (
	ShortWindow = time.Hour
	DayKey      = "day:"
	DayWindow   = 24 * time.Hour
)

// Sweep forgets the tries of windows that are over at now (a flood from many addresses
// leaves a row each): a key's row when its window began ShortWindow ago, a DayKey's when it
// began DayWindow ago; it reports how many.
func (t *Throttle) Sweep(ctx context.Context, now time.Time) (int64, error) {
	res, err := t.DB.ExecContext(ctx, `DELETE FROM login_throttle
		WHERE (key NOT LIKE 'day:%' AND window_start < $1) OR window_start < $2`, now.Add(-ShortWindow), now.Add(-DayWindow))
	if err != nil {
		return 0, fmt.Errorf("sweep ended throttle windows: %w", err)
	}
	return res.RowsAffected()
}

// checkWindow refuses a window the sweep would end early.
func checkWindow(key string, window time.Duration) error {
	limit := ShortWindow
	if strings.HasPrefix(key, DayKey) {
		limit = DayWindow
	}
	if window > limit {
		return fmt.Errorf("throttle %s: a window of %s outlasts the sweep's %s", key, window, limit)
	}
	return nil
}

// Known reports whether the account userKey has signed in from address within KnownAddressFor.
func (t *Throttle) Known(ctx context.Context, userKey, address string) (bool, error) {
	var n int
	err := t.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM login_known_addresses WHERE user_key = $1 AND address = $2 AND last_at > $3`,
		userKey, address, t.now().Add(-KnownAddressFor)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read known addresses: %w", err)
	}
	return n > 0, nil
}

// Remember records that the account userKey signed in from address now.
func (t *Throttle) Remember(ctx context.Context, userKey, address string) error {
	if _, err := t.DB.ExecContext(ctx, `INSERT INTO login_known_addresses (user_key, address, last_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_key, address) DO UPDATE SET last_at = excluded.last_at`, userKey, address, t.now()); err != nil {
		return fmt.Errorf("remember the address: %w", err)
	}
	return nil
}

// Seconds rounds d up to whole seconds, at least 1, for a Retry-After header.
func Seconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// AddressBlock is the block an address is limited as: an IPv4 address itself, an IPv6
// address's /64 (what one household or office is given), anything else as it is.
func AddressBlock(address string) string {
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

// AddressSite is the wider network an IPv6 address's block belongs to: its /48, what one
// site is given (many /64s). "" for an IPv4 address or anything else: its block is all.
// block may be an address or AddressBlock's answer.
func AddressSite(block string) string {
	var ip netip.Addr
	if p, err := netip.ParsePrefix(block); err == nil {
		ip = p.Addr()
	} else if a, err := netip.ParseAddr(block); err == nil {
		ip = a.Unmap()
	}
	if !ip.Is6() {
		return ""
	}
	p, _ := ip.Prefix(48)
	return p.String()
}
