package result

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

// Handler serves the orders-and-results API.
type Handler struct {
	Store *Store
	// MaxReport is the largest lab report file an upload takes, in bytes.
	MaxReport int64
}

// readResults is who may read orders and results: who records them, who reviews them, and
// the doctor writing the visit.
var readResults = auth.NeedAny(auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis)

// Routes is the results API's route table.
func (h *Handler) Routes() []auth.Route {
	record, review := auth.Need(auth.RecordResults), auth.Need(auth.ReviewResults)
	acknowledge := auth.Need(auth.AcknowledgeCritical) // which alerts: Store.OpenAlerts, Store.Acknowledge
	return []auth.Route{
		{Method: "GET", Path: "/api/appointments/{id}/orders", Access: readResults, Handler: h.visitOrders},
		{Method: "GET", Path: "/api/patients/{id}/orders", Access: readResults, Handler: h.patientOrders},
		{Method: "GET", Path: "/api/patients/{id}/trend", Access: readResults, Handler: h.trend},
		{Method: "GET", Path: "/api/lab-orders/overdue", Access: readResults, Handler: h.overdue},
		{Method: "GET", Path: "/api/results/misfiled", Access: readResults, Handler: h.misfiled},
		{Method: "GET", Path: "/api/results/misfiled/count", Access: readResults, Handler: h.misfiledCount},
		{Method: "GET", Path: "/api/lab-results/{id}/misfiled/orders", Access: record, Handler: h.refileOrders},
		{Method: "POST", Path: "/api/lab-results/{id}/misfiled/resolve", Access: record, Announces: auth.ChangesResults, Handler: h.resolveMisfiled},
		{Method: "GET", Path: "/api/lab-orders/{id}", Access: readResults, Handler: h.detail},
		{Method: "POST", Path: "/api/lab-orders/{id}/collect", Access: record, Announces: auth.ChangesResults, Handler: h.transition(Collected)},
		{Method: "POST", Path: "/api/lab-orders/{id}/cancel", Access: auth.NeedAny(auth.RecordResults, auth.WriteDiagnosis), Announces: auth.ChangesResults, Handler: h.transition(Cancelled)},
		{Method: "POST", Path: "/api/lab-orders/{id}/not-done", Access: record, Announces: auth.ChangesResults, Handler: h.transition(NotDone)},
		{Method: "PUT", Path: "/api/lab-orders/{id}/results", Access: record, Announces: auth.ChangesResults, Handler: h.record},
		{Method: "POST", Path: "/api/lab-orders/{id}/retract", Access: record, Announces: auth.ChangesResults, Handler: h.retract},
		{Method: "POST", Path: "/api/lab-orders/{id}/report", Access: record, Announces: auth.ChangesResults, Handler: h.attachReport},
		{Method: "GET", Path: "/api/results/review", Access: review, Handler: h.toReview},
		{Method: "GET", Path: "/api/results/review/count", Access: review, Handler: h.toReviewCount},
		{Method: "POST", Path: "/api/results/review", Access: review, Announces: auth.ChangesResults, Handler: h.review},
		{Method: "GET", Path: "/api/results/alerts", Access: acknowledge, Handler: h.alerts},
		{Method: "POST", Path: "/api/results/alerts/{id}/acknowledge", Access: acknowledge, Announces: auth.ChangesResults, Handler: h.acknowledge},
		{Method: "GET", Path: "/api/results/alerts/report", Access: review, Handler: h.report},
		{Method: "GET", Path: "/api/settings/results", Access: auth.LoggedIn, Handler: h.settings},
		{Method: "PUT", Path: "/api/settings/results", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: h.saveSettings}, // who critical results escalate to: a person decides
	}
}

func orderID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "result.order_not_found")
}

// audited records a read of a patient's results (a read that cannot be audited is not
// served: it answers the error and reports false).
func (h *Handler) audited(w http.ResponseWriter, r *http.Request, action, entity string, id, patientID int64) bool {
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = action, entity, strconv.FormatInt(id, 10), audit.Success, patientID
	if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return false
	}
	return true
}

