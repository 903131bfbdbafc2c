package prescription_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// taken is a current medicine as the API answers it.
type taken struct {
	ID             int64   `json:"id"`
	Medicine       string  `json:"medicine"`
	Source         string  `json:"source"`
	Prescriber     string  `json:"prescriber"`
	StartedOn      string  `json:"started_on"`
	RecordedBy     string  `json:"recorded_by"`
	ConfirmedAt    *string `json:"confirmed_at"`
	ConfirmedBy    string  `json:"confirmed_by"`
	StoppedOn      string  `json:"stopped_on"`
	StopReason     string  `json:"stop_reason"`
	StoppedBy      string  `json:"stopped_by"`
	PrescriptionID *int64  `json:"prescription_id"`
	Version        int     `json:"version"`
}

func (s *setup) takenList(t *testing.T) []taken {
	t.Helper()
	var out struct{ Data []taken }
	r := s.nurse.Do("GET", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	return out.Data
}

// TestMedicinesTaken: the nurse records a medicine from elsewhere; bad input is refused with
// the field named and nothing written; a stale correction is a conflict; reconciliation at a
// visit confirms or stops; the list has the prescriptions issued here (never drafts).
func TestMedicinesTaken(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		tomorrow := time.Now().AddDate(0, 0, 2).Format(time.DateOnly)
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"empty medicine", map[string]any{"medicine": "  ", "source": "otc"}, "medicine"},
			{"no source", map[string]any{"medicine": "Warfarin 5 mg"}, "source"},
			{"start in the future", map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", "started_on": tomorrow}, "started_on"},
			{"start not a date", map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", "started_on": "last spring"}, "started_on"},
			{"unknown catalogue entry", map[string]any{"medicine_id": 999999, "medicine": "Warfarin 5 mg", "source": "elsewhere"}, "items.0.medicine"},
		} {
			r := s.nurse.Do("POST", base, c.in)
			_, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM medicines_taken"); n != 0 {
			t.Fatalf("refused input wrote %d entries", n)
		}

		// Recorded by the nurse, with an approximate start; a receptionist may not.
		in := map[string]any{"medicine": "Warfarin 5 mg tablet", "dose": "1 tablet", "frequency": "once daily", "source": "elsewhere",
			"prescriber": "Dr Minh, cardiology", "started_on": "2019"}
		receptionist := s.env.LoggedIn("desk", s.env.CreateUser("desk", "receptionist"))
		if r := receptionist.Do("POST", base, in); r.Status != http.StatusForbidden {
			t.Errorf("receptionist records: %d", r.Status)
		}
		var w taken
		r := s.nurse.Do("POST", base, in)
		if r.Status != http.StatusCreated {
			t.Fatalf("record: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &w)
		if w.Source != "elsewhere" || w.StartedOn != "2019" || w.Prescriber != "Dr Minh, cardiology" || w.RecordedBy == "" || w.Version != 1 {
			t.Errorf("recorded: %+v", w)
		}
		// Over the counter: nobody prescribed it.
		var otc taken
		s.doctor.Do("POST", base, map[string]any{"medicine": "Omeprazole 20 mg", "source": "otc", "prescriber": "the pharmacist"}).JSON(t, &otc)
		if otc.Prescriber != "" {
			t.Errorf("otc keeps a prescriber: %+v", otc)
		}

		// A correction at an old version is a conflict and changes nothing.
		in["dose"], in["version"] = "half a tablet", w.Version
		if r := s.doctor.Do("PUT", fmt.Sprintf("/api/current-medicines/%d", w.ID), in); r.Status != http.StatusOK {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		in["dose"] = "2 tablets"
		if r := s.nurse.Do("PUT", fmt.Sprintf("/api/current-medicines/%d", w.ID), in); r.Status != http.StatusConflict {
			t.Errorf("stale update: %d %s", r.Status, r.Body)
		}
		w.Version++

		// The check names it as taken: from elsewhere, recorded today.
		var named struct {
			Findings []struct {
				Kind          string `json:"kind"`
				OtherTaken    int64  `json:"other_taken_id"`
				OtherSource   string `json:"other_source"`
				OtherDate     string `json:"other_date"`
				OtherMedicine string `json:"other_medicine"`
			} `json:"findings"`
		}
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Ibuprofen 400 mg"}}}).JSON(t, &named)
		recordedOn := func(date string) bool { // today in the clinic's zone, whichever that is
			d, err := time.Parse(time.DateOnly, date)
			return err == nil && time.Since(d).Abs() < 48*time.Hour
		}
		if f := named.Findings; len(f) != 1 || f[0].Kind != "interaction" || f[0].OtherTaken != w.ID || f[0].OtherSource != "elsewhere" ||
			!recordedOn(f[0].OtherDate) || f[0].OtherMedicine != "Warfarin 5 mg tablet" {
			t.Errorf("the check of ibuprofen: %+v", f)
		}

		// Reconciliation: confirmed at the patient's visit, not at another patient's.
		if r := s.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/confirm", w.ID), map[string]any{"appointment_id": 999999, "version": w.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("confirm at no visit: %d %s", r.Status, r.Body)
		}
		r = s.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/confirm", w.ID), map[string]any{"appointment_id": s.apptID, "version": w.Version})
		r.JSON(t, &w)
		if r.Status != http.StatusOK || w.ConfirmedAt == nil || w.ConfirmedBy == "" {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}

		// A stop before the start, or without a reason, is refused; then stopped.
		stop := fmt.Sprintf("/api/current-medicines/%d/stop", w.ID)
		for _, bad := range []map[string]any{
			{"stopped_on": "2018-12-31", "category": "replaced", "reason": "INR unstable", "version": w.Version},
			{"stopped_on": tomorrow, "category": "replaced", "reason": "INR unstable", "version": w.Version},
			{"reason": " ", "version": w.Version},
			{"category": "other", "reason": " ", "version": w.Version},
			{"category": "forgot", "reason": "x", "version": w.Version},
		} {
			if r := s.nurse.Do("POST", stop, bad); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("stop %v: %d %s", bad, r.Status, r.Body)
			}
		}
		r = s.nurse.Do("POST", stop, map[string]any{"category": "replaced", "reason": "Changed to apixaban by the cardiologist", "version": w.Version})
		r.JSON(t, &w)
		if r.Status != http.StatusOK || w.StoppedOn == "" || w.StoppedBy == "" {
			t.Fatalf("stop: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", stop, map[string]any{"category": "other", "reason": "again", "version": w.Version}); r.Status != http.StatusConflict {
			t.Errorf("stopped twice: %d", r.Status)
		}

		// The list: a draft written here is not a current medicine; once issued it is,
		// read-only; stopped entries come last.
		draft := s.write(t, s.apptID, amoxicillin)
		list := s.takenList(t)
		if len(list) != 2 || list[0].Medicine != "Omeprazole 20 mg" || list[1].StoppedOn == "" {
			t.Fatalf("list with a draft: %+v", list)
		}
		if r := s.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", draft.ID), map[string]any{"version": draft.Version}); r.Status != http.StatusOK {
			t.Fatalf("print: %d %s", r.Status, r.Body)
		}
		list = s.takenList(t)
		if len(list) != 3 || list[0].Source != "here" || list[0].PrescriptionID == nil || list[0].ID != 0 {
			t.Errorf("list with an issued prescription: %+v", list)
		}

		for action, want := range map[string]int{"medication.record": 2, "medication.update": 1, "medication.confirm": 1, "medication.stop": 1, "medication.read": 2} {
			if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = '"+action+"'"); n != want {
				t.Errorf("%s audited %d times, want %d", action, n, want)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action LIKE 'medication.%' AND patient_id = "+fmt.Sprint(s.patientID)); n != 7 {
			t.Errorf("audit events naming the patient: %d", n)
		}
	})
}

