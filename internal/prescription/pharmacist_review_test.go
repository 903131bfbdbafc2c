package prescription_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// The clinical pharmacist's review of 2026-11-29 (docs/adr/0025, "After the pharmacist's
// review of 2026-11-29"): each case failed before its fix.

func daysAgo(n int) string { return time.Now().AddDate(0, 0, -n).Format(time.DateOnly) }

var reviewCases = []clinicalCase{
	// M7: a finished course interacts while supplied, then its washout and a week's grace.
	{name: "M7 clarithromycin 7 days, last day 34 days ago, simvastatin", evidence: "M7: a finished course no longer blocks",
		earlier: []caseRx{given("Clarithromycin 500 mg", "7 days", 40)}, lines: []string{"Simvastatin 20 mg"}},
	{name: "M7 clarithromycin 7 days, last day 4 days ago, simvastatin", evidence: "M7: within the week's grace it still blocks",
		earlier: []caseRx{given("Clarithromycin 500 mg", "7 days", 10)}, lines: []string{"Simvastatin 20 mg"}, want: []string{"0:interaction:hard!"}},
	{name: "M7 clarithromycin 7 days, last day 7 days ago, simvastatin", evidence: "M7: the last day of the grace",
		earlier: []caseRx{given("Clarithromycin 500 mg", "7 days", 13)}, lines: []string{"Simvastatin 20 mg"}, want: []string{"0:interaction:hard!"}},
	{name: "M7 clarithromycin 7 days, last day 8 days ago, simvastatin", evidence: "M7: the grace is over",
		earlier: []caseRx{given("Clarithromycin 500 mg", "7 days", 14)}, lines: []string{"Simvastatin 20 mg"}},
	{name: "M7 clarithromycin, supply not read, 60 days ago", evidence: "M7: a supply that cannot be read counts 90 days",
		earlier: []caseRx{given("Clarithromycin 500 mg", "", 60)}, lines: []string{"Simvastatin 20 mg"}, want: []string{"0:interaction:hard!"}},
	{name: "M7 azithromycin 3 days, last day 8 days ago, warfarin", evidence: "M7: azithromycin acts about a week after the last dose",
		earlier: []caseRx{given("Azithromycin 500 mg", "3 days", 10)}, lines: []string{"Warfarin 5 mg"}, want: []string{"0:interaction:high"}},
	{name: "M7 azithromycin 3 days, last day 20 days ago, warfarin", evidence: "M7: azithromycin's washout and grace are over",
		earlier: []caseRx{given("Azithromycin 500 mg", "3 days", 22)}, lines: []string{"Warfarin 5 mg"}},
	{name: "M7 amiodarone here ran out 70 days ago, warfarin", evidence: "M7 keeps M2: a long washout still counts",
		earlier: []caseRx{given("Amiodarone 200 mg", "30 days", 100)}, lines: []string{"Warfarin 5 mg"}, want: []string{"0:interaction:high"}},
	// M8: an enzyme inducer stopped keeps inducing 28 days (FSRH CEU).
	{name: "M8 carbamazepine stopped 7 days ago, combined pill", evidence: "M8: FSRH, 28 days after an inducer",
		taken: []caseTaken{{line: "Carbamazepine 200 mg", source: "elsewhere", stopped: true, stoppedDaysAgo: 7}},
		lines: []string{"Ethinylestradiol/levonorgestrel 30/150 mcg"}, want: []string{"0:interaction:high"}},
	{name: "M8 rifampicin stopped 20 days ago, combined pill", evidence: "M8: FSRH, 28 days after an inducer",
		taken: []caseTaken{{line: "Rifampicin 300 mg", source: "elsewhere", stopped: true, stoppedDaysAgo: 20}},
		lines: []string{"Ethinylestradiol/levonorgestrel 30/150 mcg"}, want: []string{"0:interaction:high"}},
	{name: "M8 St John's wort stopped 20 days ago, combined pill", evidence: "M8: FSRH, St John's wort 28 days",
		taken: []caseTaken{{line: "St John's wort", source: "otc", stopped: true, stoppedDaysAgo: 20}},
		lines: []string{"Ethinylestradiol/levonorgestrel 30/150 mcg"}, want: []string{"0:interaction:high"}},
	{name: "M8 carbamazepine stopped 30 days ago, combined pill", evidence: "M8: after the 28 days, nothing",
		taken: []caseTaken{{line: "Carbamazepine 200 mg", source: "elsewhere", stopped: true, stoppedDaysAgo: 30}},
		lines: []string{"Ethinylestradiol/levonorgestrel 30/150 mcg"}},
	// M6: the recorded route counts.
	{name: "M6 diclofenac 1% recorded topical, ibuprofen tablets", evidence: "M6: as for diclofenac gel, a caution",
		taken: []caseTaken{{line: "Diclofenac 1%", source: "otc", fields: map[string]any{"route": "topical"}}}, lines: []string{"Ibuprofen 400 mg tablet"},
		want: []string{"0:duplicate_taken:low"}},
	{name: "M6 diclofenac 50 mg recorded oral, ibuprofen tablets", evidence: "M6 guard: two oral NSAIDs stay high",
		taken: []caseTaken{{line: "Diclofenac 50 mg", source: "otc", fields: map[string]any{"route": "oral"}}}, lines: []string{"Ibuprofen 400 mg tablet"},
		want: []string{"0:duplicate_taken:high"}},
	// M5: a washout runs from the last dose.
	{name: "M5 fluoxetine last dose 3 days ago, stopped today, tramadol", evidence: "M5: the washout from the last dose",
		taken: []caseTaken{{line: "Fluoxetine 20 mg", source: "elsewhere", stopped: true, fields: map[string]any{"last_dose": daysAgo(3)}}},
		lines: []string{"Tramadol 50 mg"}, want: []string{"0:interaction:high"}},
	// M1: canisters, not prescriptions; the line being written counts.
	{name: "M1 salbutamol 1 inhaler + 11 refills, salbutamol again", evidence: "M1: 13 canisters, the urgent prompt",
		earlier: []caseRx{issuedRx("@Salbutamol", 60, "unit", "inhaler", "quantity", "1", "refills", 11)}, lines: []string{"@Salbutamol"}, want: []string{"0:reliever_overuse:low"}},
	{name: "M1 one earlier Rx of 2 inhalers, salbutamol again", evidence: "M1: 3 canisters",
		earlier: []caseRx{issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "2")}, lines: []string{"@Salbutamol"}, want: []string{"0:reliever_overuse:low"}},
	{name: "M1 one earlier inhaler, salbutamol again", evidence: "M1: 2 canisters, no prompt",
		earlier: []caseRx{issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1")}, lines: []string{"@Salbutamol"}},
	{name: "M1 two earlier, one cancelled", evidence: "M1: a cancelled prescription gave nothing",
		earlier: []caseRx{issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1"), cancelledRx("@Salbutamol", 20)}, lines: []string{"@Salbutamol"}},
	{name: "M1 two earlier, one a draft", evidence: "M1: a draft never reached the patient",
		earlier: []caseRx{issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1"), given("@Salbutamol", "", 20)}, lines: []string{"@Salbutamol"},
		want: []string{"0:duplicate_recent:low"}},
	{name: "m3 two earlier, one 365 days ago", evidence: "m3: the year is 365 days, today included",
		earlier: []caseRx{issuedRx("@Salbutamol", 365, "unit", "inhaler", "quantity", "1"), issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1")}, lines: []string{"@Salbutamol"}},
	{name: "m3 two earlier, one 364 days ago", evidence: "m3: inside the year",
		earlier: []caseRx{issuedRx("@Salbutamol", 364, "unit", "inhaler", "quantity", "1"), issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1")}, lines: []string{"@Salbutamol"},
		want: []string{"0:reliever_overuse:low"}},
	{name: "M1 recorded salbutamol is not counted", evidence: "M1: recorded elsewhere, not issued here; recording never prompts",
		earlier: []caseRx{issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1")}, taken: []caseTaken{{line: "Salbutamol inhaler", source: "elsewhere"}},
		lines: []string{"@Salbutamol"}, want: []string{"0:duplicate_taken:low"}},
	// M2: the relievers as clinics write them.
	relieverCase("Berodual inhaler", "0:reliever_overuse:low"),
	relieverCase("Беродуал Н", "0:reliever_overuse:low"),
	relieverCase("Fenoterol + ipratropium", "0:reliever_overuse:low"),
	relieverCase("Terbutaline (Bricanyl) turbuhaler", "0:reliever_overuse:low"),
	relieverCase("Levosalbutamol inhaler", "0:reliever_overuse:low"),
	relieverCase("Combivent", "0:reliever_overuse:low"),
	relieverCase("Сальбутамол 100 мкг", "0:reliever_overuse:low"),
	relieverCase("沙丁胺醇气雾剂", "0:reliever_overuse:low"),
	relieverCase("Ventolin nebules 2.5 mg", "0:reliever_overuse:low"),
	// M10: ICS with formoterol or salbutamol is no SABA-only reliever; by mouth is said apart.
	relieverCase("Symbicort 160/4.5"),
	relieverCase("Budesonide/formoterol"),
	relieverCase("Albuterol/budesonide (Airsupra) inhaler"),
	relieverCase("Salbutamol 4 mg tablets", "0:reliever_oral:low"),
	relieverCase("Salbutamol syrup 2mg/5ml", "0:reliever_oral:low"),
}

// issuedRx is an earlier prescription of line, issued daysAgo, with more fields as pairs.
func issuedRx(line string, daysAgo int, more ...any) caseRx {
	rx := given(line, "", daysAgo, more...)
	rx.issued = true
	return rx
}

func cancelledRx(line string, daysAgo int) caseRx {
	rx := issuedRx(line, daysAgo, "unit", "inhaler", "quantity", "1")
	rx.cancelled = true
	return rx
}

// relieverCase writes line (as needed) after two salbutamol inhalers issued in the year.
func relieverCase(line string, want ...string) clinicalCase {
	return clinicalCase{name: "M2 M10 " + line, evidence: "the reliever as written, after two canisters",
		earlier: []caseRx{issuedRx("@Salbutamol", 60, "unit", "inhaler", "quantity", "1"), issuedRx("@Salbutamol", 30, "unit", "inhaler", "quantity", "1")},
		lines:   []string{line}, want: want}
}

func TestPharmacistReviewCases(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for _, c := range reviewCases {
			t.Run(c.name, func(t *testing.T) {
				got := s.runCase(t, db, c)
				want := slices.Clone(c.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%s (%s):\n got  %v\n want %v", c.name, c.evidence, got, want)
				}
			})
		}
	})
}

// TestStopBeforeLastDose: a stop day before the recorded last dose, or a last dose before the
// start, is refused with the field named (M5); a stop day said earlier in the data (written
// before the rule) still counts the washout from the last dose.
func TestStopBeforeLastDose(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		if r := s.doctor.Do("POST", base, map[string]any{"medicine": "Fluoxetine 20 mg", "source": "elsewhere", "started_on": time.Now().AddDate(0, -1, 0).Format("2006-01"),
			"last_dose": time.Now().AddDate(0, -3, 0).Format(time.DateOnly)}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("last dose before the start: %d %s", r.Status, r.Body)
		} else if _, _, fields := r.Error(t); len(fields["last_dose"]) == 0 {
			t.Errorf("last dose before the start: field not named: %s", r.Body)
		}
		var f struct {
			ID      int64
			Version int
		}
		s.doctor.Do("POST", base, map[string]any{"medicine": "Fluoxetine 20 mg", "source": "elsewhere", "started_on": time.Now().AddDate(0, -6, 0).Format("2006-01"),
			"last_dose": daysAgo(3)}).JSON(t, &f)
		stop := fmt.Sprintf("/api/current-medicines/%d/stop", f.ID)
		for _, c := range []struct {
			on   string
			want int
		}{{daysAgo(40), http.StatusUnprocessableEntity}, {daysAgo(4), http.StatusUnprocessableEntity}, {daysAgo(3), http.StatusOK}} {
			r := s.doctor.Do("POST", stop, map[string]any{"category": "doctor_decision", "stopped_on": c.on, "version": f.Version})
			if r.Status != c.want {
				t.Fatalf("stop on %s: %d %s", c.on, r.Status, r.Body)
			}
			if c.want != http.StatusOK {
				if _, _, fields := r.Error(t); len(fields["stopped_on"]) == 0 {
					t.Errorf("stop on %s: field not named: %s", c.on, r.Body)
				}
			}
		}
		// written before the rule: stopped 40 days ago, last dose 3 days ago
		if _, err := db.Exec(`UPDATE medicines_taken SET stopped_on = $1 WHERE id = $2`, daysAgo(40), f.ID); err != nil {
			t.Fatal(err)
		}
		c := s.check(t, map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Tramadol 50 mg", "frequency": "when needed", "quantity": "10"}}})
		if got := kinds(c.Findings); got != "0:interaction" {
			t.Errorf("tramadol 3 days after the last fluoxetine: %q", got)
		}
	})
}

// TestRelieverWording: the reliever prompt says what the visit's diagnoses are (asthma J45,
// COPD J44, neither) and whether the patient has an inhaled corticosteroid (M3); the count is
// of canisters, the lines being written included (M1).
func TestRelieverWording(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		sal := s.medicineID(t, "Salbutamol")
		inhaler := map[string]any{"medicine_id": sal, "medicine": "Salbutamol 100 mcg/dose inhaler", "dose": "2 puffs", "frequency": "when needed", "quantity": "2", "unit": "inhaler"}
		rx := s.write(t, s.apptID, inhaler)
		s.issue(t, rx)
		type said struct {
			Kind      string
			Count     int
			Urgent    bool
			Condition string
			NoICS     bool `json:"no_ics"`
		}
		reliever := func(t *testing.T, lines ...any) said {
			t.Helper()
			var c struct{ Findings []said }
			if r := s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"appointment_id": s.apptID, "items": lines}); r.Status != http.StatusOK {
				t.Fatalf("check: %d %s", r.Status, r.Body)
			} else {
				r.JSON(t, &c)
			}
			for _, f := range c.Findings {
				if f.Kind == "reliever_overuse" {
					return f
				}
			}
			return said{}
		}
		diagnose := func(codes ...string) {
			var list []map[string]any
			for _, c := range codes {
				list = append(list, map[string]any{"code": c})
			}
			content, _ := json.Marshal(map[string]any{"diagnoses": list})
			now := time.Now().UTC()
			if _, err := db.Exec(`DELETE FROM visits WHERE appointment_id = $1`, s.apptID); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO visits (appointment_id, patient_id, content, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
				s.apptID, s.patientID, string(content), now); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name  string
			codes []string
			want  string
		}{{"no visit notes", nil, ""}, {"asthma", []string{"J45.9"}, "asthma"}, {"COPD", []string{"J44.1"}, "copd"}, {"both", []string{"J44.1", "J45.0"}, ""}} {
			if c.codes != nil {
				diagnose(c.codes...)
			}
			got := reliever(t, map[string]any{"medicine_id": sal, "medicine": "Salbutamol 100 mcg/dose inhaler", "quantity": "1", "unit": "inhaler"})
			if got.Kind == "" || got.Count != 3 || got.Urgent || got.Condition != c.want || !got.NoICS {
				t.Errorf("%s: %+v, want 3 canisters, %q, no ICS", c.name, got, c.want)
			}
		}
		// an ICS written beside it, or recorded as taken: the prompt asks after its use
		if got := reliever(t, map[string]any{"medicine": "Salbutamol inhaler", "quantity": "1", "unit": "inhaler"}, map[string]any{"medicine": "Fluticasone 125 mcg inhaler"}); got.NoICS || got.Count != 3 {
			t.Errorf("with fluticasone written: %+v", got)
		}
		if r := s.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), map[string]any{"medicine": "Seretide 25/125", "source": "elsewhere"}); r.Status != http.StatusCreated {
			t.Fatalf("record: %d %s", r.Status, r.Body)
		}
		if got := reliever(t, map[string]any{"medicine": "Salbutamol inhaler"}); got.NoICS || got.Count != 3 {
			t.Errorf("with Seretide recorded: %+v", got)
		}
		// ten more canisters: 12 and more
		if got := reliever(t, map[string]any{"medicine": "Salbutamol inhaler", "quantity": "1", "unit": "inhaler", "refills": 9}); got.Count != 12 || !got.Urgent {
			t.Errorf("1 inhaler + 9 refills after 2: %+v", got)
		}
	})
}