func (h *Handler) visitOrders(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "appointment.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.VisitOrders(r.Context(), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if len(list) > 0 && !h.audited(w, r, "results.list", "visit", id, list[0].PatientID) {
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) patientOrders(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var v apperr.Validation
	before := int64(0)
	if s := r.URL.Query().Get("before"); s != "" {
		if before, err = strconv.ParseInt(s, 10, 64); err != nil || before < 1 {
			v.Add("before", "validation.number")
		}
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.PatientOrders(r.Context(), id, before, 50, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if len(list) > 0 && !h.audited(w, r, "results.list", "patient", id, id) {
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) trend(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "patient.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var v apperr.Validation
	analyte := r.URL.Query().Get("analyte")
	if analyte == "" {
		v.Add("analyte", "validation.required")
	}
	from, err := dateParam(r, "from", time.Time{})
	if err != nil {
		v.Add("from", "validation.date_format")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	t, err := h.Store.Trend(r.Context(), id, analyte, from, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if len(t.Points) > 0 && !h.audited(w, r, "results.trend", "patient", id, id) {
		return
	}
	httpjson.Respond(w, http.StatusOK, t)
}

// dateParam reads a YYYY-MM-DD query parameter as the start of that day (UTC); missing, it
// is otherwise.
func dateParam(r *http.Request, name string, otherwise time.Time) (time.Time, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return otherwise, nil
	}
	return time.Parse(time.DateOnly, s)
}

func (h *Handler) overdue(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Overdue(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// misfiled lists a page of the results retracted as recorded against the wrong patient that
// wait for someone to find whose they were; the read is audited on each patient it shows (m2
// of the laboratory clinician's review).
func (h *Handler) misfiled(w http.ResponseWriter, r *http.Request) {
	var v apperr.Validation
	page, perPage := httpjson.Page(r.URL.Query().Get, &v)
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, total, err := h.Store.Misfiled(r.Context(), page, perPage, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var events []audit.Event
	seen := map[int64]bool{}
	for _, m := range list {
		if m.Patient == nil || seen[m.Patient.ID] {
			continue
		}
		seen[m.Patient.ID] = true
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "misfiled_results.list", "patient", strconv.FormatInt(m.Patient.ID, 10), audit.Success, m.Patient.ID
		events = append(events, e)
	}
	if err := audit.AccessAll(r.Context(), h.Store.DB, events); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, httpjson.ListBody[Misfiled]{Data: list, Meta: httpjson.ListMeta{Total: total, Page: page, PerPage: perPage}})
}

// misfiledCount is how many misfiled results wait (the results desk's figure).
func (h *Handler) misfiledCount(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.MisfiledCount(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, WaitingCount{Count: n})
}

// refileOrders lists the orders of ?patient_id= a misfiled result may be refiled to; the
// read is audited on that patient.
func (h *Handler) refileOrders(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "result.misfiled_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	patientID, err := strconv.ParseInt(r.URL.Query().Get("patient_id"), 10, 64)
	if err != nil || patientID < 1 {
		var v apperr.Validation
		v.Add("patient_id", "validation.required")
		httpjson.Error(w, r, v.Err())
		return
	}
	list, err := h.Store.RefileOrders(r.Context(), id, patientID, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !h.audited(w, r, "results.list", "patient", patientID, patientID) {
		return
	}
	httpjson.List(w, list)
}

// MisfiledResolved is what resolving a misfiled result did: refiled, the new result row.
type MisfiledResolved struct {
	RefiledResultID *int64 `json:"refiled_result_id"`
}

func (h *Handler) resolveMisfiled(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[ResolveMisfiledInput](w, r, "result.misfiled_not_found")
	if !ok {
		return
	}
	refiled, err := h.Store.ResolveMisfiled(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out := MisfiledResolved{}
	if refiled != 0 {
		out.RefiledResultID = &refiled
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) detail(w http.ResponseWriter, r *http.Request) {
	id, err := orderID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Detail(r.Context(), id, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if r.Method == http.MethodGet && !h.audited(w, r, "lab_order.read", "lab_order", id, d.PatientID) {
		return
	}
	httpjson.Respond(w, http.StatusOK, d)
}

func (h *Handler) transition(status string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := orderID(r)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var in StateInput
		if err := httpjson.Decode(w, r, &in); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if err := h.Store.Transition(r.Context(), auth.AuditEvent(r), id, status, in); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		h.detail(w, r)
	}
}

func (h *Handler) record(w http.ResponseWriter, r *http.Request) {
	id, err := orderID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in RecordInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.Record(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

// retract withdraws a result (or the order's whole report) entered in error.
func (h *Handler) retract(w http.ResponseWriter, r *http.Request) {
	id, err := orderID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in RetractInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Retract(r.Context(), auth.AuditEvent(r), id, in, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, d)
}

func (h *Handler) toReview(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.ToReview(r.Context(), auth.PrincipalFrom(r.Context()).UserID, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// WaitingCount is how many results wait for the caller's review (the dashboard's figure).
type WaitingCount struct {
	Count int `json:"count"`
}

func (h *Handler) toReviewCount(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.ToReviewCount(r.Context(), auth.PrincipalFrom(r.Context()).UserID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, WaitingCount{Count: n})
}

// ReviewCount is how many results a review marked.
type ReviewCount struct {
	Reviewed int `json:"reviewed"`
}

func (h *Handler) review(w http.ResponseWriter, r *http.Request) {
	var in ReviewInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	n, err := h.Store.Review(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, ReviewCount{Reviewed: n})
}

// recipient is the caller as alerts see it.
func recipient(r *http.Request) Recipient {
	p := auth.PrincipalFrom(r.Context())
	return Recipient{UserID: p.UserID, Roles: p.Roles, Reviews: p.Can(auth.ReviewResults)}
}

func (h *Handler) alerts(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.OpenAlerts(r.Context(), recipient(r), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) acknowledge(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "result.alert_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in AckInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.Acknowledge(r.Context(), auth.AuditEvent(r), recipient(r), id, in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

func (h *Handler) report(w http.ResponseWriter, r *http.Request) {
	var v apperr.Validation
	today := h.Store.now().Truncate(24 * time.Hour)
	from, err := dateParam(r, "from", today.AddDate(0, 0, -30))
	if err != nil {
		v.Add("from", "validation.date_format")
	}
	last, err := dateParam(r, "to", today)
	if err != nil {
		v.Add("to", "validation.date_format")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.AlertReport(r.Context(), from, last.AddDate(0, 0, 1), i18n.FromRequest(r)) // the last day included
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	st, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st.Email = h.Store.Email
	httpjson.Respond(w, http.StatusOK, st)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	var in Settings
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	st, err := h.Store.SaveSettings(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, st)
}

// attachReport takes the lab's report as a multipart upload ("file"), with the order's
// version read in ?version= (or the form field "version").
func (h *Handler) attachReport(w http.ResponseWriter, r *http.Request) {
	id, err := orderID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	data, name, err := httpjson.File(w, r, h.MaxReport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	version, err := strconv.Atoi(r.FormValue("version"))
	if err != nil {
		var v apperr.Validation
		v.Add("version", "validation.number")
		httpjson.Error(w, r, v.Err())
		return
	}
	if err := h.Store.AttachReport(r.Context(), auth.AuditEvent(r), id, version, name, data); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.detail(w, r)
}
