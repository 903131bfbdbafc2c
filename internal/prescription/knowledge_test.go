package prescription_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestClinicExtendsTheKnowledge: an administrator adds a local brand name and an interaction
// rule; the very next check reads them (in allergies and in lines), a doctor may read but not
// write them, bad entries are refused with a message in the user's language and change
// nothing, and each change is audited.
func TestClinicExtendsTheKnowledge(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.setAllergies(t, "Penicillin", "moderate")
		klavomed := []any{map[string]any{"medicine": "Klavomed 625 mg", "quantity": "14"}}
		if got := s.check(t, map[string]any{"patient_id": s.patientID, "items": klavomed}); len(got.Findings) != 0 {
			t.Fatalf("an unknown brand alerted: %s", kinds(got.Findings))
		}
		alias := map[string]any{"name": "Klavomed", "ingredients": "amoxicillin + clavulanic acid"}
		if r := s.doctor.Do("POST", "/api/medicine-safety/aliases", alias); r.Status != http.StatusForbidden {
			t.Errorf("a doctor added a brand: %d", r.Status)
		}
		if r := s.nurse.Do("GET", "/api/medicine-safety", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse read the knowledge: %d", r.Status)
		}
		s.admin.SetCookie("language", "ru")
		r := s.admin.Do("POST", "/api/medicine-safety/aliases", map[string]any{"name": "Klavomed", "ingredients": "amoxicillin + unobtainium"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["ingredients"]) == 0 || !bytes.Contains(r.Body, []byte("амоксициллин")) {
			t.Errorf("unknown ingredient: %d %s", r.Status, r.Body)
		}
		s.admin.SetCookie("language", "en")
		// A name the shipped list knows would never be read as the clinic's: refused.
		r = s.admin.Do("POST", "/api/medicine-safety/aliases", map[string]any{"name": "Panadol", "ingredients": "ibuprofen"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["name"]) == 0 {
			t.Errorf("a shipped name again: %d %s", r.Status, r.Body)
		}
		if r := s.admin.Do("POST", "/api/medicine-safety/aliases", alias); r.Status != http.StatusCreated {
			t.Fatalf("add brand: %d %s", r.Status, r.Body)
		}
		if r := s.admin.Do("POST", "/api/medicine-safety/aliases", map[string]any{"name": " klavomed ", "ingredients": "amoxicillin"}); r.Status != http.StatusConflict {
			t.Errorf("the same name twice: %d", r.Status)
		}
		got := s.check(t, map[string]any{"patient_id": s.patientID, "items": klavomed})
		if k := kinds(got.Findings); k != "0:allergy" {
			t.Errorf("the clinic's brand is not read: %s", k)
		}

		// CSV: good rows kept, bad ones reported by line.
		var rep struct {
			Inserted, Unchanged, Rejected int
			Errors                        []struct{ Line int }
		}
		r = s.admin.Upload("POST", "/api/medicine-safety/aliases/import", "brands.csv", []byte("name,ingredients\nДуомокс,амоксициллин\nNowhere,unobtainium\nKlavomed,amoxicillin + clavulanic acid\n"))
		r.JSON(t, &rep)
		if r.Status != http.StatusOK || rep.Inserted != 1 || rep.Unchanged != 1 || rep.Rejected != 1 || rep.Errors[0].Line != 3 {
			t.Errorf("import: %d %s", r.Status, r.Body)
		}

		// An interaction rule between two medicines the check recognises.
		rule := map[string]any{"first": "Tamsulosin", "second": "Sildenafil", "severity": "major", "effect": "hypotension", "action": "review_need",
			"note": "Orthostatic hypotension in the elderly.", "source": "Clinic pharmacist, 2026"}
		bad := map[string]any{"first": "Unobtainium", "second": "Sildenafil", "severity": "severe", "effect": "hypotension", "action": "review_need", "source": "x"}
		r = s.admin.Do("POST", "/api/medicine-safety/interactions", bad)
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["first"]) == 0 || len(fields["severity"]) == 0 {
			t.Errorf("bad rule: %d %s", r.Status, r.Body)
		}
		var added struct{ ID int64 }
		r = s.admin.Do("POST", "/api/medicine-safety/interactions", rule)
		if r.Status != http.StatusCreated {
			t.Fatalf("add rule: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &added)
		lines := []any{map[string]any{"medicine": "Tamsulosin 0.4 mg", "quantity": "30"}, map[string]any{"medicine": "Sildenafil 50 mg", "quantity": "4"}}
		var withSource struct {
			Findings []struct {
				Kind, Tier, Source string
			}
		}
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": s.patientID, "items": lines}).JSON(t, &withSource)
		if len(withSource.Findings) != 1 || withSource.Findings[0].Kind != "interaction" || withSource.Findings[0].Tier != "high" || withSource.Findings[0].Source != "Clinic pharmacist, 2026" {
			t.Errorf("the clinic's rule: %+v", withSource.Findings)
		}
		var k struct {
			Interactions       int `json:"interactions"`
			ClinicAliases      []struct{ Name string }
			ClinicInteractions []struct{ ID int64 } `json:"clinic_interactions"`
		}
		s.doctor.Do("GET", "/api/medicine-safety", nil).JSON(t, &k)
		if k.Interactions < 30 || len(k.ClinicInteractions) != 1 {
			t.Errorf("knowledge: %+v", k)
		}
		if r := s.admin.Do("DELETE", fmt.Sprintf("/api/medicine-safety/interactions/%d", added.ID), nil); r.Status != http.StatusNoContent {
			t.Errorf("delete: %d", r.Status)
		}
		if r := s.admin.Do("DELETE", fmt.Sprintf("/api/medicine-safety/interactions/%d", added.ID), nil); r.Status != http.StatusNotFound {
			t.Errorf("delete twice: %d", r.Status)
		}
		if got := s.check(t, map[string]any{"patient_id": s.patientID, "items": lines}); len(got.Findings) != 0 {
			t.Errorf("a deleted rule still fires: %s", kinds(got.Findings))
		}
		for action, want := range map[string]int{"medicine_safety.alias_add": 1, "medicine_safety.alias_import": 1, "medicine_safety.interaction_add": 1, "medicine_safety.interaction_delete": 1} {
			if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = '"+action+"'"); n != want {
				t.Errorf("%s audited %d times", action, n)
			}
		}
	})
}
