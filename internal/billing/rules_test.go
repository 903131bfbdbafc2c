package billing_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestBillRules: each rule of bills and payments as one request — who may, what a bill in
// each state refuses, and what is refused for its input — on a bill made for it alone.
func TestBillRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		vi := s.env.LoggedIn("front-vi", s.env.CreateUser("front-vi", "receptionist"))
		vi.SetCookie("language", "vi")
		minutes := 0
		// visit books a visit of its own (a later hour each time, so none collide).
		visit := func(t *testing.T) apitest.Vars {
			minutes += 30
			return apitest.Vars{"appt": s.book(t, 60+minutes)}
		}
		// draft is a visit's draft bill with one consultation.
		draft := func(t *testing.T) apitest.Vars {
			v := visit(t)
			b := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", v["appt"]), map[string]any{"service_id": s.consultation, "quantity": 1})
			v["bill"], v["version"], v["line"] = b.ID, b.Version, b.Lines[0].ID
			return v
		}
		// final is draft, finalised.
		final := func(t *testing.T) apitest.Vars {
			v := draft(t)
			b := apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", v["bill"]), map[string]any{"version": v["version"]})
			v["version"] = b.Version
			return v
		}
		clients := map[string]*apitest.Client{"front": s.front, "vi": vi, "nurse": s.nurse, "doctor": s.doctor, "admin": s.admin}
		apitest.Run(t, s.env, clients, []apitest.Scenario{
			{Name: "a visit has no bill before its first charge", As: "front", Setup: visit, Method: "GET", Path: "/api/appointments/{appt}/bill", Status: http.StatusNotFound},
			{Name: "the listed price is the price: another needs the override permission", As: "front", Setup: visit, Method: "POST", Path: "/api/appointments/{appt}/bill/lines",
				Body: map[string]any{"service_id": s.consultation, "quantity": 1, "unit_price": 1}, Status: http.StatusForbidden},
			{Name: "a discount needs a reason, said in the caller's language", As: "vi", Setup: visit, Method: "POST", Path: "/api/appointments/{appt}/bill/lines",
				Body: map[string]any{"service_id": s.consultation, "quantity": 1, "discount_kind": "percent", "discount_value": 2000}, Status: http.StatusUnprocessableEntity, Contains: []string{`"discount_reason"`, "lý do"}},
			{Name: "a change at a stale version is refused", As: "front", Setup: draft, Method: "PUT", Path: "/api/bills/{bill}", BodyOf: apitest.AtVersion(-1, map[string]any{"notes": "x"}), Status: http.StatusConflict},
			{Name: "a draft's own change at its version is taken", As: "front", Setup: draft, Method: "PUT", Path: "/api/bills/{bill}", BodyOf: apitest.AtVersion(0, map[string]any{"notes": "x"}), Status: http.StatusOK, Contains: []string{`"notes":"x"`}},
			{Name: "nothing is paid on a draft", As: "front", Setup: draft, Method: "POST", Path: "/api/bills/{bill}/payments", Body: map[string]any{"method": "cash", "amount": 100}, Status: http.StatusConflict},
			{Name: "a draft prints nothing", As: "front", Setup: draft, Method: "POST", Path: "/api/bills/{bill}/print", Body: map[string]any{"document": "statement"}, Status: http.StatusConflict},
			{Name: "a final bill takes no charge", As: "doctor", Setup: final, Method: "POST", Path: "/api/appointments/{appt}/bill/lines", Body: map[string]any{"service_id": s.lab, "quantity": 1}, Status: http.StatusConflict},
			{Name: "a final bill's line does not change", As: "front", Setup: final, Method: "PUT", Path: "/api/bills/{bill}/lines/{line}",
				BodyOf: func(v apitest.Vars) any {
					return map[string]any{"service_id": s.procedure, "quantity": 2, "version": v["version"]}
				}, Status: http.StatusConflict},
			{Name: "a payment over the balance is refused, saying the balance", As: "front", Setup: final, Method: "POST", Path: "/api/bills/{bill}/payments",
				Body: map[string]any{"method": "card", "amount": 50001}, Status: http.StatusConflict, Contains: []string{"500.00"}},
			{Name: "a nurse takes no payment", As: "nurse", Setup: final, Method: "POST", Path: "/api/bills/{bill}/payments", Body: map[string]any{"method": "cash", "amount": 100}, Status: http.StatusForbidden},
			{Name: "a nurse reads no bill", As: "nurse", Setup: final, Method: "GET", Path: "/api/bill-tags?appointments={appt}", Status: http.StatusForbidden},
			{Name: "a nurse reads no cash-up", As: "nurse", Method: "GET", Path: "/api/reports/cash-up", Status: http.StatusForbidden},
			{Name: "bill tags need a list of ids", As: "front", Method: "GET", Path: "/api/bill-tags?appointments=1,x", Status: http.StatusUnprocessableEntity, Contains: []string{`"appointments"`}},
			{Name: "a bill prints only its own papers", As: "front", Setup: final, Method: "POST", Path: "/api/bills/{bill}/print", Body: map[string]any{"document": "invoice"}, Status: http.StatusUnprocessableEntity},
			{Name: "a doctor who drew no signature gives the statement none", As: "front", Setup: final, Method: "GET", Path: "/api/bills/{bill}/signature", Status: http.StatusNotFound},
			{Name: "a printed statement names the doctor and audits the print", As: "front", Setup: final, Method: "POST", Path: "/api/bills/{bill}/print", Body: map[string]any{"document": "statement"},
				Status: http.StatusOK, Contains: []string{`"doctor_details":{"name":"Test doc"`}, NotContains: []string{`"signature_url":"/api`},
				After: func(t *testing.T, _ apitest.Response, v apitest.Vars) {
					if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'bill.print' AND entity_id = $1 AND patient_id = $2`, fmt.Sprint(v["bill"]), s.patientID); n != 1 {
						t.Errorf("print audited %d times", n)
					}
				}},
		})
	})
}
