package user

// The signed-in user's own session: the CSRF cookie, login, logout and "who am I" (spec §7:
// /sanctum/csrf-cookie, /auth/login, /auth/logout, /user).

import (
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

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	var req loginRequest
	if err := httpjson.Decode(w, r, &req); err != nil {
		httpjson.Error(w, r, err)
		return
	}
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
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	ctx := r.Context()
	addr := auth.ClientAddress(r)
	userKey, addrKey := "user:"+NormalizeUsername(req.Username), "addr:"+addr
	event := audit.Event{ActorName: req.Username, Action: "auth.login", Address: addr}

	// Each try takes its slot before the password is checked (docs/adr/0017): the account's
	// first, then the address's, which a known account of that address may go beyond.
	throttled := func(wait time.Duration) {
		metrics.LoginThrottled()
		event.Outcome, event.Detail = audit.Denied, "throttled"
		h.record(r, event)
		httpjson.Error(w, r, apperr.Throttled("auth.throttled", auth.Seconds(wait)))
	}
	wait, err := h.Throttle.Take(ctx, userKey, auth.UserFailureLimit)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if wait > 0 {
		throttled(wait)
		return
	}
	if wait, err = h.Throttle.Take(ctx, addrKey, auth.AddressFailureLimit); err == nil && wait > 0 {
		var known bool
		if known, err = h.Throttle.Known(ctx, userKey, addr); err == nil && !known {
			// Not checked, so not the account's failure.
			if err := h.Throttle.GiveBack(ctx, userKey); err != nil {
				httpjson.Error(w, r, err)
				return
			}
			throttled(wait)
			return
		}
	}
	if err != nil {
		httpjson.Error(w, r, err)
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
		event.Outcome = audit.Failure
		if ok && !active {
			event.Detail = "account deactivated"
		}
		h.record(r, event)
		httpjson.Error(w, r, apperr.Unauthenticated("auth.invalid_credentials"))
		return
	}

	// The second factor, for an account that has one: without a code the password's try is
	// given back and the code asked for; a wrong or spent code is a failed try.
	second, err := h.TwoFactor.Status(ctx, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if second.Enabled {
		if strings.TrimSpace(req.Code) == "" {
			err = h.Throttle.GiveBack(ctx, userKey)
			if err == nil {
				err = h.Throttle.GiveBack(ctx, addrKey)
			}
			if err == nil {
				err = apperr.Unauthenticated("auth.two_factor_required")
			}
			httpjson.Error(w, r, err)
			return
		}
		ok, err := h.TwoFactor.Verify(ctx, id, req.Code)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if !ok {
			metrics.LoginFailed()
			event.Outcome, event.Detail = audit.Failure, "wrong second factor"
			h.record(r, event)
			httpjson.Error(w, r, apperr.Unauthenticated("auth.invalid_code"))
			return
		}
	}

	err = h.Throttle.Reset(ctx, h.Users.DB, userKey)
	if err == nil && auth.PasswordProblem(req.Password, req.Username) != "" {
		// A password from before the policy that it would refuse: to be changed before
		// anything else (the session can then only change it).
		err = h.Users.RequirePasswordChange(ctx, id)
	}
	if err == nil {
		err = h.Throttle.GiveBack(ctx, addrKey)
	}
	if err == nil {
		err = h.Throttle.Remember(ctx, userKey, addr)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	// A new session id at every login: any session the browser still had is ended.
	if token := auth.SessionToken(r); token != "" {
		if err := h.Sessions.RevokeToken(ctx, token); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	token, err := h.Sessions.Create(ctx, id, addr, r.UserAgent())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Sessions.Lookup(ctx, token)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	event.ActorID, event.ActorName, event.Outcome = p.UserID, p.Username, audit.Success
	h.record(r, event)
	auth.SetSessionCookie(w, r, token)
	auth.SetCSRFCookie(w, r, token)
	httpjson.Respond(w, http.StatusOK, meOf(p))
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	p := auth.PrincipalFrom(r.Context())
	if err := h.Sessions.Revoke(r.Context(), p); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.record(r, audit.Event{ActorID: p.UserID, ActorName: p.Username, Action: "auth.logout", Address: auth.ClientAddress(r), Outcome: audit.Success})
	auth.SetSessionCookie(w, r, "")
	auth.SetCSRFCookie(w, r, "")
	httpjson.NoContent(w)
}

func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	httpjson.Respond(w, http.StatusOK, meOf(auth.PrincipalFrom(r.Context())))
}

// record writes an audit event; a failure to audit is logged, and does not undo a login.
func (h *Handler) record(r *http.Request, e audit.Event) {
	if err := audit.Access(r.Context(), h.Users.DB, e); err != nil {
		slog.ErrorContext(r.Context(), "audit", "err", err)
	}
}
