package push_test

import (
	"context"
	"crypto/md5" //nolint:gosec // the provider's API asks for it
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database/dbtest"
	"emr/internal/push"
	"emr/internal/server"
)

// TestSignRequestDocumentedVector: the HTTP API's worked example, so the string to sign is
// checked against the provider's documentation, not against our own code.
func TestSignRequestDocumentedVector(t *testing.T) {
	q := url.Values{
		"auth_key":       {"278d425bdf160c739803"},
		"auth_timestamp": {"1353088179"},
		"auth_version":   {"1.0"},
		"body_md5":       {"ec365a775a4cd0599faeb73354201b6f"},
	}
	const want = "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c"
	if got := push.SignRequest("7ad3773142a6692b25b8", "POST", "/apps/3/events", q); got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
	// The channel authorisation example of the protocol's documentation.
	k := push.Keys{Key: "278d425bdf160c739803", Secret: "7ad3773142a6692b25b8"}
	if got := k.Sign("1234.1234", "private-foobar"); got != "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4" {
		t.Errorf("channel signature %s", got)
	}
}

func TestParseProvider(t *testing.T) {
	for _, bad := range []string{"", "pusher.com", "ftp://k:s@host/apps/1", "https://host/apps/1", "https://k@host/apps/1", "https://k:s@host/", "https://k:s@host/apps/1/x"} {
		if _, err := push.ParseProvider(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for raw, want := range map[string]push.ClientSettings{
		"https://key:secret@api-eu.pusher.com/apps/42":      {Key: "key", Cluster: "eu", TLS: true},
		"http://key:secret@push.clinic.example:6001/apps/a": {Key: "key", Host: "push.clinic.example", Port: 6001},
		"https://key:secret@push.clinic.example/apps/a":     {Key: "key", Host: "push.clinic.example", Port: 443, TLS: true},
	} {
		p, err := push.ParseProvider(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got, _ := p.ClientSettings(context.Background()); got != want {
			t.Errorf("%s: client settings %+v, want %+v", raw, got, want)
		}
	}
	for settings, origin := range map[push.ClientSettings]string{
		{Key: "k"}:                                             "",
		{Key: "k", Cluster: "eu", TLS: true}:                   "wss://ws-eu.pusher.com",
		{Key: "k", Host: "push.example", Port: 6001}:           "ws://push.example:6001",
		{Key: "k", Host: "push.example", Port: 443, TLS: true}: "wss://push.example:443",
	} {
		if got := settings.Origin(); got != origin {
			t.Errorf("%+v: origin %q, want %q", settings, got, origin)
		}
	}
}

// TestProviderReceivesEvents: configured with a provider, the server publishes through its
// HTTP API (a stand-in here, checking what the real one checks), tells the web app to
// connect there, and signs channel authorisations with the provider's secret.
func TestProviderReceivesEvents(t *testing.T) {
	type event struct {
		Name     string   `json:"name"`
		Channels []string `json:"channels"`
		Data     string   `json:"data"`
		SocketID string   `json:"socket_id"`
	}
	const key, secret = "prov-key", "prov-secret"
	events := make(chan event, 8)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		q := r.URL.Query()
		sum := md5.Sum(body) //nolint:gosec // as the provider checks it
		ts, _ := strconv.ParseInt(q.Get("auth_timestamp"), 10, 64)
		switch {
		case r.Method != http.MethodPost || r.URL.Path != "/apps/77/events":
			http.Error(w, "unknown path "+r.URL.Path, http.StatusNotFound)
		case q.Get("auth_key") != key || q.Get("auth_version") != "1.0" || q.Get("body_md5") != hex.EncodeToString(sum[:]):
			http.Error(w, "bad key or body", http.StatusUnauthorized)
		case time.Since(time.Unix(ts, 0)).Abs() > 600*time.Second:
			http.Error(w, "stale timestamp", http.StatusUnauthorized)
		case q.Get("auth_signature") != push.SignRequest(secret, r.Method, r.URL.Path, q):
			http.Error(w, "bad signature", http.StatusUnauthorized)
		default:
			var e event
			if err := json.Unmarshal(body, &e); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			events <- e
			_, _ = w.Write([]byte("{}"))
		}
	}))
	defer provider.Close()

	cfg := apitest.Config()
	cfg.DatabaseURL = dbtest.Engines()[0].URL(t)
	cfg.PushURL = "http://" + key + ":" + secret + "@" + strings.TrimPrefix(provider.URL, "http://") + "/apps/77"
	if err := cfg.ValidateServe(); err != nil {
		t.Fatal(err)
	}
	if err := server.CheckConfig(cfg); err != nil {
		t.Fatal(err)
	}
	env := apitest.NewWith(t, dbtest.Open(t, cfg.DatabaseURL), cfg)
	rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))

	var config struct{ Push push.ClientSettings }
	env.Client().Do("GET", "/api/config", nil).JSON(t, &config)
	host, port, _ := strings.Cut(strings.TrimPrefix(provider.URL, "http://"), ":")
	if p, _ := strconv.Atoi(port); config.Push != (push.ClientSettings{Key: key, Host: host, Port: p}) {
		t.Errorf("client settings %+v", config.Push)
	}
	// The browser may connect there (and nowhere else), and the built-in endpoint is off.
	if csp := env.Client().Do("GET", "/api/config", nil).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' ws://"+host+":"+port+";") {
		t.Errorf("content security policy %q", csp)
	}
	if r := env.Client().Do("GET", "/app/"+key+"?protocol=7", nil); r.Status == http.StatusSwitchingProtocols || strings.Contains(string(r.Body), "connection_established") {
		t.Errorf("built-in endpoint still served: %d", r.Status)
	}
	var signed struct{ Auth string }
	rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": "1.2", "channel_name": push.PatientsChannel}).JSON(t, &signed)
	if want := (push.Keys{Key: key, Secret: secret}).Sign("1.2", push.PatientsChannel); signed.Auth != want {
		t.Errorf("channel signed as %s, want %s", signed.Auth, want)
	}

	rec.Header.Set("X-Socket-ID", "123.456")
	r := rec.Do("POST", "/api/patients", map[string]any{"last_name": "Provider", "first_name": "Test", "sex": "female", "birth_date": "1990-01-02"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create patient: %d %s", r.Status, r.Body)
	}
	select {
	case e := <-events:
		if e.Name != "App.Events.PatientChanged" || len(e.Channels) != 1 || e.Channels[0] != push.PatientsChannel || e.SocketID != "123.456" {
			t.Errorf("provider received %+v", e)
		}
		var data map[string]string
		if err := json.Unmarshal([]byte(e.Data), &data); err != nil || data["path"] != "/api/patients" {
			t.Errorf("event data %q", e.Data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the provider received nothing")
	}
}
