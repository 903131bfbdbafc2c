package billing

import (
	"io"
	"net/http"

	"emr/internal/apperr"
	"emr/internal/httpjson"
)

func (h *Handler) today(w http.ResponseWriter, r *http.Request) {
	t, err := h.Store.CollectedToday(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, t)
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
