package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"

	"emr/internal/apperr"
	"emr/internal/httpjson"
)

// Cookie and header names of the session and the CSRF double-submit token. Served over TLS
// (directly or behind a proxy that says so), the cookies take the __Host- prefix: the
// browser then keeps them only if Secure, for this host alone and for every path, so that
// no sibling domain or plain-HTTP page can set or shadow them.
const (
	SessionCookie = "emr_session"
	CSRFCookie    = "XSRF-TOKEN"
	CSRFHeader    = "X-XSRF-TOKEN"
	hostPrefix    = "__Host-"
)

// CookieName is the name cookie base goes by on r: __Host- prefixed over TLS.
func CookieName(r *http.Request, base string) string {
	if Secure(r) {
		return hostPrefix + base
	}
	return base
}

// SessionToken is the session cookie's token on r ("" when there is none).
func SessionToken(r *http.Request) string {
	if c, err := r.Cookie(CookieName(r, SessionCookie)); err == nil {
		return c.Value
	}
	return ""
}

// Route is one API route and the access it declares. Every feature lists its routes in a
// table of these; the server mounts them through Guard, so no route goes without a check.
type Route struct {
	Method string
	Path   string // a ServeMux path pattern, e.g. /api/patients/{id}
	Access Access
	// ChangesState marks a GET that changes state: it then needs the CSRF header too, so
	// that no cross-site link can trigger it.
	ChangesState bool
	// BeforePasswordChange marks the routes a user whose account is not ready (a password
	// reset by an administrator, a second factor a role requires) may use: who am I, log out,
	// read the profile, change the password, set up two-factor sign-in.
	BeforePasswordChange bool
	// SessionOnly marks a browser session's alone: credentials and accounts are managed by a
	// person who signed in, never by a program's token. An API token or a backend client is
	// refused on it, whatever its scopes and its account's permissions, so that a leaked
	// token cannot make itself a new account, reset a password, take over a second factor or
	// mint a longer-lived heir without the re-authentication a person goes through.
	SessionOnly bool
	// Announces is what a successful call changes, announced on the live channel.
	Announces Change
	// Resource and Interaction are what a FHIR route does, for a token's scopes: a resource
	// type ("" for a route that checks each resource itself, a batch) and one of the Act*
	// letters. A route without Resource is closed to scoped tokens unless it is FHIR's.
	Resource    string
	Interaction byte
	// NoCSRF marks a public route whose request carries its own proof (the token endpoint's
	// signed client assertion), which a cross-site form cannot forge: it takes no CSRF token.
	NoCSRF bool
	// FHIR marks the routes of the FHIR API: scoped tokens may call them, and their errors
	// are written by Errors.
	FHIR bool
	// Errors writes the guard's refusals in the route's own format (FHIR's
	// OperationOutcome); nil for the native API's error envelope.
	Errors  func(w http.ResponseWriter, r *http.Request, err error)
	Handler http.HandlerFunc
}

// ForSessionsOnly marks every route of a table SessionOnly (a table of credential
// management, each of whose routes is a browser session's alone).
func ForSessionsOnly(routes []Route) []Route {
	for i := range routes {
		routes[i].SessionOnly = true
	}
	return routes
}

// Guard enforces each route's declared access: the CSRF token on state-changing requests,
// then the session, then the permission. A request with a bearer token is authenticated by
// the token alone (it needs no CSRF token, and may not carry a session cookie as well).
type Guard struct {
	Sessions *Sessions
	Tokens   *APITokens
	Clients  *Clients
	Apps     *Apps
	// Portal looks up the patient portal's sessions (nil: the portal's routes answer 401).
	Portal PortalSessions
}

