package server_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func TestLoginLogout(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("doctor1", "doctor")
		c := env.Client()

		if r := c.Do("GET", "/api/user", nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("anonymous /api/user: %d", r.Status)
		}
		// The username is trimmed and compared case-insensitively.
		r := c.Login("  Doctor1 \t", pw)
		if r.Status != http.StatusOK {
			t.Fatalf("login: %d %s", r.Status, r.Body)
		}
		var me struct {
			ID          int64    `json:"id"`
			Name        string   `json:"name"`
			Roles       []string `json:"roles"`
			Permissions []string `json:"permissions"`
		}
		c.Do("GET", "/api/user", nil).JSON(t, &me)
		if me.Name != "Test doctor1" || len(me.Roles) != 1 || me.Roles[0] != "doctor" {
			t.Fatalf("me = %+v", me)
		}
		if !contains(me.Permissions, "write prescription") || contains(me.Permissions, "manage user") {
			t.Fatalf("doctor permissions = %v", me.Permissions)
		}
		for _, h := range r.Header.Values("Set-Cookie") {
			if strings.HasPrefix(h, "emr_session=") && (!strings.Contains(h, "HttpOnly") || !strings.Contains(h, "SameSite=Lax")) {
				t.Errorf("session cookie lacks HttpOnly or SameSite=Lax: %s", h)
			}
		}

		// Logout revokes the session on the server: the old cookie no longer works.
		token := c.Cookie("emr_session")
		if r := c.Do("POST", "/api/auth/logout", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout: %d %s", r.Status, r.Body)
		}
		replay := env.Client()
		replay.SetCookie("emr_session", token)
		if r := replay.Do("GET", "/api/user", nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("revoked session still works: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'auth.logout' AND outcome = 'success' AND actor_id = $1`, me.ID); n != 1 {
			t.Errorf("logout audit events = %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'auth.login' AND outcome = 'success' AND actor_id = $1 AND address = '127.0.0.1'`, me.ID); n != 1 {
			t.Errorf("login audit events = %d", n)
		}
	})
}

func TestNewSessionAtEveryLogin(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("nurse1", "nurse")
		c := env.LoggedIn("nurse1", pw)
		first := c.Cookie("emr_session")
		if r := c.Login("nurse1", pw); r.Status != http.StatusOK {
			t.Fatal(r.Status)
		}
		if second := c.Cookie("emr_session"); second == first || second == "" {
			t.Fatal("the session id did not change at login")
		}
		old := env.Client()
		old.SetCookie("emr_session", first)
		if r := old.Do("GET", "/api/user", nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("the session before the second login still works: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM sessions`); n != 1 {
			t.Fatalf("sessions = %d, want 1", n)
		}
	})
}

func TestCSRFRefusedChangesNothing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("rec1", "receptionist")
		c := env.Client()
		c.Do("GET", "/api/sanctum/csrf-cookie", nil)
		c.NoCSRF = true
		r := c.Do("POST", "/api/auth/login", map[string]string{"username": "rec1", "password": pw})
		if r.Status != http.StatusForbidden {
			t.Fatalf("login without CSRF header: %d", r.Status)
		}
		if _, code, _ := r.Error(t); code != "auth.csrf" {
			t.Fatalf("code = %s", code)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM sessions`) + dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events`); n != 0 {
			t.Fatalf("a refused request changed the database (%d rows)", n)
		}

		// A wrong token is refused too, and so is a logout without the header.
		c.NoCSRF = false
		c.Login("rec1", pw)
		c.Header.Set("X-XSRF-TOKEN", "forged")
		if r := c.Do("POST", "/api/auth/logout", nil); r.Status != http.StatusForbidden {
			t.Fatalf("logout with a forged token: %d", r.Status)
		}
		c.Header.Del("X-XSRF-TOKEN")
		if r := c.Do("GET", "/api/user", nil); r.Status != http.StatusOK {
			t.Fatalf("the session did not survive the forged logout: %d", r.Status)
		}
	})
}

