package appointment

import (
	"net/http"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the appointment and visit API.
type Handler struct{ Store *Store }

// readVisits is who may read a visit's clinical content: whoever records its vitals or
// writes its diagnosis.
var readVisits = auth.NeedAny(auth.RecordVitals, auth.WriteDiagnosis)

// Routes is the appointment API's route table.
func (h *Handler) Routes() []auth.Route {
	view, manage, diagnose := auth.Need(auth.ViewAppointment), auth.Need(auth.ManageAppointment), auth.Need(auth.WriteDiagnosis)
	return []auth.Route{
		{Method: "GET", Path: "/api/doctors", Access: view, Handler: h.doctors},
		{Method: "GET", Path: "/api/appointments", Access: view, Handler: h.list},
		{Method: "POST", Path: "/api/appointments", Access: manage, Announces: auth.ChangesAppointments, Handler: h.create},
		{Method: "POST", Path: "/api/appointments/queue", Access: manage, Announces: auth.ChangesAppointments, Handler: h.reorder},
		{Method: "GET", Path: "/api/appointments/{id}", Access: view, Handler: h.get},
		{Method: "PUT", Path: "/api/appointments/{id}", Access: manage, Announces: auth.ChangesAppointments, Handler: h.update},
		{Method: "POST", Path: "/api/appointments/{id}/arrive", Access: manage, Announces: auth.ChangesAppointments, Handler: h.transition(Arrive)},
		{Method: "POST", Path: "/api/appointments/{id}/cancel", Access: manage, Announces: auth.ChangesAppointments, Handler: h.transition(Cancel)},
		{Method: "POST", Path: "/api/appointments/{id}/no-show", Access: manage, Announces: auth.ChangesAppointments, Handler: h.transition(MarkNoShow)},
		{Method: "POST", Path: "/api/appointments/{id}/start", Access: diagnose, Announces: auth.ChangesAppointments, Handler: h.transition(Start)},
		{Method: "POST", Path: "/api/appointments/{id}/complete", Access: diagnose, Announces: auth.ChangesAppointments, Handler: h.transition(Complete)},
		{Method: "GET", Path: "/api/appointments/{id}/visit", Access: readVisits, Handler: h.visit},
		{Method: "GET", Path: "/api/patients/{id}/vitals", Access: readVisits, Handler: h.vitals},
		{Method: "PUT", Path: "/api/appointments/{id}/visit", Access: diagnose, Announces: auth.ChangesAppointments, Handler: h.saveVisit},
		{Method: "PUT", Path: "/api/appointments/{id}/visit/vitals", Access: auth.Need(auth.RecordVitals), Announces: auth.ChangesAppointments, Handler: h.saveVitals},
		{Method: "POST", Path: "/api/appointments/{id}/visit/sign", Access: diagnose, Announces: auth.ChangesAppointments, Handler: h.sign},
		{Method: "POST", Path: "/api/appointments/{id}/visit/amend", Access: diagnose, Announces: auth.ChangesAppointments, Handler: h.amend},
	}
}

func pathID(r *http.Request) (int64, error) { return httpjson.PathID(r, "id", "appointment.not_found") }

// ListResponse is a page of appointments.
type ListResponse struct {
	Data []Appointment `json:"data"`
	Meta struct {
		Total   int `json:"total"`
		Page    int `json:"page"`
		PerPage int `json:"per_page"`
	} `json:"meta"`
}

func (h *Handler) doctors(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Doctors(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q, err := ParseListQuery(r.URL.Query().Get)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	// A patient's history shows the diagnoses to those who may read visits; that read is
	// audited like opening the visits one by one.
	withDiagnoses := q.PatientID != 0 && readVisits.Allows(auth.PrincipalFrom(r.Context()))
	if withDiagnoses {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome = "visit.list", "patient", strconv.FormatInt(q.PatientID, 10), audit.Success
		if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	res, err := h.Store.List(r.Context(), q, withDiagnoses, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var out ListResponse
	out.Data, out.Meta.Total, out.Meta.Page, out.Meta.PerPage = res.Data, res.Total, q.Page, q.PerPage
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	var in Input
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.Store.Create(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, a)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.Store.Get(r.Context(), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, a)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Input
		Version int `json:"version"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := requireVersion(in.Version); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	a, err := h.Store.Update(r.Context(), auth.AuditEvent(r), id, in.Version, in.Input)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, a)
}

func requireVersion(v int) error {
	if v > 0 {
		return nil
	}
	var val apperr.Validation
	val.Add("version", "validation.required")
	return val.Err()
}

func (h *Handler) transition(act Action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var in struct {
			Version int    `json:"version"`
			Reason  string `json:"reason"`
		}
		if r.ContentLength != 0 {
			if err := httpjson.Decode(w, r, &in); err != nil {
				httpjson.Error(w, r, err)
				return
			}
		}
		a, err := h.Store.Transition(r.Context(), auth.AuditEvent(r), id, act, in.Version, in.Reason)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusOK, a)
	}
}

func (h *Handler) reorder(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Date     string  `json:"date"`
		DoctorID int64   `json:"doctor_id"`
		IDs      []int64 `json:"ids"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.Reorder(r.Context(), auth.AuditEvent(r), in.Date, in.DoctorID, in.IDs); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

// respondVisit answers with the visit as stored now; a plain read is audited (a write
// has audited itself).
func (h *Handler) respondVisit(w http.ResponseWriter, r *http.Request, id int64, isRead bool) {
	v, err := h.Store.Visit(r.Context(), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if isRead {
		a, err := h.Store.Get(r.Context(), id)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "visit.read", "visit", strconv.FormatInt(id, 10), audit.Success, a.PatientID
		if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
			httpjson.Error(w, r, err) // a read that cannot be audited is not served
			return
		}
	}
	httpjson.Respond(w, http.StatusOK, v)
}

func (h *Handler) visit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.respondVisit(w, r, id, true)
}

// visitWrite decodes a visit write's body, runs it, and answers with the visit as saved.
func visitWrite[T any](h *Handler, w http.ResponseWriter, r *http.Request, run func(id int64, in *T) error) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	in := new(T)
	if err := httpjson.Decode(w, r, in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := run(id, in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.respondVisit(w, r, id, false)
}

func (h *Handler) saveVisit(w http.ResponseWriter, r *http.Request) {
	visitWrite(h, w, r, func(id int64, in *struct {
		Change
		Version int `json:"version"`
	}) error {
		return h.Store.SaveDraft(r.Context(), auth.AuditEvent(r), id, in.Version, in.Change)
	})
}

func (h *Handler) saveVitals(w http.ResponseWriter, r *http.Request) {
	visitWrite(h, w, r, func(id int64, in *struct {
		Vitals  *VitalsChange `json:"vitals"`
		Version int           `json:"version"`
	}) error {
		if in.Vitals == nil {
			var v apperr.Validation
			v.Add("vitals", "validation.required")
			return v.Err()
		}
		return h.Store.ChangeVitals(r.Context(), auth.AuditEvent(r), id, in.Version, *in.Vitals)
	})
}

func (h *Handler) sign(w http.ResponseWriter, r *http.Request) {
	visitWrite(h, w, r, func(id int64, in *struct {
		Version int `json:"version"`
	}) error {
		return h.Store.Sign(r.Context(), auth.AuditEvent(r), id, in.Version)
	})
}

func (h *Handler) amend(w http.ResponseWriter, r *http.Request) {
	visitWrite(h, w, r, func(id int64, in *struct {
		Change
		Version int    `json:"version"`
		Reason  string `json:"reason"`
	}) error {
		return h.Store.Amend(r.Context(), auth.AuditEvent(r), id, in.Version, in.Change, in.Reason)
	})
}

// vitals lists a patient's measured vitals by visit (the chart's trends), from ?from= on.
func (h *Handler) vitals(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	from := r.URL.Query().Get("from")
	if from == "" {
		from = "0000-01-01"
	} else if _, err := time.Parse(time.DateOnly, from); err != nil {
		var v apperr.Validation
		v.Add("from", "validation.date_format")
		httpjson.Error(w, r, v.Err())
		return
	}
	list, err := VitalsOf(r.Context(), h.Store.DB, id, from, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if len(list) > 0 {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "vitals.list", "patient", strconv.FormatInt(id, 10), audit.Success, id
		if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	httpjson.List(w, list)
}
