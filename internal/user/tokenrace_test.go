package user_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/user"
)

// TestTokenMadeDuringARemedyIsRefused: a remedy of the token's account that commits between
// the maker's re-authentication and the token's insert (its password changed or reset, the
// account deactivated, its second factor reset) refuses the token — 409, in the maker's
// language — and leaves the account no live token, also once it is made active again. For a
// token an administrator makes for another account, the account's remedies count, and so do
// the administrator's: a remedy that ends the session making it refuses the token.
func TestTokenMadeDuringARemedyIsRefused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		bossPassword := env.CreateUser("boss", "admin")
		boss := env.LoggedIn("boss", bossPassword)
		other := env.LoggedIn("boss", bossPassword) // another of the administrator's sessions
		expect := func(t *testing.T, r apitest.Response, what string, status int) {
			if r.Status != status {
				t.Errorf("%s: %d %s, want %d", what, r.Status, r.Body, status)
			}
		}
		for i, tc := range []struct {
			name   string
			admin  bool // the administrator makes the token for the account
			enrol  bool
			remedy func(t *testing.T, h *holder)
			after  func(t *testing.T, h *holder) // once the answer came
			status int
		}{
			{name: "the owner changes the password", status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				expect(t, h.session.Do("POST", "/api/profile/password", map[string]any{"current_password": h.password, "new_password": "a quite different passphrase 42"}), "change", http.StatusNoContent)
			}},
			{name: "an administrator resets the password", status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				expect(t, boss.Do("POST", fmt.Sprintf("/api/users/%d/reset-password", h.id), map[string]any{}), "reset", http.StatusOK)
			}},
			{name: "an administrator deactivates the account, then makes it active again", status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				a := accountOf(t, boss, h.id)
				expect(t, boss.Do("PUT", fmt.Sprintf("/api/users/%d", h.id), map[string]any{"name": a.Name, "email": a.Email, "roles": a.Roles, "active": false, "version": a.Version}), "deactivate", http.StatusOK)
			}, after: func(t *testing.T, h *holder) { setActive(t, boss, h.id, true) }},
			{name: "an administrator resets the second factor", enrol: true, status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				expect(t, boss.Do("POST", fmt.Sprintf("/api/users/%d/two-factor/reset", h.id), map[string]any{}), "reset", http.StatusOK)
			}},
			{name: "an administrator's token: the account deactivated", admin: true, status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				a := accountOf(t, other, h.id)
				expect(t, other.Do("PUT", fmt.Sprintf("/api/users/%d", h.id), map[string]any{"name": a.Name, "email": a.Email, "roles": a.Roles, "active": false, "version": a.Version}), "deactivate", http.StatusOK)
			}, after: func(t *testing.T, h *holder) { setActive(t, boss, h.id, true) }},
			// The administrator's password changed in another session ends the session making
			// the token: a request held open across it stores nothing. (Last: it ends boss.)
			{name: "an administrator's token: the administrator's own password changed", admin: true, status: http.StatusConflict, remedy: func(t *testing.T, h *holder) {
				expect(t, other.Do("POST", "/api/profile/password", map[string]any{"current_password": bossPassword, "new_password": "another quite different passphrase 77"}), "change", http.StatusNoContent)
				bossPassword = "another quite different passphrase 77"
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h := &holder{env: env, username: fmt.Sprintf("racer%d", i)}
				h.password = env.CreateUser(h.username, "doctor")
				h.id = env.UserID(h.username)
				h.session = env.LoggedIn(h.username, h.password)
				if tc.enrol {
					h.enrol(t)
				}
				ran := false
				user.SetAfterReauth(func(id int64) {
					if id == h.id && !ran {
						ran = true
						tc.remedy(t, h)
					}
				})
				defer user.SetAfterReauth(nil)

				maker, path := h.session, "/api/profile/api-tokens"
				body := map[string]any{"name": "Lab script", "current_password": h.password}
				if tc.admin {
					maker, path = boss, "/api/api-tokens"
					body["user_id"], body["current_password"] = h.id, bossPassword
				} else if tc.enrol {
					body["code"] = h.recovery[0]
				}
				maker.SetCookie("language", "ru")
				r := maker.Do("POST", path, body)
				maker.SetCookie("language", "en")
				if !ran {
					t.Fatalf("the remedy did not run between the re-authentication and the insert: %d %s", r.Status, r.Body)
				}
				msg, code, _ := r.Error(t)
				if r.Status != tc.status {
					t.Fatalf("made during the remedy: %d %s, want %d", r.Status, r.Body, tc.status)
				}
				if tc.status == http.StatusConflict && (code != "api_token.credentials_changed" || !strings.Contains(msg, "войдите снова")) {
					t.Errorf("refused: %s", r.Body)
				}
				if tc.after != nil {
					tc.after(t, h)
				}
				live := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL`, h.id)
				if want := map[bool]int{true: 1, false: 0}[tc.status == http.StatusCreated]; live != want {
					t.Errorf("live tokens of the account: %d, want %d", live, want)
				}
			})
		}
	})
}

// TestRemedyAndTokenInsertDoNotInterleave: on PostgreSQL, a token insert that starts while a
// remedy's transaction holds the account (its epoch counted up, its tokens ended, not yet
// committed) waits for the remedy and is then refused; it never commits a token the
// remedy's end of tokens did not see. (SQLite's write transactions run one at a time.)
func TestRemedyAndTokenInsertDoNotInterleave(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if db.Engine != database.Postgres {
			t.Skip("SQLite runs one write transaction at a time")
		}
		ctx := context.Background()
		env := apitest.New(t, db)
		tokens := &auth.APITokens{DB: db, Sessions: &auth.Sessions{DB: db}}
		for i, earlier := range []bool{false, true} { // the account's first remedy, a later one
			name := map[bool]string{false: "the account's first remedy", true: "a later remedy"}[earlier]
			t.Run(name, func(t *testing.T) {
				username := fmt.Sprintf("nurse%d", i)
				env.CreateUser(username, "nurse")
				id := env.UserID(username)
				if earlier {
					if err := db.Tx(ctx, func(tx *sql.Tx) error {
						return auth.EndTokens(ctx, tx, audit.Event{}, id, auth.EndedPasswordChanged, false)
					}); err != nil {
						t.Fatal(err)
					}
				}
				epoch, err := auth.CredentialEpoch(ctx, db, id)
				if err != nil {
					t.Fatal(err)
				}
				remedy, err := db.BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer remedy.Rollback()
				if err := auth.EndTokens(ctx, remedy, audit.Event{}, id, auth.EndedPasswordReset, false); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() {
					_, _, err := tokens.Create(ctx, audit.Event{}, auth.NewAPIToken{UserID: id, Name: "racing", Lifetime: auth.DefaultTokenValid, Epoch: &epoch})
					done <- err
				}()
				// Wait until the insert waits for the remedy's lock on the account's epoch.
				deadline := time.Now().Add(10 * time.Second)
				for waiting := false; !waiting; {
					select {
					case err := <-done:
						t.Fatalf("the insert went ahead of the uncommitted remedy: %v", err)
					default:
					}
					waiting = dbtest.Count(t, db, `SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`) > 0
					if !waiting && time.Now().After(deadline) {
						t.Fatal("the insert never waited for the remedy")
					}
					time.Sleep(5 * time.Millisecond) // polling for the condition, not a fixed wait
				}
				if err := remedy.Commit(); err != nil {
					t.Fatal(err)
				}
				err = <-done
				var e *apperr.Error
				if !errors.As(err, &e) || e.Kind != apperr.KindConflict || e.Key != "api_token.credentials_changed" {
					t.Fatalf("the insert after the remedy: %v", err)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_tokens WHERE user_id = $1`, id); n != 0 {
					t.Errorf("tokens stored: %d", n)
				}
				// With the epoch read after the remedy, the token is made.
				epoch, _ = auth.CredentialEpoch(ctx, db, id)
				if _, _, err := tokens.Create(ctx, audit.Event{}, auth.NewAPIToken{UserID: id, Name: "after", Lifetime: auth.DefaultTokenValid, Epoch: &epoch}); err != nil {
					t.Errorf("made after the remedy: %v", err)
				}
			})
		}
	})
}

