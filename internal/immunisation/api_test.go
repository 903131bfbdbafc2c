package immunisation_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/immunisation"
)

type record struct {
	ID             int64    `json:"id"`
	Kind           string   `json:"kind"`
	Status         string   `json:"status"`
	Vaccine        string   `json:"vaccine"`
	VaccineName    string   `json:"vaccine_name"`
	Antigens       []string `json:"antigens"`
	Antigen        string   `json:"antigen"`
	AntigenName    string   `json:"antigen_name"`
	OccurredOn     string   `json:"occurred_on"`
	GivenBy        *int64   `json:"given_by"`
	GivenByName    string   `json:"given_by_name"`
	OverrideReason string   `json:"override_reason"`
	Overridden     []string `json:"overridden"`
	ErrorReason    string   `json:"error_reason"`
	Version        int      `json:"version"`
}

type finding struct {
	Code       string `json:"code"`
	Severity   string `json:"severity"`
	Message    string `json:"message"`
	Vaccine    string `json:"vaccine"`
	Antigen    string `json:"antigen"`
	Substance  string `json:"substance"`
	Deferrable bool   `json:"deferrable"`
}

type findings struct {
	Code     string    `json:"code"`
	Error    string    `json:"error"`
	Findings []finding `json:"findings"`
}

type setup struct {
	env                        *apitest.Env
	db                         *database.DB
	admin, doctor, nurse, desk *apitest.Client
	patientID                  int64
	today, birth               string
	booked                     int
}

func day(offset int) string { return time.Now().UTC().AddDate(0, 0, offset).Format(time.DateOnly) }

func newSetup(t *testing.T, db *database.DB) *setup {
	env := apitest.New(t, db)
	s := &setup{env: env, db: db, today: day(0), birth: day(-700)}
	s.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	s.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	s.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	s.desk = env.LoggedIn("desk", env.CreateUser("desk", "receptionist"))
	s.patientID = s.newPatient(t, "An", "female", "none")
	return s
}

func (s *setup) newPatient(t *testing.T, first, sex, allergyStatus string) int64 {
	t.Helper()
	p := apitest.Do[struct{ ID int64 }](t, s.doctor, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": first, "last_name": "Nguyễn",
		"birth_date": s.birth, "sex": sex, "address": "1 Lê Lợi", "history": map[string]any{"allergy_status": allergyStatus}})
	return p.ID
}

// setAllergies records a patient's allergies: substance, severity, reaction triples.
func (s *setup) setAllergies(t *testing.T, id int64, triples ...string) {
	t.Helper()
	var p map[string]any
	s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d", id), nil).JSON(t, &p)
	var list []map[string]string
	for i := 0; i+2 < len(triples); i += 3 {
		list = append(list, map[string]string{"substance": triples[i], "severity": triples[i+1], "reaction": triples[i+2]})
	}
	h := p["history"].(map[string]any)
	h["allergies"], h["allergy_status"] = list, "present"
	apitest.Do[any](t, s.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/patients/%d", id), p)
}

// visitWith records a visit of the patient today with a diagnosis.
func (s *setup) visitWith(t *testing.T, id int64, code string) {
	t.Helper()
	docs := apitest.Do[struct{ Data []struct{ ID int64 } }](t, s.doctor, http.StatusOK, "GET", "/api/doctors", nil)
	// today, one after the other: later when the day has room, else earlier
	s.booked++
	now := time.Now().UTC().Truncate(time.Minute)
	at := now.Add(time.Duration(s.booked) * 20 * time.Minute)
	if at.Format(time.DateOnly) != now.Format(time.DateOnly) {
		at = now.Add(-time.Duration(s.booked) * 20 * time.Minute)
	}
	a := apitest.Do[struct {
		ID      int64
		Version int
	}](t, s.doctor, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": id, "doctor_id": docs.Data[0].ID,
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 10, "type": "new"})
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	apitest.Do[any](t, s.doctor, http.StatusOK, "POST", path+"/arrive", map[string]any{"version": a.Version})
	apitest.Do[any](t, s.doctor, http.StatusOK, "POST", path+"/start", map[string]any{"version": a.Version + 1})
	apitest.Do[any](t, s.doctor, http.StatusOK, "PUT", path+"/visit", map[string]any{"version": 0, "diagnoses": []map[string]any{{"code": code, "primary": true}}})
}

func dose(vaccine, on string, extra ...any) map[string]any {
	in := map[string]any{"kind": "given", "vaccine": vaccine, "occurred_on": on, "lot": "A123", "expiry": day(300), "site": "left_arm", "route": "SC",
		"screening": screened(nil)}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i] == "screening" {
			in["screening"] = screened(extra[i+1].(map[string]any))
			continue
		}
		in[extra[i].(string)] = extra[i+1]
	}
	return in
}

// screened is a screening with the core questions every dose is asked answered no, and the
// answers given.
func screened(answers map[string]any) map[string]any {
	no := false
	s := map[string]any{}
	for _, q := range immunisation.CoreScreening {
		s[q] = &no
	}
	for k, v := range answers {
		s[k] = v
	}
	return s
}

func (s *setup) path(id int64) string { return fmt.Sprintf("/api/patients/%d/immunisations", id) }

func (s *setup) count(t *testing.T) int {
	return dbtest.Count(t, s.db, "SELECT COUNT(*) FROM immunisations")
}

func codes(fs []finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+":"+f.Severity)
	}
	return strings.Join(out, " ")
}

