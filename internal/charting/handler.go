package charting

import (
	"context"
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves order sets, snippets and favourites.
type Handler struct{ Store *Store }

// charting is who charts visits: sets, snippets and favourites are theirs.
var charting = auth.NeedAny(auth.WriteDiagnosis, auth.WritePrescription)

// Routes is the charting aids' route table. Whether a set or snippet is the clinic's (and
// needs "manage clinic sets") is decided by the store on the record itself.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/order-sets", Access: charting, Handler: h.sets},
		{Method: "POST", Path: "/api/order-sets", Access: charting, Handler: h.createSet},
		{Method: "GET", Path: "/api/order-sets/{id}", Access: charting, Handler: h.set},
		{Method: "PUT", Path: "/api/order-sets/{id}", Access: charting, Handler: h.updateSet},
		{Method: "DELETE", Path: "/api/order-sets/{id}", Access: charting, Handler: h.deleteSet},
		{Method: "POST", Path: "/api/appointments/{id}/order-set", Access: auth.Need(auth.WriteDiagnosis), Announces: auth.ChangesAppointments, Handler: h.apply},
		{Method: "GET", Path: "/api/appointments/{id}/tests-today", Access: auth.Need(auth.WriteDiagnosis), Handler: h.testsToday},
		{Method: "GET", Path: "/api/appointments/{id}/chart-values", Access: auth.Need(auth.WriteDiagnosis), Handler: h.values},
		{Method: "GET", Path: "/api/snippets", Access: charting, Handler: h.snippets},
		{Method: "POST", Path: "/api/snippets", Access: charting, Handler: h.createSnippet},
		{Method: "PUT", Path: "/api/snippets/{id}", Access: charting, Handler: h.updateSnippet},
		{Method: "DELETE", Path: "/api/snippets/{id}", Access: charting, Handler: h.deleteSnippet},
		{Method: "GET", Path: "/api/favourites", Access: charting, Handler: h.picks},
		{Method: "PUT", Path: "/api/favourites/{kind}/{ref}", Access: charting, Handler: h.star},
		{Method: "DELETE", Path: "/api/favourites/{kind}/{ref}", Access: charting, Handler: h.unstar},
	}
}

func (h *Handler) sets(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Sets(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) set(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "charting.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	set, err := h.Store.Set(r.Context(), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, set, err)
}

func (h *Handler) createSet(w http.ResponseWriter, r *http.Request) {
	var in SetInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	set, err := h.Store.CreateSet(r.Context(), auth.AuditEvent(r), in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, set, err)
}

func (h *Handler) updateSet(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[SetInput](w, r, "charting.not_found")
	if !ok {
		return
	}
	set, err := h.Store.UpdateSet(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, set, err)
}

// versionOf reads the version a deletion names (?version=N).
func versionOf(r *http.Request) (int, error) {
	v, err := strconv.Atoi(r.URL.Query().Get("version"))
	if err != nil || v < 1 {
		return 0, apperr.Invalid("charting.version")
	}
	return v, nil
}

// retire answers a deletion (?version=N) of the set or snippet in the path by del.
func retire(w http.ResponseWriter, r *http.Request, del func(ctx context.Context, e audit.Event, id int64, version int) error) {
	id, err := httpjson.PathID(r, "id", "charting.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	version, err := versionOf(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := del(r.Context(), auth.AuditEvent(r), id, version); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

func (h *Handler) deleteSet(w http.ResponseWriter, r *http.Request) { retire(w, r, h.Store.DeleteSet) }

func (h *Handler) apply(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[ApplyInput](w, r, "appointment.not_found")
	if !ok {
		return
	}
	out, err := h.Store.Apply(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) testsToday(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.TestsToday(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, map[string]any{"data": list}, err)
}

func (h *Handler) values(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.Values(r.Context(), auth.AuditEvent(r), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) snippets(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Snippets(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) createSnippet(w http.ResponseWriter, r *http.Request) {
	var in SnippetInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	sn, err := h.Store.CreateSnippet(r.Context(), auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusCreated, sn, err)
}

func (h *Handler) updateSnippet(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[SnippetInput](w, r, "charting.not_found")
	if !ok {
		return
	}
	sn, err := h.Store.UpdateSnippet(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, sn, err)
}

func (h *Handler) deleteSnippet(w http.ResponseWriter, r *http.Request) {
	retire(w, r, h.Store.DeleteSnippet)
}

func (h *Handler) picks(w http.ResponseWriter, r *http.Request) {
	out, err := h.Store.Picks(r.Context(), i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) star(w http.ResponseWriter, r *http.Request) {
	if err := h.Store.Star(r.Context(), r.PathValue("kind"), r.PathValue("ref")); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

func (h *Handler) unstar(w http.ResponseWriter, r *http.Request) {
	if err := h.Store.Unstar(r.Context(), r.PathValue("kind"), r.PathValue("ref")); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}