// TestCurrentListReviewed (C1): the list is checked against itself — each pair found once, on
// the later medicine — and confirming a medicine checks it again against the others.
func TestCurrentListReviewed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		type reviewed struct {
			ID       int64  `json:"id"`
			Medicine string `json:"medicine"`
			Version  int    `json:"version"`
			Findings []struct {
				Kind, Tier    string
				OtherMedicine string `json:"other_medicine"`
				OtherTaken    int64  `json:"other_taken_id"`
			} `json:"findings"`
		}
		var w, n reviewed
		s.nurse.Do("POST", base, map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere"}).JSON(t, &w)
		s.nurse.Do("POST", base, map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"}).JSON(t, &n)
		var list struct{ Data []reviewed }
		s.doctor.Do("GET", base, nil).JSON(t, &list)
		said := 0
		for _, m := range list.Data {
			for _, f := range m.Findings {
				said++
				if f.Kind != "interaction" || f.Tier != "high" || f.OtherMedicine == m.Medicine || f.OtherTaken == 0 {
					t.Errorf("%s: %+v", m.Medicine, f)
				}
			}
		}
		if said != 1 {
			t.Errorf("the list's review said %d findings, want the one interaction: %+v", said, list.Data)
		}
		var c reviewed
		r := s.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/confirm", w.ID), map[string]any{"appointment_id": s.apptID, "version": w.Version})
		r.JSON(t, &c)
		if r.Status != http.StatusOK || len(c.Findings) != 1 || c.Findings[0].OtherTaken != n.ID {
			t.Errorf("confirm does not check again: %d %s", r.Status, r.Body)
		}
	})
}

