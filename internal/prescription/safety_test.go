package prescription_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type finding struct {
	Line     int    `json:"line"`
	Key      string `json:"key"`
	Kind     string `json:"kind"`
	Tier     string `json:"tier"`
	Blocking bool   `json:"blocking"`
	// RequiresReason: tiers hard and high.
	RequiresReason bool   `json:"requires_reason"`
	Allergy        string `json:"allergy"`
	Substance      string `json:"substance"`
	Class          string `json:"class"`
	OtherLine      *int   `json:"other_line"`
	OtherRx        *int64 `json:"other_prescription_id"`
	Overridden     bool   `json:"overridden"`
	Count          int    `json:"count"`
}

type checked struct {
	Allergies []struct{ Substance string } `json:"allergies"`
	Findings  []finding                    `json:"findings"`
}

// setAllergies records the patient's allergies (substance, severity pairs).
func (s *setup) setAllergies(t *testing.T, pairs ...string) {
	t.Helper()
	var p map[string]any
	s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d", s.patientID), nil).JSON(t, &p)
	var allergies []map[string]string
	for i := 0; i+1 < len(pairs); i += 2 {
		allergies = append(allergies, map[string]string{"substance": pairs[i], "severity": pairs[i+1]})
	}
	h := p["history"].(map[string]any)
	h["allergies"], h["allergy_status"] = allergies, "present"
	if r := s.doctor.Do("PUT", fmt.Sprintf("/api/patients/%d", s.patientID), p); r.Status != http.StatusOK {
		t.Fatalf("allergies: %d %s", r.Status, r.Body)
	}
}

