package server_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestPerAddressThrottling: many usernames tried from one address throttle that address
// (password spraying), but an account that has signed in from it before still signs in with
// its password: a clinic behind one NAT is not locked out by someone in its waiting room.
func TestPerAddressThrottling(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("victim", "doctor")
		stranger := env.CreateUser("stranger", "nurse")
		c := env.Client()
		if r := c.Login("victim", pw); r.Status != http.StatusOK {
			t.Fatalf("first login: %d", r.Status)
		}
		// Many usernames, each under its own limit, from one address.
		for i := range auth.AddressFailureLimit {
			if r := env.Client().Login(fmt.Sprintf("guess%d", i), "wrong"); r.Status != http.StatusUnauthorized {
				t.Fatalf("try %d: %d", i+1, r.Status)
			}
		}
		if r := env.Client().Login("guess-more", "wrong"); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Errorf("spraying on after %d failures from one address: %d", auth.AddressFailureLimit, r.Status)
		}
		if r := env.Client().Login("stranger", stranger); r.Status != http.StatusTooManyRequests {
			t.Errorf("an account new to the address: %d, want 429", r.Status)
		}
		if r := env.Client().Login("victim", pw); r.Status != http.StatusOK {
			t.Errorf("an account known at the address, right password: %d, want 200", r.Status)
		}
	})
}

// TestThrottleHoldsUnderConcurrency: 60 wrong passwords for one account at once: exactly
// the limit's worth are checked (and audited as failures), every other one is refused.
func TestThrottleHoldsUnderConcurrency(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		env.CreateUser("target", "admin")
		clients := make([]*apitest.Client, 60)
		for i := range clients {
			clients[i] = env.Client()
			clients[i].Do("GET", "/api/sanctum/csrf-cookie", nil)
		}
		var wg sync.WaitGroup
		statuses := make([]int, len(clients))
		for i, c := range clients {
			wg.Go(func() {
				statuses[i] = c.Do("POST", "/api/auth/login", map[string]string{"username": "target", "password": fmt.Sprintf("wrong-%d", i)}).Status
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[http.StatusUnauthorized] != auth.UserFailureLimit || count[http.StatusTooManyRequests] != len(clients)-auth.UserFailureLimit {
			t.Errorf("answers %v: want %d checked, the rest refused", count, auth.UserFailureLimit)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'auth.login' AND outcome = 'failure'`); n != auth.UserFailureLimit {
			t.Errorf("%d passwords checked, want %d", n, auth.UserFailureLimit)
		}
	})
}

func TestSecureCookiesBehindTrustedTLSProxy(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	for _, trust := range []bool{true, false} {
		cfg := apitest.Config()
		cfg.TrustProxy = trust
		env := apitest.NewWith(t, db, cfg)
		c := env.Client()
		c.Header.Set("X-Forwarded-Proto", "https")
		r := c.Do("GET", "/api/sanctum/csrf-cookie", nil)
		secure := strings.Contains(r.Header.Get("Set-Cookie"), "; Secure")
		prefixed := strings.HasPrefix(r.Header.Get("Set-Cookie"), "__Host-XSRF-TOKEN=")
		if secure != trust || prefixed != trust {
			t.Errorf("trust proxy %v: Set-Cookie %q", trust, r.Header.Get("Set-Cookie"))
		}
		if !trust {
			continue
		}
		// Signed in over TLS: the session cookie is __Host- prefixed, Secure, host-only, for
		// every path, and the prefixed CSRF token is the one checked.
		pw := env.CreateUser("tls", "receptionist")
		login := c.Login("tls", pw)
		if login.Status != http.StatusOK {
			t.Fatalf("login over TLS: %d %s", login.Status, login.Body)
		}
		var session string
		for _, line := range login.Header.Values("Set-Cookie") {
			if strings.HasPrefix(line, "__Host-emr_session=") {
				session = line
			}
		}
		if !strings.Contains(session, "; Secure") || !strings.Contains(session, "Path=/") || strings.Contains(session, "Domain=") {
			t.Errorf("the session cookie over TLS: %q", login.Header.Values("Set-Cookie"))
		}
		if r := c.Do("GET", "/api/user", nil); r.Status != http.StatusOK {
			t.Errorf("a request with the prefixed session cookie: %d", r.Status)
		}
		if r := c.Do("POST", "/api/auth/logout", nil); r.Status != http.StatusNoContent && r.Status != http.StatusOK {
			t.Errorf("a state change with the prefixed CSRF cookie: %d %s", r.Status, r.Body)
		}
	}
}

func TestRequestLogsHoldNoSecrets(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })

	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	env := apitest.New(t, db)
	pw := env.CreateUser("loguser", "receptionist")
	c := env.LoggedIn("loguser", pw)
	c.Do("GET", "/api/user?q=Nguyen+Van+A", nil)
	c.Do("GET", "/api/diagnosis-codes?q=J45.909", nil)
	c.Do("GET", "/api/patients/9876543", nil)
	env.Client().Do("GET", "/verify/QX7K-2M9P-DD4R-T8WA", nil)
	c.Login("loguser", "a-wrong-secret-password")

	logs := buf.String()
	if !strings.Contains(logs, `route="GET /api/user"`) || !strings.Contains(logs, `route="GET /api/patients/{id}"`) || !strings.Contains(logs, "status=200") {
		t.Fatalf("no request line logged:\n%s", logs)
	}
	for _, secret := range []string{pw, "a-wrong-secret-password", "Nguyen", c.Cookie("emr_session"), "J45.909", "9876543", "QX7K"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the request log contains %q:\n%s", secret, logs)
		}
	}
}

// TestCSRFTokenIsTheSessions: a logged-in request passes only with its session's token; one
// planted as cookie and header alike (a sibling domain can set cookies) is refused; the token
// changes at login.
func TestCSRFTokenIsTheSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("csrf-user", "receptionist")
		c := env.Client()
		c.Do("GET", "/api/sanctum/csrf-cookie", nil)
		before := c.Cookie("XSRF-TOKEN")
		if r := c.Login("csrf-user", pw); r.Status != http.StatusOK {
			t.Fatalf("login: %d", r.Status)
		}
		own := c.Cookie("XSRF-TOKEN")
		if own == "" || own == before {
			t.Fatalf("the token did not change at login: %q then %q", before, own)
		}
		patient := map[string]any{"first_name": "An", "last_name": "Le", "birth_date": "1990-01-01", "sex": "male"}
		c.SetCookie("XSRF-TOKEN", "planted-token-planted-token")
		if r := c.Do("POST", "/api/patients", patient); r.Status != http.StatusForbidden {
			t.Errorf("a planted token: %d, want 403", r.Status)
		}
		c.SetCookie("XSRF-TOKEN", own)
		if r := c.Do("POST", "/api/patients", patient); r.Status != http.StatusCreated {
			t.Errorf("the session's token: %d %s", r.Status, r.Body)
		}
	})
}
