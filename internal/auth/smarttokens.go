package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
)

// AppIssued is a SMART app's token answer (SMART App Launch 2.0 §"Response"), before the
// id_token, which the FHIR side signs.
type AppIssued struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	Scope        string `json:"scope"`
	Patient      string `json:"patient,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
	IDToken      string `json:"id_token,omitempty"`
	// UserID is the account the tokens act as, ClientID the app's (the id_token's aud: a
	// refresh may leave client_id out), and Nonce the authorization request's.
	UserID   int64  `json:"-"`
	ClientID string `json:"-"`
	Nonce    string `json:"-"`
}

// grantRow is a grant as a token request reads it.
type grantRow struct {
	id, appID, userID int64
	clientID, name    string
	patient           sql.NullInt64
	scopes            string
	epoch             int64
	expires           time.Time
	revoked           bool
}

const grantFrom = `g.id, g.app_id, g.user_id, a.client_id, a.name, g.patient_id, g.scopes, g.epoch, g.expires_at,
	g.revoked_at IS NOT NULL OR a.revoked_at IS NOT NULL`

func (g *grantRow) targets() []any {
	return []any{&g.id, &g.appID, &g.userID, &g.clientID, &g.name, &g.patient, &g.scopes, &g.epoch, &g.expires, &g.revoked}
}

// The kinds of smart_tokens rows. An access token narrowed by its refresh request (scope,
// RFC 6749 §6) keeps the scopes it carries in the row; one carrying its grant's has none.
const (
	kindAccess  = "access"
	kindRefresh = "refresh"
)

// carriedScopes is what an access token's row keeps of its scopes: nothing when they are
// its grant's (nil).
func carriedScopes(scopes []string) sql.NullString {
	if scopes == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: strings.Join(scopes, " "), Valid: true}
}

// verifierMatches checks a PKCE code_verifier against its S256 challenge (RFC 7636 §4.6): a
// verifier is 43 to 128 characters of the unreserved set [A-Za-z0-9-._~] (§4.1), any other
// is no verifier at all.
func verifierMatches(verifier, challenge string) bool {
	if !pkceVerifier(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// pkceVerifier reports whether v has the form of a code_verifier (RFC 7636 §4.1).
func pkceVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	return !strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~')
	})
}

// Exchange answers grant_type=authorization_code for a public client: the code must be
// live, unused, the client's, asked for with this redirect URI, and the verifier must match
// its PKCE challenge. A code is spent by any attempt that names its client, right or wrong:
// a second use — a replay of an intercepted code, or the real app's after an attacker's —
// revokes the grant with every token the first issued (RFC 6749 §4.1.2).
func (a *Apps) Exchange(ctx context.Context, e audit.Event, clientID, code, redirectURI, verifier string) (AppIssued, error) {
	if code == "" || clientID == "" {
		return AppIssued{}, oauthErr("invalid_request", "code and client_id are required")
	}
	now := a.now()
	var g grantRow
	var wantURI, challenge, nonce string
	var expires time.Time
	var used sql.NullTime
	err := a.DB.QueryRowContext(ctx, `SELECT `+grantFrom+`, c.redirect_uri, c.code_challenge, c.nonce, c.expires_at, c.used_at
		FROM smart_codes c JOIN smart_grants g ON g.id = c.grant_id JOIN smart_apps a ON a.id = g.app_id WHERE c.code_hash = $1`, hashToken(code)).
		Scan(append(g.targets(), &wantURI, &challenge, &nonce, &expires, &used)...)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && g.clientID != clientID) {
		return AppIssued{}, oauthErr("invalid_grant", "unknown code, or another client's")
	}
	if err != nil {
		return AppIssued{}, fmt.Errorf("read code: %w", err)
	}
	res, err := a.DB.ExecContext(ctx, `UPDATE smart_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL`, now, hashToken(code))
	if err != nil {
		return AppIssued{}, fmt.Errorf("spend code: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 || used.Valid {
		if err := a.endGrant(ctx, e, g, GrantCodeReused); err != nil {
			return AppIssued{}, err
		}
		return AppIssued{}, oauthErr("invalid_grant", "the code was used already: the tokens it gave are revoked")
	}
	switch {
	case !expires.After(now):
		return AppIssued{}, oauthErr("invalid_grant", "the code expired")
	case redirectURI != wantURI:
		return AppIssued{}, oauthErr("invalid_grant", "redirect_uri differs from the authorization request's")
	case !verifierMatches(verifier, challenge):
		return AppIssued{}, oauthErr("invalid_grant", "the code_verifier does not match the code_challenge")
	}
	issued, err := a.issue(ctx, e, g, "authorization_code", nil)
	issued.Nonce = nonce
	return issued, err
}

// Refresh answers grant_type=refresh_token: a refresh token is used once and answered with
// the next (rotation); a used one presented again revokes its grant whole, since one of its
// two holders is not the app (OAuth 2.0 Security BCP §4.14.2). scope may only narrow: a
// subset of the granted scopes is what the new access token carries (the next refresh token
// keeps the grant's, RFC 6749 §6), a scope not granted is invalid_scope. A request refused
// for its own fault (an expired token, a scope not granted) leaves the token unspent: only a
// request that would be answered uses it.
func (a *Apps) Refresh(ctx context.Context, e audit.Event, clientID, token, scope string) (AppIssued, error) {
	if !strings.HasPrefix(token, RefreshTokenPrefix) {
		return AppIssued{}, oauthErr("invalid_grant", "unknown refresh token")
	}
	now := a.now()
	var g grantRow
	var kind string
	var expires time.Time
	var used sql.NullTime
	err := a.DB.QueryRowContext(ctx, `SELECT `+grantFrom+`, t.kind, t.expires_at, t.used_at
		FROM smart_tokens t JOIN smart_grants g ON g.id = t.grant_id JOIN smart_apps a ON a.id = g.app_id WHERE t.token_hash = $1`, hashToken(token)).
		Scan(append(g.targets(), &kind, &expires, &used)...)
	// A public client may leave client_id out of a refresh (RFC 6749 §6): the token names its grant.
	if errors.Is(err, sql.ErrNoRows) || (err == nil && ((clientID != "" && g.clientID != clientID) || kind != kindRefresh)) {
		return AppIssued{}, oauthErr("invalid_grant", "unknown refresh token, or another client's")
	}
	if err != nil {
		return AppIssued{}, fmt.Errorf("read refresh token: %w", err)
	}
	if used.Valid {
		return AppIssued{}, a.refreshReused(ctx, e, g)
	}
	if !expires.After(now) {
		return AppIssued{}, oauthErr("invalid_grant", "the refresh token expired")
	}
	narrowed, err := narrowedScopes(g.scopes, scope)
	if err != nil {
		return AppIssued{}, err
	}
	res, err := a.DB.ExecContext(ctx, `UPDATE smart_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL`, now, hashToken(token))
	if err != nil {
		return AppIssued{}, fmt.Errorf("spend refresh token: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 { // spent by a concurrent request since it was read
		return AppIssued{}, a.refreshReused(ctx, e, g)
	}
	return a.issue(ctx, e, g, "refresh_token", narrowed)
}

// narrowedScopes are the scopes a refresh request asks for (nil: the grant's own, when it
// names none or all of them), each one granted; a scope not granted is invalid_scope.
func narrowedScopes(granted, scope string) ([]string, error) {
	grant := strings.Fields(granted)
	var asked []string
	for _, s := range strings.Fields(scope) {
		if !slices.Contains(grant, s) {
			return nil, oauthErr("invalid_scope", s+" was not granted")
		}
		if !slices.Contains(asked, s) {
			asked = append(asked, s)
		}
	}
	if len(asked) == 0 || len(asked) == len(grant) {
		return nil, nil
	}
	return asked, nil
}

// refreshReused ends grant g, whose refresh token was presented after its use, and is the
// refusal to answer.
func (a *Apps) refreshReused(ctx context.Context, e audit.Event, g grantRow) error {
	if err := a.endGrant(ctx, e, g, GrantRefreshReused); err != nil {
		return err
	}
	return oauthErr("invalid_grant", "the refresh token was used already: the grant is revoked")
}

// issue gives grant g's next access token (and refresh token, when the grant has one),
// while the grant, its app and its account are live, the account's credential epoch is the
// one the grant was approved under and, for an online_access grant, the sign-in session that
// approved it is live. narrowed are the scopes the access token carries (nil: the grant's).
func (a *Apps) issue(ctx context.Context, e audit.Event, g grantRow, how string, narrowed []string) (AppIssued, error) {
	now := a.now()
	if g.revoked || !g.expires.After(now) {
		return AppIssued{}, oauthErr("invalid_grant", "the grant is revoked or expired")
	}
	if online, err := a.online(ctx, g); err != nil || !online {
		if err != nil {
			return AppIssued{}, err
		}
		return AppIssued{}, oauthErr("invalid_grant", "the sign-in that approved this online_access grant has ended: open the app again")
	}
	account, err := a.grantAccount(ctx, g)
	if err != nil {
		return AppIssued{}, err
	}
	if account == nil {
		return AppIssued{}, oauthErr("invalid_grant", "the account's credentials changed, or it is deactivated: sign in and launch again")
	}
	scopes := strings.Fields(g.scopes)
	carried := g.scopes
	if narrowed != nil {
		carried = strings.Join(narrowed, " ")
	}
	out := AppIssued{AccessToken: AppTokenPrefix + NewToken(), TokenType: "Bearer", ExpiresIn: int(AppTokenLifetime / time.Second), Scope: carried, UserID: g.userID, ClientID: g.clientID}
	if g.patient.Valid {
		out.Patient = strconv.FormatInt(g.patient.Int64, 10)
	}
	if slices.Contains(scopes, "offline_access") || slices.Contains(scopes, "online_access") {
		out.RefreshToken = RefreshTokenPrefix + NewToken()
	}
	access := now.Add(AppTokenLifetime)
	if g.expires.Before(access) {
		access = g.expires
	}
	out.ExpiresIn = int(access.Sub(now) / time.Second)
	err = a.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM smart_tokens WHERE expires_at < $1`, now.Add(-24*time.Hour)); err != nil {
			return fmt.Errorf("sweep app tokens: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO smart_tokens (token_hash, grant_id, kind, scopes, expires_at) VALUES ($1, $2, $3, $4, $5)`, hashToken(out.AccessToken), g.id, kindAccess, carriedScopes(narrowed), access); err != nil {
			return fmt.Errorf("issue app token: %w", err)
		}
		if out.RefreshToken != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO smart_tokens (token_hash, grant_id, kind, expires_at) VALUES ($1, $2, 'refresh', $3)`, hashToken(out.RefreshToken), g.id, g.expires); err != nil {
				return fmt.Errorf("issue refresh token: %w", err)
			}
		}
		e.ActorID, e.ActorName, e.Credential = g.userID, account.Username, AppCredential(g.clientID, g.name, g.id)
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "smart_app.token", "smart_app", strconv.FormatInt(g.appID, 10), audit.Success, now
		if g.patient.Valid {
			e.PatientID = g.patient.Int64
		}
		e.Detail = fmt.Sprintf("%s: grant %d, scopes %q", how, g.id, carried)
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return AppIssued{}, err
	}
	return out, nil
}

// online reports whether grant g may still be refreshed as far as its sign-in goes: a grant
// with offline_access (or with neither) always; one with online_access alone while the
// session that approved it is live — signing out, the session's end or its idle timeout,
// and every remedy of the account (which ends its sessions) end it (SMART App Launch 2.x,
// "online_access").
func (a *Apps) online(ctx context.Context, g grantRow) (bool, error) {
	if !online(strings.Fields(g.scopes)) {
		return true, nil
	}
	var session string
	err := a.DB.QueryRowContext(ctx, `SELECT session_hash FROM smart_grants WHERE id = $1`, g.id).Scan(&session)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && session == "") {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the grant's session: %w", err)
	}
	return a.Sessions.aliveHash(ctx, session)
}

// grantAccount is g's account while it is active and its credential epoch unchanged since
// the grant was approved; nil otherwise.
func (a *Apps) grantAccount(ctx context.Context, g grantRow) (*Identity, error) {
	epoch, err := CredentialEpoch(ctx, a.DB, g.userID)
	if err != nil || epoch != g.epoch {
		return nil, err
	}
	return a.Sessions.Identities.Identity(ctx, g.userID, a.now())
}

// endGrant revokes grant g for reason, with its tokens, and audits it: its own
// transaction, committed whatever the request that found the reuse answers.
func (a *Apps) endGrant(ctx context.Context, e audit.Event, g grantRow, reason string) error {
	now := a.now()
	return a.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE smart_grants SET revoked_at = $1, revoked_reason = $2 WHERE id = $3 AND revoked_at IS NULL`, now, reason, g.id)
		if err != nil {
			return fmt.Errorf("revoke grant: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM smart_tokens WHERE grant_id = $1 AND kind = $2`, g.id, kindAccess); err != nil {
			return fmt.Errorf("end the grant's tokens: %w", err)
		}
		e.ActorID, e.Credential = g.userID, AppCredential(g.clientID, g.name, g.id)
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "smart_app.grant_end", "smart_app", strconv.FormatInt(g.appID, 10), audit.Failure, now
		e.Detail = fmt.Sprintf("%s: grant %d revoked", reason, g.id)
		return audit.Record(ctx, tx, e)
	})
}

