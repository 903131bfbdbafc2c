package user_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/user"
)

// holder is an account under test: its session, password, second factor and credentials.
type holder struct {
	env       *apitest.Env
	username  string
	id        int64
	password  string
	session   *apitest.Client
	recovery  []string // recovery codes left, when it has a second factor
	token     string   // its own API token
	tokenID   int64
	clientID  string // a backend client it registered
	clientRow int64
	key       *ecdsa.PrivateKey
}

const testAudience = "https://emr.test/fhir/R4/auth/token"

// makeToken makes the holder's own API token, re-authenticating as the server asks.
func (h *holder) makeToken(t *testing.T, name string) (string, int64) {
	t.Helper()
	body := map[string]any{"name": name, "current_password": h.password}
	if len(h.recovery) > 0 {
		body["code"], h.recovery = h.recovery[0], h.recovery[1:]
	}
	r := h.session.Do("POST", "/api/profile/api-tokens", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("make a token: %d %s", r.Status, r.Body)
	}
	var out struct {
		Token    string
		APIToken struct{ ID int64 } `json:"api_token"`
	}
	r.JSON(t, &out)
	return out.Token, out.APIToken.ID
}

// enrol sets up the holder's second factor and keeps its recovery codes.
func (h *holder) enrol(t *testing.T) {
	t.Helper()
	var setup struct{ Secret string }
	h.session.Do("POST", "/api/profile/two-factor/setup", map[string]any{}).JSON(t, &setup)
	code, err := totp.GenerateCodeCustom(setup.Secret, time.Now(), totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	r := h.session.Do("POST", "/api/profile/two-factor/confirm", map[string]any{"code": code})
	if r.Status != http.StatusOK {
		t.Fatalf("confirm the second factor: %d %s", r.Status, r.Body)
	}
	var out struct {
		Codes []string `json:"recovery_codes"`
	}
	r.JSON(t, &out)
	h.recovery = out.Codes
}

// register registers a backend client through the holder's session (the holder is an
// administrator), with one P-384 key.
func (h *holder) register(t *testing.T) {
	t.Helper()
	h.key, _ = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &h.key.PublicKey, KeyID: "k1", Algorithm: "ES384", Use: "sig"}}})
	r := h.session.Do("POST", "/api/api-clients", map[string]any{"name": "Lab interface of " + h.username, "scopes": "system/Patient.rs", "jwks": string(jwks)})
	if r.Status != http.StatusCreated {
		t.Fatalf("register a client: %d %s", r.Status, r.Body)
	}
	var out struct {
		ID       int64
		ClientID string `json:"client_id"`
	}
	r.JSON(t, &out)
	h.clientID, h.clientRow = out.ClientID, out.ID
}

// clientToken gets an access token for the holder's client with a fresh signed assertion
// (through the issuer itself: the token endpoint's address is another test's concern).
func (h *holder) clientToken(t *testing.T, db *database.DB) (string, error) {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES384, Key: jose.JSONWebKey{Key: h.key, KeyID: "k1"}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	assertion, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: h.clientID, Subject: h.clientID, Audience: jwt.Audience{testAudience},
		Expiry: jwt.NewNumericDate(now.Add(4 * time.Minute)), IssuedAt: jwt.NewNumericDate(now), ID: auth.NewToken()}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	issued, err := (&auth.Clients{DB: db}).Issue(context.Background(), audit.Event{Address: "192.0.2.10"}, "client_credentials", auth.AssertionType, assertion, "", testAudience)
	return issued.AccessToken, err
}

// bearer is a client that calls env with token alone.
func bearer(env *apitest.Env, token string) *apitest.Client {
	c := env.Client()
	c.Header.Set("Authorization", "Bearer "+token)
	return c
}

// works tells whether token reads the patient on the FHIR API and, for a user's token, on
// the native API, through server env.
func works(t *testing.T, env *apitest.Env, token string, patient int64, native bool) bool {
	t.Helper()
	c := bearer(env, token)
	fhirStatus := c.Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", patient), nil).Status
	if !native {
		return fhirStatus == http.StatusOK
	}
	nativeStatus := c.Do("GET", fmt.Sprintf("/api/patients/%d", patient), nil).Status
	if (fhirStatus == http.StatusOK) != (nativeStatus == http.StatusOK) {
		t.Errorf("FHIR %d but native %d", fhirStatus, nativeStatus)
	}
	return fhirStatus == http.StatusOK
}

