package user

// The signed-in user's own session: the CSRF cookie, login, logout and "who am I" (spec §7:
// /sanctum/csrf-cookie, /auth/login, /auth/logout, /user).

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/metrics"
)

// Me is the answer of GET /api/user: the current user as the web app needs it.
type Me struct {
	ID           int64             `json:"id"`
	Username     string            `json:"username"`
	Name         string            `json:"name"`
	Avatar       string            `json:"avatar"`
	Introduction string            `json:"introduction"`
	Roles        []string          `json:"roles"`
	Permissions  []auth.Permission `json:"permissions"`
	// MustChangePassword: the web app sends the user to change it before anything else.
	MustChangePassword bool `json:"must_change_password"`
	// MustEnrolTwoFactor: a role requires two-factor sign-in; the web app sends the user to
	// set it up before anything else.
	MustEnrolTwoFactor bool `json:"must_enrol_two_factor"`
	// Emergency is an active emergency-access grant, shown to the user as a banner.
	Emergency *auth.Emergency `json:"emergency"`
}

func meOf(p *auth.Principal) Me {
	return Me{ID: p.UserID, Username: p.Username, Name: p.Name, Avatar: p.Avatar, Introduction: p.Intro, Roles: p.Roles, Permissions: p.Permissions, MustChangePassword: p.MustChangePassword, MustEnrolTwoFactor: p.MustEnrolTwoFactor, Emergency: p.Emergency}
}

func (h *Handler) csrfCookie(w http.ResponseWriter, r *http.Request) {
	auth.SetCSRFCookie(w, r, auth.SessionToken(r))
	httpjson.NoContent(w)
}

type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
	// Code is the second factor (a TOTP code or a recovery code), asked for once the
	// password is right for an account that has one.
	Code string `json:"code"`
}

// validate checks a login request's fields before anything is looked up.
func (req *loginRequest) validate() error {
	req.Username = strings.TrimSpace(req.Username)
	var v apperr.Validation
	if req.Username == "" {
		v.Add("username", "validation.required")
	} else if utf8.RuneCountInString(req.Username) > 64 {
		v.Add("username", "validation.too_long")
	}
	if req.Password == "" {
		v.Add("password", "validation.required")
	} else if len(req.Password) > 1024 {
		v.Add("password", "validation.too_long")
	}
	if len(req.Code) > 64 {
		v.Add("code", "validation.too_long")
	}
	return v.Err()
}

