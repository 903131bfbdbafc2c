package immunisation

import (
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// DueHandler serves the clinic's due list and its reminders.
type DueHandler struct {
	Reminders *DueService
}

// DueRoutes is the due list's route table.
func (h *DueHandler) DueRoutes() []auth.Route {
	return []auth.Route{
		// Reading it needs view patient too (checked in the handler): the desk that books
		// (manage appointment) and whoever gives vaccines (record immunisations) work it.
		{Method: "GET", Path: "/api/immunisation/due", Access: auth.NeedAny(auth.RecordImmunisations, auth.ManageAppointment), Handler: h.list},
		{Method: "POST", Path: "/api/immunisation/due/remind", Access: auth.Need(auth.SendMessages), Handler: h.remind},
	}
}

func (h *DueHandler) list(w http.ResponseWriter, r *http.Request) {
	if !auth.PrincipalFrom(r.Context()).Can(auth.ViewPatient) {
		httpjson.Error(w, r, apperr.Forbidden("auth.forbidden"))
		return
	}
	q := r.URL.Query()
	in := DueQuery{Status: q.Get("status"), Antigen: q.Get("antigen"), Band: q.Get("band"), Before: q.Get("before"), After: q.Get("after_id")}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			var v apperr.Validation
			v.Add("limit", "validation.query")
			httpjson.Error(w, r, v.Err())
			return
		}
		in.Limit = n
	}
	page, err := DueList(r.Context(), h.Reminders.DB, in, h.Reminders.Today(), i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, page, err)
}

func (h *DueHandler) remind(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PatientIDs []int64 `json:"patient_ids"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Reminders.Remind(r.Context(), auth.AuditEvent(r), in.PatientIDs)
	httpjson.Result(w, r, http.StatusOK, out, err)
}