// TestRecordRefusesBadInput: each refusal through the API answers 422 on its field, in the
// user's language, and stores nothing.
func TestRecordRefusesBadInput(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		before := day(-800)
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"unknown kind", map[string]any{"kind": "planned", "vaccine": "mmr", "occurred_on": day(-10)}, "kind"},
			{"no vaccine", dose("", day(-10)), "vaccine"},
			{"vaccine not in the catalogue", dose("smallpox", day(-10)), "vaccine"},
			{"no lot for a dose given here", dose("mmr", day(-10), "lot", " "), "lot"},
			{"a dose given here unscreened (the acute illness not asked)", func() map[string]any {
				d := dose("mmr", day(-10))
				d["screening"] = map[string]any{"fever": false, "abnormal_heart_lung": false, "abnormal_consciousness": false, "previous_severe_reaction": false}
				return d
			}(), "screening.acute_illness"},
			{"a dose given here with no screening at all", func() map[string]any {
				d := dose("mmr", day(-10))
				delete(d, "screening")
				return d
			}(), "screening.fever"},
			{"a lot with a right-to-left override (printed backwards)", dose("mmr", day(-10), "lot", "A\u202e321B"), "lot"},
			{"a place with a bidirectional isolate", map[string]any{"kind": "elsewhere", "vaccine": "mmr", "occurred_on": day(-10), "source": "card", "place": "Clinic \u2067X\u2069"}, "place"},
			{"no date", dose("mmr", ""), "occurred_on"},
			{"not a date", dose("mmr", "last spring"), "occurred_on"},
			{"in the future", dose("mmr", day(2)), "occurred_on"},
			{"before birth", dose("mmr", before), "occurred_on"},
			{"expiry not a date", dose("mmr", day(-10), "expiry", "2026-13-01"), "expiry"},
			{"no expiry for a dose given here", dose("mmr", day(-10), "expiry", " "), "expiry"},
			{"a temperature of 45 °C", dose("mmr", day(-10), "screening", map[string]any{"temperature_c": 45}), "screening.temperature_c"},
			{"a temperature of 29.9 °C", dose("mmr", day(-10), "screening", map[string]any{"temperature_c": 29.9}), "screening.temperature_c"},
			{"site not on the list", dose("mmr", day(-10), "site", "left_ear"), "site"},
			{"route not on the list", dose("mmr", day(-10), "route", "IV"), "route"},
			{"dose number 0", dose("mmr", day(-10), "dose_number", 0), "dose_number"},
			{"dose number 11", dose("mmr", day(-10), "dose_number", 11), "dose_number"},
			{"elsewhere without a source", map[string]any{"kind": "elsewhere", "vaccine": "mmr", "occurred_on": day(-10)}, "source"},
			{"elsewhere with an unknown source", map[string]any{"kind": "elsewhere", "vaccine": "mmr", "occurred_on": day(-10), "source": "rumour"}, "source"},
			{"refusal without an antigen", map[string]any{"kind": "refused", "occurred_on": day(-10), "reason": "parent declined"}, "antigen"},
			{"refusal of an unknown antigen", map[string]any{"kind": "refused", "antigen": "smallpox", "occurred_on": day(-10), "reason": "parent declined"}, "antigen"},
			{"refusal without a reason", map[string]any{"kind": "refused", "antigen": "measles", "occurred_on": day(-10), "reason": " "}, "reason"},
			{"contraindication until a bad date", map[string]any{"kind": "contraindicated", "antigen": "measles", "occurred_on": day(-10), "reason": "chemotherapy", "until_on": "soon"}, "until_on"},
			{"contraindication ending before it began", map[string]any{"kind": "contraindicated", "antigen": "measles", "occurred_on": day(-10), "reason": "chemotherapy", "until_on": day(-20)}, "until_on"},
			{"deferral without a day to come back", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "fever 38.6"}, "until_on"},
			{"deferral to its own day", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "fever 38.6", "until_on": day(0)}, "until_on"},
			{"deferral for more than 90 days", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "fever 38.6", "until_on": day(91)}, "until_on"},
			{"deferral with a severe reaction before (a contraindication)", map[string]any{"kind": "deferred", "vaccine": "dtap", "occurred_on": day(0), "reason": "reaction", "until_on": day(7),
				"screening": map[string]any{"previous_severe_reaction": true}}, "screening.previous_severe_reaction"},
			{"deferral of a live vaccine for an immunosuppressed child (a contraindication)", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "fever", "until_on": day(7),
				"screening": map[string]any{"temperature_c": 38.6, "immunosuppressed": true}}, "screening.immunosuppressed"},
			{"deferral naming a vaccine and an antigen it does not give", map[string]any{"kind": "deferred", "vaccine": "bcg", "antigen": "measles", "occurred_on": day(0), "reason": "x", "until_on": day(7)}, "antigen"},
			{"deferral reason with a right-to-left override", map[string]any{"kind": "deferred", "vaccine": "bcg", "occurred_on": day(0), "reason": "fever\u202e", "until_on": day(7)}, "reason"},
			{"deferral with intussusception (a contraindication)", map[string]any{"kind": "deferred", "vaccine": "rv1", "occurred_on": day(0), "reason": "intussusception", "until_on": day(7),
				"screening": map[string]any{"intussusception": true}}, "screening.intussusception"},
			{"deferral without a reason", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "", "until_on": day(7)}, "reason"},
			{"deferral with a temperature of 45 °C", map[string]any{"kind": "deferred", "vaccine": "mmr", "occurred_on": day(0), "reason": "fever", "until_on": day(7), "screening": map[string]any{"temperature_c": 45}}, "screening.temperature_c"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := s.nurse.Do("POST", s.path(s.patientID), c.in)
				_, _, fields := r.Error(t)
				if r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
					t.Fatalf("%d %s, want 422 on %s", r.Status, r.Body, c.field)
				}
				if n := s.count(t); n != 0 {
					t.Fatalf("a refused record was stored: %d", n)
				}
			})
		}
		// In the user's language.
		s.nurse.SetCookie("language", "ru")
		r := s.nurse.Do("POST", s.path(s.patientID), dose("mmr", day(-10), "lot", ""))
		s.nurse.SetCookie("language", "en")
		if _, _, fields := r.Error(t); len(fields["lot"]) == 0 || fields["lot"][0] != "Укажите серию вакцины." {
			t.Errorf("lot in Russian: %s", r.Body)
		}
		s.nurse.SetCookie("language", "vi")
		r = s.nurse.Do("POST", s.path(s.patientID), dose("mmr", day(-10), "expiry", ""))
		s.nurse.SetCookie("language", "en")
		if _, _, fields := r.Error(t); len(fields["expiry"]) == 0 || !strings.Contains(fields["expiry"][0], "hạn dùng") {
			t.Errorf("expiry in Vietnamese: %s", r.Body)
		}
		// No such patient.
		if r := s.nurse.Do("POST", s.path(999999), dose("mmr", day(-10))); r.Status != http.StatusNotFound {
			t.Errorf("no patient: %d %s", r.Status, r.Body)
		}
	})
}

