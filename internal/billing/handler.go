package billing

import (
	"io"
	"net/http"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/profile"
)

// Handler serves the fees API.
type Handler struct {
	Store *Store
	// MaxImport is the largest CSV file an import reads, in bytes.
	MaxImport int64
}

// Routes is the fees API's route table.
func (h *Handler) Routes() []auth.Route {
	manage := auth.Need(auth.ManageFees)
	charge := auth.Need(auth.RecordCharges)
	readBill := auth.NeedAny(auth.RecordCharges, auth.RecordPayment, auth.ViewFinancial)
	return append(h.drawerRoutes(), []auth.Route{
		{Method: "GET", Path: "/api/services", Access: auth.NeedAny(auth.RecordCharges, auth.ManageFees), Handler: h.services},
		{Method: "POST", Path: "/api/services", Access: manage, Handler: h.createService},
		{Method: "PUT", Path: "/api/services/{id}", Access: manage, Handler: h.updateService},
		{Method: "GET", Path: "/api/services/export", Access: manage, Handler: h.exportServices},
		{Method: "POST", Path: "/api/services/import", Access: manage, Handler: h.importServices},
		{Method: "POST", Path: "/api/services/starter", Access: manage, Handler: h.installStarter},
		{Method: "GET", Path: "/api/fees/settings", Access: auth.NeedAny(auth.RecordCharges, auth.RecordPayment, auth.ManageFees, auth.ViewFinancial), Handler: h.settings},
		{Method: "PUT", Path: "/api/fees/settings", Access: manage, Handler: h.saveSettings},
		{Method: "GET", Path: "/api/appointments/{id}/bill", Access: readBill, Handler: h.appointmentBill},
		{Method: "POST", Path: "/api/appointments/{id}/bill", Access: charge, Announces: auth.ChangesBills, Handler: h.openAppointmentBill},
		{Method: "POST", Path: "/api/appointments/{id}/bill/lines", Access: charge, Announces: auth.ChangesBills, Handler: h.chargeAppointment},
		{Method: "POST", Path: "/api/bills", Access: charge, Announces: auth.ChangesBills, Handler: h.createWalkIn},
		{Method: "GET", Path: "/api/bills", Access: readBill, Handler: h.list},
		{Method: "GET", Path: "/api/bill-tags", Access: readBill, Handler: h.tags},
		{Method: "GET", Path: "/api/bills/{id}", Access: readBill, Handler: h.bill},
		{Method: "POST", Path: "/api/bills/{id}/print", Access: readBill, Handler: h.print},
		{Method: "GET", Path: "/api/bills/{id}/signature", Access: readBill, Handler: h.signature},
		{Method: "PUT", Path: "/api/bills/{id}", Access: charge, Announces: auth.ChangesBills, Handler: h.updateBill},
		{Method: "POST", Path: "/api/bills/{id}/lines", Access: charge, Announces: auth.ChangesBills, Handler: h.addLine},
		{Method: "PUT", Path: "/api/bills/{id}/lines/{line}", Access: charge, Announces: auth.ChangesBills, Handler: h.updateLine},
		{Method: "DELETE", Path: "/api/bills/{id}/lines/{line}", Access: charge, Announces: auth.ChangesBills, Handler: h.removeLine},
		{Method: "POST", Path: "/api/bills/{id}/finalise", Access: charge, Announces: auth.ChangesBills, Handler: h.finalise},
		{Method: "POST", Path: "/api/bills/{id}/void", Access: auth.Need(auth.VoidBill), Announces: auth.ChangesBills, Handler: h.void},
		{Method: "POST", Path: "/api/bills/{id}/payments", Access: auth.Need(auth.RecordPayment), Announces: auth.ChangesBills, Handler: h.pay},
		{Method: "POST", Path: "/api/bills/{id}/refunds", Access: auth.Need(auth.VoidBill), Announces: auth.ChangesBills, Handler: h.refund},
		{Method: "GET", Path: "/api/reports/today", Access: auth.Need(auth.ViewFinancial), Handler: h.today},
		{Method: "GET", Path: "/api/reports/outstanding", Access: auth.Need(auth.ViewFinancial), Handler: h.outstanding},
		{Method: "GET", Path: "/api/reports/bills", Access: auth.Need(auth.ViewFinancial), Handler: h.billsReport},
		{Method: "GET", Path: "/api/reports/revenue", Access: auth.Need(auth.ViewFinancial), Handler: h.revenue},
	}...)
}

