package feereport

import (
	"io"
	"net/http"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/billing"
	"emr/internal/httpjson"
)

// Handler serves the fee reports.
type Handler struct{ Reports *Reports }

// Routes is the fee reports' route table: each for those who read the clinic's finances.
func (h *Handler) Routes() []auth.Route {
	financial := auth.Need(auth.ViewFinancial)
	return []auth.Route{
		{Method: "GET", Path: "/api/reports/today", Access: financial, Handler: h.today},
		// A cashier who may cash up her own drawer sees hers alone (billing.OnlyMine).
		{Method: "GET", Path: "/api/reports/cash-up", Access: auth.NeedAny(auth.ViewFinancial, auth.CashUpOwn), Handler: h.cashUp},
		{Method: "GET", Path: "/api/reports/outstanding", Access: financial, Handler: h.outstanding},
		{Method: "GET", Path: "/api/reports/bills", Access: financial, Handler: h.bills},
		{Method: "GET", Path: "/api/reports/revenue", Access: financial, Handler: h.revenue},
	}
}

func (h *Handler) today(w http.ResponseWriter, r *http.Request) {
	t, err := h.Reports.CollectedToday(r.Context())
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// cashUp answers a day's money by drawer and method (today's unless ?day= says), or its CSV.
func (h *Handler) cashUp(w http.ResponseWriter, r *http.Request) {
	day := r.URL.Query().Get("day")
	if day == "" {
		day = h.Reports.Fees.Today()
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		var v apperr.Validation
		v.Add("day", "validation.date_format")
		httpjson.Error(w, r, v.Err())
		return
	}
	c, err := h.Reports.Fees.CashUp(r.Context(), day, billing.OnlyMine(r))
	if !billing.SeesExpected(r) {
		c = c.Blinded() // her drawer is counted blind (the review of the blind count)
	}
	if err != nil || !asCSV(r) {
		httpjson.Result(w, r, http.StatusOK, c, err)
		return
	}
	h.csv(w, r, "cash-up-"+day, func(out io.Writer) error { return WriteCashUpCSV(out, c) })
}

// page reads a report's page (for a CSV file: everything); false when it is wrong, and the
// caller was answered.
func page(w http.ResponseWriter, r *http.Request) (int, int, bool) {
	var v apperr.Validation
	page, perPage := httpjson.Page(r.URL.Query().Get, &v)
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return 0, 0, false
	}
	if asCSV(r) {
		return 1, 0, true
	}
	return page, perPage, true
}

func (h *Handler) outstanding(w http.ResponseWriter, r *http.Request) {
	pageNo, perPage, ok := page(w, r)
	if !ok {
		return
	}
	owed, err := h.Reports.Outstanding(r.Context(), pageNo, perPage)
	if err != nil || !asCSV(r) {
		httpjson.Result(w, r, http.StatusOK, owed, err)
		return
	}
	set, err := billing.ReadSettings(r.Context(), h.Reports.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.csv(w, r, "outstanding", func(out io.Writer) error { return WriteOutstandingCSV(out, owed.Data, set.Currency, h.loc()) })
}

// reportRange reads a report's from and to (the clinic's days); false when they are wrong,
// and the caller was answered.
func reportRange(w http.ResponseWriter, r *http.Request) (Range, bool) {
	rg, err := NewRange(r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	if err != nil {
		httpjson.Error(w, r, err)
		return rg, false
	}
	return rg, true
}

func (h *Handler) bills(w http.ResponseWriter, r *http.Request) {
	rg, ok := reportRange(w, r)
	if !ok {
		return
	}
	pageNo, perPage, ok := page(w, r)
	if !ok {
		return
	}
	rep, err := h.Reports.Bills(r.Context(), rg, pageNo, perPage)
	if err != nil || !asCSV(r) {
		httpjson.Result(w, r, http.StatusOK, rep, err)
		return
	}
	h.csv(w, r, "bills-"+rg.From+"-"+rg.To, func(out io.Writer) error { return WriteBillsCSV(out, rep, h.loc()) })
}

func (h *Handler) revenue(w http.ResponseWriter, r *http.Request) {
	rg, ok := reportRange(w, r)
	if !ok {
		return
	}
	by := r.URL.Query().Get("by")
	rep, err := h.Reports.Revenue(r.Context(), rg, by)
	if err != nil || !asCSV(r) {
		httpjson.Result(w, r, http.StatusOK, rep, err)
		return
	}
	h.csv(w, r, "revenue-by-"+by+"-"+rg.From+"-"+rg.To, func(out io.Writer) error { return WriteRevenueCSV(out, rep) })
}

func (h *Handler) loc() *time.Location {
	if h.Reports.Loc == nil {
		return time.UTC
	}
	return h.Reports.Loc
}

// asCSV says whether the caller asked for a report as a CSV file (?format=csv).
func asCSV(r *http.Request) bool { return r.URL.Query().Get("format") == "csv" }

// csv audits the export of report name (a read) and answers with the file write makes.
func (h *Handler) csv(w http.ResponseWriter, r *http.Request, name string, write func(io.Writer) error) {
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.Outcome, e.Detail = "report.export", "report", audit.Success, name
	if err := audit.Access(r.Context(), h.Reports.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	if err := write(w); err != nil {
		panic(http.ErrAbortHandler) // the header is out: the client sees a cut-off file
	}
}