// Wrap returns the route's handler behind its checks.
func (g *Guard) Wrap(rt Route) http.Handler {
	if !rt.Access.Declared() {
		panic("auth: route " + rt.Method + " " + rt.Path + " declares no access")
	}
	needsCSRF := (rt.ChangesState || (rt.Method != http.MethodGet && rt.Method != http.MethodHead)) && !rt.NoCSRF
	if rt.Access.kind == accessPortal || rt.Access.kind == accessPortalSignIn {
		return g.wrapPortal(rt, needsCSRF)
	}
	fail := rt.Errors
	if fail == nil {
		fail = httpjson.Error
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bearer, hasAuthorization := BearerToken(r)
		// A bearer credential cannot be sent by a cross-site form: it needs no CSRF token (a
		// public route, which would not read it, still does).
		byToken := hasAuthorization && rt.Access.kind != accessPublic
		if needsCSRF && !byToken && !validCSRF(r) {
			fail(w, r, apperr.Forbidden("auth.csrf"))
			return
		}
		if rt.Access.kind != accessPublic {
			p, err := g.principal(r, bearer, hasAuthorization)
			if err != nil {
				fail(w, r, err)
				return
			}
			if p.MustChangePassword && !rt.BeforePasswordChange {
				fail(w, r, apperr.Forbidden("auth.password_change_required"))
				return
			}
			if p.MustEnrolTwoFactor && !rt.BeforePasswordChange {
				fail(w, r, apperr.Forbidden("auth.two_factor_enrolment_required"))
				return
			}
			if !p.MayUse(rt) {
				fail(w, r, apperr.Forbidden("auth.forbidden"))
				return
			}
			if rt.SessionOnly && p.ByCredential() {
				fail(w, r, apperr.Forbidden("auth.session_only"))
				return
			}
			if p.Scopes != nil && (!rt.FHIR || (rt.Resource != "" && !p.ScopeAllows(rt.Resource, rt.Interaction))) {
				fail(w, r, apperr.Forbidden("auth.scope"))
				return
			}
			p.Confined = p.confinement(rt)
			r = r.WithContext(WithPrincipal(r.Context(), p))
		}
		rt.Handler(w, r)
	})
}

// MayUse reports whether the principal's permissions allow the route: a user's by their
// roles; a backend client's on the FHIR API only, where its scopes decide.
func (p *Principal) MayUse(rt Route) bool {
	if p.ClientID != 0 {
		return rt.FHIR
	}
	return rt.Access.Allows(p)
}

// confinement is the patient a request on rt is confined to, for the route's own type and
// interaction (ConfinedFor). A route checking each resource itself (a Bundle, an export) is
// confined whenever the grant has a patient/ scope.
func (p *Principal) confinement(rt Route) int64 {
	if rt.Resource == "" {
		if p.hasPatientScope() {
			return p.LaunchPatient
		}
		return 0
	}
	return p.ConfinedFor(rt.Resource, rt.Interaction)
}

// ConfinedFor is the patient a request doing act on resources of kind is confined to (0:
// none): the launch's patient when the grant has a patient/ scope, unless a scope of another
// context (user/) allows act on kind — that reaches what the account does. It is decided per
// type and interaction, never once per route: a route a user/ scope reaches (a Patient read,
// its $everything, a search with _include or _revinclude) may answer resources of other types
// whose only authority is a patient/ scope, and those stay the launch patient's. A type no
// scope allows is confined too (its scope is refused apart; confinement only adds).
func (p *Principal) ConfinedFor(kind string, act byte) int64 {
	if p.LaunchPatient == 0 || !p.hasPatientScope() {
		return 0
	}
	for _, s := range p.Scopes {
		if s.Context != "patient" && s.Allows(kind, act) {
			return 0
		}
	}
	return p.LaunchPatient
}

// hasPatientScope reports whether the grant holds any patient/ scope.
func (p *Principal) hasPatientScope() bool {
	return slices.ContainsFunc(p.Scopes, func(s Scope) bool { return s.Context == "patient" })
}

// MayFHIR reports whether the principal may do, on the FHIR API, what perm allows: a user
// who holds it, or a backend client (whose scopes are checked apart).
func (p *Principal) MayFHIR(perm Permission) bool { return p.ClientID != 0 || p.Can(perm) }

