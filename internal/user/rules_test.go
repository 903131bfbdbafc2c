package user_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestAccountRules: who may manage accounts and emergency access, and what is refused, one
// rule a row; nothing refused changes an account or reaches the audit log as done.
func TestAccountRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		clients := map[string]*apitest.Client{
			"admin": env.LoggedIn("admin", env.CreateUser("admin", "admin")),
			"rec":   env.LoggedIn("rec", env.CreateUser("rec", "receptionist")),
		}
		env.CreateUser("boss", "admin")
		rec, boss, admin := env.UserID("rec"), env.UserID("boss"), env.UserID("admin")
		grant := map[string]any{"permissions": []string{"view patient"}, "hours": 2, "reason": "night shift"}
		newUser := func(fields map[string]any) map[string]any {
			u := map[string]any{"username": "mai", "name": "Mai Tran", "roles": []string{"nurse"}, "password": "lantern orchard 7 glacier"}
			for k, v := range fields {
				u[k] = v
			}
			return u
		}
		apitest.Run(t, env, clients, []apitest.Scenario{
			{Name: "anonymous may not list accounts", Method: "GET", Path: "/api/users", Status: http.StatusUnauthorized},
			{Name: "a receptionist may not list accounts", As: "rec", Method: "GET", Path: "/api/users", Status: http.StatusForbidden},
			{Name: "a receptionist may not create an account", As: "rec", Method: "POST", Path: "/api/users", Body: newUser(nil), Status: http.StatusForbidden},
			{Name: "an account needs a role", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"roles": []string{}}), Status: http.StatusUnprocessableEntity, Contains: []string{`"roles"`}},
			{Name: "an unknown role is refused", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"roles": []string{"pilot"}}), Status: http.StatusUnprocessableEntity},
			{Name: "a malformed e-mail is refused", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"email": "mai@"}), Status: http.StatusUnprocessableEntity, Contains: []string{`"email"`}},
			{Name: "a guessable password is refused", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"password": "password1234"}), Status: http.StatusUnprocessableEntity, Contains: []string{`"password"`}},
			{Name: "a password holding the name is refused", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"password": "tran lantern orchard 7 glacier"}), Status: http.StatusUnprocessableEntity, Contains: []string{`"password"`}},
			{Name: "a taken username is a conflict", As: "admin", Method: "POST", Path: "/api/users", Body: newUser(map[string]any{"username": "REC"}), Status: http.StatusConflict},
			{Name: "an unknown account is not found", As: "admin", Method: "GET", Path: "/api/users/999999", Status: http.StatusNotFound},
			{Name: "emergency access needs a reason", As: "admin", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", rec), Body: map[string]any{"permissions": []string{"view patient"}, "hours": 2}, Status: http.StatusUnprocessableEntity, Contains: []string{`"reason"`}},
			{Name: "emergency access lasts 1 to 24 hours", As: "admin", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", rec), Body: map[string]any{"permissions": []string{"view patient"}, "hours": 25, "reason": "x"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"hours"`}},
			{Name: "emergency access gives clinical permissions only", As: "admin", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", rec), Body: map[string]any{"permissions": []string{"manage user"}, "hours": 2, "reason": "x"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"permissions"`}},
			{Name: "nobody grants themselves emergency access", As: "admin", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", admin), Body: grant, Status: http.StatusConflict},
			{Name: "an administrator needs no emergency access", As: "admin", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", boss), Body: grant, Status: http.StatusConflict},
			{Name: "ending emergency access nobody has is a conflict", As: "admin", Method: "DELETE", Path: fmt.Sprintf("/api/users/%d/emergency-access", rec), Status: http.StatusConflict},
			{Name: "a receptionist may not grant emergency access", As: "rec", Method: "POST", Path: fmt.Sprintf("/api/users/%d/emergency-access", rec), Body: grant, Status: http.StatusForbidden},
		})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM users`); n != 3 {
			t.Errorf("refused creations made accounts: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action LIKE 'emergency.%' OR action = 'user.create'`); n != 0 {
			t.Errorf("refused changes were audited as done: %d events", n)
		}
	})
}
