package release

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the release rules, the chart's view of what a patient sees, and the
// doctor's choice per item.
type Handler struct {
	Store *Store
}

// Routes is the release route table. Who releases or holds an item is who answers for it:
// a result, who reviews results; a document, who issues documents; a prescription, who writes
// prescriptions.
func (h *Handler) Routes() []auth.Route {
	view := auth.Need(auth.ViewPatient)
	return []auth.Route{
		{Method: "GET", Path: "/api/settings/patient-release", Access: auth.Need(auth.ManageSettings), Handler: h.settings},
		{Method: "PUT", Path: "/api/settings/patient-release", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Announces: auth.ChangesPatients, Handler: h.saveSettings},
		{Method: "GET", Path: "/api/patients/{id}/release", Access: view, Handler: h.statuses},
		{Method: "GET", Path: "/api/patients/{id}/released", Access: view, Handler: h.released},
		// The holds due for review, across patients: on the results review queue (the doctors' work list).
		{Method: "GET", Path: "/api/release/holds-due", Access: auth.Need(auth.ReviewResults), Handler: h.holdsDue},
		{Method: "POST", Path: "/api/release/results/{id}", Access: auth.Need(auth.ReviewResults), Announces: auth.ChangesPatients, Handler: h.decide(KindResult)},
		{Method: "POST", Path: "/api/release/documents/{id}", Access: auth.Need(auth.IssueDocuments), Announces: auth.ChangesPatients, Handler: h.decide(KindDocument)},
		{Method: "POST", Path: "/api/release/prescriptions/{id}", Access: auth.Need(auth.WritePrescription), Announces: auth.ChangesPatients, Handler: h.decide(KindPrescription)},
	}
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	s, err := ReadSettings(r.Context(), h.Store.DB)
	httpjson.Result(w, r, http.StatusOK, s, err)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	var in Settings
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	saved, err := SaveSettings(r.Context(), h.Store.DB, auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusOK, saved, err)
}

func (h *Handler) statuses(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Statuses(r.Context(), auth.AuditEvent(r), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) released(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Released(r.Context(), auth.AuditEvent(r), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) decide(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, in, ok := httpjson.DecodeOn[Input](w, r, "release.not_found")
		if !ok {
			return
		}
		st, err := h.Store.Decide(r.Context(), auth.AuditEvent(r), kind, id, in, i18n.FromRequest(r))
		httpjson.Result(w, r, http.StatusOK, st, err)
	}
}

// holdsDueBody is the work list of due holds, and whether the clinic's rule releases a result
// once reviewed (the review queue warns before an abnormal result reaches the portal).
type holdsDueBody struct {
	Data             []DueHold `json:"data"`
	ReleasesOnReview bool      `json:"releases_on_review"`
}

func (h *Handler) holdsDue(w http.ResponseWriter, r *http.Request) {
	rules, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.HoldsDue(r.Context(), auth.AuditEvent(r), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if list == nil {
		list = []DueHold{}
	}
	httpjson.Respond(w, http.StatusOK, holdsDueBody{Data: list, ReleasesOnReview: rules.Results == ResultsReviewed})
}
