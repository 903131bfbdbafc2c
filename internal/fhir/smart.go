package fhir

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/settings"
)

// TokenPath is the SMART Backend Services token endpoint, under the FHIR base.
const TokenPath = "/auth/token"

// smartConfiguration is the SMART discovery document: Backend Services for systems, App
// Launch (authorization code with PKCE, public clients) for browser apps.
//
// Its addresses are the clinic's public address, never the Host header's: a discovery
// document naming where to send credentials must not be the caller's to choose. Without a
// public address it answers 503, as the token endpoint does.
func (h *Handler) smartConfiguration(w http.ResponseWriter, r *http.Request) {
	base, err := h.publicBase(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if base == "" {
		noPublicAddress(w, r, "SMART discovery was asked for")
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{
		"issuer":                                base,
		"jwks_uri":                              base + JWKSPath,
		"authorization_endpoint":                base + AuthorizePath,
		"token_endpoint":                        base + TokenPath,
		"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials"},
		"response_types_supported":              []string{"code"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"private_key_jwt", "none"},
		"token_endpoint_auth_signing_alg_values_supported": []string{"RS384", "ES384"},
		"id_token_signing_alg_values_supported":            []string{"ES256"},
		"scopes_supported": []string{"openid", "fhirUser", "launch", "launch/patient", "offline_access", "online_access",
			"patient/*.rs", "patient/*.read", "user/*.rs", "user/*.read", "user/*.cruds",
			"system/*.rs", "system/*.cruds", "system/Patient.rs", "system/Patient.cruds", "system/Observation.rs", "system/Encounter.rs", "system/Condition.rs", "system/AllergyIntolerance.rs"},
		"capabilities": []string{"launch-ehr", "launch-standalone", "client-public", "client-confidential-asymmetric",
			"context-ehr-patient", "context-standalone-patient", "sso-openid-connect",
			"permission-v1", "permission-v2", "permission-patient", "permission-user", "permission-offline", "permission-online"},
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
	if g := r.PostForm.Get("grant_type"); g == "authorization_code" || g == "refresh_token" {
		h.appToken(w, r, r.PostForm) // a SMART app's: no assertion, so no aud to check against the public address
		return
	}
	base, err := h.publicBase(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if base == "" {
		noPublicAddress(w, r, "a backend client asked for a token, to be checked against it")
		return
	}
	f := r.PostForm
	issued, err := h.Clients.Issue(r.Context(), auth.AuditEvent(r), f.Get("grant_type"), f.Get("client_assertion_type"), f.Get("client_assertion"), f.Get("scope"),
		base+TokenPath)
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, issued)
}

// publicBase is the FHIR base at the clinic's public address as saved now (an address
// changed a moment ago counts at once), "" when none is set. What names this server to
// others — an assertion's aud, the discovery document, an id_token's iss — comes from it,
// never from the Host header, which the caller chooses.
func (h *Handler) publicBase(ctx context.Context) (string, error) {
	clinic, err := settings.ReadClinic(ctx, h.DB)
	if err != nil {
		return "", err
	}
	if public := strings.TrimRight(clinic.PublicURL, "/"); public != "" {
		return public + Base, nil
	}
	return "", nil
}

// noPublicAddress refuses what needs the clinic's public address while none is set (503), and
// logs what asked for it and what to set.
func noPublicAddress(w http.ResponseWriter, r *http.Request, what string) {
	slog.ErrorContext(r.Context(), what+", and the clinic has no public address: set it under Settings → Clinic (public_url)")
	httpjson.Respond(w, http.StatusServiceUnavailable, map[string]string{"error": "temporarily_unavailable",
		"error_description": "the server has no public address configured; ask the clinic's administrator"})
}
