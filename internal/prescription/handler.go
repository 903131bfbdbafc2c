package prescription

import (
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/profile"
)

// Handler serves the prescription API.
type Handler struct{ Store *Store }

// readPrescriptions is who may read prescriptions: whoever writes them, and the clinical
// staff of a visit.
var readPrescriptions = auth.NeedAny(auth.WritePrescription, auth.WriteDiagnosis, auth.RecordVitals)

// Routes is the prescription API's route table.
func (h *Handler) Routes() []auth.Route {
	write := auth.Need(auth.WritePrescription)
	return append(h.takenRoutes(), []auth.Route{
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
	}...)
}

func pathID(r *http.Request, notFound string) (int64, error) {
	return httpjson.PathID(r, "id", notFound)
}

// list answers prescriptions, or the error that ended their read.
func list(w http.ResponseWriter, r *http.Request, list []Prescription, err error) {
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) forAppointment(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rxs, err := h.Store.ReadForAppointment(r.Context(), auth.AuditEvent(r), id)
	list(w, r, rxs, err)
}

func (h *Handler) forPatient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rxs, err := h.Store.ReadForPatient(r.Context(), auth.AuditEvent(r), id)
	list(w, r, rxs, err)
}

func (h *Handler) blank(w http.ResponseWriter, r *http.Request) {
	rxs, err := h.Store.ReadBlank(r.Context(), auth.AuditEvent(r))
	list(w, r, rxs, err)
}

func (h *Handler) previous(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rx, err := h.Store.ReadPrevious(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, rx, err)
}

func (h *Handler) createForVisit(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[Input](w, r, "appointment.not_found")
	if !ok {
		return
	}
	rx, err := h.Store.CreateForVisit(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, rx, err)
}

func (h *Handler) createBlank(w http.ResponseWriter, r *http.Request) {
	var in Input
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rx, err := h.Store.CreateBlank(r.Context(), auth.AuditEvent(r), in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, rx, err)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "prescription.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rx, err := h.Store.Read(r.Context(), auth.AuditEvent(r), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, rx, err)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[Input](w, r, "prescription.not_found")
	if !ok {
		return
	}
	rx, err := h.Store.Update(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, rx, err)
}

