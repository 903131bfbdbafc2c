package fhir_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

const (
	appRedirect = "https://growth.example/callback"
	appLaunch   = "https://growth.example/launch"
)

// smartApp is an app registered in a test clinic, and the PKCE pair of its next request.
type smartApp struct {
	c        *clinic
	id       int64
	clientID string
}

func (c *clinic) registerApp(t *testing.T, scopes string) smartApp {
	t.Helper()
	var app auth.SmartApp
	r := c.admin.Do("POST", "/api/smart-apps", map[string]any{"name": "Growth chart", "redirect_uris": []string{appRedirect}, "launch_url": appLaunch, "scopes": scopes})
	if r.Status != http.StatusCreated {
		t.Fatalf("register app: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &app)
	return smartApp{c: c, id: app.ID, clientID: app.ClientID}
}

// pkce is a code verifier and its S256 challenge.
func pkce(seed string) (verifier, challenge string) {
	verifier = strings.Repeat(seed, 50/len(seed)+1)[:50]
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// launch opens the app from patient's chart as who and returns the launch parameter.
func (a smartApp) launch(t *testing.T, who *apitest.Client, patient int64) string {
	t.Helper()
	var out struct{ URL string }
	r := who.Do("POST", "/api/smart/launch", map[string]any{"app_id": a.id, "patient_id": patient})
	if r.Status != http.StatusOK {
		t.Fatalf("launch: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	u, _ := url.Parse(out.URL)
	if !strings.HasPrefix(out.URL, appLaunch+"?") || u.Query().Get("iss") != a.c.env.HTTP.URL+"/fhir/R4" {
		t.Fatalf("launch URL %s", out.URL)
	}
	return u.Query().Get("launch")
}

// request is an authorization request of the app with scope, a launch ("" for none) and
// challenge.
func (a smartApp) request(scope, launch, challenge string) map[string]string {
	req := map[string]string{"response_type": "code", "client_id": a.clientID, "redirect_uri": appRedirect, "scope": scope, "state": "st-42",
		"aud": a.c.env.HTTP.URL + "/fhir/R4", "code_challenge": challenge, "code_challenge_method": "S256", "nonce": "n-7"}
	if launch != "" {
		req["launch"] = launch
	}
	return req
}

func query(req map[string]string) string {
	v := url.Values{}
	for k, s := range req {
		v.Set(k, s)
	}
	return v.Encode()
}

// approve has who approve req (with the patient chosen, when one must be) and returns the
// code sent back to the app.
func (a smartApp) approve(t *testing.T, who *apitest.Client, req map[string]string, patient int64) string {
	t.Helper()
	var out struct{ Redirect string }
	r := who.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": true, "patient_id": patient})
	if r.Status != http.StatusOK {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	u, _ := url.Parse(out.Redirect)
	if !strings.HasPrefix(out.Redirect, appRedirect+"?") || u.Query().Get("state") != "st-42" || u.Query().Get("code") == "" {
		t.Fatalf("approved: %s", out.Redirect)
	}
	return u.Query().Get("code")
}

// tokenAnswer posts a token request to the token endpoint.
func (a smartApp) token(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	if form.Get("client_id") == "" {
		form.Set("client_id", a.clientID)
	}
	resp, err := http.PostForm(a.c.env.HTTP.URL+"/fhir/R4/auth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (a smartApp) exchange(t *testing.T, code, verifier string) (int, map[string]any) {
	return a.token(t, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {appRedirect}, "code_verifier": {verifier}})
}

// bearer is a client calling with token alone.
func (a smartApp) bearer(token any) *apitest.Client {
	cl := a.c.env.Client()
	cl.Header.Set("Authorization", fmt.Sprint("Bearer ", token))
	return cl
}

// TestSmartAppLaunch: a doctor launches an app from a patient's chart, approves it, and the
// app's token reads that patient's record and nothing else; its id_token verifies with the
// published keys and names the doctor; refresh tokens rotate.
func TestSmartAppLaunch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		app := c.registerApp(t, "patient/*.rs user/*.rs")
		launch := app.launch(t, c.doctor, c.patientID)
		verifier, challenge := pkce("verifier-")
		req := app.request("launch openid fhirUser offline_access patient/*.read patient/Observation.cruds", launch, challenge)

		var offer struct {
			Scopes, Withheld []string
			Patient          struct {
				ID   int64
				Name string
			}
			NeedsPatient bool `json:"needs_patient"`
		}
		r := c.doctor.Do("GET", "/api/smart/authorize?"+query(req), nil)
		r.JSON(t, &offer)
		want := []string{"launch", "openid", "fhirUser", "offline_access", "patient/*.rs", "patient/Observation.rs"}
		if r.Status != http.StatusOK || !slices.Equal(offer.Scopes, want) || offer.Patient.ID != c.patientID || !strings.Contains(offer.Patient.Name, "Lê") || offer.NeedsPatient {
			t.Fatalf("offer: %d %s", r.Status, r.Body)
		}

		code := app.approve(t, c.doctor, req, 0)
		status, tok := app.exchange(t, code, verifier)
		if status != http.StatusOK || tok["patient"] != strconv.FormatInt(c.patientID, 10) || tok["token_type"] != "Bearer" || tok["refresh_token"] == nil ||
			tok["scope"] != strings.Join(want, " ") {
			t.Fatalf("exchange: %d %v", status, tok)
		}

		// The id_token: signed by a published key, for the app, about the doctor.
		var set jose.JSONWebKeySet
		c.env.Client().Do("GET", "/fhir/R4/.well-known/jwks.json", nil).JSON(t, &set)
		idt, err := jwt.ParseSigned(tok["id_token"].(string), []jose.SignatureAlgorithm{jose.ES256})
		if err != nil || len(set.Keys) == 0 {
			t.Fatalf("id_token %v, keys %d", err, len(set.Keys))
		}
		var claims struct {
			jwt.Claims
			Nonce    string `json:"nonce"`
			FHIRUser string `json:"fhirUser"`
		}
		if err := idt.Claims(set.Keys[0].Key, &claims); err != nil {
			t.Fatalf("id_token signature: %v", err)
		}
		base := c.env.HTTP.URL + "/fhir/R4"
		if err := claims.Validate(jwt.Expected{Issuer: base, AnyAudience: jwt.Audience{app.clientID}, Time: time.Now()}); err != nil || claims.Nonce != "n-7" ||
			claims.FHIRUser != base+"/Practitioner/"+strconv.FormatInt(c.env.UserID("doc"), 10) {
			t.Errorf("id_token claims %+v: %v", claims, err)
		}

		// What the token reads: the patient in context alone.
		appClient := app.bearer(tok["access_token"])
		own := fmt.Sprintf("Patient/%d", c.patientID)
		get(t, appClient, "/fhir/R4/"+own, http.StatusOK)
		if b := get(t, appClient, "/fhir/R4/Patient", http.StatusOK); !slices.Equal(ids(b), []string{strconv.FormatInt(c.patientID, 10)}) {
			t.Errorf("Patient search: %v", ids(b))
		}
		for _, res := range entries(get(t, appClient, "/fhir/R4/Observation", http.StatusOK)) {
			if res["subject"].(map[string]any)["reference"] != own {
				t.Errorf("another patient's observation: %v", res)
			}
		}
		if n := len(entries(get(t, appClient, "/fhir/R4/Observation?patient="+strconv.FormatInt(c.patientID, 10), http.StatusOK))); n == 0 {
			t.Error("the patient's observations: none")
		}
		get(t, appClient, "/fhir/R4/Condition?subject="+own, http.StatusOK)
		get(t, appClient, "/fhir/R4/DiagnosticReport", http.StatusOK)
		refused := []string{
			fmt.Sprintf("/fhir/R4/Patient/%d", c.nkaID),             // another patient
			fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.nkaID), // another patient's search
			fmt.Sprintf("/fhir/R4/AllergyIntolerance?patient=%d", c.nkaID),
			fmt.Sprintf("/fhir/R4/DiagnosticReport?subject=Patient/%d", c.nkaID),
			fmt.Sprintf("/fhir/R4/Patient?_id=%d", c.nkaID),
			fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.nkaID),
			"/fhir/R4/Practitioner",         // not in the patient's compartment
			"/fhir/R4/Observation/_history", // a type's history: every patient's
			"/fhir/R4/$export",
		}
		for _, path := range refused {
			if r := appClient.Do("GET", path, nil); r.Status != http.StatusForbidden {
				t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
			}
		}
		// A read of another patient's record is answered as missing, whatever the app's scopes
		// say of its type: a refusal would tell that it exists.
		if r := appClient.Do("GET", fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-nka", c.nkaID), nil); r.Status != http.StatusNotFound {
			t.Errorf("another patient's AllergyIntolerance: %d %s", r.Status, r.Body)
		}
		// A batch's reads are requests of their own, confined each.
		var batch struct {
			Entry []struct{ Response struct{ Status string } }
		}
		r = appClient.Do("POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "batch", "entry": []map[string]any{
			{"request": map[string]any{"method": "GET", "url": own}},
			{"request": map[string]any{"method": "GET", "url": fmt.Sprintf("Patient/%d", c.nkaID)}},
			{"request": map[string]any{"method": "GET", "url": fmt.Sprintf("Observation?patient=%d", c.nkaID)}},
		}})
		r.JSON(t, &batch)
		if len(batch.Entry) != 3 || !strings.HasPrefix(batch.Entry[0].Response.Status, "200") || !strings.HasPrefix(batch.Entry[1].Response.Status, "403") ||
			!strings.HasPrefix(batch.Entry[2].Response.Status, "403") {
			t.Errorf("a batch of reads: %d %s", r.Status, r.Body)
		}
		if r := appClient.Do("GET", "/api/patients/"+strconv.FormatInt(c.patientID, 10), nil); r.Status != http.StatusForbidden {
			t.Errorf("the native API with an app token: %d", r.Status)
		}
		if r := appClient.Do("POST", "/api/smart/launch", map[string]any{"app_id": app.id, "patient_id": c.patientID}); r.Status != http.StatusForbidden {
			t.Errorf("an app token launching an app: %d", r.Status)
		}
		if r := appClient.Do("POST", "/fhir/R4/Observation", map[string]any{"resourceType": "Observation"}); r.Status != http.StatusForbidden {
			t.Errorf("a write through patient/ scopes: %d", r.Status)
		}

		// Refresh: a new pair; the old refresh token presented again revokes the grant.
		status, next := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}})
		if status != http.StatusOK || next["access_token"] == tok["access_token"] || next["refresh_token"] == tok["refresh_token"] || next["patient"] != tok["patient"] {
			t.Fatalf("refresh: %d %v", status, next)
		}
		get(t, app.bearer(next["access_token"]), "/fhir/R4/"+own, http.StatusOK)
		if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
			t.Errorf("a refresh token used twice: %d %v", status, out)
		}
		if r := app.bearer(next["access_token"]).Do("GET", "/fhir/R4/"+own, nil); r.Status != http.StatusUnauthorized {
			t.Errorf("after refresh reuse, the newest access token: %d", r.Status)
		}
		if status, _ := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next["refresh_token"].(string)}}); status != http.StatusBadRequest {
			t.Errorf("after refresh reuse, the newest refresh token: %d", status)
		}
		// Every step is audited, the app's own with its credential; so are its reads.
		rows, err := db.QueryContext(context.Background(), `SELECT action, COALESCE(credential, '') FROM audit_events WHERE action LIKE 'smart_app.%' OR action = 'fhir.patient.read'`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		credentials := map[string]string{}
		for rows.Next() {
			var action, credential string
			if err := rows.Scan(&action, &credential); err != nil {
				t.Fatal(err)
			}
			credentials[action] = credential
		}
		for _, a := range []string{"smart_app.create", "smart_app.launch", "smart_app.authorize", "smart_app.token", "smart_app.grant_end", "fhir.patient.read"} {
			c, ok := credentials[a]
			if !ok {
				t.Errorf("no %s in the audit log: %v", a, credentials)
			}
			if byApp := strings.HasPrefix(a, "smart_app.token") || strings.HasPrefix(a, "smart_app.grant") || a == "fhir.patient.read"; byApp != strings.HasPrefix(c, "app:"+app.clientID) {
				t.Errorf("%s credential %q", a, c)
			}
		}
	})
}

