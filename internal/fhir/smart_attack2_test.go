package fhir_test

// A second attacker's review of SMART App Launch (issue 54, item 8): each test is a probe of
// the final state — stolen or replayed codes and tokens, scopes widened, access kept after
// the account's remedies, a patient-context token reaching another patient, CORS and the
// token endpoint's throttle — against a real server and database.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// launchedToken launches app from patient's chart as who, approves scope and exchanges the
// code: the token answer.
func launchedToken(t *testing.T, app smartApp, who *apitest.Client, patient int64, scope string) map[string]any {
	t.Helper()
	verifier, challenge := pkce(fmt.Sprintf("a%d-", time.Now().UnixNano()))
	code := app.approve(t, who, app.request(scope, app.launch(t, who, patient), challenge), 0)
	status, tok := app.exchange(t, code, verifier)
	if status != http.StatusOK {
		t.Fatalf("exchange: %d %v", status, tok)
	}
	return tok
}

// standaloneToken approves a standalone launch/patient request for patient as who.
func standaloneToken(t *testing.T, app smartApp, who *apitest.Client, patient int64, scope string) map[string]any {
	t.Helper()
	verifier, challenge := pkce(fmt.Sprintf("s%d-", time.Now().UnixNano()))
	code := app.approve(t, who, app.request(scope, "", challenge), patient)
	status, tok := app.exchange(t, code, verifier)
	if status != http.StatusOK {
		t.Fatalf("exchange: %d %v", status, tok)
	}
	return tok
}

// TestSmartAttackCodeAndRedirect: a code is useless to another client and without its
// verifier (a plain-method verifier, the challenge itself, included); a redirect URI that
// only resembles a registered one is never sent anything (RFC 6749 §4.1.2.1, §10.6; RFC 9700
// §4.1.3); the authorization endpoint redirects only to the consent page.
func TestSmartAttackCodeAndRedirect(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs")
		thief := c.registerApp(t, "patient/*.rs user/*.rs") // a second app, its redirect URI the same

		t.Run("another registered client presents the code with its verifier", func(t *testing.T) {
			verifier, challenge := pkce("steal-")
			code := app.approve(t, c.doctor, app.request("launch/patient patient/*.rs", "", challenge), c.patientID)
			if status, out := thief.exchange(t, code, verifier); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Fatalf("the thief's exchange: %d %v", status, out)
			}
			// The thief's attempt named another client: the code is not spent for its own.
			if status, out := app.exchange(t, code, verifier); status != http.StatusOK {
				t.Errorf("the app's exchange after the thief's: %d %v", status, out)
			}
		})

		t.Run("PKCE downgrade: the challenge as its own verifier, a lower-case method", func(t *testing.T) {
			_, challenge := pkce("plain-")
			code := app.approve(t, c.doctor, app.request("launch/patient patient/*.rs", "", challenge), c.patientID)
			if status, out := app.exchange(t, code, challenge); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("the challenge as verifier: %d %v", status, out)
			}
			req := app.request("launch/patient patient/*.rs", "", challenge)
			req["code_challenge_method"] = "s256"
			var out struct{ Redirect string }
			c.doctor.Do("GET", "/api/smart/authorize?"+query(req), nil).JSON(t, &out)
			if !strings.Contains(out.Redirect, "error=invalid_request") {
				t.Errorf("method s256: %q", out.Redirect)
			}
		})

		t.Run("redirect URIs resembling the registered one are shown, never sent to", func(t *testing.T) {
			_, challenge := pkce("redir-")
			for _, uri := range []string{
				"https://GROWTH.example/callback", "https://growth.example/Callback", "https://growth.example/callback?next=https://evil.example",
				"https://growth.example/callback#x", "https://growth.example/callback/../evil", "https://growth.example@evil.example/callback",
				"https://growth.example.evil.example/callback", "http://growth.example/callback", "https://growth.example:8443/callback",
				"https://growth.example/callback%2F..%2Fevil", "//evil.example/callback", "", " https://growth.example/callback",
			} {
				req := app.request("launch/patient patient/*.rs", "", challenge)
				req["redirect_uri"] = uri
				for _, r := range []apitest.Response{
					c.doctor.Do("GET", "/api/smart/authorize?"+query(req), nil),
					c.doctor.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": true, "patient_id": c.patientID}),
					c.doctor.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": false}),
				} {
					if r.Status != http.StatusUnprocessableEntity || strings.Contains(string(r.Body), `"redirect":`) {
						t.Errorf("redirect_uri %q: %d %s", uri, r.Status, r.Body)
					}
				}
			}
		})

		t.Run("the authorization endpoint sends the browser to the consent page alone", func(t *testing.T) {
			noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			for _, q := range []string{
				"redirect_uri=https://evil.example/&client_id=nobody",
				"response_type=code&client_id=x&redirect_uri=%0d%0aLocation:%20https://evil.example",
				"next=https://evil.example&return_to=//evil.example",
			} {
				resp, err := noRedirect.Get(c.env.HTTP.URL + "/fhir/R4/auth/authorize?" + q)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				loc := resp.Header.Get("Location")
				if resp.StatusCode == http.StatusFound && !strings.HasPrefix(loc, "/smart/authorize?") {
					t.Errorf("authorize?%s redirects to %q", q, loc)
				}
			}
		})

		t.Run("an access token is neither a code nor a refresh token", func(t *testing.T) {
			tok := standaloneToken(t, app, c.doctor, c.patientID, "launch/patient patient/*.rs online_access")
			if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["access_token"].(string)}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("the access token as a refresh token: %d %v", status, out)
			}
			if status, out := app.exchange(t, tok["access_token"].(string), "x"); status != http.StatusBadRequest {
				t.Errorf("the access token as a code: %d %v", status, out)
			}
			// The refresh token is no bearer token.
			if r := app.bearer(tok["refresh_token"]).Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), nil); r.Status != http.StatusUnauthorized {
				t.Errorf("the refresh token as a bearer: %d", r.Status)
			}
			// Another client's refresh: refused, and the app's token stays unspent.
			if status, out := thief.refresh(t, tok["refresh_token"], ""); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("the thief's refresh: %d %v", status, out)
			}
			if status, out := app.refresh(t, tok["refresh_token"], ""); status != http.StatusOK {
				t.Errorf("the app's refresh after the thief's: %d %v", status, out)
			}
		})

		t.Run("a token in the query string or beside a session cookie is refused", func(t *testing.T) {
			tok := standaloneToken(t, app, c.doctor, c.patientID, "launch/patient patient/*.rs")
			path := fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID)
			if r := c.env.Client().Do("GET", path+"?access_token="+url.QueryEscape(tok["access_token"].(string)), nil); r.Status != http.StatusUnauthorized {
				t.Errorf("access_token in the query: %d", r.Status)
			}
		})
	})
}

