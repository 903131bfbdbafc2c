package fhir_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// backendClient is a registered client's private key and id.
type backendClient struct {
	id  string
	key any
	alg jose.SignatureAlgorithm
	kid string
}

// assertion signs a client assertion for aud with the given lifetime and jti.
func (b backendClient) assertion(t *testing.T, aud string, life time.Duration, jti string) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: b.alg, Key: jose.JSONWebKey{Key: b.key, KeyID: b.kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	s, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: b.id, Subject: b.id, Audience: jwt.Audience{aud}, Expiry: jwt.NewNumericDate(now.Add(life)),
		IssuedAt: jwt.NewNumericDate(now), ID: jti}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tokenRequest(t *testing.T, env *apitest.Env, assertion, scope string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion": {assertion}, "scope": {scope}}
	resp, err := http.PostForm(env.HTTP.URL+"/fhir/R4/auth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestBackendServices: a system registered with its public keys gets a five-minute access
// token for its system/ scopes with an RS384 or ES384 assertion; an expired, wrong-audience,
// unknown-key, unsigned or replayed assertion is refused; the token reads what its scopes
// allow on the FHIR API and nothing on the native API; a revoked client's token stops.
func TestBackendServices(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
		ecKey, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &rsaKey.PublicKey, KeyID: "rsa-1", Algorithm: "RS384", Use: "sig"},
			{Key: &ecKey.PublicKey, KeyID: "ec-1", Algorithm: "ES384", Use: "sig"},
		}})
		// A private key, or a bad scope, is refused at registration.
		private, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: rsaKey, KeyID: "oops"}}})
		if r := c.admin.Do("POST", "/api/api-clients", map[string]any{"name": "Registry", "scopes": "system/Patient.rs", "jwks": string(private)}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a private key registered: %d %s", r.Status, r.Body)
		}
		if r := c.admin.Do("POST", "/api/api-clients", map[string]any{"name": "Registry", "scopes": "user/Patient.rs", "jwks": string(jwks)}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a user/ scope for a client: %d %s", r.Status, r.Body)
		}
		var reg struct {
			ID       int64
			ClientID string `json:"client_id"`
		}
		r := c.admin.Do("POST", "/api/api-clients", map[string]any{"name": "Health registry", "scopes": "system/Patient.rs system/Observation.rs", "jwks": string(jwks)})
		if r.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &reg)

		rsaClient := backendClient{id: reg.ClientID, key: rsaKey, alg: jose.RS384, kid: "rsa-1"}
		ecClient := backendClient{id: reg.ClientID, key: ecKey, alg: jose.ES384, kid: "ec-1"}
		// Without the clinic's public address there is nothing to check aud against: no
		// token, whatever the Host says (503, the OAuth error shape).
		if status, out := tokenRequest(t, c.env, rsaClient.assertion(t, c.env.HTTP.URL+"/fhir/R4/auth/token", 4*time.Minute, "jti-0"), ""); status != http.StatusServiceUnavailable || out["error"] != "temporarily_unavailable" {
			t.Errorf("no public address: %d %v", status, out)
		}
		setPublicURL(t, c.admin, "https://emr.example.org/clinic")

		var disc map[string]any
		c.env.Client().Do("GET", "/fhir/R4/.well-known/smart-configuration", nil).JSON(t, &disc)
		aud := disc["token_endpoint"].(string)
		if aud != "https://emr.example.org/clinic/fhir/R4/auth/token" {
			t.Fatalf("token endpoint %q", aud)
		}
		// aud is the public address's token URL, never the Host's: an assertion made for the
		// Host a request names (the test server's own, or a forged one) is refused; the right
		// aud is taken whatever Host the request names.
		for name, host := range map[string]string{"the server's own Host": "", "a forged Host": "evil.example"} {
			hostAud := c.env.HTTP.URL + "/fhir/R4/auth/token"
			if host != "" {
				hostAud = "http://" + host + "/fhir/R4/auth/token"
			}
			if status, _, out := tokenRequestFrom(t, c.env, rsaClient.assertion(t, hostAud, 4*time.Minute, "host-"+name), host, ""); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
				t.Errorf("aud built from %s: %d %v", name, status, out)
			}
		}
		if status, _, out := tokenRequestFrom(t, c.env, rsaClient.assertion(t, aud, 4*time.Minute, "jti-host"), "evil.example", ""); status != http.StatusOK {
			t.Errorf("the public aud under a forged Host: %d %v", status, out)
		}

		status, out := tokenRequest(t, c.env, rsaClient.assertion(t, aud, 4*time.Minute, "jti-1"), "system/Patient.rs")
		if status != http.StatusOK || out["token_type"] != "bearer" || out["expires_in"].(float64) != 300 || out["scope"] != "system/Patient.rs" {
			t.Fatalf("RS384 token: %d %v", status, out)
		}
		token := out["access_token"].(string)
		status, out = tokenRequest(t, c.env, ecClient.assertion(t, aud, 4*time.Minute, "jti-2"), "")
		if status != http.StatusOK || out["scope"] != "system/Patient.rs system/Observation.rs" {
			t.Fatalf("ES384 token: %d %v", status, out)
		}
		// Refused: replayed, expired, too long-lived, another audience, an unknown key, unsigned, more scope.
		unsigned := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." +
			base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, `{"iss":%q,"sub":%q,"aud":%q,"exp":%d,"jti":"x"}`, reg.ClientID, reg.ClientID, aud, time.Now().Add(time.Minute).Unix())) + "."
		for name, a := range map[string]string{
			"replayed":       rsaClient.assertion(t, aud, 4*time.Minute, "jti-1"),
			"expired":        rsaClient.assertion(t, aud, -time.Minute, "jti-3"),
			"too long":       rsaClient.assertion(t, aud, time.Hour, "jti-4"),
			"wrong aud":      rsaClient.assertion(t, "https://elsewhere.example/token", 4*time.Minute, "jti-5"),
			"unknown kid":    backendClient{id: reg.ClientID, key: rsaKey, alg: jose.RS384, kid: "other"}.assertion(t, aud, 4*time.Minute, "jti-6"),
			"wrong key":      backendClient{id: reg.ClientID, key: func() *rsa.PrivateKey { k, _ := rsa.GenerateKey(rand.Reader, 2048); return k }(), alg: jose.RS384, kid: "rsa-1"}.assertion(t, aud, 4*time.Minute, "jti-7"),
			"unknown client": backendClient{id: "emr-nobody", key: rsaKey, alg: jose.RS384, kid: "rsa-1"}.assertion(t, aud, 4*time.Minute, "jti-8"),
			"unsigned":       unsigned,
		} {
			if status, out := tokenRequest(t, c.env, a, ""); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
				t.Errorf("%s: %d %v", name, status, out)
			}
		}
		if status, out := tokenRequest(t, c.env, rsaClient.assertion(t, aud, 4*time.Minute, "jti-9"), "system/Patient.cruds"); status != http.StatusBadRequest || out["error"] != "invalid_scope" {
			t.Errorf("more scope than registered: %d %v", status, out)
		}

		// The token: patients yes; vital signs not (its scope); the native API never.
		api := c.env.Client()
		api.Header.Set("Authorization", "Bearer "+token)
		get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusOK)
		get(t, api, fmt.Sprintf("/fhir/R4/Observation?patient=%d", c.patientID), http.StatusForbidden)
		if r := api.Do("GET", "/api/patients", nil); r.Status != http.StatusForbidden {
			t.Errorf("a client on the native API: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.read' AND actor_name = $1 AND actor_id IS NULL`, "client:"+reg.ClientID); n != 1 {
			t.Errorf("the client's read audited: %d", n)
		}
		// Revoked: its token stops at once.
		if r := c.admin.Do("DELETE", fmt.Sprintf("/api/api-clients/%d", reg.ID), nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "revoked_at\":\"") {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusUnauthorized)
	})
}
