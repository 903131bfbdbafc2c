package document_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// A visit summary printed for a record whose portal access is on, by a user who may manage
// portal access, carries a new access code, which signs in with the birth date and is never
// kept with the document; a record without access carries none, and neither does a print by
// a user who may only view the record.
func TestVisitSummaryPrintsAPortalCode(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		type printed struct {
			ID         int64  `json:"id"`
			PortalCode string `json:"portal_code"`
		}
		summary := s.template(t, "visit_summary", "en")
		d := apitest.Do[printed](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": summary.ID, "patient_id": s.patientID, "appointment_id": s.visitID})
		if p := apitest.Do[printed](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/print", d.ID), nil); p.PortalCode != "" {
			t.Fatalf("a code without portal access: %q", p.PortalCode)
		}
		apitest.Do[any](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/patients/%d/portal/invite", s.patientID), nil)
		if p := apitest.Do[printed](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/print", d.ID), nil); p.PortalCode != "" {
			t.Fatalf("a code printed by a user without manage portal: %q", p.PortalCode)
		}
		var codes int
		if err := db.QueryRow(`SELECT COUNT(*) FROM portal_access_codes WHERE patient_id = $1`, s.patientID).Scan(&codes); err != nil || codes != 1 {
			t.Fatalf("access codes after the doctor's print: %d %v (the invitation's only)", codes, err)
		}
		p := apitest.Do[printed](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/print", d.ID), nil)
		if len(p.PortalCode) != 14 {
			t.Fatalf("the print's code: %q", p.PortalCode)
		}
		var stored int
		if err := db.QueryRow(`SELECT COUNT(*) FROM documents WHERE content LIKE $1 OR fields LIKE $1`, "%"+p.PortalCode+"%").Scan(&stored); err != nil || stored != 0 {
			t.Fatalf("the code is kept with the document (%d, %v)", stored, err)
		}
		patient := s.env.Client()
		patient.Do("GET", "/api/portal/session", nil)
		if r := patient.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": strings.ToLower(p.PortalCode), "birth_date": birthDate}); r.Status != http.StatusOK {
			t.Fatalf("signing in with the printed code: %d %s", r.Status, r.Body)
		}
	})
}
