package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"emr/internal/audit"
)

// The token endpoint's refused requests are counted as the login's wrong passwords are
// (docs/adr/0017): in the login's throttle table, so every instance shares the counts; a
// request takes its slots before its assertion is checked, and an issued token gives them
// back. Keys: "token-addr:" and the address block (an IPv4 address, an IPv6 /64), and
// "token-client:" and the client_id the assertion claims (its iss, unverified: whoever
// floods a client's name is counted against that name).
//
// A window's refusals are written to the audit log as one row when the window has ended
// (one row per address block and window, with the count; one per claimed client and window
// when that client was over its limit), not one row per refusal: a flood writes a counter,
// not the audit log.
const (
	// TokenAddressLimit is how many refused token requests an address block may make in a
	// window. A client set up right is refused rarely (a clock out of step, a key rotated on
	// one side only); twenty lets its integrator find out why, and keeps a flood from one
	// address to twenty signature checks.
	TokenAddressLimit = 20
	// TokenClientLimit is how many refused requests may claim one client in a window from
	// every address together (a flood from many addresses naming one client).
	TokenClientLimit = 30
	// TokenWindow is the window of both, as the login's.
	TokenWindow = ThrottleWindow

	tokenAddrKey   = "token-addr:"
	tokenClientKey = "token-client:"
)

// tokenSlots are the slots one token request took.
type tokenSlots struct {
	addr, client string // the keys taken ("" when not)
}

// takeTokenSlot counts a request for key and answers how long to wait when it is over
// limit (0: it may be checked). A window that has ended is closed first (its count goes
// to the audit log) so that it is never reset in place and its count lost.
func (c *Clients) takeTokenSlot(ctx context.Context, key string, limit int) (time.Duration, error) {
	now := c.now()
	var start time.Time
	var tries int
	err := c.DB.QueryRowContext(ctx, `UPDATE login_throttle SET tries = tries + 1 WHERE key = $1 AND window_start > $2 RETURNING window_start, tries`,
		key, now.Add(-TokenWindow)).Scan(&start, &tries)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := c.closeWindows(ctx, key); err != nil {
			return 0, err
		}
		err = c.DB.QueryRowContext(ctx, `INSERT INTO login_throttle (key, window_start, tries) VALUES ($1, $2, 1)
			ON CONFLICT (key) DO UPDATE SET tries = login_throttle.tries + 1 RETURNING window_start, tries`, key, now).Scan(&start, &tries)
	}
	if err != nil {
		return 0, fmt.Errorf("count a token request: %w", err)
	}
	if tries <= limit {
		return 0, nil
	}
	return max(start.Add(TokenWindow).Sub(now), time.Second), nil
}

