package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/database"
)

// Principal is the logged-in user behind a request, as stored (never as the browser says).
type Principal struct {
	UserID      int64
	Username    string
	Name        string
	Avatar      string
	Intro       string
	Roles       []string
	Permissions []Permission
	// MustChangePassword is set after an administrator's reset: until the user changes the
	// password, only the routes that lead there answer.
	MustChangePassword bool
	// MustEnrolTwoFactor: a role of the user requires two-factor sign-in and the user has not
	// set it up; until then the session can only set it up (or change the password).
	MustEnrolTwoFactor bool
	// TwoFactorRequired: one of the user's roles requires two-factor sign-in.
	TwoFactorRequired bool
	// Emergency is the user's active emergency-access grant, nil when none; its
	// permissions are already in Permissions.
	Emergency *Emergency
	// TokenID is the API token the request came with (0: a browser session). Scopes, when
	// not nil, narrow what the token may do on the FHIR API; a scoped token may not call the
	// native API at all.
	TokenID int64
	// TokenName is the API token's name, as its owner gave it (for the audit log).
	TokenName string
	Scopes    []Scope
	// ClientID is the backend client (a system, no person) the request came from, 0 for a
	// user: its scopes alone say what it may do, on the FHIR API only.
	ClientID int64
	// GrantID is the SMART app grant whose access token the request came with (0: none):
	// the account's, as a token's, narrowed by the grant's scopes. AppClientID is the app's
	// client_id (TokenName its name). LaunchPatient is the patient in the launch's context:
	// what the grant's patient/ scopes reach.
	GrantID       int64
	AppClientID   string
	LaunchPatient int64
	// Confined is the patient this request's route is confined to, for the route's own type
	// and interaction (0: none): set by the guard (ConfinedFor) and honoured by the FHIR
	// API's search conditions. What each answered resource may be is ConfinedFor its type.
	Confined  int64
	tokenHash string
}

// ByCredential reports whether the request came with a credential (an API token, a backend
// client's or a SMART app's token) rather than a browser session.
func (p *Principal) ByCredential() bool { return p.TokenID != 0 || p.ClientID != 0 || p.GrantID != 0 }

// Identity is who an account is, as its record and roles say: what a session's principal
// is made of.
type Identity struct {
	Username, Name, Avatar, Intro string
	MustChangePassword            bool
	Roles                         []string
	Permissions                   []Permission
	TwoFactorRequired             bool
	// Emergency is the grant in force, nil when none.
	Emergency *Emergency
}

// Identities tells who an account is. The accounts' owner provides it (auth knows no
// accounts table), so that every session lookup reads the account as stored.
type Identities interface {
	// Identity is userID's identity at now; nil, and no error, for an account that is
	// deactivated or gone.
	Identity(ctx context.Context, userID int64, now time.Time) (*Identity, error)
}

// IsAdmin reports whether the principal holds the admin role.
func (p *Principal) IsAdmin() bool {
	for _, r := range p.Roles {
		if r == AdminRole {
			return true
		}
	}
	return false
}

// Can reports whether the principal holds perm; admins hold every permission.
func (p *Principal) Can(perm Permission) bool {
	if p.IsAdmin() {
		return true
	}
	for _, have := range p.Permissions {
		if have == perm {
			return true
		}
	}
	return false
}

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the request's principal, or nil for an anonymous request.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Sessions stores login sessions server-side, keyed by the SHA-256 of the cookie's token.
type Sessions struct {
	DB *database.DB
	// Identities reads who a session's user is.
	Identities Identities
	Idle       time.Duration // a session unused this long ends
	Lifetime   time.Duration // a session ends this long after login, used or not
	Now        func() time.Time

	cache identityCache
}

