package dashboard

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the dashboard API.
type Handler struct{ Store *Store }

// Routes is the dashboard's route table.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/dashboard/appointments", Access: auth.Need(auth.ViewAppointment), Handler: answer(func(r *http.Request) (any, error) {
			return h.Store.AppointmentCounts(r.Context(), auth.PrincipalFrom(r.Context()))
		})},
		{Method: "GET", Path: "/api/dashboard/patients", Access: auth.Need(auth.ViewPatient), Handler: answer(func(r *http.Request) (any, error) {
			return h.Store.PatientCounts(r.Context())
		})},
		// Diagnosis statistics are clinical: for those who write diagnoses.
		{Method: "GET", Path: "/api/dashboard/diagnoses", Access: auth.Need(auth.WriteDiagnosis), Handler: answer(func(r *http.Request) (any, error) {
			return h.Store.TopDiagnoses(r.Context(), i18n.FromRequest(r))
		})},
	}
}

// answer serves what figures returns for the request, or its error.
func answer(figures func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out, err := figures(r)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusOK, out)
	}
}
