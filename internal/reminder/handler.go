package reminder

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
)

// Handler serves the message settings, the message log and the link page's API.
type Handler struct {
	Service      *Service
	Appointments *appointment.Store
	// Throttle limits the link page's calls per address block and per link.
	Throttle *auth.Throttle
}

// The link page's limits per ThrottleWindow: per address block, and per link.
const (
	LinkLimit      = 30
	LinkTokenLimit = 10
	ThrottleWindow = 10 * time.Minute
)

// Routes is the route table of patient messages.
func (h *Handler) Routes() []auth.Route {
	send := auth.Need(auth.SendMessages)
	return []auth.Route{
		{Method: "GET", Path: "/api/settings/patient-messages", Access: auth.NeedAny(auth.ManageSettings, auth.SendMessages), Handler: h.settings},
		{Method: "PUT", Path: "/api/settings/patient-messages", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: h.saveSettings},
		{Method: "GET", Path: "/api/messages", Access: send, Handler: h.log},
		{Method: "POST", Path: "/api/messages/{id}/resend", Access: send, Handler: h.resend},
		{Method: "GET", Path: "/api/appointments/{id}/messages", Access: auth.Need(auth.ViewAppointment), Handler: h.ofAppointment},
		{Method: "GET", Path: "/api/m/{token}", Access: auth.Public, Handler: h.open},
		{Method: "POST", Path: "/api/m/{token}/confirm", Access: auth.Public, NoCSRF: true, Announces: auth.ChangesAppointments, Handler: h.act(ActConfirm)},
		{Method: "POST", Path: "/api/m/{token}/cancel", Access: auth.Public, NoCSRF: true, Announces: auth.ChangesAppointments, Handler: h.act(ActCancel)},
		{Method: "POST", Path: "/api/m/{token}/optout", Access: auth.Public, NoCSRF: true, Announces: auth.ChangesPatients, Handler: h.act(ActOptOut)},
	}
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	s, err := ReadSettings(r.Context(), h.Service.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	// Read onto the stored settings: a field the caller leaves out (one added since it was
	// written, such as the caps on codes by SMS) keeps its value rather than falling to zero.
	in, err := ReadSettings(r.Context(), h.Service.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	in.Version = 0 // the caller's, or a conflict
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	saved, err := SaveSettings(r.Context(), h.Service.DB, auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, saved)
}

// LogEntry is a message as the log shows it: the recipient masked, the patient named.
type LogEntry struct {
	mail.Entry
	Patient string `json:"patient"`
	MRN     string `json:"mrn"`
}

// LogPage is one page of the message log.
type LogPage struct {
	Data []LogEntry `json:"data"`
	// Next is the id to pass as before for the next page, 0 when this is the last.
	Next int64 `json:"next"`
}

func (h *Handler) log(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := mail.Filter{Topics: LogTopics, Status: q.Get("status"), Channel: q.Get("channel"), Limit: 50}
	var v apperr.Validation
	if f.Status != "" && !slices.Contains([]string{mail.Pending, mail.Sent, mail.Failed, mail.NoAddress, mail.Cancelled}, f.Status) {
		v.Add("status", "validation.invalid_choice")
	}
	if f.Channel != "" && !slices.Contains(mail.Channels, f.Channel) {
		v.Add("channel", "validation.invalid_choice")
	}
	loc := h.Service.loc()
	for _, d := range []struct {
		name string
		at   *time.Time
		add  int
	}{{"from", &f.From, 0}, {"to", &f.To, 1}} {
		if s := q.Get(d.name); s != "" {
			day, err := time.ParseInLocation(time.DateOnly, s, loc)
			if err != nil {
				v.Add(d.name, "validation.date_format")
				continue
			}
			*d.at = day.AddDate(0, 0, d.add)
		}
	}
	if s := q.Get("before"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			v.Add("before", "validation.invalid_choice")
		}
		f.Before = n
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	f.Limit++
	list, err := mail.Log(r.Context(), h.Service.DB, f)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	page := LogPage{}
	if len(list) == f.Limit {
		list = list[:f.Limit-1]
		page.Next = list[len(list)-1].ID
	}
	page.Data, err = h.named(r.Context(), list, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, page)
}

// named masks the recipients and names the patients.
func (h *Handler) named(ctx context.Context, list []mail.Entry, lang string) ([]LogEntry, error) {
	var ids []int64
	for _, e := range list {
		if e.PatientID != nil {
			ids = append(ids, *e.PatientID)
		}
	}
	refs, err := patient.Summaries(ctx, h.Service.DB, ids)
	if err != nil {
		return nil, err
	}
	out := make([]LogEntry, len(list))
	for i, e := range list {
		e.To = mail.Mask(e.Channel, e.To)
		out[i] = LogEntry{Entry: e}
		if e.PatientID != nil {
			p := refs[*e.PatientID]
			out[i].Patient, out[i].MRN = p.NameIn(lang), p.MRN
		}
	}
	return out, nil
}

func (h *Handler) resend(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "reminder.message_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	err = h.Service.Resend(r.Context(), auth.AuditEvent(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) ofAppointment(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := mail.Log(r.Context(), h.Service.DB, mail.Filter{Topics: Topics, TopicID: id, Limit: 200})
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	for i := range list {
		list[i].To = mail.Mask(list[i].Channel, list[i].To)
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list})
}

// allow counts one call of the link page with a signed token from r's address (a token that
// fails its MAC is refused before, costing no database work); false: refused (answered).
// The address block's budget is taken first, so that a refused caller spends nothing of
// anyone else's; then the token's own, so that one link, used or not, cannot be hammered
// from many addresses. There is no budget shared by everyone: one network cannot shut the
// page for every patient.
func (h *Handler) allow(w http.ResponseWriter, r *http.Request) bool {
	if h.Throttle == nil {
		return true
	}
	p, _ := parseToken(h.Service.Ring, r.PathValue("token"))
	for _, k := range []struct {
		key   string
		limit int
	}{
		{"message-link:" + auth.AddressBlock(auth.ClientAddress(r)), LinkLimit},
		{"message-link-token:" + strconv.FormatInt(p.id, 10), LinkTokenLimit},
	} {
		wait, err := h.Throttle.TakeMany(r.Context(), k.key, 1, k.limit) // a refused call is not counted
		if err != nil {
			httpjson.Error(w, r, err)
			return false
		}
		if wait > 0 {
			httpjson.Error(w, r, apperr.Throttled("reminder.throttled", auth.Seconds(wait)))
			return false
		}
	}
	return true
}

func (h *Handler) open(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	if !h.Service.Signed(r.PathValue("token")) {
		// Made or changed without the key: answered from the MAC alone, nothing read or written.
		httpjson.Respond(w, http.StatusOK, View{State: StateInvalid})
		return
	}
	if !h.allow(w, r) {
		return
	}
	v, err := h.Service.Open(r.Context(), r.PathValue("token"))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, v)
}

func (h *Handler) act(what string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if !h.Service.Signed(r.PathValue("token")) {
			httpjson.Error(w, r, apperr.Conflict("reminder.link_invalid"))
			return
		}
		if !h.allow(w, r) {
			return
		}
		if err := h.Service.Act(r.Context(), auth.AuditEvent(r), r.PathValue("token"), what, h.Appointments); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		v, err := h.Service.Open(r.Context(), r.PathValue("token"))
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusOK, v)
	}
}
