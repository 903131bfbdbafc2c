package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// SMART Backend Services (ADR 35): a registered system proves itself with a JWT signed by
// one of its keys and gets a short-lived access token for its system/ scopes.
const (
	ClientTokenPrefix   = "emr_sys_"
	ClientTokenLifetime = 5 * time.Minute
	// MaxAssertionLifetime is how far ahead an assertion's exp may lie.
	MaxAssertionLifetime = 5 * time.Minute
	AssertionType        = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	maxJWKS              = 64 << 10
)

// AssertionAlgorithms are the signatures a client's assertion may carry.
var AssertionAlgorithms = []jose.SignatureAlgorithm{jose.RS384, jose.ES384}

// Client is a registered backend client, as lists show it.
type Client struct {
	ID              int64      `json:"id"`
	ClientID        string     `json:"client_id"`
	Name            string     `json:"name"`
	Scopes          string     `json:"scopes"`
	Keys            []string   `json:"keys"` // the key ids of its JWK Set
	CreatedAt       time.Time  `json:"created_at"`
	LastUsedAt      *time.Time `json:"last_used_at"`
	LastUsedAddress string     `json:"last_used_address"`
	RevokedAt       *time.Time `json:"revoked_at"`
	// CreatedBy is the account that registered it, nil for the command line; its name and
	// whether it is deactivated are the accounts' owner's to fill in (the list's screen).
	CreatedBy     *int64 `json:"created_by"`
	CreatedByName string `json:"created_by_name"`
	// CreatorDeactivated: the account that registered it is deactivated. The client keeps
	// working (it is the clinic's system, not the account's); whoever left may still hold
	// its private key, so the screen asks for its keys to be rotated.
	CreatorDeactivated bool `json:"creator_deactivated"`
}

// NewClient is what a client is registered with.
type NewClient struct {
	Name   string
	Scopes string
	JWKS   string
}

// Clients keeps the backend clients, their assertions' ids and their access tokens.
type Clients struct {
	DB  *database.DB
	Now func() time.Time
}

func (c *Clients) now() time.Time {
	if c.Now != nil {
		return c.Now().UTC()
	}
	return time.Now().UTC()
}

// parseJWKS reads a JWK Set of public RSA (2048 bits or more) or P-384 keys, each with a
// key id.
func parseJWKS(s string) (jose.JSONWebKeySet, []string, error) {
	var set jose.JSONWebKeySet
	if len(s) > maxJWKS || json.Unmarshal([]byte(s), &set) != nil || len(set.Keys) == 0 {
		return set, nil, errors.New("api_client.jwks")
	}
	var kids []string
	for _, k := range set.Keys {
		if k.KeyID == "" || !k.IsPublic() || !k.Valid() {
			return set, nil, errors.New("api_client.jwks_key")
		}
		switch pub := k.Key.(type) {
		case *rsa.PublicKey:
			if pub.N.BitLen() < 2048 {
				return set, nil, errors.New("api_client.jwks_key")
			}
		case *ecdsa.PublicKey:
			if pub.Curve != elliptic.P384() {
				return set, nil, errors.New("api_client.jwks_key")
			}
		default:
			return set, nil, errors.New("api_client.jwks_key")
		}
		kids = append(kids, k.KeyID)
	}
	return set, kids, nil
}