// TestTakenReadAs (M1): saving says what the check read the medicine as, or that it read
// nothing and so cannot see it.
func TestTakenReadAs(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		for text, want := range map[string]string{"Sintrom 4 mg": "Acenocoumarol B01AA07", "Varfarin 5 mg": "Warfarin B01AA03",
			"St John's wort 300 mg": "St John's wort N06AX25", "Grandma's drops": ""} {
			var got struct {
				ReadAs []struct{ Name, ATC string } `json:"read_as"`
			}
			r := s.nurse.Do("POST", base, map[string]any{"medicine": text, "source": "otc"})
			r.JSON(t, &got)
			var said []string
			for _, n := range got.ReadAs {
				said = append(said, n.Name+" "+n.ATC)
			}
			if r.Status != http.StatusCreated || got.ReadAs == nil || strings.Join(said, ", ") != want {
				t.Errorf("%s read as %v, want %q: %s", text, said, want, r.Body)
			}
		}
	})
}

// TestStopALineHere (M3): a line of a prescription issued here that the patient no longer
// takes is stopped on its own — it leaves the list and the papers, and the check once its
// washout is over; a draft's line is none to stop, and a line is stopped once.
func TestStopALineHere(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		metronidazole := map[string]any{"medicine": "Metronidazole 400 mg", "dose": "1 tablet", "frequency": "3 times a day", "duration": "30 days", "quantity": "90"}
		fluoxetine := map[string]any{"medicine": "Fluoxetine 20 mg", "dose": "1 capsule", "frequency": "once daily", "duration": "30 days", "quantity": "30"}
		rx := s.write(t, s.apptID, metronidazole, fluoxetine)
		stop := fmt.Sprintf("/api/prescriptions/%d/lines/0/stop", rx.ID)
		if r := s.nurse.Do("POST", stop, map[string]any{"category": "side_effect", "reason": "Nausea"}); r.Status != http.StatusNotFound {
			t.Errorf("a draft's line stopped: %d %s", r.Status, r.Body)
		}
		if r := s.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", rx.ID), map[string]any{"version": rx.Version}); r.Status != http.StatusOK {
			t.Fatalf("print: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", stop, map[string]any{"reason": " "}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a stop without a reason: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", fmt.Sprintf("/api/prescriptions/%d/lines/5/stop", rx.ID), map[string]any{"category": "other", "reason": "x"}); r.Status != http.StatusNotFound {
			t.Errorf("no such line: %d %s", r.Status, r.Body)
		}
		for _, line := range []int{0, 1} {
			r := s.nurse.Do("POST", fmt.Sprintf("/api/prescriptions/%d/lines/%d/stop", rx.ID, line), map[string]any{"category": "patient_choice", "reason": "Patient stopped it"})
			var got taken
			r.JSON(t, &got)
			if r.Status != http.StatusOK || got.StoppedOn == "" || got.StoppedBy == "" || got.Source != "here" {
				t.Fatalf("stop line %d: %d %s", line, r.Status, r.Body)
			}
		}
		if r := s.nurse.Do("POST", stop, map[string]any{"category": "other", "reason": "again"}); r.Status != http.StatusConflict {
			t.Errorf("stopped twice: %d", r.Status)
		}
		for _, m := range s.takenList(t) {
			if m.StoppedOn == "" {
				t.Errorf("a stopped line is still current: %+v", m)
			}
		}
		// Metronidazole is gone at once; fluoxetine acts for five weeks more.
		var got checked
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": s.patientID, "items": []any{
			map[string]any{"medicine": "Warfarin 5 mg"}, map[string]any{"medicine": "Moclobemide 150 mg"}}}).JSON(t, &got)
		var kinds []string
		for _, f := range got.Findings {
			kinds = append(kinds, fmt.Sprintf("%d:%s:%s", f.Line, f.Kind, f.Tier))
		}
		if strings.Join(kinds, " ") != "1:interaction:hard" {
			t.Errorf("check after the stops: %v", kinds)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.stop' AND entity_type = 'prescription'"); n != 2 {
			t.Errorf("stops audited %d times", n)
		}
	})
}