// account reads an account's version and roles, for an administrator's change of it.
func accountOf(t *testing.T, admin *apitest.Client, id int64) account {
	t.Helper()
	var a account
	admin.Do("GET", fmt.Sprintf("/api/users/%d", id), nil).JSON(t, &a)
	return a
}

func setActive(t *testing.T, admin *apitest.Client, id int64, active bool) {
	t.Helper()
	a := accountOf(t, admin, id)
	r := admin.Do("PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"name": a.Name, "email": a.Email, "roles": a.Roles, "active": active, "version": a.Version})
	if r.Status != http.StatusOK {
		t.Fatalf("set active %v: %d %s", active, r.Status, r.Body)
	}
}

// TestRemediesEndTokens: every remedy of an account — its password changed or reset, the
// account deactivated (and made active again), its second factor set up, turned off or
// reset — ends the account's API tokens at once, on both of two servers on one database,
// with the reason on the token and one audit event naming them. A backend client the
// account registered is the clinic's system: its access tokens end only when the account is
// deactivated, and the client itself stays, flagged for key rotation.
func TestRemediesEndTokens(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		one, two := apitest.New(t, db), apitest.New(t, db)
		admin := one.LoggedIn("admin", one.CreateUser("admin", "admin"))
		var patient struct{ ID int64 }
		r := admin.Do("POST", "/api/patients", map[string]any{"first_name": "Minh", "last_name": "Lê", "birth_date": "1970-03-02", "sex": "male",
			"history": map[string]any{"allergy_status": "none"}})
		if r.Status != http.StatusCreated {
			t.Fatalf("register a patient: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &patient)

		for i, tc := range []struct {
			name        string
			before      func(t *testing.T, h *holder) // set up what the remedy needs (a second factor)
			remedy      func(t *testing.T, h *holder)
			reason      string // "" when nothing ends
			tokenWorks  bool   // the account's API token, afterwards
			clientWorks bool   // the access token of the client it registered, afterwards
		}{
			{name: "nothing happens", remedy: func(*testing.T, *holder) {}, tokenWorks: true, clientWorks: true},
			{name: "the owner changes the password", reason: auth.EndedPasswordChanged, clientWorks: true, remedy: func(t *testing.T, h *holder) {
				if r := h.session.Do("POST", "/api/profile/password", map[string]any{"current_password": h.password, "new_password": "a quite different passphrase 42"}); r.Status != http.StatusNoContent {
					t.Fatalf("change: %d %s", r.Status, r.Body)
				}
			}},
			{name: "an administrator resets the password", reason: auth.EndedPasswordReset, clientWorks: true, remedy: func(t *testing.T, h *holder) {
				if r := admin.Do("POST", fmt.Sprintf("/api/users/%d/reset-password", h.id), map[string]any{}); r.Status != http.StatusOK {
					t.Fatalf("reset: %d %s", r.Status, r.Body)
				}
			}},
			{name: "an administrator deactivates the account", reason: auth.EndedDeactivated, remedy: func(t *testing.T, h *holder) {
				setActive(t, admin, h.id, false)
			}},
			{name: "deactivated, then made active again", reason: auth.EndedDeactivated, remedy: func(t *testing.T, h *holder) {
				setActive(t, admin, h.id, false)
				setActive(t, admin, h.id, true)
			}},
			{name: "the owner sets up a second factor", reason: auth.EndedTwoFactorChanged, clientWorks: true, remedy: func(t *testing.T, h *holder) {
				h.enrol(t)
			}},
			{name: "the owner turns the second factor off", reason: auth.EndedTwoFactorChanged, clientWorks: true, before: func(t *testing.T, h *holder) {
				h.enrol(t)
			}, remedy: func(t *testing.T, h *holder) {
				if r := h.session.Do("POST", "/api/profile/two-factor/disable", map[string]any{"password": h.password, "code": h.recovery[0]}); r.Status != http.StatusNoContent {
					t.Fatalf("turn off: %d %s", r.Status, r.Body)
				}
			}},
			{name: "an administrator resets the second factor", reason: auth.EndedTwoFactorReset, clientWorks: true, before: func(t *testing.T, h *holder) {
				h.enrol(t)
			}, remedy: func(t *testing.T, h *holder) {
				if r := admin.Do("POST", fmt.Sprintf("/api/users/%d/two-factor/reset", h.id), map[string]any{}); r.Status != http.StatusOK {
					t.Fatalf("reset: %d %s", r.Status, r.Body)
				}
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h := &holder{env: one, username: fmt.Sprintf("holder%d", i)}
				h.password = one.CreateUser(h.username, "admin")
				h.id = one.UserID(h.username)
				h.session = one.LoggedIn(h.username, h.password)
				if tc.before != nil {
					tc.before(t, h)
				}
				h.token, h.tokenID = h.makeToken(t, "Lab script")
				h.register(t)
				access, err := h.clientToken(t, db)
				if err != nil {
					t.Fatal(err)
				}
				for _, env := range []*apitest.Env{one, two} {
					if !works(t, env, h.token, patient.ID, true) || !works(t, env, access, patient.ID, false) {
						t.Fatal("the credentials do not work before the remedy")
					}
				}

				tc.remedy(t, h)

				for n, env := range []*apitest.Env{one, two} {
					if got := works(t, env, h.token, patient.ID, true); got != tc.tokenWorks {
						t.Errorf("instance %d: the API token works %v, want %v", n+1, got, tc.tokenWorks)
					}
					if got := works(t, env, access, patient.ID, false); got != tc.clientWorks {
						t.Errorf("instance %d: the client's access token works %v, want %v", n+1, got, tc.clientWorks)
					}
				}
				var reason string
				if err := db.QueryRowContext(context.Background(), `SELECT revoked_reason FROM api_tokens WHERE id = $1`, h.tokenID).Scan(&reason); err != nil {
					t.Fatal(err)
				}
				if reason != tc.reason {
					t.Errorf("reason on the token: %q, want %q", reason, tc.reason)
				}
				events := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'api_token.end' AND entity_id = $1`, fmt.Sprint(h.id))
				if want := map[bool]int{true: 1, false: 0}[tc.reason != ""]; events != want {
					t.Errorf("api_token.end events: %d, want %d", events, want)
				}
				if tc.reason != "" {
					detail := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'api_token.end' AND entity_id = $1 AND detail LIKE $2`,
						fmt.Sprint(h.id), tc.reason+`: token:`+fmt.Sprint(h.tokenID)+` "Lab script"%`)
					if detail != 1 {
						t.Errorf("the event names the reason and the token")
					}
				}
				// The client is never revoked by its registrar's remedy: a new access token is
				// issued; the list flags a client whose registrar is deactivated.
				if _, err := h.clientToken(t, db); err != nil {
					t.Errorf("the client after the remedy: %v", err)
				}
				var clients struct {
					Data []struct {
						ClientID    string  `json:"client_id"`
						RevokedAt   *string `json:"revoked_at"`
						CreatedBy   string  `json:"created_by_name"`
						Deactivated bool    `json:"creator_deactivated"`
					}
				}
				admin.Do("GET", "/api/api-clients", nil).JSON(t, &clients)
				for _, k := range clients.Data {
					if k.ClientID != h.clientID {
						continue
					}
					wantFlag := strings.Contains(tc.name, "deactivates")
					if k.RevokedAt != nil || k.CreatedBy != "Test "+h.username || k.Deactivated != wantFlag {
						t.Errorf("client listed: %+v, flagged want %v", k, wantFlag)
					}
				}
			})
		}
	})
}

