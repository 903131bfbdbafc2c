package profile

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/settings"
	"emr/internal/user"
)

// Handler serves the profile API.
type Handler struct {
	Store *Store
	// Users keeps the account's password and second factor.
	Users    *user.Store
	Sessions *auth.Sessions
	// Throttle counts wrong current passwords against the user's login throttle: guessing
	// here is no easier than at the login page.
	Throttle *auth.Throttle
	// TwoFactor is the user's second factor, which they set up and turn off here.
	TwoFactor *auth.TwoFactor
}

// Routes is the profile API's route table. Everything acts on the logged-in user's own
// profile, except that an admin (manage user) may see and remove anyone's signature.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/get-profile", Access: auth.LoggedIn, BeforePasswordChange: true, Handler: h.get},
		{Method: "PATCH", Path: "/api/update-profile", Access: auth.LoggedIn, SessionOnly: true, Handler: h.update},
		{Method: "PUT", Path: "/api/profile/avatar", Access: auth.LoggedIn, Handler: h.upload(KindAvatar, MaxAvatar, avatarType)},
		{Method: "DELETE", Path: "/api/profile/avatar", Access: auth.LoggedIn, Handler: h.removeAvatar},
		{Method: "PUT", Path: "/api/profile/signature", Access: auth.LoggedIn, SessionOnly: true, Handler: h.upload(KindSignature, MaxSignature, signatureType)},
		// The spec's GET changes state, so it needs the CSRF header like any write.
		{Method: "GET", Path: "/api/remove-signature/{id}", Access: auth.LoggedIn, SessionOnly: true, ChangesState: true, Handler: h.removeSignature},
		{Method: "POST", Path: "/api/profile/password", Access: auth.LoggedIn, SessionOnly: true, BeforePasswordChange: true, Announces: auth.ChangesOwnSessions, Handler: h.password},
		{Method: "GET", Path: "/api/profile/activity", Access: auth.LoggedIn, Handler: h.activity},
		// Two-factor sign-in: reachable before the account is ready, since a role may require it.
		{Method: "GET", Path: "/api/profile/two-factor", Access: auth.LoggedIn, BeforePasswordChange: true, Handler: h.twoFactorStatus},
		{Method: "POST", Path: "/api/profile/two-factor/setup", Access: auth.LoggedIn, SessionOnly: true, BeforePasswordChange: true, Handler: h.twoFactorSetup},
		{Method: "POST", Path: "/api/profile/two-factor/confirm", Access: auth.LoggedIn, SessionOnly: true, BeforePasswordChange: true, Handler: h.twoFactorConfirm},
		{Method: "POST", Path: "/api/profile/two-factor/disable", Access: auth.LoggedIn, SessionOnly: true, BeforePasswordChange: true, Handler: h.twoFactorDisable},
		{Method: "GET", Path: "/api/users/{id}/avatar", Access: auth.LoggedIn, Handler: h.image(KindAvatar)},
		{Method: "GET", Path: "/api/users/{id}/signature", Access: auth.LoggedIn, Handler: h.image(KindSignature)},
	}
}

func me(r *http.Request) *auth.Principal { return auth.PrincipalFrom(r.Context()) }

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	p, err := Get(r.Context(), h.Store.DB, me(r).UserID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	var u Update
	if err := httpjson.Decode(w, r, &u); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Store.Update(r.Context(), auth.AuditEvent(r), me(r).UserID, u)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

// upload stores an avatar or signature sent as the multipart field "file". A refused
// file leaves the one before in place.
func (h *Handler) upload(kind string, limit int64, check func([]byte) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, _, err := httpjson.File(w, r, limit)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		ct, err := check(data)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if err := h.Store.SetImage(r.Context(), auth.AuditEvent(r), me(r).UserID, kind, ct, data); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		h.get(w, r)
	}
}

func (h *Handler) removeAvatar(w http.ResponseWriter, r *http.Request) {
	if err := h.Store.RemoveImage(r.Context(), auth.AuditEvent(r), me(r).UserID, KindAvatar); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.get(w, r)
}

