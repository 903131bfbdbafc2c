package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/push"
	"emr/internal/secret"
	"emr/internal/settings"
)

func settingsOf(db *database.DB) *settings.Store { return &settings.Store{DB: db} }

// enrol turns two-factor sign-in on for the client's user and returns the secret and the
// recovery codes.
func enrol(t *testing.T, c *apitest.Client) (string, []string) {
	t.Helper()
	var setup struct{ Secret string }
	if r := c.Do("POST", "/api/profile/two-factor/setup", nil); r.Status != http.StatusOK {
		t.Fatalf("setup: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &setup)
	}
	var confirmed struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}
	r := c.Do("POST", "/api/profile/two-factor/confirm", map[string]string{"code": code(t, setup.Secret, time.Now())})
	if r.Status != http.StatusOK {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &confirmed)
	return setup.Secret, confirmed.RecoveryCodes
}

// TestSecretsUnreadableInADump: what a dump of the database holds of a second factor and
// of the push secret opens nothing without the key file: the TOTP secret is sealed (and
// bound to its row), the recovery codes are keyed hashes of 80-bit codes, the push keys
// are sealed.
func TestSecretsUnreadableInADump(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		docPW := env.CreateUser("seal-doc", "doctor")
		doc := env.LoggedIn("seal-doc", docPW)
		totpSecret, codes := enrol(t, doc)

		var stored string
		if err := db.QueryRowContext(context.Background(), `SELECT secret FROM user_totp WHERE user_id = $1`, env.UserID("seal-doc")).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if !secret.IsSealed(stored) || strings.Contains(stored, totpSecret) {
			t.Errorf("the TOTP secret is stored as %q", stored)
		}
		// Moved to another account's row, it does not open: it is bound to its own.
		if _, err := apitest.Secrets.Open(fmt.Sprintf("totp:%d", env.UserID("seal-doc")+1), stored); !errors.Is(err, secret.ErrDamaged) {
			t.Errorf("a sealed secret opens for another user: %v", err)
		}
		if _, err := secret.Ephemeral().Open(fmt.Sprintf("totp:%d", env.UserID("seal-doc")), stored); !errors.Is(err, secret.ErrUnknownKey) {
			t.Errorf("another key file opens the secret: %v", err)
		}

		shape := regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$`)
		seen := map[string]bool{}
		for _, c := range codes {
			if !shape.MatchString(c) || seen[c] {
				t.Errorf("recovery code %q: not 16 base-32 characters (80 bits), or twice", c)
			}
			seen[c] = true
			plain := strings.ReplaceAll(c, "-", "")
			for _, guess := range []string{c, plain, hexSHA("emr recovery\x00" + c), hexSHA(plain)} {
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM user_recovery_codes WHERE code_hash LIKE '%' || $1`, guess); n != 0 {
					t.Errorf("recovery code %s is stored as %s, which a dump alone can test guesses against", c, guess)
				}
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM user_recovery_codes WHERE code_hash LIKE $1`, apitest.Secrets.Current()+":%"); n != 10 {
			t.Errorf("%d recovery codes keyed with the key file's current key, want 10", n)
		}
		// A recovery code typed in capitals, with spaces for dashes, still signs in once.
		c := env.Client()
		c.Do("GET", "/api/sanctum/csrf-cookie", nil)
		typed := strings.ToUpper(strings.ReplaceAll(codes[0], "-", " "))
		if r := c.Do("POST", "/api/auth/login", map[string]string{"username": "seal-doc", "password": docPW, "code": typed}); r.Status != http.StatusOK {
			t.Errorf("a recovery code as typed: %d %s", r.Status, r.Body)
		}

		keys, err := push.LoadKeys(context.Background(), settingsOf(db), apitest.Secrets)
		if err != nil {
			t.Fatal(err)
		}
		var pushRow string
		if err := db.QueryRowContext(context.Background(), `SELECT value FROM settings WHERE key = 'push:keys'`).Scan(&pushRow); err != nil {
			t.Fatal(err)
		}
		if !secret.IsSealed(pushRow) || strings.Contains(pushRow, keys.Secret) {
			t.Errorf("the push keys are stored as %q", pushRow)
		}
	})
}

func hexSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestSecretsStoredBeforeSealingAreSealedAndRotate: a database from before sealing (a plain
// TOTP secret, recovery codes of the first form hashed without a key, plain push keys) is
// sealed by Reseal and keeps working; after a rotation everything is sealed by the new key,
// and recovery codes keyed by the old one still sign in.
func TestSecretsStoredBeforeSealingAreSealedAndRotate(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		env := apitest.New(t, db)
		pw := env.CreateUser("legacy-doc", "doctor")
		id := env.UserID("legacy-doc")
		const plainSecret = "JBSWY3DPEHPK3PXP"
		if _, err := db.ExecContext(ctx, `INSERT INTO user_totp (user_id, secret, created_at, confirmed_at) VALUES ($1, $2, $3, $3)`, id, plainSecret, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		const oldCode = "a1b2c-3d4e5"
		if _, err := db.ExecContext(ctx, `INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, $2)`, id, hexSHA("emr recovery\x00"+oldCode)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ('push:keys', '{"key":"k1","secret":"s3cr3t"}', $1)`, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		ring := apitest.Secrets
		if n, err := auth.Reseal(ctx, db, ring); err != nil || n != 2 {
			t.Fatalf("reseal: %d values, %v", n, err)
		}
		if n, err := settingsOf(db).Reseal(ctx, ring, push.KeysSetting); err != nil || n != 1 {
			t.Fatalf("reseal the settings: %d, %v", n, err)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM user_totp WHERE secret = $1`, plainSecret); n != 0 {
			t.Error("the plain TOTP secret is still stored")
		}
		if k, err := push.LoadKeys(ctx, settingsOf(db), ring); err != nil || k.Secret != "s3cr3t" {
			t.Errorf("the sealed push keys: %+v %v", k, err)
		}
		login := func(second string) int {
			c := env.Client()
			c.Do("GET", "/api/sanctum/csrf-cookie", nil)
			return c.Do("POST", "/api/auth/login", map[string]string{"username": "legacy-doc", "password": pw, "code": second}).Status
		}
		if s := login(code(t, plainSecret, time.Now())); s != http.StatusOK {
			t.Errorf("the sealed TOTP secret's code: %d", s)
		}
		old := ring.Current()
		if err := ring.Rotate(); err != nil {
			t.Fatal(err)
		}
		if n, err := auth.Reseal(ctx, db, ring); err != nil || n != 1 {
			t.Fatalf("reseal after the rotation: %d values, %v", n, err)
		}
		var stored string
		if err := db.QueryRowContext(ctx, `SELECT secret FROM user_totp WHERE user_id = $1`, id).Scan(&stored); err != nil || secret.SealedBy(stored) != ring.Current() || ring.Current() == old {
			t.Errorf("after the rotation the secret is sealed by %q (current %s, was %s)", secret.SealedBy(stored), ring.Current(), old)
		}
		if s := login(code(t, plainSecret, time.Now().Add(30*time.Second))); s != http.StatusOK {
			t.Errorf("the re-sealed TOTP secret's code: %d", s)
		}
		if s := login(oldCode); s != http.StatusOK {
			t.Errorf("a recovery code of the first form, keyed by the old key: %d", s)
		}
	})
}

// TestSecondFactorChangesEndOtherSessions: turning two-factor sign-in on or off ends the
// account's other sessions (the one that did it goes on); an administrator's reset ends
// all of them; and a push socket closes once its session has ended.
func TestSecondFactorChangesEndOtherSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("sf-admin", env.CreateUser("sf-admin", "admin"))
		pw := env.CreateUser("sf-doc", "doctor")
		here, there := env.LoggedIn("sf-doc", pw), env.LoggedIn("sf-doc", pw)
		ok := func(c *apitest.Client) bool { return c.Do("GET", "/api/user", nil).Status == http.StatusOK }

		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		sock := pushSocket(ctx, t, env, there)

		totpSecret, recovery := enrol(t, here)
		if !ok(here) || ok(there) {
			t.Errorf("after turning it on: this session %v, the other %v", ok(here), ok(there))
		}
		waitClosed(ctx, t, sock, "the push socket of a session ended by turning two-factor on")

		third := env.Client()
		third.Do("GET", "/api/sanctum/csrf-cookie", nil)
		if r := third.Do("POST", "/api/auth/login", map[string]string{"username": "sf-doc", "password": pw, "code": code(t, totpSecret, time.Now().Add(30*time.Second))}); r.Status != http.StatusOK {
			t.Fatalf("sign in with the code: %d %s", r.Status, r.Body)
		}
		if r := here.Do("POST", "/api/profile/two-factor/disable", map[string]string{"password": pw, "code": recovery[0]}); r.Status != http.StatusNoContent {
			t.Fatalf("turn it off: %d %s", r.Status, r.Body)
		}
		if !ok(here) || ok(third) {
			t.Errorf("after turning it off: this session %v, the other %v", ok(here), ok(third))
		}

		enrol(t, here)
		if r := admin.Do("POST", fmt.Sprintf("/api/users/%d/two-factor/reset", env.UserID("sf-doc")), nil); r.Status != http.StatusOK {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		if ok(here) || !ok(admin) {
			t.Errorf("after the administrator's reset: the account's session %v, the administrator's %v", ok(here), ok(admin))
		}
	})
}

// TestPushSocketClosesAtLogout: logging out closes the session's push socket.
func TestPushSocketClosesAtLogout(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	env := apitest.New(t, db)
	c := env.LoggedIn("out-doc", env.CreateUser("out-doc", "doctor"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sock := pushSocket(ctx, t, env, c)
	if r := c.Do("POST", "/api/auth/logout", nil); r.Status >= 300 {
		t.Fatalf("logout: %d", r.Status)
	}
	waitClosed(ctx, t, sock, "the push socket of a session logged out")
}

// pushSocket opens a push socket as c's browser would, and reads its first frame.
func pushSocket(ctx context.Context, t *testing.T, env *apitest.Env, c *apitest.Client) *websocket.Conn {
	t.Helper()
	var cfg struct{ Push struct{ Key string } }
	c.Do("GET", "/api/config", nil).JSON(t, &cfg)
	sock, err := c.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sock.CloseNow() })
	if _, _, err := sock.Read(ctx); err != nil { // connection_established
		t.Fatal(err)
	}
	return sock
}

// waitClosed reads sock until the server closes it, failing when ctx ends first.
func waitClosed(ctx context.Context, t *testing.T, sock *websocket.Conn, what string) {
	t.Helper()
	for {
		if _, _, err := sock.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("%s is still open", what)
			}
			return
		}
	}
}