// TestSafetyAtThePointOfGiving: each finding of the check, through the check route and on
// saving a dose given here.
func TestSafetyAtThePointOfGiving(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		on := day(-1)
		check := func(t *testing.T, id int64, in map[string]any) []finding {
			t.Helper()
			return apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(id)+"/check", in).Findings
		}
		yes := true

		// Pregnant by the screening, live MMR: stop; an inactivated vaccine: nothing.
		if got := codes(check(t, s.patientID, dose("mmr", on, "screening", map[string]any{"pregnant": true}))); got != "live_pregnancy:stop" {
			t.Errorf("pregnant + MMR: %s", got)
		}
		if got := check(t, s.patientID, dose("hepb_paed", on, "screening", map[string]any{"pregnant": true})); len(got) != 0 {
			t.Errorf("pregnant + hepatitis B: %+v", got)
		}
		// A pregnancy diagnosis of a recent visit.
		pregnant := s.newPatient(t, "Mai", "female", "none")
		s.visitWith(t, pregnant, "Z34.9")
		if got := check(t, pregnant, dose("mmr", s.today)); codes(got) != "live_pregnancy:stop" || !strings.Contains(got[0].Message, "Z34.9") {
			t.Errorf("pregnancy diagnosis + MMR: %+v", got)
		}
		// Immunosuppressed by a diagnosis (HIV disease), varicella.
		hiv := s.newPatient(t, "Bảo", "male", "none")
		s.visitWith(t, hiv, "B20")
		if got := codes(check(t, hiv, dose("varicella", s.today))); got != "live_immunosuppressed:stop" {
			t.Errorf("HIV + varicella: %s", got)
		}
		if got := codes(check(t, hiv, dose("dtap", s.today))); got != "" {
			t.Errorf("HIV + DTaP (inactivated): %s", got)
		}
		// By the screening.
		if got := codes(check(t, s.patientID, dose("varicella", on, "screening", map[string]any{"immunosuppressed": &yes}))); got != "live_immunosuppressed:stop" {
			t.Errorf("immunosuppressed by screening + varicella: %s", got)
		}
		// On methotrexate (L04), recorded as taken; on prednisolone (H02AB): a stop too (the dose and
		// the days are not read: the doctor overrides a short or low-dose course with a reason).
		mtx := s.newPatient(t, "Cúc", "female", "none")
		apitest.Do[any](t, s.doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/patients/%d/current-medicines", mtx), map[string]any{"medicine": "Methotrexate 2.5 mg", "source": "elsewhere"})
		if got := check(t, mtx, dose("mmr", on)); codes(got) != "live_immunosuppressed:stop" || !strings.Contains(got[0].Message, "Methotrexate") {
			t.Errorf("methotrexate + MMR: %+v", got)
		}
		steroid := s.newPatient(t, "Dung", "female", "none")
		apitest.Do[any](t, s.doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/patients/%d/current-medicines", steroid), map[string]any{"medicine": "Prednisolone 5 mg", "source": "elsewhere"})
		if got := codes(check(t, steroid, dose("mmr", on))); got != "live_immunosuppressed:stop" {
			t.Errorf("prednisolone + MMR: %s", got)
		}

		// Stopped: a live vaccine waits 3 months after an immunosuppressant (methotrexate, L04),
		// 1 month after a corticosteroid course, 6 months after rituximab (ACIP, Altered
		// Immunocompetence).
		stopped := func(first, medicine string, daysAgo int) int64 {
			id := s.newPatient(t, first, "female", "none")
			m := apitest.Do[struct {
				ID      int64
				Version int
			}](t, s.doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/patients/%d/current-medicines", id), map[string]any{"medicine": medicine, "source": "elsewhere", "started_on": day(-400)})
			apitest.Do[any](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/current-medicines/%d/stop", m.ID),
				map[string]any{"stopped_on": day(-daysAgo), "category": "course_completed", "version": m.Version})
			return id
		}
		for _, c := range []struct {
			first, medicine string
			daysAgo         int
			want            string
		}{
			{"Xuân", "Methotrexate 2.5 mg", 60, "live_immunosuppressed:stop"},
			{"Yến", "Methotrexate 2.5 mg", 120, ""},
			{"Quang", "Prednisolone 5 mg", 20, "live_immunosuppressed:warn"}, // a short course is no reason to wait: warned
			{"Sơn", "Prednisolone 5 mg", 40, ""},
			{"Thảo", "Rituximab 500 mg/50 mL", 120, "live_immunosuppressed:stop"},
			{"Uyên", "Rituximab 500 mg/50 mL", 200, ""},
		} {
			got := check(t, stopped(c.first, c.medicine, c.daysAgo), dose("mmr", on))
			if codes(got) != c.want {
				t.Errorf("%s stopped %d days ago + MMR: %+v, want %q", c.medicine, c.daysAgo, got, c.want)
			} else if c.want != "" && !strings.Contains(got[0].Message, day(-c.daysAgo)) && !strings.Contains(got[0].Message, "until") {
				t.Errorf("%s stopped: the message says not when: %s", c.medicine, got[0].Message)
			}
		}

		// Allergies to components, read as the medicine-safety check reads them.
		gelatin := s.newPatient(t, "Giang", "female", "unknown")
		s.setAllergies(t, gelatin, "Gelatin", "severe", "anaphylaxis")
		s.nurse.SetCookie("language", "ru")
		got := check(t, gelatin, dose("varicella", on))
		s.nurse.SetCookie("language", "en")
		if codes(got) != "component_allergy:stop" || got[0].Substance != "Желатин" {
			t.Errorf("gelatin anaphylaxis + varicella: %+v", got)
		}
		// Components the pharmacist found missing (issue 59): gelatin in MR, neomycin in
		// influenza, latex in a hepatitis B prefilled syringe.
		if got := codes(check(t, gelatin, dose("mr", on))); got != "component_allergy:stop" {
			t.Errorf("gelatin anaphylaxis + MR: %s", got)
		}
		neo := s.newPatient(t, "Vĩnh", "male", "unknown")
		s.setAllergies(t, neo, "Neomycin", "severe", "anaphylaxis")
		if got := codes(check(t, neo, dose("influenza", on))); got != "component_allergy:stop" {
			t.Errorf("neomycin anaphylaxis + influenza: %s", got)
		}
		latex := s.newPatient(t, "Lâm", "male", "unknown")
		s.setAllergies(t, latex, "Latex", "severe", "anaphylaxis")
		if got := codes(check(t, latex, dose("hepb_paed", on))); got != "component_allergy:stop" {
			t.Errorf("latex anaphylaxis + hepatitis B: %s", got)
		}
		egg := s.newPatient(t, "Hà", "female", "unknown")
		s.setAllergies(t, egg, "Eggs", "severe", "anaphylaxis")
		for _, v := range []string{"mmr", "influenza"} { // ACIP 2023–24: egg allergy is no reason to withhold them
			if got := check(t, egg, dose(v, on)); len(got) != 0 {
				t.Errorf("egg allergy + %s: %+v", v, got)
			}
		}
		if got := check(t, egg, dose("yellow_fever", on)); codes(got) != "component_allergy:stop" || got[0].Substance != "Egg protein" {
			t.Errorf("egg allergy + yellow fever: %+v", got)
		}
		mildEgg := s.newPatient(t, "Khánh", "male", "unknown")
		s.setAllergies(t, mildEgg, "яйцо", "mild", "rash")
		if got := codes(check(t, mildEgg, dose("yellow_fever", on))); got != "component_allergy:warn" {
			t.Errorf("mild egg allergy (ru) + yellow fever: %s", got)
		}
		yeast := s.newPatient(t, "Linh", "female", "unknown")
		s.setAllergies(t, yeast, "Baker's yeast", "moderate", "hives")
		if got := codes(check(t, yeast, dose("hepb_paed", on))); got != "component_allergy:warn" {
			t.Errorf("yeast + hepatitis B: %s", got)
		}

		// An antigen contraindicated (stop) or refused (warn) on the record.
		ci := s.newPatient(t, "Minh", "male", "none")
		apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(ci), map[string]any{"kind": "contraindicated", "antigen": "measles", "occurred_on": day(-30), "reason": "Encephalopathy after the first dose"})
		apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(ci), map[string]any{"kind": "refused", "antigen": "pertussis", "occurred_on": day(-30), "reason": "Parent declined"})
		if got := check(t, ci, dose("mmr", on)); codes(got) != "contraindicated:stop" || got[0].Antigen != "measles" {
			t.Errorf("contraindicated measles + MMR: %+v", got)
		}
		if got := codes(check(t, ci, dose("dtap", on))); got != "refused:warn" {
			t.Errorf("refused pertussis + DTaP: %s", got)
		}
		// A contraindication that ended does not count.
		ended := s.newPatient(t, "Nam", "male", "none")
		apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(ended), map[string]any{"kind": "contraindicated", "antigen": "varicella", "occurred_on": day(-60), "reason": "High-dose steroids", "until_on": day(-30)})
		if got := codes(check(t, ended, dose("varicella", on))); got != "" {
			t.Errorf("ended contraindication: %s", got)
		}

		// An expired lot: a finding in the check, refused outright on saving, override or not.
		if got := codes(check(t, s.patientID, dose("dtap", on, "expiry", day(-2)))); got != "expired_lot:stop" {
			t.Errorf("expired lot: %s", got)
		}
		r := s.nurse.Do("POST", s.path(s.patientID), dose("dtap", on, "expiry", day(-2), "override_reason", "No other lot"))
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["expiry"]) == 0 {
			t.Errorf("expired lot saved: %d %s", r.Status, r.Body)
		}
		// The lot's last day is still good.
		if got := check(t, s.patientID, dose("dtap", on, "expiry", on)); len(got) != 0 {
			t.Errorf("lot expiring on the day: %+v", got)
		}

		// The same vaccine the same day; a dose too close to the last.
		dup := s.newPatient(t, "Oanh", "female", "none")
		apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(dup), dose("dtap", day(-10)))
		if got := codes(check(t, dup, dose("dtap", day(-10)))); !strings.Contains(got, "duplicate_today:stop") {
			t.Errorf("same vaccine the same day: %s", got)
		}
		if got := codes(check(t, dup, dose("dtap", day(-1)))); got != "too_close:warn too_close:warn too_close:warn" {
			t.Errorf("DTaP 9 days after the last: %s", got)
		}
		s.birth = day(-800)
		older := s.newPatient(t, "Quang", "male", "none")
		if got := codes(check(t, older, dose("rv1", day(-1), "route", "PO", "site", "oral"))); got != "product_age:stop" { // rotavirus at 26 months: WHO, not after 24; Rotarix's label, not after 24 weeks
			t.Errorf("rotavirus past its maximum age: %s", got)
		}
		// A product outside its ages stops (its prescribing information): yellow fever,
		// varicella, typhoid Vi, Td, Tdap, HPV for a 2-month-old; DTwP for a 10-year-old.
		// A live injectable vaccine 10 days after another would not count.
		live := s.newPatient(t, "Lan", "female", "none")
		apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(live), dose("mmr", day(-10)))
		if got := codes(check(t, live, dose("varicella", day(0)))); !strings.Contains(got, "live_interval:warn") {
			t.Errorf("varicella 10 days after MMR: %s", got)
		}
		s.birth = day(-61)
		infant := s.newPatient(t, "Nhi", "female", "none")
		for _, v := range []string{"yellow_fever", "varicella", "typhoid_vi", "td", "tdap", "hpv9"} {
			if got := codes(check(t, infant, dose(v, day(0)))); !strings.Contains(got, "product_age:stop") {
				t.Errorf("%s at 2 months: %s", v, got)
			}
		}
		if got := codes(check(t, infant, dose("dtwp_hepb_hib", day(0)))); strings.Contains(got, "product_age") {
			t.Errorf("pentavalent at 2 months: %s", got)
		}
		s.birth = day(-3660)
		ten := s.newPatient(t, "Tùng", "male", "none")
		if got := codes(check(t, ten, dose("dtwp", day(0)))); !strings.Contains(got, "product_age:stop") {
			t.Errorf("DTwP at 10 years: %s", got)
		}
		if got := codes(check(t, dup, dose("hepb_paed", day(-1)))); got != "" {
			t.Errorf("another vaccine: %s", got)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.check'"); n == 0 {
			t.Error("checks not audited")
		}
	})
}

