package prescription_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type doseFinding struct {
	Line           int    `json:"line"`
	Key            string `json:"key"`
	Kind           string `json:"kind"`
	RequiresReason bool   `json:"requires_reason"`
	Overridden     bool   `json:"overridden"`
	Source         string `json:"source"`
	Dosing         *struct {
		DoseMg     float64 `json:"dose_mg"`
		MaxDoseMg  float64 `json:"max_dose_mg"`
		MaxDayMg   float64 `json:"max_day_mg"`
		DayMg      float64 `json:"day_mg"`
		WeightKg   float64 `json:"weight_kg"`
		WeightOn   string  `json:"weight_on"`
		WeightDays int     `json:"weight_age_days"`
		LimitDays  int     `json:"limit_days"`
		AgeMonths  int     `json:"age_months"`
		MinMonths  int     `json:"min_age_months"`
	} `json:"dosing"`
}

type doseCheck struct {
	Findings []doseFinding `json:"findings"`
	Weight   *struct {
		Kg         float64 `json:"kg"`
		On         string  `json:"on"`
		AgeDays    int     `json:"age_days"`
		Stale      bool    `json:"stale"`
		MaxAgeDays int     `json:"max_age_days"`
	} `json:"weight"`
	Doses []struct {
		Line     int `json:"line"`
		Strength *struct {
			Mg    float64 `json:"mg"`
			PerML float64 `json:"per_ml"`
		} `json:"strength"`
		Rows []struct {
			Indication string  `json:"indication"`
			MgPerKg    float64 `json:"mg_per_kg"`
			Source     string  `json:"source"`
		} `json:"rows"`
	} `json:"doses"`
}

// slots counts the visits booked for children, each at its own time.
var slots int

// nextSlot is the time of the next child's visit: 20 minutes apart, going forward from two
// hours ahead in the morning and back from now in the afternoon, so no two visits meet.
func nextSlot() time.Time {
	slots++
	step := time.Duration(slots) * 20 * time.Minute
	if time.Now().Hour() >= 12 {
		return time.Now().Add(-step)
	}
	return time.Now().Add(2*time.Hour + step)
}

