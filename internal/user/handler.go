package user

import (
	"net/http"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/settings"
)

// Account is a user as the administration screens show it: with whether logins are
// throttled now.
type Account struct {
	User
	Locked bool `json:"locked"`
	// TwoFactor says the account signs in with a confirmed second factor.
	TwoFactor bool `json:"two_factor"`
	// Emergency is the emergency-access grant in force, nil when none.
	Emergency *auth.Emergency `json:"emergency"`
}

// account is u as the administrators' screens show it; enrolled holds the accounts with a
// second factor (auth.TwoFactorEnrolled, read once for a page of them).
func (h *Handler) account(r *http.Request, u User, enrolled map[int64]bool) (Account, error) {
	wait, err := h.Throttle.RetryAfter(r.Context(), "user:"+u.Username, auth.UserFailureLimit)
	if err != nil {
		return Account{}, err
	}
	g, err := ActiveEmergency(r.Context(), h.Users.DB, u.ID, time.Now())
	if err != nil {
		return Account{}, err
	}
	return Account{User: u, Locked: wait > 0, TwoFactor: enrolled[u.ID], Emergency: g}, nil
}

func pathID(r *http.Request) (int64, error) { return httpjson.PathID(r, "id", "user.not_found") }

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	get := r.URL.Query().Get
	var v apperr.Validation
	q := ListQuery{Q: get("q"), Status: get("status")}
	q.Page, q.PerPage = httpjson.Page(get, &v)
	if q.Status != "" && q.Status != "active" && q.Status != "inactive" {
		v.Add("status", "validation.query")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, total, err := h.Users.List(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	ids := make([]int64, len(list))
	for i, u := range list {
		ids[i] = u.ID
	}
	enrolled, err := auth.TwoFactorEnrolled(r.Context(), h.Users.DB, ids)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out := make([]Account, len(list))
	for i := range list {
		if out[i], err = h.account(r, list[i], enrolled); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	httpjson.Respond(w, http.StatusOK, httpjson.ListBody[Account]{Data: out, Meta: httpjson.ListMeta{Total: total, Page: q.Page, PerPage: q.PerPage}})
}

// respond answers one account with the given status, or the error that ended its handler.
func (h *Handler) respond(w http.ResponseWriter, r *http.Request, status int, u User, err error) {
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	enrolled, err := auth.TwoFactorEnrolled(r.Context(), h.Users.DB, []int64{u.ID})
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.account(r, u, enrolled)
	httpjson.Result(w, r, status, a, err)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	var in NewUser
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	e := auth.AuditEvent(r)
	in.Audit = &e
	clinic, err := settings.ReadClinic(r.Context(), h.Users.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	in.Personal = []string{clinic.Name}
	u, err := h.Users.Create(r.Context(), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	u, err = Get(r.Context(), h.Users.DB, u.ID)
	h.respond(w, r, http.StatusCreated, u, err)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	u, err := Get(r.Context(), h.Users.DB, id)
	h.respond(w, r, http.StatusOK, u, err)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	id, c, ok := httpjson.DecodeOn[Change](w, r, "user.not_found")
	if !ok {
		return
	}
	u, err := h.Users.Update(r.Context(), auth.AuditEvent(r), id, c)
	h.respond(w, r, http.StatusOK, u, err)
}

// resetPassword sets a temporary password, shown once to the administrator, which the
// user must change at the next login.
func (h *Handler) resetPassword(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	temporary := auth.NewPassword()
	err = h.Users.ResetPassword(r.Context(), auth.AuditEvent(r), id, temporary)
	httpjson.Result(w, r, http.StatusOK, map[string]string{"temporary_password": temporary}, err)
}

// pathUser reads the account of the path's id, for an administrator's action on it; false
// when there is none (and the caller was answered).
func (h *Handler) pathUser(w http.ResponseWriter, r *http.Request) (User, bool) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return User{}, false
	}
	u, err := Get(r.Context(), h.Users.DB, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return User{}, false
	}
	return u, true
}

// resetTwoFactor removes a user's second factor (a lost phone): they sign in with their
// password and, if a role requires it, set it up again. Audited.
func (h *Handler) resetTwoFactor(w http.ResponseWriter, r *http.Request) {
	u, ok := h.pathUser(w, r)
	if !ok {
		return
	}
	// An account that signs in with its password only has nothing to reset: saying so beats
	// an audited "reset" that changed nothing (and ended the account's sessions for it).
	enrolled, err := auth.TwoFactorEnrolled(r.Context(), h.Users.DB, []int64{u.ID})
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !enrolled[u.ID] {
		httpjson.Error(w, r, apperr.Conflict("user.no_two_factor"))
		return
	}
	e := auth.AuditEvent(r)
	e.Action = "user.two_factor_reset"
	err = h.Users.RemoveTwoFactor(r.Context(), e, u.ID, h.TwoFactor, auth.PrincipalFrom(r.Context()))
	h.respond(w, r, http.StatusOK, u, err)
}

// unlock forgets the failed logins that throttle an account.
func (h *Handler) unlock(w http.ResponseWriter, r *http.Request) {
	u, ok := h.pathUser(w, r)
	if !ok {
		return
	}
	h.respond(w, r, http.StatusOK, u, h.Users.Unlock(r.Context(), auth.AuditEvent(r), u, h.Throttle))
}
