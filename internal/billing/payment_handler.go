package billing

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/httpjson"
)

// Moved is a bill after a payment or refund, with that payment.
type Moved struct {
	Bill    Bill    `json:"bill"`
	Payment Payment `json:"payment"`
}

func (h *Handler) pay(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[PaymentInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, p, err := h.Store.Pay(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusCreated, Moved{Bill: b, Payment: p}, err)
}

func (h *Handler) refund(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[RefundInput](w, r, "billing.bill_not_found")
	if !ok {
		return
	}
	b, p, err := h.Store.Refund(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusCreated, Moved{Bill: b, Payment: p}, err)
}