// TestTokenAndClientNamesAndScopeMessages: a token's or a backend client's name is one line
// (a line break or tab is refused on the field, in the caller's language), and a field
// message about a scope names the scope.
func TestTokenAndClientNamesAndScopeMessages(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		password := env.CreateUser("boss", "admin")
		boss := env.LoggedIn("boss", password)
		for _, tc := range []struct {
			name, path string
			body       map[string]any
			field      string
			says       string // in the field's message
		}{
			{"a token's name with a line break", "/api/profile/api-tokens", map[string]any{"name": "Lab\nscript", "current_password": password}, "name", "одну строку"},
			{"a token's name with a tab", "/api/profile/api-tokens", map[string]any{"name": "Lab\tscript", "current_password": password}, "name", "одну строку"},
			{"a token's scope that is none", "/api/profile/api-tokens", map[string]any{"name": "Lab", "scopes": "user/Patient.zz", "current_password": password}, "scopes", `user/Patient.zz`},
			{"a client's name with a line break", "/api/api-clients", map[string]any{"name": "Lab\r\ninterface", "scopes": "system/Patient.rs", "jwks": `{"keys":[]}`}, "name", "одну строку"},
			{"a client's scope that is none", "/api/api-clients", map[string]any{"name": "Lab", "scopes": "system/Nope.q", "jwks": `{"keys":[]}`}, "scopes", `system/Nope.q`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				boss.SetCookie("language", "ru")
				defer boss.SetCookie("language", "en")
				r := boss.Do("POST", tc.path, tc.body)
				_, _, fields := r.Error(t)
				if r.Status != http.StatusUnprocessableEntity || len(fields[tc.field]) == 0 || !strings.Contains(fields[tc.field][0], tc.says) || strings.Contains(string(r.Body), "%!") {
					t.Errorf("%d %s, want 422 on %q saying %q", r.Status, r.Body, tc.field, tc.says)
				}
			})
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_tokens`) + dbtest.Count(t, db, `SELECT COUNT(*) FROM api_clients`); n != 0 {
			t.Errorf("stored: %d", n)
		}
	})
}