// child registers a patient born days ago and, when weight > 0, records that weight on a
// visit weighedAgo days ago; it returns the patient and a visit of today to prescribe on.
func (s *setup) child(t *testing.T, db *database.DB, name string, born time.Time, weight float64, weighedAgo int) (patientID, apptID int64) {
	t.Helper()
	var p struct{ ID int64 }
	s.doctor.Do("POST", "/api/patients", map[string]any{"first_name": name, "last_name": "Nguyễn", "birth_date": born.Format(time.DateOnly), "sex": "male",
		"history": map[string]any{"allergy_status": "none"}}).JSON(t, &p)
	saved := s.patientID
	s.patientID = p.ID
	defer func() { s.patientID = saved }()
	// Each visit at a time of its own today: later in the morning, earlier in the evening.
	at := nextSlot()
	apptID = s.book(t, at.UTC())
	if weight > 0 {
		weighed := apptID
		if weighedAgo > 0 {
			weighed = s.book(t, nextSlot().UTC())
		}
		apitest.Do[any](t, s.admin, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", weighed), map[string]any{})
		apitest.Do[any](t, s.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", weighed),
			map[string]any{"version": 0, "vitals": map[string]any{"weight": weight}})
		if weighedAgo > 0 {
			// A visit of weighedAgo days ago: the API books and weighs only from today, so the
			// visit is moved back in the record, as time would have moved it.
			back := at.AddDate(0, 0, -weighedAgo)
			if _, err := db.ExecContext(context.Background(), `UPDATE appointments SET day = $1, starts_at = $2, ends_at = $3 WHERE id = $4`,
				back.Format(time.DateOnly), back.UTC(), back.Add(15*time.Minute).UTC(), weighed); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p.ID, apptID
}

// medicineID finds a starter medicine by its English name and strength.
func (s *setup) strengthID(t *testing.T, q, strength string) int64 {
	t.Helper()
	var list struct {
		Data []struct {
			ID       int64  `json:"id"`
			Strength string `json:"strength"`
		} `json:"data"`
	}
	s.doctor.Do("GET", "/api/medicines?q="+q+"&per_page=50", nil).JSON(t, &list)
	for _, m := range list.Data {
		if m.Strength == strength {
			return m.ID
		}
	}
	t.Fatalf("no %s %s in the catalogue", q, strength)
	return 0
}

func doseKinds(fs []doseFinding) []string {
	out := []string{}
	for _, f := range fs {
		if strings.HasPrefix(f.Kind, "dose_") || strings.HasPrefix(f.Kind, "weight_") {
			out = append(out, f.Kind)
		}
	}
	slices.Sort(out)
	return out
}

// TestDosesByWeight: a child's line is checked against the dose table for the child's age
// and latest recorded weight, through the check and on save, on both engines (issue 59,
// item 6; internal/catalogue/paediatric_doses.tsv).
func TestDosesByWeight(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		today := time.Now()
		twoYears := today.AddDate(-2, 0, -10)
		toddler, toddlerVisit := s.child(t, db, "An", twoYears, 12, 0)
		stale, _ := s.child(t, db, "Bình", twoYears, 12, 45)
		unweighed, _ := s.child(t, db, "Chi", twoYears, 0, 0)
		newborn, _ := s.child(t, db, "Dũng", today.AddDate(0, 0, -28), 4.2, 0)
		infant, _ := s.child(t, db, "Giang", today.AddDate(0, -3, -5), 0, 0)
		syrup := s.strengthID(t, "paracetamol", "120 mg/5 mL")
		paraTab := s.strengthID(t, "paracetamol", "500 mg")
		ibuTab := s.strengthID(t, "ibuprofen", "400 mg")
		predTab := s.strengthID(t, "prednisolone", "5 mg")
		amoxCap := s.strengthID(t, "amoxicillin", "500 mg")
		ibuSyrup := s.strengthID(t, "ibuprofen", "100 mg/5 mL")
		line := func(id int64, dose, freq string, byWeight map[string]any) map[string]any {
			it := map[string]any{"medicine_id": id, "medicine": "syrup", "dose": dose, "route": "oral", "frequency": freq, "duration": "3 days", "quantity": "100"}
			if byWeight != nil {
				it["by_weight"] = byWeight
			}
			return it
		}
		typed := func(medicine, dose, freq string) map[string]any {
			return map[string]any{"medicine": medicine, "dose": dose, "route": "oral", "frequency": freq, "duration": "3 days", "quantity": "100"}
		}
		perKg := func(mgPerKg, doseMg float64, perDay int) map[string]any {
			return map[string]any{"mg_per_kg": mgPerKg, "dose_mg": doseMg, "doses_per_day": perDay}
		}
		for _, c := range []struct {
			name    string
			patient int64
			item    map[string]any
			want    []string
		}{
			{"15 mg/kg paracetamol for 12 kg is 180 mg: within the table", toddler, line(syrup, "7.5 mL", "4 times a day", perKg(15, 180, 4)), []string{}},
			{"25 mg/kg is 300 mg: above the most a dose holds (180 mg)", toddler, line(syrup, "12.5 mL", "4 times a day", perKg(25, 300, 4)), []string{"dose_above_max"}},
			{"180 mg six times a day is 1080 mg: above the day's 720 mg", toddler, line(syrup, "7.5 mL", "every 4 hours", perKg(15, 180, 6)), []string{"dose_above_daily_max"}},
			{"a plain dose in mL is read through the syrup's strength: 12.5 mL is 300 mg", toddler, line(syrup, "12.5 mL", "3 times a day", nil), []string{"dose_above_max"}},
			{"a plain dose within the table needs nothing", toddler, line(syrup, "5 mL", "3 times a day", nil), []string{}},
			{"a weight 45 days old, for a dose by weight, is stale", stale, line(syrup, "7.5 mL", "4 times a day", perKg(15, 180, 4)), []string{"weight_stale"}},
			{"a plain dose with a stale weight: the weight is stale (300 mg is within the 1 g of any weight)", stale, line(syrup, "12.5 mL", "3 times a day", nil), []string{"weight_stale"}},
			{"a plain dose with a stale weight is still checked against the most of any weight", stale, line(syrup, "50 mL", "3 times a day", nil), []string{"dose_above_max", "weight_stale"}},
			// A dose written as a count of tablets or capsules: the count times the strength.
			{"2 tablets of paracetamol 500 mg is 1000 mg", toddler, line(paraTab, "2 tablets", "4 times a day", nil), []string{"dose_above_max"}},
			{"1 tablet of ibuprofen 400 mg three times a day is 400 mg", toddler, line(ibuTab, "1 tablet", "3 times a day", nil), []string{"dose_above_max"}},
			{"8 tablets of prednisolone 5 mg is 40 mg", toddler, line(predTab, "8 tablets", "once a day", nil), []string{"dose_above_max"}},
			{"1 capsule of amoxicillin 500 mg three times a day is 1500 mg a day (the most a dose, for pneumonia, 540 mg)", toddler, line(amoxCap, "1 capsule", "3 times a day", nil), []string{"dose_above_daily_max"}},
			{"½ tablet of paracetamol 500 mg is 250 mg", toddler, line(paraTab, "½ tablet", "3 times a day", nil), []string{"dose_above_max"}},
			{"1/2 tablet of paracetamol 500 mg is 250 mg", toddler, line(paraTab, "1/2 tablet", "3 times a day", nil), []string{"dose_above_max"}},
			{"«2 таб.» in Russian is read as 2 tablets", toddler, line(paraTab, "2 таб.", "4 раза в день", nil), []string{"dose_above_max"}},
			{"2 tablets of prednisolone 5 mg is 10 mg, within the table", toddler, line(predTab, "2 tablets", "once a day", nil), []string{}},
			{"a dose without a unit cannot be read", toddler, line(paraTab, "300", "3 times a day", nil), []string{"dose_unreadable"}},
			{"a decimal without a unit cannot be read", toddler, line(syrup, "12.5", "3 times a day", nil), []string{"dose_unreadable"}},
			{"words cannot be read", toddler, line(syrup, "a little", "3 times a day", nil), []string{"dose_unreadable"}},
			// A dose written per kg is in mg for the latest weight.
			{"15 mg/kg (an order set's words) for 12 kg is 180 mg: within the table", toddler, line(syrup, "15 mg/kg (max 1000 mg)", "4 times a day", nil), []string{}},
			{"25 mg/kg for 12 kg is 300 mg: above the most a dose holds", toddler, line(syrup, "25 mg/kg", "4 times a day", nil), []string{"dose_above_max"}},
			{"mg/kg for a child never weighed: the weight is missing", unweighed, line(syrup, "15 mg/kg", "4 times a day", nil), []string{"weight_missing"}},
			// What prints is checked, not the box's numbers.
			{"12.5 mL printed, the box saying 180 mg: 300 mg is above the most, and the two disagree", toddler, line(syrup, "12.5 mL", "4 times a day", perKg(15, 180, 4)), []string{"dose_above_max", "dose_mismatch"}},
			{"every 4 hours printed, the box saying 4 a day: six doses a day, and the two disagree", toddler, line(syrup, "7.5 mL", "every 4 hours", perKg(15, 180, 4)), []string{"dose_above_daily_max", "dose_mismatch"}},
			// A child's plain dose with no weight: the weight is missing, the most of any weight still holds.
			{"a plain dose for a child never weighed: weight missing", unweighed, line(syrup, "5 mL", "3 times a day", nil), []string{"weight_missing"}},
			{"2000 mg of paracetamol for a 3-month-old never weighed: above the 1 g of any weight", infant, line(paraTab, "4 tablets", "once a day", nil), []string{"dose_above_max", "weight_missing"}},
			{"a dose by weight without any weight recorded", unweighed, line(syrup, "7.5 mL", "4 times a day", perKg(15, 180, 4)), []string{"weight_missing"}},
			{"a 4-week-old on ibuprofen: under 3 months and 5 kg", newborn, line(ibuSyrup, "2 mL", "3 times a day", nil), []string{"dose_under_min_age", "dose_under_min_weight"}},
			{"an adult needs no weight", s.patientID, line(syrup, "20 mL", "4 times a day", nil), []string{}},
			// A line typed by hand: the strength is read from the name as typed.
			{"typed «Paracetamol syrup 120 mg/5 mL», 12.5 mL is 300 mg: above the most", toddler, typed("Paracetamol syrup 120 mg/5 mL", "12.5 mL", "3 times a day"), []string{"dose_above_max"}},
			{"typed «Paracetamol syrup 120 mg/5 mL», 5 mL is 120 mg: within", toddler, typed("Paracetamol syrup 120 mg/5 mL", "5 mL", "3 times a day"), []string{}},
			{"typed «Парацетамол сироп 250 мг/5 мл», 10 мл is 500 mg: above the most", toddler, typed("Парацетамол сироп 250 мг/5 мл", "10 мл", "3 раза в день"), []string{"dose_above_max"}},
			{"typed without a strength, a dose in mL cannot be read", toddler, typed("Paracetamol syrup", "5 mL", "3 times a day"), []string{"dose_unreadable"}},
			{"typed «Co-amoxiclav 250/62.5 mg/5 mL»: which amount is the amoxicillin cannot be told", toddler, typed("Co-amoxiclav 250/62.5 mg/5 mL", "18 mL", "twice a day"), []string{"dose_unreadable"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				var got doseCheck
				r := s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": c.patient, "items": []any{c.item}})
				if r.Status != http.StatusOK {
					t.Fatalf("check: %d %s", r.Status, r.Body)
				}
				r.JSON(t, &got)
				if k := doseKinds(got.Findings); !slices.Equal(k, c.want) {
					t.Errorf("findings %v, want %v (%s)", k, c.want, r.Body)
				}
				for _, f := range got.Findings {
					if !f.RequiresReason || f.Dosing == nil {
						t.Errorf("%s: %+v", f.Kind, f)
					}
				}
			})
		}

		// What the check tells the editor: the weight, its day, the table's rows and the syrup's strength.
		var got doseCheck
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": stale, "items": []any{line(syrup, "", "", nil)}}).JSON(t, &got)
		if got.Weight == nil || got.Weight.Kg != 12 || got.Weight.AgeDays != 45 || !got.Weight.Stale || got.Weight.MaxAgeDays != 30 {
			t.Errorf("weight: %+v", got.Weight)
		}
		if len(got.Doses) != 1 || got.Doses[0].Strength == nil || got.Doses[0].Strength.Mg != 120 || got.Doses[0].Strength.PerML != 5 ||
			len(got.Doses[0].Rows) != 1 || got.Doses[0].Rows[0].MgPerKg != 15 || got.Doses[0].Rows[0].Source == "" {
			t.Errorf("doses: %+v", got.Doses)
		}
		var adult doseCheck
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": s.patientID, "items": []any{line(syrup, "", "", nil)}}).JSON(t, &adult)
		if len(adult.Doses) != 0 {
			t.Errorf("an adult's line is offered a dose by weight: %+v", adult.Doses)
		}
		var stalef doseCheck
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": stale, "items": []any{line(syrup, "7.5 mL", "", perKg(15, 180, 4))}}).JSON(t, &stalef)
		if len(stalef.Findings) != 1 || stalef.Findings[0].Dosing.WeightDays != 45 || stalef.Findings[0].Dosing.LimitDays != 30 {
			t.Errorf("stale weight: %+v", stalef.Findings)
		}

		// The clinic's limit is its setting: at 60 days the same 45-day-old weight is not stale.
		var set map[string]any
		s.admin.Do("GET", "/api/immunisation/settings", nil).JSON(t, &set)
		set["weight_max_age_days"] = 60
		if r := s.admin.Do("PUT", "/api/immunisation/settings", set); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		var longer doseCheck
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": stale, "items": []any{line(syrup, "7.5 mL", "", perKg(15, 180, 4))}}).JSON(t, &longer)
		if len(longer.Findings) != 0 || longer.Weight == nil || longer.Weight.Stale || longer.Weight.MaxAgeDays != 60 {
			t.Errorf("a 45-day-old weight under a 60-day limit: %+v %+v", longer.Findings, longer.Weight)
		}
		set["weight_max_age_days"], set["version"] = 30, set["version"].(float64)+1
		if r := s.admin.Do("PUT", "/api/immunisation/settings", set); r.Status != http.StatusOK {
			t.Fatalf("settings back: %d %s", r.Status, r.Body)
		}

		// On save: 25 mg/kg is refused without a reason, nothing is written; with one it is
		// kept, the weight it was worked from stamped on the line by the server.
		path := fmt.Sprintf("/api/appointments/%d/prescriptions", toddlerVisit)
		over := line(syrup, "12.5 mL", "4 times a day", map[string]any{"mg_per_kg": 25, "dose_mg": 300, "doses_per_day": 4, "weight_kg": 99, "weight_on": "2000-01-01"})
		r := s.doctor.Do("POST", path, map[string]any{"items": []any{over}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "items.0.override_reason") {
			t.Fatalf("an overdose saved without a reason: %d %s", r.Status, r.Body)
		}
		var list struct{ Data []any }
		s.doctor.Do("GET", path, nil).JSON(t, &list)
		if len(list.Data) != 0 {
			t.Fatalf("a refusal wrote %d prescriptions", len(list.Data))
		}
		over["override_reason"] = "Loading dose, senior paediatrician's advice"
		over["overrides"] = []string{"dose:max:300:12"}
		var saved struct {
			Items []struct {
				Overrides []string `json:"overrides"`
				ByWeight  *struct {
					MgPerKg  float64 `json:"mg_per_kg"`
					DoseMg   float64 `json:"dose_mg"`
					WeightKg float64 `json:"weight_kg"`
					WeightOn string  `json:"weight_on"`
				} `json:"by_weight"`
			} `json:"items"`
			Safety []doseFinding `json:"safety"`
		}
		apitest.Do[any](t, s.doctor, http.StatusCreated, "POST", path, map[string]any{"items": []any{over}})
		var rxs struct {
			Data []struct {
				ID int64 `json:"id"`
			}
		}
		s.doctor.Do("GET", path, nil).JSON(t, &rxs)
		s.doctor.Do("GET", fmt.Sprintf("/api/prescriptions/%d", rxs.Data[0].ID), nil).JSON(t, &saved)
		b := saved.Items[0].ByWeight
		if b == nil || b.MgPerKg != 25 || b.DoseMg != 300 || b.WeightKg != 12 || b.WeightOn != today.Format(time.DateOnly) {
			t.Errorf("the line by weight: %+v", b)
		}
		if !slices.Equal(saved.Items[0].Overrides, []string{"dose:max:300:12"}) {
			t.Errorf("overrides: %v", saved.Items[0].Overrides)
		}

		// A dose by weight that is not a number a person means is refused, in the user's language.
		bad := line(syrup, "7.5 mL", "", map[string]any{"mg_per_kg": -1, "dose_mg": 0, "doses_per_day": 40})
		s.doctor.Header = http.Header{"Accept-Language": {"ru"}}
		r = s.doctor.Do("POST", path, map[string]any{"items": []any{bad}})
		s.doctor.Header = nil
		if body := string(r.Body); r.Status != http.StatusUnprocessableEntity || !strings.Contains(body, "мг/кг") || !strings.Contains(body, "items.0.by_weight.doses_per_day") {
			t.Errorf("bad dose by weight: %d %s", r.Status, r.Body)
		}
	})
}
