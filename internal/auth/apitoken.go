package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// APITokenPrefix starts every API token, so that one pasted somewhere it should not be is
// recognisable (and findable by secret scanners).
const APITokenPrefix = "emr_pat_"

// Limits of API tokens: how long one may live, and how many live ones an account may hold.
const (
	MaxTokenLifetime  = 2 * 365 * 24 * time.Hour
	MinTokenLifetime  = time.Hour
	MaxTokensPerUser  = 20
	maxTokenName      = 100
	tokenTouchEvery   = time.Minute
	DefaultTokenValid = 90 * 24 * time.Hour
)

// APIToken is a stored token, as lists show it: never the token itself.
type APIToken struct {
	ID              int64      `json:"id"`
	UserID          int64      `json:"user_id"`
	Name            string     `json:"name"`
	Scopes          string     `json:"scopes"`
	CreatedAt       time.Time  `json:"created_at"`
	CreatedBy       *int64     `json:"created_by"`
	ExpiresAt       time.Time  `json:"expires_at"`
	LastUsedAt      *time.Time `json:"last_used_at"`
	LastUsedAddress string     `json:"last_used_address"`
	RevokedAt       *time.Time `json:"revoked_at"`
	// RevokedReason says why it ended: revoked by hand, or a remedy of its account
	// (EndedPasswordChanged…); "" while live.
	RevokedReason string `json:"revoked_reason"`
}

// NewAPIToken is what a token is created with.
type NewAPIToken struct {
	UserID   int64
	Name     string
	Scopes   string
	Lifetime time.Duration
	// Epoch is the account's credential epoch as read before its maker was re-authenticated
	// (CredentialEpoch, beside the account's being active): the token is stored only while
	// it is unchanged — every remedy counts it up, deactivation too — so one made while a
	// remedy commits is refused (409). `emr token create` reads it too (before the account's
	// being active); nil checks nothing.
	Epoch *int64
	// Maker is the browser session making the token (nil for a command run on the server):
	// the token is stored only while that session still exists. Every remedy of the maker's
	// account (its password changed elsewhere or reset, deactivated, its second factor
	// changed) ends the maker's other sessions, so a request held open across such a remedy
	// — its body sent only once the remedy committed — stores nothing.
	Maker *Principal
}

// CredentialEpoch reads the account's credential epoch, counted up by every remedy of the
// account (EndTokens); 0 before its first.
func CredentialEpoch(ctx context.Context, q database.Querier, userID int64) (int64, error) {
	var epoch int64
	err := q.QueryRowContext(ctx, `SELECT epoch FROM credential_epochs WHERE user_id = $1`, userID).Scan(&epoch)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("read the credential epoch: %w", err)
	}
	return epoch, nil
}

// APITokens keeps API tokens: bearer credentials for programs, each one its account
// (ADR 35). Only their SHA-256 is stored.
type APITokens struct {
	DB       *database.DB
	Sessions *Sessions // who a token's account is, read as a session's is
}

func (t *APITokens) now() time.Time { return t.Sessions.now() }

// Check trims and checks n, returning its scopes in their stored form.
func (n *NewAPIToken) Check() (string, error) {
	n.Name = strings.TrimSpace(n.Name)
	var v apperr.Validation
	switch {
	case n.Name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(n.Name) > maxTokenName:
		v.Add("name", "validation.too_long")
	case strings.ContainsFunc(n.Name, unicode.IsControl):
		// One line: a name with a line break or tab would forge lines of the audit log's
		// detail, of a mailed reminder, or of a screen's list.
		v.Add("name", "validation.one_line")
	}
	if n.Lifetime < MinTokenLifetime || n.Lifetime > MaxTokenLifetime {
		v.Add("expires_in_days", "api_token.lifetime")
	}
	scopes, err := ParseScopes(n.Scopes, "user") // patient/ needs a launch context tokens lack
	if err != nil {
		var e *apperr.Error
		if errors.As(err, &e) {
			v.AddWith("scopes", e.Key, e.Args...)
		}
	}
	if err := v.Err(); err != nil {
		return "", err
	}
	return FormatScopes(scopes), nil
}

