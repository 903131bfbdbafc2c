package billing

import (
	"net/http"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// drawerRoutes are the drawers' routes: a drawer (everyone's for who sees the financial
// reports, one's own for a cashier who may cash up her own drawer), its float, and closing it
// with the cash counted. The day's cash-up over them is a fee report (internal/feereport).
func (h *Handler) drawerRoutes() []auth.Route {
	countDrawer := auth.NeedAny(auth.ViewFinancial, auth.CashUpOwn)
	return []auth.Route{
		{Method: "PUT", Path: "/api/drawers/float", Access: auth.NeedAny(auth.RecordPayment, auth.CashUpOwn), Announces: auth.ChangesBills, Handler: h.setFloat},
		{Method: "GET", Path: "/api/drawers/float", Access: auth.Need(auth.RecordPayment), Handler: h.floatAsk},
		{Method: "GET", Path: "/api/drawers/{id}", Access: countDrawer, Handler: h.drawer},
		{Method: "POST", Path: "/api/drawers/{id}/count", Access: countDrawer, Announces: auth.ChangesBills, Handler: h.countDrawer},
		{Method: "POST", Path: "/api/drawers/{id}/close", Access: countDrawer, Announces: auth.ChangesBills, Handler: h.closeDrawer},
	}
}

// OnlyMine is the cashier whose drawer alone the caller may see: 0 (all) for who sees the
// financial reports, else the caller.
func OnlyMine(r *http.Request) int64 {
	p := auth.PrincipalFrom(r.Context())
	if p.Can(auth.ViewFinancial) {
		return 0
	}
	return p.UserID
}

// SeesExpected says whether the caller sees what a drawer not yet counted should hold: who
// sees the financial reports or is a supervisor (may void bills) does; one who may only cash
// up her own drawer counts it blind (the review of the blind count, finding 2).
func SeesExpected(r *http.Request) bool {
	p := auth.PrincipalFrom(r.Context())
	return p.Can(auth.ViewFinancial) || p.Can(auth.VoidBill)
}

// forCaller is d as the caller may read it.
func forCaller(r *http.Request, d Drawer) Drawer {
	if SeesExpected(r) {
		return d
	}
	return d.Blinded()
}

func shiftID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "billing.shift_not_found")
}

// floatAsk says what the caller's next cash payment asks of her drawer's float.
func (h *Handler) floatAsk(w http.ResponseWriter, r *http.Request) {
	ask, err := h.Store.FloatAsk(r.Context(), auth.PrincipalFrom(r.Context()).UserID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]string{"ask": ask})
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
	httpjson.Respond(w, http.StatusOK, forCaller(r, d))
}

// mine reads drawer id for the caller: another cashier's drawer is not found for who may
// count only her own.
func (h *Handler) mine(r *http.Request, id int64) (Drawer, error) {
	d, err := h.Store.Shift(r.Context(), id)
	if err == nil && OnlyMine(r) != 0 && d.CashierID != OnlyMine(r) {
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
	httpjson.Result(w, r, http.StatusOK, forCaller(r, d), err)
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
	// Who may void bills is the supervisor whose acknowledgement a large difference needs.
	in.Supervisor = auth.PrincipalFrom(r.Context()).Can(auth.VoidBill)
	d, err := h.Store.CloseShift(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, forCaller(r, d))
}

// countDrawer records the blind count of a drawer still open and answers what it should hold.
func (h *Handler) countDrawer(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[CountInput](w, r, "billing.shift_not_found")
	if !ok {
		return
	}
	if _, err := h.mine(r, id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.CountShift(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, d)
}
