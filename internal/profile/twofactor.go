package profile

import (
	"net/http"
	"strings"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

func (h *Handler) twoFactorStatus(w http.ResponseWriter, r *http.Request) {
	s, err := h.TwoFactor.Status(r.Context(), me(r).UserID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	s.Required = me(r).TwoFactorRequired
	httpjson.Respond(w, http.StatusOK, s)
}

// twoFactorSetup makes a new secret for the authenticator app (shown as a QR code and as
// text); it is on only after twoFactorConfirm.
func (h *Handler) twoFactorSetup(w http.ResponseWriter, r *http.Request) {
	p := me(r)
	e, err := h.TwoFactor.Begin(r.Context(), p.UserID, p.Username)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, e)
}

type codeInput struct {
	Code     string `json:"code"`
	Password string `json:"password"`
}

// twoFactorConfirm turns the second factor on with a first code, and answers the recovery
// codes, once.
func (h *Handler) twoFactorConfirm(w http.ResponseWriter, r *http.Request) {
	var in codeInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p := me(r)
	codes, err := h.TwoFactor.Confirm(r.Context(), auth.AuditEvent(r), p, strings.TrimSpace(in.Code))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"recovery_codes": codes})
}

// twoFactorDisable turns the second factor off, with the password and a current code (or a
// recovery code); the wrong password counts against the login throttle.
func (h *Handler) twoFactorDisable(w http.ResponseWriter, r *http.Request) {
	var in codeInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p := me(r)
	ctx := r.Context()
	right, err := h.ownPassword(ctx, p, in.Password)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var v apperr.Validation
	if !right {
		v.Add("password", "profile.password_wrong")
	} else if ok, err := h.TwoFactor.Verify(ctx, p.UserID, in.Code); err != nil {
		httpjson.Error(w, r, err)
		return
	} else if !ok {
		v.Add("code", "twofactor.wrong_code") // a wrong code keeps the try's slot, as a wrong password does
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Throttle.GiveBack(ctx, "user:"+p.Username); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	e := auth.AuditEvent(r)
	e.Action = "profile.two_factor_off"
	if err := h.Users.RemoveTwoFactor(ctx, e, p.UserID, h.TwoFactor, p); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}
