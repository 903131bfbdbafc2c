package role_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type rolesPage struct {
	Data []struct {
		ID          int64
		Name        string
		Permissions []string
		Users       int
	}
	Version int
}

func TestRolesAndTheMatrix(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		if r := admin.Do("POST", "/api/roles", map[string]any{"name": "X"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("one-letter role: %d", r.Status)
		}
		r := admin.Do("POST", "/api/roles", map[string]any{"name": " Pharmacist "})
		var created struct{ ID int64 }
		r.JSON(t, &created)
		if r.Status != http.StatusCreated {
			t.Fatalf("create role: %d %s", r.Status, r.Body)
		}
		if r := admin.Do("POST", "/api/roles", map[string]any{"name": "pharmacist"}); r.Status != http.StatusConflict {
			t.Errorf("same name: %d", r.Status)
		}
		var roles rolesPage
		admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
		if len(roles.Data) != 5 {
			t.Fatalf("roles: %+v", roles)
		}

		// The matrix is saved at once, at the version read; admin keeps everything.
		matrix := map[string][]string{"pharmacist": {"view patient"}, "receptionist": {"view patient", "manage patient", "view appointment"}}
		if r := admin.Do("PUT", "/api/roles/matrix", map[string]any{"matrix": map[string][]string{"admin": {"view patient"}}, "version": roles.Version}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("reducing admin: %d", r.Status)
		}
		if r := admin.Do("PUT", "/api/roles/matrix", map[string]any{"matrix": matrix, "version": roles.Version - 1}); r.Status != http.StatusConflict {
			t.Errorf("stale matrix: %d", r.Status)
		}
		if r := admin.Do("PUT", "/api/roles/matrix", map[string]any{"matrix": matrix, "version": roles.Version}); r.Status != http.StatusOK {
			t.Fatalf("save matrix: %d %s", r.Status, r.Body)
		}
		// The receptionist lost "manage appointment": refused on the next request.
		if r := rec.Do("POST", "/api/appointments", map[string]any{}); r.Status != http.StatusForbidden {
			t.Errorf("receptionist books after losing the permission: %d", r.Status)
		}

		// Rename a custom role, not a seeded one; delete only an unused custom role.
		if r := admin.Do("PUT", fmt.Sprintf("/api/roles/%d", created.ID), map[string]any{"name": "dispensary"}); r.Status != http.StatusNoContent {
			t.Errorf("rename: %d %s", r.Status, r.Body)
		}
		admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
		var doctorID int64
		for _, ro := range roles.Data {
			if ro.Name == "doctor" {
				doctorID = ro.ID
			}
		}
		if r := admin.Do("PUT", fmt.Sprintf("/api/roles/%d", doctorID), map[string]any{"name": "physician"}); r.Status != http.StatusConflict {
			t.Errorf("rename a seeded role: %d", r.Status)
		}
		env.CreateUser("disp", "dispensary")
		if r := admin.Do("DELETE", fmt.Sprintf("/api/roles/%d", created.ID), nil); r.Status != http.StatusConflict {
			t.Errorf("delete a role in use: %d", r.Status)
		}
		if r := admin.Do("DELETE", fmt.Sprintf("/api/roles/%d", doctorID), nil); r.Status != http.StatusConflict {
			t.Errorf("delete a seeded role: %d", r.Status)
		}
		r = admin.Do("POST", "/api/roles", map[string]any{"name": "temp"})
		r.JSON(t, &created)
		if r := admin.Do("DELETE", fmt.Sprintf("/api/roles/%d", created.ID), nil); r.Status != http.StatusNoContent {
			t.Errorf("delete an unused role: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action LIKE 'role.%'`); n != 5 {
			t.Errorf("role audit events: %d", n)
		}
	})
}

// TestRoleRules: who may touch roles, and what is refused, one rule a row.
func TestRoleRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		clients := map[string]*apitest.Client{
			"admin": env.LoggedIn("admin", env.CreateUser("admin", "admin")),
			"rec":   env.LoggedIn("rec", env.CreateUser("rec", "receptionist")),
		}
		var roles rolesPage
		clients["admin"].Do("GET", "/api/roles", nil).JSON(t, &roles)
		doctor := ""
		for _, r := range roles.Data {
			if r.Name == "doctor" {
				doctor = fmt.Sprintf("/api/roles/%d", r.ID)
			}
		}
		apitest.Run(t, env, clients, []apitest.Scenario{
			{Name: "anonymous may not list roles", Method: "GET", Path: "/api/roles", Status: http.StatusUnauthorized},
			{Name: "a receptionist may not create a role", As: "rec", Method: "POST", Path: "/api/roles", Body: map[string]any{"name": "pharmacist"}, Status: http.StatusForbidden},
			{Name: "a receptionist may not change the matrix", As: "rec", Method: "PUT", Path: "/api/roles/matrix", Body: map[string]any{"matrix": map[string][]string{}, "version": roles.Version}, Status: http.StatusForbidden},
			{Name: "a name of one letter is refused", As: "admin", Method: "POST", Path: "/api/roles", Body: map[string]any{"name": "x"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"name"`}},
			{Name: "a name with symbols is refused", As: "admin", Method: "POST", Path: "/api/roles", Body: map[string]any{"name": "ph@rmacist"}, Status: http.StatusUnprocessableEntity, Contains: []string{`"name"`}},
			{Name: "a seeded role's name is taken", As: "admin", Method: "POST", Path: "/api/roles", Body: map[string]any{"name": "Doctor"}, Status: http.StatusConflict},
			{Name: "a matrix without its version changes nothing", As: "admin", Method: "PUT", Path: "/api/roles/matrix", Body: map[string]any{"matrix": map[string][]string{"nurse": {}}}, Status: http.StatusUnprocessableEntity, Contains: []string{`"version"`}},
			{Name: "a matrix with an unknown permission is refused", As: "admin", Method: "PUT", Path: "/api/roles/matrix", Body: map[string]any{"matrix": map[string][]string{"nurse": {"fly"}}, "version": roles.Version}, Status: http.StatusUnprocessableEntity},
			{Name: "a matrix naming an unknown role is refused", As: "admin", Method: "PUT", Path: "/api/roles/matrix", Body: map[string]any{"matrix": map[string][]string{"pilot": {}}, "version": roles.Version}, Status: http.StatusUnprocessableEntity},
			{Name: "the admin role keeps every permission", As: "admin", Method: "PUT", Path: "/api/roles/matrix", Body: map[string]any{"matrix": map[string][]string{"admin": {"view patient"}}, "version": roles.Version}, Status: http.StatusUnprocessableEntity},
			{Name: "a seeded role keeps its name", As: "admin", Method: "PUT", Path: doctor, Body: map[string]any{"name": "physician"}, Status: http.StatusConflict},
			{Name: "a seeded role cannot be deleted", As: "admin", Method: "DELETE", Path: doctor, Status: http.StatusConflict},
			{Name: "an unknown role is not found", As: "admin", Method: "PUT", Path: "/api/roles/999999", Body: map[string]any{"name": "ghost"}, Status: http.StatusNotFound},
			{Name: "two-factor needs its flag", As: "admin", Method: "PUT", Path: doctor + "/two-factor", Body: map[string]any{}, Status: http.StatusUnprocessableEntity, Contains: []string{`"required"`}},
		})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action LIKE 'role.%'`); n != 0 {
			t.Errorf("refused changes were audited as done: %d role events", n)
		}
	})
}