// TestOverrideEnteredInErrorAndReactions: a dose with findings is refused without a reason
// and saved with one (its codes and reason audited); entered in error on its version only; a
// reaction recorded against a dose and listed with the record.
func TestOverrideEnteredInErrorAndReactions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		on := day(-3)
		in := dose("mmr", on, "screening", map[string]any{"pregnant": true}, "dose_number", 1)
		r := s.nurse.Do("POST", s.path(s.patientID), in)
		var refused findings
		r.JSON(t, &refused)
		if r.Status != http.StatusUnprocessableEntity || refused.Code != "immunisation.needs_override" || codes(refused.Findings) != "live_pregnancy:stop" || refused.Error == "" {
			t.Fatalf("without a reason: %d %s", r.Status, r.Body)
		}
		in["override_reason"] = "   "
		if r := s.nurse.Do("POST", s.path(s.patientID), in); r.Status != http.StatusUnprocessableEntity || s.count(t) != 0 {
			t.Fatalf("a blank reason: %d %s", r.Status, r.Body)
		}
		// A stop is a doctor's to pass: a nurse's reason is refused; a doctor's "ok" is no reason.
		in["override_reason"] = "Pregnancy test negative today"
		if r := s.nurse.Do("POST", s.path(s.patientID), in); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "override_reason") || s.count(t) != 0 {
			t.Fatalf("a nurse past a stop: %d %s", r.Status, r.Body)
		}
		in["override_reason"] = "ok"
		if r := s.doctor.Do("POST", s.path(s.patientID), in); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "override_reason") || s.count(t) != 0 {
			t.Fatalf("a two-letter reason: %d %s", r.Status, r.Body)
		}
		in["override_reason"] = "Pregnancy test negative today"
		rec := apitest.Do[record](t, s.doctor, http.StatusCreated, "POST", s.path(s.patientID), in)
		if !slices.Equal(rec.Overridden, []string{"live_pregnancy"}) || rec.OverrideReason != "Pregnancy test negative today" || rec.GivenBy == nil ||
			*rec.GivenBy != s.env.UserID("doc") || rec.VaccineName != "MMR vaccine" || !slices.Equal(rec.Antigens, []string{"measles", "mumps", "rubella"}) {
			t.Errorf("saved: %+v", rec)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.override' AND entity_id = $1 AND detail LIKE '%live_pregnancy%' AND detail LIKE '%Pregnancy test negative today%'`,
			fmt.Sprint(rec.ID)); n != 1 {
			t.Errorf("override audited: %d", n)
		}
		// Elsewhere: no check, no given_by.
		other := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), map[string]any{"kind": "elsewhere", "vaccine": "hepb_paed", "occurred_on": s.birth, "source": "card", "place": "Từ Dũ hospital"})
		if other.GivenBy != nil || other.Kind != "elsewhere" {
			t.Errorf("elsewhere: %+v", other)
		}

		// Reactions.
		path := fmt.Sprintf("/api/immunisations/%d/reactions", rec.ID)
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"onset before the dose", map[string]any{"onset_on": day(-4), "reaction": "fever", "severity": "mild"}, "onset_on"},
			{"onset in the future", map[string]any{"onset_on": day(2), "reaction": "fever", "severity": "mild"}, "onset_on"},
			{"unknown reaction", map[string]any{"onset_on": on, "reaction": "sneezing", "severity": "mild"}, "reaction"},
			{"unknown severity", map[string]any{"onset_on": on, "reaction": "fever", "severity": "awful"}, "severity"},
			{"other without a description", map[string]any{"onset_on": on, "reaction": "other", "severity": "mild"}, "description"},
		} {
			r := s.nurse.Do("POST", path, c.in)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM immunisation_reactions"); n != 0 {
			t.Fatalf("a refused reaction was stored: %d", n)
		}
		reaction := apitest.Do[struct {
			ID       int64  `json:"id"`
			Reaction string `json:"reaction"`
			Serious  bool   `json:"serious"`
		}](t, s.nurse, http.StatusCreated, "POST", path, map[string]any{"onset_on": day(-2), "reaction": "seizure", "severity": "severe", "serious": true,
			"description": "Febrile seizure, 2 minutes", "reported_to": "Provincial CDC"})
		if reaction.Reaction != "seizure" || !reaction.Serious {
			t.Errorf("reaction: %+v", reaction)
		}

		// The record as the chart reads it, audited.
		view := apitest.Do[struct {
			Records   []record `json:"records"`
			Reactions []struct {
				ImmunisationID int64 `json:"immunisation_id"`
			} `json:"reactions"`
			Forecast struct {
				AsOf            string `json:"as_of"`
				Evaluations     []any  `json:"evaluations"`
				Recommendations []any  `json:"recommendations"`
			} `json:"forecast"`
			Schedules []string `json:"schedules"`
			AsOf      string   `json:"as_of"`
		}](t, s.doctor, http.StatusOK, "GET", s.path(s.patientID), nil)
		if len(view.Records) != 2 || view.Records[0].Kind != "elsewhere" || len(view.Reactions) != 1 || view.Reactions[0].ImmunisationID != rec.ID ||
			view.AsOf != s.today || view.Forecast.AsOf != s.today || len(view.Forecast.Evaluations) != 4 || !slices.Equal(view.Schedules, []string{"who"}) {
			t.Errorf("view: %+v", view)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.list' AND patient_id = $1", s.patientID); n != 1 {
			t.Errorf("read audited: %d", n)
		}
		// The reaction is a new version of its dose (FHIR shows it on the Immunization: a reader
		// syncing by version or _lastUpdated sees it).
		for _, r := range view.Records {
			if r.ID == rec.ID {
				if r.Version != rec.Version+1 {
					t.Errorf("the dose's version after a reaction: %d, was %d", r.Version, rec.Version)
				}
				rec.Version = r.Version
			}
		}

		// Entered in error: a reason, the version read; a stale version is a conflict.
		mark := fmt.Sprintf("/api/immunisations/%d/entered-in-error", rec.ID)
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": " ", "version": rec.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("no reason: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": rec.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("stale version: %d %s", r.Status, r.Body)
		}
		marked := apitest.Do[record](t, s.nurse, http.StatusOK, "POST", mark, map[string]any{"reason": "Wrong patient", "version": rec.Version})
		if marked.Status != "entered_in_error" || marked.ErrorReason != "Wrong patient" || marked.Version != rec.Version+1 {
			t.Errorf("marked: %+v", marked)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Wrong patient", "version": rec.Version}); r.Status != http.StatusConflict {
			t.Errorf("marked twice: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM immunisations WHERE id = $1", rec.ID); n != 1 {
			t.Error("a record entered in error was deleted")
		}
		// A dose entered in error takes no reaction, and no longer counts as given that day.
		if r := s.nurse.Do("POST", path, map[string]any{"onset_on": on, "reaction": "fever", "severity": "mild"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("reaction to a record in error: %d %s", r.Status, r.Body)
		}
		if got := apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", dose("mmr", on)).Findings; len(got) != 0 {
			t.Errorf("a dose in error still counts: %+v", got)
		}
		if r := s.nurse.Do("POST", "/api/immunisations/999999/entered-in-error", map[string]any{"reason": "x y z", "version": 1}); r.Status != http.StatusNotFound {
			t.Errorf("no record: %d", r.Status)
		}
	})
}

// TestWhoMayReadAndWrite: a receptionist neither reads nor writes a patient's immunisations;
// a doctor (write diagnosis) reads them; the settings are an administrator's.
func TestWhoMayReadAndWrite(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for _, c := range []struct {
			name         string
			client       *apitest.Client
			method, path string
			body         any
			want         int
		}{
			{"receptionist writes", s.desk, "POST", s.path(s.patientID), dose("dtap", day(-1)), http.StatusForbidden},
			{"receptionist checks", s.desk, "POST", s.path(s.patientID) + "/check", dose("dtap", day(-1)), http.StatusForbidden},
			{"receptionist reads", s.desk, "GET", s.path(s.patientID), nil, http.StatusForbidden},
			{"doctor reads", s.doctor, "GET", s.path(s.patientID), nil, http.StatusOK},
			{"nurse reads the catalogue", s.nurse, "GET", "/api/immunisation/catalogue", nil, http.StatusOK},
			{"nurse reads the settings", s.nurse, "GET", "/api/immunisation/settings", nil, http.StatusForbidden},
		} {
			if r := c.client.Do(c.method, c.path, c.body); r.Status != c.want {
				t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.want)
			}
		}
		if n := s.count(t); n != 0 {
			t.Errorf("stored: %d", n)
		}
		// An archived record is read, not written.
		archived := s.newPatient(t, "Phúc", "male", "none")
		apitest.Do[any](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/patients/%d/archive", archived), map[string]string{"reason": "Registered twice"})
		if r := s.nurse.Do("POST", s.path(archived), dose("dtap", day(-1))); r.Status != http.StatusConflict {
			t.Errorf("archived patient written: %d %s", r.Status, r.Body)
		}
		apitest.Do[any](t, s.nurse, http.StatusOK, "GET", s.path(archived), nil)
	})
}