func (h *Handler) services(w http.ResponseWriter, r *http.Request) {
	q := ServiceQuery{Q: r.URL.Query().Get("q"), All: r.URL.Query().Get("all") == "1" && auth.PrincipalFrom(r.Context()).Can(auth.ManageFees)}
	list, err := h.Store.Services(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) createService(w http.ResponseWriter, r *http.Request) {
	var in ServiceInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	sv, err := h.Store.CreateService(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, sv)
}

func (h *Handler) updateService(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "billing.service_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in ServiceInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	sv, err := h.Store.UpdateService(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, sv)
}

// audit records what the caller read, printed or exported; false when that failed (and was
// answered).
func (h *Handler) audit(w http.ResponseWriter, r *http.Request, action, entity string, id, patientID int64, detail string) bool {
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.PatientID, e.Outcome, e.Detail = action, entity, patientID, audit.Success, detail
	if id != 0 {
		e.EntityID = strconv.FormatInt(id, 10)
	}
	if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return false
	}
	return true
}

func (h *Handler) exportServices(w http.ResponseWriter, r *http.Request) {
	set, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !h.audit(w, r, "service.export", "services", 0, 0, "") {
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="services.csv"`)
	if err := h.Store.ExportServices(r.Context(), w, set.Currency); err != nil {
		panic(http.ErrAbortHandler) // the header is out: the client sees a cut-off file
	}
}

func (h *Handler) importServices(w http.ResponseWriter, r *http.Request) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	set, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rep, err := h.Store.ImportServices(r.Context(), auth.AuditEvent(r), data, set.Currency, i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, rep)
}

func (h *Handler) installStarter(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.InstallStarter(r.Context(), auth.AuditEvent(r), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]int{"added": n})
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	s, err := ReadSettings(r.Context(), h.Store.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	var in Settings
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	s, err := h.Store.SaveSettings(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, s)
}

// billID and appointmentID read the path's ids.
func billID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "billing.bill_not_found")
}

func appointmentID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "appointment.not_found")
}

// decodeOn reads the path's id (with id) and the JSON body; false when either failed, and
// the caller was answered.
func decodeOn[T any](w http.ResponseWriter, r *http.Request, id func(*http.Request) (int64, error)) (int64, T, bool) {
	var in T
	n, err := id(r)
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return 0, in, false
	}
	return n, in, true
}

// respondMoved answers with a bill and the payment or refund just recorded on it.
func respondMoved(w http.ResponseWriter, r *http.Request) func(Bill, Payment, error) {
	return func(b Bill, p Payment, err error) {
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusCreated, Moved{Bill: b, Payment: p})
	}
}

// respond answers with the bill an operation returned, or its error.
func respond(w http.ResponseWriter, r *http.Request, status int) func(Bill, error) {
	return func(b Bill, err error) {
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, status, b)
	}
}

func (h *Handler) appointmentBill(w http.ResponseWriter, r *http.Request) {
	id, err := appointmentID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	respond(w, r, http.StatusOK)(h.Store.ForAppointment(r.Context(), id))
}

func (h *Handler) openAppointmentBill(w http.ResponseWriter, r *http.Request) {
	id, err := appointmentID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	respond(w, r, http.StatusOK)(h.Store.OpenForAppointment(r.Context(), auth.AuditEvent(r), id))
}

func override(r *http.Request) MayOverride {
	return MayOverride(auth.PrincipalFrom(r.Context()).Can(auth.OverridePrice))
}

func (h *Handler) chargeAppointment(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[LineInput](w, r, appointmentID); ok {
		respond(w, r, http.StatusCreated)(h.Store.AddLine(r.Context(), auth.AuditEvent(r), 0, id, in, override(r)))
	}
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
	respond(w, r, status)(b, err)
}

// tags answers the bills in force of the appointments listed in ?appointments=1,2,3.
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
	id, in, ok := decodeOn[PrintInput](w, r, billID)
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

func (h *Handler) today(w http.ResponseWriter, r *http.Request) {
	t, err := h.Store.CollectedToday(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, t)
}

func (h *Handler) bill(w http.ResponseWriter, r *http.Request) {
	id, err := billID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	respond(w, r, http.StatusOK)(h.Store.Get(r.Context(), id))
}

func (h *Handler) updateBill(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[BillInput](w, r, billID); ok {
		respond(w, r, http.StatusOK)(h.Store.Update(r.Context(), auth.AuditEvent(r), id, in))
	}
}

func (h *Handler) addLine(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[LineInput](w, r, billID); ok {
		respond(w, r, http.StatusCreated)(h.Store.AddLine(r.Context(), auth.AuditEvent(r), id, 0, in, override(r)))
	}
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
	var in struct {
		LineInput
		Version int `json:"version"`
	}
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	respond(w, r, http.StatusOK)(h.Store.UpdateLine(r.Context(), auth.AuditEvent(r), id, line, in.Version, in.LineInput, override(r)))
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
	respond(w, r, http.StatusOK)(h.Store.RemoveLine(r.Context(), auth.AuditEvent(r), id, line, version))
}

func (h *Handler) finalise(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[struct {
		Version int `json:"version"`
	}](w, r, billID); ok {
		respond(w, r, http.StatusOK)(h.Store.Finalise(r.Context(), auth.AuditEvent(r), id, in.Version))
	}
}

func (h *Handler) void(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[VoidInput](w, r, billID); ok {
		respond(w, r, http.StatusOK)(h.Store.Void(r.Context(), auth.AuditEvent(r), id, in))
	}
}

// Moved is a bill after a payment or refund, with that payment.
type Moved struct {
	Bill    Bill    `json:"bill"`
	Payment Payment `json:"payment"`
}

func (h *Handler) pay(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[PaymentInput](w, r, billID); ok {
		respondMoved(w, r)(h.Store.Pay(r.Context(), auth.AuditEvent(r), id, in))
	}
}

func (h *Handler) refund(w http.ResponseWriter, r *http.Request) {
	if id, in, ok := decodeOn[RefundInput](w, r, billID); ok {
		respondMoved(w, r)(h.Store.Refund(r.Context(), auth.AuditEvent(r), id, in))
	}
}

func (h *Handler) outstanding(w http.ResponseWriter, r *http.Request) {
	var v apperr.Validation
	page, perPage := httpjson.Page(r.URL.Query().Get, &v)
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		page, perPage = 1, 0 // every bill owing
	}
	owed, err := h.Store.Outstanding(r.Context(), page, perPage)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		set, err := ReadSettings(r.Context(), h.Store.DB)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		h.csv(w, r, "outstanding", func(out io.Writer) error { return WriteOutstandingCSV(out, owed.Data, set.Currency, h.Store.loc()) })
		return
	}
	httpjson.Respond(w, http.StatusOK, owed)
}

// asCSV says whether the caller asked for a report as a CSV file (?format=csv).
func asCSV(r *http.Request) bool { return r.URL.Query().Get("format") == "csv" }

// csv audits the export of report name and answers with the file write makes.
func (h *Handler) csv(w http.ResponseWriter, r *http.Request, name string, write func(io.Writer) error) {
	if !h.audit(w, r, "report.export", "report", 0, 0, name) {
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	if err := write(w); err != nil {
		panic(http.ErrAbortHandler) // the header is out: the client sees a cut-off file
	}
}

// reportRange reads a report's from and to (the clinic's days); false when they are wrong,
// and the caller was answered.
func (h *Handler) reportRange(w http.ResponseWriter, r *http.Request) (Range, bool) {
	rg, err := NewRange(r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	if err != nil {
		httpjson.Error(w, r, err)
		return rg, false
	}
	return rg, true
}

func (h *Handler) billsReport(w http.ResponseWriter, r *http.Request) {
	rg, ok := h.reportRange(w, r)
	if !ok {
		return
	}
	var v apperr.Validation
	page, perPage := httpjson.Page(r.URL.Query().Get, &v)
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		page, perPage = 1, 0 // the whole range
	}
	rep, err := h.Store.Bills(r.Context(), rg, page, perPage)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		h.csv(w, r, "bills-"+rg.From+"-"+rg.To, func(out io.Writer) error { return WriteBillsCSV(out, rep, h.Store.loc()) })
		return
	}
	httpjson.Respond(w, http.StatusOK, rep)
}

func (h *Handler) revenue(w http.ResponseWriter, r *http.Request) {
	rg, ok := h.reportRange(w, r)
	if !ok {
		return
	}
	by := r.URL.Query().Get("by")
	rep, err := h.Store.Revenue(r.Context(), rg, by)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		h.csv(w, r, "revenue-by-"+by+"-"+rg.From+"-"+rg.To, func(out io.Writer) error { return WriteRevenueCSV(out, rep) })
		return
	}
	httpjson.Respond(w, http.StatusOK, rep)
}
