package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// SMART App Launch (ADR 40): a browser app a staff member opens from a patient's chart gets,
// with the staff member's consent, a token that acts as that staff member, narrowed by the
// scopes granted and, for patient/ scopes, confined to the patient in context.
const (
	AppTokenPrefix     = "emr_app_"
	RefreshTokenPrefix = "emr_rft_"
	// LaunchLifetime is how long a launch from the chart may take to reach the consent page.
	LaunchLifetime = 5 * time.Minute
	// CodeLifetime is how long an authorization code may wait for its exchange.
	CodeLifetime = time.Minute
	// AppTokenLifetime is an access token's life; a refresh token gets the next.
	AppTokenLifetime = time.Hour
	// onlineLifetime is how long a grant with online_access refreshes (a working day, as a
	// session's lifetime); offlineLifetime, with offline_access.
	onlineLifetime  = 12 * time.Hour
	offlineLifetime = 30 * 24 * time.Hour
	maxRedirectURIs = 10
	maxURL          = 2000
)

// Why a grant ended early.
const (
	GrantRevoked       = "revoked"
	GrantCodeReused    = "code_reused"
	GrantRefreshReused = "refresh_reused"
)

// launchScopes are the SMART scopes that ask for context or identity, not for data.
var launchScopes = []string{"openid", "fhirUser", "launch", "launch/patient", "offline_access", "online_access"}

// SmartApp is a registered SMART app, as lists show it.
type SmartApp struct {
	ID           int64      `json:"id"`
	ClientID     string     `json:"client_id"`
	Name         string     `json:"name"`
	RedirectURIs []string   `json:"redirect_uris"`
	LaunchURL    string     `json:"launch_url"`
	Scopes       string     `json:"scopes"`
	CreatedAt    time.Time  `json:"created_at"`
	CreatedBy    *int64     `json:"created_by"`
	RevokedAt    *time.Time `json:"revoked_at"`
}

// NewSmartApp is what an app is registered with.
type NewSmartApp struct {
	Name         string   `json:"name"`
	RedirectURIs []string `json:"redirect_uris"`
	LaunchURL    string   `json:"launch_url"`
	Scopes       string   `json:"scopes"`
}

// Apps keeps the SMART apps, their launches, grants, codes and tokens.
type Apps struct {
	DB       *database.DB
	Sessions *Sessions
	// Routes are the server's routes: what an account reaches through FHIR (AccountReach)
	// caps the scopes offered. Set once the server's route table is built.
	Routes []Route
	// InCompartment reports whether a resource type is in the Patient compartment as the
	// FHIR API confines it: a patient/ scope of another type (patient/Practitioner.rs) is
	// never offered, since a token confined to a patient reaches nothing of it. Nil: none is.
	InCompartment func(resource string) bool
}

func (a *Apps) now() time.Time { return a.Sessions.now() }

// appURL checks an app's redirect or launch URL: absolute, https (plain http only on the
// machine itself, where a developer runs an app), no fragment, no credentials.
func appURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || len(s) > maxURL || u.Host == "" || u.Fragment != "" || u.User != nil || strings.ContainsFunc(s, unicode.IsSpace) {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		host := u.Hostname()
		ip := net.ParseIP(host)
		return host == "localhost" || (ip != nil && ip.IsLoopback())
	}
	return false
}

