package server_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func TestPerAddressThrottling(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("victim", "doctor")
		c := env.Client()
		// Many usernames, each under its own limit, from one address.
		for i := range auth.AddressFailureLimit {
			if r := c.Login(fmt.Sprintf("guess%d", i), "wrong"); r.Status != http.StatusUnauthorized {
				t.Fatalf("try %d: %d", i+1, r.Status)
			}
		}
		if r := c.Login("victim", pw); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Fatalf("after %d failures from one address: %d", auth.AddressFailureLimit, r.Status)
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
		if secure != trust {
			t.Errorf("trust proxy %v: Set-Cookie %q", trust, r.Header.Get("Set-Cookie"))
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
	c.Login("loguser", "a-wrong-secret-password")

	logs := buf.String()
	if !strings.Contains(logs, "path=/api/user") || !strings.Contains(logs, "status=200") {
		t.Fatalf("no request line logged:\n%s", logs)
	}
	for _, secret := range []string{pw, "a-wrong-secret-password", "Nguyen", c.Cookie("emr_session")} {
		if strings.Contains(logs, secret) {
			t.Errorf("the request log contains %q:\n%s", secret, logs)
		}
	}
}
