package prescription_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// pairFinding is a finding of the list's review, with its pair and whether it is kept.
type pairFinding struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Pair *struct {
		This, Other, Finding string
	} `json:"pair"`
	Kept *struct {
		By         string `json:"by"`
		Reason     string `json:"reason"`
		Prescribed bool   `json:"prescribed"`
	} `json:"kept"`
}

type pairListed struct {
	ID             int64         `json:"id"`
	Medicine       string        `json:"medicine"`
	PrescriptionID *int64        `json:"prescription_id"`
	Version        int           `json:"version"`
	Findings       []pairFinding `json:"findings"`
}

// review is the list's review as the doctor reads it: each finding by the medicine it is on.
func (s *setup) review(t *testing.T) []pairFinding {
	t.Helper()
	var list struct{ Data []pairListed }
	r := s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &list)
	var out []pairFinding
	for _, m := range list.Data {
		out = append(out, m.Findings...)
	}
	return out
}

// TestKeepPairKnowingly: a prescriber keeps a finding of the list's review knowingly, for a
// reason (a nurse may not; too short a reason or a finding no longer there is refused, and
// nothing is written); it is shown kept, by whom and why, audited; it lapses when either
// medicine stops, is entered in error or is replaced by a new prescription, so that the new
// pair is flagged again. A line prescribed here over the same finding, with a reason, is kept
// by that reason.
func TestKeepPairKnowingly(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		keep := base + "/kept-pairs"
		var w, n pairListed
		s.nurse.Do("POST", base, map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere"}).JSON(t, &w)
		s.nurse.Do("POST", base, map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"}).JSON(t, &n)
		said := s.review(t)
		if len(said) != 1 || said[0].Pair == nil || said[0].Kept != nil {
			t.Fatalf("the review: %+v", said)
		}
		pair := said[0].Pair
		body := func(reason string) map[string]any {
			return map[string]any{"this": pair.This, "other": pair.Other, "finding": pair.Finding, "reason": reason}
		}
		for _, c := range []struct {
			name   string
			nurse  bool
			body   map[string]any
			status int
		}{
			{"by a nurse", true, body("Stent in March, agreed with cardiology"), http.StatusForbidden},
			{"no reason", false, body("  "), http.StatusUnprocessableEntity},
			{"too short a reason", false, body("ok"), http.StatusUnprocessableEntity},
			{"a finding not on the list", false, map[string]any{"this": pair.This, "other": pair.Other, "finding": "interaction:none", "reason": "Agreed with cardiology"}, http.StatusConflict},
			{"the pair the other way round", false, map[string]any{"this": pair.Other, "other": pair.This, "finding": pair.Finding, "reason": "Agreed with cardiology"}, http.StatusConflict},
		} {
			who := s.doctor
			if c.nurse {
				who = s.nurse
			}
			if r := who.Do("POST", keep, c.body); r.Status != c.status {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if k := dbtest.Count(t, db, "SELECT COUNT(*) FROM medicine_pairs_kept"); k != 0 {
			t.Fatalf("refused keeps wrote %d", k)
		}
		// two ideographs say as much as five letters
		r := s.doctor.Do("POST", keep, body("心内科同意"))
		if r.Status != http.StatusCreated {
			t.Fatalf("keep: %d %s", r.Status, r.Body)
		}
		var kept pairFinding
		r.JSON(t, &kept)
		if kept.Kept == nil || kept.Kept.Reason != "心内科同意" || kept.Kept.By == "" || kept.Kept.Prescribed {
			t.Errorf("kept: %s", r.Body)
		}
		if said := s.review(t); len(said) != 1 || said[0].Kept == nil || said[0].Kept.Reason != "心内科同意" {
			t.Errorf("the review after a keep: %+v", said)
		}
		if a := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.pair_kept' AND detail LIKE '%心内科同意%'"); a != 1 {
			t.Errorf("audited %d times", a)
		}

		// Corrected to another strength: the doctor looks at the pair again.
		if r := s.doctor.Do("PUT", fmt.Sprintf("/api/current-medicines/%d", n.ID), map[string]any{"medicine": "Naproxen 500 mg", "source": "otc", "version": n.Version}); r.Status != http.StatusOK {
			t.Fatalf("correct: %d %s", r.Status, r.Body)
		}
		if said := s.review(t); len(said) != 1 || said[0].Kept != nil {
			t.Errorf("after a correction to another medicine, still kept: %+v", said)
		}
		// Stopped: the pair is gone; the same medicine recorded again is a new pair, flagged.
		if r := s.doctor.Do("POST", fmt.Sprintf("/api/current-medicines/%d/stop", n.ID), map[string]any{"category": "patient_choice", "version": n.Version + 1}); r.Status != http.StatusOK {
			t.Fatalf("stop: %d %s", r.Status, r.Body)
		}
		if said := s.review(t); len(said) != 0 {
			t.Errorf("after a stop: %+v", said)
		}
		var n2 pairListed
		s.nurse.Do("POST", base, map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"}).JSON(t, &n2)
		said = s.review(t)
		if len(said) != 1 || said[0].Kept != nil {
			t.Fatalf("recorded again, not flagged again: %+v", said)
		}
		pair = said[0].Pair
		if r := s.doctor.Do("POST", keep, body("Short course, INR on Friday")); r.Status != http.StatusCreated {
			t.Fatalf("keep again: %d %s", r.Status, r.Body)
		}
		// Entered in error: the same.
		s.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/entered-in-error", n2.ID), map[string]any{"reason": "Wrong patient", "version": n2.Version})
		s.nurse.Do("POST", base, map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"})
		if said := s.review(t); len(said) != 1 || said[0].Kept != nil {
			t.Errorf("after an entry in error, recorded again: %+v", said)
		}

		// A line prescribed here over the recorded warfarin, with a reason: kept by it.
		ibuprofen := map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Ibuprofen 400 mg"}}}
		var keys []string
		for _, f := range s.check(t, ibuprofen).Findings {
			keys = append(keys, f.Key)
		}
		item := map[string]any{"medicine": "Ibuprofen 400 mg", "dose": "1 tablet", "frequency": "3 times a day", "duration": "5 days", "quantity": "15",
			"override_reason": "Short course, INR checked on Friday", "overrides": keys}
		s.issue(t, s.write(t, s.apptID, item))
		var here *pairFinding
		for _, f := range s.review(t) {
			if f.Pair != nil && (f.Pair.This[:3] == "rx-" || f.Pair.Other[:3] == "rx-") && f.Pair.Finding[:12] == "interaction:" {
				f := f
				if f.Pair.This == fmt.Sprintf("taken-%d", w.ID) || f.Pair.Other == fmt.Sprintf("taken-%d", w.ID) {
					here = &f
				}
			}
		}
		if here == nil || here.Kept == nil || !here.Kept.Prescribed || here.Kept.Reason != "Short course, INR checked on Friday" || here.Kept.By == "" {
			t.Fatalf("prescribed over the finding with a reason, not kept by it: %+v", here)
		}
		// The doctor wants to review it again (a nurse may not): it is one to resolve again.
		again := map[string]any{"this": here.Pair.This, "other": here.Pair.Other, "finding": here.Pair.Finding}
		if r := s.nurse.Do("POST", keep+"/review-again", again); r.Status != http.StatusForbidden {
			t.Errorf("a nurse reviews again: %d", r.Status)
		}
		if r := s.doctor.Do("POST", keep+"/review-again", again); r.Status != http.StatusOK || strings.Contains(string(r.Body), `"kept"`) {
			t.Errorf("review again: %d %s", r.Status, r.Body)
		}
		for _, f := range s.review(t) {
			if f.Pair != nil && *f.Pair == *here.Pair && f.Kept != nil {
				t.Errorf("reviewed again, still kept: %+v", f.Kept)
			}
		}
		if a := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'medication.pair_reopened'"); a != 1 {
			t.Errorf("review again audited %d times", a)
		}
		// The doctor keeps it in their own words; a new prescription of the same medicine is
		// another pair: the keep does not follow it.
		pair = here.Pair
		if r := s.doctor.Do("POST", keep, body("Agreed with cardiology")); r.Status != http.StatusCreated {
			t.Fatalf("keep a line here: %d %s", r.Status, r.Body)
		}
		rx2 := s.write(t, s.apptID, map[string]any{"medicine": "Ibuprofen 400 mg", "dose": "1 tablet", "frequency": "3 times a day", "duration": "5 days", "quantity": "15",
			"override_reason": "Second course", "overrides": s.keysFor(t, "Ibuprofen 400 mg")})
		s.issue(t, rx2)
		found := 0
		for _, f := range s.review(t) {
			if f.Pair == nil || f.Pair.Finding != pair.Finding {
				continue
			}
			onRx2 := f.Pair.This == fmt.Sprintf("rx-%d-0", rx2.ID) || f.Pair.Other == fmt.Sprintf("rx-%d-0", rx2.ID)
			onW := f.Pair.This == fmt.Sprintf("taken-%d", w.ID) || f.Pair.Other == fmt.Sprintf("taken-%d", w.ID)
			if onRx2 && onW {
				found++
				if f.Kept == nil || f.Kept.Reason != "Second course" || !f.Kept.Prescribed {
					t.Errorf("the new prescription carries the old keep: %+v", f.Kept)
				}
			}
			if f.Pair.This == pair.This && f.Pair.Other == pair.Other && (f.Kept == nil || f.Kept.Reason != "Agreed with cardiology") {
				t.Errorf("the first line's keep: %+v", f.Kept)
			}
		}
		if found != 1 {
			t.Errorf("the new prescription beside warfarin: %d findings", found)
		}
	})
}

// keysFor are the keys of the findings a medicine prescribed now would have, to override.
func (s *setup) keysFor(t *testing.T, medicine string) []string {
	keys := []string{}
	for _, f := range s.check(t, map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": medicine}}}).Findings {
		keys = append(keys, f.Key)
	}
	return keys
}

// issue prints a prescription: handed to the patient, its lines are current medicines.
func (s *setup) issue(t *testing.T, p rx) {
	t.Helper()
	if r := s.doctor.Do("POST", fmt.Sprintf("/api/prescriptions/%d/print", p.ID), map[string]any{"version": p.Version}); r.Status != http.StatusOK {
		t.Fatalf("print: %d %s", r.Status, r.Body)
	}
}