// AppCredential names a SMART app's grant as the audit log names credentials:
// 'app:emr-app-… "Growth chart" grant 7'.
func AppCredential(clientID, name string, grant int64) string {
	return "app:" + clientID + " " + strconv.Quote(name) + " grant " + strconv.FormatInt(grant, 10)
}

// LookupToken returns the principal of a live SMART access token: its account as a session
// of it would be, narrowed by the grant's scopes and, through patient/ scopes, to the
// patient in context. A token of a revoked or expired grant or app, of an account
// deactivated, or whose account's credential epoch moved since the grant (a password
// change, a second factor changed or reset: ADR 39) is refused.
func (a *Apps) LookupToken(ctx context.Context, token string) (*Principal, error) {
	now := a.now()
	var g grantRow
	var kind string
	var carried sql.NullString
	var expires time.Time
	var epoch, identityEpoch int64
	err := a.DB.QueryRowContext(ctx, `SELECT `+grantFrom+`, t.kind, t.scopes, t.expires_at,
		COALESCE((SELECT epoch FROM credential_epochs WHERE user_id = g.user_id), 0), (SELECT value FROM identity_epoch WHERE id = 1)
		FROM smart_tokens t JOIN smart_grants g ON g.id = t.grant_id JOIN smart_apps a ON a.id = g.app_id WHERE t.token_hash = $1`, hashToken(token)).
		Scan(append(g.targets(), &kind, &carried, &expires, &epoch, &identityEpoch)...)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (kind != kindAccess || g.revoked || !expires.After(now) || epoch != g.epoch)) {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	if err != nil {
		return nil, fmt.Errorf("look up app token: %w", err)
	}
	p := &Principal{UserID: g.userID, GrantID: g.id, AppClientID: g.clientID, TokenName: g.name}
	if err := a.Sessions.fill(ctx, p, identityEpoch, now); err != nil {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	if !carried.Valid {
		carried.String = g.scopes
	}
	var data []string
	for _, s := range strings.Fields(carried.String) {
		if !slices.Contains(launchScopes, s) {
			data = append(data, s)
		}
	}
	if p.Scopes, err = ParseScopes(strings.Join(data, " "), "patient", "user"); err != nil {
		return nil, fmt.Errorf("grant %d scopes: %w", g.id, err)
	}
	if p.Scopes == nil {
		p.Scopes = []Scope{} // a grant of no data scope reaches no data (nil would be unscoped)
	}
	if g.patient.Valid {
		p.LaunchPatient = g.patient.Int64
	}
	return p, nil
}