// TestSettings: the defaults, what is refused, a stale version, and the catalogue's clinic picks.
func TestSettings(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		type settings struct {
			Schedules []string `json:"schedules"`
			Stocked   []string `json:"stocked"`
			Reminders struct {
				On         bool     `json:"on"`
				DaysBefore int      `json:"days_before"`
				Channels   []string `json:"channels"`
			} `json:"reminders"`
			WeightMaxAgeDays int `json:"weight_max_age_days"`
			Version          int `json:"version"`
		}
		got := apitest.Do[settings](t, s.admin, http.StatusOK, "GET", "/api/immunisation/settings", nil)
		if !slices.Equal(got.Schedules, []string{"who"}) || got.WeightMaxAgeDays != 30 || got.Version != 0 {
			t.Fatalf("defaults: %+v", got)
		}
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"no schedule", map[string]any{"schedules": []string{}}, "schedules"},
			{"unknown schedule", map[string]any{"schedules": []string{"mars"}}, "schedules"},
			{"unknown vaccine stocked", map[string]any{"stocked": []string{"smallpox"}}, "stocked"},
			{"reminders too early", map[string]any{"reminders": map[string]any{"on": true, "days_before": 90, "channels": []string{"sms"}}}, "reminders.days_before"},
			{"unknown channel", map[string]any{"reminders": map[string]any{"on": true, "days_before": 7, "channels": []string{"pigeon"}}}, "reminders.channels"},
			{"reminders on, no channel", map[string]any{"reminders": map[string]any{"on": true, "days_before": 7, "channels": []string{}}}, "reminders.channels"},
			{"weight age 0", map[string]any{"weight_max_age_days": 0}, "weight_max_age_days"},
			{"nothing named", map[string]any{}, "schedules"},
		} {
			full := map[string]any{"schedules": []string{"who"}, "stocked": []string{}, "reminders": map[string]any{"on": false, "days_before": 7, "channels": []string{}},
				"weight_max_age_days": 30}
			if len(c.in) == 0 {
				full = map[string]any{}
			}
			for k, v := range c.in {
				full[k] = v
			}
			c.in = full
			c.in["version"] = 0
			r := s.admin.Do("PUT", "/api/immunisation/settings", c.in)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		saved := apitest.Do[settings](t, s.admin, http.StatusOK, "PUT", "/api/immunisation/settings", map[string]any{"schedules": []string{"vn_epi", "who", "vn_epi"},
			"stocked": []string{"mmr", "dtap"}, "reminders": map[string]any{"on": true, "days_before": 3, "channels": []string{"sms", "email"}}, "weight_max_age_days": 14, "version": 0})
		if !slices.Equal(saved.Schedules, []string{"vn_epi", "who"}) || saved.Version != 1 || saved.WeightMaxAgeDays != 14 || !saved.Reminders.On {
			t.Errorf("saved: %+v", saved)
		}
		if r := s.admin.Do("PUT", "/api/immunisation/settings", map[string]any{"schedules": []string{"who"}, "weight_max_age_days": 30, "version": 0}); r.Status != http.StatusConflict {
			t.Errorf("stale version: %d %s", r.Status, r.Body)
		}
		if r := s.doctor.Do("PUT", "/api/immunisation/settings", map[string]any{"schedules": []string{"who"}, "version": 1}); r.Status != http.StatusForbidden {
			t.Errorf("a doctor saves settings: %d", r.Status)
		}
		if n, err := immunisation.WeightMaxAgeDays(t.Context(), db); err != nil || n != 14 {
			t.Errorf("weight max age: %d %v", n, err)
		}
		cat := apitest.Do[struct {
			Vaccines []struct {
				Key        string   `json:"key"`
				Live       bool     `json:"live"`
				Components []string `json:"components"`
			} `json:"vaccines"`
			Sites  []string `json:"sites"`
			Routes []string `json:"routes"`
			Clinic struct {
				Schedules []string `json:"schedules"`
				Stocked   []string `json:"stocked"`
			} `json:"clinic"`
		}](t, s.nurse, http.StatusOK, "GET", "/api/immunisation/catalogue", nil)
		if len(cat.Vaccines) == 0 || len(cat.Sites) != 8 || len(cat.Routes) != 5 || !slices.Equal(cat.Clinic.Stocked, []string{"mmr", "dtap"}) ||
			!slices.Equal(cat.Clinic.Schedules, []string{"vn_epi", "who"}) {
			t.Errorf("catalogue: %+v", cat)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'settings.immunisation'"); n != 1 {
			t.Errorf("settings audited: %d", n)
		}
	})
}

// TestAReactionAfterADoseIsReadAtTheNext: an anaphylaxis recorded after a dose stops every
// vaccine sharing one of its antigens, and the forecast shows those antigens contraindicated; a
// seizure after a pertussis-containing dose warns before the next pertussis dose; a vaccine
// sharing nothing is not stopped (paediatrician's and immunisation nurse's reviews; WHO; ACIP
// General Best Practice Guidelines; QĐ 1575/QĐ-BYT).
func TestAReactionAfterADoseIsReadAtTheNext(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		check := func(t *testing.T, id int64, vaccine string) string {
			t.Helper()
			return codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(id)+"/check", dose(vaccine, day(0))).Findings)
		}
		given := func(t *testing.T, id int64, vaccine string, on string) int64 {
			t.Helper()
			return apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(id),
				map[string]any{"kind": "elsewhere", "vaccine": vaccine, "occurred_on": on, "source": "card"}).ID
		}
		child := s.newPatient(t, "Phúc", "male", "none")
		first := given(t, child, "dtwp_hepb_hib", day(-60))
		apitest.Do[any](t, s.nurse, http.StatusCreated, "POST", fmt.Sprintf("/api/immunisations/%d/reactions", first),
			map[string]any{"onset_on": day(-60), "reaction": "anaphylaxis", "severity": "severe", "serious": true})
		for _, v := range []string{"dtwp_hepb_hib", "dtap_ipv_hib_hepb", "hepb_paed"} {
			if got := check(t, child, v); !strings.Contains(got, "previous_anaphylaxis:stop") {
				t.Errorf("anaphylaxis after the pentavalent, then %s: %s", v, got)
			}
		}
		if got := check(t, child, "bopv"); strings.Contains(got, "previous_anaphylaxis") {
			t.Errorf("oral polio shares no antigen with the pentavalent: %s", got)
		}
		view := apitest.Do[struct {
			Forecast immunisation.Forecast `json:"forecast"`
		}](t, s.doctor, http.StatusOK, "GET", s.path(child), nil)
		for _, r := range view.Forecast.Recommendations {
			if (r.Antigen == "pertussis" || r.Antigen == "hepb") && r.Status != immunisation.StatusContraindicated {
				t.Errorf("after an anaphylaxis %s is %s", r.Antigen, r.Status)
			}
		}

		seized := s.newPatient(t, "Quang", "male", "none")
		dtp := given(t, seized, "dtwp_hepb_hib", day(-60))
		apitest.Do[any](t, s.nurse, http.StatusCreated, "POST", fmt.Sprintf("/api/immunisations/%d/reactions", dtp),
			map[string]any{"onset_on": day(-59), "reaction": "seizure", "severity": "severe", "serious": true, "description": "Febrile seizure"})
		if got := check(t, seized, "dtwp_hepb_hib"); !strings.Contains(got, "previous_reaction:warn") || strings.Contains(got, "previous_anaphylaxis") {
			t.Errorf("a seizure after DTwP, then DTwP again: %s", got)
		}
		if got := check(t, seized, "hepb_paed"); strings.Contains(got, "previous_reaction") {
			t.Errorf("a seizure after DTwP, then hepatitis B alone: %s", got)
		}
	})
}

