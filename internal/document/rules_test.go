package document_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestDocumentRules: each rule of issuing, printing, cancelling and checking a document as one
// request, on a certificate issued for it alone where it needs one.
func TestDocumentRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		cert := s.template(t, "medical_certificate", "vi")
		s.doctor.SetCookie("language", "vi")
		fields := map[string]string{"rest_days": "3", "rest_from": "2026-11-25"}
		// issued is a certificate of the setup's visit, issued now.
		issued := func(t *testing.T) apitest.Vars {
			d := apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": cert.ID, "patient_id": s.patientID, "appointment_id": s.visitID, "fields": fields})
			return apitest.Vars{"doc": d.ID, "version": d.Version}
		}
		cancelled := func(t *testing.T) apitest.Vars {
			v := issued(t)
			d := apitest.Do[doc](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/cancel", v["doc"]), map[string]any{"version": v["version"], "reason": "Wrong dates"})
			v["version"] = d.Version
			return v
		}
		withReason := func(reason string) func(apitest.Vars) any {
			return apitest.AtVersion(0, map[string]any{"reason": reason})
		}
		nothingKept := func(t *testing.T, _ apitest.Response, _ apitest.Vars) {
			if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM documents"); n != 0 {
				t.Errorf("a refused document was kept: %d", n)
			}
		}
		visitor := s.env.Client()
		visitor.Header.Set("Accept-Language", "vi-VN,vi;q=0.9")
		clients := map[string]*apitest.Client{"doctor": s.doctor, "nurse": s.nurse, "front": s.front, "visitor": visitor}
		apitest.Run(t, s.env, clients, []apitest.Scenario{
			{Name: "a declared field is required, and a number must be one", As: "doctor", Method: "POST", Path: "/api/documents",
				Body:   map[string]any{"template_id": cert.ID, "patient_id": s.patientID, "appointment_id": s.visitID, "fields": map[string]string{"rest_days": "ba"}},
				Status: http.StatusUnprocessableEntity, Contains: []string{`"fields.rest_days"`, `"fields.rest_from"`}, After: nothingKept},
			{Name: "a template that fills a visit needs one", As: "doctor", Method: "POST", Path: "/api/documents",
				Body: map[string]any{"template_id": cert.ID, "patient_id": s.patientID, "fields": fields}, Status: http.StatusUnprocessableEntity, Contains: []string{`"appointment_id"`}, After: nothingKept},
			{Name: "a nurse issues no document", As: "nurse", Method: "POST", Path: "/api/documents", Body: map[string]any{"template_id": cert.ID, "patient_id": s.patientID}, Status: http.StatusForbidden},
			{Name: "a receptionist prints one again", As: "front", Setup: issued, Method: "POST", Path: "/api/documents/{doc}/print", Status: http.StatusOK},
			{Name: "a receptionist cancels none", As: "front", Setup: issued, Method: "POST", Path: "/api/documents/{doc}/cancel", BodyOf: withReason("x"), Status: http.StatusForbidden},
			{Name: "cancelling needs a reason", As: "doctor", Setup: issued, Method: "POST", Path: "/api/documents/{doc}/cancel", BodyOf: withReason(""), Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
			{Name: "a document is cancelled once", As: "doctor", Setup: cancelled, Method: "POST", Path: "/api/documents/{doc}/cancel", BodyOf: withReason("again"), Status: http.StatusConflict},
			{Name: "a cancelled document prints no more", As: "front", Setup: cancelled, Method: "POST", Path: "/api/documents/{doc}/print", Status: http.StatusConflict},
			{Name: "an unknown code is not found, in the visitor's language", As: "visitor", Method: "GET", Path: "/verify/AAAAAAAAAAAAAAAA", Status: http.StatusNotFound, Contains: []string{"Không có giấy tờ"}},
		})
	})
}