// TestSmartAppLaunchRefusals: every way an authorization or a token request can be wrong is
// refused, and the refusals that reveal a stolen code or token end what it gave.
func TestSmartAppLaunchRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		app := c.registerApp(t, "patient/*.rs user/*.cruds")
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

		// approved is a fresh code for the standalone launch of scope, and its verifier.
		approved := func(t *testing.T, who *apitest.Client, scope string) (string, string) {
			verifier, challenge := pkce(fmt.Sprintf("v%d-", time.Now().UnixNano()))
			return app.approve(t, who, app.request(scope, "", challenge), c.patientID), verifier
		}

		t.Run("without a public address, neither discovery nor a token: the Host header names nothing", func(t *testing.T) {
			req, _ := http.NewRequest("GET", c.env.HTTP.URL+"/fhir/R4/.well-known/smart-configuration", nil)
			req.Host = "evil.example"
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("discovery at a Host the caller chose: %d", resp.StatusCode)
			}
			code, verifier := approved(t, c.doctor, "launch/patient openid fhirUser patient/*.rs")
			if status, out := app.exchange(t, code, verifier); status != http.StatusServiceUnavailable || out["error"] != "temporarily_unavailable" {
				t.Errorf("a token without a public address: %d %v", status, out)
			}
			setPublicURL(t, c.admin, c.env.HTTP.URL)
			status, tok := app.exchange(t, code, verifier) // the code was not spent by the refusal
			if status != http.StatusOK || tok["id_token"] == nil {
				t.Fatalf("the same code with a public address: %d %v", status, tok)
			}
			idt, err := jwt.ParseSigned(tok["id_token"].(string), []jose.SignatureAlgorithm{jose.ES256})
			if err != nil {
				t.Fatal(err)
			}
			var claims struct {
				jwt.Claims
				FHIRUser string `json:"fhirUser"`
			}
			if err := idt.UnsafeClaimsWithoutVerification(&claims); err != nil || claims.Issuer != c.env.HTTP.URL+"/fhir/R4" || !strings.HasPrefix(claims.FHIRUser, claims.Issuer+"/") {
				t.Errorf("id_token iss %q fhirUser %q: %v", claims.Issuer, claims.FHIRUser, err)
			}
		})

		t.Run("the authorization endpoint hands the request to the consent page", func(t *testing.T) {
			_, challenge := pkce("x-")
			resp, err := noRedirect.Get(c.env.HTTP.URL + "/fhir/R4/auth/authorize?" + query(app.request("launch/patient patient/*.rs", "", challenge)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, "/smart/authorize?") || !strings.Contains(loc, "client_id="+app.clientID) {
				t.Errorf("authorize: %d %s", resp.StatusCode, loc)
			}
		})

		t.Run("requests refused on the consent page or sent back with an error", func(t *testing.T) {
			_, challenge := pkce("y-")
			other := c.registerApp(t, "patient/*.rs")
			otherLaunch := other.launch(t, c.doctor, c.patientID)
			nurseLaunch := app.launch(t, c.nurse, c.patientID)
			for _, tc := range []struct {
				name  string
				edit  func(map[string]string)
				shown bool   // refused on the page (422): nothing goes to the redirect URI
				error string // else the OAuth error sent back
			}{
				{"an unknown client", func(m map[string]string) { m["client_id"] = "emr-app-nobody" }, true, ""},
				{"a redirect URI not registered exactly", func(m map[string]string) { m["redirect_uri"] = appRedirect + "/" }, true, ""},
				{"a redirect URI of another host", func(m map[string]string) { m["redirect_uri"] = "https://evil.example/callback" }, true, ""},
				{"no PKCE challenge", func(m map[string]string) { delete(m, "code_challenge") }, false, "invalid_request"},
				{"a plain PKCE challenge", func(m map[string]string) { m["code_challenge_method"] = "plain" }, false, "invalid_request"},
				{"no state (SMART App Launch 2.x: required)", func(m map[string]string) { delete(m, "state") }, false, "invalid_request"},
				{"a token response type", func(m map[string]string) { m["response_type"] = "token" }, false, "unsupported_response_type"},
				{"another server's aud", func(m map[string]string) { m["aud"] = "https://other.example/fhir" }, false, "invalid_request"},
				{"another app's launch", func(m map[string]string) { m["launch"] = otherLaunch }, false, "invalid_request"},
				{"another user's launch", func(m map[string]string) { m["launch"] = nurseLaunch }, false, "invalid_request"},
				{"the launch scope without a launch", func(m map[string]string) { m["scope"] = "launch patient/*.rs" }, false, "invalid_request"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					req := app.request("launch/patient patient/*.rs", "", challenge)
					tc.edit(req)
					for _, r := range []apitest.Response{
						c.doctor.Do("GET", "/api/smart/authorize?"+query(req), nil),
						c.doctor.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": true, "patient_id": c.patientID}),
					} {
						var out struct{ Redirect string }
						if tc.shown {
							if r.Status != http.StatusUnprocessableEntity {
								t.Errorf("%d %s", r.Status, r.Body)
							}
							continue
						}
						r.JSON(t, &out)
						u, _ := url.Parse(out.Redirect)
						if r.Status != http.StatusOK || u.Query().Get("error") != tc.error || u.Query().Get("code") != "" || u.Query().Get("state") != req["state"] {
							t.Errorf("%d %s", r.Status, r.Body)
						}
					}
				})
			}
		})

		t.Run("scopes wider than the user's are narrowed, never granted", func(t *testing.T) {
			_, challenge := pkce("z-")
			// The receptionist registers patients but records no vitals and writes no diagnosis.
			var offer struct{ Scopes, Withheld []string }
			r := c.clerk.Do("GET", "/api/smart/authorize?"+query(app.request("launch/patient user/Patient.cruds user/Observation.rs patient/*.cruds system/*.rs", "", challenge)), nil)
			r.JSON(t, &offer)
			if r.Status != http.StatusOK || !slices.Equal(offer.Scopes, []string{"launch/patient", "user/Patient.crus", "patient/*.rs"}) ||
				!slices.Equal(offer.Withheld, []string{"user/Observation.rs", "system/*.rs"}) {
				t.Errorf("offer: %d %s", r.Status, r.Body)
			}
			// A scope the page did not offer cannot be approved.
			req := app.request("launch/patient user/Observation.rs", "", challenge)
			if r := c.clerk.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": true, "patient_id": c.patientID, "scopes": []string{"user/Observation.rs"}}); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("approving a scope not offered: %d %s", r.Status, r.Body)
			}
			// Denied: access_denied, no code.
			var out struct{ Redirect string }
			c.clerk.Do("POST", "/api/smart/authorize", map[string]any{"request": req, "approve": false}).JSON(t, &out)
			if !strings.Contains(out.Redirect, "error=access_denied") || strings.Contains(out.Redirect, "code=") {
				t.Errorf("denied: %s", out.Redirect)
			}
			// A patient must be chosen for patient/ scopes in a standalone launch.
			if r := c.doctor.Do("POST", "/api/smart/authorize", map[string]any{"request": app.request("launch/patient patient/*.rs", "", challenge), "approve": true}); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("no patient chosen: %d %s", r.Status, r.Body)
			}
		})

		t.Run("a code needs its redirect URI, its verifier, its client and its minute", func(t *testing.T) {
			for _, tc := range []struct {
				name string
				form func(verifier string) url.Values
			}{
				{"another redirect URI", func(v string) url.Values {
					return url.Values{"redirect_uri": {appRedirect + "?x=1"}, "code_verifier": {v}}
				}},
				{"no verifier", func(string) url.Values { return url.Values{"redirect_uri": {appRedirect}} }},
				{"a wrong verifier", func(v string) url.Values {
					return url.Values{"redirect_uri": {appRedirect}, "code_verifier": {strings.ToUpper(v)}}
				}},
				{"another client", func(v string) url.Values {
					return url.Values{"redirect_uri": {appRedirect}, "code_verifier": {v}, "client_id": {"emr-app-someone-else"}}
				}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					code, verifier := approved(t, c.doctor, "launch/patient patient/*.rs")
					form := tc.form(verifier)
					form.Set("grant_type", "authorization_code")
					form.Set("code", code)
					if status, out := app.token(t, form); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
						t.Errorf("%d %v", status, out)
					}
				})
			}
			t.Run("an expired code", func(t *testing.T) {
				code, verifier := approved(t, c.doctor, "launch/patient patient/*.rs")
				if _, err := db.ExecContext(context.Background(), `UPDATE smart_codes SET expires_at = $1`, time.Now().UTC().Add(-time.Second)); err != nil {
					t.Fatal(err)
				}
				if status, out := app.exchange(t, code, verifier); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
					t.Errorf("%d %v", status, out)
				}
			})
		})

		t.Run("a code used twice ends the tokens of its first use", func(t *testing.T) {
			code, verifier := approved(t, c.doctor, "launch/patient patient/*.rs online_access")
			status, tok := app.exchange(t, code, verifier)
			if status != http.StatusOK {
				t.Fatalf("first use: %d %v", status, tok)
			}
			get(t, app.bearer(tok["access_token"]), fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusOK)
			if status, out := app.exchange(t, code, verifier); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("second use: %d %v", status, out)
			}
			if r := app.bearer(tok["access_token"]).Do("GET", fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), nil); r.Status != http.StatusUnauthorized {
				t.Errorf("the first use's access token: %d", r.Status)
			}
			if status, _ := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}); status != http.StatusBadRequest {
				t.Errorf("the first use's refresh token: %d", status)
			}
		})

		t.Run("a refused refresh leaves its token unspent, and one without client_id still names the app", func(t *testing.T) {
			code, verifier := approved(t, c.doctor, "launch/patient openid fhirUser patient/*.rs online_access")
			_, tok := app.exchange(t, code, verifier)
			refresh := tok["refresh_token"].(string)
			sum := sha256.Sum256([]byte(refresh))
			expire := func(at time.Time) {
				t.Helper()
				if _, err := db.ExecContext(context.Background(), `UPDATE smart_tokens SET expires_at = $1 WHERE token_hash = $2`, at, hex.EncodeToString(sum[:])); err != nil {
					t.Fatal(err)
				}
			}
			if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "scope": {"user/*.rs"}}); status != http.StatusBadRequest || out["error"] != "invalid_scope" {
				t.Errorf("a scope not granted: %d %v", status, out)
			}
			expire(time.Now().UTC().Add(-time.Second))
			if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("an expired refresh token: %d %v", status, out)
			}
			expire(time.Now().UTC().Add(time.Hour))

			// The same token, unspent, now answers — asked without client_id (RFC 6749 §6).
			resp, err := http.PostForm(c.env.HTTP.URL+"/fhir/R4/auth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var next map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&next)
			if resp.StatusCode != http.StatusOK || next["access_token"] == nil {
				t.Fatalf("refresh after the refusals: %d %v", resp.StatusCode, next)
			}
			idt, err := jwt.ParseSigned(next["id_token"].(string), []jose.SignatureAlgorithm{jose.ES256})
			if err != nil {
				t.Fatal(err)
			}
			var claims jwt.Claims
			if err := idt.UnsafeClaimsWithoutVerification(&claims); err != nil || !slices.Equal([]string(claims.Audience), []string{app.clientID}) {
				t.Errorf("id_token of a refresh without client_id: aud %v, %v", claims.Audience, err)
			}
		})

		t.Run("a user/ scope reaches what the account does, and the tokens follow the account", func(t *testing.T) {
			pw := c.env.CreateUser("doc2", "doctor")
			doc2 := c.env.LoggedIn("doc2", pw)
			code, verifier := approved(t, doc2, "launch/patient user/Patient.rs offline_access")
			_, tok := app.exchange(t, code, verifier)
			get(t, app.bearer(tok["access_token"]), fmt.Sprintf("/fhir/R4/Patient/%d", c.nkaID), http.StatusOK) // user/: not confined

			// A password change ends the access token and the refresh token (ADR 39).
			if r := doc2.Do("POST", "/api/profile/password", map[string]any{"current_password": pw, "new_password": "a new long password 2"}); r.Status != http.StatusNoContent {
				t.Fatalf("password: %d %s", r.Status, r.Body)
			}
			if r := app.bearer(tok["access_token"]).Do("GET", "/fhir/R4/Patient", nil); r.Status != http.StatusUnauthorized {
				t.Errorf("after a password change: %d", r.Status)
			}
			if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("refresh after a password change: %d %v", status, out)
			}

			// A deactivated account's refresh token is refused.
			doc2 = c.env.LoggedIn("doc2", "a new long password 2")
			code, verifier = approved(t, doc2, "launch/patient user/Patient.rs offline_access")
			_, tok = app.exchange(t, code, verifier)
			var acct map[string]any
			id := c.env.UserID("doc2")
			c.admin.Do("GET", fmt.Sprintf("/api/users/%d", id), nil).JSON(t, &acct)
			acct["active"] = false
			if r := c.admin.Do("PUT", fmt.Sprintf("/api/users/%d", id), acct); r.Status != http.StatusOK {
				t.Fatalf("deactivate: %d %s", r.Status, r.Body)
			}
			if status, out := app.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("a deactivated account's refresh: %d %v", status, out)
			}
			if r := app.bearer(tok["access_token"]).Do("GET", "/fhir/R4/Patient", nil); r.Status != http.StatusUnauthorized {
				t.Errorf("a deactivated account's access token: %d", r.Status)
			}
		})

		t.Run("a revoked app's tokens stop", func(t *testing.T) {
			code, verifier := approved(t, c.doctor, "launch/patient patient/*.rs")
			_, tok := app.exchange(t, code, verifier)
			if r := c.admin.Do("DELETE", fmt.Sprintf("/api/smart-apps/%d", app.id), nil); r.Status != http.StatusOK {
				t.Fatalf("revoke: %d %s", r.Status, r.Body)
			}
			if r := app.bearer(tok["access_token"]).Do("GET", "/fhir/R4/Patient", nil); r.Status != http.StatusUnauthorized {
				t.Errorf("a revoked app's token: %d", r.Status)
			}
		})
	})
}

