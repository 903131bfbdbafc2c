package fhir_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// challengeOf is the S256 challenge of verifier, whatever its form.
func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// refresh posts a refresh request of token, with scope when it is not "".
func (a smartApp) refresh(t *testing.T, token any, scope string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {fmt.Sprint(token)}}
	if scope != "" {
		form.Set("scope", scope)
	}
	return a.token(t, form)
}

// TestSmartOnlineAccess: a grant with online_access refreshes while the sign-in session that
// approved it lives — signing out, the session's end or its idle timeout stop it; one with
// offline_access outlives the session (until it is revoked or the account's credentials
// change).
func TestSmartOnlineAccess(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs user/*.rs")
		pw := c.env.CreateUser("doc-online", "doctor")
		user := c.env.UserID("doc-online")
		for _, tc := range []struct {
			name   string
			scope  string
			end    func(t *testing.T, session *apitest.Client)
			wantOK bool
		}{
			{"online_access, signed out", "online_access", func(t *testing.T, s *apitest.Client) {
				if r := s.Do("POST", "/api/auth/logout", nil); r.Status >= 300 {
					t.Fatalf("logout: %d %s", r.Status, r.Body)
				}
			}, false},
			{"online_access, the session expired", "online_access", func(t *testing.T, _ *apitest.Client) {
				exec(t, db, `UPDATE sessions SET expires_at = $1 WHERE user_id = $2`, time.Now().UTC().Add(-time.Second), user)
			}, false},
			{"online_access, the session idle too long", "online_access", func(t *testing.T, _ *apitest.Client) {
				exec(t, db, `UPDATE sessions SET last_seen_at = $1 WHERE user_id = $2`, time.Now().UTC().Add(-48*time.Hour), user)
			}, false},
			{"online_access, the session still live", "online_access", func(*testing.T, *apitest.Client) {}, true},
			{"offline_access, signed out", "offline_access", func(t *testing.T, s *apitest.Client) { s.Do("POST", "/api/auth/logout", nil) }, true},
			{"both, signed out: offline_access outlives the session", "online_access offline_access", func(t *testing.T, s *apitest.Client) { s.Do("POST", "/api/auth/logout", nil) }, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				session := c.env.LoggedIn("doc-online", pw)
				verifier, challenge := pkce(fmt.Sprintf("o%d-", time.Now().UnixNano()))
				code := app.approve(t, session, app.request("launch/patient patient/*.rs "+tc.scope, "", challenge), c.patientID)
				status, tok := app.exchange(t, code, verifier)
				if status != http.StatusOK || tok["refresh_token"] == nil {
					t.Fatalf("exchange: %d %v", status, tok)
				}
				// While the session lives, the refresh token refreshes.
				status, next := app.refresh(t, tok["refresh_token"], "")
				if status != http.StatusOK {
					t.Fatalf("refresh while signed in: %d %v", status, next)
				}
				tc.end(t, session)
				status, out := app.refresh(t, next["refresh_token"], "")
				if tc.wantOK && status != http.StatusOK {
					t.Errorf("refresh: %d %v, want a token", status, out)
				}
				if !tc.wantOK && (status != http.StatusBadRequest || out["error"] != "invalid_grant") {
					t.Errorf("refresh: %d %v, want invalid_grant", status, out)
				}
				exec(t, db, `DELETE FROM sessions WHERE user_id = $1`, user)
			})
		}
	})
}

// TestSmartRefreshNarrowsScope: a refresh may ask for a subset of the granted scopes; the
// new access token carries that subset alone, the next refresh token the grant's whole; a
// scope not granted is invalid_scope and leaves the token unspent.
func TestSmartRefreshNarrowsScope(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs user/*.rs")
		verifier, challenge := pkce("narrow-")
		code := app.approve(t, c.doctor, app.request("launch/patient openid fhirUser offline_access patient/*.rs user/Patient.rs", "", challenge), c.patientID)
		status, tok := app.exchange(t, code, verifier)
		if status != http.StatusOK {
			t.Fatalf("exchange: %d %v", status, tok)
		}
		other := fmt.Sprintf("/fhir/R4/Patient/%d", c.nkaID)
		get(t, app.bearer(tok["access_token"]), other, http.StatusOK) // user/Patient.rs: the account's patients

		for _, tc := range []struct {
			scope, wantErr string
		}{
			{"user/*.rs", "invalid_scope"},
			{"patient/*.rs user/Observation.rs", "invalid_scope"},
			{"patient/*.cruds", "invalid_scope"},
		} {
			if status, out := app.refresh(t, tok["refresh_token"], tc.scope); status != http.StatusBadRequest || out["error"] != tc.wantErr {
				t.Errorf("wider %q: %d %v", tc.scope, status, out)
			}
		}

		status, narrow := app.refresh(t, tok["refresh_token"], "patient/*.rs offline_access")
		if status != http.StatusOK || narrow["scope"] != "patient/*.rs offline_access" || narrow["id_token"] != nil || narrow["refresh_token"] == nil {
			t.Fatalf("narrowed: %d %v", status, narrow)
		}
		get(t, app.bearer(narrow["access_token"]), fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusOK)
		if r := app.bearer(narrow["access_token"]).Do("GET", other, nil); r.Status != http.StatusForbidden {
			t.Errorf("the narrowed token reads another patient: %d", r.Status)
		}
		// The next refresh token keeps the grant's scopes.
		status, whole := app.refresh(t, narrow["refresh_token"], "")
		if status != http.StatusOK || whole["scope"] != "launch/patient openid fhirUser offline_access patient/*.rs user/Patient.rs" || whole["id_token"] == nil {
			t.Fatalf("after a narrowed refresh: %d %v", status, whole)
		}
		get(t, app.bearer(whole["access_token"]), other, http.StatusOK)
		// A code replayed later still ends the narrowed tokens with the rest (RFC 6749 §4.1.2).
		if status, _ := app.exchange(t, code, verifier); status != http.StatusBadRequest {
			t.Errorf("replayed code: %d", status)
		}
		for _, access := range []any{narrow["access_token"], whole["access_token"]} {
			if r := app.bearer(access).Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), nil); r.Status != http.StatusUnauthorized {
				t.Errorf("an access token after the replay: %d", r.Status)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'smart_app.grant_end' AND detail LIKE 'code_reused%'`); n != 1 {
			t.Errorf("replay audited %d times", n)
		}
	})
}

// TestSmartConsentWithholdsTypesOutsideTheCompartment: a patient/ scope of a type outside
// the Patient compartment (a Practitioner, the Organization) is withheld, never offered as
// if it were confined to the patient; it cannot be approved either.
func TestSmartConsentWithholdsTypesOutsideTheCompartment(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		app := c.registerApp(t, "patient/*.rs user/*.rs")
		_, challenge := pkce("compartment-")
		for _, tc := range []struct {
			scope             string
			offered, withheld []string
		}{
			{"launch/patient patient/Practitioner.rs", []string{"launch/patient"}, []string{"patient/Practitioner.rs"}},
			{"launch/patient patient/Organization.read patient/Observation.read", []string{"launch/patient", "patient/Observation.rs"}, []string{"patient/Organization.read"}},
			{"launch/patient patient/*.rs user/Practitioner.rs", []string{"launch/patient", "patient/*.rs", "user/Practitioner.rs"}, []string{}},
		} {
			t.Run(tc.scope, func(t *testing.T) {
				var offer struct{ Scopes, Withheld []string }
				r := c.doctor.Do("GET", "/api/smart/authorize?"+query(app.request(tc.scope, "", challenge)), nil)
				r.JSON(t, &offer)
				if r.Status != http.StatusOK || !slices.Equal(offer.Scopes, tc.offered) || !slices.Equal(offer.Withheld, tc.withheld) {
					t.Errorf("offer: %d %s", r.Status, r.Body)
				}
			})
		}
		// An EHR launch names its patient by the name's parts, for the page to order.
		var launched struct {
			Patient struct {
				ID         int64
				Name, MRN  string
				FirstName  string `json:"first_name"`
				MiddleName string `json:"middle_name"`
				LastName   string `json:"last_name"`
				BirthDate  string `json:"birth_date"`
			}
		}
		r := c.doctor.Do("GET", "/api/smart/authorize?"+query(app.request("launch patient/*.rs", app.launch(t, c.doctor, c.patientID), challenge)), nil)
		r.JSON(t, &launched)
		if p := launched.Patient; p.ID != c.patientID || p.FirstName != "Minh" || p.MiddleName != "Van" || p.LastName != "Lê" || p.MRN != c.mrn || p.BirthDate != "1970-03-02" || p.Name != "Lê Minh Van" {
			t.Errorf("the patient in context: %d %s", r.Status, r.Body)
		}
		req := app.request("launch/patient patient/Practitioner.rs", "", challenge)
		if r := c.doctor.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": true, "patient_id": c.patientID, "scopes": []string{"patient/Practitioner.rs"}}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("approving patient/Practitioner.rs: %d %s", r.Status, r.Body)
		}
	})
}

// TestSmartPKCEVerifierForm: a code_verifier is 43 to 128 characters of [A-Za-z0-9-._~]
// (RFC 7636 §4.1); any other is invalid_grant even when its S256 hash is the challenge.
func TestSmartPKCEVerifierForm(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs")
		for _, tc := range []struct {
			name, verifier string
			ok             bool
		}{
			{"43 characters", strings.Repeat("a", 43), true},
			{"128 characters of every unreserved kind", strings.Repeat("aZ9-._~", 19)[:128], true},
			{"42 characters", strings.Repeat("a", 42), false},
			{"129 characters", strings.Repeat("a", 129), false},
			{"a plus sign", strings.Repeat("a", 42) + "+", false},
			{"a slash", strings.Repeat("a", 42) + "/", false},
			{"a space", strings.Repeat("a", 42) + " ", false},
			{"a letter outside ASCII", strings.Repeat("a", 42) + "é", false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code := app.approve(t, c.doctor, app.request("launch/patient patient/*.rs", "", challengeOf(tc.verifier)), c.patientID)
				status, out := app.exchange(t, code, tc.verifier)
				if tc.ok && status != http.StatusOK {
					t.Errorf("%d %v", status, out)
				}
				if !tc.ok && (status != http.StatusBadRequest || out["error"] != "invalid_grant") {
					t.Errorf("%d %v, want invalid_grant", status, out)
				}
			})
		}
	})
}

// TestSmartAppTokenThrottle: an app's refused token requests — a bad code, a wrong verifier,
// another client, a replayed code, an unknown refresh token — are counted as a backend
// client's are: per address block (over its limit the next is refused unchecked, 429) and
// per client_id named, and written to the audit log per window; an issued token gives its
// slot back.
func TestSmartAppTokenThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs")
		fresh := func() (string, string) {
			verifier, challenge := pkce(fmt.Sprintf("t%d-", time.Now().UnixNano()))
			return app.approve(t, c.doctor, app.request("launch/patient patient/*.rs online_access", "", challenge), c.patientID), verifier
		}
		code, verifier := fresh()
		if status, out := app.exchange(t, code, verifier); status != http.StatusOK {
			t.Fatalf("exchange: %d %v", status, out)
		}
		if n := dbtest.Count(t, db, `SELECT COALESCE(SUM(tries), 0) FROM login_throttle WHERE key LIKE 'token-%'`); n != 0 {
			t.Errorf("an issued token kept %d slots", n)
		}
		refusals := []struct {
			name string
			form func() url.Values
		}{
			{"an unknown code", func() url.Values {
				return url.Values{"grant_type": {"authorization_code"}, "code": {"nope"}, "redirect_uri": {appRedirect}, "code_verifier": {verifier}}
			}},
			{"a wrong verifier", func() url.Values {
				code, v := fresh()
				return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect}, "code_verifier": {strings.ToUpper(v)}}
			}},
			{"another client", func() url.Values {
				code, v := fresh()
				return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect}, "code_verifier": {v}, "client_id": {"emr-app-other"}}
			}},
			{"a replayed code", func() url.Values {
				return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect}, "code_verifier": {verifier}}
			}},
			{"an unknown refresh token", func() url.Values {
				return url.Values{"grant_type": {"refresh_token"}, "refresh_token": {auth.RefreshTokenPrefix + "nope"}}
			}},
		}
		for i := range auth.TokenAddressLimit {
			r := refusals[i%len(refusals)]
			if status, out := app.token(t, r.form()); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Fatalf("%s (%d): %d %v", r.name, i+1, status, out)
			}
		}
		// Over the address's limit: a good code is refused unchecked, and not spent.
		code, verifier = fresh()
		if status, out := app.exchange(t, code, verifier); status != http.StatusTooManyRequests || out["error"] != "slow_down" {
			t.Errorf("over the limit: %d %v", status, out)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM smart_codes WHERE code_hash = $1 AND used_at IS NULL`, hashOf(code)); n != 1 {
			t.Error("a request refused unchecked spent its code")
		}
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = $1`, "token-client:"+app.clientID); n < auth.TokenAddressLimit-auth.TokenAddressLimit/len(refusals) {
			t.Errorf("the client's count: %d", n)
		}
		exec(t, db, `UPDATE login_throttle SET window_start = $1 WHERE key LIKE 'token-%'`, time.Now().UTC().Add(-auth.TokenWindow-time.Minute))
		if n, err := (&auth.Clients{DB: db}).CloseRefusalWindows(context.Background()); err != nil || n != 1 {
			t.Fatalf("windows closed: %d %v", n, err)
		}
		detail := queryString(t, db, `SELECT detail FROM audit_events WHERE action = 'api_client.token' AND outcome = 'denied'`)
		if want := fmt.Sprintf("%d refused token requests from 127.0.0.1", auth.TokenAddressLimit+1); !strings.HasPrefix(detail, want) {
			t.Errorf("audited %q, want %q", detail, want)
		}
		// The window ended: the good code is exchanged.
		if status, out := app.exchange(t, code, verifier); status != http.StatusOK {
			t.Errorf("after the window: %d %v", status, out)
		}
	})
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func exec(t *testing.T, db *database.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
