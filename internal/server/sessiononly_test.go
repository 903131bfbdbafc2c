package server_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/user"
)

// credentialPrefixes are the paths under which accounts, roles and permissions, emergency
// access, API tokens, backend clients, one's own password and second factor are managed.
// Every route under them that changes something must be a browser session's alone: a new
// one added without SessionOnly fails TestCredentialRoutesAreSessionOnly.
var credentialPrefixes = []string{
	"/api/users",
	"/api/roles",
	"/api/permissions",
	"/api/api-tokens",
	"/api/api-clients",
	"/api/profile/api-tokens",
	"/api/profile/password",
	"/api/profile/two-factor",
}

// sessionOnlyElsewhere are the other session-only routes: the profile's e-mail (where
// critical-result escalations are sent) and the signature image (which stands for its holder
// on prescriptions and bills), and the clinic's settings (its public address is the audience
// every backend client's assertion must name, and the link staff are sent by e-mail), and
// the results settings (who an unacknowledged critical result escalates to).
var sessionOnlyElsewhere = []string{
	"PATCH /api/update-profile",
	"PUT /api/profile/signature",
	"GET /api/remove-signature/{id}",
	"PUT /api/settings/clinic",
	"PUT /api/settings/results",
}

// TestCredentialRoutesAreSessionOnly walks the server's route table: every route that
// changes state under a credential path, and every route listed apart, is SessionOnly.
func TestCredentialRoutesAreSessionOnly(t *testing.T) {
	env := apitest.New(t, dbtest.Open(t, dbtest.Engines()[0].URL(t)))
	seen := map[string]bool{}
	for _, rt := range env.Server.Routes {
		key := rt.Method + " " + rt.Path
		changes := (rt.Method != http.MethodGet && rt.Method != http.MethodHead) || rt.ChangesState
		credential := slices.ContainsFunc(credentialPrefixes, func(p string) bool { return rt.Path == p || strings.HasPrefix(rt.Path, p+"/") })
		if credential && changes && !rt.SessionOnly {
			t.Errorf("%s manages credentials or accounts but is not SessionOnly: a token could reach it", key)
		}
		if slices.Contains(sessionOnlyElsewhere, key) {
			seen[key] = true
			if !rt.SessionOnly {
				t.Errorf("%s is not SessionOnly", key)
			}
		}
	}
	for _, key := range sessionOnlyElsewhere {
		if !seen[key] {
			t.Errorf("sessionOnlyElsewhere lists %s, which the server does not serve", key)
		}
	}
}

