package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"slices"
	"time"

	"emr/internal/apperr"
	"emr/internal/httpjson"
)

// The patient portal's cookies (ADR 44): a session apart from the staff's, and a CSRF
// double-submit token of its own, so that neither app's cookie can stand in for the other's.
// Served over TLS both take the __Host- prefix, as the staff app's do.
const (
	PortalCookie     = "emr_portal"
	PortalCSRFCookie = "XSRF-PORTAL"
)

// PortalRecord is a patient record a portal session may open: the patient's own, or a
// child's whose guardian signed in (GuardianID the link, Guardian what it names).
type PortalRecord struct {
	PatientID  int64
	GuardianID int64
	Guardian   string
}

// PortalPrincipal is the patient (or guardian) behind a portal request, as the session
// stored it at sign-in.
type PortalPrincipal struct {
	// Via is how the session signed in: "code" (a one-time code to Address) or "access"
	// (an access code and a birth date).
	Via     string
	Address string
	Records []PortalRecord
	// TokenHash is the session's key (the SHA-256 of its cookie's token).
	TokenHash string
}

// Record is the record id of the session's, and whether it may open it.
func (p *PortalPrincipal) Record(id int64) (PortalRecord, bool) {
	i := slices.IndexFunc(p.Records, func(r PortalRecord) bool { return r.PatientID == id })
	if i < 0 {
		return PortalRecord{}, false
	}
	return p.Records[i], true
}

// PortalSessions looks a portal session up by its cookie's token: the principal of a live
// session, or apperr.ErrUnauthenticated (portal.signed_out) for none. Its owner (the portal
// package) keeps the table; the guard only asks.
type PortalSessions interface {
	LookupPortal(ctx context.Context, token string) (*PortalPrincipal, error)
}

type portalKey struct{}

// WithPortal stores p in ctx.
func WithPortal(ctx context.Context, p *PortalPrincipal) context.Context {
	return context.WithValue(ctx, portalKey{}, p)
}

// PortalFrom is the request's portal principal, nil for none.
func PortalFrom(ctx context.Context) *PortalPrincipal {
	p, _ := ctx.Value(portalKey{}).(*PortalPrincipal)
	return p
}

// PortalToken is the portal cookie's token on r ("" when there is none).
func PortalToken(r *http.Request) string {
	if c, err := r.Cookie(CookieName(r, PortalCookie)); err == nil {
		return c.Value
	}
	return ""
}

// HashPortalToken is the key a portal session is stored by.
func HashPortalToken(token string) string { return hashToken(token) }

// wrapPortal is the guard of the portal's routes: a bearer credential or a staff session
// is never a portal session; a state-changing call needs the portal's CSRF header.
func (g *Guard) wrapPortal(rt Route, needsCSRF bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if _, has := BearerToken(r); has {
			httpjson.Error(w, r, apperr.Forbidden("portal.no_tokens"))
			return
		}
		if needsCSRF && !validPortalCSRF(r) {
			httpjson.Error(w, r, apperr.Forbidden("auth.csrf"))
			return
		}
		if rt.Access.kind == accessPortal {
			token := PortalToken(r)
			if token == "" || g.Portal == nil {
				httpjson.Error(w, r, apperr.Unauthenticated("portal.signed_out"))
				return
			}
			p, err := g.Portal.LookupPortal(r.Context(), token)
			if err != nil {
				httpjson.Error(w, r, err)
				return
			}
			r = r.WithContext(WithPortal(r.Context(), p))
		}
		rt.Handler(w, r)
	})
}

// validPortalCSRF checks the portal's double submit: the header echoes the portal's CSRF
// cookie and, once there is a portal session, is that session's own token.
func validPortalCSRF(r *http.Request) bool {
	c, err := r.Cookie(CookieName(r, PortalCSRFCookie))
	header := r.Header.Get(CSRFHeader)
	if err != nil || c.Value == "" || header == "" {
		return false
	}
	if subtle.ConstantTimeCompare([]byte(c.Value), []byte(header)) != 1 {
		return false
	}
	if token := PortalToken(r); token != "" {
		return subtle.ConstantTimeCompare([]byte(portalCSRFFor(token)), []byte(header)) == 1
	}
	return true
}

// portalCSRFFor is the CSRF token of the portal session whose cookie holds token.
func portalCSRFFor(token string) string {
	sum := sha256.Sum256([]byte("emr portal csrf\x00" + token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// SetPortalCookies sets (token != "") or clears the portal's session cookie, and issues its
// CSRF cookie: the session's, or a random one before a sign-in. The session cookie is
// HttpOnly and SameSite=Strict, Secure over TLS; it lasts the browser session (the server
// ends it by its own timeouts).
func SetPortalCookies(w http.ResponseWriter, r *http.Request, token string) {
	c := &http.Cookie{Name: CookieName(r, PortalCookie), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: Secure(r)}
	csrf := NewToken()
	if token == "" {
		c.MaxAge = -1
	} else {
		csrf = portalCSRFFor(token)
	}
	http.SetCookie(w, c)
	http.SetCookie(w, &http.Cookie{Name: CookieName(r, PortalCSRFCookie), Value: csrf, Path: "/", SameSite: http.SameSiteStrictMode, Secure: Secure(r)})
}

// SetPortalCSRF issues the portal's CSRF cookie for the request's session (a random one
// when none), leaving the session cookie alone.
func SetPortalCSRF(w http.ResponseWriter, r *http.Request) {
	csrf := NewToken()
	if token := PortalToken(r); token != "" {
		csrf = portalCSRFFor(token)
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName(r, PortalCSRFCookie), Value: csrf, Path: "/", SameSite: http.SameSiteStrictMode, Secure: Secure(r)})
}

// PortalIdle and PortalLifetime are the portal session's timeouts (ADR 44, ASVS 3.3.2):
// unused for 20 minutes, or 8 hours after signing in, used or not, it ends.
const (
	PortalIdle     = 20 * time.Minute
	PortalLifetime = 8 * time.Hour
)
