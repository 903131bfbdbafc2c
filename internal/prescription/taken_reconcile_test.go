package prescription_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// reconciled is a recorded medicine with what the pharmacist's review added.
type reconciled struct {
	ID          int64   `json:"id"`
	Medicine    string  `json:"medicine"`
	Route       string  `json:"route"`
	Indication  string  `json:"indication"`
	LastDose    string  `json:"last_dose"`
	Adherence   string  `json:"adherence"`
	InfoSource  string  `json:"information_source"`
	StoppedOn   string  `json:"stopped_on"`
	Category    string  `json:"stop_category"`
	ErrorReason string  `json:"error_reason"`
	ErrorBy     string  `json:"error_by"`
	NeedsReview bool    `json:"needs_review"`
	ReviewedAt  *string `json:"reviewed_at"`
	ReviewedBy  string  `json:"reviewed_by"`
	Version     int     `json:"version"`
	Findings    []struct {
		Kind       string `json:"kind"`
		OtherTaken int64  `json:"other_taken_id"`
	} `json:"findings"`
}

// TestReconciliationFields: each field is optional and of its vocabulary; a bad one is
// refused with the field named and nothing written; those given are kept and read back.
func TestReconciliationFields(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		tomorrow := time.Now().AddDate(0, 0, 2).Format(time.DateOnly)
		long := string(make([]rune, 201))
		for _, c := range []struct {
			name, field string
			value       any
		}{
			{"route not in the list", "route", "by mouth"},
			{"old intravenous", "route", "intravenous"},
			{"indication too long", "indication", long},
			{"last dose not a date", "last_dose", "yesterday"},
			{"last dose, a month", "last_dose", "2026-11"},
			{"last dose with seconds", "last_dose", "2026-11-28T08:00:00"},
			{"last dose in the future", "last_dose", tomorrow},
			{"adherence unknown", "adherence", "sometimes"},
			{"source unknown", "information_source", "neighbour"},
		} {
			in := map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", c.field: c.value}
			r := s.nurse.Do("POST", base, in)
			_, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM medicines_taken"); n != 0 {
			t.Fatalf("refused input wrote %d entries", n)
		}
		var got reconciled
		in := map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", "route": "oral", "indication": "  atrial   fibrillation ",
			"last_dose": "2024-05-01T08:30", "adherence": "irregular", "information_source": "packet"}
		r := s.nurse.Do("POST", base, in)
		if r.Status != http.StatusCreated {
			t.Fatalf("record: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if got.Route != "oral" || got.Indication != "atrial fibrillation" || got.LastDose != "2024-05-01T08:30" || got.Adherence != "irregular" || got.InfoSource != "packet" {
			t.Errorf("kept: %+v", got)
		}
		// none of them is required
		if r := s.nurse.Do("POST", base, map[string]any{"medicine": "Omeprazole 20 mg", "source": "otc", "last_dose": "2024-05-01"}); r.Status != http.StatusCreated {
			t.Errorf("a date alone as the last dose: %d %s", r.Status, r.Body)
		}
	})
}

// TestStopCategory: a stop says why in a category; free text is required for "other" only.
func TestStopCategory(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var w reconciled
		s.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere"}).JSON(t, &w)
		stop := fmt.Sprintf("/api/current-medicines/%d/stop", w.ID)
		for _, c := range []struct {
			name, field string
			in          map[string]any
		}{
			{"no category", "category", map[string]any{"reason": "Bruising", "version": w.Version}},
			{"unknown category", "category", map[string]any{"category": "bored", "version": w.Version}},
			{"other without words", "reason", map[string]any{"category": "other", "reason": "  ", "version": w.Version}},
		} {
			r := s.nurse.Do("POST", stop, c.in)
			_, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		var got reconciled
		r := s.nurse.Do("POST", stop, map[string]any{"category": "side_effect", "version": w.Version, "appointment_id": s.apptID})
		if r.Status != http.StatusOK {
			t.Fatalf("stop without words: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if got.Category != "side_effect" || got.StoppedOn == "" {
			t.Errorf("stopped: %+v", got)
		}
	})
}