// TestScreeningIsStoredWithTheDose: the checklist asked before a dose is saved with it, read
// back on the record and audited with it; its answers are judged by the check and on saving
// (a stop is a doctor's to pass); a note (info) needs no reason; the route, when not said, is
// the product's.
func TestScreeningIsStoredWithTheDose(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		type screened struct {
			ID         int64          `json:"id"`
			Route      string         `json:"route"`
			Overridden []string       `json:"overridden"`
			Screening  map[string]any `json:"screening"`
		}
		in := dose("dtap", day(-1), "route", "", "screening", map[string]any{"fever": false, "temperature_c": 36.8, "acute_illness": false, "pregnant": nil})
		rec := apitest.Do[screened](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), in)
		if rec.Route != "IM" || rec.Screening["fever"] != false || rec.Screening["temperature_c"] != 36.8 || rec.Screening["acute_illness"] != false ||
			rec.Screening["pregnant"] != nil || rec.Screening["weight_under_2000g"] != nil {
			t.Errorf("saved: %+v", rec)
		}
		view := apitest.Do[struct{ Records []screened }](t, s.doctor, http.StatusOK, "GET", s.path(s.patientID), nil)
		if len(view.Records) != 1 || view.Records[0].Screening["temperature_c"] != 36.8 || view.Records[0].Screening["fever"] != false {
			t.Errorf("read back: %+v", view.Records)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.create' AND entity_id = $1 AND detail LIKE '%"temperature_c":36.8%'`,
			fmt.Sprint(rec.ID)); n != 1 {
			t.Errorf("screening audited: %d", n)
		}
		// A dose given elsewhere keeps no screening but the baby's weight under 2,000 g.
		other := apitest.Do[screened](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), map[string]any{"kind": "elsewhere", "vaccine": "hepb_paed",
			"occurred_on": s.birth, "source": "card", "screening": map[string]any{"fever": true, "weight_under_2000g": true}})
		if other.Screening["fever"] != nil || other.Screening["weight_under_2000g"] != true {
			t.Errorf("elsewhere's screening: %+v", other)
		}

		// A fever by the temperature: a stop in the check, refused to a nurse's reason, passed by a doctor's.
		feverish := dose("ipv", day(0), "screening", map[string]any{"temperature_c": 38.4})
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", feverish).Findings); got != "screening_fever:stop" {
			t.Errorf("38.4 °C: %s", got)
		}
		feverish["override_reason"] = "Teething, no other illness"
		if r := s.nurse.Do("POST", s.path(s.patientID), feverish); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "override_reason") {
			t.Errorf("a nurse past a fever: %d %s", r.Status, r.Body)
		}
		passed := apitest.Do[screened](t, s.doctor, http.StatusCreated, "POST", s.path(s.patientID), feverish)
		if !slices.Equal(passed.Overridden, []string{"screening_fever"}) {
			t.Errorf("a doctor past a fever: %+v", passed)
		}
		// The check runs before the screening is finished: a fever typed is found at once.
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", map[string]any{"kind": "given", "vaccine": "ipv",
			"occurred_on": day(0), "screening": map[string]any{"temperature_c": 38.6}}).Findings); !strings.Contains(got, "screening_fever:stop") {
			t.Errorf("38.6 °C, the other questions not yet answered: %s", got)
		}
		// A fever is a passing reason (the dose may be deferred for it); a severe reaction before is not.
		for _, f := range apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", map[string]any{"kind": "given", "vaccine": "ipv",
			"occurred_on": day(0), "screening": map[string]any{"temperature_c": 38.6, "previous_severe_reaction": true}}).Findings {
			if want := f.Code == "screening_fever"; (f.Code == "screening_fever" || f.Code == "screening_severe_reaction") && f.Deferrable != want {
				t.Errorf("%s deferrable: %v", f.Code, f.Deferrable)
			}
		}
		// The check asks for neither the lot nor its expiry.
		if r := s.nurse.Do("POST", s.path(s.patientID)+"/check", dose("hib", day(0), "lot", "", "expiry", "")); r.Status != http.StatusOK {
			t.Errorf("check without a lot: %d %s", r.Status, r.Body)
		}

		// A newborn under 2,000 g: BCG stops; the hepatitis B birth dose is a note, saved without a reason.
		s.birth = day(-3)
		small := s.newPatient(t, "Bé", "female", "none")
		light := map[string]any{"weight_under_2000g": true}
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(small)+"/check", dose("bcg", day(0), "screening", light)).Findings); got != "bcg_low_weight:stop" {
			t.Errorf("BCG under 2,000 g: %s", got)
		}
		got := apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(small)+"/check", dose("hepb_paed", day(0), "screening", light)).Findings
		if codes(got) != "hepb_low_weight:info" || !strings.Contains(got[0].Message, "2,000 g") {
			t.Errorf("HepB under 2,000 g: %+v", got)
		}
		birthDose := apitest.Do[screened](t, s.nurse, http.StatusCreated, "POST", s.path(small), dose("hepb_paed", day(0), "screening", light))
		if len(birthDose.Overridden) != 0 || birthDose.Screening["weight_under_2000g"] != true {
			t.Errorf("HepB birth dose under 2,000 g: %+v", birthDose)
		}
	})
}

// TestReactionReportAndEnteredInError: a reaction's onset time, outcome and report day,
// checked; a reaction marked entered in error at its version only (stale: 409), audited, its
// dose versioned, and no longer read by the check.
func TestReactionReportAndEnteredInError(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		given := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), dose("dtap", day(-5)))
		path := fmt.Sprintf("/api/immunisations/%d/reactions", given.ID)
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"onset time not a time", map[string]any{"onset_on": day(-5), "onset_time": "25:00", "reaction": "fever", "severity": "mild"}, "onset_time"},
			{"onset time without minutes", map[string]any{"onset_on": day(-5), "onset_time": "9", "reaction": "fever", "severity": "mild"}, "onset_time"},
			{"unknown outcome", map[string]any{"onset_on": day(-5), "reaction": "fever", "severity": "mild", "outcome": "better"}, "outcome"},
			{"reported before onset", map[string]any{"onset_on": day(-4), "reaction": "fever", "severity": "mild", "reported_on": day(-5)}, "reported_on"},
			{"reported in the future", map[string]any{"onset_on": day(-4), "reaction": "fever", "severity": "mild", "reported_on": day(1)}, "reported_on"},
		} {
			r := s.nurse.Do("POST", path, c.in)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		type reaction struct {
			ID          int64  `json:"id"`
			OnsetTime   string `json:"onset_time"`
			Outcome     string `json:"outcome"`
			ReportedOn  string `json:"reported_on"`
			Status      string `json:"status"`
			ErrorReason string `json:"error_reason"`
			Version     int    `json:"version"`
		}
		x := apitest.Do[reaction](t, s.nurse, http.StatusCreated, "POST", path, map[string]any{"onset_on": day(-5), "onset_time": "14:30", "reaction": "anaphylaxis",
			"severity": "severe", "serious": true, "outcome": "recovered", "reported_on": day(-4), "reported_to": "District health centre"})
		if x.OnsetTime != "14:30" || x.Outcome != "recovered" || x.ReportedOn != day(-4) || x.Version != 1 {
			t.Errorf("reaction: %+v", x)
		}
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", dose("dtap", day(0))).Findings); !strings.Contains(got, "previous_anaphylaxis:stop") {
			t.Fatalf("after the anaphylaxis: %s", got)
		}
		doseVersion := func() int {
			view := apitest.Do[struct{ Records []record }](t, s.nurse, http.StatusOK, "GET", s.path(s.patientID), nil)
			return view.Records[0].Version
		}
		before := doseVersion()

		mark := fmt.Sprintf("/api/immunisation/reactions/%d/entered-in-error", x.ID)
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": " ", "version": x.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("no reason: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Another child's reaction", "version": x.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("stale version: %d %s", r.Status, r.Body)
		}
		if r := s.desk.Do("POST", mark, map[string]any{"reason": "Another child's reaction", "version": x.Version}); r.Status != http.StatusForbidden {
			t.Errorf("a receptionist: %d %s", r.Status, r.Body)
		}
		marked := apitest.Do[reaction](t, s.nurse, http.StatusOK, "POST", mark, map[string]any{"reason": "Another child's reaction", "version": x.Version})
		if marked.Status != "entered_in_error" || marked.ErrorReason != "Another child's reaction" || marked.Version != x.Version+1 {
			t.Errorf("marked: %+v", marked)
		}
		if r := s.nurse.Do("POST", mark, map[string]any{"reason": "Another child's reaction", "version": marked.Version}); r.Status != http.StatusConflict {
			t.Errorf("marked twice: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", "/api/immunisation/reactions/999999/entered-in-error", map[string]any{"reason": "x y z", "version": 1}); r.Status != http.StatusNotFound {
			t.Errorf("no reaction: %d", r.Status)
		}
		if after := doseVersion(); after != before+1 {
			t.Errorf("the dose's version: %d, was %d", after, before)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.reaction_entered_in_error' AND detail LIKE '%Another child%'`); n != 1 {
			t.Errorf("audited: %d", n)
		}
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(s.patientID)+"/check", dose("dtap", day(0))).Findings); strings.Contains(got, "previous_anaphylaxis") {
			t.Errorf("a reaction in error still stops: %s", got)
		}
	})
}

