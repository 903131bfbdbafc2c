package patient_test

import (
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestPatientRules: who may register and change patients, and what a registration is refused
// for, one rule a row; nothing refused is written.
func TestPatientRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		clients := map[string]*apitest.Client{
			"rec":   env.LoggedIn("rec", env.CreateUser("rec", "receptionist")),
			"nurse": env.LoggedIn("nurse", env.CreateUser("nurse", "nurse")),
		}
		with := func(field string, value any) map[string]any {
			p := newPatient("An", "Nguyễn", "1968-03-14", "male", "+84 90 123 4567")
			p[field] = value
			return p
		}
		refused := func(name, field string, value any, message string) apitest.Scenario {
			return apitest.Scenario{Name: name, As: "rec", Method: "POST", Path: "/api/patients", Body: with(field, value), Status: http.StatusUnprocessableEntity, Contains: []string{message}}
		}
		apitest.Run(t, env, clients, []apitest.Scenario{
			{Name: "anonymous may not list patients", Method: "GET", Path: "/api/patients", Status: http.StatusUnauthorized},
			{Name: "a nurse may not register a patient", As: "nurse", Method: "POST", Path: "/api/patients", Body: with("phone", ""), Status: http.StatusForbidden},
			refused("a first name is required", "first_name", " ", `"first_name"`),
			refused("a name of more than 100 characters is refused", "last_name", strings.Repeat("x", 101), `"last_name"`),
			refused("a birth date in the future is refused", "birth_date", "2999-01-01", `"birth_date"`),
			refused("a birth date more than 130 years ago is refused", "birth_date", "1800-01-01", `"birth_date"`),
			refused("a birth date not in year-month-day is refused", "birth_date", "14/03/1968", `"birth_date"`),
			refused("an unknown sex is refused", "sex", "robot", `"sex"`),
			refused("an unknown blood type is refused", "blood_type", "Z+", `"blood_type"`),
			refused("a malformed e-mail is refused", "email", "an@", `"email"`),
			refused("a phone with letters is refused", "phone", "call me", `"phone"`),
			refused("an allergy needs its substance", "history", map[string]any{"allergy_status": "present", "allergies": []map[string]any{{"substance": ""}}}, `"history.allergies.0.substance"`),
			refused("no known allergies with an allergy listed is refused", "history", map[string]any{"allergy_status": "none", "allergies": []map[string]any{{"substance": "penicillin"}}}, `"history.allergy_status"`),
			refused("a NUL byte is refused where it is decoded", "remarks", "a\u0000b", `"remarks"`),
			{Name: "an unknown patient is not found", As: "rec", Method: "GET", Path: "/api/patients/999999", Status: http.StatusNotFound},
			{Name: "archiving needs a reason", As: "rec", Method: "POST", Path: "/api/patients/999999/archive", Body: map[string]any{"reason": " "}, Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
		})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); n != 0 {
			t.Errorf("refused registrations wrote %d patients", n)
		}
	})
}