func TestLoginThrottling(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("admin1", "admin")
		c := env.Client()
		for i := 1; i <= 5; i++ {
			r := c.Login("admin1", "wrong password")
			if r.Status != http.StatusUnauthorized {
				t.Fatalf("try %d: %d", i, r.Status)
			}
			if _, code, _ := r.Error(t); code != "auth.invalid_credentials" {
				t.Fatalf("code = %s", code)
			}
		}
		// The sixth try is refused, even with the right password.
		r := c.Login("admin1", pw)
		if r.Status != http.StatusTooManyRequests {
			t.Fatalf("sixth try: %d", r.Status)
		}
		secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if err != nil || secs < 1 || secs > 15*60 {
			t.Fatalf("Retry-After = %q", r.Header.Get("Retry-After"))
		}
		if msg, _, _ := r.Error(t); !strings.Contains(msg, strconv.Itoa(secs)) {
			t.Errorf("message %q does not say when to retry", msg)
		}
		// An unknown username is answered exactly like a known one.
		for i := 1; i <= 5; i++ {
			if r := c.Login("nobody", "wrong password"); r.Status != http.StatusUnauthorized {
				t.Fatalf("unknown user try %d: %d", i, r.Status)
			}
		}
		if r := c.Login("nobody", "x"); r.Status != http.StatusTooManyRequests {
			t.Fatalf("unknown user sixth try: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'auth.login' AND outcome = 'failure'`); n != 10 {
			t.Errorf("failed-login audit events = %d, want 10", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'auth.login' AND outcome = 'denied'`); n != 2 {
			t.Errorf("throttled-login audit events = %d, want 2", n)
		}
	})
}

func TestValidationIsTranslated(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		c := env.Client()
		c.Header.Set("Accept-Language", "ru-RU,ru;q=0.9")
		c.Do("GET", "/api/sanctum/csrf-cookie", nil)
		r := c.Do("POST", "/api/auth/login", map[string]string{"username": "   ", "password": ""})
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", r.Status)
		}
		_, _, fields := r.Error(t)
		if got := fields["username"]; len(got) != 1 || got[0] != "Это поле обязательно." {
			t.Fatalf("username errors = %v", got)
		}
		if len(fields["password"]) != 1 {
			t.Fatalf("password errors = %v", fields["password"])
		}
		c.SetCookie("language", "vi")
		r = c.Do("POST", "/api/auth/login", []byte("{not json"))
		if msg, code, _ := r.Error(t); r.Status != 422 || code != "error.bad_json" || !strings.Contains(msg, "tải lại") {
			t.Fatalf("bad JSON: %d %s %s", r.Status, code, msg)
		}
	})
}

func TestSessionsSurviveRestart(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url := e.URL(t)
			db := dbtest.Open(t, url)
			env := apitest.New(t, db)
			pw := env.CreateUser("doc", "doctor")
			c := env.LoggedIn("doc", pw)
			token, csrf := c.Cookie("emr_session"), c.Cookie("XSRF-TOKEN")
			env.HTTP.Close()
			db.Close()

			// A new process on the same data: the account and the session are still there.
			env2 := apitest.New(t, dbtest.Open(t, url))
			c2 := env2.Client()
			c2.SetCookie("emr_session", token)
			c2.SetCookie("XSRF-TOKEN", csrf)
			if r := c2.Do("GET", "/api/user", nil); r.Status != http.StatusOK {
				t.Fatalf("session after restart: %d", r.Status)
			}
			if r := env2.Client().Login("doc", pw); r.Status != http.StatusOK {
				t.Fatalf("login after restart: %d", r.Status)
			}
		})
	}
}

func TestHTTPBasics(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	env := apitest.New(t, db)
	c := env.Client()
	for _, tc := range []struct {
		name, method, path string
		status             int
		ctype, cache       string
	}{
		{"health", "GET", "/api/health", 200, "application/json", "no-store"},
		{"unknown API path", "GET", "/api/nope", 404, "application/json", "no-store"},
		{"wrong method", "DELETE", "/api/health", 405, "application/json", "no-store"},
		{"SPA route falls back to index.html", "GET", "/masterfile/patients", 200, "text/html", "no-cache"},
		{"root", "GET", "/", 200, "text/html", "no-cache"},
		{"hashed asset", "GET", "/assets/app-abc123.js", 200, "text/javascript", "public, max-age=31536000, immutable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.Do(tc.method, tc.path, nil)
			if r.Status != tc.status || !strings.HasPrefix(r.Header.Get("Content-Type"), tc.ctype) || r.Header.Get("Cache-Control") != tc.cache {
				t.Fatalf("%d %q %q", r.Status, r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
			}
			csp := r.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("CSP = %q", csp)
			}
			if r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Referrer-Policy") == "" {
				t.Errorf("missing security headers: %v", r.Header)
			}
		})
	}
	t.Run("precompressed asset", func(t *testing.T) {
		c.Header.Set("Accept-Encoding", "gzip, deflate, br")
		r := c.Do("GET", "/assets/app-abc123.js", nil)
		if r.Header.Get("Content-Encoding") != "gzip" || string(r.Body) != "gzip bytes" {
			t.Fatalf("encoding %q body %q", r.Header.Get("Content-Encoding"), r.Body)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestClientConfigHidesSettingsByDefault(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	for _, show := range []bool{false, true} {
		cfg := apitest.Config()
		cfg.ShowSettings = show
		var got struct {
			ShowSettings bool `json:"show_settings"`
		}
		apitest.NewWith(t, db, cfg).Client().Do("GET", "/api/config", nil).JSON(t, &got)
		if got.ShowSettings != show {
			t.Errorf("show_settings = %v with --show-settings=%v", got.ShowSettings, show)
		}
	}
}

// TestPasswordPolicyOnEveryWayIn: weak, common and personal passwords are refused with the
// reason wherever a password is chosen, and an account whose password predates the policy
// and fails it must change it at its next login.
func TestPasswordPolicyOnEveryWayIn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("policy-admin", env.CreateUser("policy-admin", "admin"))
		for pw, key := range map[string]string{"aaaaaaaaaaaa": "password.guessable", "123456789012": "password.guessable", "password1234": "password.guessable", "drbinh-clinic-2024": "password.personal"} {
			r := admin.Do("POST", "/api/users", map[string]any{"username": "drbinh", "name": "Dr Binh", "roles": []string{"doctor"}, "password": pw})
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["password"]) == 0 {
				t.Errorf("new account with %q (%s): %d %v", pw, key, r.Status, fields)
			}
		}
		// The clinic's name is personal too, accents or not.
		var clinic struct {
			Version int `json:"version"`
		}
		admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)
		if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"version": clinic.Version, "name": "Phòng khám An Bình", "address": "", "phone": ""}); r.Status != http.StatusOK {
			t.Fatalf("clinic: %d %s", r.Status, r.Body)
		}
		r := admin.Do("POST", "/api/users", map[string]any{"username": "drlan", "name": "Dr Lan", "roles": []string{"doctor"}, "password": "seaside-PHONG-kham-7"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["password"]) == 0 {
			t.Errorf("a password with the clinic's name: %d %v", r.Status, fields)
		}
		r = admin.Do("POST", "/api/profile/password", map[string]any{"current_password": "lantern orchard 7 glacier 12", "new_password": "policy-admin-2025"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(fields["new_password"], ""), "name") {
			t.Errorf("own new password with the username: %d %v", r.Status, fields)
		}

		// An account from before the policy, with a password it would refuse.
		env.CreateUser("legacy", "nurse")
		hash, err := auth.HashPassword("123456789012")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(context.Background(), `UPDATE users SET password_hash = $1 WHERE username = 'legacy'`, hash); err != nil {
			t.Fatal(err)
		}
		legacy := env.Client()
		if r := legacy.Login("legacy", "123456789012"); r.Status != http.StatusOK {
			t.Fatalf("legacy login: %d", r.Status)
		}
		var me struct {
			MustChangePassword bool `json:"must_change_password"`
		}
		legacy.Do("GET", "/api/user", nil).JSON(t, &me)
		if !me.MustChangePassword {
			t.Error("a weak old password is not asked to change")
		}
		if r := legacy.Do("GET", "/api/patients", nil); r.Status != http.StatusForbidden {
			t.Errorf("before changing it: %d, want 403", r.Status)
		}
	})
}