// TestLowWeightHepatitisBIsReadFromTheScreening: a hepatitis B dose given at birth to a baby the
// screening found under 2,000 g does not count — in the chart's forecast, the clinic's due list
// and the check at giving alike (the clinical re-read: the flag was never read from the record).
func TestLowWeightHepatitisBIsReadFromTheScreening(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		var set map[string]any
		s.admin.Do("GET", "/api/immunisation/settings", nil).JSON(t, &set)
		set["schedules"] = []string{"cn_nip"}
		apitest.Do[any](t, s.admin, http.StatusOK, "PUT", "/api/immunisation/settings", set)
		s.birth = day(-20)
		baby := s.newPatient(t, "Xiao", "female", "none")
		yes := true
		apitest.Do[any](t, s.nurse, http.StatusCreated, "POST", s.path(baby), dose("hepb_paed", s.birth, "route", "IM", "site", "right_thigh", "screening", map[string]any{"weight_under_2000g": &yes}))
		view := apitest.Do[struct {
			Forecast immunisation.Forecast `json:"forecast"`
		}](t, s.doctor, http.StatusOK, "GET", s.path(baby), nil)
		low := false
		for _, e := range view.Forecast.Evaluations {
			if e.Antigen == "hepb" && !e.Valid && e.Reason == immunisation.ReasonLowWeight {
				low = true
			}
		}
		for _, r := range view.Forecast.Recommendations {
			if r.Antigen == "hepb" && r.DoseNumber != 1 {
				t.Errorf("hepatitis B after a dose under 2,000 g: dose %d, want 1 again", r.DoseNumber)
			}
		}
		if !low {
			t.Errorf("the birth dose under 2,000 g counted: %+v", view.Forecast.Evaluations)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND antigen = 'hepb' AND dose_number = 1", baby); n != 1 {
			t.Errorf("the due list's hepatitis B row: %d rows at dose 1", n)
		}
		// The birth dose given at the hospital, recorded from the card with the baby's weight: the same.
		born := s.newPatient(t, "Ming", "male", "none")
		apitest.Do[any](t, s.nurse, http.StatusCreated, "POST", s.path(born), map[string]any{"kind": "elsewhere", "vaccine": "hepb_paed", "occurred_on": s.birth,
			"source": "card", "place": "Maternity hospital", "screening": map[string]any{"weight_under_2000g": true}})
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND antigen = 'hepb' AND dose_number = 1", born); n != 1 {
			t.Errorf("a birth dose elsewhere under 2,000 g counted: %d rows at dose 1", n)
		}
	})
}

// TestADeferralIsARecordOfItsOwn: a dose deferred at screening (QĐ 1575/QĐ-BYT's "tạm
// hoãn") keeps the screening that found it and a day to come back; the forecast and the due
// list say the dose is deferred and due from that day; the check at giving before it warns.
func TestADeferralIsARecordOfItsOwn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.birth = day(-70) // 10 weeks: the first DTP-containing dose is due
		child := s.newPatient(t, "Lan", "female", "none")
		type rec struct {
			ID        int64          `json:"id"`
			Kind      string         `json:"kind"`
			UntilOn   string         `json:"until_on"`
			Antigen   string         `json:"antigen"`
			Screening map[string]any `json:"screening"`
		}
		saved := apitest.Do[rec](t, s.nurse, http.StatusCreated, "POST", s.path(child), map[string]any{"kind": "deferred", "vaccine": "dtwp_hepb_hib",
			"occurred_on": day(0), "until_on": day(7), "reason": "Fever 38.6 °C", "screening": map[string]any{"temperature_c": 38.6, "acute_illness": true}})
		if saved.Kind != "deferred" || saved.UntilOn != day(7) || saved.Screening["temperature_c"] != 38.6 || saved.Screening["acute_illness"] != true ||
			saved.Screening["fever"] != true { // the temperature answers the fever question left unanswered
			t.Fatalf("saved: %+v", saved)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.create' AND detail LIKE $1`, "deferred dtwp_hepb_hib; until "+day(7)+"; reason: Fever 38.6%"); n != 1 {
			t.Errorf("the deferral audited with its day and reason: %d", n)
		}
		var got map[string]any
		r := s.doctor.Do("GET", s.path(child), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("read: %d %s", r.Status, r.Body)
		}
		if err := json.Unmarshal(r.Body, &got); err != nil {
			t.Fatal(err)
		}
		recs := got["forecast"].(map[string]any)["recommendations"].([]any)
		seen := 0
		for _, x := range recs {
			m := x.(map[string]any)
			switch m["antigen"] {
			case "diphtheria", "pertussis", "hib", "hepb":
				seen++
				if m["status"] != "deferred" || m["due_on"] != day(7) {
					t.Errorf("%s: %v", m["antigen"], m)
				}
			}
		}
		if seen != 4 {
			t.Errorf("deferred antigens: %d in %v", seen, recs)
		}
		// The same deferral again adds nothing: refused; a later day to come back extends it.
		again := map[string]any{"kind": "deferred", "vaccine": "dtwp_hepb_hib", "occurred_on": day(0), "until_on": day(7), "reason": "Fever 38.6 °C"}
		if r := s.nurse.Do("POST", s.path(child), again); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "until_on") {
			t.Errorf("the same deferral twice: %d %s", r.Status, r.Body)
		}
		// The check before the day to come back warns, with the reason.
		fs := apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(child)+"/check", dose("dtwp_hepb_hib", day(0))).Findings
		if c := codes(fs); !strings.Contains(c, "deferred:warn") || !strings.Contains(fs[0].Message+fs[len(fs)-1].Message, "Fever 38.6") {
			t.Errorf("check before the day: %+v", fs)
		}
		// A vaccine sharing none of its antigens is not concerned.
		if c := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(child)+"/check", dose("rv1", day(0))).Findings); strings.Contains(c, "deferred") {
			t.Errorf("rotavirus checked against a DTP deferral: %s", c)
		}
		// The due list holds the child from the day to come back.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND antigen = 'diphtheria' AND due_on = $2`, child, day(7)); n != 1 {
			t.Errorf("due row on the day to come back: %d", n)
		}
		// A fever with a contraindication beside it: every vaccine may still be deferred (the
		// contraindication is the doctor's to record); the one vaccine may not.
		both := map[string]any{"temperature_c": 38.6, "previous_severe_reaction": true}
		if r := s.nurse.Do("POST", s.path(child), map[string]any{"kind": "deferred", "vaccine": "ipv", "occurred_on": day(0), "until_on": day(6),
			"reason": "Fever", "screening": both}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("one vaccine deferred over a contraindication: %d %s", r.Status, r.Body)
		}
		apitest.Do[rec](t, s.nurse, http.StatusCreated, "POST", s.path(child), map[string]any{"kind": "deferred", "occurred_on": day(0), "until_on": day(9),
			"reason": "Fever", "screening": both})
		// Every vaccine deferred to day 9: one vaccine to day 8 adds nothing.
		if r := s.nurse.Do("POST", s.path(child), map[string]any{"kind": "deferred", "vaccine": "ipv", "occurred_on": day(0), "until_on": day(8),
			"reason": "Fever"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a deferral inside one of every vaccine: %d %s", r.Status, r.Body)
		}
		// A deferral of every vaccine (the child unwell): every due antigen is deferred, and any
		// vaccine warns before the day to come back.
		other := s.newPatient(t, "Mai", "female", "none")
		apitest.Do[rec](t, s.nurse, http.StatusCreated, "POST", s.path(other), map[string]any{"kind": "deferred", "occurred_on": day(0), "until_on": day(5),
			"reason": "Bronchiolitis", "screening": map[string]any{"acute_illness": true}})
		r = s.doctor.Do("GET", s.path(other), nil)
		var all map[string]any
		if err := json.Unmarshal(r.Body, &all); err != nil {
			t.Fatal(err)
		}
		for _, x := range all["forecast"].(map[string]any)["recommendations"].([]any) {
			m := x.(map[string]any)
			if m["status"] == "due" || m["status"] == "overdue" {
				t.Errorf("%s still %s under a deferral of every vaccine", m["antigen"], m["status"])
			}
		}
		if c := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(other)+"/check", dose("rv1", day(0))).Findings); !strings.Contains(c, "deferred:warn") {
			t.Errorf("rotavirus under a deferral of every vaccine: %s", c)
		}
	})
}