type versioned struct {
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

func (h *Handler) print(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[versioned](w, r, "prescription.not_found")
	if !ok {
		return
	}
	out, err := h.Store.PrintWithHeader(r.Context(), auth.AuditEvent(r), id, in.Version, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[versioned](w, r, "prescription.not_found")
	if !ok {
		return
	}
	rx, err := h.Store.Cancel(r.Context(), auth.AuditEvent(r), id, in.Version, in.Reason)
	httpjson.Result(w, r, http.StatusOK, rx, err)
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

// check answers the safety findings of lines being written (the read of the patient's
// allergies and prescriptions it made is audited).
func (h *Handler) check(w http.ResponseWriter, r *http.Request) {
	var in CheckInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	res, err := h.Store.CheckFor(r.Context(), auth.AuditEvent(r), in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, res, err)
}

// keepTaken is who keeps a patient's medicines taken: the nurse and the doctor, as they
// take the history at a visit.
var keepTaken = auth.NeedAny(auth.WritePrescription, auth.RecordVitals)

// takenRoutes are the routes of the medicines a patient takes (issue 55, M4).
func (h *Handler) takenRoutes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/patients/{id}/current-medicines", Access: readPrescriptions, Handler: h.takenList},
		{Method: "POST", Path: "/api/patients/{id}/current-medicines", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.recordTaken},
		{Method: "PUT", Path: "/api/current-medicines/{id}", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.updateTaken},
		{Method: "POST", Path: "/api/current-medicines/{id}/stop", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.stopTaken},
		{Method: "POST", Path: "/api/current-medicines/{id}/confirm", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.confirmTaken},
		{Method: "POST", Path: "/api/current-medicines/{id}/entered-in-error", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.takenInError},
		// What a nurse recorded is reviewed by who may prescribe.
		{Method: "POST", Path: "/api/current-medicines/{id}/review", Access: auth.Need(auth.WritePrescription), Announces: auth.ChangesPatients, Handler: h.reviewTaken},
		// A finding of the list's review kept knowingly, for a reason, by who may prescribe.
		{Method: "POST", Path: "/api/patients/{id}/current-medicines/kept-pairs", Access: auth.Need(auth.WritePrescription), Announces: auth.ChangesPatients, Handler: h.keepPair},
		{Method: "POST", Path: "/api/patients/{id}/current-medicines/kept-pairs/review-again", Access: auth.Need(auth.WritePrescription), Announces: auth.ChangesPatients, Handler: h.reviewPairAgain},
		{Method: "POST", Path: "/api/prescriptions/{id}/lines/{line}/stop", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.stopHereLine},
		{Method: "POST", Path: "/api/patients/{id}/current-medicines/none", Access: keepTaken, Announces: auth.ChangesPatients, Handler: h.takesNone},
	}
}

func (h *Handler) takenList(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	got, err := h.Store.TakenList(r.Context(), auth.AuditEvent(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.reviewList(r.Context(), id, got, i18n.FromRequest(r)); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	none, err := TakesNone(r.Context(), h.Store.DB, id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, struct {
		Data []Taken `json:"data"`
		// TakesNone: when the patient last said they take no medicines (M4).
		TakesNone *NoneAnswer `json:"takes_none"`
	}{got, none})
}

func (h *Handler) recordTaken(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[TakenInput](w, r, "patient.not_found")
	if !ok {
		return
	}
	in.byPrescriber = auth.PrincipalFrom(r.Context()).Can(auth.WritePrescription)
	t, err := h.Store.RecordTaken(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, t, err)
}

func (h *Handler) updateTaken(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[TakenInput](w, r, "medication.not_found")
	if !ok {
		return
	}
	in.byPrescriber = auth.PrincipalFrom(r.Context()).Can(auth.WritePrescription)
	t, err := h.Store.UpdateTaken(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, t, err)
}

func (h *Handler) stopTaken(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[StopInput](w, r, "medication.not_found")
	if !ok {
		return
	}
	t, err := h.Store.StopTaken(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

func (h *Handler) confirmTaken(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[ConfirmInput](w, r, "medication.not_found")
	if !ok {
		return
	}
	t, err := h.Store.ConfirmTaken(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	// Confirming it is hearing it again: it is checked again (C1).
	err = h.Store.takenCheck(r.Context(), &t, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// takenInError marks a recorded medicine entered in error, for a reason.
func (h *Handler) takenInError(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[ErrorInput](w, r, "medication.not_found")
	if !ok {
		return
	}
	t, err := h.Store.MarkInError(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// reviewTaken records that a prescriber reviewed what a nurse recorded.
func (h *Handler) reviewTaken(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[VersionInput](w, r, "medication.not_found")
	if !ok {
		return
	}
	t, err := h.Store.ReviewTaken(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// keepPair keeps a finding of the list's review knowingly, for a reason (ADR 25).
func (h *Handler) keepPair(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[KeepInput](w, r, "patient.not_found")
	if !ok {
		return
	}
	f, err := h.Store.KeepPair(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusCreated, f, err)
}

// reviewPairAgain withdraws a keep of a finding of the list's review (ADR 25).
func (h *Handler) reviewPairAgain(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[PairRef](w, r, "patient.not_found")
	if !ok {
		return
	}
	f, err := h.Store.ReviewPairAgain(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, f, err)
}

// stopHereLine records that the patient no longer takes a line of a prescription issued here (M3).
func (h *Handler) stopHereLine(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[StopInput](w, r, "prescription.not_found")
	if !ok {
		return
	}
	line, err := strconv.Atoi(r.PathValue("line"))
	if err != nil {
		httpjson.Error(w, r, apperr.NotFound("medication.not_found"))
		return
	}
	t, err := h.Store.StopHereLine(r.Context(), auth.AuditEvent(r), id, line, in)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// takesNone records that, asked, the patient takes no medicines (M4).
func (h *Handler) takesNone(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.Store.RecordTakesNone(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, a, err)
}
