package prescription_test

import (
	"net/http"
	"net/url"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestExcipientAllergy: a catalogue product whose excipients hold what the patient is allergic
// to is flagged as the allergy it is (gelatin anaphylaxis: a gelatin capsule shell stops the
// line), in the user's language; a product without it is not (catalogue medicine_excipients.tsv).
func TestExcipientAllergy(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.setAllergies(t, "Gelatin (anaphylaxis)", "severe")
		var list struct {
			Data []struct {
				ID   int64
				Form string
			}
		}
		find := func(q, form string) int64 {
			t.Helper()
			s.doctor.Do("GET", "/api/medicines?q="+url.QueryEscape(q), nil).JSON(t, &list)
			for _, m := range list.Data {
				if m.Form == form {
					return m.ID
				}
			}
			t.Fatalf("no %s %s in %+v", q, form, list.Data)
			return 0
		}
		capsule, tablet := find("Amoxicillin", "capsule"), find("Paracetamol", "tablet")
		line := func(id int64, name string) map[string]any {
			return map[string]any{"medicine_id": id, "medicine": name, "dose": "1", "route": "oral", "frequency": "3 times a day", "duration": "5 days", "quantity": "15"}
		}
		s.doctor.SetCookie("language", "ru")
		got := s.check(t, map[string]any{"appointment_id": s.apptID, "items": []map[string]any{line(capsule, "Amoxicillin 500 mg capsule"), line(tablet, "Paracetamol 500 mg tablet")}})
		s.doctor.SetCookie("language", "en")
		if k := kinds(got.Findings); k != "0:allergy" {
			t.Fatalf("findings: %s (%+v)", k, got.Findings)
		}
		if f := got.Findings[0]; !f.Blocking || f.Tier != "hard" || f.Substance != "Желатин" || !f.RequiresReason {
			t.Errorf("gelatin capsule: %+v", f)
		}
		// The same product written as free text names no catalogue entry: nothing is known of its shell.
		got = s.check(t, map[string]any{"appointment_id": s.apptID, "items": []map[string]any{{"medicine": "Amoxicillin 500 mg", "dose": "1", "frequency": "3 times a day"}}})
		if len(got.Findings) != 0 {
			t.Errorf("free text: %+v", got.Findings)
		}
		if r := s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"appointment_id": s.apptID, "items": []map[string]any{line(capsule, "Amoxicillin")}}); r.Status != http.StatusOK {
			t.Fatalf("check: %d %s", r.Status, r.Body)
		}
	})
}
