package profile_test

import (
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestProfileRules: what one's own profile and password refuse, as one request each.
func TestProfileRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("doc", "doctor")
		doc := env.LoggedIn("doc", pw)
		current := func(t *testing.T) apitest.Vars {
			p := apitest.Do[profile](t, doc, http.StatusOK, "GET", "/api/get-profile", nil)
			return apitest.Vars{"version": p.Version}
		}
		unchanged := func(t *testing.T, _ apitest.Response, v apitest.Vars) {
			if p := apitest.Do[profile](t, doc, http.StatusOK, "GET", "/api/get-profile", nil); p.Version != v["version"] {
				t.Errorf("a refused update changed the profile: version %d, was %v", p.Version, v["version"])
			}
		}
		apitest.Run(t, env, map[string]*apitest.Client{"doc": doc}, []apitest.Scenario{
			{Name: "an e-mail must be one, and a licence needs its number", As: "doc", Setup: current, Method: "PATCH", Path: "/api/update-profile",
				BodyOf: apitest.AtVersion(0, map[string]any{"email": "not-an-email", "licences": []map[string]string{{"number": "", "valid_until": "2030-01-01"}}}),
				Status: http.StatusUnprocessableEntity, Contains: []string{`"email"`, `"licences`}, After: unchanged},
			{Name: "an update at a stale version is refused", As: "doc", Setup: current, Method: "PATCH", Path: "/api/update-profile",
				BodyOf: apitest.AtVersion(-1, map[string]any{"name": "Stale"}), Status: http.StatusConflict, After: unchanged},
			{Name: "a new password needs the current one", As: "doc", Method: "POST", Path: "/api/profile/password",
				Body: map[string]any{"current_password": "wrong password!!", "new_password": "a new long password"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"current_password"`}},
			{Name: "a new password must be long enough", As: "doc", Method: "POST", Path: "/api/profile/password",
				Body: map[string]any{"current_password": pw, "new_password": "short"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"new_password"`}},
			{Name: "a wrong current password is audited as a failure", As: "doc", Method: "POST", Path: "/api/profile/password",
				Body: map[string]any{"current_password": "wrong again!!", "new_password": "a new long password"}, Status: http.StatusUnprocessableEntity,
				After: func(t *testing.T, _ apitest.Response, _ apitest.Vars) {
					if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'profile.password' AND outcome = 'failure'`); n != 2 {
						t.Errorf("failed password changes audited: %d", n)
					}
				}},
		})
	})
}
