package portal

import (
	"errors"
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the portal's API and the chart's portal card.
type Handler struct {
	Store *Store
	// Throttle limits access-code sign-ins and one-time code checks (Window: AccessWindow).
	Throttle *auth.Throttle
}

// Routes is the portal's route table: the chart's card (manage portal), signing in (the
// portal's public routes, with its own CSRF cookie), and a portal session's own.
func (h *Handler) Routes() []auth.Route {
	manage := auth.Need(auth.ManagePortal)
	return []auth.Route{
		{Method: "GET", Path: "/api/patients/{id}/portal", Access: manage, Handler: h.status},
		{Method: "POST", Path: "/api/patients/{id}/portal/invite", Access: manage, SessionOnly: true, Announces: auth.ChangesPatients, Handler: h.invite},
		{Method: "POST", Path: "/api/patients/{id}/portal/revoke", Access: manage, SessionOnly: true, Announces: auth.ChangesPatients, Handler: h.revoke},
		{Method: "POST", Path: "/api/patients/{id}/portal/guardians", Access: manage, SessionOnly: true, Announces: auth.ChangesPatients, Handler: h.link},
		{Method: "DELETE", Path: "/api/patients/{id}/portal/guardians/{link}", Access: manage, SessionOnly: true, Announces: auth.ChangesPatients, Handler: h.unlink},

		{Method: "GET", Path: "/api/portal/session", Access: auth.PortalSignIn, Handler: h.session},
		{Method: "POST", Path: "/api/portal/sign-in/code", Access: auth.PortalSignIn, Handler: h.requestCode},
		{Method: "POST", Path: "/api/portal/sign-in/code/{id}", Access: auth.PortalSignIn, Handler: h.verifyCode},
		{Method: "POST", Path: "/api/portal/sign-in/access", Access: auth.PortalSignIn, Handler: h.signInAccess},
		{Method: "POST", Path: "/api/portal/sign-out", Access: auth.Portal, Handler: h.signOut},
		{Method: "GET", Path: "/api/portal/sessions", Access: auth.Portal, Handler: h.sessions},
		{Method: "POST", Path: "/api/portal/sessions/end-others", Access: auth.Portal, Handler: h.endOthers},
		{Method: "GET", Path: "/api/portal/records/{id}/appointments", Access: auth.Portal, Handler: h.appointments},
		{Method: "POST", Path: "/api/portal/records/{id}/appointments/{appt}/cancel", Access: auth.Portal, Announces: auth.ChangesAppointments, Handler: h.cancel},
		{Method: "GET", Path: "/api/portal/records/{id}/appointments/{appt}/times", Access: auth.Portal, Handler: h.times},
		{Method: "POST", Path: "/api/portal/records/{id}/appointments/{appt}/move", Access: auth.Portal, Announces: auth.ChangesAppointments, Handler: h.move},
		{Method: "GET", Path: "/api/portal/records/{id}/bills", Access: auth.Portal, Handler: h.bills},
		{Method: "GET", Path: "/api/portal/records/{id}/released", Access: auth.Portal, Handler: h.released},
		{Method: "GET", Path: "/api/portal/records/{id}/released/{kind}/{item}", Access: auth.Portal, Handler: h.open},
		{Method: "GET", Path: "/api/portal/records/{id}/contact", Access: auth.Portal, Handler: h.contact},
		{Method: "PUT", Path: "/api/portal/records/{id}/contact", Access: auth.Portal, Announces: auth.ChangesPatients, Handler: h.saveContact},
	}
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if _, err := h.Store.Patients.Get(r.Context(), id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st, err := h.Store.StatusOf(r.Context(), h.Store.DB, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, st)
}

func (h *Handler) invite(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	inv, err := h.Store.Invite(r.Context(), auth.AuditEvent(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpjson.Respond(w, http.StatusOK, inv)
}

func (h *Handler) revoke(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st, err := h.Store.Revoke(r.Context(), auth.AuditEvent(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, st)
}

func (h *Handler) link(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in GuardianInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st, err := h.Store.LinkGuardian(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, st)
}

func (h *Handler) unlink(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	link, err := httpjson.PathID(r, "link", "portal.guardian_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st, err := h.Store.UnlinkGuardian(r.Context(), auth.AuditEvent(r), id, link)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, st)
}

// session says whether the browser's portal session is live and what it opens, and issues
// the portal's CSRF cookie (the session's own, or a fresh one before a sign-in).
func (h *Handler) session(w http.ResponseWriter, r *http.Request) {
	var out Session
	p, err := h.Store.LookupPortal(r.Context(), auth.PortalToken(r))
	if err != nil && !errors.Is(err, apperr.ErrUnauthenticated) {
		httpjson.Error(w, r, err) // the database, not the session: the patient stays signed in
		return
	}
	if err != nil {
		auth.SetPortalCookies(w, r, "") // a dead session's cookie goes
		out, err = h.Store.Describe(r.Context(), nil)
	} else {
		auth.SetPortalCSRF(w, r)
		out, err = h.Store.Describe(r.Context(), p.Records)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) requestCode(w http.ResponseWriter, r *http.Request) {
	var in CodeRequest
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	id, err := h.Store.RequestCode(r.Context(), in, auth.ClientAddress(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]int64{"code_id": id})
}

func (h *Handler) verifyCode(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "reminder.code_expired")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Code string `json:"code"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	block := auth.AddressBlock(auth.ClientAddress(r))
	if h.Throttle != nil {
		// The network's failures at every public check first (auth.PublicFailureLimit an
		// hour, across codes, access codes and booking's holds), then its code checks.
		wait, err := h.Throttle.TakeFailure(r.Context(), block)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if wait > 0 {
			httpjson.Error(w, r, apperr.Throttled("portal.throttled", auth.Seconds(wait)))
			return
		}
		wait, err = h.Throttle.TakeMany(r.Context(), "portal-code:"+block, 1, CodeCheckBlockLimit)
		if err != nil {
			_ = h.Throttle.GiveBackFailure(r.Context(), block)
			httpjson.Error(w, r, err)
			return
		}
		if wait > 0 {
			_ = h.Throttle.GiveBackFailure(r.Context(), block)
			httpjson.Error(w, r, apperr.Throttled("portal.throttled", auth.Seconds(wait)))
			return
		}
	}
	in2, err := h.Store.VerifyCode(r.Context(), auth.AuditEvent(r), id, in.Code, auth.PortalToken(r))
	if err == nil && h.Throttle != nil {
		_ = h.Throttle.GiveBackFailure(r.Context(), block)
	}
	h.signedIn(w, r, in2, err)
}

func (h *Handler) signInAccess(w http.ResponseWriter, r *http.Request) {
	var in AccessSignIn
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.SignInWithAccess(r.Context(), auth.AuditEvent(r), in, auth.PortalToken(r), h.Throttle)
	h.signedIn(w, r, out, err)
}

// signedIn sets the new session's cookies and answers what it opens.
func (h *Handler) signedIn(w http.ResponseWriter, r *http.Request, in SignedIn, err error) {
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	auth.SetPortalCookies(w, r, in.Token)
	out, err := h.Store.Describe(r.Context(), in.Records)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	if err := h.Store.SignOut(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context())); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	auth.SetPortalCookies(w, r, "")
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) sessions(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Sessions(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) endOthers(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.EndOthers(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]int{"ended": n})
}

// recordID is the path's record id; an id that is no number is a record not found.
func recordID(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}

func (h *Handler) appointments(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	v, err := h.Store.Appointments(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, v)
}

func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	appt, _ := recordID(r, "appt")
	p := auth.PortalFrom(r.Context())
	h.visitsAfter(w, r, p, id, h.Store.Cancel(r.Context(), auth.AuditEvent(r), p, id, appt))
}

// visitsAfter answers the record's appointments after a change, or the change's refusal.
func (h *Handler) visitsAfter(w http.ResponseWriter, r *http.Request, p *auth.PortalPrincipal, id int64, changed error) {
	if changed != nil {
		httpjson.Error(w, r, changed)
		return
	}
	v, err := h.Store.Appointments(r.Context(), auth.AuditEvent(r), p, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, v)
}

func (h *Handler) times(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	appt, _ := recordID(r, "appt")
	days := 0
	if d := r.URL.Query().Get("days"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil {
			var v apperr.Validation
			v.Add("days", "booking.bad_days")
			httpjson.Error(w, r, v.Err())
			return
		}
		days = n
	}
	list, err := h.Store.Times(r.Context(), auth.PortalFrom(r.Context()), id, appt, r.URL.Query().Get("from"), days)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) move(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	appt, _ := recordID(r, "appt")
	var in MoveInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p := auth.PortalFrom(r.Context())
	h.visitsAfter(w, r, p, id, h.Store.Move(r.Context(), auth.AuditEvent(r), p, id, appt, in))
}

func (h *Handler) bills(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	b, err := h.Store.BillsOf(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, b)
}

func (h *Handler) contact(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	c, err := h.Store.ContactOf(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, c)
}

func (h *Handler) saveContact(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	var in Contact
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	c, err := h.Store.SaveContact(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, c)
}

func (h *Handler) released(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	v, err := h.Store.ReleasedOf(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, v, err)
}

func (h *Handler) open(w http.ResponseWriter, r *http.Request) {
	id, _ := recordID(r, "id")
	item, _ := recordID(r, "item")
	v, err := h.Store.OpenReleased(r.Context(), auth.AuditEvent(r), auth.PortalFrom(r.Context()), id, r.PathValue("kind"), item, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, v, err)
}
