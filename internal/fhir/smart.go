package fhir

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
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
func (h *Handler) token(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		httpjson.Respond(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "send the request as application/x-www-form-urlencoded"})
		return
	}
	f := r.PostForm
	e := auth.AuditEvent(r)
	issued, err := h.Clients.Issue(r.Context(), e, f.Get("grant_type"), f.Get("client_assertion_type"), f.Get("client_assertion"), f.Get("scope"),
		h.baseURL(r)+TokenPath)
	e.Action, e.EntityType = "api_client.token", "api_client"
	var oe *auth.OAuthError
	switch {
	case errors.As(err, &oe):
		e.Outcome, e.Detail = audit.Denied, oe.Description
		if aerr := audit.Access(r.Context(), h.DB, e); aerr != nil {
			slog.ErrorContext(r.Context(), "audit a refused client token", "err", aerr)
		}
		status := http.StatusBadRequest
		if oe.Code == "invalid_client" {
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
