package billing

import (
	"io"
	"net/http"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// drawerRoutes are the cash-up's routes: a day's drawers (everyone's for who sees the
// financial reports, one's own for a cashier who may cash up her own drawer), a drawer's
// float, and closing it with the cash counted.
func (h *Handler) drawerRoutes() []auth.Route {
	countDrawer := auth.NeedAny(auth.ViewFinancial, auth.CashUpOwn)
	return []auth.Route{
		{Method: "GET", Path: "/api/reports/cash-up", Access: countDrawer, Handler: h.cashUp},
		{Method: "PUT", Path: "/api/drawers/float", Access: auth.NeedAny(auth.RecordPayment, auth.CashUpOwn), Announces: auth.ChangesBills, Handler: h.setFloat},
		{Method: "GET", Path: "/api/drawers/{id}", Access: countDrawer, Handler: h.drawer},
		{Method: "POST", Path: "/api/drawers/{id}/close", Access: countDrawer, Announces: auth.ChangesBills, Handler: h.closeDrawer},
	}
}

// onlyMine is the cashier whose drawer alone the caller may see: 0 (all) for who sees the
// financial reports, else the caller.
func onlyMine(r *http.Request) int64 {
	p := auth.PrincipalFrom(r.Context())
	if p.Can(auth.ViewFinancial) {
		return 0
	}
	return p.UserID
}

func shiftID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "billing.shift_not_found")
}

func (h *Handler) cashUp(w http.ResponseWriter, r *http.Request) {
	day := r.URL.Query().Get("day")
	if day == "" {
		day = h.Store.now().In(h.Store.loc()).Format(time.DateOnly)
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		var v apperr.Validation
		v.Add("day", "validation.date_format")
		httpjson.Error(w, r, v.Err())
		return
	}
	c, err := h.Store.CashUp(r.Context(), day, onlyMine(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if asCSV(r) {
		h.csv(w, r, "cash-up-"+day, func(out io.Writer) error { return WriteCashUpCSV(out, c) })
		return
	}
	httpjson.Respond(w, http.StatusOK, c)
}

func (h *Handler) setFloat(w http.ResponseWriter, r *http.Request) {
	var in FloatInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.SetFloat(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, d)
}

// mine reads drawer id for the caller: another cashier's drawer is not found for who may
// count only her own.
func (h *Handler) mine(r *http.Request, id int64) (Drawer, error) {
	d, err := h.Store.Shift(r.Context(), id)
	if err == nil && onlyMine(r) != 0 && d.CashierID != onlyMine(r) {
		return Drawer{}, apperr.NotFound("billing.shift_not_found")
	}
	return d, err
}

func (h *Handler) drawer(w http.ResponseWriter, r *http.Request) {
	id, err := shiftID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.mine(r, id)
	httpjson.Result(w, r, http.StatusOK, d, err)
}

func (h *Handler) closeDrawer(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[CloseInput](w, r, "billing.shift_not_found")
	if !ok {
		return
	}
	if _, err := h.mine(r, id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.CloseShift(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, d)
}