// TestMakingATokenReauthenticates: a token is made only with the maker's password again,
// and a code of their second factor when they have one — a missing one is named (422), a
// wrong one refused on its field (422, as the profile's password change refuses), the right
// one makes the token; wrong tries are throttled as the login's are (429 with Retry-After,
// in the caller's language) under the login's own per-account key: wrong current passwords
// in the password change and wrong re-authentications share one budget, and spending it
// holds off the login too. An administrator making a token for another account
// re-authenticates as themselves.
func TestMakingATokenReauthenticates(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		plain := &holder{env: env, username: "plain"}
		plain.password = env.CreateUser("plain", "doctor")
		plain.session = env.LoggedIn("plain", plain.password)
		second := &holder{env: env, username: "second"}
		second.password = env.CreateUser("second", "doctor")
		second.session = env.LoggedIn("second", second.password)
		second.enrol(t)
		for _, tc := range []struct {
			name   string
			who    *holder
			body   map[string]any
			status int
			field  string // the field named by a 422
		}{
			{"no password", plain, map[string]any{"name": "a"}, http.StatusUnprocessableEntity, "current_password"},
			{"a wrong password", plain, map[string]any{"name": "a", "current_password": "not it at all"}, http.StatusUnprocessableEntity, "current_password"},
			{"the right password", plain, map[string]any{"name": "a", "current_password": plain.password}, http.StatusCreated, ""},
			{"a second factor: no code", second, map[string]any{"name": "a", "current_password": second.password}, http.StatusUnprocessableEntity, "code"},
			{"a second factor: a wrong code", second, map[string]any{"name": "a", "current_password": second.password, "code": "000000"}, http.StatusUnprocessableEntity, "code"},
			{"a second factor: a wrong password, a right code", second, map[string]any{"name": "a", "current_password": "nope", "code": second.recovery[0]}, http.StatusUnprocessableEntity, "current_password"},
			{"a second factor: a recovery code", second, map[string]any{"name": "a", "current_password": second.password, "code": second.recovery[1]}, http.StatusCreated, ""},
			{"a second factor: the same recovery code again", second, map[string]any{"name": "a", "current_password": second.password, "code": second.recovery[1]}, http.StatusUnprocessableEntity, "code"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := tc.who.session.Do("POST", "/api/profile/api-tokens", tc.body)
				_, _, fields := r.Error(t)
				if r.Status != tc.status || (tc.field != "" && len(fields[tc.field]) == 0) {
					t.Errorf("%d %s, want %d naming %q", r.Status, r.Body, tc.status, tc.field)
				}
			})
		}
		// A TOTP code of the next step (the enrolment used this one) makes a token.
		t.Run("a second factor: a TOTP code", func(t *testing.T) {
			third := &holder{env: env, username: "third"}
			third.password = env.CreateUser("third", "nurse")
			third.session = env.LoggedIn("third", third.password)
			var setup struct{ Secret string }
			third.session.Do("POST", "/api/profile/two-factor/setup", map[string]any{}).JSON(t, &setup)
			secret := setup.Secret
			opts := totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
			now, _ := totp.GenerateCodeCustom(secret, time.Now(), opts)
			if r := third.session.Do("POST", "/api/profile/two-factor/confirm", map[string]any{"code": now}); r.Status != http.StatusOK {
				t.Fatalf("confirm: %d %s", r.Status, r.Body)
			}
			next, _ := totp.GenerateCodeCustom(secret, time.Now().Add(30*time.Second), opts)
			if r := third.session.Do("POST", "/api/profile/api-tokens", map[string]any{"name": "t", "current_password": third.password, "code": next}); r.Status != http.StatusCreated {
				t.Errorf("with a TOTP code: %d %s", r.Status, r.Body)
			}
		})
		// Throttled: after the login's limit of wrong tries — some in the password change,
		// the rest here — the right password waits too, and so does the login.
		t.Run("throttled after the login's limit", func(t *testing.T) {
			h := &holder{env: env, username: "guessed"}
			h.password = env.CreateUser("guessed", "doctor")
			h.session = env.LoggedIn("guessed", h.password)
			changes := auth.UserFailureLimit / 2
			for i := 0; i < changes; i++ {
				if r := h.session.Do("POST", "/api/profile/password", map[string]any{"current_password": fmt.Sprint("change guess ", i), "new_password": "a quite different passphrase 42"}); r.Status != http.StatusUnprocessableEntity {
					t.Fatalf("change try %d: %d", i, r.Status)
				}
			}
			for i := changes; i < auth.UserFailureLimit; i++ {
				if r := h.session.Do("POST", "/api/profile/api-tokens", map[string]any{"name": "x", "current_password": fmt.Sprint("guess ", i)}); r.Status != http.StatusUnprocessableEntity {
					t.Fatalf("try %d: %d", i, r.Status)
				}
			}
			h.session.SetCookie("language", "ru")
			r := h.session.Do("POST", "/api/profile/api-tokens", map[string]any{"name": "x", "current_password": h.password})
			msg, code, _ := r.Error(t)
			if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || code != "api_token.reauth_throttled" || !strings.Contains(msg, "Повторите") {
				t.Errorf("throttled: %d %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
			}
			// The login's own key: the login waits for the window too, and the password
			// change does, with the right password.
			if r := env.Client().Login("guessed", h.password); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
				t.Errorf("the login after wrong re-authentications: %d", r.Status)
			}
			if r := h.session.Do("POST", "/api/profile/password", map[string]any{"current_password": h.password, "new_password": "a quite different passphrase 42"}); r.Status != http.StatusTooManyRequests {
				t.Errorf("the password change after wrong re-authentications: %d", r.Status)
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'api_token.create' AND outcome = 'failure' AND actor_name = 'guessed'`); n != auth.UserFailureLimit-changes {
				t.Errorf("refused tries audited: %d", n)
			}
		})
		// An administrator makes a token for another account with their own password; the
		// account's owner sees who made it, in the token list and in their activity.
		t.Run("an administrator's token for another account", func(t *testing.T) {
			adminPassword := env.CreateUser("boss", "admin")
			admin := env.LoggedIn("boss", adminPassword)
			body := map[string]any{"user_id": env.UserID("plain"), "name": "Lab link"}
			if r := admin.Do("POST", "/api/api-tokens", body); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("without the administrator's password: %d", r.Status)
			}
			body["current_password"] = plain.password // the owner's, not the maker's
			if r := admin.Do("POST", "/api/api-tokens", body); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("with the owner's password: %d", r.Status)
			}
			body["current_password"] = adminPassword
			if r := admin.Do("POST", "/api/api-tokens", body); r.Status != http.StatusCreated {
				t.Fatalf("with the administrator's: %d %s", r.Status, r.Body)
			}
			var mine struct {
				Data []struct {
					Name          string
					CreatedByName string `json:"created_by_name"`
					ExpiringSoon  bool   `json:"expiring_soon"`
				}
			}
			plain.session.Do("GET", "/api/profile/api-tokens", nil).JSON(t, &mine)
			if len(mine.Data) == 0 || mine.Data[0].Name != "Lab link" || mine.Data[0].CreatedByName != "Test boss" || mine.Data[0].ExpiringSoon {
				t.Errorf("the owner's list: %+v", mine.Data)
			}
			var activity struct {
				Data []struct{ Action, By string }
			}
			plain.session.Do("GET", "/api/profile/activity", nil).JSON(t, &activity)
			found := false
			for _, a := range activity.Data {
				found = found || (a.Action == "api_token.create" && a.By == "boss")
			}
			if !found {
				t.Errorf("the owner's activity: %+v", activity.Data)
			}
		})
		// Scopes: offered from what the account reaches, and none wider stored.
		t.Run("scopes no wider than the account", func(t *testing.T) {
			clerkPassword := env.CreateUser("clerk", "receptionist")
			clerk := env.LoggedIn("clerk", clerkPassword)
			var reach struct {
				Data []struct{ Resource, Actions string }
			}
			clerk.Do("GET", "/api/profile/api-tokens/reach", nil).JSON(t, &reach)
			got := map[string]string{}
			for _, x := range reach.Data {
				got[x.Resource] = x.Actions
			}
			if !strings.Contains(got["Patient"], "c") || !strings.Contains(got["Patient"], "r") || got["Observation"] != "" {
				t.Errorf("a receptionist's reach: %v", got)
			}
			for scope, want := range map[string]int{
				"user/Patient.cruds":                 http.StatusCreated, // no delete is served: it claims nothing more
				"user/Patient.rs":                    http.StatusCreated,
				"user/*.rs":                          http.StatusCreated,
				"user/*.cruds":                       http.StatusCreated, // each letter allowed on some type: capped by the account at every request (Reach.Check)
				"user/Observation.rs":                http.StatusUnprocessableEntity,
				"user/Condition.s":                   http.StatusUnprocessableEntity,
				"user/Basic.rs":                      http.StatusUnprocessableEntity,
				"user/Patient.rs user/Observation.c": http.StatusUnprocessableEntity,
			} {
				r := clerk.Do("POST", "/api/profile/api-tokens", map[string]any{"name": scope, "scopes": scope, "current_password": clerkPassword})
				msg, code, fields := r.Error(t)
				if r.Status != want || (want == http.StatusUnprocessableEntity && (code != "scope.beyond_account" || len(fields["scopes"]) == 0 || !strings.Contains(msg, "user/"))) {
					t.Errorf("%s: %d %s", scope, r.Status, r.Body)
				}
			}
		})
	})
}

// TestAuditEventsNameTheCredential: every event written on a request made with an API token
// (native or FHIR) or a backend client's token names the credential — kind, id and name —
// and an event of a browser session names none; the audit log filters on it and the
// account's own activity shows it.
func TestAuditEventsNameTheCredential(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		adminPassword := env.CreateUser("admin", "admin")
		admin := &holder{env: env, username: "admin", password: adminPassword, session: env.LoggedIn("admin", adminPassword)}
		clerk := &holder{env: env, username: "clerk"}
		clerk.password = env.CreateUser("clerk", "receptionist")
		clerk.session = env.LoggedIn("clerk", clerk.password)
		token, tokenID := clerk.makeToken(t, "Front desk script")
		admin.register(t)
		access, err := admin.clientToken(t, db)
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ ID int64 }
		r := bearer(env, token).Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Trần", "birth_date": "1990-01-02", "sex": "female",
			"history": map[string]any{"allergy_status": "none"}})
		if r.Status != http.StatusCreated {
			t.Fatalf("a native write with the token: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &p)
		if r := bearer(env, token).Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", p.ID), nil); r.Status != http.StatusOK {
			t.Fatalf("a FHIR read with the token: %d", r.Status)
		}
		if r := bearer(env, access).Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", p.ID), nil); r.Status != http.StatusOK {
			t.Fatalf("a FHIR read with the client: %d", r.Status)
		}
		if r := clerk.session.Do("GET", fmt.Sprintf("/api/patients/%d", p.ID), nil); r.Status != http.StatusOK {
			t.Fatalf("a read in the browser: %d", r.Status)
		}
		tokenCredential := fmt.Sprintf(`token:%d "Front desk script"`, tokenID)
		clientCredential := fmt.Sprintf(`%s "Lab interface of admin"`, "client:"+admin.clientID)
		for _, tc := range []struct {
			name, action, actor, credential string
		}{
			{"a native write with a token", "patient.create", "clerk", tokenCredential},
			{"a FHIR read with a token", "fhir.patient.read", "clerk", tokenCredential},
			{"a FHIR read with a backend client", "fhir.patient.read", "client:" + admin.clientID, clientCredential},
			{"a read in a browser session", "patient.read", "clerk", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []string
				rows, err := db.QueryContext(context.Background(), `SELECT COALESCE(credential, '') FROM audit_events WHERE action = $1 AND actor_name = $2 AND entity_id = $3`,
					tc.action, tc.actor, fmt.Sprint(p.ID))
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					var c string
					if err := rows.Scan(&c); err != nil {
						t.Fatal(err)
					}
					got = append(got, c)
				}
				rows.Close()
				if len(got) != 1 || got[0] != tc.credential {
					t.Errorf("credential %q, want [%q]", got, tc.credential)
				}
			})
		}
		// The audit log: "made with a token" keeps exactly those events, each naming it.
		var page struct {
			Data []struct{ Action, Credential string }
		}
		admin.session.Do("GET", "/api/audit-events?credential=1&per_page=50", nil).JSON(t, &page)
		want := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE credential IS NOT NULL`)
		if len(page.Data) != want || want < 3 {
			t.Errorf("filtered: %d events, %d with a credential", len(page.Data), want)
		}
		for _, e := range page.Data {
			if e.Credential == "" {
				t.Errorf("an event without a credential in the filter: %+v", e)
			}
		}
		if r := admin.session.Do("GET", "/api/audit-events?credential=maybe", nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a bad filter: %d", r.Status)
		}
		// The account's activity shows which of its actions a token made.
		var activity struct {
			Data []struct{ Action, Credential string }
		}
		clerk.session.Do("GET", "/api/profile/activity", nil).JSON(t, &activity)
		seen := map[string]string{}
		for _, a := range activity.Data {
			seen[a.Action] = a.Credential
		}
		if seen["patient.create"] != tokenCredential || seen["patient.read"] != "" {
			t.Errorf("activity: %+v", activity.Data)
		}
	})
}