// identityCache keeps who each account is between requests, as of one identity epoch: the
// number the database moves, in the same transaction, with every change to accounts, roles,
// permissions, grants and second factors (migration 00013). A lookup reads the epoch with the
// session, in one query; when it has moved, every entry is read again.
type identityCache struct {
	mu      sync.Mutex
	epoch   int64
	entries map[int64]cachedIdentity
}

type cachedIdentity struct {
	id       *Identity // nil: deactivated or gone
	enrolled bool      // has a confirmed second factor (read only when a role requires one)
	until    time.Time // read again after this: a grant's end, or a minute
}

// identityFresh is how long an entry is kept at most, whatever the epoch says.
const identityFresh = time.Minute

func (c *identityCache) get(epoch, userID int64, now time.Time) (cachedIdentity, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return cachedIdentity{}, false
	}
	e, ok := c.entries[userID]
	if !ok || !now.Before(e.until) {
		return cachedIdentity{}, false
	}
	return e, true
}

func (c *identityCache) put(epoch, userID int64, e cachedIdentity) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch < c.epoch {
		return // read before a newer change was seen
	}
	if epoch > c.epoch || c.entries == nil {
		c.epoch, c.entries = epoch, map[int64]cachedIdentity{}
	}
	c.entries[userID] = e
}

// touchEvery limits the write that records a session's last use to once a minute.
const touchEvery = time.Minute

func (s *Sessions) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewToken returns a random, URL-safe token of 32 bytes.
func NewToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // the system's random source never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Create starts a session for userID and returns the token for its cookie.
func (s *Sessions) Create(ctx context.Context, userID int64, address, userAgent string) (string, error) {
	token := NewToken()
	now := s.now()
	if len(userAgent) > 300 {
		userAgent = userAgent[:300]
	}
	_, err := s.DB.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, address, user_agent)
		VALUES ($1, $2, $3, $3, $4, $5, $6)`, hashToken(token), userID, now, now.Add(s.Lifetime), address, userAgent)
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	// Expired sessions of anyone are swept here, at login, rather than by a timer.
	if _, err := s.DB.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2`, now, now.Add(-s.Idle)); err != nil {
		return "", fmt.Errorf("sweep sessions: %w", err)
	}
	return token, nil
}