// ownOrAdmin reads the {id} of a user path that only that user or an admin may use.
func ownOrAdmin(r *http.Request) (int64, error) {
	id, err := httpjson.PathID(r, "id", "error.not_found")
	if err != nil {
		return 0, err
	}
	if p := me(r); id != p.UserID && !p.Can(auth.ManageUser) {
		return 0, apperr.Forbidden("auth.forbidden")
	}
	return id, nil
}

func (h *Handler) removeSignature(w http.ResponseWriter, r *http.Request) {
	id, err := ownOrAdmin(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.RemoveImage(r.Context(), auth.AuditEvent(r), id, KindSignature); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

// image serves a user's avatar (to anyone logged in) or signature (to its owner or an
// admin; printed prescriptions carry their own copy).
func (h *Handler) image(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var id int64
		var err error
		if kind == KindSignature {
			id, err = ownOrAdmin(r)
		} else {
			id, err = httpjson.PathID(r, "id", "error.not_found")
		}
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		ct, data, err := Image(r.Context(), h.Store.DB, id, kind)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		WriteImage(w, ct, data)
	}
}

// WriteImage answers with a stored picture. A picture is shown, never run: an SVG is
// sandboxed by its own Content-Security-Policy.
func WriteImage(w http.ResponseWriter, contentType string, data []byte) {
	writeImage(w, contentType, data, "private, max-age=86400")
}

// WriteSignature answers the signature a paper carries (read by its owner's store, which
// answers not found for a paper without one): fixed with the paper, so a browser may keep it.
func WriteSignature(w http.ResponseWriter, r *http.Request, d Drawing, err error) {
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	writeImage(w, d.ContentType, d.Data, "private, max-age=31536000, immutable")
}

func writeImage(w http.ResponseWriter, contentType string, data []byte, cache string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", cache)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	_, _ = w.Write(data)
}

type passwordChange struct {
	Current string `json:"current_password"`
	New     string `json:"new_password"`
}

// password changes the user's password after checking the current one, and ends every
// other session of theirs.
func (h *Handler) password(w http.ResponseWriter, r *http.Request) {
	var in passwordChange
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var v apperr.Validation
	if in.Current == "" {
		v.Add("current_password", "validation.required")
	}
	clinic, err := settings.ReadClinic(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if problem := auth.PasswordProblem(in.New, me(r).Username, me(r).Name, clinic.Name); problem != "" {
		v.Add("new_password", problem)
	} else if in.New == in.Current {
		v.Add("new_password", "profile.password_same")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p := me(r)
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID = "profile.password", "user", fmt.Sprint(p.UserID)
	ok, err := h.ownPassword(r.Context(), p, in.Current)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !ok {
		e.Outcome = audit.Failure
		if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var wrong apperr.Validation
		wrong.Add("current_password", "profile.password_wrong")
		httpjson.Error(w, r, wrong.Err())
		return
	}
	if err := h.Throttle.GiveBack(r.Context(), "user:"+p.Username); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	newHash, err := auth.HashPassword(in.New)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	err = h.Users.ChangePassword(r.Context(), e, p, newHash, h.Sessions)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

func (h *Handler) activity(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.RecentActivity(r.Context(), me(r).UserID, 20)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// ownPassword checks the signed-in user's own password under their login throttle: the try
// takes its slot first (a throttled one is a 429 error), and the caller gives the slot back
// ("user:"+username) once everything it checks was right.
func (h *Handler) ownPassword(ctx context.Context, p *auth.Principal, password string) (bool, error) {
	wait, err := h.Throttle.Take(ctx, "user:"+p.Username, auth.UserFailureLimit)
	if err != nil {
		return false, err
	}
	if wait > 0 {
		return false, apperr.Throttled("auth.throttled", auth.Seconds(wait))
	}
	hash, err := h.Users.PasswordHash(ctx, p.UserID)
	if err != nil {
		return false, err
	}
	ok, err := auth.CheckPassword(hash, password)
	return ok && err == nil, nil
}
