package settings

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// Handler serves the settings API.
type Handler struct{ DB *database.DB }

// Routes is the settings API's route table.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/settings/clinic", Access: auth.LoggedIn, BeforePasswordChange: true, Handler: h.clinic},
		{Method: "PUT", Path: "/api/settings/clinic", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: h.saveClinic},
	}
}

func (h *Handler) clinic(w http.ResponseWriter, r *http.Request) {
	c, err := ReadClinic(r.Context(), h.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, c)
}

// saveClinic replaces the clinic's settings; the version read must still be current.
func (h *Handler) saveClinic(w http.ResponseWriter, r *http.Request) {
	var in Clinic
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	saved, err := SaveClinic(r.Context(), h.DB, auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, saved)
}
