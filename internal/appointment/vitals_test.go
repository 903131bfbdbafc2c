package appointment_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// flaggedVisit is a visit as the API answers it, with the vitals' flags and bands.
type flaggedVisit struct {
	Version    int                        `json:"version"`
	Vitals     map[string]*float64        `json:"vitals"`
	VitalFlags map[string]json.RawMessage `json:"vital_flags"`
	VitalBands []struct {
		Vital string  `json:"vital"`
		Flag  string  `json:"flag"`
		When  string  `json:"when"`
		Limit float64 `json:"limit"`
		Ages  string  `json:"ages"`
	} `json:"vital_bands"`
}

func (v flaggedVisit) flag(t *testing.T, vital string) (flag, ages string) {
	t.Helper()
	raw, ok := v.VitalFlags[vital]
	if !ok {
		return "", ""
	}
	var f struct{ Flag, Ages string }
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f.Flag, f.Ages
}

// age is how old a patient is on the visit's day: birth = day - years - months - days.
type age struct{ years, months, days int }

// visitDay is the first day from tomorrow whose day of the month is at most 28, so that
// whole months and years back from it are exact dates (a patient born on the 31st has no
// "one month before" in a 30-day month).
func visitDay() time.Time {
	d := time.Now().UTC().AddDate(0, 0, 1)
	for d.Day() > 28 {
		d = d.AddDate(0, 0, 1)
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

// TestVitalFlagsByAge: each measured vital is flagged by the server for the patient's age
// on the visit's day (internal/appointment/vital_bands.tsv), one row per case with its
// source; the flags come back on the nurse's save and on every read of the visit.
func TestVitalFlagsByAge(t *testing.T) {
	type row struct {
		vital string
		value float64
		flag  string // "" when no band bounds the value (nothing is claimed)
		why   string
	}
	cases := []struct {
		name string
		age  age
		rows []row
	}{
		{"newborn, 4 days", age{0, 0, 4}, []row{
			{"heart_rate", 140, "N", "APLS under 1 year 110-160"},
			{"heart_rate", 100, "L", "APLS under 1 year: below 110"},
			{"heart_rate", 55, "LL", "AHA PALS 2020: below 60 needs CPR"},
			{"heart_rate", 170, "H", "APLS under 1 year: above 160"},
			{"respiratory_rate", 59, "N", "WHO IMCI: fast breathing from 60 under 2 months"},
			{"respiratory_rate", 60, "H", "WHO IMCI: 60 or more under 2 months"},
			{"respiratory_rate", 25, "L", "APLS under 1 year: below 30"},
			{"bp_systolic", 58, "L", "AHA PALS 2020: below 60 in a neonate"},
			{"bp_systolic", 75, "", "no high band before 1 year (AAP 2017 starts at 1): not called normal"},
			{"bp_diastolic", 40, "", "no diastolic band before 1 year"},
			{"temperature", 36.4, "L", "WHO 1997: a newborn below 36.5 is hypothermic"},
			{"temperature", 38.0, "HH", "NICE NG143: 38 or more under 3 months is red"},
			{"spo2", 88, "LL", "WHO 2016: a child below 90 needs oxygen"},
			{"spo2", 92, "L", "BTS 2017: below 94"},
			{"spo2", 97, "N", "BTS 2017: 94 or more"},
		}},
		{"1 month", age{0, 1, 0}, []row{
			{"temperature", 38.2, "HH", "NICE NG143: 38 or more under 3 months is red"},
			{"temperature", 35.5, "N", "hypothermia below 35.0 after the newborn month"},
			{"bp_systolic", 68, "L", "AHA PALS 2020: below 70 in an infant"},
		}},
		{"the day before 2 months", age{0, 2, -1}, []row{
			{"respiratory_rate", 55, "N", "WHO IMCI: under 2 months fast breathing is 60 or more"},
		}},
		{"2 months", age{0, 2, 0}, []row{
			{"respiratory_rate", 55, "H", "WHO IMCI: 50 or more at 2-11 months"},
			{"respiratory_rate", 49, "N", "WHO IMCI: below 50 at 2-11 months"},
			{"temperature", 38.0, "HH", "NICE NG143: 38 or more under 3 months is red"},
		}},
		{"11 months", age{0, 11, 0}, []row{
			{"heart_rate", 70, "L", "APLS under 1 year: infant bradycardia below 110"},
			{"heart_rate", 58, "LL", "AHA PALS 2020: below 60 needs CPR"},
			{"respiratory_rate", 50, "H", "WHO IMCI: 50 or more at 2-11 months"},
			{"temperature", 38.0, "H", "fever from 38.0 from 3 months"},
		}},
		{"the day before the first birthday", age{1, 0, -1}, []row{
			{"heart_rate", 105, "L", "APLS under 1 year: below 110"},
			{"respiratory_rate", 45, "N", "WHO IMCI: below 50 at 2-11 months"},
		}},
		{"12 months, the first birthday", age{1, 0, 0}, []row{
			{"heart_rate", 105, "N", "APLS 1-2 years: 100-150"},
			{"respiratory_rate", 45, "H", "WHO IMCI: 40 or more from 12 months"},
			{"respiratory_rate", 39, "N", "WHO IMCI: below 40"},
			{"bp_systolic", 85, "N", "a toddler's 85 is usual (AAP 2017, PALS)"},
			{"bp_systolic", 98, "H", "AAP 2017 table 6 at 1 year: 98"},
			{"bp_systolic", 71, "L", "AHA PALS 2020: below 70 + 2 x 1"},
			{"bp_diastolic", 52, "H", "AAP 2017 table 6 at 1 year: 52"},
			{"bp_diastolic", 51, "", "below 52 (AAP 2017), but no low band for a child's diastolic: not called normal"},
		}},
		{"the day after the first birthday", age{1, 0, 1}, []row{
			{"heart_rate", 105, "N", "APLS 1-2 years: 100-150"},
		}},
		{"the day before the fifth birthday", age{5, 0, -1}, []row{
			{"respiratory_rate", 26, "N", "APLS 2-5 years 25-30, WHO IMCI fast from 40"},
			{"heart_rate", 130, "N", "APLS 2-5 years: 95-140"},
		}},
		{"5 years", age{5, 0, 0}, []row{
			{"respiratory_rate", 26, "H", "APLS 5-12 years: above 25"},
			{"heart_rate", 130, "H", "APLS 5-12 years: above 120"},
			{"bp_systolic", 103, "H", "AAP 2017 table 6 at 5 years: 103"},
			{"bp_systolic", 79, "L", "AHA PALS 2020: below 70 + 2 x 5"},
		}},
		{"10 years", age{10, 0, 0}, []row{
			{"bp_systolic", 89, "L", "AHA PALS 2020: below 90 at 10 years"},
			{"bp_systolic", 108, "H", "AAP 2017 table 6 at 10 years: 108"},
			{"bp_diastolic", 72, "H", "AAP 2017 table 6 at 10 years: 72"},
			{"heart_rate", 75, "L", "APLS 5-12 years: below 80"},
			{"heart_rate", 59, "LL", "AHA PALS 2020: below 60 needs CPR"},
			{"bp_systolic", 139, "H", "AAP 2017: above table 6, below 140"},
			{"bp_systolic", 160, "HH", "AAP 2017: 140/90 or more, evaluation the same day"},
			{"bp_diastolic", 90, "HH", "AAP 2017: 140/90 or more, evaluation the same day"},
		}},
		{"17 years 364 days", age{18, 0, -1}, []row{
			{"bp_systolic", 125, "H", "AAP 2017: 120/80 from 13 years"},
			{"bp_systolic", 159, "H", "AAP 2017: below the 95th centile (130) + 30"},
			{"bp_systolic", 160, "HH", "AAP 2017: the 95th centile (130/80) + 30 mmHg"},
			{"bp_diastolic", 110, "HH", "AAP 2017: the 95th centile (130/80) + 30 mmHg"},
			{"heart_rate", 55, "L", "APLS over 12 years: below 60"},
			{"respiratory_rate", 21, "H", "APLS over 12 years: above 20"},
		}},
		{"18 years", age{18, 0, 0}, []row{
			{"bp_systolic", 125, "N", "ESH 2023: below 140"},
			{"bp_systolic", 140, "H", "ESH 2023: 140 or more"},
			{"bp_systolic", 180, "HH", "ESH 2023 grade 3: 180 or more"},
			{"bp_diastolic", 109, "H", "ESH 2023: 90 or more"},
			{"bp_diastolic", 110, "HH", "ESH 2023 grade 3: 110 or more"},
			{"heart_rate", 55, "N", "ESC 2021: bradycardia below 50"},
			{"heart_rate", 101, "H", "above 100"},
			{"respiratory_rate", 21, "H", "NEWS2: above 20"},
			{"respiratory_rate", 9, "L", "below 10"},
		}},
		{"80 years", age{80, 0, 0}, []row{
			{"bp_systolic", 200, "HH", "ESH 2023 grade 3 (200/125 is not 142/88)"},
			{"bp_diastolic", 125, "HH", "ESH 2023 grade 3; ACC/AHA 2017 severe"},
			{"bp_systolic", 142, "H", "ESH 2023: 140 or more"},
			{"bp_diastolic", 88, "N", "ESH 2023: below 90"},
			{"bp_systolic", 88, "L", "adult hypotension below 90/60"},
			{"temperature", 38.0, "H", "fever from 38.0"},
			{"temperature", 35.1, "N", "NEWS2: 35.1 scores 1, not severe"},
			{"temperature", 35.0, "LL", "NEWS2: 35.0 or less scores 3"},
			{"temperature", 34.9, "LL", "hypothermia below 35.0, NEWS2 scores 3"},
			{"temperature", 39.9, "H", "fever; not yet 40"},
			{"temperature", 40.5, "HH", "hyperpyrexia from 40.0"},
			{"spo2", 93, "L", "BTS 2017: below 94"},
			{"spo2", 94, "N", "BTS 2017: 94-98"},
			{"spo2", 92, "L", "NEWS2: 92-93 scores 2"},
			{"spo2", 91, "LL", "NEWS2: 91 or less scores 3"},
			{"spo2", 85, "LL", "NEWS2: 91 or less scores 3"},
			{"heart_rate", 49, "L", "ESC 2021: below 50"},
			{"heart_rate", 41, "L", "NEWS2: 41-50 scores 1"},
			{"heart_rate", 40, "LL", "NEWS2: 40 or less scores 3"},
			{"heart_rate", 130, "H", "NEWS2: 111-130 scores 2"},
			{"heart_rate", 140, "HH", "NEWS2: 131 or more scores 3"},
			{"respiratory_rate", 10, "N", "10-20"},
			{"respiratory_rate", 24, "H", "NEWS2: 21-24 scores 2"},
			{"respiratory_rate", 30, "HH", "NEWS2: 25 or more scores 3"},
			{"respiratory_rate", 8, "LL", "NEWS2: 8 or less scores 3"},
			{"weight", 70, "", "weight has no band"},
		}},
	}
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		day := visitDay()
		c.date = day.Format(time.DateOnly)
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				birth := day.AddDate(-tc.age.years, -tc.age.months, -tc.age.days).Format(time.DateOnly)
				p := apitest.Do[struct{ ID int64 }](t, c.rec, http.StatusCreated, "POST", "/api/patients",
					map[string]any{"first_name": fmt.Sprintf("Child%d", i), "last_name": "Trần", "birth_date": birth, "sex": "female"})
				a := apitest.Do[appt](t, c.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": c.doctorID,
					"starts_at": c.at(fmt.Sprintf("%02d:%02d", 8+i/4, (i%4)*15)), "duration_minutes": 15, "type": "new", "reason": "Check"})
				apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
				version := 0
				for _, r := range tc.rows {
					vitals := map[string]any{"bp_systolic": nil, "bp_diastolic": nil, "heart_rate": nil, "respiratory_rate": nil,
						"temperature": nil, "spo2": nil, "weight": nil, "height": nil}
					vitals[r.vital] = r.value
					w := apitest.Do[flaggedVisit](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID),
						map[string]any{"version": version, "vitals": vitals})
					version = w.Version
					if got, ages := w.flag(t, r.vital); got != r.flag || (got != "" && ages == "") {
						t.Errorf("%s %v (born %s): flag %q for ages %q, want %q (%s)", r.vital, r.value, birth, got, ages, r.flag, r.why)
					}
				}
				// A read of the visit says the same, and carries the age's bands for the form.
				w := apitest.Do[flaggedVisit](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/visit", a.ID), nil)
				last := tc.rows[len(tc.rows)-1]
				if got, _ := w.flag(t, last.vital); got != last.flag {
					t.Errorf("read: %s flag %q, want %q", last.vital, got, last.flag)
				}
				if len(w.VitalBands) == 0 {
					t.Errorf("read: no bands for the age")
				}
			})
		}
	})
}