// Lookup returns the principal of a live session, or apperr.ErrUnauthenticated when the
// token is unknown, expired, idle too long, or its user is deactivated.
func (s *Sessions) Lookup(ctx context.Context, token string) (*Principal, error) {
	if token == "" {
		return nil, apperr.Unauthenticated("auth.unauthenticated")
	}
	now := s.now()
	p := &Principal{tokenHash: hashToken(token)}
	var lastSeen, expires time.Time
	var epoch int64
	// The times are checked here rather than in the query: a statement whose plan could
	// depend on a bound range value is planned again at every call on SQLite.
	err := s.DB.QueryRowContext(ctx, `SELECT user_id, last_seen_at, expires_at, (SELECT value FROM identity_epoch WHERE id = 1)
		FROM sessions WHERE token_hash = $1`, p.tokenHash).Scan(&p.UserID, &lastSeen, &expires, &epoch)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (!expires.After(now) || !lastSeen.After(now.Add(-s.Idle)))) {
		return nil, apperr.Unauthenticated("auth.unauthenticated")
	}
	if err != nil {
		return nil, fmt.Errorf("look up session: %w", err)
	}
	if err := s.fill(ctx, p, epoch, now); err != nil {
		return nil, err
	}
	if now.Sub(lastSeen) > touchEvery {
		if _, err := s.DB.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2`, now, p.tokenHash); err != nil {
			return nil, fmt.Errorf("touch session: %w", err)
		}
	}
	return p, nil
}

// fill completes p (its UserID set) with who its account is as of epoch: roles,
// permissions, an emergency grant in force. A deactivated or deleted account is
// apperr.ErrUnauthenticated: its sessions and tokens end with it.
func (s *Sessions) fill(ctx context.Context, p *Principal, epoch int64, now time.Time) error {
	known, err := s.identity(ctx, epoch, p.UserID, now)
	if err != nil {
		return err
	}
	id := known.id
	if id == nil {
		return apperr.Unauthenticated("auth.unauthenticated")
	}
	p.Username, p.Name, p.Avatar, p.Intro, p.MustChangePassword = id.Username, id.Name, id.Avatar, id.Intro, id.MustChangePassword
	p.Roles, p.Permissions, p.TwoFactorRequired = id.Roles, slices.Clone(id.Permissions), id.TwoFactorRequired
	p.MustEnrolTwoFactor = id.TwoFactorRequired && !known.enrolled
	p.withEmergency(id.Emergency)
	return nil
}

// identity is userID's identity as of epoch, from the cache or read and kept.
func (s *Sessions) identity(ctx context.Context, epoch, userID int64, now time.Time) (cachedIdentity, error) {
	if e, ok := s.cache.get(epoch, userID, now); ok {
		return e, nil
	}
	id, err := s.Identities.Identity(ctx, userID, now)
	if err != nil {
		return cachedIdentity{}, err
	}
	e := cachedIdentity{id: id, until: now.Add(identityFresh)}
	if id != nil && id.Emergency != nil && id.Emergency.ExpiresAt.Before(e.until) {
		e.until = id.Emergency.ExpiresAt
	}
	if id != nil && id.TwoFactorRequired {
		if e.enrolled, err = s.twoFactorEnrolled(ctx, userID); err != nil {
			return cachedIdentity{}, err
		}
	}
	s.cache.put(epoch, userID, e)
	return e, nil
}

// twoFactorEnrolled reports whether userID has a confirmed second factor.
func (s *Sessions) twoFactorEnrolled(ctx context.Context, userID int64) (bool, error) {
	var ok bool
	err := s.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL)`, userID).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("read two-factor status: %w", err)
	}
	return ok, nil
}

// Revoke ends the session of p (logout).
func (s *Sessions) Revoke(ctx context.Context, p *Principal) error {
	_, err := s.DB.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, p.tokenHash)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// RevokeOthers ends every session of p's user except p's own (after a password change),
// inside the caller's transaction when q is one.
func (s *Sessions) RevokeOthers(ctx context.Context, q database.Querier, p *Principal) error {
	return endSessionsBut(ctx, q, p.UserID, p.tokenHash)
}

// endSessionsBut ends every session of userID but the one whose token hashes to keep ("":
// every one).
func endSessionsBut(ctx context.Context, q database.Querier, userID int64, keep string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, userID, keep); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	return nil
}

// Alive reports, without counting it as a use, whether the session with token is still
// live (a push socket asks, to close when its session has ended).
func (s *Sessions) Alive(ctx context.Context, token string) (bool, error) {
	return s.aliveHash(ctx, hashToken(token))
}

// aliveHash is Alive of the session whose token hashes to hash.
func (s *Sessions) aliveHash(ctx context.Context, hash string) (bool, error) {
	var lastSeen, expires time.Time
	err := s.DB.QueryRowContext(ctx, `SELECT last_seen_at, expires_at FROM sessions WHERE token_hash = $1`, hash).Scan(&lastSeen, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up session: %w", err)
	}
	now := s.now()
	return expires.After(now) && lastSeen.After(now.Add(-s.Idle)), nil
}

// EndSessions ends every session of a user (deactivated, or given a temporary password),
// inside the caller's transaction when q is one.
func EndSessions(ctx context.Context, q database.Querier, userID int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	return nil
}

// RevokeToken ends the session with token, if there is one.
func (s *Sessions) RevokeToken(ctx context.Context, token string) error {
	_, err := s.DB.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, hashToken(token))
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// EphemeralTables hold state a backup leaves out: sessions and login throttling start empty
// after a restore (everyone signs in again).
var EphemeralTables = []string{"sessions", "login_throttle", "login_known_addresses"}