// TestKeptPairDoseAndRenewal: a keep lapses when a medicine's dose, frequency or route is
// corrected (M4: simvastatin kept at 20 mg beside amlodipine, corrected to 80 mg), and carries
// over to a routine renewal of the same product at the same dose (M9), not to one at another
// dose.
func TestKeptPairDoseAndRenewal(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		base := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		var sim pairListed
		s.doctor.Do("POST", base, map[string]any{"medicine": "Simvastatin 20 mg", "dose": "1 tablet", "frequency": "at night", "source": "elsewhere"}).JSON(t, &sim)
		amlodipine := map[string]any{"medicine": "Amlodipine 5 mg", "dose": "1 tablet", "frequency": "1 daily", "duration": "30 days", "quantity": "30"}
		rx1 := s.write(t, s.apptID, amlodipine)
		s.issue(t, rx1)
		keepIt := func() {
			t.Helper()
			said := s.review(t)
			if len(said) != 1 || said[0].Pair == nil {
				t.Fatalf("review: %+v", said)
			}
			p := said[0].Pair
			if r := s.doctor.Do("POST", base+"/kept-pairs", map[string]any{"this": p.This, "other": p.Other, "finding": p.Finding,
				"reason": "Simvastatin 20 mg is the most with amlodipine; agreed"}); r.Status != http.StatusCreated {
				t.Fatalf("keep: %d %s", r.Status, r.Body)
			}
		}
		kept := func() []bool {
			var out []bool
			for _, f := range s.review(t) {
				out = append(out, f.Kept != nil)
			}
			return out
		}
		keepIt()
		if got := kept(); !slices.Equal(got, []bool{true}) {
			t.Fatalf("kept: %v", got)
		}
		for _, c := range []struct {
			name, dose, frequency, route string
		}{
			{"dose corrected to 80 mg", "4 tablets (80 mg)", "at night", ""},
			{"frequency corrected", "1 tablet", "twice a day", ""},
			{"route given", "1 tablet", "at night", "oral"},
		} {
			r := s.doctor.Do("PUT", fmt.Sprintf("/api/current-medicines/%d", sim.ID), map[string]any{"medicine": "Simvastatin 20 mg", "dose": c.dose,
				"frequency": c.frequency, "route": c.route, "source": "elsewhere", "version": sim.Version})
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", c.name, r.Status, r.Body)
			}
			r.JSON(t, &sim)
			if got := kept(); !slices.Equal(got, []bool{false}) {
				t.Errorf("%s: still kept %v", c.name, got)
			}
			keepIt()
		}
		// a renewal on day 25, same product, dose and frequency: the keep carries over
		if _, err := db.Exec(`UPDATE prescriptions SET issued_at = $1, created_at = $1 WHERE id = $2`, time.Now().UTC().AddDate(0, 0, -25), rx1.ID); err != nil {
			t.Fatal(err)
		}
		s.issue(t, s.write(t, s.apptID, amlodipine))
		if got := kept(); slices.Contains(got, false) || len(got) == 0 {
			t.Errorf("after a routine renewal: kept %v", got)
		}
		// a renewal at another dose: reviewed again
		higher := map[string]any{"medicine": "Amlodipine 5 mg", "dose": "2 tablets", "frequency": "1 daily", "duration": "30 days", "quantity": "60"}
		var keys []string
		for _, f := range s.check(t, map[string]any{"patient_id": s.patientID, "items": []any{higher}}).Findings {
			keys = append(keys, f.Key)
		}
		higher["override_reason"], higher["overrides"] = "Dose raised: the old supply is stopped", keys
		s.issue(t, s.write(t, s.apptID, higher))
		var open int
		for _, f := range s.review(t) {
			if f.Kept == nil {
				open++
			}
		}
		if open == 0 {
			t.Errorf("a renewal at another dose carries the keep")
		}
	})
}

// TestInErrorReasonTooShort: an entry is marked entered in error only with a reason a reader
// can use (m4).
func TestInErrorReasonTooShort(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var w pairListed
		s.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID), map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere"}).JSON(t, &w)
		mark := fmt.Sprintf("/api/current-medicines/%d/entered-in-error", w.ID)
		for _, reason := range []string{"x", "oops"} {
			r := s.nurse.Do("POST", mark, map[string]any{"reason": reason, "version": w.Version})
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["reason"]) == 0 {
				t.Errorf("%q: %d %s", reason, r.Status, r.Body)
			}
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": w.Version}); r.Status != http.StatusOK {
			t.Errorf("a reason: %d %s", r.Status, r.Body)
		}
	})
}
