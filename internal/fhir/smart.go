package fhir

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/settings"
)

// TokenPath is the SMART Backend Services token endpoint, under the FHIR base.
const TokenPath = "/auth/token"

// smartConfiguration is the SMART discovery document.
func (h *Handler) smartConfiguration(w http.ResponseWriter, r *http.Request) {
	base := h.baseURL(r)
	httpjson.Respond(w, http.StatusOK, map[string]any{
		"token_endpoint":                                   base + TokenPath,
		"grant_types_supported":                            []string{"client_credentials"},
		"token_endpoint_auth_methods_supported":            []string{"private_key_jwt"},
		"token_endpoint_auth_signing_alg_values_supported": []string{"RS384", "ES384"},
		"scopes_supported":                                 []string{"system/*.rs", "system/*.cruds", "system/Patient.rs", "system/Patient.cruds", "system/Observation.rs", "system/Encounter.rs", "system/Condition.rs", "system/AllergyIntolerance.rs"},
		"capabilities":                                     []string{"client-confidential-asymmetric", "permission-v2"},
	})
}

// token answers a client_credentials request (RFC 6749 §4.4 with a private_key_jwt
// assertion, RFC 7523): an access token for the client's system/ scopes, or an OAuth error.
//
// The assertion's aud must be the token endpoint at the clinic's public address (the
// setting an administrator keeps under Settings → Clinic, public_url), never at the Host the
// request names: a Host header is the caller's to choose, and an assertion captured for
// another server must not be accepted because the request claims to be for it. Without a
// public address the endpoint issues nothing (503 and a server log saying what to set).
//
// Refused requests are throttled per address block and per claimed client (429 with
// Retry-After) and counted in the audit log per window (auth/tokenthrottle.go); issued
// tokens are audited one by one.
func (h *Handler) token(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		httpjson.Respond(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "send the request as application/x-www-form-urlencoded"})
		return
	}
	clinic, err := settings.ReadClinic(r.Context(), h.DB) // as saved now: an address changed a moment ago counts at once
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	public := strings.TrimRight(clinic.PublicURL, "/")
	if public == "" {
		slog.ErrorContext(r.Context(), "a backend client asked for a token, and the clinic has no public address to check its assertion's aud against: set it under Settings → Clinic (public_url)")
		httpjson.Respond(w, http.StatusServiceUnavailable, map[string]string{"error": "temporarily_unavailable",
			"error_description": "the server has no public address configured to check the assertion's audience against; ask the clinic's administrator"})
		return
	}
	f := r.PostForm
	issued, err := h.Clients.Issue(r.Context(), auth.AuditEvent(r), f.Get("grant_type"), f.Get("client_assertion_type"), f.Get("client_assertion"), f.Get("scope"),
		public+Base+TokenPath)
	var oe *auth.OAuthError
	switch {
	case errors.As(err, &oe):
		status := http.StatusBadRequest
		switch {
		case oe.RetryAfter > 0:
			status = http.StatusTooManyRequests
			w.Header().Set("Retry-After", strconv.Itoa(auth.Seconds(oe.RetryAfter)))
		case oe.Code == "invalid_client":
			status = http.StatusUnauthorized
		}
		httpjson.Respond(w, status, map[string]string{"error": oe.Code, "error_description": oe.Description})
		return
	case err != nil:
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, issued)
}
