package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func runEMR(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String() + errb.String(), err
}

func TestUserCreateReadsPasswordFromStdin(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	out, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", db, "--username", "Boss", "--name", "The Boss", "--role", "admin", "--role", "doctor")
	if err != nil || !strings.Contains(out, "created user boss") || !strings.Contains(out, "admin, doctor") {
		t.Fatalf("%v: %s", err, out)
	}
	if _, err := runEMR(t, "another long password\n", "user", "create", "--database-url", db, "--username", "boss", "--name", "X", "--role", "admin"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("duplicate username: %v", err)
	}
	if _, err := runEMR(t, "short\n", "user", "create", "--database-url", db, "--username", "x", "--name", "X", "--role", "nurse"); err == nil || !strings.Contains(err.Error(), "12 characters") {
		t.Errorf("short password: %v", err)
	}
	if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", db, "--username", "y", "--name", "Y", "--role", "janitor"); err == nil || !strings.Contains(err.Error(), "janitor") {
		t.Errorf("unknown role: %v", err)
	}
	out, err = runEMR(t, "", "seed", "--database-url", db)
	if err != nil || !strings.Contains(out, "no demo staff") {
		t.Errorf("seed into a database with accounts: %v %s", err, out)
	}
}

func TestSeedPrintsPasswordsOnce(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	out, err := runEMR(t, "", "seed", "--database-url", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{"admin", "doctor", "nurse", "receptionist"} {
		if !strings.Contains(out, "("+role+")") {
			t.Errorf("no %s in %s", role, out)
		}
	}
	if out2, _ := runEMR(t, "", "seed", "--database-url", db); strings.Contains(out2, "password:") {
		t.Error("passwords printed a second time")
	}
}

func TestBadConfigurationIsOneSentence(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "8080"}, "HOST:PORT"},
		{[]string{"serve", "--database-url", "mysql://x"}, "neither sqlite"},
		{[]string{"serve", "--session-idle", "2h", "--session-lifetime", "1h"}, "lifetime"},
		{[]string{"serve", "--timezone", "Mars/Olympus"}, "time zone"},
		{[]string{"migrate", "--log-format", "xml"}, "text or json"},
		{[]string{"backup"}, "--to"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		_, err := runEMR(t, "", tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
	out, err := runEMR(t, "", "--help")
	if err != nil || !strings.Contains(out, "EMR_DATABASE_URL") || !strings.Contains(out, "user create") {
		t.Errorf("--help: %v %s", err, out)
	}
}

func TestAuditVerifyFindsAChangedRow(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url := e.URL(t)
			for _, name := range []string{"ann", "bob", "cy"} { // each writes a user.create event
				if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", name, "--name", name, "--role", "nurse"); err != nil {
					t.Fatal(err)
				}
			}
			// Demo events, written in bulk across more than one batch, continue the same chain.
			if out, err := runEMR(t, "", "seed", "--database-url", url, "--patients", "20", "--audit-events", "12000"); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			out, err := runEMR(t, "", "audit", "verify", "--database-url", url)
			if err != nil || !strings.Contains(out, "OK: 12003 events, chain intact") {
				t.Fatalf("intact log: %v %s", err, out)
			}
			db := dbtest.Open(t, url)
			dbtest.Tamper(t, db, `UPDATE audit_events SET detail = 'roles admin' WHERE seq = 2`)
			out, err = runEMR(t, "", "audit", "verify", "--database-url", url)
			if err == nil || !strings.Contains(out, "BROKEN at event 2") || !strings.Contains(out, "changed after it was written") {
				t.Fatalf("changed row: %v %s", err, out)
			}
		})
	}
}

// TestTokenCommands: a token made on the command line is printed as the last line, works
// as its account at once on a server of the same database, is listed with its last use,
// and stops working when revoked.
func TestTokenCommands(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", db, "--username", "lab", "--name", "Lab link", "--role", "nurse"); err != nil {
		t.Fatal(err)
	}
	out, err := runEMR(t, "", "token", "create", "--database-url", db, "--user", "lab", "--name", "analyser", "--scope", "user/Patient.rs", "--expires", "30d")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token := lines[len(lines)-1]
	if !strings.HasPrefix(token, "emr_pat_") {
		t.Fatalf("last line %q", token)
	}
	opened, err := database.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	env := apitest.New(t, opened)
	c := env.Client()
	c.Header.Set("Authorization", "Bearer "+token)
	if r := c.Do("GET", "/fhir/R4/Patient", nil); r.Status != http.StatusOK {
		t.Fatalf("the token's search: %d %s", r.Status, r.Body)
	}
	out, err = runEMR(t, "", "token", "list", "--database-url", db)
	if err != nil || !strings.Contains(out, "analyser") || !strings.Contains(out, "user/Patient.rs") || strings.Contains(out, "never") {
		t.Fatalf("list: %v %s", err, out)
	}
	if out, err = runEMR(t, "", "token", "revoke", "--database-url", db, "1"); err != nil || !strings.Contains(out, "revoked token 1") {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if r := c.Do("GET", "/fhir/R4/Patient", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a revoked token: %d %s", r.Status, r.Body)
	}
	for _, bad := range [][]string{{"--user", "nobody", "--name", "x"}, {"--user", "lab", "--name", "x", "--scope", "system/*.rs"}, {"--user", "lab", "--name", "x", "--expires", "3000d"}} {
		if _, err := runEMR(t, "", append([]string{"token", "create", "--database-url", db}, bad...)...); err == nil {
			t.Errorf("token create %v: no error", bad)
		}
	}
}

// TestClientCommands: a backend client registered on the command line has its client_id as
// the last line, is listed, and is revoked.
func TestClientCommands(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "emr.db")
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "registry-1", Algorithm: "ES384", Use: "sig"}}})
	file := filepath.Join(dir, "jwks.json")
	if err := os.WriteFile(file, jwks, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runEMR(t, "", "client", "create", "--database-url", db, "--name", "Registry", "--scope", "system/Patient.rs system/Observation.rs", "--jwks-file", file)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if id := lines[len(lines)-1]; !strings.HasPrefix(id, "emr-") {
		t.Fatalf("last line %q", id)
	}
	if out, err := runEMR(t, "", "client", "list", "--database-url", db); err != nil || !strings.Contains(out, "registry-1") || !strings.Contains(out, "system/Observation.rs") {
		t.Fatalf("list: %v %s", err, out)
	}
	if out, err := runEMR(t, "", "client", "revoke", "--database-url", db, "1"); err != nil || !strings.Contains(out, "revoked client 1") {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if _, err := runEMR(t, "", "client", "create", "--database-url", db, "--name", "X", "--scope", "user/Patient.rs", "--jwks-file", file); err == nil {
		t.Error("a user/ scope for a client was taken")
	}
}

// TestExportCommand writes the records as NDJSON files, one per type, into a new folder.
func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "emr.db")
	if out, err := runEMR(t, "", "seed", "--database-url", db, "--patients", "120", "--appointments", "60"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	to := filepath.Join(dir, "export")
	out, err := runEMR(t, "", "export", "--database-url", db, "--to", to)
	if err != nil || !strings.Contains(out, "Patient") {
		t.Fatalf("%v: %s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(to, "Patient.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 120 {
		t.Errorf("%d patients exported", len(lines))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["resourceType"] != "Patient" {
		t.Errorf("first line: %v %s", err, lines[0])
	}
	if _, err := runEMR(t, "", "export", "--database-url", db, "--to", to); err == nil {
		t.Error("exported into a folder with files")
	}
}