// TestSmartAppRegistration: an app's redirect and launch URLs are absolute https (http on
// the machine itself), and its scopes patient/ or user/ ones.
func TestSmartAppRegistration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		for _, tc := range []struct {
			name, field string
			body        map[string]any
		}{
			{"a plain http redirect elsewhere", "redirect_uris", map[string]any{"redirect_uris": []string{"http://app.example/cb"}}},
			{"a redirect with a fragment", "redirect_uris", map[string]any{"redirect_uris": []string{"https://app.example/cb#x"}}},
			{"a relative redirect", "redirect_uris", map[string]any{"redirect_uris": []string{"/cb"}}},
			{"no redirect", "redirect_uris", map[string]any{"redirect_uris": []string{}}},
			{"a javascript: launch", "launch_url", map[string]any{"launch_url": "javascript:alert(1)"}},
			{"a system/ scope", "scopes", map[string]any{"scopes": "system/*.rs"}},
			{"a name with a line break", "name", map[string]any{"name": "Growth\nchart"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				body := map[string]any{"name": "Growth chart", "redirect_uris": []string{"http://127.0.0.1:9999/cb"}, "launch_url": "https://app.example/launch", "scopes": "patient/*.rs"}
				for k, v := range tc.body {
					body[k] = v
				}
				r := admin.Do("POST", "/api/smart-apps", body)
				if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[tc.field]) == 0 {
					t.Errorf("%d %s", r.Status, r.Body)
				}
			})
		}
	})
}