// Register adds an app and returns it with its new client_id.
func (a *Apps) Register(ctx context.Context, e audit.Event, n NewSmartApp) (SmartApp, error) {
	n.Name = strings.TrimSpace(n.Name)
	var v apperr.Validation
	switch {
	case n.Name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(n.Name) > maxTokenName:
		v.Add("name", "validation.too_long")
	case strings.ContainsFunc(n.Name, unicode.IsControl):
		v.Add("name", "validation.one_line")
	}
	uris := make([]string, 0, len(n.RedirectURIs))
	for _, u := range n.RedirectURIs {
		if u = strings.TrimSpace(u); u != "" && !slices.Contains(uris, u) {
			uris = append(uris, u)
		}
	}
	switch {
	case len(uris) == 0:
		v.Add("redirect_uris", "validation.required")
	case len(uris) > maxRedirectURIs:
		v.Add("redirect_uris", "smart_app.redirect_uri")
	}
	for _, u := range uris {
		if !appURL(u) {
			v.Add("redirect_uris", "smart_app.redirect_uri")
			break
		}
	}
	if n.LaunchURL = strings.TrimSpace(n.LaunchURL); !appURL(n.LaunchURL) {
		v.Add("launch_url", "smart_app.launch_url")
	}
	scopes, err := ParseScopes(n.Scopes, "patient", "user")
	var ae *apperr.Error
	if errors.As(err, &ae) {
		v.AddWith("scopes", ae.Key, ae.Args...)
	} else if len(scopes) == 0 {
		v.Add("scopes", "api_client.scopes_required")
	}
	if err := v.Err(); err != nil {
		return SmartApp{}, err
	}
	clientID := "emr-app-" + NewToken()[:22]
	now := a.now()
	var id int64
	err = a.DB.Tx(ctx, func(tx *sql.Tx) error {
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO smart_apps (client_id, name, redirect_uris, launch_url, scopes, created_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, clientID, n.Name, strings.Join(uris, "\n"), n.LaunchURL, FormatScopes(scopes), now, by).Scan(&id); err != nil {
			return fmt.Errorf("register app: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "smart_app.create", "smart_app", strconv.FormatInt(id, 10), audit.Success, now
		e.Detail = fmt.Sprintf("app %s %q, scopes %q, redirect URIs %s", clientID, n.Name, FormatScopes(scopes), strings.Join(uris, " "))
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return SmartApp{}, err
	}
	return a.Get(ctx, id)
}

const appColumns = `id, client_id, name, redirect_uris, launch_url, scopes, created_at, created_by, revoked_at`

func scanApp(row interface{ Scan(...any) error }) (SmartApp, error) {
	var k SmartApp
	var uris string
	var by sql.NullInt64
	var revoked sql.NullTime
	if err := row.Scan(&k.ID, &k.ClientID, &k.Name, &uris, &k.LaunchURL, &k.Scopes, &k.CreatedAt, &by, &revoked); err != nil {
		return k, err
	}
	k.RedirectURIs = strings.Split(uris, "\n")
	if by.Valid {
		k.CreatedBy = &by.Int64
	}
	if revoked.Valid {
		k.RevokedAt = &revoked.Time
	}
	return k, nil
}

// Get returns one app.
func (a *Apps) Get(ctx context.Context, id int64) (SmartApp, error) {
	k, err := scanApp(a.DB.QueryRowContext(ctx, `SELECT `+appColumns+` FROM smart_apps WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, apperr.NotFound("smart_app.not_found")
	}
	if err != nil {
		return k, fmt.Errorf("read app: %w", err)
	}
	return k, nil
}

// List returns the apps, newest first; live ones alone when live.
func (a *Apps) List(ctx context.Context, live bool) ([]SmartApp, error) {
	q := `SELECT ` + appColumns + ` FROM smart_apps`
	if live {
		q += ` WHERE revoked_at IS NULL`
	}
	rows, err := a.DB.QueryContext(ctx, q+` ORDER BY id DESC LIMIT 500`)
	if err != nil {
		return nil, fmt.Errorf("list apps: %w", err)
	}
	defer rows.Close()
	out := []SmartApp{}
	for rows.Next() {
		k, err := scanApp(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Revoke ends an app at once: every token of it stops working with it.
func (a *Apps) Revoke(ctx context.Context, e audit.Event, id int64) (SmartApp, error) {
	now := a.now()
	err := a.DB.Tx(ctx, func(tx *sql.Tx) error {
		var by any
		if e.ActorID != 0 {
			by = e.ActorID
		}
		res, err := tx.ExecContext(ctx, `UPDATE smart_apps SET revoked_at = $1, revoked_by = $2 WHERE id = $3 AND revoked_at IS NULL`, now, by, id)
		if err != nil {
			return fmt.Errorf("revoke app: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE smart_grants SET revoked_at = $1, revoked_reason = $2 WHERE app_id = $3 AND revoked_at IS NULL`, now, GrantRevoked, id); err != nil {
			return fmt.Errorf("end the app's grants: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "smart_app.revoke", "smart_app", strconv.FormatInt(id, 10), audit.Success, now
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return SmartApp{}, err
	}
	return a.Get(ctx, id)
}

// Launch records a launch of app by the principal from patientID's chart and returns the
// launch parameter the app is opened with.
func (a *Apps) Launch(ctx context.Context, e audit.Event, p *Principal, appID, patientID int64) (string, SmartApp, error) {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return "", app, err
	}
	if app.RevokedAt != nil {
		return "", app, apperr.NotFound("smart_app.not_found")
	}
	launch := NewToken()
	now := a.now()
	err = a.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM smart_launches WHERE expires_at < $1`, now); err != nil {
			return fmt.Errorf("sweep launches: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO smart_launches (launch_hash, app_id, user_id, patient_id, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			hashToken(launch), app.ID, p.UserID, patientID, now.Add(LaunchLifetime)); err != nil {
			return fmt.Errorf("record launch: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "smart_app.launch", "smart_app", strconv.FormatInt(app.ID, 10), patientID, audit.Success, now
		e.Detail = fmt.Sprintf("app %s %q", app.ClientID, app.Name)
		return audit.Record(ctx, tx, e)
	})
	return launch, app, err
}

// AuthRequest is an authorization request's parameters (RFC 6749 §4.1.1, RFC 7636, SMART).
type AuthRequest struct {
	ResponseType        string `json:"response_type"`
	ClientID            string `json:"client_id"`
	RedirectURI         string `json:"redirect_uri"`
	Scope               string `json:"scope"`
	State               string `json:"state"`
	Aud                 string `json:"aud"`
	Launch              string `json:"launch"`
	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
	Nonce               string `json:"nonce"`
}

// Client checks the request's client and redirect URI, the two things that must hold before
// anything is sent back to the redirect URI (RFC 6749 §4.1.2.1): an unknown or revoked
// client, or a redirect URI not registered exactly, is shown to the user, never redirected to.
func (a *Apps) Client(ctx context.Context, req AuthRequest) (SmartApp, error) {
	k, err := scanApp(a.DB.QueryRowContext(ctx, `SELECT `+appColumns+` FROM smart_apps WHERE client_id = $1`, req.ClientID))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && k.RevokedAt != nil) {
		return k, apperr.Invalid("smart.unknown_app")
	}
	if err != nil {
		return k, fmt.Errorf("read app: %w", err)
	}
	if !slices.Contains(k.RedirectURIs, req.RedirectURI) {
		return k, apperr.Invalid("smart.redirect_uri")
	}
	return k, nil
}

// Offer is what the consent page shows: the scopes the app would get (the ones asked for,
// narrowed to the app's registration and to what the user may do), the ones it would not,
// and the patient in context.
type Offer struct {
	App SmartApp `json:"app"`
	// Scopes are granted on approval; Withheld were asked for and are not offered.
	Scopes   []string `json:"scopes"`
	Withheld []string `json:"withheld"`
	// Patient is the patient of the chart the app was launched from (0: none);
	// NeedsPatient asks the user to choose one (a standalone launch/patient).
	Patient      int64 `json:"patient"`
	NeedsPatient bool  `json:"needs_patient"`
}

// pkceChallenge is the form of an S256 challenge: 43 base64url characters (RFC 7636 §4.2).
func pkceChallenge(s string) bool {
	if len(s) != 43 {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
}

// Offer reads what p would grant app for req: the request's own errors are OAuthErrors,
// sent back to the redirect URI.
func (a *Apps) Offer(ctx context.Context, p *Principal, app SmartApp, req AuthRequest) (Offer, error) {
	o := Offer{App: app, Scopes: []string{}, Withheld: []string{}}
	switch {
	case req.ResponseType != "code":
		return o, oauthErr("unsupported_response_type", "response_type must be code")
	case req.CodeChallengeMethod != "S256" || !pkceChallenge(req.CodeChallenge):
		return o, oauthErr("invalid_request", "PKCE is required: a code_challenge with code_challenge_method S256")
	case req.State == "":
		// SMART App Launch 2.x makes state required: the app's own check that the answer is
		// to its request, beside PKCE (RFC 9700 §2.1.1).
		return o, oauthErr("invalid_request", "state is required: an opaque value the app checks when the browser comes back")
	case len(req.State) > 512 || len(req.Nonce) > 512 || len(req.Scope) > 4000:
		return o, oauthErr("invalid_request", "state, nonce or scope too long")
	}
	reach, err := a.Sessions.AccountReach(ctx, a.Routes, p.UserID)
	if err != nil {
		return o, err
	}
	registered, err := ParseScopes(app.Scopes, "patient", "user")
	if err != nil {
		return o, fmt.Errorf("app %d scopes: %w", app.ID, err)
	}
	words := strings.Fields(req.Scope)
	for _, w := range words {
		if slices.Contains(launchScopes, w) {
			if !slices.Contains(o.Scopes, w) {
				o.Scopes = append(o.Scopes, w)
			}
			continue
		}
		if s, ok := narrow(w, registered, reach, a.InCompartment); ok {
			o.Scopes = append(o.Scopes, s)
		} else {
			o.Withheld = append(o.Withheld, w)
		}
	}
	patientScopes := slices.ContainsFunc(o.Scopes, func(s string) bool { return strings.HasPrefix(s, "patient/") })
	switch {
	case req.Launch != "":
		if o.Patient, err = a.launchPatient(ctx, p, app, req.Launch); err != nil {
			return o, err
		}
	case slices.Contains(o.Scopes, "launch"):
		return o, oauthErr("invalid_request", "the launch scope needs the launch parameter the EHR opened the app with")
	default:
		o.NeedsPatient = patientScopes || slices.Contains(o.Scopes, "launch/patient")
	}
	if o.NeedsPatient && !p.Can(ViewPatient) {
		return o, oauthErr("access_denied", "the user may not choose a patient")
	}
	return o, nil
}

// narrow is scope word w as it may be granted: within one of the app's registered scopes,
// within what the account reaches (an interaction the server serves on the type and the
// account may not do there is taken out), and, for patient/ scopes, reads and searches of
// the Patient compartment's types only (inCompartment; patient/* reaches those alone too).
// false when nothing of it is left, or it is no scope this server grants.
func narrow(w string, registered []Scope, reach Reach, inCompartment func(string) bool) (string, bool) {
	parsed, err := ParseScopes(w, "patient", "user")
	if err != nil || len(parsed) != 1 {
		return "", false
	}
	s := parsed[0]
	if s.Resource != "*" && reach.Served[s.Resource] == "" {
		return "", false
	}
	if s.Context == "patient" && s.Resource != "*" && (inCompartment == nil || !inCompartment(s.Resource)) {
		return "", false
	}
	allowed := ""
	for _, r := range registered {
		if r.Context == s.Context && (r.Resource == "*" || r.Resource == s.Resource) {
			allowed += r.Actions
		}
	}
	var kept strings.Builder
	for _, act := range s.Actions {
		if !strings.ContainsRune(allowed, act) || (s.Context == "patient" && act != ActRead && act != ActSearch) {
			continue
		}
		if reached(reach.Can, s.Resource, act) {
			kept.WriteRune(act)
		}
	}
	if kept.Len() == 0 {
		return "", false
	}
	s.Actions = kept.String()
	return s.String(), true
}

// reached reports whether the account may do act on resource ("*": on some type), as
// Reach.Check reads "*": every request is capped by the account's permissions anyway.
func reached(can map[string]string, resource string, act rune) bool {
	if resource != "*" {
		return strings.ContainsRune(can[resource], act)
	}
	for _, acts := range can {
		if strings.ContainsRune(acts, act) {
			return true
		}
	}
	return false
}

// launchPatient is the patient of a live launch of app by p.
func (a *Apps) launchPatient(ctx context.Context, p *Principal, app SmartApp, launch string) (int64, error) {
	var appID, userID, patientID int64
	var expires time.Time
	err := a.DB.QueryRowContext(ctx, `SELECT app_id, user_id, patient_id, expires_at FROM smart_launches WHERE launch_hash = $1`, hashToken(launch)).
		Scan(&appID, &userID, &patientID, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (appID != app.ID || userID != p.UserID || !expires.After(a.now()))) {
		return 0, oauthErr("invalid_request", "the launch is unknown, expired, or another user's or app's")
	}
	if err != nil {
		return 0, fmt.Errorf("read launch: %w", err)
	}
	return patientID, nil
}

// Approve records p's consent to offer (chosen narrows its scopes; patientID is the
// patient chosen when the offer needs one, already checked readable by the caller) and
// returns the one-time authorization code. The grant carries the account's credential
// epoch, read in the insert's transaction while p's session still exists: a remedy of the
// account committing meanwhile (which ends the session and counts the epoch up) leaves the
// grant dead.
func (a *Apps) Approve(ctx context.Context, e audit.Event, p *Principal, req AuthRequest, offer Offer, chosen []string, patientID int64) (string, error) {
	scopes := offer.Scopes
	if chosen != nil {
		for _, c := range chosen {
			if !slices.Contains(offer.Scopes, c) {
				return "", apperr.Invalid("smart.scope_not_offered", c)
			}
		}
		scopes = chosen
	}
	patient := offer.Patient
	if offer.NeedsPatient {
		if patientID <= 0 {
			return "", apperr.Invalid("smart.patient_required")
		}
		patient = patientID
	}
	if patient == 0 && slices.ContainsFunc(scopes, func(s string) bool { return strings.HasPrefix(s, "patient/") }) {
		return "", apperr.Invalid("smart.patient_required")
	}
	now := a.now()
	lifetime := AppTokenLifetime
	switch {
	case slices.Contains(scopes, "offline_access"):
		lifetime = offlineLifetime
	case slices.Contains(scopes, "online_access"):
		lifetime = onlineLifetime
	}
	code := NewToken()
	var grant int64
	err := a.DB.Tx(ctx, func(tx *sql.Tx) error {
		epoch, err := holdEpoch(ctx, tx, a.DB.Engine, p)
		if err != nil {
			return err
		}
		var pid any
		if patient != 0 {
			pid = patient
		}
		// The session approving an online_access grant: the grant refreshes while it lives.
		var session string
		if online(scopes) {
			session = p.tokenHash
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO smart_grants (app_id, user_id, patient_id, scopes, epoch, created_at, expires_at, session_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, offer.App.ID, p.UserID, pid, strings.Join(scopes, " "), epoch, now, now.Add(lifetime), session).Scan(&grant); err != nil {
			return fmt.Errorf("record grant: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM smart_codes WHERE expires_at < $1`, now.Add(-time.Hour)); err != nil {
			return fmt.Errorf("sweep codes: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO smart_codes (code_hash, grant_id, redirect_uri, code_challenge, nonce, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			hashToken(code), grant, req.RedirectURI, req.CodeChallenge, req.Nonce, now.Add(CodeLifetime)); err != nil {
			return fmt.Errorf("record code: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "smart_app.authorize", "smart_app", strconv.FormatInt(offer.App.ID, 10), patient, audit.Success, now
		e.Detail = fmt.Sprintf("grant %d to app %s %q, scopes %q", grant, offer.App.ClientID, offer.App.Name, strings.Join(scopes, " "))
		return audit.Record(ctx, tx, e)
	})
	return code, err
}

// online reports whether scopes ask for online_access alone: refresh tokens that last while
// the user's sign-in does (offline_access, asked with it, outlasts it).
func online(scopes []string) bool {
	return slices.Contains(scopes, "online_access") && !slices.Contains(scopes, "offline_access")
}

// holdEpoch reads p's account's credential epoch in tx while p's session still exists
// (held FOR SHARE on PostgreSQL, as APITokens.stillCurrent does: a remedy waits for tx).
func holdEpoch(ctx context.Context, tx *sql.Tx, engine database.Engine, p *Principal) (int64, error) {
	q, sq := `SELECT epoch FROM credential_epochs WHERE user_id = $1`, `SELECT 1 FROM sessions WHERE token_hash = $1`
	if engine == database.Postgres {
		if _, err := tx.ExecContext(ctx, `INSERT INTO credential_epochs (user_id, epoch) VALUES ($1, 0) ON CONFLICT (user_id) DO NOTHING`, p.UserID); err != nil {
			return 0, fmt.Errorf("hold the credential epoch: %w", err)
		}
		q, sq = q+` FOR SHARE`, sq+` FOR SHARE`
	}
	var epoch int64
	if err := tx.QueryRowContext(ctx, q, p.UserID).Scan(&epoch); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("read the credential epoch: %w", err)
	}
	var one int
	err := tx.QueryRowContext(ctx, sq, p.tokenHash).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.Conflict("api_token.credentials_changed")
	}
	if err != nil {
		return 0, fmt.Errorf("read the session: %w", err)
	}
	return epoch, nil
}