// loginTry is one try at logging in: what was sent, from where, the throttle's keys of the
// account and of the address, and the audit event that records how it ended.
type loginTry struct {
	req              loginRequest
	addr             string
	userKey, addrKey string
	event            audit.Event
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	var req loginRequest
	if err := httpjson.Decode(w, r, &req); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := req.validate(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	ctx := r.Context()
	addr := auth.ClientAddress(r)
	try := loginTry{req: req, addr: addr, userKey: "user:" + NormalizeUsername(req.Username), addrKey: "addr:" + addr,
		event: audit.Event{ActorName: req.Username, Action: "auth.login", Address: addr}}

	wait, err := h.takeSlots(ctx, try)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if wait > 0 {
		metrics.LoginThrottled()
		h.refuse(w, r, try.event, audit.Denied, "throttled", apperr.Throttled("auth.throttled", auth.Seconds(wait)))
		return
	}
	id, hash, active, err := h.Users.Credentials(ctx, req.Username)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		httpjson.Error(w, r, err)
		return
	}
	// A missing account is checked against a dummy hash, so that timing does not tell
	// whether a username exists; inactive accounts fail the same way as wrong passwords.
	// A failed try keeps the slots it took.
	if ok := auth.CheckPasswordOrDummy(hash, req.Password); !ok || !active {
		metrics.LoginFailed()
		detail := ""
		if ok && !active {
			detail = "account deactivated"
		}
		h.refuse(w, r, try.event, audit.Failure, detail, apperr.Unauthenticated("auth.invalid_credentials"))
		return
	}
	ok, err := h.secondFactor(ctx, try, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !ok {
		metrics.LoginFailed()
		h.refuse(w, r, try.event, audit.Failure, "wrong second factor", apperr.Unauthenticated("auth.invalid_code"))
		return
	}
	if err := h.succeeded(ctx, try, id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	token, p, err := h.newSession(r, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	try.event.ActorID, try.event.ActorName, try.event.Outcome = p.UserID, p.Username, audit.Success
	h.record(r, try.event)
	auth.SetSessionCookie(w, r, token)
	auth.SetCSRFCookie(w, r, token)
	httpjson.Respond(w, http.StatusOK, meOf(p))
}

// takeSlots takes the try's slots before the password is checked (docs/adr/0017): the
// account's first, then the address's, which a known account of that address may go
// beyond. A wait above zero refuses the try (and gives back the account's slot when the
// address's refused it: the password was not checked, so it is not the account's failure).
func (h *Handler) takeSlots(ctx context.Context, t loginTry) (time.Duration, error) {
	wait, err := h.Throttle.Take(ctx, t.userKey, auth.UserFailureLimit)
	if err != nil || wait > 0 {
		return wait, err
	}
	if wait, err = h.Throttle.Take(ctx, t.addrKey, auth.AddressFailureLimit); err != nil || wait == 0 {
		return 0, err
	}
	known, err := h.Throttle.Known(ctx, t.userKey, t.addr)
	if err != nil || known {
		return 0, err
	}
	return wait, h.Throttle.GiveBack(ctx, t.userKey)
}

// secondFactor checks the code of an account that has a second factor (true for one that
// has none). Without a code the password's try is given back and the code asked for; a wrong
// or spent code is a failed try (false).
func (h *Handler) secondFactor(ctx context.Context, t loginTry, id int64) (bool, error) {
	second, err := h.TwoFactor.Status(ctx, id)
	if err != nil || !second.Enabled {
		return err == nil, err
	}
	if strings.TrimSpace(t.req.Code) == "" {
		if err := h.Throttle.GiveBack(ctx, t.userKey); err != nil {
			return false, err
		}
		if err := h.Throttle.GiveBack(ctx, t.addrKey); err != nil {
			return false, err
		}
		return false, apperr.Unauthenticated("auth.two_factor_required")
	}
	return h.TwoFactor.Verify(ctx, id, t.req.Code)
}

// succeeded forgets the account's failed tries, gives the address's slot back and remembers
// the address for the account. A password from before the policy that it would refuse is to
// be changed before anything else (the session can then only change it).
func (h *Handler) succeeded(ctx context.Context, t loginTry, id int64) error {
	if err := h.Throttle.Reset(ctx, h.Users.DB, t.userKey); err != nil {
		return err
	}
	if auth.PasswordProblem(t.req.Password, t.req.Username) != "" {
		if err := h.Users.RequirePasswordChange(ctx, id); err != nil {
			return err
		}
	}
	if err := h.Throttle.GiveBack(ctx, t.addrKey); err != nil {
		return err
	}
	return h.Throttle.Remember(ctx, t.userKey, t.addr)
}

// newSession opens a session for account id with a new session id (any session the browser
// still had is ended first) and answers its token and who it is.
func (h *Handler) newSession(r *http.Request, id int64) (string, *auth.Principal, error) {
	ctx := r.Context()
	if token := auth.SessionToken(r); token != "" {
		if err := h.Sessions.RevokeToken(ctx, token); err != nil {
			return "", nil, err
		}
	}
	token, err := h.Sessions.Create(ctx, id, auth.ClientAddress(r), r.UserAgent())
	if err != nil {
		return "", nil, err
	}
	p, err := h.Sessions.Lookup(ctx, token)
	return token, p, err
}

// refuse records a try that did not succeed (outcome, detail) and answers err.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, e audit.Event, outcome, detail string, err error) {
	e.Outcome, e.Detail = outcome, detail
	h.record(r, e)
	httpjson.Error(w, r, err)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	p := auth.PrincipalFrom(r.Context())
	if err := h.Sessions.Revoke(r.Context(), p); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	e := auth.AuditEvent(r) // marked with the credential, as every event of a request is
	e.Action, e.Outcome = "auth.logout", audit.Success
	h.record(r, e)
	auth.SetSessionCookie(w, r, "")
	auth.SetCSRFCookie(w, r, "")
	httpjson.NoContent(w)
}

func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	httpjson.Respond(w, http.StatusOK, meOf(auth.PrincipalFrom(r.Context())))
}

// record writes an audit event of a sign-in or sign-out; a failure to audit is logged, and
// does not undo a login.
func (h *Handler) record(r *http.Request, e audit.Event) {
	if err := audit.Access(r.Context(), h.Users.DB, e); err != nil {
		slog.ErrorContext(r.Context(), "audit", "err", err)
	}
}