// TestCORSForConfiguredOrigins: the FHIR API and its OAuth endpoints answer a configured
// origin's scripts (a preflight, and the headers a bearer request's script may read), never
// with credentials; an origin not configured gets no CORS header; the native API none at all.
func TestCORSForConfiguredOrigins(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	cfg := apitest.Config()
	cfg.CORSOrigins = []string{"https://growth.example"}
	env := apitest.NewWith(t, db, cfg)
	do := func(method, path, origin string, header map[string]string) *http.Response {
		req, _ := http.NewRequest(method, env.HTTP.URL+path, nil)
		req.Header.Set("Origin", origin)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	preflight := map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization"}
	for _, tc := range []struct {
		name, method, path, origin string
		header                     map[string]string
		allowed                    bool
	}{
		{"a configured origin's preflight of a FHIR read", "OPTIONS", "/fhir/R4/Patient", "https://growth.example", preflight, true},
		{"a configured origin's preflight of the token endpoint", "OPTIONS", "/fhir/R4/auth/token", "https://growth.example", preflight, true},
		{"a configured origin's discovery", "GET", "/fhir/R4/.well-known/smart-configuration", "https://growth.example", nil, true},
		{"a configured origin's FHIR read", "GET", "/fhir/R4/metadata", "https://growth.example", nil, true},
		{"an origin not configured", "GET", "/fhir/R4/metadata", "https://evil.example", nil, false},
		{"an origin not configured, preflight", "OPTIONS", "/fhir/R4/Patient", "https://evil.example", preflight, false},
		{"a configured origin on another scheme", "GET", "/fhir/R4/metadata", "http://growth.example", nil, false},
		{"the native API", "GET", "/api/config", "https://growth.example", nil, false},
		{"the native API's preflight", "OPTIONS", "/api/patients", "https://growth.example", preflight, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := do(tc.method, tc.path, tc.origin, tc.header)
			h := resp.Header
			if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("credentials allowed")
			}
			if !tc.allowed {
				if h.Get("Access-Control-Allow-Origin") != "" || h.Get("Access-Control-Allow-Methods") != "" {
					t.Errorf("CORS headers for %s: %v", tc.origin, h)
				}
				return
			}
			if h.Get("Access-Control-Allow-Origin") != tc.origin || !slices.Contains(h.Values("Vary"), "Origin") {
				t.Errorf("%d %v", resp.StatusCode, h)
			}
			if tc.method == "OPTIONS" {
				if resp.StatusCode != http.StatusNoContent || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") ||
					!strings.Contains(h.Get("Access-Control-Allow-Headers"), "If-None-Exist") || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "PUT") {
					t.Errorf("preflight: %d %v", resp.StatusCode, h)
				}
			} else if e := h.Get("Access-Control-Expose-Headers"); !strings.Contains(e, "Location") || !strings.Contains(e, "ETag") || !strings.Contains(e, "X-Progress") {
				t.Errorf("exposed: %q", e)
			}
		})
	}
}