// TestExpiryReminders: an owner with an e-mail address is reminded 14 days and 1 day before a
// token ends, each once however many instances look at once; a token made to live less than
// 14 days gets only the 1-day reminder; an owner without an address gets no e-mail (the
// profile's notice says it); an ended token is not reminded of.
func TestExpiryReminders(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		env := apitest.New(t, db)
		env.CreateUser("mailed", "doctor")
		env.CreateUser("unmailed", "doctor")
		if _, err := db.ExecContext(ctx, `UPDATE users SET email = 'mailed@clinic.example' WHERE username = 'mailed'`); err != nil {
			t.Fatal(err)
		}
		tokens := &auth.APITokens{DB: db, Sessions: &auth.Sessions{DB: db}}
		newToken := func(username, name string, days int) int64 {
			_, k, err := tokens.Create(ctx, audit.Event{}, auth.NewAPIToken{UserID: env.UserID(username), Name: name, Lifetime: time.Duration(days) * 24 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			return k.ID
		}
		long := newToken("mailed", "Nightly export", 90)
		short := newToken("mailed", "One-week script", 7)
		newToken("unmailed", "No address", 90)
		ended := newToken("mailed", "Ended", 90)
		if _, err := tokens.Revoke(ctx, audit.Event{}, ended, 0); err != nil {
			t.Fatal(err)
		}
		mails := func(id int64) int {
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1 AND topic_id = $2`, user.TokenMailTopic, id)
		}
		start := time.Now()
		for _, step := range []struct {
			name        string
			at          time.Duration
			long, short int // e-mails so far
		}{
			{"made", 0, 0, 0},
			{"a week left of the short one", 12 * time.Hour, 0, 0},
			{"less than a day left of the short one", 6*24*time.Hour + 12*time.Hour, 0, 1},
			{"14 days left of the long one", 76 * 24 * time.Hour, 1, 1},
			{"still", 80 * 24 * time.Hour, 1, 1},
			{"a day left of the long one", 89*24*time.Hour + 12*time.Hour, 2, 1},
			{"and after", 89*24*time.Hour + 20*time.Hour, 2, 1},
		} {
			t.Run(step.name, func(t *testing.T) {
				// Two instances at once: each reminder is written once.
				errs := make(chan error, 2)
				for range 2 {
					go func() {
						_, err := user.RemindExpiringTokens(ctx, db, start.Add(step.at))
						errs <- err
					}()
				}
				for range 2 {
					if err := <-errs; err != nil {
						t.Fatal(err)
					}
				}
				if got := mails(long); got != step.long {
					t.Errorf("the 90-day token's reminders: %d, want %d", got, step.long)
				}
				if got := mails(short); got != step.short {
					t.Errorf("the 7-day token's reminders: %d, want %d", got, step.short)
				}
			})
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1`, user.TokenMailTopic); n != 3 {
			t.Errorf("reminders written: %d (none to the account without an address, none for the ended token)", n)
		}
		var body, to string
		if err := db.QueryRowContext(ctx, `SELECT body, recipient FROM mail_outbox WHERE topic_id = $1 ORDER BY id LIMIT 1`, long).Scan(&body, &to); err != nil {
			t.Fatal(err)
		}
		if to != "mailed@clinic.example" || !strings.Contains(body, `"Nightly export"`) || !strings.Contains(body, "Ваш API-токен «Nightly export»") {
			t.Errorf("the reminder to %s: %s", to, body)
		}
	})
}
