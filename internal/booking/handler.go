package booking

import (
	"net/http"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// The public page's limits per ThrottleWindow and address block: reads (options, slots),
// and code checks (and per hold). Sending a code has the code's own limits (reminder).
const (
	ReadLimit      = 120
	ConfirmLimit   = 30
	HoldCheckLimit = 10
	ThrottleWindow = 10 * time.Minute
)

// Handler serves the booking settings, the desk's requests and the public page's API.
type Handler struct {
	Store    *Store
	Throttle *auth.Throttle
}

// Routes is the route table of online booking. The public routes take no CSRF token: the
// page has no session, so a cross-site request rides on nothing of the visitor's; what it
// could do — ask for a code to an address it names, try a code — anyone can do directly,
// and both are throttled per address block, per address and per hold (ADR 43).
func (h *Handler) Routes() []auth.Route {
	manage := auth.Need(auth.ManageAppointment)
	return []auth.Route{
		{Method: "GET", Path: "/api/settings/online-booking", Access: auth.Need(auth.ManageSettings), Handler: h.settings},
		{Method: "PUT", Path: "/api/settings/online-booking", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: h.saveSettings},
		{Method: "GET", Path: "/api/booking-requests", Access: auth.Need(auth.ViewAppointment), Handler: h.requests},
		{Method: "POST", Path: "/api/booking-requests/{id}/accept", Access: manage, Announces: auth.ChangesAppointments, Handler: h.accept},
		{Method: "POST", Path: "/api/booking-requests/{id}/decline", Access: manage, Announces: auth.ChangesAppointments, Handler: h.decline},
		{Method: "GET", Path: "/api/book/options", Access: auth.Public, Handler: h.options},
		{Method: "GET", Path: "/api/book/slots", Access: auth.Public, Handler: h.slots},
		{Method: "POST", Path: "/api/book/holds", Access: auth.Public, NoCSRF: true, Handler: h.hold},
		{Method: "POST", Path: "/api/book/holds/{id}/confirm", Access: auth.Public, NoCSRF: true, Announces: auth.ChangesAppointments, Handler: h.confirm},
	}
}

// allow takes one call from the budgets named; false: refused (answered).
func (h *Handler) allow(w http.ResponseWriter, r *http.Request, budgets ...budget) bool {
	if h.Throttle == nil {
		return true
	}
	for _, b := range budgets {
		wait, err := h.Throttle.TakeMany(r.Context(), b.key, 1, b.limit)
		if err != nil {
			httpjson.Error(w, r, err)
			return false
		}
		if wait > 0 {
			httpjson.Error(w, r, apperr.Throttled("booking.throttled", auth.Seconds(wait)))
			return false
		}
	}
	return true
}

type budget = struct {
	key   string
	limit int
}

func block(r *http.Request) string { return auth.AddressBlock(auth.ClientAddress(r)) }

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	s, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	var in Settings
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	s, err := SaveSettings(r.Context(), h.Store.DB, auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}

func (h *Handler) requests(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Requests(r.Context(), r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) accept(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "booking.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in AcceptInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.Accept(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) decline(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "booking.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Version int    `json:"version"`
		Reason  string `json:"reason"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.Decline(r.Context(), auth.AuditEvent(r), id, in.Version, in.Reason)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) options(w http.ResponseWriter, r *http.Request) {
	if !h.allow(w, r, budget{"book-read:" + block(r), ReadLimit}) {
		return
	}
	o, err := h.Store.Options(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, o)
}

func (h *Handler) slots(w http.ResponseWriter, r *http.Request) {
	if !h.allow(w, r, budget{"book-read:" + block(r), ReadLimit}) {
		return
	}
	get := r.URL.Query().Get
	q := Query{Type: get("type"), From: get("from")}
	var v apperr.Validation
	if s := get("doctor_id"); s != "" && s != "any" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			v.Add("doctor_id", "validation.invalid_choice")
		}
		q.DoctorID = id
	}
	if s := get("days"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			v.Add("days", "booking.bad_days")
		}
		q.Days = n
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Slots(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) hold(w http.ResponseWriter, r *http.Request) {
	var in HoldInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	hold, err := h.Store.Hold(r.Context(), auth.ClientAddress(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, hold)
}

func (h *Handler) confirm(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "booking.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Code string `json:"code"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil { // a body that is no try spends no budget
		httpjson.Error(w, r, err)
		return
	}
	// The network's failures at every public check first (auth.PublicFailureLimit an hour,
	// across holds and the portal's codes); a check refused by a later budget, or right,
	// gives its slot back.
	if h.Throttle != nil {
		wait, err := h.Throttle.TakeFailure(r.Context(), block(r))
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if wait > 0 {
			httpjson.Error(w, r, apperr.Throttled("booking.throttled", auth.Seconds(wait)))
			return
		}
	}
	giveBack := func() {
		if h.Throttle != nil {
			_ = h.Throttle.GiveBackFailure(r.Context(), block(r))
		}
	}
	if !h.allow(w, r, budget{"book-confirm:" + block(r), ConfirmLimit}, budget{"book-hold:" + strconv.FormatInt(id, 10), HoldCheckLimit}) {
		giveBack()
		return
	}
	done, err := h.Store.Confirm(r.Context(), auth.AuditEvent(r), id, in.Code)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	giveBack()
	httpjson.Respond(w, http.StatusOK, done)
}
