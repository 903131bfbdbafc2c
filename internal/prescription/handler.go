package prescription

import (
	"net/http"
	"strconv"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/profile"
	"emr/internal/settings"
)

// Handler serves the prescription API.
type Handler struct{ Store *Store }

// readPrescriptions is who may read prescriptions: whoever writes them, and the clinical
// staff of a visit.
var readPrescriptions = auth.NeedAny(auth.WritePrescription, auth.WriteDiagnosis, auth.RecordVitals)

// Routes is the prescription API's route table.
func (h *Handler) Routes() []auth.Route {
	write := auth.Need(auth.WritePrescription)
	return []auth.Route{
		{Method: "GET", Path: "/api/appointments/{id}/prescriptions", Access: readPrescriptions, Handler: h.forAppointment},
		{Method: "POST", Path: "/api/appointments/{id}/prescriptions", Access: write, Announces: auth.ChangesAppointments, Handler: h.createForVisit},
		{Method: "GET", Path: "/api/appointments/{id}/previous-prescription", Access: write, Handler: h.previous},
		{Method: "GET", Path: "/api/patients/{id}/prescriptions", Access: readPrescriptions, Handler: h.forPatient},
		{Method: "GET", Path: "/api/prescriptions", Access: write, Handler: h.blank},
		{Method: "POST", Path: "/api/prescriptions", Access: write, Handler: h.createBlank},
		{Method: "GET", Path: "/api/prescriptions/{id}", Access: readPrescriptions, Handler: h.get},
		{Method: "PUT", Path: "/api/prescriptions/{id}", Access: write, Handler: h.update},
		{Method: "POST", Path: "/api/prescriptions/{id}/print", Access: write, Handler: h.print},
		{Method: "POST", Path: "/api/prescriptions/{id}/cancel", Access: write, Handler: h.cancel},
		{Method: "GET", Path: "/api/prescriptions/{id}/signature", Access: readPrescriptions, Handler: h.signature},
		{Method: "POST", Path: "/api/prescriptions/check", Access: write, Handler: h.check},
	}
}

func pathID(r *http.Request, notFound string) (int64, error) {
	return httpjson.PathID(r, "id", notFound)
}

func viewer(r *http.Request) int64 { return auth.PrincipalFrom(r.Context()).UserID }

// respondList answers a list of prescriptions after auditing its read for the patient.
func (h *Handler) respondList(w http.ResponseWriter, r *http.Request, patientID int64, list []Prescription, err error) {
	if err == nil && patientID != 0 {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome = "prescription.list", "patient", strconv.FormatInt(patientID, 10), audit.Success
		err = audit.Access(r.Context(), h.Store.DB, e)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) forAppointment(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "appointment.not_found")
	var list []Prescription
	if err == nil {
		list, err = h.Store.ForAppointment(r.Context(), id)
	}
	var patientID int64
	if len(list) > 0 && list[0].PatientID != nil {
		patientID = *list[0].PatientID
	}
	h.respondList(w, r, patientID, list, err)
}

func (h *Handler) forPatient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "patient.not_found")
	var list []Prescription
	if err == nil {
		list, err = h.Store.ForPatient(r.Context(), id)
	}
	h.respondList(w, r, id, list, err)
}

func (h *Handler) blank(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Blank(r.Context())
	if err == nil {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.Outcome = "prescription.list", "prescription", audit.Success
		err = audit.Access(r.Context(), h.Store.DB, e)
	}
	h.respondList(w, r, 0, list, err)
}

func (h *Handler) previous(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "appointment.not_found")
	var rx Prescription
	if err == nil {
		rx, err = h.Store.Previous(r.Context(), id)
	}
	h.respond(w, r, http.StatusOK, rx, err, "prescription.read")
}

// respond answers one prescription, auditing the read or write named by action when the
// store has not (reads).
func (h *Handler) respond(w http.ResponseWriter, r *http.Request, status int, rx Prescription, err error, readAction string) {
	if err == nil && readAction != "" {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome = readAction, "prescription", strconv.FormatInt(rx.ID, 10), audit.Success
		if rx.PatientID != nil {
			e.PatientID = *rx.PatientID
		}
		err = audit.Access(r.Context(), h.Store.DB, e)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, status, rx)
}

func (h *Handler) createForVisit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "appointment.not_found")
	var in Input
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	var rx Prescription
	if err == nil {
		rx, err = h.Store.CreateForVisit(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	}
	h.respond(w, r, http.StatusCreated, rx, err, "")
}

func (h *Handler) createBlank(w http.ResponseWriter, r *http.Request) {
	var in Input
	err := httpjson.Decode(w, r, &in)
	var rx Prescription
	if err == nil {
		rx, err = h.Store.CreateBlank(r.Context(), auth.AuditEvent(r), in, i18n.FromRequest(r))
	}
	h.respond(w, r, http.StatusCreated, rx, err, "")
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	var rx Prescription
	if err == nil {
		rx, err = h.Store.Get(r.Context(), id, viewer(r), i18n.FromRequest(r))
	}
	h.respond(w, r, http.StatusOK, rx, err, "prescription.read")
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	var in Input
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	var rx Prescription
	if err == nil {
		rx, err = h.Store.Update(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	}
	h.respond(w, r, http.StatusOK, rx, err, "")
}

type versioned struct {
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

// PrintOut is what the print page shows: the prescription and the clinic's header.
type PrintOut struct {
	Prescription
	Clinic settings.Clinic `json:"clinic"`
}

func (h *Handler) print(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	var in versioned
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	var out PrintOut
	if err == nil {
		out.Prescription, err = h.Store.Print(r.Context(), auth.AuditEvent(r), id, in.Version, i18n.FromRequest(r))
	}
	if err == nil {
		out.Clinic, err = settings.ReadClinic(r.Context(), h.Store.DB)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	var in versioned
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	var rx Prescription
	if err == nil {
		rx, err = h.Store.Cancel(r.Context(), auth.AuditEvent(r), id, in.Version, in.Reason)
	}
	h.respond(w, r, http.StatusOK, rx, err, "")
}

func (h *Handler) signature(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Signature(r.Context(), id)
	profile.WriteSignature(w, r, d, err)
}

// check answers the safety findings of lines being written, auditing the read of the
// patient's allergies and prescriptions it made.
func (h *Handler) check(w http.ResponseWriter, r *http.Request) {
	var in CheckInput
	err := httpjson.Decode(w, r, &in)
	var res CheckResult
	if err == nil {
		res, err = h.Store.Check(r.Context(), in, i18n.FromRequest(r))
	}
	if err == nil && res.PatientID != nil {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome = "prescription.check", "patient", strconv.FormatInt(*res.PatientID, 10), audit.Success
		err = audit.Access(r.Context(), h.Store.DB, e)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, res)
}
