// Package fhir answers the clinic's records as HL7 FHIR R4 (4.0.1), JSON only, at /fhir/R4:
// a view over the same stores, rules, permissions and audit as the native API — one source
// of truth, not a copy (ADR 35). Its routes are in the server's one route table, behind the
// same guard; an API token's scopes narrow them per resource type and interaction.
package fhir

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/document"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/secret"
	"emr/internal/settings"
)

// Base is the FHIR API's path.
const Base = "/fhir/R4"

// ContentType is the media type of every answer.
const ContentType = "application/fhir+json; charset=utf-8"

// Handler serves the FHIR API.
type Handler struct {
	DB            *database.DB
	Patients      *patient.Store
	Visits        *appointment.Store
	Prescriptions *prescription.Store
	Results       *result.Store
	Documents     *document.Store
	// Version is the software's version, for the CapabilityStatement.
	Version string
	// Dispatch is the whole server (its guard included): a Bundle's reads go through it as
	// their caller's own requests. Set once the server is built.
	Dispatch http.Handler
	// MaxImport is the largest register file an import takes, in bytes.
	MaxImport int64
	// Clients are the backend clients (SMART Backend Services).
	Clients *auth.Clients
	// Apps are the SMART apps (SMART App Launch), and Keys the key file whose derived key
	// signs their id_tokens.
	Apps *auth.Apps
	Keys *secret.Ring

	publicMu    sync.Mutex
	settings    settings.Clinic // the clinic's settings, as last read
	publicUntil time.Time
}

