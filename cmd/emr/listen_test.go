package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"emr/internal/apitest"
)

// scrape reads the metrics page at url (with the token, when not empty).
func scrape(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestMetricsAreScraped: `emr serve --metrics-addr` serves the named series on an address of
// its own, requests labelled by route pattern and never by path; with --metrics-token the
// main address serves them only to a request bearing the token. Scheduled backups
// (--backup-dir) write an archive at once, which GET /api/backups lists for an administrator
// and the metrics age.
func TestMetricsAreScraped(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", "boss", "--name", "Boss", "--role", "admin", "--role", "receptionist"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "backups")
	const token = "a token of enough length"
	said, _ := serveProcessSays(t, url, []string{"EMR is running at ", "Metrics at "},
		"--metrics-addr", "127.0.0.1:0", "--metrics-token", token, "--backup-dir", dir, "--backup-every", "1h", "--backup-keep", "2", "--backup-recipient", testKey.recipient)
	base := said["EMR is running at "]
	c := apitest.Remote(t, base)
	if r := c.Login("boss", "not the password"); r.Status != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %d", r.Status)
	}
	if r := c.Login("boss", "a long enough password"); r.Status != http.StatusOK {
		t.Fatalf("login: %d", r.Status)
	}
	c.Do("GET", "/api/patients", nil)
	c.Do("GET", "/api/patients/987654", nil)

	var backups struct {
		Enabled bool
		Files   []struct{ Name string }
		Overdue bool
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(backups.Files) == 0 && time.Now().Before(deadline) {
		c.Do("GET", "/api/backups", nil).JSON(t, &backups)
		time.Sleep(20 * time.Millisecond) // polling for the first scheduled backup
	}
	if !backups.Enabled || len(backups.Files) != 1 || backups.Overdue {
		t.Fatalf("scheduled backups: %+v", backups)
	}
	if out, err := runEMR(t, "", "backup", "--verify", filepath.Join(dir, backups.Files[0].Name), "--identity", testKey.identity); err != nil {
		t.Fatalf("the scheduled backup does not verify: %v\n%s", err, out)
	}

	status, page := scrape(t, said["Metrics at "], "")
	if status != http.StatusOK {
		t.Fatalf("metrics: %d", status)
	}
	for _, series := range []string{
		`emr_http_requests_total{class="2xx",method="GET",route="/api/patients"}`,
		`emr_http_requests_total{class="4xx",method="GET",route="/api/patients/{id}"}`,
		`emr_http_requests_total{class="4xx",method="POST",route="/api/auth/login"}`,
		`emr_http_request_duration_seconds_bucket{method="GET",route="/api/patients",le="0.1"}`,
		`emr_db_query_duration_seconds_count{kind="query"}`,
		`emr_db_query_duration_seconds_count{kind="tx"}`,
		`go_sql_in_use_connections{db_name="emr"}`,
		`go_sql_idle_connections{db_name="emr"}`,
		`emr_push_sockets `,
		`emr_push_events_total `,
		`emr_login_failures_total 1`,
		`emr_login_throttled_total 0`,
		`emr_audit_chain_length `,
		`emr_backup_last_success_age_seconds `,
	} {
		if !strings.Contains(page, series) {
			t.Errorf("the metrics lack %s", series)
		}
	}
	if strings.Contains(page, "987654") {
		t.Error("a request's path (a patient id) became a label")
	}
	if m := regexp.MustCompile(`emr_audit_chain_length (\d+)`).FindStringSubmatch(page); m == nil || m[1] == "0" {
		t.Errorf("audit chain length: %v", m)
	}

	if status, _ := scrape(t, base+"/metrics", ""); status != http.StatusUnauthorized {
		t.Errorf("/metrics on the main address without the token: %d", status)
	}
	if status, page := scrape(t, base+"/metrics", token); status != http.StatusOK || !strings.Contains(page, "emr_http_requests_total") {
		t.Errorf("/metrics on the main address with the token: %d", status)
	}
}

// writeCertificate writes a new self-signed certificate for 127.0.0.1 and its key, and
// returns the certificate.
func writeCertificate(t *testing.T, certFile, keyFile string) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: "emr test"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	// Written beside and renamed, as a renewal tool does, so a reload never reads half a file.
	for file, block := range map[string]*pem.Block{certFile: {Type: "CERTIFICATE", Bytes: der}, keyFile: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(file+".new", pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(file+".new", file); err != nil {
			t.Fatal(err)
		}
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// TestTLSIsServedRedirectedAndReloaded: with --tls-cert/--tls-key the server answers HTTPS
// with HSTS and Secure cookies; --redirect-addr sends plain HTTP to HTTPS; after the files
// are replaced and SIGHUP is sent, new connections get the new certificate, no restart.
func TestTLSIsServedRedirectedAndReloaded(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", "boss", "--name", "Boss", "--role", "admin"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := writeCertificate(t, certFile, keyFile)
	said, cmd := serveProcessSays(t, url, []string{"EMR is running at ", "Redirecting "}, "--tls-cert", certFile, "--tls-key", keyFile, "--redirect-addr", "127.0.0.1:0")
	base := said["EMR is running at "]
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("served at %s", base)
	}
	// The client checks the certificate it is shown against the one written: it trusts
	// exactly that one, so a served certificate is known by its serial number.
	served := func() *big.Int {
		conn, err := tls.Dial("tcp", strings.TrimPrefix(base, "https://"), &tls.Config{InsecureSkipVerify: true}) // checked below by serial
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber
	}
	if served().Cmp(first.SerialNumber) != 0 {
		t.Fatal("not the certificate written")
	}
	pool := x509.NewCertPool()
	pool.AddCert(first)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(base + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("HTTPS health: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	c := apitest.Remote(t, base)
	c.HTTP.Transport = client.Transport
	r := c.Login("boss", "a long enough password")
	if r.Status != http.StatusOK || len(r.Header.Values("Set-Cookie")) == 0 {
		t.Fatalf("login over HTTPS: %d", r.Status)
	}
	for _, c := range r.Header.Values("Set-Cookie") {
		if !strings.Contains(c, "; Secure") {
			t.Errorf("a cookie set over HTTPS is not Secure: %s", c)
		}
	}

	redirect, err := client.Get(said["Redirecting "] + "/masterfile/patients?page=2")
	if err != nil {
		t.Fatal(err)
	}
	redirect.Body.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "https://"))
	if want := fmt.Sprintf("https://127.0.0.1:%s/masterfile/patients?page=2", port); redirect.StatusCode != http.StatusPermanentRedirect || redirect.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d to %q, want 308 to %q", redirect.StatusCode, redirect.Header.Get("Location"), want)
	}

	second := writeCertificate(t, certFile, keyFile)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for served().Cmp(second.SerialNumber) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("after SIGHUP the new certificate is not served")
		}
		time.Sleep(20 * time.Millisecond) // polling for the reload
	}
}