// Create stores a new token for n.UserID and returns it: the only time it is seen.
func (t *APITokens) Create(ctx context.Context, e audit.Event, n NewAPIToken) (string, APIToken, error) {
	scopes, err := n.Check()
	if err != nil {
		return "", APIToken{}, err
	}
	token := APITokenPrefix + NewToken()
	now := t.now()
	var id int64
	err = t.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := t.stillCurrent(ctx, tx, n); err != nil {
			return err
		}
		if hook := afterEpochCheck.Load(); hook != nil {
			(*hook)(n.UserID)
		}
		var live int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
			n.UserID, now).Scan(&live); err != nil {
			return fmt.Errorf("count tokens: %w", err)
		}
		if live >= MaxTokensPerUser {
			return apperr.Conflict("api_token.too_many", MaxTokensPerUser)
		}
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, scopes, created_at, created_by, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, n.UserID, n.Name, hashToken(token), scopes, now, by, now.Add(n.Lifetime)).Scan(&id); err != nil {
			return fmt.Errorf("create token: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_token.create", "user", strconv.FormatInt(n.UserID, 10), audit.Success, now
		e.Detail = fmt.Sprintf("token %d %q, scopes %q, expires %s", id, n.Name, scopes, now.Add(n.Lifetime).Format(time.DateOnly))
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return "", APIToken{}, err
	}
	got, err := t.Get(ctx, id)
	return token, got, err
}

// afterEpochCheck, set only by tests, runs in Create's transaction once the epoch is
// checked, before the insert: where a remedy must wait for the token, then end it.
var afterEpochCheck atomic.Pointer[func(userID int64)]

// stillCurrent checks, in Create's transaction, that the credential epoch of n's account is
// still n.Epoch (nothing to check without one). On PostgreSQL the epoch's row is made if
// missing (an insert that waits for a remedy inserting it) and read FOR SHARE: a remedy
// counting it up (EndTokens) waits for this transaction, whose token it then ends, or this
// read waits for the remedy and sees its epoch. SQLite's write transactions run one at a time.
func (t *APITokens) stillCurrent(ctx context.Context, tx *sql.Tx, n NewAPIToken) error {
	if n.Epoch == nil {
		return nil
	}
	q := `SELECT epoch FROM credential_epochs WHERE user_id = $1`
	if t.DB.Engine == database.Postgres {
		if _, err := tx.ExecContext(ctx, `INSERT INTO credential_epochs (user_id, epoch) VALUES ($1, 0) ON CONFLICT (user_id) DO NOTHING`, n.UserID); err != nil {
			return fmt.Errorf("hold the credential epoch: %w", err)
		}
		q += ` FOR SHARE`
	}
	var epoch int64 // no row (SQLite, before the account's first remedy): 0
	if err := tx.QueryRowContext(ctx, q, n.UserID).Scan(&epoch); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read the credential epoch: %w", err)
	}
	if epoch != *n.Epoch {
		return apperr.Conflict("api_token.credentials_changed")
	}
	if m := n.Maker; m != nil && m.tokenHash != "" {
		q := `SELECT 1 FROM sessions WHERE token_hash = $1`
		if t.DB.Engine == database.Postgres {
			q += ` FOR SHARE` // a remedy ending it waits for the token, then ends it with the rest
		}
		var one int
		err := tx.QueryRowContext(ctx, q, m.tokenHash).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.Conflict("api_token.credentials_changed")
		}
		if err != nil {
			return fmt.Errorf("read the maker's session: %w", err)
		}
	}
	return nil
}

const tokenColumns = `id, user_id, name, scopes, created_at, created_by, expires_at, last_used_at, last_used_address, revoked_at, revoked_reason`

func scanToken(row interface{ Scan(...any) error }) (APIToken, error) {
	var k APIToken
	var by sql.NullInt64
	var used, revoked sql.NullTime
	if err := row.Scan(&k.ID, &k.UserID, &k.Name, &k.Scopes, &k.CreatedAt, &by, &k.ExpiresAt, &used, &k.LastUsedAddress, &revoked, &k.RevokedReason); err != nil {
		return k, err
	}
	if by.Valid {
		k.CreatedBy = &by.Int64
	}
	if used.Valid {
		k.LastUsedAt = &used.Time
	}
	if revoked.Valid {
		k.RevokedAt = &revoked.Time
	}
	return k, nil
}