// TestAReactionIsFollowedUp: the report's day and to whom, and the outcome, added to a saved
// reaction at its version (stale: 409); checked as at recording; a report's day or outcome is
// changed, never cleared; nothing changed writes nothing; audited with what it was; its dose
// versioned; a receptionist may not.
func TestAReactionIsFollowedUp(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		given := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), dose("dtap", day(-5)))
		type reaction struct {
			ID         int64  `json:"id"`
			Outcome    string `json:"outcome"`
			ReportedOn string `json:"reported_on"`
			ReportedTo string `json:"reported_to"`
			Version    int    `json:"version"`
		}
		x := apitest.Do[reaction](t, s.nurse, http.StatusCreated, "POST", fmt.Sprintf("/api/immunisations/%d/reactions", given.ID),
			map[string]any{"onset_on": day(-4), "reaction": "seizure", "severity": "severe", "serious": true, "outcome": "recovering"})
		path := fmt.Sprintf("/api/immunisation/reactions/%d/follow-up", x.ID)
		doseVersion := func() int {
			return apitest.Do[struct{ Records []record }](t, s.nurse, http.StatusOK, "GET", s.path(s.patientID), nil).Records[0].Version
		}
		before := doseVersion()
		for _, c := range []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"reported before the onset", map[string]any{"reported_on": day(-5), "outcome": "recovering", "version": x.Version}, "reported_on"},
			{"reported in the future", map[string]any{"reported_on": day(1), "outcome": "recovering", "version": x.Version}, "reported_on"},
			{"not a date", map[string]any{"reported_on": "yesterday", "outcome": "recovering", "version": x.Version}, "reported_on"},
			{"an outcome not on the list", map[string]any{"outcome": "better", "version": x.Version}, "outcome"},
			{"the outcome cleared", map[string]any{"outcome": "", "version": x.Version}, "outcome"},
			{"reported to on two lines", map[string]any{"reported_to": "District\ncentre", "outcome": "recovering", "version": x.Version}, "reported_to"},
		} {
			r := s.nurse.Do("POST", path, c.in)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[c.field]) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if r := s.nurse.Do("POST", path, map[string]any{"reported_on": day(-3), "outcome": "recovered", "version": x.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("stale version: %d %s", r.Status, r.Body)
		}
		if r := s.desk.Do("POST", path, map[string]any{"reported_on": day(-3), "outcome": "recovered", "version": x.Version}); r.Status != http.StatusForbidden {
			t.Errorf("a receptionist: %d %s", r.Status, r.Body)
		}
		if doseVersion() != before {
			t.Fatalf("a refused follow-up changed the dose")
		}
		got := apitest.Do[reaction](t, s.nurse, http.StatusOK, "POST", path, map[string]any{"reported_on": day(-3), "reported_to": "District health centre",
			"outcome": "recovered", "version": x.Version})
		if got.ReportedOn != day(-3) || got.ReportedTo != "District health centre" || got.Outcome != "recovered" || got.Version != x.Version+1 {
			t.Errorf("followed up: %+v", got)
		}
		if doseVersion() != before+1 {
			t.Errorf("the dose's version: %d, was %d", doseVersion(), before)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.reaction_follow_up' AND detail LIKE '%outcome "recovering" → "recovered"%'`); n != 1 {
			t.Errorf("audited with what it was: %d", n)
		}
		// A field left out keeps what the reaction says.
		kept := apitest.Do[reaction](t, s.nurse, http.StatusOK, "POST", path, map[string]any{"outcome": "recovered_with_sequelae", "version": got.Version})
		if kept.ReportedTo != "District health centre" || kept.ReportedOn != day(-3) || kept.Outcome != "recovered_with_sequelae" {
			t.Errorf("a field left out: %+v", kept)
		}
		got = kept
		// The same again writes nothing; the day cannot be taken back.
		same := apitest.Do[reaction](t, s.nurse, http.StatusOK, "POST", path, map[string]any{"reported_on": day(-3), "reported_to": "District health centre",
			"outcome": "recovered_with_sequelae", "version": got.Version})
		if same.Version != got.Version {
			t.Errorf("nothing changed, yet written: %+v", same)
		}
		r := s.nurse.Do("POST", path, map[string]any{"reported_on": "", "version": got.Version})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["reported_on"]) == 0 {
			t.Errorf("the day taken back: %d %s", r.Status, r.Body)
		}
		if r := s.nurse.Do("POST", "/api/immunisation/reactions/999999/follow-up", map[string]any{"version": 1}); r.Status != http.StatusNotFound {
			t.Errorf("no reaction: %d", r.Status)
		}
		// A reaction after a dose entered in error is not followed up.
		second := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), dose("ipv", day(-1)))
		y := apitest.Do[reaction](t, s.nurse, http.StatusCreated, "POST", fmt.Sprintf("/api/immunisations/%d/reactions", second.ID),
			map[string]any{"onset_on": day(-1), "reaction": "fever", "severity": "mild"})
		apitest.Do[any](t, s.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/immunisations/%d/entered-in-error", second.ID), map[string]any{"reason": "Wrong child", "version": second.Version + 1}) // its reaction gave it a version
		if r := s.nurse.Do("POST", fmt.Sprintf("/api/immunisation/reactions/%d/follow-up", y.ID), map[string]any{"outcome": "recovered", "version": y.Version}); r.Status != http.StatusConflict {
			t.Errorf("after a dose in error: %d %s", r.Status, r.Body)
		}
		// A reaction entered in error is not followed up.
		apitest.Do[reaction](t, s.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/immunisation/reactions/%d/entered-in-error", x.ID), map[string]any{"reason": "Wrong child", "version": got.Version})
		if r := s.nurse.Do("POST", path, map[string]any{"reported_on": day(-2), "outcome": "recovered", "version": got.Version + 1}); r.Status != http.StatusConflict {
			t.Errorf("in error: %d %s", r.Status, r.Body)
		}
	})
}

// TestAnAnaphylaxisListsItsVaccineAmongTheAllergies: recording an anaphylaxis may list its
// vaccine among the patient's allergies (severe) in the same transaction, once, audited as a
// patient update; only an anaphylaxis; a nurse may, who may not edit the patient otherwise.
func TestAnAnaphylaxisListsItsVaccineAmongTheAllergies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		given := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(s.patientID), dose("dtap", day(-3)))
		path := fmt.Sprintf("/api/immunisations/%d/reactions", given.ID)
		r := s.nurse.Do("POST", path, map[string]any{"onset_on": day(-3), "reaction": "fever", "severity": "mild", "add_allergy": true})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["add_allergy"]) == 0 {
			t.Errorf("a fever as an allergy: %d %s", r.Status, r.Body)
		}
		type reaction struct {
			AllergyAdded bool `json:"allergy_added"`
		}
		allergies := func() []map[string]any {
			var p map[string]any
			s.doctor.Do("GET", fmt.Sprintf("/api/patients/%d", s.patientID), nil).JSON(t, &p)
			h := p["history"].(map[string]any)
			if h["allergy_status"] != "present" {
				return nil
			}
			var out []map[string]any
			for _, a := range h["allergies"].([]any) {
				out = append(out, a.(map[string]any))
			}
			return out
		}
		x := apitest.Do[reaction](t, s.nurse, http.StatusCreated, "POST", path, map[string]any{"onset_on": day(-3), "onset_time": "10:05",
			"reaction": "anaphylaxis", "severity": "severe", "serious": true, "add_allergy": true})
		if !x.AllergyAdded {
			t.Errorf("not listed: %+v", x)
		}
		list := allergies()
		if len(list) != 1 || list[0]["severity"] != "severe" || list[0]["substance"] == "" || !strings.Contains(list[0]["reaction"].(string), "Anaphylaxis") {
			t.Fatalf("allergies: %v", list)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.update' AND entity_id = $1`, fmt.Sprint(s.patientID)); n != 1 {
			t.Errorf("the patient update audited: %d", n)
		}
		// A second anaphylaxis after the same vaccine lists nothing more, whatever the reader's
		// language (the vaccine is recognised by its name in each).
		s.nurse.SetCookie("language", "vi")
		again := apitest.Do[reaction](t, s.nurse, http.StatusCreated, "POST", path, map[string]any{"onset_on": day(-2), "reaction": "anaphylaxis",
			"severity": "severe", "serious": true, "add_allergy": true})
		s.nurse.SetCookie("language", "en")
		if again.AllergyAdded || len(allergies()) != 1 {
			t.Errorf("listed twice: %+v %v", again, allergies())
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'immunisation.reaction' AND detail LIKE '%listed among the allergies: %'`); n != 1 {
			t.Errorf("the listing audited with its substance: %d", n)
		}

		// Listed in Vietnamese: the check reads it, in any language, with no reaction left to say so.
		s.nurse.SetCookie("language", "vi")
		other := s.newPatient(t, "Lan", "female", "none")
		first := apitest.Do[record](t, s.nurse, http.StatusCreated, "POST", s.path(other), dose("hepb_paed", day(-3)))
		x2 := apitest.Do[struct {
			ID           int64 `json:"id"`
			Version      int   `json:"version"`
			AllergyAdded bool  `json:"allergy_added"`
		}](t, s.nurse, http.StatusCreated, "POST", fmt.Sprintf("/api/immunisations/%d/reactions", first.ID), map[string]any{"onset_on": day(-3),
			"reaction": "anaphylaxis", "severity": "severe", "serious": true, "add_allergy": true})
		s.nurse.SetCookie("language", "en")
		if !x2.AllergyAdded {
			t.Fatalf("not listed in Vietnamese")
		}
		apitest.Do[any](t, s.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/immunisation/reactions/%d/entered-in-error", x2.ID), map[string]any{"reason": "Wrong dose", "version": x2.Version})
		if got := codes(apitest.Do[findings](t, s.nurse, http.StatusOK, "POST", s.path(other)+"/check", dose("hepb_paed", day(0))).Findings); !strings.Contains(got, "component_allergy:stop") {
			t.Errorf("a Vietnamese-named vaccine allergy, checked in English: %s", got)
		}
	})
}