func (g *Guard) principal(r *http.Request, bearer string, hasAuthorization bool) (*Principal, error) {
	var p *Principal
	var err error
	switch {
	case hasAuthorization && SessionToken(r) != "":
		return nil, apperr.Invalid("auth.token_with_cookie")
	case hasAuthorization && (bearer == "" || g.Tokens == nil):
		return nil, apperr.Unauthenticated("auth.token_invalid")
	case hasAuthorization && strings.HasPrefix(bearer, AppTokenPrefix) && g.Apps != nil:
		p, err = g.Apps.LookupToken(r.Context(), bearer)
	case hasAuthorization && strings.HasPrefix(bearer, ClientTokenPrefix) && g.Clients != nil:
		p, err = g.Clients.LookupToken(r.Context(), bearer)
	case hasAuthorization:
		p, err = g.Tokens.Lookup(r.Context(), bearer, ClientAddress(r))
	default:
		token := SessionToken(r)
		if token == "" {
			return nil, apperr.Unauthenticated("auth.unauthenticated")
		}
		p, err = g.Sessions.Lookup(r.Context(), token)
	}
	if err != nil {
		return nil, err
	}
	if id, ok := r.Context().Value(userIDSlotKey{}).(*int64); ok {
		*id = p.UserID
	}
	return p, nil
}

// validCSRF checks the double submit (the header echoes the cookie) and, once there is a
// session, that the token is the session's own (ASVS 4.2.2): a token planted from elsewhere
// (a cookie set by a sibling domain, say) does not pass, since it cannot be derived without
// the session, whose cookie no script can read.
func validCSRF(r *http.Request) bool {
	c, err := r.Cookie(CookieName(r, CSRFCookie))
	header := r.Header.Get(CSRFHeader)
	if err != nil || c.Value == "" || header == "" {
		return false
	}
	if subtle.ConstantTimeCompare([]byte(c.Value), []byte(header)) != 1 {
		return false
	}
	if token := SessionToken(r); token != "" {
		return subtle.ConstantTimeCompare([]byte(csrfFor(token)), []byte(header)) == 1
	}
	return true
}

// csrfFor is the CSRF token of the session whose cookie holds token.
func csrfFor(token string) string {
	sum := sha256.Sum256([]byte("emr csrf\x00" + token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

type userIDSlotKey struct{}

// WithUserIDSlot returns a context in which Guard records the authenticated user's id into
// the returned slot, so an outer request logger can name the user after the fact.
func WithUserIDSlot(ctx context.Context) (context.Context, *int64) {
	var id int64
	return context.WithValue(ctx, userIDSlotKey{}, &id), &id
}

// SlotUserID returns the user id Guard recorded in ctx's slot (0 when none).
func SlotUserID(ctx context.Context) int64 {
	if id, ok := ctx.Value(userIDSlotKey{}).(*int64); ok {
		return *id
	}
	return 0
}

// Secure reports whether the request reached us over TLS (directly, or as a trusted proxy
// says in X-Forwarded-Proto, which the server only passes on when it trusts its proxy).
func Secure(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

// SetSessionCookie sets (token != "") or clears the session cookie.
func SetSessionCookie(w http.ResponseWriter, r *http.Request, token string) {
	c := &http.Cookie{Name: CookieName(r, SessionCookie), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: Secure(r)}
	if token == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// SetCSRFCookie issues the CSRF token in a cookie the web app can read and echo: the
// session's (session, the session cookie's token) or, before a login, a random one. A login
// issues a new one with its new session.
func SetCSRFCookie(w http.ResponseWriter, r *http.Request, session string) {
	value := NewToken()
	if session != "" {
		value = csrfFor(session)
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName(r, CSRFCookie), Value: value, Path: "/", SameSite: http.SameSiteLaxMode, Secure: Secure(r)})
}