func (s *setup) check(t *testing.T, body map[string]any) checked {
	t.Helper()
	var out checked
	r := s.doctor.Do("POST", "/api/prescriptions/check", body)
	if r.Status != http.StatusOK {
		t.Fatalf("check: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	return out
}

func (s *setup) medicineID(t *testing.T, q string) int64 {
	t.Helper()
	var list struct{ Data []struct{ ID int64 } }
	s.doctor.Do("GET", "/api/medicines?q="+url.QueryEscape(q), nil).JSON(t, &list)
	if len(list.Data) == 0 {
		t.Fatalf("no medicine %q", q)
	}
	return list.Data[0].ID
}

func kinds(fs []finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d:%s", f.Line, f.Kind))
	}
	return strings.Join(out, " ")
}

func TestAllergyAndDuplicateChecks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.setAllergies(t, "Penicillin", "severe", "Aspirin", "mild", "Peanuts", "moderate")
		coamox := s.medicineID(t, "clavulanic")
		line := func(extra map[string]any) map[string]any {
			l := map[string]any{"dose": "1", "route": "oral", "frequency": "2 times a day", "duration": "5 days", "quantity": "10"}
			for k, v := range extra {
				l[k] = v
			}
			return l
		}
		// A catalogue line by class (co-amoxiclav is a penicillin), free text by ingredient
		// in Russian, a cephalosporin's cross-sensitivity, an NSAID under an aspirin allergy,
		// and paracetamol, which is safe.
		items := []map[string]any{
			line(map[string]any{"medicine_id": coamox, "medicine": "Co-amoxiclav tablet"}),
			line(map[string]any{"medicine": "Ампициллин 500 мг"}),
			line(map[string]any{"medicine": "Cefalexin 500 mg capsule"}),
			line(map[string]any{"medicine": "Ibuprofen 400 mg"}),
			line(map[string]any{"medicine": "Paracetamol 500 mg"}),
		}
		s.doctor.SetCookie("language", "ru")
		got := s.check(t, map[string]any{"appointment_id": s.apptID, "items": items})
		s.doctor.SetCookie("language", "en")
		if k := kinds(got.Findings); k != "0:allergy 1:allergy 1:duplicate 2:cross_sensitivity 3:allergy_class" {
			t.Fatalf("findings: %s (%+v)", k, got.Findings)
		}
		if f := got.Findings[0]; !f.Blocking || f.Allergy != "Penicillin" || f.Class != "Пенициллины" {
			t.Errorf("class match: %+v", f)
		}
		if f := got.Findings[3]; !f.Blocking || f.Tier != "high" || f.Class != "Та же боковая цепь, что у амоксициллина и ампициллина" {
			t.Errorf("cross-sensitivity: %+v", f)
		}
		if f := got.Findings[4]; f.Blocking || f.Allergy != "Aspirin" {
			t.Errorf("same class as a mild allergy: %+v", f)
		}
		if len(got.Allergies) != 3 {
			t.Errorf("allergies: %+v", got.Allergies)
		}

		// Saving without a reason is refused on each line concerned, and stores nothing.
		r := s.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/prescriptions", s.apptID), map[string]any{"items": items})
		_, _, fields := r.Error(t)
		if r.Status != http.StatusUnprocessableEntity || len(fields["items.0.override_reason"]) == 0 || len(fields["items.2.override_reason"]) == 0 ||
			len(fields["items.4.override_reason"]) != 0 {
			t.Fatalf("save without overrides: %d %s", r.Status, r.Body)
		}
		// A reason that does not list the findings it saw does not cover them.
		items[0]["override_reason"] = "Tolerated it last year"
		r = s.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/prescriptions", s.apptID), map[string]any{"items": items})
		if _, _, fields := r.Error(t); len(fields["items.0.override_reason"]) == 0 {
			t.Errorf("an override without its keys: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM prescriptions"); n != 0 {
			t.Fatalf("a refused prescription was stored: %d", n)
		}

		// Only the safe line and the co-amoxiclav with its override.
		keys := []string{}
		for _, f := range got.Findings {
			if f.Line == 0 {
				keys = append(keys, f.Key)
			}
		}
		items[0]["overrides"] = keys
		p := s.write(t, s.apptID, items[0], items[4])
		var saved struct {
			Items []struct {
				OverrideReason string   `json:"override_reason"`
				Overrides      []string `json:"overrides"`
			} `json:"items"`
			Safety  []finding `json:"safety"`
			Version int       `json:"version"`
		}
		s.doctor.Do("GET", fmt.Sprintf("/api/prescriptions/%d", p.ID), nil).JSON(t, &saved)
		if saved.Items[0].OverrideReason != "Tolerated it last year" || len(saved.Items[1].Overrides) != 0 || len(saved.Safety) != 1 || !saved.Safety[0].Overridden {
			t.Errorf("saved overrides: %+v", saved)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'prescription.allergy_override' AND detail LIKE '%Tolerated it last year%'`); n != 1 {
			t.Errorf("override audit events: %d", n)
		}

		// A severe allergy recorded after the save: printing is refused until it is reviewed.
		s.setAllergies(t, "Penicillin", "severe", "Aspirin", "mild", "Paracetamol", "severe")
		r = s.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", p.ID), map[string]any{"version": saved.Version})
		if _, code, _ := r.Error(t); r.Status != http.StatusConflict || code != "prescription.safety_unresolved" {
			t.Errorf("print with a new allergy: %d %s", r.Status, r.Body)
		}

		// Duplicate therapy against the patient's prescriptions of the last 30 days: another
		// visit's amoxicillin is found on this visit's co-amoxiclav.
		other := s.book(t, time.Now().UTC().Add(48*time.Hour))
		got = s.check(t, map[string]any{"appointment_id": other, "items": []map[string]any{line(map[string]any{"medicine": "Omeprazole 20 mg"}), line(map[string]any{"medicine": "Amoxicillin 500 mg"})}})
		if k := kinds(got.Findings); k != "1:allergy 1:duplicate_recent" || *got.Findings[1].OtherRx != p.ID {
			t.Errorf("recent duplicate: %s %+v", k, got.Findings)
		}
	})
}

func TestBlankFormChecksThePatientChosen(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.setAllergies(t, "Sulfonamides", "moderate")
		bactrim := map[string]any{"medicine": "Co-trimoxazole 960 mg", "quantity": "10"}
		// A blank pad has no patient, so no allergy to check.
		if got := s.check(t, map[string]any{"items": []any{bactrim}}); len(got.Findings) != 0 {
			t.Errorf("blank pad: %+v", got.Findings)
		}
		got := s.check(t, map[string]any{"patient_id": s.patientID, "items": []any{bactrim}})
		if k := kinds(got.Findings); k != "0:allergy" || got.Findings[0].Blocking {
			t.Fatalf("blank form for the patient: %s", k)
		}
		r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{bactrim}})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["items.0.override_reason"]) == 0 {
			t.Errorf("blank form without a reason: %d %s", r.Status, r.Body)
		}
		bactrim["override_reason"], bactrim["overrides"] = "Desensitised", []string{got.Findings[0].Key}
		if r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{bactrim}}); r.Status != http.StatusCreated {
			t.Errorf("blank form with a reason: %d %s", r.Status, r.Body)
		}
		// A nurse may not run the prescriber's check.
		if r := s.nurse.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": s.patientID, "items": []any{bactrim}}); r.Status != http.StatusForbidden {
			t.Errorf("nurse check: %d", r.Status)
		}
	})
}

// TestAllergiesNeverAskedAreAWarningOfTheirOwn: an empty allergy list proves nothing until
// someone records "no known allergies"; until then the first line must say why it is given
// anyway, the reason is audited, and once NKA is recorded (by whom, when) the warning goes.
func TestAllergiesNeverAskedAreAWarningOfTheirOwn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var p map[string]any
		s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d", s.patientID), nil).JSON(t, &p)
		h := p["history"].(map[string]any)
		h["allergy_status"] = "unknown"
		if r := s.doctor.Do("PUT", fmt.Sprintf("/api/patients/%d", s.patientID), p); r.Status != http.StatusOK {
			t.Fatalf("not asked: %d %s", r.Status, r.Body)
		}
		lines := []any{map[string]any{"medicine": "Paracetamol 500 mg", "quantity": "10"}, map[string]any{"medicine": "Cetirizine 10 mg", "quantity": "10"}}
		got := s.check(t, map[string]any{"patient_id": s.patientID, "items": lines})
		if k := kinds(got.Findings); k != "0:allergies_unrecorded" || got.Findings[0].Blocking {
			t.Fatalf("never asked: %s", k)
		}
		appt := fmt.Sprintf("/api/appointments/%d/prescriptions", s.apptID)
		if r := s.doctor.Do("POST", appt, map[string]any{"items": lines}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("saved without a reason: %d", r.Status)
		}
		first := lines[0].(map[string]any)
		first["override_reason"], first["overrides"] = "Patient unconscious, no relative present", []string{got.Findings[0].Key}
		if r := s.doctor.Do("POST", appt, map[string]any{"items": lines}); r.Status != http.StatusCreated {
			t.Fatalf("with a reason: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'prescription.allergy_override' AND detail LIKE '%allergy:not-recorded%'`); n != 1 {
			t.Errorf("%d overrides audited", n)
		}

		// Recorded as no known allergies: who and when are the server's, not the client's.
		s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d", s.patientID), nil).JSON(t, &p)
		h = p["history"].(map[string]any)
		h["allergy_status"], h["allergy_recorded_by"] = "none", "somebody else"
		var saved struct {
			History struct {
				AllergyStatus     string     `json:"allergy_status"`
				AllergyRecordedBy string     `json:"allergy_recorded_by"`
				AllergyRecordedAt *time.Time `json:"allergy_recorded_at"`
			} `json:"history"`
		}
		r := s.doctor.Do("PUT", fmt.Sprintf("/api/patients/%d", s.patientID), p)
		r.JSON(t, &saved)
		if r.Status != http.StatusOK || saved.History.AllergyStatus != "none" || saved.History.AllergyRecordedBy != "doc" || saved.History.AllergyRecordedAt == nil {
			t.Fatalf("NKA: %d %+v", r.Status, saved.History)
		}
		omeprazole := []any{map[string]any{"medicine": "Omeprazole 20 mg", "quantity": "14"}}
		if got := s.check(t, map[string]any{"patient_id": s.patientID, "items": omeprazole}); len(got.Findings) != 0 {
			t.Errorf("after NKA: %s", kinds(got.Findings))
		}
	})
}
