package immunisation

import (
	"errors"
	"net/http"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the immunisation record's API.
type Handler struct{ Store *Store }

// readRecord is who reads a patient's immunisations: whoever records immunisations, writes
// the diagnosis or records the vitals of a visit — and views patients (viewsPatient: a route
// declares one permission of several, so the handler asks for that one itself).
var readRecord = auth.NeedAny(auth.RecordImmunisations, auth.WriteDiagnosis, auth.RecordVitals)

// Routes is the immunisation API's route table.
func (h *Handler) Routes() []auth.Route {
	write := auth.Need(auth.RecordImmunisations)
	return []auth.Route{
		// The catalogue holds no patient's data: the desk's due list names its antigens too.
		{Method: "GET", Path: "/api/immunisation/catalogue", Access: auth.NeedAny(auth.RecordImmunisations, auth.WriteDiagnosis, auth.RecordVitals, auth.ManageAppointment), Handler: h.catalogue},
		{Method: "GET", Path: "/api/patients/{id}/immunisations", Access: readRecord, Handler: h.forPatient},
		{Method: "POST", Path: "/api/patients/{id}/immunisations/check", Access: write, Handler: h.check},
		{Method: "POST", Path: "/api/patients/{id}/immunisations", Access: write, Announces: auth.ChangesPatients, Handler: h.create},
		{Method: "POST", Path: "/api/immunisations/{id}/entered-in-error", Access: write, Handler: h.enteredInError},
		{Method: "POST", Path: "/api/immunisations/{id}/reactions", Access: write, Handler: h.addReaction},
		{Method: "POST", Path: "/api/immunisation/reactions/{id}/entered-in-error", Access: write, Handler: h.reactionEnteredInError},
		{Method: "POST", Path: "/api/immunisation/reactions/{id}/follow-up", Access: write, Handler: h.reactionFollowUp},
		{Method: "GET", Path: "/api/immunisation/settings", Access: auth.Need(auth.ManageSettings), Handler: h.settings},
		{Method: "PUT", Path: "/api/immunisation/settings", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: h.saveSettings},
	}
}

// viewsPatient refuses a caller who may not view patients (403), for the routes that show
// or change a patient's record.
func viewsPatient(w http.ResponseWriter, r *http.Request) bool {
	if !auth.PrincipalFrom(r.Context()).Can(auth.ViewPatient) {
		httpjson.Error(w, r, apperr.Forbidden("auth.forbidden"))
		return false
	}
	return true
}

func (h *Handler) catalogue(w http.ResponseWriter, r *http.Request) {
	out, err := h.Store.Catalogue(r.Context(), i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) forPatient(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.ForPatient(r.Context(), auth.AuditEvent(r), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

// findingsBody is the answer of a check, and of a dose refused for want of an override.
type findingsBody struct {
	Error    string    `json:"error,omitempty"`
	Code     string    `json:"code,omitempty"`
	Findings []Finding `json:"findings"`
}

func (h *Handler) check(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[RecordInput](w, r, "patient.not_found")
	if !ok {
		return
	}
	findings, err := h.Store.Check(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, findingsBody{Findings: findings}, err)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[RecordInput](w, r, "patient.not_found")
	if !ok {
		return
	}
	lang := i18n.FromRequest(r)
	in.ByDoctor = auth.PrincipalFrom(r.Context()).Can(auth.WriteDiagnosis)
	rec, err := h.Store.Create(r.Context(), auth.AuditEvent(r), id, in, lang)
	if need := (*NeedsOverride)(nil); errors.As(err, &need) {
		httpjson.Respond(w, http.StatusUnprocessableEntity, findingsBody{Error: i18n.T(lang, need.Error()), Code: need.Error(), Findings: need.Findings})
		return
	}
	httpjson.Result(w, r, http.StatusCreated, rec, err)
}

type errorInput struct {
	Reason  string `json:"reason"`
	Version int    `json:"version"`
}

func (h *Handler) enteredInError(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[errorInput](w, r, "immunisation.not_found")
	if !ok {
		return
	}
	rec, err := h.Store.EnteredInError(r.Context(), auth.AuditEvent(r), id, in.Reason, in.Version, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, rec, err)
}

func (h *Handler) addReaction(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[ReactionInput](w, r, "immunisation.not_found")
	if !ok {
		return
	}
	out, err := h.Store.AddReaction(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, out, err)
}

func (h *Handler) reactionEnteredInError(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[errorInput](w, r, "immunisation.reaction_not_found")
	if !ok {
		return
	}
	out, err := h.Store.ReactionEnteredInError(r.Context(), auth.AuditEvent(r), id, in.Reason, in.Version)
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) reactionFollowUp(w http.ResponseWriter, r *http.Request) {
	if !viewsPatient(w, r) {
		return
	}
	id, in, ok := httpjson.DecodeOn[FollowUpInput](w, r, "immunisation.reaction_not_found")
	if !ok {
		return
	}
	out, err := h.Store.ReactionFollowUp(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	s, err := ReadSettings(r.Context(), h.Store.DB)
	httpjson.Result(w, r, http.StatusOK, s, err)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	// The whole settings, as read: a field left out is refused, not kept (no schedule, no
	// weight age), so that a body that names none of them changes nothing.
	var in Settings
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	saved, err := h.Store.SaveSettings(r.Context(), auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusOK, saved, err)
}