// Register adds a client and returns it, with its new client_id.
func (c *Clients) Register(ctx context.Context, e audit.Event, n NewClient) (Client, error) {
	n.Name = strings.TrimSpace(n.Name)
	var v apperr.Validation
	if n.Name == "" {
		v.Add("name", "validation.required")
	} else if utf8.RuneCountInString(n.Name) > maxTokenName {
		v.Add("name", "validation.too_long")
	} else if strings.ContainsFunc(n.Name, unicode.IsControl) {
		v.Add("name", "validation.one_line") // as a token's name (NewAPIToken.Check)
	}
	scopes, err := ParseScopes(n.Scopes, "system")
	var ae *apperr.Error
	if errors.As(err, &ae) {
		v.AddWith("scopes", ae.Key, ae.Args...)
	} else if len(scopes) == 0 {
		v.Add("scopes", "api_client.scopes_required")
	}
	if _, _, err := parseJWKS(n.JWKS); err != nil {
		v.Add("jwks", err.Error())
	}
	if err := v.Err(); err != nil {
		return Client{}, err
	}
	clientID := "emr-" + NewToken()[:22]
	now := c.now()
	var id int64
	err = c.DB.Tx(ctx, func(tx *sql.Tx) error {
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO api_clients (client_id, name, jwks, scopes, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			clientID, n.Name, n.JWKS, FormatScopes(scopes), now, by).Scan(&id); err != nil {
			return fmt.Errorf("register client: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_client.create", "api_client", strconv.FormatInt(id, 10), audit.Success, now
		e.Detail = fmt.Sprintf("client %s %q, scopes %q", clientID, n.Name, FormatScopes(scopes))
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Client{}, err
	}
	return c.Get(ctx, id)
}

// clientFrom reads a client with the account that registered it.
const clientFrom = `SELECT k.id, k.client_id, k.name, k.jwks, k.scopes, k.created_at, k.last_used_at, k.last_used_address, k.revoked_at,
	k.created_by FROM api_clients k`

func scanClient(row interface{ Scan(...any) error }) (Client, string, error) {
	var k Client
	var jwks string
	var used, revoked sql.NullTime
	var by sql.NullInt64
	if err := row.Scan(&k.ID, &k.ClientID, &k.Name, &jwks, &k.Scopes, &k.CreatedAt, &used, &k.LastUsedAddress, &revoked, &by); err != nil {
		return k, "", err
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
	_, k.Keys, _ = parseJWKS(jwks)
	if k.Keys == nil {
		k.Keys = []string{}
	}
	return k, jwks, nil
}

// Get returns one client.
func (c *Clients) Get(ctx context.Context, id int64) (Client, error) {
	k, _, err := scanClient(c.DB.QueryRowContext(ctx, clientFrom+` WHERE k.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, apperr.NotFound("api_client.not_found")
	}
	if err != nil {
		return k, fmt.Errorf("read client: %w", err)
	}
	return k, nil
}

// List returns the clients, newest first.
func (c *Clients) List(ctx context.Context) ([]Client, error) {
	rows, err := c.DB.QueryContext(ctx, clientFrom+` ORDER BY k.id DESC LIMIT 500`)
	if err != nil {
		return nil, fmt.Errorf("list clients: %w", err)
	}
	defer rows.Close()
	out := []Client{}
	for rows.Next() {
		k, _, err := scanClient(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Revoke ends a client at once: its access tokens stop working with it.
func (c *Clients) Revoke(ctx context.Context, e audit.Event, id int64) (Client, error) {
	now := c.now()
	err := c.DB.Tx(ctx, func(tx *sql.Tx) error {
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		res, err := tx.ExecContext(ctx, `UPDATE api_clients SET revoked_at = $1, revoked_by = $2 WHERE id = $3 AND revoked_at IS NULL`, now, by, id)
		if err != nil {
			return fmt.Errorf("revoke client: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // unknown (Get says so) or revoked already
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_client_tokens WHERE client_id = $1`, id); err != nil {
			return fmt.Errorf("end client tokens: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_client.revoke", "api_client", strconv.FormatInt(id, 10), audit.Success, now
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Client{}, err
	}
	return c.Get(ctx, id)
}

// OAuthError is a token request refused, as RFC 6749 §5.2 names it.
type OAuthError struct {
	Code        string // invalid_request, invalid_client, invalid_grant, invalid_scope, unsupported_grant_type, slow_down
	Description string
	// RetryAfter is set on a request refused unchecked for too many refusals before it
	// (answered 429 with Retry-After).
	RetryAfter time.Duration
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description }

func oauthErr(code, description string) *OAuthError {
	return &OAuthError{Code: code, Description: description}
}

// Issued is an access token given to a client.
type Issued struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
}

// Issue answers a client_credentials request whose assertion is signed by one of the
// client's keys for audience (the token endpoint's URL): an access token for the requested
// scopes the client is registered for. An unsigned, wrongly signed, expired, too long-lived,
// wrong-audience or replayed assertion, or an unknown or revoked client, is refused.
//
// The request takes its throttle slots first (per address block, per claimed client: see
// tokenthrottle.go); over a limit it is refused unchecked, with RetryAfter set. An issued
// token gives its slots back; a refusal keeps them and is counted, not audited one by one.
func (c *Clients) Issue(ctx context.Context, e audit.Event, grantType, assertionType, assertion, scope, audience string) (Issued, error) {
	var issued Issued
	err := c.Counted(ctx, e.Address, claimedClient(assertion), func() error {
		var err error
		issued, err = c.issue(ctx, e, grantType, assertionType, assertion, scope, audience)
		return err
	})
	return issued, err
}

// Counted runs a token request (try) under the token endpoint's throttle: it takes its
// slots first, per address block and per claimed client (the client_id the request names,
// unverified; "" for none), and is refused unchecked over a limit. A request answered, or
// failing for the server's own fault, gives its slots back; one refused with an OAuth error
// keeps them, to be counted in the audit log when the window ends.
func (c *Clients) Counted(ctx context.Context, address, claimed string, try func() error) error {
	return c.counted(ctx, address, claimed, false, try)
}

// CountedPublic is Counted for a public client's request (a SMART app's: a bad code or
// verifier, a replayed code, an unknown client or refresh token). A public client's
// client_id is no secret — every authorization request the browser carries names it — and
// its users come from every address: a limit per client_id would let anyone lock every user
// out of the app with a few dozen refused requests from two addresses. Its refusals are
// counted per address block, which refuses over its limit, and per client_id for the audit
// log alone; no backend client's usual address lifts the address block's limit for it.
func (c *Clients) CountedPublic(ctx context.Context, address, clientID string, try func() error) error {
	return c.counted(ctx, address, clientID, true, try)
}

func (c *Clients) counted(ctx context.Context, address, claimed string, public bool, try func() error) error {
	if len(claimed) > 64 || !utf8.ValidString(claimed) || strings.ContainsFunc(claimed, unicode.IsControl) {
		claimed = ""
	}
	slots, err := c.throttleToken(ctx, address, claimed, public)
	if err != nil {
		return err
	}
	err = try()
	var oe *OAuthError
	if err == nil || !errors.As(err, &oe) {
		if gerr := c.giveBack(ctx, slots); gerr != nil && err == nil {
			err = gerr
		}
	}
	return err
}

// claimedClient is the client an assertion names (its iss, not verified), "" when it names
// none that could be a client_id.
func claimedClient(assertion string) string {
	tok, err := jwt.ParseSigned(assertion, AssertionAlgorithms)
	if err != nil {
		return ""
	}
	var claims jwt.Claims
	if tok.UnsafeClaimsWithoutVerification(&claims) != nil || claims.Issuer == "" || len(claims.Issuer) > 64 || !utf8.ValidString(claims.Issuer) {
		return ""
	}
	return claims.Issuer
}

func (c *Clients) issue(ctx context.Context, e audit.Event, grantType, assertionType, assertion, scope, audience string) (Issued, error) {
	if audience == "" {
		return Issued{}, errors.New("issue a client token: no audience (the clinic's public address) to check assertions against")
	}
	if grantType != "client_credentials" {
		return Issued{}, oauthErr("unsupported_grant_type", "grant_type must be client_credentials")
	}
	if assertionType != AssertionType || assertion == "" {
		return Issued{}, oauthErr("invalid_request", "client_assertion_type must be "+AssertionType+", with a client_assertion")
	}
	tok, err := jwt.ParseSigned(assertion, AssertionAlgorithms)
	if err != nil {
		return Issued{}, oauthErr("invalid_client", "the client assertion is not a JWT signed with RS384 or ES384")
	}
	var unverified jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil || unverified.Issuer == "" || unverified.Issuer != unverified.Subject {
		return Issued{}, oauthErr("invalid_client", "iss and sub must both be the client_id")
	}
	var id int64
	var jwks, registered string
	var revoked sql.NullTime
	err = c.DB.QueryRowContext(ctx, `SELECT id, jwks, scopes, revoked_at FROM api_clients WHERE client_id = $1`, unverified.Issuer).Scan(&id, &jwks, &registered, &revoked)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && revoked.Valid) {
		return Issued{}, oauthErr("invalid_client", "unknown or revoked client")
	}
	if err != nil {
		return Issued{}, fmt.Errorf("read client: %w", err)
	}
	set, _, err := parseJWKS(jwks)
	if err != nil {
		return Issued{}, fmt.Errorf("client %d keys: %w", id, err)
	}
	kid := tok.Headers[0].KeyID
	keys := set.Key(kid)
	if kid == "" || len(keys) == 0 {
		return Issued{}, oauthErr("invalid_client", "no key of the client has the assertion's kid")
	}
	var claims jwt.Claims
	if err := tok.Claims(keys[0].Key, &claims); err != nil {
		return Issued{}, oauthErr("invalid_client", "the assertion's signature does not verify with the client's key")
	}
	now := c.now()
	if err := claims.ValidateWithLeeway(jwt.Expected{Issuer: unverified.Issuer, Subject: unverified.Issuer, AnyAudience: jwt.Audience{audience}, Time: now}, 0); err != nil {
		return Issued{}, oauthErr("invalid_client", "the assertion is expired or not for this server ("+err.Error()+")")
	}
	if claims.Expiry == nil || claims.Expiry.Time().After(now.Add(MaxAssertionLifetime)) {
		return Issued{}, oauthErr("invalid_client", "the assertion needs an exp at most 5 minutes ahead")
	}
	if claims.ID == "" || len(claims.ID) > 256 {
		return Issued{}, oauthErr("invalid_client", "the assertion needs a jti")
	}
	granted, err := grant(scope, registered)
	if err != nil {
		return Issued{}, err
	}
	token := ClientTokenPrefix + NewToken()
	err = c.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_client_assertions WHERE expires_at < $1`, now); err != nil {
			return err
		}
		var seen bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM api_client_assertions WHERE client_id = $1 AND jti = $2)`, id, claims.ID).Scan(&seen); err != nil {
			return err
		}
		if seen {
			return oauthErr("invalid_client", "this assertion (its jti) has been used already")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO api_client_assertions (client_id, jti, expires_at) VALUES ($1, $2, $3)`, id, claims.ID, claims.Expiry.Time().UTC()); err != nil {
			return oauthErr("invalid_client", "this assertion (its jti) has been used already")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_client_tokens WHERE expires_at < $1`, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO api_client_tokens (token_hash, client_id, scopes, expires_at) VALUES ($1, $2, $3, $4)`,
			hashToken(token), id, granted, now.Add(ClientTokenLifetime)); err != nil {
			return fmt.Errorf("issue client token: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_clients SET last_used_at = $1, last_used_address = $2 WHERE id = $3`, now, e.Address, id); err != nil {
			return err
		}
		e.ActorName = "client:" + unverified.Issuer
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_client.token", "api_client", strconv.FormatInt(id, 10), audit.Success, now
		e.Detail = "scopes " + granted
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Issued{}, err
	}
	return Issued{AccessToken: token, TokenType: "bearer", ExpiresIn: int(ClientTokenLifetime / time.Second), Scope: granted}, nil
}

// grant is the requested scopes, each of which the client must be registered for (v1
// names read as v2), or all the registered ones when none is asked for.
func grant(requested, registered string) (string, error) {
	have, err := ParseScopes(registered, "system")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(requested) == "" {
		return FormatScopes(have), nil
	}
	want, err := ParseScopes(requested, "system")
	if err != nil {
		return "", oauthErr("invalid_scope", "scopes are system/ scopes, such as system/Patient.rs")
	}
	for _, w := range want {
		covered := false
		for _, h := range have {
			if (h.Resource == "*" || h.Resource == w.Resource) && containsAll(h.Actions, w.Actions) {
				covered = true
			}
		}
		if !covered {
			return "", oauthErr("invalid_scope", w.String()+" is not a scope this client is registered for")
		}
	}
	return FormatScopes(want), nil
}

func containsAll(have, want string) bool {
	for _, r := range want {
		if !strings.ContainsRune(have, r) {
			return false
		}
	}
	return true
}

// LookupToken returns the principal of a live client access token: a system principal,
// whose scopes alone say what it may do on the FHIR API (and which may not call the native
// API at all).
func (c *Clients) LookupToken(ctx context.Context, token string) (*Principal, error) {
	var clientID, name, scopes string
	var id int64
	var expires time.Time
	err := c.DB.QueryRowContext(ctx, `SELECT k.id, k.client_id, k.name, t.scopes, t.expires_at FROM api_client_tokens t
		JOIN api_clients k ON k.id = t.client_id WHERE t.token_hash = $1 AND k.revoked_at IS NULL`, hashToken(token)).Scan(&id, &clientID, &name, &scopes, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !expires.After(c.now())) {
		return nil, apperr.Unauthenticated("auth.token_invalid")
	}
	if err != nil {
		return nil, fmt.Errorf("look up client token: %w", err)
	}
	p := &Principal{Username: "client:" + clientID, Name: name, ClientID: id}
	if p.Scopes, err = ParseScopes(scopes, "system"); err != nil {
		return nil, err
	}
	return p, nil
}
