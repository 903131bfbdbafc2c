package billing

import (
	"net/http"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/profile"
)

func (h *Handler) appointmentBill(w http.ResponseWriter, r *http.Request) {
	id, err := appointmentID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, err := h.Store.ForAppointment(r.Context(), id)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

// appointmentOrders answers the visit's lab orders beside its bill: ordered, charged, and
// what the desk should know of the rest.
func (h *Handler) appointmentOrders(w http.ResponseWriter, r *http.Request) {
	id, err := appointmentID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.OrdersOf(r.Context(), id, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, out, err)
}

// ordersToCharge answers the day's orders not charged, or cancelled and still charged (?day=,
// the clinic's today when absent).
func (h *Handler) ordersToCharge(w http.ResponseWriter, r *http.Request) {
	day := r.URL.Query().Get("day")
	if day == "" {
		day = h.Store.dayOf(h.Store.now())
	}
	out, err := h.Store.OrdersToCharge(r.Context(), day, i18n.FromRequest(r))
	httpjson.Result(w, r, http.StatusOK, map[string]any{"data": out}, err)
}

func (h *Handler) openAppointmentBill(w http.ResponseWriter, r *http.Request) {
	id, err := appointmentID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, err := h.Store.OpenForAppointment(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func override(r *http.Request) MayOverride {
	return MayOverride(auth.PrincipalFrom(r.Context()).Can(auth.OverridePrice))
}

func (h *Handler) chargeAppointment(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[LineInput](w, r, "appointment.not_found")
	if !ok {
		return
	}
	b, err := h.Store.AddLine(r.Context(), auth.AuditEvent(r), 0, id, in, override(r))
	httpjson.Result(w, r, http.StatusCreated, b, err)
}

func (h *Handler) createWalkIn(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PatientID int64 `json:"patient_id"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, created, err := h.Store.CreateWalkIn(r.Context(), auth.AuditEvent(r), in.PatientID)
	status := http.StatusOK // the patient's open draft, reopened
	if created {
		status = http.StatusCreated
	}
	httpjson.Result(w, r, status, b, err)
}

// list answers the bills the desk looks for: by number or patient, status and dates, a page.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q, err := ParseBillQuery(r.URL.Query().Get)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.ListBills(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, list)
}

// tags answers the bills in force of the appointments listed in ?appointments=1,2,3.
func (h *Handler) tags(w http.ResponseWriter, r *http.Request) {
	var ids []int64
	for _, f := range strings.Split(r.URL.Query().Get("appointments"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			var v apperr.Validation
			v.Add("appointments", "billing.bad_appointments")
			httpjson.Error(w, r, v.Err())
			return
		}
		ids = append(ids, id)
	}
	list, err := h.Store.Tags(r.Context(), ids)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// print records that a bill's statement or receipt is printed (each print and reprint is
// audited with the patient) and answers the bill to print.
func (h *Handler) print(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[PrintInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, detail, err := h.Store.Printed(r.Context(), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if h.audit(w, r, "bill.print", "bill", b.ID, b.Patient.ID, detail) {
		httpjson.Respond(w, http.StatusOK, b)
	}
}

// signature answers the drawn signature of the bill's doctor, which its statement prints.
func (h *Handler) signature(w http.ResponseWriter, r *http.Request) {
	id, err := billID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Signature(r.Context(), id)
	profile.WriteSignature(w, r, d, err)
}

func (h *Handler) bill(w http.ResponseWriter, r *http.Request) {
	id, err := billID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, err := h.Store.Get(r.Context(), id)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func (h *Handler) updateBill(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[BillInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, err := h.Store.Update(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func (h *Handler) addLine(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[LineInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, err := h.Store.AddLine(r.Context(), auth.AuditEvent(r), id, 0, in, override(r))
	httpjson.Result(w, r, http.StatusCreated, b, err)
}

// lineIDs reads a line route's bill and line ids.
func lineIDs(r *http.Request) (id, line int64, err error) {
	if id, err = billID(r); err == nil {
		line, err = httpjson.PathID(r, "line", "billing.line_not_found")
	}
	return id, line, err
}

func (h *Handler) updateLine(w http.ResponseWriter, r *http.Request) {
	id, line, err := lineIDs(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		LineInput
		Version int `json:"version"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, err := h.Store.UpdateLine(r.Context(), auth.AuditEvent(r), id, line, in.Version, in.LineInput, override(r))
	httpjson.Result(w, r, http.StatusOK, b, err)
}

// linkOrder records which lab order a line added by hand charges.
func (h *Handler) linkOrder(w http.ResponseWriter, r *http.Request) {
	id, line, err := lineIDs(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in LinkInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	in.OverridePrice = auth.PrincipalFrom(r.Context()).Can(auth.OverridePrice)
	b, err := h.Store.LinkOrder(r.Context(), auth.AuditEvent(r), id, line, in)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

// unlinkOrder takes a hand mark off a line (a supervisor's correction, with a reason).
func (h *Handler) unlinkOrder(w http.ResponseWriter, r *http.Request) {
	id, line, err := lineIDs(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in UnlinkInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	b, err := h.Store.UnlinkOrder(r.Context(), auth.AuditEvent(r), id, line, in)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func (h *Handler) removeLine(w http.ResponseWriter, r *http.Request) {
	id, line, err := lineIDs(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	version, err := strconv.Atoi(r.URL.Query().Get("version"))
	if err != nil {
		httpjson.Error(w, r, apperr.Invalid("billing.version_required"))
		return
	}
	b, err := h.Store.RemoveLine(r.Context(), auth.AuditEvent(r), id, line, version)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func (h *Handler) finalise(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[struct {
		Version int `json:"version"`
	}](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, err := h.Store.Finalise(r.Context(), auth.AuditEvent(r), id, in.Version)
	httpjson.Result(w, r, http.StatusOK, b, err)
}

func (h *Handler) void(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[VoidInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, err := h.Store.Void(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, b, err)
}