// TestTakenCorrectionIsNoSwap (M5, m6): a correction cannot turn one medicine into another or
// change its source — that is a stop and a new entry; the audit keeps old → new. A medicine
// is confirmed at today's visit, not at one weeks away.
func TestTakenCorrectionIsNoSwap(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var w taken
		s.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), map[string]any{"medicine": "Warfarin 5 mg", "dose": "1 tablet", "source": "elsewhere"}).JSON(t, &w)
		put := fmt.Sprintf("/api/current-medicines/%d", w.ID)
		for _, swap := range []map[string]any{
			{"medicine": "Paracetamol 500 mg", "source": "otc", "version": w.Version},
			{"medicine": "Paracetamol 500 mg", "source": "elsewhere", "version": w.Version},
			{"medicine": "Warfarin 5 mg", "source": "otc", "version": w.Version},
			{"medicine": "Grandma's drops", "source": "elsewhere", "version": w.Version},
		} {
			r := s.doctor.Do("PUT", put, swap)
			if code, _, _ := r.Error(t); r.Status != http.StatusUnprocessableEntity || code == "" {
				t.Errorf("swap %v: %d %s", swap, r.Status, r.Body)
			}
		}
		r := s.doctor.Do("PUT", put, map[string]any{"medicine": "Warfarin 5mg tablet", "dose": "half a tablet", "source": "elsewhere", "version": w.Version})
		r.JSON(t, &w)
		if r.Status != http.StatusOK {
			t.Fatalf("a correction: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'medication.update' AND detail LIKE '%dose "1 tablet" → "half a tablet"%'`); n != 1 {
			t.Errorf("the audit of the correction does not say old → new")
		}
		later := s.book(t, time.Now().UTC().AddDate(0, 0, 20))
		if r := s.nurse.Do("POST", put+"/confirm", map[string]any{"appointment_id": later, "version": w.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("confirmed at a visit 20 days away: %d %s", r.Status, r.Body)
		}
	})
}

// TestTakesNoMedicines (M4): "asked, takes none" is recorded with who and when, and told from
// "never asked"; it is refused while the list holds a medicine taken.
func TestTakesNoMedicines(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		var list struct {
			TakesNone *struct {
				AskedAt string `json:"asked_at"`
				AskedBy string `json:"asked_by"`
			} `json:"takes_none"`
		}
		s.nurse.Do("GET", base, nil).JSON(t, &list)
		if list.TakesNone != nil {
			t.Fatalf("never asked, yet: %+v", list.TakesNone)
		}
		if r := s.nurse.Do("POST", base+"/none", nil); r.Status != http.StatusOK {
			t.Fatalf("takes none: %d %s", r.Status, r.Body)
		}
		s.nurse.Do("GET", base, nil).JSON(t, &list)
		if list.TakesNone == nil || list.TakesNone.AskedBy == "" || list.TakesNone.AskedAt == "" {
			t.Errorf("the answer is not kept: %+v", list.TakesNone)
		}
		s.nurse.Do("POST", base, map[string]any{"medicine": "Omeprazole 20 mg", "source": "otc"})
		if r := s.nurse.Do("POST", base+"/none", nil); r.Status != http.StatusConflict {
			t.Errorf("takes none with a medicine listed: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.none'"); n != 1 {
			t.Errorf("audited %d times", n)
		}
	})
}