// giveBack returns the slots of a request that was not the caller's failure (a token
// issued, or the server's own error).
func (c *Clients) giveBack(ctx context.Context, s tokenSlots) error {
	t := &Throttle{DB: c.DB}
	for _, key := range []string{s.addr, s.client} {
		if key != "" {
			if err := t.GiveBack(ctx, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// knownAddress reports whether the client named clientID last got a token from address's
// block: a limit does not stop a client at its usual address (its signature is checked,
// as a known account's password is at a throttled address).
func (c *Clients) knownAddress(ctx context.Context, clientID, address string) (bool, error) {
	if clientID == "" {
		return false, nil
	}
	var last string
	err := c.DB.QueryRowContext(ctx, `SELECT last_used_address FROM api_clients WHERE client_id = $1 AND revoked_at IS NULL`, clientID).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read a client's address: %w", err)
	}
	return last != "" && AddressBlock(last) == AddressBlock(address), nil
}

// throttleToken takes a token request's slots before its assertion is checked: the
// address block's, then the claimed client's. Over a limit, and not from the claimed
// client's usual address, it is refused unchecked (429 with Retry-After). A public client's
// (CountedPublic) is refused over the address block's limit alone, and has no usual address.
func (c *Clients) throttleToken(ctx context.Context, address, claimed string, public bool) (tokenSlots, error) {
	s := tokenSlots{addr: tokenAddrKey + AddressBlock(address)}
	wait, err := c.takeTokenSlot(ctx, s.addr, TokenAddressLimit)
	if err != nil {
		return tokenSlots{}, err
	}
	known := false
	if wait > 0 {
		if !public {
			known, err = c.knownAddress(ctx, claimed, address)
		}
		if err != nil {
			return tokenSlots{}, err
		}
		if !known {
			return tokenSlots{}, throttled(wait, "too many refused token requests from this address")
		}
	}
	if claimed == "" {
		return s, nil
	}
	s.client = tokenClientKey + claimed
	if wait, err = c.takeTokenSlot(ctx, s.client, TokenClientLimit); err != nil {
		return tokenSlots{}, err
	}
	if wait > 0 && !known && !public {
		if known, err = c.knownAddress(ctx, claimed, address); err != nil {
			return tokenSlots{}, err
		}
		if !known {
			return tokenSlots{}, throttled(wait, "too many refused token requests for this client")
		}
	}
	return s, nil
}

// throttled is a request refused unchecked: RFC 6749 §5.2's body, with the code of the
// OAuth registry's token error "slow_down" (RFC 8628 §3.5), answered 429 (RFC 6585) with
// Retry-After.
func throttled(wait time.Duration, why string) *OAuthError {
	return &OAuthError{Code: "slow_down", Description: fmt.Sprintf("%s; try again in %d seconds", why, Seconds(wait)), RetryAfter: wait}
}

// CloseRefusalWindows writes the count of every token-request window that has ended to the
// audit log and forgets it; it reports how many windows it closed. The server runs it in
// the background, well before the throttle's sweep would drop a window unwritten.
func (c *Clients) CloseRefusalWindows(ctx context.Context) (int, error) {
	return c.closeWindows(ctx, "")
}

// closeWindows closes the ended windows of key (every token key when key is ""), in one
// transaction with their audit rows: a window is written once, by whichever instance
// deletes it.
func (c *Clients) closeWindows(ctx context.Context, key string) (int, error) {
	now := c.now()
	ended := now.Add(-TokenWindow)
	n := 0
	err := c.DB.Tx(ctx, func(tx *sql.Tx) error {
		n = 0
		var rows *sql.Rows
		var err error
		if key != "" {
			rows, err = tx.QueryContext(ctx, `DELETE FROM login_throttle WHERE key = $1 AND window_start <= $2 RETURNING key, window_start, tries`, key, ended)
		} else {
			rows, err = tx.QueryContext(ctx, `DELETE FROM login_throttle WHERE (key LIKE 'token-addr:%' OR key LIKE 'token-client:%') AND window_start <= $1
				RETURNING key, window_start, tries`, ended)
		}
		if err != nil {
			return fmt.Errorf("close token windows: %w", err)
		}
		type window struct {
			key   string
			start time.Time
			tries int
		}
		var closed []window
		for rows.Next() {
			var w window
			if err := rows.Scan(&w.key, &w.start, &w.tries); err != nil {
				rows.Close()
				return err
			}
			closed = append(closed, w)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, w := range closed {
			e, ok := refusalEvent(w.key, w.start.UTC(), w.tries)
			if !ok {
				continue
			}
			e.At = now
			if err := audit.Record(ctx, tx, e); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// refusalEvent is the audit row of one ended window: every address block's window with a
// refusal, a claimed client's only when it went over its limit (a flood naming it; random
// names sent from under the address limit are counted by their address's row).
func refusalEvent(key string, start time.Time, tries int) (audit.Event, bool) {
	e := audit.Event{Action: "api_client.token", EntityType: "api_client", Outcome: audit.Denied}
	span := start.Format(time.RFC3339) + " – " + start.Add(TokenWindow).Format(time.RFC3339)
	switch {
	case strings.HasPrefix(key, tokenAddrKey) && tries > 0:
		e.Address = strings.TrimPrefix(key, tokenAddrKey)
		e.ActorName = "address:" + e.Address
		e.Detail = fmt.Sprintf("%d refused token requests from %s in %s", tries, e.Address, span)
		if over := tries - TokenAddressLimit; over > 0 {
			e.Detail += fmt.Sprintf(" (%d of them refused unchecked, over the limit of %d)", over, TokenAddressLimit)
		}
	case strings.HasPrefix(key, tokenClientKey) && tries > TokenClientLimit:
		claimed := strings.TrimPrefix(key, tokenClientKey)
		e.ActorName = "client:" + claimed
		e.Detail = fmt.Sprintf("%d refused token requests claiming client %s in %s (%d of them refused unchecked, over the limit of %d)",
			tries, claimed, span, tries-TokenClientLimit, TokenClientLimit)
	default:
		return e, false
	}
	return e, true
}