// Get returns one token.
func (t *APITokens) Get(ctx context.Context, id int64) (APIToken, error) {
	k, err := scanToken(t.DB.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, apperr.NotFound("api_token.not_found")
	}
	if err != nil {
		return k, fmt.Errorf("read token: %w", err)
	}
	return k, nil
}

// List returns the tokens of userID, or of every account when userID is 0, newest first;
// revoked and expired ones stay listed for a month after, then drop off the list.
func (t *APITokens) List(ctx context.Context, userID int64) ([]APIToken, error) {
	since := t.now().Add(-30 * 24 * time.Hour)
	query := `SELECT ` + tokenColumns + ` FROM api_tokens WHERE (revoked_at IS NULL OR revoked_at > $1) AND expires_at > $1`
	args := []any{since}
	if userID != 0 {
		query += ` AND user_id = $2`
		args = append(args, userID)
	}
	rows, err := t.DB.QueryContext(ctx, query+` ORDER BY id DESC LIMIT 500`, args...)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	out := []APIToken{}
	for rows.Next() {
		k, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Revoke ends token id at once; owner, when not 0, must be its account (an account
// holder revoking their own). Revoking a revoked token changes nothing.
func (t *APITokens) Revoke(ctx context.Context, e audit.Event, id, owner int64) (APIToken, error) {
	now := t.now()
	err := t.DB.Tx(ctx, func(tx *sql.Tx) error {
		k, err := scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE id = $1`, id))
		if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != 0 && k.UserID != owner) {
			return apperr.NotFound("api_token.not_found")
		}
		if err != nil {
			return fmt.Errorf("read token: %w", err)
		}
		if k.RevokedAt != nil {
			return nil
		}
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = $1, revoked_by = $2, revoked_reason = $3 WHERE id = $4`, now, by, EndedRevoked, id); err != nil {
			return fmt.Errorf("revoke token: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_token.revoke", "user", strconv.FormatInt(k.UserID, 10), audit.Success, now
		e.Detail = fmt.Sprintf("token %d %q", id, k.Name)
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return APIToken{}, err
	}
	return t.Get(ctx, id)
}

// Lookup returns the principal of a live token — its account as a session of it would be,
// narrowed by the token's scopes — or apperr.ErrUnauthenticated when the token is unknown,
// expired, revoked or its account deactivated. address is recorded as the last use's.
func (t *APITokens) Lookup(ctx context.Context, token, address string) (*Principal, error) {
	if !strings.HasPrefix(token, APITokenPrefix) {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	now := t.now()
	hash := hashToken(token)
	p := &Principal{}
	var scopes, lastAddress string
	var expires time.Time
	var used, revoked sql.NullTime
	var epoch int64
	var name string
	err := t.DB.QueryRowContext(ctx, `SELECT id, user_id, name, scopes, expires_at, last_used_at, last_used_address, revoked_at,
		(SELECT value FROM identity_epoch WHERE id = 1) FROM api_tokens WHERE token_hash = $1`, hash).
		Scan(&p.TokenID, &p.UserID, &name, &scopes, &expires, &used, &lastAddress, &revoked, &epoch)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (revoked.Valid || !expires.After(now))) {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	if err != nil {
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if err := t.Sessions.fill(ctx, p, epoch, now); err != nil {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	p.TokenName = name
	if scopes != "" {
		var refused *apperr.Error
		if p.Scopes, err = ParseScopes(scopes, "user"); errors.As(err, &refused) && refused.Key == "scope.patient_context" {
			return nil, apperr.Forbidden("scope.patient_context") // a row no instance writes since migration 36
		} else if err != nil {
			return nil, fmt.Errorf("token %d scopes: %w", p.TokenID, err)
		}
	}
	if !used.Valid || now.Sub(used.Time) > tokenTouchEvery || lastAddress != address {
		if _, err := t.DB.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = $1, last_used_address = $2 WHERE id = $3`, now, address, p.TokenID); err != nil {
			return nil, fmt.Errorf("touch token: %w", err)
		}
	}
	return p, nil
}

// BearerToken is the request's bearer credential ("" when it has none) and whether it
// has an Authorization header at all (of any scheme).
func BearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(token), true
}