// TestSmartAttackWidenScopes: a refresh never widens (RFC 6749 §6), v1 names and wildcard
// spellings included; the consent cannot be answered with a scope the page did not offer;
// an app's token opens nothing outside the FHIR API, nor any session-only route.
func TestSmartAttackWidenScopes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs user/*.cruds")
		tok := standaloneToken(t, app, c.doctor, c.patientID, "launch/patient patient/Observation.rs online_access")
		for _, scope := range []string{"patient/Observation.read", "patient/*.rs", "patient/Observation.rs patient/Patient.rs", "user/Observation.rs",
			"patient/Observation.rs offline_access", "patient/Observation.cruds", "patient/Observation.*", "launch"} {
			if status, out := app.refresh(t, tok["refresh_token"], scope); status != http.StatusBadRequest || out["error"] != "invalid_scope" {
				t.Errorf("refresh widened to %q: %d %v", scope, status, out)
			}
		}
		status, next := app.refresh(t, tok["refresh_token"], "")
		if status != http.StatusOK || next["scope"] != "launch/patient patient/Observation.rs online_access" {
			t.Fatalf("refresh: %d %v", status, next)
		}

		cl := app.bearer(next["access_token"])
		for _, path := range []string{"/api/patients", "/api/auth/me", "/api/smart/apps", "/api/smart-apps", "/api/api-tokens"} {
			if r := cl.Do("GET", path, nil); r.Status < 400 {
				t.Errorf("GET %s with an app token: %d", path, r.Status)
			}
		}
		for _, post := range []struct {
			path string
			body any
		}{
			{"/api/smart/launch", map[string]any{"app_id": app.id, "patient_id": c.nkaID}},
			{"/api/smart/authorize", map[string]any{"request": app.request("launch/patient patient/*.rs", "", "x"), "approve": true, "patient_id": c.nkaID}},
			{"/api/api-tokens", map[string]any{"name": "heir", "scopes": "user/*.rs", "expires_in_days": 30}},
		} {
			if r := cl.Do("POST", post.path, post.body); r.Status < 400 {
				t.Errorf("POST %s with an app token: %d %s", post.path, r.Status, r.Body)
			}
		}
		// patient/ scopes are granted read-only: no write, whatever the registration allows.
		if r := cl.Do("POST", "/fhir/R4/Patient", map[string]any{"resourceType": "Patient", "name": []any{map[string]any{"family": "X"}}, "gender": "male", "birthDate": "2000-01-01"}); r.Status != http.StatusForbidden {
			t.Errorf("a patient/ token creates a patient: %d", r.Status)
		}
	})
}

// TestSmartAttackKeepsAccess: after the account's remedies (a password change, deactivation,
// a role taken away) and the app's revocation, neither the access token nor the refresh
// token of an offline_access grant gives anything more (ADR 39; RFC 9700 §4.14).
func TestSmartAttackKeepsAccess(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs user/*.rs")
		obs := fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.patientID)
		for _, tc := range []struct {
			name   string
			remedy func(t *testing.T, user, pw string, session *apitest.Client)
			// bearer is the status the access token gets afterwards; refreshOK whether a refresh still works
			bearer    int
			refreshOK bool
		}{
			{"the password changed", func(t *testing.T, user, pw string, s *apitest.Client) {
				if r := s.Do("POST", "/api/profile/password", map[string]any{"current_password": pw, "new_password": "quiet harbour 9 meadow 3"}); r.Status >= 300 {
					t.Fatalf("password change: %d %s", r.Status, r.Body)
				}
			}, http.StatusUnauthorized, false},
			{"the account deactivated", func(t *testing.T, user, _ string, _ *apitest.Client) {
				var u struct {
					Name, Email string
					Roles       []string
					Version     int
				}
				id := c.env.UserID(user)
				c.admin.Do("GET", fmt.Sprintf("/api/users/%d", id), nil).JSON(t, &u)
				if r := c.admin.Do("PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"name": u.Name, "email": u.Email, "roles": u.Roles, "active": false, "version": u.Version}); r.Status >= 300 {
					t.Fatalf("deactivate: %d %s", r.Status, r.Body)
				}
			}, http.StatusUnauthorized, false},
			{"the clinical role taken away", func(t *testing.T, user, _ string, _ *apitest.Client) {
				var u struct {
					Name, Email string
					Version     int
				}
				id := c.env.UserID(user)
				c.admin.Do("GET", fmt.Sprintf("/api/users/%d", id), nil).JSON(t, &u)
				if r := c.admin.Do("PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"name": u.Name, "email": u.Email, "roles": []string{"receptionist"}, "active": true, "version": u.Version}); r.Status >= 300 {
					t.Fatalf("change roles: %d %s", r.Status, r.Body)
				}
			}, http.StatusForbidden, true},
			{"the app revoked", func(t *testing.T, _, _ string, _ *apitest.Client) {
				if r := c.admin.Do("DELETE", fmt.Sprintf("/api/smart-apps/%d", app.id), nil); r.Status != http.StatusOK {
					t.Fatalf("revoke: %d %s", r.Status, r.Body)
				}
			}, http.StatusUnauthorized, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				user := fmt.Sprintf("doc%d", time.Now().UnixNano()%1e9)
				pw := c.env.CreateUser(user, "doctor")
				session := c.env.LoggedIn(user, pw)
				tok := launchedToken(t, app, session, c.patientID, "launch offline_access patient/*.rs user/*.rs")
				get(t, app.bearer(tok["access_token"]), obs, http.StatusOK)
				tc.remedy(t, user, pw, session)
				if r := app.bearer(tok["access_token"]).Do("GET", obs, nil); r.Status != tc.bearer {
					t.Errorf("the access token after: %d, want %d", r.Status, tc.bearer)
				}
				status, out := app.refresh(t, tok["refresh_token"], "")
				if tc.refreshOK != (status == http.StatusOK) {
					t.Errorf("refresh after: %d %v", status, out)
				}
				if status == http.StatusOK {
					if r := app.bearer(out["access_token"]).Do("GET", obs, nil); r.Status != tc.bearer {
						t.Errorf("the refreshed token: %d, want %d", r.Status, tc.bearer)
					}
				}
			})
		}
	})
}

// TestSmartAttackConfinedSearch: a token confined to one patient tries every other way to
// name another patient in a search, a read, a history or an operation; none answers
// anything of them, and a count says nothing of them either (SMART App Launch 2.x,
// "patient/ scopes": the patient in context only).
func TestSmartAttackConfinedSearch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		launched, other := c.nkaID, c.patientID
		app := c.registerApp(t, "patient/*.rs")
		tok := launchedToken(t, app, c.doctor, launched, "launch patient/*.rs")
		cl := app.bearer(tok["access_token"])

		// The other patient's resources, as the doctor's session reads them.
		var theirs []string
		for _, kind := range []string{"Observation", "Condition", "Encounter", "AllergyIntolerance", "Appointment"} {
			for _, id := range ids(get(t, c.doctor, fmt.Sprintf("/fhir/R4/%s?patient=%d", kind, other), http.StatusOK)) {
				theirs = append(theirs, kind+"/"+id)
			}
		}
		if len(theirs) < 4 {
			t.Fatalf("the other patient's record: %v", theirs)
		}
		o, l := strconv.FormatInt(other, 10), strconv.FormatInt(launched, 10)
		paths := []string{
			"Observation?subject:Patient=" + o, "Observation?subject=" + o, "Observation?patient=" + l + "," + o,
			"Observation?patient=Patient/" + o, "Observation?patient=https://evil.example/Patient/" + o, "Observation?patient:missing=true",
			"Observation?patient=" + l + "&patient=" + o, "Patient?_id=" + o, "Patient?_id=" + l + "," + o,
			"Patient?identifier=" + url.QueryEscape(c.mrn), "Patient?name=" + url.QueryEscape("Lê"), "Patient?birthdate=1970-03-02",
			"Encounter?subject=Patient/" + o, "Appointment?actor=Patient/" + o, "Appointment?patient=" + o,
			"Observation?_summary=count", "Observation?patient=" + o + "&_summary=count", "Condition?_total=accurate",
			"Patient/" + o + "/$everything", "Patient/" + o + "/_history", "Patient/" + o + "/_history/1",
			"Group", "Practitioner", "Organization", "Patient/$export", "$export", "Observation/_history", "Patient/_history",
			"Observation?_include=Observation:patient&patient=" + o, "Encounter?_revinclude=Observation:encounter",
		}
		for _, ref := range theirs {
			paths = append(paths, ref, ref+"/_history", ref+"/_history/1", strings.Replace(ref, "/", "?_id=", 1))
		}
		var batch []map[string]any
		for _, p := range paths {
			r := cl.Do("GET", "/fhir/R4/"+p, nil)
			if r.Status == http.StatusOK {
				var doc map[string]any
				if err := json.Unmarshal(r.Body, &doc); err != nil {
					t.Fatalf("GET %s: %v", p, err)
				}
				for _, res := range resourcesIn(doc) {
					if aboutPatient(res, other) {
						t.Errorf("GET %s answers the other patient's %s %v", p, res["resourceType"], res["id"])
					}
				}
				if total, ok := doc["total"].(float64); ok && total > 0 && strings.Contains(p, o) {
					t.Errorf("GET %s counts %v of the other patient's", p, total)
				}
			} else if r.Status != http.StatusForbidden && r.Status != http.StatusNotFound && r.Status != http.StatusBadRequest {
				t.Errorf("GET %s: %d %s", p, r.Status, r.Body)
			}
			batch = append(batch, map[string]any{"request": map[string]any{"method": "GET", "url": p}})
		}
		r := cl.Do("POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "batch", "entry": batch})
		var doc any
		_ = json.Unmarshal(r.Body, &doc)
		for _, res := range resourcesIn(doc) {
			if aboutPatient(res, other) {
				t.Errorf("a batch answers the other patient's %s %v", res["resourceType"], res["id"])
			}
		}
		// Counts of the whole clinic, through the confinement: only the launch patient's.
		var counted map[string]any
		cl.Do("GET", "/fhir/R4/Observation?_summary=count", nil).JSON(t, &counted)
		if n, _ := counted["total"].(float64); n != 0 { // the launch patient has no visit
			t.Errorf("Observation?_summary=count: %v", counted["total"])
		}
	})
}

// TestSmartAttackConditionalSearchOutsideContext: a write scope (user/Patient.c,
// user/Appointment.c) beside a patient/ scope must not turn the write's condition into a
// search of the whole register.
// A conditional create answers how many patients match (201, 200 with the match's id, 412):
// to a caller confined to one patient, that is a search by any criteria of patients it may
// not read, as it is to a caller who may read none (write.go's createIfNone, bundle.go's
// conditionalReference: identifier alone).
func TestSmartAttackConditionalSearchOutsideContext(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		launched, other := c.nkaID, c.patientID
		app := c.registerApp(t, "patient/Patient.rs user/Patient.c user/Appointment.c")
		tok := launchedToken(t, app, c.clerk, launched, "launch patient/Patient.rs user/Patient.c user/Appointment.c")
		if tok["scope"] != "launch patient/Patient.rs user/Patient.c user/Appointment.c" {
			t.Fatalf("granted %v", tok["scope"])
		}
		cl := app.bearer(tok["access_token"])
		if r := cl.Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", other), nil); r.Status != http.StatusForbidden {
			t.Fatalf("the other patient read: %d", r.Status)
		}
		if r := cl.Do("GET", "/fhir/R4/Patient?name="+url.QueryEscape("Lê"), nil); r.Status != http.StatusOK || len(ids(validResource(t, r.Body))) != 0 {
			t.Fatalf("the register searched by name: %d %s", r.Status, r.Body)
		}
		probe := map[string]any{"resourceType": "Patient", "name": []any{map[string]any{"family": "Probe", "given": []string{"Oracle"}}}, "gender": "female", "birthDate": "2001-01-01"}
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`)

		t.Run("If-None-Exist by name", func(t *testing.T) {
			cond := app.bearer(tok["access_token"])
			cond.Header.Set("If-None-Exist", "name="+url.QueryEscape("Lê")+"&birthdate=1970-03-02")
			r := cond.Do("POST", "/fhir/R4/Patient", probe)
			if r.Status != http.StatusForbidden {
				t.Errorf("a conditional create by name: %d %s", r.Status, r.Body)
			}
			if strings.Contains(string(r.Body), `"id":"`+strconv.FormatInt(other, 10)+`"`) {
				t.Errorf("the answer names the other patient: %s", r.Body)
			}
		})
		t.Run("a transaction's conditional create and conditional reference by name", func(t *testing.T) {
			for _, entry := range []map[string]any{
				{"resource": probe, "request": map[string]any{"method": "POST", "url": "Patient", "ifNoneExist": "name=" + url.QueryEscape("Lê") + "&birthdate=1970-03-02"}},
				{"resource": c.booking("Patient?name="+url.QueryEscape("Lê")+"&birthdate=1970-03-02", 0), "request": map[string]any{"method": "POST", "url": "Appointment"}},
			} {
				r := cl.Do("POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "transaction", "entry": []any{entry}})
				if r.Status == http.StatusOK || strings.Contains(string(r.Body), "Patient/"+strconv.FormatInt(other, 10)) ||
					strings.Contains(string(r.Body), `"id":"`+strconv.FormatInt(other, 10)+`"`) {
					t.Errorf("a transaction searched the register: %d %s", r.Status, r.Body)
				}
			}
		})
		t.Run("by identifier alone, as a caller who reads no patient may", func(t *testing.T) {
			cond := app.bearer(tok["access_token"])
			cond.Header.Set("If-None-Exist", "identifier=urn:emr:probe|none-such")
			if r := cond.Do("POST", "/fhir/R4/Patient", probe); r.Status != http.StatusCreated {
				t.Errorf("a conditional create by identifier: %d %s", r.Status, r.Body)
			}
		})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); n > before+1 {
			t.Errorf("patients: %d before, %d after", before, n)
		}
	})
}

// TestSmartAttackCORS: an origin not named, a look-alike of a named one or "null" gets no
// CORS answer; no answer ever allows credentials; the native API answers no origin
// (Fetch standard, CORS protocol; OWASP HTML5 Security Cheat Sheet, CORS).
func TestSmartAttackCORS(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := apitest.Config()
		cfg.CORSOrigins = []string{"https://growth.example"}
		env := apitest.NewWith(t, db, cfg)
		for _, tc := range []struct {
			origin, method, path string
			allowed              bool
		}{
			{"https://growth.example", "OPTIONS", "/fhir/R4/auth/token", true},
			{"https://growth.example", "OPTIONS", "/api/users", false},
			{"https://growth.example", "GET", "/api/auth/me", false},
			{"https://growth.example.evil.example", "OPTIONS", "/fhir/R4/Patient", false},
			{"https://evil.example", "OPTIONS", "/fhir/R4/Patient", false},
			{"http://growth.example", "OPTIONS", "/fhir/R4/Patient", false},
			{"https://GROWTH.example", "OPTIONS", "/fhir/R4/Patient", false},
			{"null", "OPTIONS", "/fhir/R4/Patient", false},
			{"https://growth.example, https://evil.example", "GET", "/fhir/R4/metadata", false},
		} {
			req, _ := http.NewRequest(tc.method, env.HTTP.URL+tc.path, nil)
			req.Header.Set("Origin", tc.origin)
			if tc.method == "OPTIONS" {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "authorization, cookie, x-xsrf-token")
			}
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := resp.Header.Get("Access-Control-Allow-Origin")
			if (got != "") != tc.allowed || (got != "" && got != tc.origin) {
				t.Errorf("%s %s from %q: Access-Control-Allow-Origin %q", tc.method, tc.path, tc.origin, got)
			}
			if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("%s %s from %q allows credentials", tc.method, tc.path, tc.origin)
			}
			if h := resp.Header.Get("Access-Control-Allow-Headers"); strings.Contains(strings.ToLower(h), "cookie") || strings.Contains(strings.ToLower(h), "xsrf") {
				t.Errorf("%s %s allows the headers %q", tc.method, tc.path, h)
			}
		}
		// The consent page is never framed (clickjacking, OWASP).
		resp, err := http.Get(env.HTTP.URL + "/smart/authorize?client_id=x")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("the consent page's framing headers: %q %q", resp.Header.Get("X-Frame-Options"), resp.Header.Get("Content-Security-Policy"))
		}
	})
}

// TestSmartAttackThrottleRotatingClients: a flood naming a new client_id at each request,
// or none, is still stopped by its address block's limit (RFC 6819 §4.4.1.3, §5.1.4.2.3).
func TestSmartAttackThrottleRotatingClients(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs")
		for i := range auth.TokenAddressLimit {
			form := url.Values{"grant_type": {"authorization_code"}, "code": {fmt.Sprintf("guess-%d", i)}, "redirect_uri": {appRedirect}, "code_verifier": {strings.Repeat("v", 43)},
				"client_id": {fmt.Sprintf("emr-app-rotating-%d", i)}}
			if i%2 == 1 {
				form = url.Values{"grant_type": {"refresh_token"}, "refresh_token": {fmt.Sprintf("%sguess-%d", auth.RefreshTokenPrefix, i)}, "client_id": {""}}
			}
			resp, err := http.PostForm(c.env.HTTP.URL+"/fhir/R4/auth/token", form)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("guess %d: %d", i, resp.StatusCode)
			}
		}
		verifier, challenge := pkce("after-")
		code := app.approve(t, c.doctor, app.request("launch/patient patient/*.rs", "", challenge), c.patientID)
		if status, out := app.exchange(t, code, verifier); status != http.StatusTooManyRequests {
			t.Errorf("after %d guesses under rotating client_ids: %d %v", auth.TokenAddressLimit, status, out)
		}
	})
}

// TestSmartAttackRaces: the same code or refresh token sent twice at once gives tokens to
// one request at most, and the reuse ends the grant (RFC 6749 §4.1.2, §10.5; RFC 9700
// §4.14.2); a consent without the session's CSRF token is refused (RFC 6749 §10.12).
func TestSmartAttackRaces(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs")
		path := fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID)
		race := func(send func() (int, map[string]any)) []map[string]any {
			const n = 4
			answers := make(chan map[string]any, n)
			for range n {
				go func() {
					status, out := send()
					if status != http.StatusOK {
						out = nil
					}
					answers <- out
				}()
			}
			var issued []map[string]any
			for range n {
				if out := <-answers; out != nil {
					issued = append(issued, out)
				}
			}
			return issued
		}
		live := func(issued []map[string]any) int {
			n := 0
			for _, tok := range issued {
				if app.bearer(tok["access_token"]).Do("GET", path, nil).Status == http.StatusOK {
					n++
				}
			}
			return n
		}

		verifier, challenge := pkce("race-")
		code := app.approve(t, c.doctor, app.request("launch/patient patient/*.rs offline_access", "", challenge), c.patientID)
		issued := race(func() (int, map[string]any) { return app.exchange(t, code, verifier) })
		if len(issued) > 1 {
			t.Errorf("one code raced: %d answered", len(issued))
		}
		if live(issued) != 0 {
			t.Errorf("the raced code's token still reads: its grant was not ended")
		}

		tok := standaloneToken(t, app, c.doctor, c.patientID, "launch/patient patient/*.rs offline_access")
		issued = race(func() (int, map[string]any) { return app.refresh(t, tok["refresh_token"], "") })
		if len(issued) > 1 {
			t.Errorf("one refresh token raced: %d answered", len(issued))
		}
		if live(issued) != 0 || app.bearer(tok["access_token"]).Do("GET", path, nil).Status != http.StatusUnauthorized {
			t.Error("a raced refresh token left its grant's tokens reading")
		}

		// The consent without the CSRF header, the session's cookie sent as a cross-site form would.
		_, challenge = pkce("csrf-")
		body, _ := json.Marshal(map[string]any{"request": app.request("launch/patient patient/*.rs", "", challenge), "approve": true, "patient_id": c.patientID})
		req, _ := http.NewRequest("POST", c.env.HTTP.URL+"/api/smart/authorize", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: c.doctor.Cookie(auth.SessionCookie)})
		req.AddCookie(&http.Cookie{Name: auth.CSRFCookie, Value: c.doctor.Cookie(auth.CSRFCookie)})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("a consent without the CSRF header: %d", resp.StatusCode)
		}
	})
}

// TestSmartAttackLockOutAnApp: a SMART app's client_id is public (every authorization request
// carries it) and its users come from everywhere. Refused requests naming it from a few
// addresses, each under its own limit, must not lock every user of the app out of the token
// endpoint (OWASP Authentication Cheat Sheet, account lockout as denial of service; RFC 6819
// §5.1.4.2.3): the address blocks' limits stop the flood, the client's name is counted for
// the audit log alone.
func TestSmartAttackLockOutAnApp(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := apitest.Config()
		cfg.TrustProxy = true // the flood names its addresses in X-Forwarded-For
		env := apitest.NewWith(t, db, cfg)
		c := &clinic{env: env}
		c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
		setPublicURL(t, c.admin, env.HTTP.URL)
		app := c.registerApp(t, "user/Patient.rs")

		flood := func(address string, n int) {
			for i := range n {
				form := url.Values{"grant_type": {"authorization_code"}, "client_id": {app.clientID}, "code": {fmt.Sprintf("guess-%s-%d", address, i)},
					"redirect_uri": {appRedirect}, "code_verifier": {strings.Repeat("v", 43)}}
				req, _ := http.NewRequest("POST", env.HTTP.URL+"/fhir/R4/auth/token", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("X-Forwarded-For", address)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
		}
		flood("198.51.100.7", auth.TokenAddressLimit)
		flood("203.0.113.9", auth.TokenAddressLimit)

		// A user elsewhere signs in to the app.
		verifier, challenge := pkce("user-")
		code := app.approve(t, c.doctor, app.request("user/Patient.rs", "", challenge), 0)
		if status, out := app.exchange(t, code, verifier); status != http.StatusOK {
			t.Errorf("the app's user after a flood naming it: %d %v", status, out)
		}
		// The flooding addresses stay stopped.
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {app.clientID}, "code": {"one-more"}, "redirect_uri": {appRedirect}, "code_verifier": {strings.Repeat("v", 43)}}
		req, _ := http.NewRequest("POST", env.HTTP.URL+"/fhir/R4/auth/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "198.51.100.7")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("the flooding address: %d", resp.StatusCode)
		}
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = $1`, "token-client:"+app.clientID); n < 2*auth.TokenAddressLimit {
			t.Errorf("the app's name counted %d refusals", n)
		}
	})
}