// TestCertificateAdvice: a self-signed certificate, one expiring soon and one expired are
// each named when loaded; one signed by a clinic's own authority, valid for months, is not.
func TestCertificateAdvice(t *testing.T) {
	now := time.Now()
	dir := t.TempDir()
	self := writeCertificate(t, filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"))
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "clinic CA"}, NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(5, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, _ := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	ca, _ := x509.ParseCertificate(caDER)
	signed := func(notAfter time.Time) *x509.Certificate {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "emr.clinic.example"}, NotBefore: now.Add(-time.Hour), NotAfter: notAfter,
			DNSNames: []string{"emr.clinic.example"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		cert, _ := x509.ParseCertificate(der)
		return cert
	}
	cases := []struct {
		name string
		cert *x509.Certificate
		want []string
	}{
		{"self-signed, an hour left", self, []string{"self-signed", "expires in 0 days"}},
		{"a clinic authority's, a year left", signed(now.AddDate(1, 0, 0)), nil},
		{"ten days left", signed(now.AddDate(0, 0, 10).Add(time.Hour)), []string{"expires in 10 days"}},
		{"expired", signed(now.Add(-time.Minute)), []string{"has expired"}},
		{"none", nil, nil},
	}
	for _, c := range cases {
		got := certificateAdvice(c.cert, now)
		if len(got) != len(c.want) {
			t.Errorf("%s: %q", c.name, got)
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: %q lacks %q", c.name, got[i], w)
			}
		}
	}
}