// TestTokenCannotManageCredentials: an unscoped token of an administrator, or of a doctor,
// has its account's whole access on the native API, except for credentials and accounts:
// it cannot make an heir account, reset a password, change roles, grant emergency access,
// make a token, or take over its own account's password or second factor. Each refusal is a
// 403 that names why and changes nothing; a browser session of the same account still may.
func TestTokenCannotManageCredentials(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		adminPassword := env.CreateUser("so-admin", "admin")
		doctorPassword := env.CreateUser("so-doctor", "doctor")
		admin := env.LoggedIn("so-admin", adminPassword)
		doctor := env.LoggedIn("so-doctor", doctorPassword)
		doctorID := env.UserID("so-doctor")
		bearer := func(username string) *apitest.Client {
			var out struct{ Token string }
			r := admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": env.UserID(username), "name": "script", "current_password": adminPassword})
			if r.Status != http.StatusCreated {
				t.Fatalf("token for %s: %d %s", username, r.Status, r.Body)
			}
			r.JSON(t, &out)
			c := env.Client()
			c.Header.Set("Authorization", "Bearer "+out.Token)
			return c
		}
		adminToken, doctorToken := bearer("so-admin"), bearer("so-doctor")
		var roles struct {
			Version int
			Data    []struct{ ID int64 }
		}
		admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
		var clinic struct{ Version int }
		admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)

		heir := map[string]any{"username": "heir", "name": "Heir", "roles": []string{"admin"}, "password": "seaside-PHONG-kham-7"}
		for _, tc := range []struct {
			name         string
			c            *apitest.Client
			method, path string
			body         any
		}{
			{"an admin's token makes an admin account", adminToken, "POST", "/api/users", heir},
			{"an admin's token resets a password", adminToken, "POST", fmt.Sprintf("/api/users/%d/reset-password", doctorID), map[string]any{}},
			{"an admin's token edits an account's roles", adminToken, "PUT", fmt.Sprintf("/api/users/%d", doctorID), map[string]any{"name": "X", "roles": []string{"admin"}, "active": true}},
			{"an admin's token resets a second factor", adminToken, "POST", fmt.Sprintf("/api/users/%d/two-factor/reset", doctorID), map[string]any{}},
			{"an admin's token grants emergency access", adminToken, "POST", fmt.Sprintf("/api/users/%d/emergency-access", doctorID), map[string]any{"permissions": []string{"view patient"}, "hours": 2, "reason": "x"}},
			{"an admin's token changes the permission matrix", adminToken, "PUT", "/api/roles/matrix", map[string]any{"matrix": map[string][]string{"doctor": {"manage user"}}, "version": roles.Version}},
			{"an admin's token renames a role", adminToken, "PUT", fmt.Sprintf("/api/roles/%d", roles.Data[0].ID), map[string]any{"name": "x", "version": roles.Version}},
			{"an admin's token makes a token", adminToken, "POST", "/api/api-tokens", map[string]any{"user_id": doctorID, "name": "heir", "current_password": adminPassword}},
			{"an admin's token registers a backend client", adminToken, "POST", "/api/api-clients", map[string]any{"name": "heir", "scopes": "system/Patient.rs", "jwks": "{}"}},
			{"an admin's token changes the clinic's public address", adminToken, "PUT", "/api/settings/clinic", map[string]any{"name": "Clinic", "public_url": "https://attacker.example", "version": clinic.Version}},
			{"an admin's token changes who critical results escalate to", adminToken, "PUT", "/api/settings/results", map[string]any{"covering_role": "receptionist", "version": 1}},
			{"a doctor's token sets up a second factor", doctorToken, "POST", "/api/profile/two-factor/setup", map[string]any{}},
			{"a doctor's token confirms a second factor", doctorToken, "POST", "/api/profile/two-factor/confirm", map[string]any{"code": "123456"}},
			{"a doctor's token changes the password", doctorToken, "POST", "/api/profile/password", map[string]any{"current_password": doctorPassword, "new_password": "a quite different passphrase 42"}},
			{"a doctor's token changes the e-mail", doctorToken, "PATCH", "/api/update-profile", map[string]any{"email": "attacker@example.com"}},
			{"an admin's token changes its own password", adminToken, "POST", "/api/profile/password", map[string]any{"current_password": adminPassword, "new_password": "a quite different passphrase 42"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := tc.c.Do(tc.method, tc.path, tc.body)
				if r.Status != http.StatusForbidden {
					t.Fatalf("%d %s, want 403", r.Status, r.Body)
				}
				if msg, code, _ := r.Error(t); code != "auth.session_only" || msg == "" {
					t.Errorf("code %q (%q), want auth.session_only with a message", code, msg)
				}
			})
		}
		if _, err := (&user.Store{DB: db}).IDOf(context.Background(), "heir"); err == nil {
			t.Error("the refused heir account exists")
		}
		// Nothing changed: both tokens are still live (a password or second-factor change
		// would have ended them) and read what their accounts may read.
		for _, tc := range []struct {
			c    *apitest.Client
			path string
		}{{adminToken, "/api/users"}, {adminToken, "/api/roles"}, {doctorToken, "/api/profile/two-factor"}, {doctorToken, "/api/get-profile"}} {
			if r := tc.c.Do("GET", tc.path, nil); r.Status != http.StatusOK {
				t.Errorf("GET %s with a token: %d %s", tc.path, r.Status, r.Body)
			}
		}
		// A browser session of the same accounts still may.
		if r := admin.Do("POST", "/api/users", heir); r.Status != http.StatusCreated {
			t.Errorf("an administrator's session makes an account: %d %s", r.Status, r.Body)
		}
		if r := admin.Do("POST", fmt.Sprintf("/api/users/%d/reset-password", env.UserID("heir")), map[string]any{}); r.Status != http.StatusOK {
			t.Errorf("an administrator's session resets a password: %d %s", r.Status, r.Body)
		}
		if r := doctor.Do("POST", "/api/profile/two-factor/setup", map[string]any{}); r.Status != http.StatusOK {
			t.Errorf("a doctor's session sets up a second factor: %d %s", r.Status, r.Body)
		}
	})
}
