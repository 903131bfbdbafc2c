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
	// Emergency is the user's active emergency-access grant, nil when none; its
	// permissions are already in Permissions.
	Emergency *Emergency
	tokenHash string
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
	DB       *database.DB
	Idle     time.Duration // a session unused this long ends
	Lifetime time.Duration // a session ends this long after login, used or not
	Now      func() time.Time
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
	var lastSeen time.Time
	err := s.DB.QueryRowContext(ctx, `SELECT u.id, u.username, u.name, u.avatar, u.introduction, u.must_change_password, s.last_seen_at,
			EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.require_two_factor)
			AND NOT EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL)
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3 AND u.active`,
		p.tokenHash, now, now.Add(-s.Idle)).Scan(&p.UserID, &p.Username, &p.Name, &p.Avatar, &p.Intro, &p.MustChangePassword, &lastSeen, &p.MustEnrolTwoFactor)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.Unauthenticated("auth.unauthenticated")
	}
	if err != nil {
		return nil, fmt.Errorf("look up session: %w", err)
	}
	if now.Sub(lastSeen) > touchEvery {
		if _, err := s.DB.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2`, now, p.tokenHash); err != nil {
			return nil, fmt.Errorf("touch session: %w", err)
		}
	}
	if p.Roles, p.Permissions, err = RolesAndPermissions(ctx, s.DB, p.UserID); err != nil {
		return nil, err
	}
	g, err := ActiveEmergency(ctx, s.DB, p.UserID, now)
	if err != nil {
		return nil, err
	}
	p.withEmergency(g)
	return p, nil
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
	if _, err := q.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, p.UserID, p.tokenHash); err != nil {
		return fmt.Errorf("revoke other sessions: %w", err)
	}
	return nil
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

// RoleNames returns the names of a user's roles, sorted.
func RoleNames(ctx context.Context, q database.Querier, userID int64) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
		WHERE ur.user_id = $1 ORDER BY r.name`, userID)
	if err != nil {
		return nil, fmt.Errorf("load roles: %w", err)
	}
	roles, err := collect[string](rows)
	if err != nil {
		return nil, fmt.Errorf("load roles: %w", err)
	}
	return roles, nil
}

// RolesAndPermissions returns a user's role names and the permissions they grant, as
// stored. Admins are given the whole catalogue.
func RolesAndPermissions(ctx context.Context, q database.Querier, userID int64) ([]string, []Permission, error) {
	roles, err := RoleNames(ctx, q, userID)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range roles {
		if r == AdminRole {
			return roles, append([]Permission(nil), Catalogue...), nil
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT rp.permission FROM user_roles ur
		JOIN role_permissions rp ON rp.role_id = ur.role_id WHERE ur.user_id = $1 ORDER BY rp.permission`, userID)
	if err != nil {
		return nil, nil, fmt.Errorf("load permissions: %w", err)
	}
	perms, err := collect[Permission](rows)
	if err != nil {
		return nil, nil, fmt.Errorf("load permissions: %w", err)
	}
	return roles, perms, nil
}

func collect[T any](rows *sql.Rows) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
