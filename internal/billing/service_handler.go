package billing

import (
	"net/http"
	"strconv"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

func (h *Handler) services(w http.ResponseWriter, r *http.Request) {
	q := ServiceQuery{Q: r.URL.Query().Get("q"), All: r.URL.Query().Get("all") == "1" && auth.PrincipalFrom(r.Context()).Can(auth.ManageFees)}
	list, err := h.Store.Services(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) createService(w http.ResponseWriter, r *http.Request) {
	var in ServiceInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	sv, err := h.Store.CreateService(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, sv)
}

func (h *Handler) updateService(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "billing.service_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in ServiceInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	sv, err := h.Store.UpdateService(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, sv)
}

// audit records what the caller read, printed or exported; false when that failed (and was
// answered).
func (h *Handler) audit(w http.ResponseWriter, r *http.Request, action, entity string, id, patientID int64, detail string) bool {
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.PatientID, e.Outcome, e.Detail = action, entity, patientID, audit.Success, detail
	if id != 0 {
		e.EntityID = strconv.FormatInt(id, 10)
	}
	if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return false
	}
	return true
}

func (h *Handler) exportServices(w http.ResponseWriter, r *http.Request) {
	set, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !h.audit(w, r, "service.export", "services", 0, 0, "") {
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="services.csv"`)
	if err := h.Store.ExportServices(r.Context(), w, set.Currency); err != nil {
		panic(http.ErrAbortHandler) // the header is out: the client sees a cut-off file
	}
}

func (h *Handler) importServices(w http.ResponseWriter, r *http.Request) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	set, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rep, err := h.Store.ImportServices(r.Context(), auth.AuditEvent(r), data, set.Currency, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, rep)
}

func (h *Handler) installStarter(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.InstallStarter(r.Context(), auth.AuditEvent(r), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]int{"added": n})
}

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
	s, err := h.Store.SaveSettings(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}
