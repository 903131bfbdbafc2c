package catalogue

import (
	"context"
	"net/http"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// The medicine-safety knowledge API (ADR 25): what the check knows, and the clinic's own
// brand names and interaction rules, which catalogue managers add and remove.

func (h *Handler) knowledgeRoutes() []auth.Route {
	manage := auth.Need(auth.ManageCatalogue)
	return []auth.Route{
		{Method: "GET", Path: "/api/medicine-safety", Access: auth.NeedAny(auth.WritePrescription, auth.ManageCatalogue), Handler: h.knowledge},
		{Method: "POST", Path: "/api/medicine-safety/aliases", Access: manage, Handler: h.addAlias},
		{Method: "POST", Path: "/api/medicine-safety/aliases/import", Access: manage, Handler: h.importAliases},
		{Method: "DELETE", Path: "/api/medicine-safety/aliases/{id}", Access: manage, Handler: h.deleteAlias},
		{Method: "POST", Path: "/api/medicine-safety/interactions", Access: manage, Handler: h.addInteraction},
		{Method: "DELETE", Path: "/api/medicine-safety/interactions/{id}", Access: manage, Handler: h.deleteInteraction},
	}
}

func (h *Handler) knowledge(w http.ResponseWriter, r *http.Request) {
	k, err := h.Store.Knowledge(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, k)
}

func (h *Handler) addAlias(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name        string `json:"name"`
		Ingredients string `json:"ingredients"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.Store.AddAlias(r.Context(), auth.AuditEvent(r), in.Name, in.Ingredients)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, a)
}

func (h *Handler) importAliases(w http.ResponseWriter, r *http.Request) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rep, err := h.Store.ImportAliases(r.Context(), auth.AuditEvent(r), data)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	localiseReport(r, &rep)
	httpjson.Respond(w, http.StatusOK, rep)
}

func (h *Handler) addInteraction(w http.ResponseWriter, r *http.Request) {
	var in RuleInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rule, err := h.Store.AddInteraction(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, rule)
}

func (h *Handler) deleteAlias(w http.ResponseWriter, r *http.Request) {
	h.deleteAddition(w, r, h.Store.DeleteAlias)
}

func (h *Handler) deleteInteraction(w http.ResponseWriter, r *http.Request) {
	h.deleteAddition(w, r, h.Store.DeleteInteraction)
}

func (h *Handler) deleteAddition(w http.ResponseWriter, r *http.Request, del func(context.Context, audit.Event, int64) error) {
	id, err := httpjson.PathID(r, "id", "medicine_safety.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := del(r.Context(), auth.AuditEvent(r), id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}