// Routes is the FHIR API's route table: each interaction with the native permission it
// needs, and the resource type and interaction a token's scopes must allow.
func (h *Handler) Routes() []auth.Route {
	viewPatient := readAccessOf("Patient")
	routes := []auth.Route{
		{Method: "GET", Path: Base + "/metadata", Access: auth.Public, FHIR: true, Errors: WriteError, Handler: h.capabilities},
	}
	// Each type's routes, from its description (resourceTypes): its reads ask any permission
	// that reads some of it (ReadAccess), and the handlers answer of it only what the
	// caller's own rules allow.
	for _, t := range resourceTypes {
		routes = append(routes, t.routes(h)...)
	}
	routes = append(routes,
		auth.Route{Method: "GET", Path: Base + "/Patient/{id}/$everything", Access: viewPatient, Resource: "Patient", Interaction: auth.ActRead, FHIR: true, Errors: WriteError, Handler: h.everything},
		auth.Route{Method: "POST", Path: Base, Access: auth.LoggedIn, FHIR: true, Errors: WriteError, Announces: auth.ChangesPatients, Handler: h.processBundle},
		// The base with its slash, where fhir-kit-client's batch() and transaction() and
		// Medplum's executeBatch() post (the pattern matches that path alone).
		auth.Route{Method: "POST", Path: Base + "/{$}", Access: auth.LoggedIn, FHIR: true, Errors: WriteError, Announces: auth.ChangesPatients, Handler: h.processBundle},
	)
	// Bulk export: every kick-off copies many patients' records (the whole clinic, or a
	// doctor's list, any doctor's), so each needs the export permission; the kick-offs check
	// each type's read permission and scope themselves (ReadAccess).
	exportRecords := auth.Need(auth.ExportRecords)
	routes = append(routes,
		auth.Route{Method: "GET", Path: Base + "/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("system")},
		auth.Route{Method: "GET", Path: Base + "/Patient/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("patient")},
		auth.Route{Method: "GET", Path: Base + "/Group/{id}/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("group")},
		// The same kick-offs with their parameters in a Parameters body (the Bulk Data IG's POST).
		auth.Route{Method: "POST", Path: Base + "/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("system")},
		auth.Route{Method: "POST", Path: Base + "/Patient/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("patient")},
		auth.Route{Method: "POST", Path: Base + "/Group/{id}/$export", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.kickOff("group")},
		// A job's status, files and cancelling need the permission still: one taken away
		// stops the downloads of the jobs started with it.
		auth.Route{Method: "GET", Path: Base + "/bulkdata/{job}", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.exportStatus},
		auth.Route{Method: "DELETE", Path: Base + "/bulkdata/{job}", Access: exportRecords, FHIR: true, Errors: WriteError, Handler: h.cancelExport},
	)
	for i := range routes {
		routes[i].Handler = negotiate(routes[i].Handler)
	}
	// The files are NDJSON, whatever the caller accepts otherwise.
	routes = append(routes, auth.Route{Method: "GET", Path: Base + "/bulkdata/{job}/{file}", Access: auth.Need(auth.ExportRecords), FHIR: true, Errors: WriteError, Handler: h.exportFile})
	// SMART Backend Services: discovery and the token endpoint speak OAuth's JSON and form.
	routes = append(routes,
		auth.Route{Method: "GET", Path: Base + "/.well-known/smart-configuration", Access: auth.Public, Handler: h.smartConfiguration},
		auth.Route{Method: "POST", Path: Base + TokenPath, Access: auth.Public, NoCSRF: true, Handler: h.token},
		// SMART App Launch: the authorization endpoint only hands the request to the consent
		// page (it changes nothing, so a form POST needs no CSRF token); the id_token's keys.
		auth.Route{Method: "GET", Path: Base + AuthorizePath, Access: auth.Public, Handler: h.authorize},
		auth.Route{Method: "POST", Path: Base + AuthorizePath, Access: auth.Public, NoCSRF: true, Handler: h.authorize},
		auth.Route{Method: "GET", Path: Base + JWKSPath, Access: auth.Public, Handler: h.jwks},
	)
	// A SMART app's token reaches, through patient/ scopes, the patient in context alone;
	// every route reads the clinic's settings before its handler begins (withClinic).
	for i := range routes {
		routes[i] = confine(routes[i])
		routes[i].Handler = h.withClinic(routes[i].Handler)
	}
	return routes
}

// Error is a refusal only the FHIR API makes, with its own status and issue code.
type Error struct {
	Status int
	Code   string // the issue type, e.g. "not-supported"
	Key    string // the message, in the caller's language
	Args   []any
	// Expression names the parameter or element at fault.
	Expression string
	// Extension is the issue's (the patients a registration may duplicate).
	Extension []Extension
}

func (e *Error) Error() string { return e.Key }

// Errors are several refusals answered at once: one issue each, with the first's status.
type Errors []*Error

func (e Errors) Error() string { return e[0].Key }

func invalid(key, expression string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "invalid", Key: key, Args: args, Expression: expression}
}

// issueOf maps the native API's error kinds to an HTTP status and an issue type.
var issueOf = map[apperr.Kind]struct {
	status int
	code   string
}{
	apperr.KindInvalid:         {http.StatusBadRequest, "invalid"},
	apperr.KindNotFound:        {http.StatusNotFound, "not-found"},
	apperr.KindConflict:        {http.StatusConflict, "conflict"},
	apperr.KindUnauthenticated: {http.StatusUnauthorized, "login"},
	apperr.KindForbidden:       {http.StatusForbidden, "forbidden"},
	apperr.KindThrottled:       {http.StatusTooManyRequests, "throttled"},
	apperr.KindTooLarge:        {http.StatusRequestEntityTooLarge, "too-long"},
	apperr.KindUnsupportedType: {http.StatusUnsupportedMediaType, "not-supported"},
}

// Outcome is err as an OperationOutcome and its HTTP status, in lang.
func Outcome(lang string, err error) (int, OperationOutcome) {
	oo := OperationOutcome{base: base{ResourceType: "OperationOutcome"}}
	var fe *Error
	var fes Errors
	var ae *apperr.Error
	switch {
	case errors.As(err, &fe):
		oo.Issue = []Issue{fe.issue(lang)}
		return fe.Status, oo
	case errors.As(err, &fes) && len(fes) > 0:
		for _, e := range fes {
			oo.Issue = append(oo.Issue, e.issue(lang))
		}
		return fes[0].Status, oo
	case errors.As(err, &ae) && ae.Kind != apperr.KindInternal:
		m := issueOf[ae.Kind]
		if len(ae.Fields) == 0 {
			oo.Issue = []Issue{{Severity: "error", Code: m.code, Diagnostics: i18n.T(lang, ae.Key, ae.Args...)}}
			return m.status, oo
		}
		for _, field := range sortedKeys(ae.Fields) {
			for _, key := range ae.Fields[field] {
				oo.Issue = append(oo.Issue, Issue{Severity: "error", Code: m.code, Diagnostics: i18n.T(lang, key), Expression: []string{field}})
			}
		}
		return m.status, oo
	}
	oo.Issue = []Issue{{Severity: "fatal", Code: "exception", Diagnostics: i18n.T(lang, "error.internal")}}
	return http.StatusInternalServerError, oo
}

func (e *Error) issue(lang string) Issue {
	issue := Issue{Severity: "error", Code: e.Code, Diagnostics: i18n.T(lang, e.Key, e.Args...), Extension: e.Extension}
	if e.Expression != "" {
		issue.Expression = []string{e.Expression}
	}
	return issue
}

// WriteError answers err as an OperationOutcome in the caller's language.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	status, oo := Outcome(i18n.FromRequest(r), err)
	if status == http.StatusInternalServerError {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "route", httpjson.Route(r), "err", err)
	}
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindThrottled && ae.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfterSeconds))
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="emr"`)
	}
	write(w, status, oo)
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Error("write a FHIR answer", "err", err)
	}
}

// respond answers one resource with its version in ETag and Last-Modified.
func respond(w http.ResponseWriter, status int, res Resource) {
	if v := res.VersionID(); v != "" {
		w.Header().Set("ETag", `W/"`+v+`"`)
	}
	write(w, status, res)
}

// negotiate answers 406 to a caller that accepts only XML (or asks for it with _format)
// and 415 to a body that is not JSON: the API speaks JSON alone, and says so.
func negotiate(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		format := r.URL.Query().Get("_format")
		if format != "" && !isJSON(format) {
			WriteError(w, r, &Error{Status: http.StatusNotAcceptable, Code: "not-supported", Key: "fhir.json_only", Expression: "_format"})
			return
		}
		if accept := r.Header.Get("Accept"); format == "" && accept != "" && !acceptsJSON(accept) {
			WriteError(w, r, &Error{Status: http.StatusNotAcceptable, Code: "not-supported", Key: "fhir.json_only"})
			return
		}
		if r.ContentLength != 0 && r.Method != http.MethodGet {
			if ct := r.Header.Get("Content-Type"); !isJSON(ct) && !isSearchForm(r, ct) {
				WriteError(w, r, &Error{Status: http.StatusUnsupportedMediaType, Code: "not-supported", Key: "fhir.json_only"})
				return
			}
		}
		next(w, r)
	}
}

// isSearchForm reports whether r is a search's POST form (formSearch): the one body that is
// not JSON.
func isSearchForm(r *http.Request, mediaType string) bool {
	t, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(mediaType)), ";")
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/_search") && strings.TrimSpace(t) == "application/x-www-form-urlencoded"
}

func isJSON(mediaType string) bool {
	t, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(mediaType)), ";")
	switch strings.TrimSpace(t) {
	case "json", "application/json", "application/fhir+json", "application/json+fhir":
		return true
	}
	return false
}

func acceptsJSON(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		t, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(part)), ";")
		if isJSON(t) || t == "*/*" || t == "application/*" {
			return true
		}
	}
	return false
}

// baseURL is the absolute address of the FHIR API as the caller reached it, or at the
// clinic's public address when one is set.
func (h *Handler) baseURL(r *http.Request) string {
	if public := h.publicURL(r.Context()); public != "" {
		return strings.TrimRight(public, "/") + Base
	}
	scheme := "http"
	if auth.Secure(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host + Base
}

// audited records a read of the FHIR API (action "fhir.<type>.read" or ".list") for the
// request's user, about patientID when not 0; a read that cannot be audited is not served.
func (h *Handler) audited(r *http.Request, action, kind, id string, patientID int64, detail string) error {
	return audit.Access(r.Context(), h.DB, readEvent(r, action, kind, id, patientID, detail))
}

// readEvent is the audit event of a read of the FHIR API (audited).
func readEvent(r *http.Request, action, kind, id string, patientID int64, detail string) audit.Event {
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.Detail = action, kind, id, patientID, audit.Success, detail
	if p := auth.PrincipalFrom(r.Context()); p != nil && p.TokenID != 0 {
		e.Detail = strings.TrimSpace(e.Detail + " (API token " + strconv.FormatInt(p.TokenID, 10) + ")")
	}
	return e
}

// clinicFresh is how long the clinic's settings are kept between reads.
var clinicFresh = 5 * time.Second

// publicURL is the clinic's public address ("" when unset), read at most every few seconds.
func (h *Handler) publicURL(ctx context.Context) string { return h.clinicSettings(ctx).PublicURL }

// numberSystem is the identifier system of the clinic's patient numbers
// (settings.Clinic.PatientNumberSystem).
func (h *Handler) numberSystem(ctx context.Context) string {
	return h.clinicSettings(ctx).PatientNumberSystem()
}

// clinicKey holds, in a request's context, the clinic's settings as read when it began.
type clinicKey struct{}

// withClinic reads the clinic's settings (at most every few seconds) before the route's
// handler opens any transaction, and keeps them in the request's context for all it does:
// code holding a transaction or open rows never asks the pool for the settings (a
// Bundle's entries, dispatched with the Bundle's context, keep the Bundle's).
func (h *Handler) withClinic(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Context().Value(clinicKey{}).(settings.Clinic); !ok {
			r = r.WithContext(context.WithValue(r.Context(), clinicKey{}, h.readClinic(r.Context())))
		}
		next(w, r)
	}
}

// readClinic is the clinic's settings, read again when the last read is a few seconds old.
// The lock is not held across the query: requests meeting a lapsed cache each read, none waits.
func (h *Handler) readClinic(ctx context.Context) settings.Clinic {
	h.publicMu.Lock()
	c, fresh := h.settings, time.Now().Before(h.publicUntil)
	h.publicMu.Unlock()
	if fresh {
		return c
	}
	read, err := settings.ReadClinic(ctx, h.DB)
	if err != nil {
		return c
	}
	h.publicMu.Lock()
	h.settings, h.publicUntil = read, time.Now().Add(clinicFresh)
	h.publicMu.Unlock()
	return read
}

// clinicSettings are the clinic's settings as the request read them when it began
// (withClinic); outside a request (an export's job, a history's versions) the last read, or
// a first read when there has been none.
func (h *Handler) clinicSettings(ctx context.Context) settings.Clinic {
	if c, ok := ctx.Value(clinicKey{}).(settings.Clinic); ok {
		return c
	}
	h.publicMu.Lock()
	c, read := h.settings, !h.publicUntil.IsZero()
	h.publicMu.Unlock()
	if read {
		return c
	}
	return h.readClinic(ctx)
}
