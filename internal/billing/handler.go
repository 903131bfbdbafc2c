package billing

import (
	"net/http"

	"emr/internal/auth"
	"emr/internal/httpjson"
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
		{Method: "GET", Path: "/api/appointments/{id}/bill/orders", Access: readBill, Handler: h.appointmentOrders},
		{Method: "GET", Path: "/api/bill-orders", Access: readBill, Handler: h.ordersToCharge},
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
		{Method: "POST", Path: "/api/bills/{id}/lines/{line}/order", Access: charge, Announces: auth.ChangesBills, Handler: h.linkOrder},
		{Method: "POST", Path: "/api/bills/{id}/lines/{line}/unmark", Access: auth.Need(auth.VoidBill), Announces: auth.ChangesBills, Handler: h.unlinkOrder},
		{Method: "POST", Path: "/api/bills/{id}/finalise", Access: charge, Announces: auth.ChangesBills, Handler: h.finalise},
		{Method: "POST", Path: "/api/bills/{id}/void", Access: auth.Need(auth.VoidBill), Announces: auth.ChangesBills, Handler: h.void},
		{Method: "POST", Path: "/api/bills/{id}/payments", Access: auth.Need(auth.RecordPayment), Announces: auth.ChangesBills, Handler: h.pay},
		{Method: "POST", Path: "/api/bills/{id}/refunds", Access: auth.Need(auth.VoidBill), Announces: auth.ChangesBills, Handler: h.refund},
	}...)
}

// billID and appointmentID read the path's ids.
func billID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "billing.bill_not_found")
}

func appointmentID(r *http.Request) (int64, error) {
	return httpjson.PathID(r, "id", "appointment.not_found")
}
