package server

import (
	"net/http"
	"slices"
	"strings"

	"emr/internal/fhir"
)

// The CORS answer of the FHIR API (ADR 40). A SMART app served from another origin calls
// the FHIR API, its discovery documents and its token endpoint with a bearer token; the
// browser lets its script read the answers only when the origin is named here.
const (
	corsMethods = "GET, POST, PUT, DELETE, OPTIONS"
	// corsHeaders are the request headers an app may send: the bearer token, the body's
	// type, and FHIR's own (Prefer, If-Match, If-None-Exist, If-None-Match, If-Modified-Since).
	corsHeaders = "Authorization, Content-Type, Accept, Prefer, If-Match, If-None-Match, If-None-Exist, If-Modified-Since, X-Requested-With"
	// corsExposed are the answer headers its script may read: where a created resource is,
	// its version, what a write did not keep, a bulk export's status.
	corsExposed = "Location, ETag, Content-Location, Last-Modified, X-FHIR-Dropped, X-Progress, Retry-After, WWW-Authenticate"
	corsMaxAge  = "600"
)

// cors answers the browsers of the configured origins on the FHIR API's paths, and nothing
// on any other: the native API (/api) is the web app's own, authenticated by a session
// cookie and a CSRF token, and is never opened to another origin. No answer allows
// credentials (Access-Control-Allow-Credentials is never sent): a script of another origin
// may read an answer only to a request it authenticated itself, with a bearer token, so a
// staff member's session cookie is of no use to it; the guard's CSRF and session rules
// apply to a cookie-authenticated request as they did before. An origin not configured gets
// no CORS header at all, so its script can read nothing.
func cors(next http.Handler, origins []string) http.Handler {
	if len(origins) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, fhir.Base+"/") && r.URL.Path != fhir.Base {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin") // the answer depends on the origin: no cache may serve it to another
		origin := r.Header.Get("Origin")
		if origin == "" || !slices.Contains(origins, origin) {
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			// A preflight: answered here, before any route (none serves OPTIONS).
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", corsMethods)
			h.Set("Access-Control-Allow-Headers", corsHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", corsExposed)
		next.ServeHTTP(w, r)
	})
}
