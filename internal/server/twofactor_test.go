package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTwoFactorSignIn: enrol with a code, sign in with password then code (each code once, a
// recovery code once), a role that requires it sends its members to enrol first, and an
// administrator's reset takes it away; on both engines.
func TestTwoFactorSignIn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("tf-admin", env.CreateUser("tf-admin", "admin"))
		pw := env.CreateUser("tf-doctor", "doctor")
		doc := env.LoggedIn("tf-doctor", pw)

		var setup struct {
			Secret string `json:"secret"`
			URL    string `json:"otpauth_url"`
			QR     string `json:"qr"`
		}
		r := doc.Do("POST", "/api/profile/two-factor/setup", nil)
		r.JSON(t, &setup)
		if r.Status != http.StatusOK || setup.Secret == "" || setup.QR == "" {
			t.Fatalf("setup: %d %s", r.Status, r.Body)
		}
		if r := doc.Do("POST", "/api/profile/two-factor/confirm", map[string]string{"code": "000000"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a wrong first code: %d", r.Status)
		}
		now := time.Now()
		first := code(t, setup.Secret, now)
		var confirmed struct {
			RecoveryCodes []string `json:"recovery_codes"`
		}
		r = doc.Do("POST", "/api/profile/two-factor/confirm", map[string]string{"code": first})
		r.JSON(t, &confirmed)
		if r.Status != http.StatusOK || len(confirmed.RecoveryCodes) != 10 {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM user_recovery_codes WHERE code_hash = $1`, confirmed.RecoveryCodes[0]); n != 0 {
			t.Error("a recovery code is stored as itself")
		}
		// The administrators see who signs in with a second factor.
		var accounts struct {
			Data []struct {
				Username  string `json:"username"`
				TwoFactor bool   `json:"two_factor"`
			} `json:"data"`
		}
		admin.Do("GET", "/api/users", nil).JSON(t, &accounts)
		for _, a := range accounts.Data {
			if a.TwoFactor != (a.Username == "tf-doctor") {
				t.Errorf("%s: two-factor %v", a.Username, a.TwoFactor)
			}
		}

		// Sign in: the password alone asks for the code, without counting a failure.
		c := env.Client()
		r = c.Login("tf-doctor", pw)
		if _, code, _ := r.Error(t); r.Status != http.StatusUnauthorized || code != "auth.two_factor_required" {
			t.Fatalf("password only: %d %s", r.Status, code)
		}
		fresh := func() *apitest.Client {
			cl := env.Client()
			cl.Do("GET", "/api/sanctum/csrf-cookie", nil)
			return cl
		}
		login := func(cl *apitest.Client, second string) apitest.Response {
			return cl.Do("POST", "/api/auth/login", map[string]string{"username": "tf-doctor", "password": pw, "code": second})
		}
		if r := login(c, first); r.Status != http.StatusUnauthorized {
			t.Errorf("the code already used to confirm: %d", r.Status)
		}
		next := code(t, setup.Secret, now.Add(30*time.Second))
		if r := login(c, next); r.Status != http.StatusOK {
			t.Fatalf("the next code: %d %s", r.Status, r.Body)
		}
		if r := login(fresh(), next); r.Status != http.StatusUnauthorized {
			t.Errorf("the same code twice: %d", r.Status)
		}
		if r := login(fresh(), confirmed.RecoveryCodes[3]); r.Status != http.StatusOK {
			t.Errorf("a recovery code: %d", r.Status)
		}
		if r := login(fresh(), confirmed.RecoveryCodes[3]); r.Status != http.StatusUnauthorized {
			t.Errorf("a recovery code twice: %d", r.Status)
		}

		// A role that requires it: its members without it may only set it up.
		var list struct {
			Data []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			} `json:"data"`
		}
		admin.Do("GET", "/api/roles", nil).JSON(t, &list)
		var nurseRole int64
		for _, ro := range list.Data {
			if ro.Name == "nurse" {
				nurseRole = ro.ID
			}
		}
		if r := admin.Do("PUT", fmt.Sprintf("/api/roles/%d/two-factor", nurseRole), map[string]bool{"required": true}); r.Status != http.StatusOK {
			t.Fatalf("require for nurses: %d %s", r.Status, r.Body)
		}
		nurse := env.LoggedIn("tf-nurse", env.CreateUser("tf-nurse", "nurse"))
		if r := nurse.Do("GET", "/api/patients", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse without it: %d, want 403", r.Status)
		}
		var me struct {
			MustEnrol bool `json:"must_enrol_two_factor"`
		}
		nurse.Do("GET", "/api/user", nil).JSON(t, &me)
		if !me.MustEnrol {
			t.Error("the nurse is not told to set it up")
		}
		r = nurse.Do("POST", "/api/profile/two-factor/setup", nil)
		r.JSON(t, &setup)
		if r := nurse.Do("POST", "/api/profile/two-factor/confirm", map[string]string{"code": code(t, setup.Secret, time.Now())}); r.Status != http.StatusOK {
			t.Fatalf("the nurse enrols: %d %s", r.Status, r.Body)
		}
		if r := nurse.Do("GET", "/api/patients", nil); r.Status != http.StatusOK {
			t.Errorf("after enrolling: %d", r.Status)
		}

		// An account that signs in with its password only has nothing to reset: refused,
		// saying so, and nothing audited.
		env.CreateUser("tf-plain", "receptionist")
		r = admin.Do("POST", fmt.Sprintf("/api/users/%d/two-factor/reset", env.UserID("tf-plain")), nil)
		if msg, _, _ := r.Error(t); r.Status != http.StatusConflict || !strings.Contains(msg, "password only") {
			t.Errorf("reset of a password-only account: %d %s", r.Status, r.Body)
		}

		// The administrator's reset (a lost phone): the password alone signs in again.
		if r := admin.Do("POST", fmt.Sprintf("/api/users/%d/two-factor/reset", env.UserID("tf-doctor")), nil); r.Status != http.StatusOK {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		if r := env.Client().Login("tf-doctor", pw); r.Status != http.StatusOK {
			t.Errorf("after the reset: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('profile.two_factor_on', 'user.two_factor_reset', 'role.two_factor')`); n != 4 {
			t.Errorf("%d two-factor events audited, want 4", n)
		}
	})
}
