package fhir_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// setPublicURL saves the clinic's public address (the token endpoint's aud).
func setPublicURL(t *testing.T, admin *apitest.Client, public string) {
	t.Helper()
	var clinic struct{ Version int }
	admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)
	if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Clinic", "public_url": public, "version": clinic.Version}); r.Status != http.StatusOK {
		t.Fatalf("public address: %d %s", r.Status, r.Body)
	}
}

// tokenRequestFrom asks for a token with the given Host header and, when the server trusts a
// proxy, from the given address ("" for either: as it comes).
func tokenRequestFrom(t *testing.T, env *apitest.Env, assertion, host, address string) (int, http.Header, map[string]any) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion": {assertion}}
	req, err := http.NewRequest("POST", env.HTTP.URL+"/fhir/R4/auth/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if host != "" {
		req.Host = host
	}
	if address != "" {
		req.Header.Set("X-Forwarded-For", address)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil { // t.Error, not Fatal: it is also called from goroutines
		t.Error(err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, resp.Header, out
}

// TestTokenEndpointThrottle: refused token requests are counted per address block and per
// claimed client, before the assertion is checked; over a limit a request is refused
// unchecked (429, Retry-After, the OAuth error shape) unless it comes from the claimed
// client's usual address, whose assertion is still checked. Issued tokens are audited one
// by one; refusals as one row per address (and per flooded client) and window, with the
// count, once the window has ended.
func TestTokenEndpointThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := apitest.Config()
		cfg.TrustProxy = true // the test names each request's address in X-Forwarded-For
		env := apitest.NewWith(t, db, cfg)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		setPublicURL(t, admin, "https://emr.example.org")
		aud := "https://emr.example.org/fhir/R4/auth/token"
		key, _ := rsa.GenerateKey(rand.Reader, 2048)
		wrong, _ := rsa.GenerateKey(rand.Reader, 2048)
		jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS384", Use: "sig"}}})
		var reg struct {
			ClientID string `json:"client_id"`
		}
		if r := admin.Do("POST", "/api/api-clients", map[string]any{"name": "Registry", "scopes": "system/Patient.rs", "jwks": string(jwks)}); r.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		} else {
			r.JSON(t, &reg)
		}
		good := backendClient{id: reg.ClientID, key: key, alg: jose.RS384, kid: "k1"}
		forged := backendClient{id: reg.ClientID, key: wrong, alg: jose.RS384, kid: "k1"}
		jti := 0
		next := func() string { jti++; return "jti-" + strconv.Itoa(jti) }
		const usual, flooder = "192.0.2.10", "198.51.100.7"

		type step struct {
			name    string
			from    string
			client  backendClient
			want    int
			wantErr string
		}
		var steps []step
		steps = append(steps, step{"the client at its usual address", usual, good, http.StatusOK, ""})
		for i := range auth.TokenAddressLimit {
			steps = append(steps, step{"refused " + strconv.Itoa(i+1) + " from one address", flooder,
				backendClient{id: "emr-nobody-" + strconv.Itoa(i), key: key, alg: jose.RS384, kid: "k1"}, http.StatusUnauthorized, "invalid_client"})
		}
		steps = append(steps,
			step{"one more from that address, unchecked", flooder, forged, http.StatusTooManyRequests, "slow_down"},
			step{"a good assertion from that address (not the client's usual one): unchecked", flooder, good, http.StatusTooManyRequests, "slow_down"})
		for i := range auth.TokenAddressLimit {
			steps = append(steps, step{"refused " + strconv.Itoa(i+1) + " from the client's usual address", usual,
				backendClient{id: "emr-other-" + strconv.Itoa(i), key: key, alg: jose.RS384, kid: "k1"}, http.StatusUnauthorized, "invalid_client"})
		}
		steps = append(steps, step{"the client at its usual address, over that address's limit: checked, and issued", usual, good, http.StatusOK, ""})
		// Many addresses each claiming the client with a forged signature: the client's limit.
		for i := range auth.TokenClientLimit {
			steps = append(steps, step{"forged " + strconv.Itoa(i+1) + " claiming the client", "203.0.113." + strconv.Itoa(i+1), forged, http.StatusUnauthorized, "invalid_client"})
		}
		steps = append(steps,
			step{"a good assertion for the flooded client from a new address: unchecked", "203.0.113.99", good, http.StatusTooManyRequests, "slow_down"},
			step{"the flooded client at its usual address: checked, and issued", usual, good, http.StatusOK, ""})

		for _, s := range steps {
			status, header, out := tokenRequestFrom(t, env, s.client.assertion(t, aud, 4*time.Minute, next()), "", s.from)
			if status != s.want || (s.wantErr != "" && out["error"] != s.wantErr) {
				t.Fatalf("%s: %d %v, want %d %s", s.name, status, out, s.want, s.wantErr)
			}
			if status == http.StatusTooManyRequests {
				wait, err := strconv.Atoi(header.Get("Retry-After"))
				if err != nil || wait < 1 || wait > int(auth.TokenWindow/time.Second) {
					t.Errorf("%s: Retry-After %q", s.name, header.Get("Retry-After"))
				}
				if d, _ := out["error_description"].(string); d == "" {
					t.Errorf("%s: no error_description: %v", s.name, out)
				}
			}
		}

		// Sixty at once from one address: exactly the limit's worth are checked, the rest
		// refused unchecked (the slot is taken in one statement before the check).
		statuses := make(chan int, 60)
		var wg sync.WaitGroup
		for i := range 60 {
			a := backendClient{id: "emr-crowd-" + strconv.Itoa(i), key: key, alg: jose.RS384, kid: "k1"}.assertion(t, aud, 4*time.Minute, next())
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _, _ := tokenRequestFrom(t, env, a, "", "198.51.100.200")
				statuses <- status
			}()
		}
		wg.Wait()
		close(statuses)
		counted := map[int]int{}
		for s := range statuses {
			counted[s]++
		}
		if counted[http.StatusUnauthorized] != auth.TokenAddressLimit || counted[http.StatusTooManyRequests] != 60-auth.TokenAddressLimit {
			t.Errorf("sixty at once: %v, want %d checked", counted, auth.TokenAddressLimit)
		}

		// Issued tokens: a row each. Refusals: none yet, one row per address and window
		// once the window has ended.
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'api_client.token' AND outcome = 'success'`); n != 3 {
			t.Errorf("issued tokens audited: %d, want 3", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'api_client.token' AND outcome <> 'success'`); n != 0 {
			t.Errorf("refusals audited one by one: %d", n)
		}
		clients := &auth.Clients{DB: db}
		if n, err := clients.CloseRefusalWindows(context.Background()); err != nil || n != 0 {
			t.Fatalf("windows closed before they end: %d %v", n, err)
		}
		if _, err := db.ExecContext(context.Background(), `UPDATE login_throttle SET window_start = $1 WHERE key LIKE 'token-%'`,
			time.Now().UTC().Add(-auth.TokenWindow-time.Minute)); err != nil {
			t.Fatal(err)
		}
		// 33 addresses (the flooder, the usual one, 30 forgers, one more and the crowd's) and
		// the flooded client.
		if n, err := clients.CloseRefusalWindows(context.Background()); err != nil || n != 2+auth.TokenClientLimit+1+1+1 {
			t.Fatalf("windows closed: %d %v", n, err)
		}
		if n, _ := clients.CloseRefusalWindows(context.Background()); n != 0 {
			t.Errorf("a window closed twice: %d", n)
		}
		for address, want := range map[string]string{
			flooder:        fmt.Sprintf("%d refused token requests from %s", auth.TokenAddressLimit+2, flooder),
			usual:          fmt.Sprintf("%d refused token requests from %s", auth.TokenAddressLimit, usual),
			"203.0.113.7":  "1 refused token requests from 203.0.113.7",
			"203.0.113.99": "1 refused token requests from 203.0.113.99",
		} {
			var detail string
			var rows int
			if err := db.QueryRowContext(context.Background(), `SELECT COUNT(*), MAX(detail) FROM audit_events WHERE action = 'api_client.token' AND outcome = 'denied' AND address = $1`, address).Scan(&rows, &detail); err != nil {
				t.Fatal(err)
			}
			if rows != 1 || !strings.HasPrefix(detail, want) {
				t.Errorf("%s: %d rows, %q; want one, %q", address, rows, detail, want)
			}
		}
		if !strings.Contains(queryString(t, db, `SELECT detail FROM audit_events WHERE action = 'api_client.token' AND outcome = 'denied' AND address = $1`, flooder), "2 of them refused unchecked") {
			t.Error("the flooder's row does not say how many were refused unchecked")
		}
		detail := queryString(t, db, `SELECT detail FROM audit_events WHERE action = 'api_client.token' AND outcome = 'denied' AND actor_name = $1`, "client:"+reg.ClientID)
		if want := fmt.Sprintf("%d refused token requests claiming client %s", auth.TokenClientLimit+1, reg.ClientID); !strings.HasPrefix(detail, want) {
			t.Errorf("the flooded client's row %q, want %q", detail, want)
		}
	})
}

func queryString(t *testing.T, db *database.DB, query string, args ...any) string {
	t.Helper()
	var s string
	if err := db.QueryRowContext(context.Background(), query, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return s
}