// TestSmartMixedGrantConfinement: a grant holding patient/ scopes and user/ ones confines each
// resource type by the scopes that reach it, not by the route: a route a user/ scope opens
// ($everything, a search with _include or _revinclude, a type's history, a batch) answers
// nothing of another patient of a type only the patient/ scopes reach.
func TestSmartMixedGrantConfinement(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		setPublicURL(t, c.admin, c.env.HTTP.URL)
		// The app is launched for the patient with no visit; the other one has a record of
		// every kind (an encounter, vital signs, diagnoses, an allergy).
		launched, other := c.nkaID, c.patientID
		ops := []string{
			"/fhir/R4/Patient/%d/$everything",
			"/fhir/R4/Patient?_revinclude=Observation:patient",
			"/fhir/R4/Patient?_revinclude=Condition:patient",
			"/fhir/R4/Patient?_revinclude=Encounter:patient",
			"/fhir/R4/Patient?_revinclude=AllergyIntolerance:patient",
			"/fhir/R4/Patient?_revinclude=Appointment:patient",
			"/fhir/R4/Patient?_revinclude=MedicationRequest:patient",
			"/fhir/R4/Patient?_revinclude=Observation:subject&_revinclude=Condition:subject",
			"/fhir/R4/Encounter?_include=Encounter:patient",
			"/fhir/R4/Encounter?_include=Encounter:patient&_revinclude:iterate=Observation:patient&_revinclude:iterate=Condition:patient",
			"/fhir/R4/Condition?_include=Condition:patient&_revinclude:iterate=Encounter:patient",
			"/fhir/R4/Observation?_include=Observation:patient",
			"/fhir/R4/Appointment?_include=Appointment:patient",
			"/fhir/R4/Patient/_history",
			"/fhir/R4/Encounter/_history",
			"/fhir/R4/Observation/_history",
			"/fhir/R4/Condition/_history",
			"/fhir/R4/Patient/%d/_history",
			"/fhir/R4/Patient/%d",
			"/fhir/R4/Observation?patient=%d",
			"/fhir/R4/Condition?subject=Patient/%d",
			"/fhir/R4/Encounter?patient=%d",
			"/fhir/R4/AllergyIntolerance?patient=%d",
		}
		cases := []struct {
			scopes string
			open   []string // the types the user/ scopes read: any patient's may be answered
		}{
			{"patient/*.rs user/Patient.rs", []string{"Patient"}},
			{"patient/*.rs user/Encounter.rs", []string{"Encounter"}},
			{"patient/*.rs user/Patient.rs user/Condition.rs", []string{"Patient", "Condition"}},
			{"patient/Observation.rs patient/Condition.rs user/Patient.rs user/Encounter.rs", []string{"Patient", "Encounter"}},
			{"patient/*.rs user/Appointment.rs", []string{"Appointment"}},
		}
		for _, tc := range cases {
			t.Run(tc.scopes, func(t *testing.T) {
				app := c.registerApp(t, tc.scopes)
				launch := app.launch(t, c.doctor, launched)
				verifier, challenge := pkce("mixed-")
				status, tok := app.exchange(t, app.approve(t, c.doctor, app.request("launch "+tc.scopes, launch, challenge), 0), verifier)
				if status != http.StatusOK || tok["scope"] != "launch "+tc.scopes {
					t.Fatalf("exchange: %d %v", status, tok)
				}
				cl := app.bearer(tok["access_token"])
				leaks := func(what string, body []byte) {
					t.Helper()
					var doc any
					if err := json.Unmarshal(body, &doc); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					for _, res := range resourcesIn(doc) {
						kind, _ := res["resourceType"].(string)
						if slices.Contains(tc.open, kind) || !aboutPatient(res, other) {
							continue
						}
						t.Errorf("%s: another patient's %s %v", what, kind, res["id"])
					}
				}
				var batch []map[string]any
				for _, op := range ops {
					path := op
					if strings.Contains(op, "%d") {
						path = fmt.Sprintf(op, other)
					}
					r := cl.Do("GET", path, nil)
					if r.Status != http.StatusOK && r.Status != http.StatusForbidden {
						t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
					}
					leaks("GET "+path, r.Body)
					batch = append(batch, map[string]any{"request": map[string]any{"method": "GET", "url": strings.TrimPrefix(path, "/fhir/R4/")}})
				}
				r := cl.Do("POST", "/fhir/R4", map[string]any{"resourceType": "Bundle", "type": "batch", "entry": batch})
				if r.Status != http.StatusOK {
					t.Fatalf("batch: %d %s", r.Status, r.Body)
				}
				leaks("a batch", r.Body)

				// What the user/ scopes open stays open, and the launch patient's own record
				// still comes through the patient/ ones.
				if slices.Contains(tc.open, "Patient") {
					get(t, cl, fmt.Sprintf("/fhir/R4/Patient/%d", other), http.StatusOK)
				}
				if slices.Contains(tc.open, "Encounter") {
					if b := get(t, cl, fmt.Sprintf("/fhir/R4/Encounter?patient=%d&_include=Encounter:patient", other), http.StatusOK); len(ids(b)) == 0 {
						t.Error("the other patient's encounters, through user/Encounter: none")
					}
				}
				b := get(t, cl, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", launched), http.StatusOK)
				if !slices.Contains(ids(b), strconv.FormatInt(launched, 10)) {
					t.Errorf("the launch patient's $everything: %v", ids(b))
				}
			})
		}

		// A user/ scope over every type reads what the account does, the patient/ ones
		// notwithstanding: the other patient's observations come through it.
		app := c.registerApp(t, "patient/Observation.rs user/*.rs")
		launch := app.launch(t, c.doctor, launched)
		verifier, challenge := pkce("wide-")
		_, tok := app.exchange(t, app.approve(t, c.doctor, app.request("launch patient/Observation.rs user/*.rs", launch, challenge), 0), verifier)
		b := get(t, app.bearer(tok["access_token"]), fmt.Sprintf("/fhir/R4/Patient/%d/$everything", other), http.StatusOK)
		var kinds []string
		for _, res := range entries(b) {
			kinds = append(kinds, res["resourceType"].(string))
		}
		if !slices.Contains(kinds, "Observation") || !slices.Contains(kinds, "Encounter") {
			t.Errorf("$everything through user/*: %v", kinds)
		}
	})
}

// resourcesIn are the resources anywhere in doc (a Bundle's entries, a batch's answers'),
// Bundles and OperationOutcomes aside.
func resourcesIn(doc any) []map[string]any {
	var out []map[string]any
	switch v := doc.(type) {
	case map[string]any:
		if kind, _ := v["resourceType"].(string); kind != "" && kind != "Bundle" && kind != "OperationOutcome" {
			out = append(out, v)
		}
		for _, x := range v {
			out = append(out, resourcesIn(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, resourcesIn(x)...)
		}
	}
	return out
}

// aboutPatient reports whether res is the patient or refers to them (its subject, patient or
// an actor).
func aboutPatient(res map[string]any, patient int64) bool {
	id := strconv.FormatInt(patient, 10)
	if res["resourceType"] == "Patient" {
		return res["id"] == id
	}
	data, _ := json.Marshal(res)
	return strings.Contains(string(data), `"Patient/`+id+`"`)
}