// TestVitalFlagsAreReadWhereVitalsAre: the vitals trend and a visit read in Russian carry
// the flags, with the age band named in the reader's language.
func TestVitalFlagsAreReadWhereVitalsAre(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		a := c.mustBook(t, "09:00")
		apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
		apitest.Do[any](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID),
			map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 200, "bp_diastolic": 125, "heart_rate": 72}})
		var list struct {
			Data []struct {
				Flags map[string]struct{ Flag, Ages string } `json:"flags"`
			} `json:"data"`
		}
		c.doctor.Do("GET", fmt.Sprintf("/api/patients/%d/vitals", c.patientID), nil).JSON(t, &list)
		if len(list.Data) != 1 || list.Data[0].Flags["bp_systolic"].Flag != "HH" || list.Data[0].Flags["heart_rate"].Flag != "N" {
			t.Fatalf("vitals list: %+v", list)
		}
		c.doctor.SetCookie("language", "ru")
		w := apitest.Do[flaggedVisit](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/visit", a.ID), nil)
		if f, ages := w.flag(t, "bp_diastolic"); f != "HH" || ages != "18 лет и старше" {
			t.Errorf("visit in Russian: %q %q", f, ages)
		}
	})
}

// TestVisitSaveKeepsWhatItDoesNotSend: a field a save leaves out (or sends as null) keeps
// what is stored — the nurse's vitals on the doctor's save above all; a measurement sent as
// null is erased, an empty list clears the list.
func TestVisitSaveKeepsWhatItDoesNotSend(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		n := 0
		// measured: the nurse has recorded 150/95, 88/min and 70 kg; the doctor has started
		// the visit and written a complaint, a diagnosis, a test, a plan and a follow-up date.
		measured := func(t *testing.T) apitest.Vars {
			n++
			a := c.mustBook(t, fmt.Sprintf("%02d:%02d", 8+n/4, (n%4)*15))
			apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
			apitest.Do[any](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID),
				map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 150, "bp_diastolic": 95, "heart_rate": 88, "weight": 70}})
			apitest.Do[any](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
			w := apitest.Do[visit](t, c.doctor, http.StatusOK, "GET", fmt.Sprintf("/api/appointments/%d/visit", a.ID), nil)
			follow := time.Now().UTC().AddDate(0, 0, 20).Format(time.DateOnly)
			w = apitest.Do[visit](t, c.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": w.Version,
				"chief_complaint": "Sore throat", "examination": "Red pharynx", "plan": "Rest", "follow_up_date": follow,
				"diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}, "orders": []map[string]any{{"code": "CBC"}}})
			return apitest.Vars{"appt": a.ID, "version": w.Version}
		}
		signed := func(t *testing.T) apitest.Vars {
			v := measured(t)
			w := apitest.Do[visit](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/visit/sign", v["appt"]), map[string]any{"version": v["version"]})
			v["version"] = w.Version
			return v
		}
		vitalsKept := []string{`"bp_systolic":150`, `"bp_diastolic":95`, `"heart_rate":88`, `"weight":70`}
		restKept := []string{`"chief_complaint":"Sore throat"`, `"examination":"Red pharynx"`, `"code":"J02.9"`, `"code":"CBC"`, `"plan":"Rest"`}
		path := "/api/appointments/{appt}/visit"
		clients := map[string]*apitest.Client{"doctor": c.doctor, "nurse": c.nurse}
		apitest.Run(t, c.env, clients, []apitest.Scenario{
			{Name: "a doctor's save without vitals keeps the nurse's vitals", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"chief_complaint": "Cough"}), Status: http.StatusOK,
				Contains: append([]string{`"chief_complaint":"Cough"`, `"vital_flags":{"bp_diastolic":{"flag":"H"`}, vitalsKept...)},
			{Name: "a save of the plan alone keeps the complaint, examination, diagnoses and tests", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"plan": "Fluids"}), Status: http.StatusOK,
				Contains: append([]string{`"plan":"Fluids"`, `"chief_complaint":"Sore throat"`, `"code":"J02.9"`, `"code":"CBC"`}, vitalsKept...)},
			{Name: "a save with only the version changes nothing it holds", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, nil), Status: http.StatusOK, Contains: append(restKept, vitalsKept...),
				After: func(t *testing.T, r apitest.Response, v apitest.Vars) {
					var w struct {
						FollowUp *struct{ ID int64 } `json:"follow_up"`
					}
					r.JSON(t, &w)
					if w.FollowUp == nil {
						t.Errorf("the follow-up was lost: %s", r.Body)
					}
				}},
			{Name: "lists sent as null are kept", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"diagnoses": nil, "orders": nil, "vitals": nil}), Status: http.StatusOK, Contains: append(restKept, vitalsKept...)},
			{Name: "an empty list clears the diagnoses", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"diagnoses": []any{}}), Status: http.StatusOK, Contains: []string{`"diagnoses":[]`}},
			{Name: "a doctor's correction of one vital keeps the others", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"vitals": map[string]any{"heart_rate": 92}}), Status: http.StatusOK,
				Contains: []string{`"heart_rate":92`, `"bp_systolic":150`, `"weight":70`}},
			{Name: "a measurement sent as null is erased", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"vitals": map[string]any{"weight": nil}}), Status: http.StatusOK,
				Contains: []string{`"weight":null`, `"bp_systolic":150`}},
			{Name: "a vital kept is checked with one sent: diastolic above the kept systolic is refused", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"vitals": map[string]any{"bp_diastolic": 160}}), Status: http.StatusUnprocessableEntity,
				Contains: []string{`"vitals.bp_diastolic"`}},
			{Name: "a vital of the wrong type is refused naming it", As: "doctor", Setup: measured, Method: "PUT", Path: path,
				BodyOf: apitest.AtVersion(0, map[string]any{"vitals": map[string]any{"heart_rate": "fast"}}), Status: http.StatusUnprocessableEntity,
				Contains: []string{`heart_rate`}},
			{Name: "an amendment without vitals keeps them", As: "doctor", Setup: signed, Method: "POST", Path: path + "/amend",
				BodyOf: apitest.AtVersion(0, map[string]any{"reason": "Typo in the complaint", "chief_complaint": "Sore throat, 3 days"}), Status: http.StatusOK,
				Contains: append([]string{`"chief_complaint":"Sore throat, 3 days"`, `"code":"J02.9"`}, vitalsKept...)},
		})
		// The nurse's own route: one measurement sent keeps the others; no vitals is refused.
		arrived := func(t *testing.T) apitest.Vars {
			n++
			a := c.mustBook(t, fmt.Sprintf("%02d:%02d", 8+n/4, (n%4)*15))
			apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})
			w := apitest.Do[visit](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", a.ID),
				map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 150, "bp_diastolic": 95, "heart_rate": 88, "weight": 70}})
			return apitest.Vars{"appt": a.ID, "version": w.Version}
		}
		apitest.Run(t, c.env, clients, []apitest.Scenario{
			{Name: "a nurse's second measurement keeps the first ones", As: "nurse", Setup: arrived, Method: "PUT", Path: path + "/vitals",
				BodyOf: apitest.AtVersion(0, map[string]any{"vitals": map[string]any{"spo2": 97}}), Status: http.StatusOK,
				Contains: append([]string{`"spo2":97`}, vitalsKept...)},
			{Name: "a nurse's save without vitals is refused, naming them", As: "nurse", Setup: arrived, Method: "PUT", Path: path + "/vitals",
				BodyOf: apitest.AtVersion(0, nil), Status: http.StatusUnprocessableEntity, Contains: []string{`"vitals"`}},
		})
	})
}
