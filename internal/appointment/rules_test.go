package appointment_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestVisitRules: each rule of writing, signing and amending a visit as one request, on a
// visit of its own brought to the state the rule needs.
func TestVisitRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		n := 0
		booked := func(t *testing.T) apitest.Vars {
			n++
			a := c.mustBook(t, fmt.Sprintf("%02d:%02d", 8+n/4, (n%4)*15))
			return apitest.Vars{"appt": a.ID, "version": 0}
		}
		arrived := func(t *testing.T) apitest.Vars {
			v := booked(t)
			apitest.Do[any](t, c.rec, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", v["appt"]), map[string]any{})
			return v
		}
		started := func(t *testing.T) apitest.Vars {
			v := arrived(t)
			apitest.Do[any](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", v["appt"]), map[string]any{})
			return v
		}
		save := func(t *testing.T, v apitest.Vars, primary bool) apitest.Vars {
			w := apitest.Do[visit](t, c.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", v["appt"]),
				map[string]any{"version": v["version"], "chief_complaint": "Sore throat", "diagnoses": []map[string]any{{"code": "J02.9", "primary": primary}}})
			v["version"] = w.Version
			return v
		}
		withVitals := func(t *testing.T) apitest.Vars {
			v := arrived(t)
			w := apitest.Do[visit](t, c.nurse, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", v["appt"]), map[string]any{"version": 0, "vitals": map[string]any{"weight": 70}})
			apitest.Do[any](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", v["appt"]), map[string]any{})
			v["version"] = w.Version
			return v
		}
		drafted := func(t *testing.T) apitest.Vars { return save(t, started(t), false) }
		signed := func(t *testing.T) apitest.Vars {
			v := save(t, started(t), true)
			w := apitest.Do[visit](t, c.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/visit/sign", v["appt"]), map[string]any{"version": v["version"]})
			v["version"] = w.Version
			return v
		}
		content := func(version func(apitest.Vars) any) func(apitest.Vars) any {
			return func(v apitest.Vars) any {
				return map[string]any{"version": version(v), "chief_complaint": "Cough", "diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}}
			}
		}
		read := func(v apitest.Vars) any { return v["version"] }
		stale := func(apitest.Vars) any { return 0 }
		path := "/api/appointments/{appt}/visit"
		clients := map[string]*apitest.Client{"doctor": c.doctor, "nurse": c.nurse, "rec": c.rec}
		apitest.Run(t, c.env, clients, []apitest.Scenario{
			{Name: "a visit is written once it has started, not before", As: "doctor", Setup: booked, Method: "PUT", Path: path, BodyOf: content(read), Status: http.StatusConflict},
			{Name: "vitals out of range are refused, field by field", As: "nurse", Setup: arrived, Method: "PUT", Path: path + "/vitals",
				Body: map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 120, "bp_diastolic": 130, "spo2": 101}}, Status: http.StatusUnprocessableEntity,
				Contains: []string{`"vitals.bp_diastolic"`, `"vitals.spo2"`}, NotContains: []string{`"vitals.bp_systolic"`}},
			{Name: "a nurse writes no diagnosis", As: "nurse", Setup: arrived, Method: "PUT", Path: path, BodyOf: content(read), Status: http.StatusForbidden},
			{Name: "the front desk reads no visit", As: "rec", Setup: arrived, Method: "GET", Path: path, Status: http.StatusForbidden},
			{Name: "a save over the nurse's newer vitals is refused", As: "doctor", Setup: withVitals, Method: "PUT", Path: path, BodyOf: content(stale), Status: http.StatusConflict},
			{Name: "signing needs one primary diagnosis", As: "doctor", Setup: drafted, Method: "POST", Path: path + "/sign",
				BodyOf: apitest.AtVersion(0, nil), Status: http.StatusUnprocessableEntity, Contains: []string{`"diagnoses"`}},
			{Name: "a signed visit is read-only", As: "doctor", Setup: signed, Method: "PUT", Path: path, BodyOf: content(read), Status: http.StatusConflict},
			{Name: "copied vitals say a day no later than the visit's", As: "doctor", Setup: started, Method: "PUT", Path: path,
				BodyOf: func(v apitest.Vars) any {
					return map[string]any{"version": 0, "vitals": map[string]any{"weight": 70}, "vitals_copied_from": "2999-01-01", "diagnoses": []any{}, "orders": []any{}}
				}, Status: http.StatusUnprocessableEntity, Contains: []string{`"vitals_copied_from"`}},
			{Name: "the nurse's measurement clears the copied mark", As: "nurse", Status: http.StatusOK, Method: "PUT", Path: path + "/vitals",
				Setup: func(t *testing.T) apitest.Vars {
					v := started(t)
					w := apitest.Do[visit](t, c.doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", v["appt"]), map[string]any{"version": 0,
						"vitals": map[string]any{"weight": 70}, "vitals_copied_from": "2020-01-01", "diagnoses": []any{}, "orders": []any{}})
					v["version"] = w.Version
					return v
				},
				BodyOf: func(v apitest.Vars) any {
					return map[string]any{"version": v["version"], "vitals": map[string]any{"weight": 71}}
				},
				Contains: []string{`"vitals_copied_from":""`}},
			{Name: "an amendment needs a reason", As: "doctor", Setup: signed, Method: "POST", Path: path + "/amend", BodyOf: content(read), Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
		})
	})
}