// TestEnteredInError: an entry made by accident leaves the safety check (the interaction it
// made disappears), the list's review, the list itself (kept last, for its history) and the
// papers; its reason is required, a stale version is a conflict, and it is audited.
func TestEnteredInError(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		var w, n reconciled
		s.nurse.Do("POST", base, map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere"}).JSON(t, &w)
		s.nurse.Do("POST", base, map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"}).JSON(t, &n)
		ibuprofen := map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Ibuprofen 400 mg"}}}
		interacts := func() bool {
			for _, f := range s.check(t, ibuprofen).Findings {
				if f.Kind == "interaction" {
					return true
				}
			}
			return false
		}
		if !interacts() {
			t.Fatal("ibuprofen beside the recorded warfarin: no interaction")
		}
		reviewSays := func() int {
			var list struct{ Data []reconciled }
			s.doctor.Do("GET", base, nil).JSON(t, &list)
			said := 0
			for _, m := range list.Data {
				said += len(m.Findings)
			}
			return said
		}
		if reviewSays() != 1 {
			t.Fatal("the list's review does not see warfarin beside naproxen")
		}

		mark := fmt.Sprintf("/api/current-medicines/%d/entered-in-error", w.ID)
		receptionist := s.env.LoggedIn("desk", s.env.CreateUser("desk", "receptionist"))
		if r := receptionist.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": w.Version}); r.Status != http.StatusForbidden {
			t.Errorf("a receptionist marks: %d", r.Status)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "  ", "version": w.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("no reason: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": w.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("stale version: %d %s", r.Status, r.Body)
		}
		var e reconciled
		r := s.nurse.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": w.Version})
		if r.Status != http.StatusOK {
			t.Fatalf("mark: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &e)
		if e.ErrorReason != "Wrong patient" || e.ErrorBy == "" || e.Version != w.Version+1 {
			t.Errorf("marked: %+v", e)
		}
		if interacts() {
			t.Error("an entry in error still interacts in the check")
		}
		if said := reviewSays(); said != 0 {
			t.Errorf("an entry in error still reviewed: %d findings", said)
		}
		var list struct{ Data []reconciled }
		s.nurse.Do("GET", base, nil).JSON(t, &list)
		if len(list.Data) != 2 || list.Data[0].ID != n.ID || list.Data[1].ID != w.ID || list.Data[1].ErrorReason == "" {
			t.Errorf("the list: %+v", list.Data)
		}
		// no more changes: not corrected, stopped, confirmed or marked again
		for path, body := range map[string]map[string]any{
			mark: {"reason": "again", "version": e.Version},
			fmt.Sprintf("/api/current-medicines/%d/stop", w.ID):    {"category": "other", "reason": "x", "version": e.Version},
			fmt.Sprintf("/api/current-medicines/%d/confirm", w.ID): {"appointment_id": s.apptID, "version": e.Version},
		} {
			if r := s.nurse.Do("POST", path, body); r.Status != http.StatusConflict {
				t.Errorf("%s after in error: %d %s", path, r.Status, r.Body)
			}
		}
		// the patient takes naproxen still: "takes none" is refused
		if r := s.nurse.Do("POST", base+"/none", nil); r.Status != http.StatusConflict {
			t.Errorf("takes none: %d", r.Status)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.entered_in_error' AND detail LIKE '%Wrong patient%'"); n != 1 {
			t.Errorf("audited %d times", n)
		}
	})
}

// TestPrescriberReview: what a nurse records or corrects is not yet reviewed by a doctor;
// what a doctor records is; only a prescriber may review (who and when are kept), and a
// nurse's correction asks for a review again. The check counts an unreviewed entry.
func TestPrescriberReview(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		var byNurse, byDoctor reconciled
		in := map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", "information_source": "carer"}
		s.nurse.Do("POST", base, in).JSON(t, &byNurse)
		s.doctor.Do("POST", base, map[string]any{"medicine": "Omeprazole 20 mg", "source": "otc"}).JSON(t, &byDoctor)
		if !byNurse.NeedsReview || byDoctor.NeedsReview || byDoctor.ReviewedBy == "" {
			t.Errorf("recorded: nurse's %+v, doctor's %+v", byNurse, byDoctor)
		}
		found := false
		for _, f := range s.check(t, map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Ibuprofen 400 mg"}}}).Findings {
			found = found || f.Kind == "interaction"
		}
		if !found {
			t.Error("the check does not count the unreviewed warfarin")
		}
		review := fmt.Sprintf("/api/current-medicines/%d/review", byNurse.ID)
		if r := s.nurse.Do("POST", review, map[string]any{"version": byNurse.Version}); r.Status != http.StatusForbidden {
			t.Errorf("a nurse reviews: %d", r.Status)
		}
		if r := s.doctor.Do("POST", review, map[string]any{"version": byNurse.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("stale review: %d", r.Status)
		}
		var got reconciled
		r := s.doctor.Do("POST", review, map[string]any{"version": byNurse.Version})
		if r.Status != http.StatusOK {
			t.Fatalf("review: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if got.NeedsReview || got.ReviewedBy == "" || got.ReviewedAt == nil {
			t.Errorf("reviewed: %+v", got)
		}
		in["dose"], in["version"] = "2 tablets", got.Version
		var fixed reconciled
		s.nurse.Do("PUT", fmt.Sprintf("/api/current-medicines/%d", got.ID), in).JSON(t, &fixed)
		if !fixed.NeedsReview || fixed.ReviewedBy != got.ReviewedBy {
			t.Errorf("a nurse's correction: %+v", fixed)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.review'"); n != 1 {
			t.Errorf("reviews audited: %d", n)
		}
	})
}
