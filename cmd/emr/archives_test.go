package main

import (
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
	"time"

	"github.com/go-jose/go-jose/v4"

	"emr/internal/apitest"
	"emr/internal/backups"
	"emr/internal/database/archive"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// clinicWithCredentials is a SQLite clinic with an API token (returned), a backend client
// with a live access token, and a second client an administrator revoked.
func clinicWithCredentials(t *testing.T) (url, token string) {
	t.Helper()
	dir := t.TempDir()
	url = "sqlite:" + filepath.Join(dir, "clinic.db")
	if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", "lab", "--name", "Lab link", "--role", "nurse"); err != nil {
		t.Fatal(err)
	}
	out, err := runEMR(t, "", "token", "create", "--database-url", url, "--user", "lab", "--name", "analyser", "--expires", "30d")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token = lines[len(lines)-1]
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "registry-1", Algorithm: "ES384", Use: "sig"}}})
	file := filepath.Join(dir, "jwks.json")
	if err := os.WriteFile(file, jwks, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Registry", "Old lab"} {
		if out, err := runEMR(t, "", "client", "create", "--database-url", url, "--name", name, "--scope", "system/Patient.rs", "--jwks-file", file); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	if out, err := runEMR(t, "", "client", "revoke", "--database-url", url, "2"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	db := dbtest.Open(t, url)
	if _, err := db.ExecContext(context.Background(), `INSERT INTO api_client_tokens (token_hash, client_id, scopes, expires_at) VALUES ('an-access-token', 1, 'system/Patient.rs', $1)`,
		time.Now().Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	return url, token
}

// TestARestoreEndsTheArchivesCredentials: (restore flags → the archive's API token works?
// its backend client may ask for tokens?) on each engine. A restore ends every API token,
// backend access token and backend client, says so and audits it; --keep-tokens keeps them
// (and is audited too). A client the restore ended is enabled again by `emr client enable`;
// one an administrator revoked is not.
func TestARestoreEndsTheArchivesCredentials(t *testing.T) {
	src, token := clinicWithCredentials(t)
	file := filepath.Join(t.TempDir(), "clinic.emr")
	if out, err := runEMR(t, "", "backup", "--database-url", src, "--to", file, "--recipient", testKey.recipient); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range dbtest.Engines() {
		for _, tc := range []struct {
			flags        []string
			tokenWorks   bool
			clientsLive  int
			accessTokens int
			says, audit  string
		}{
			{nil, false, 0, 0, "ended 1 API tokens, 1 backend clients (1) and 1 access tokens", "ended 1 API tokens, 1 backend clients (1) and 1 access tokens"},
			{[]string{"--keep-tokens"}, true, 1, 1, "still work (--keep-tokens)", "kept (--keep-tokens)"},
		} {
			t.Run(e.Name+"/"+strings.Join(append([]string{"restore"}, tc.flags...), " "), func(t *testing.T) {
				target := e.URL(t)
				out, err := runEMR(t, "", append([]string{"restore", "--from", file, "--database-url", target, "--identity", testKey.identity}, tc.flags...)...)
				if err != nil || !strings.Contains(out, tc.says) || !strings.Contains(out, "authenticated: by this clinic's key") {
					t.Fatalf("restore: %v\n%s", err, out)
				}
				db := dbtest.Open(t, target)
				c := apitest.New(t, db).Client()
				c.Header.Set("Authorization", "Bearer "+token)
				if r := c.Do("GET", "/fhir/R4/Patient", nil); (r.Status == http.StatusOK) != tc.tokenWorks {
					t.Errorf("the archive's API token on the restored copy: %d, works %v wanted", r.Status, tc.tokenWorks)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_clients WHERE revoked_at IS NULL`); n != tc.clientsLive {
					t.Errorf("%d backend clients live, want %d", n, tc.clientsLive)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_client_tokens`); n != tc.accessTokens {
					t.Errorf("%d access tokens, want %d", n, tc.accessTokens)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'backup.restore' AND detail LIKE $1 AND seq IS NOT NULL`, "%"+tc.audit+"%"); n != 1 {
					t.Errorf("%d chained restore events saying %q", n, tc.audit)
				}
				if out, err := runEMR(t, "", "audit", "verify", "--database-url", target); err != nil {
					t.Errorf("the restored chain with the restore's event: %v\n%s", err, out)
				}
				if tc.tokenWorks {
					return
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_tokens WHERE revoked_reason = 'restored'`); n != 1 {
					t.Errorf("%d tokens say a restore ended them", n)
				}
				if out, err := runEMR(t, "", "client", "list", "--database-url", target); err != nil || !strings.Contains(out, "ended by a restore") || strings.Count(out, "ended by a restore") != 1 {
					t.Errorf("the list of clients after the restore: %v\n%s", err, out)
				}
				if _, err := runEMR(t, "", "client", "enable", "--database-url", target, "2"); err == nil || !strings.Contains(err.Error(), "not ended by a restore") {
					t.Errorf("enable a client an administrator revoked: %v", err)
				}
				if out, err := runEMR(t, "", "client", "enable", "--database-url", target, "1"); err != nil || !strings.Contains(out, "enabled client 1") {
					t.Fatalf("enable: %v\n%s", err, out)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM api_clients WHERE revoked_at IS NULL`); n != 1 {
					t.Errorf("%d clients live after enabling one", n)
				}
			})
		}
	}
}

// TestAnUnauthenticatedArchiveRestoresOnlyOnPurpose: an archive without the clinic's tag (as
// an earlier version wrote, or anyone holding the public recipient) is refused by --verify
// and restore with the reason; --unauthenticated restores it, says so loudly and audits it.
// --verify of the clinic's own archive says what it checked.
func TestAnUnauthenticatedArchiveRestoresOnlyOnPurpose(t *testing.T) {
	ctx := context.Background()
	src := "sqlite:" + filepath.Join(t.TempDir(), "src.db")
	if out, err := runEMR(t, "", "seed", "--database-url", src, "--patients", "30", "--audit-events", "50"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	good := filepath.Join(t.TempDir(), "good.emr")
	if out, err := runEMR(t, "", "backup", "--database-url", src, "--to", good, "--recipient", testKey.recipient); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := runEMR(t, "", "backup", "--verify", good, "--identity", testKey.identity)
	keys, _ := secret.Load(os.Getenv("EMR_SECRET_KEY_FILE"))
	for _, want := range []string{"authenticated: by this clinic's key " + keys.Current(), "decrypted: with the identity in " + testKey.identity + " (" + testKey.recipient + ")",
		"audit chain: 50 events recomputed from the first", "restored into a scratch database", "OK: the archive restores"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("verify says %v\n%s\nwithout %q", err, out, want)
		}
	}
	other := filepath.Join(t.TempDir(), "other.key")
	if _, err := secret.Create(other); err != nil {
		t.Fatal(err)
	}
	if _, err := runEMR(t, "", "backup", "--verify", good, "--identity", testKey.identity, "--secret-key-file", other); err == nil || !strings.Contains(err.Error(), "made with a key this key file does not hold") {
		t.Errorf("verify with another clinic's key file: %v", err)
	}

	db := dbtest.Open(t, src)
	old := filepath.Join(t.TempDir(), "old.emr")
	opt := backups.ArchiveOptions("0.9")
	opt.Recipients, _ = archive.ParseRecipients([]string{testKey.recipient})
	if _, err := archive.Write(ctx, db, old, opt); err != nil { // no key file: an earlier version's archive
		t.Fatal(err)
	}
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			target := e.URL(t)
			for _, args := range [][]string{{"backup", "--verify", old, "--identity", testKey.identity}, {"restore", "--from", old, "--database-url", target, "--identity", testKey.identity}} {
				if _, err := runEMR(t, "", args...); err == nil || !strings.Contains(err.Error(), "not authenticated — made by an older version or not by this clinic") {
					t.Errorf("%s: %v", args[0], err)
				}
			}
			out, err := runEMR(t, "", "restore", "--from", old, "--database-url", target, "--identity", testKey.identity, "--unauthenticated")
			if err != nil || !strings.Contains(out, "WARNING: restored an archive NOT authenticated") {
				t.Fatalf("--unauthenticated: %v\n%s", err, out)
			}
			if n := dbtest.Count(t, dbtest.Open(t, target), `SELECT COUNT(*) FROM audit_events WHERE action = 'backup.restore' AND detail LIKE '%NOT authenticated (--unauthenticated)%'`); n != 1 {
				t.Errorf("%d restore events say the archive was not authenticated", n)
			}
		})
	}
}

// TestKeysRetireOnlyWhatNothingUses: a key is retired only when it no longer seals, keys no
// unused recovery code, and authenticated no archive the clinic may still restore; then it
// leaves the file.
func TestKeysRetireOnlyWhatNothingUses(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url := e.URL(t)
			key := filepath.Join(t.TempDir(), "keys")
			if out, err := runEMR(t, "", "migrate", "--database-url", url); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if out, err := runEMR(t, "", "backup", "--database-url", url, "--secret-key-file", key, "--to", filepath.Join(t.TempDir(), "a.emr"), "--recipient", testKey.recipient); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			ring, err := secret.Load(key)
			if err != nil {
				t.Fatal(err)
			}
			first := ring.Current()
			retire := func(args ...string) (string, error) {
				return runEMR(t, "", append([]string{"keys", "retire", "--database-url", url, "--secret-key-file", key}, args...)...)
			}
			if _, err := retire(first); err == nil || !strings.Contains(err.Error(), "rotate first") {
				t.Errorf("retire the current key: %v", err)
			}
			if out, err := runEMR(t, "", "keys", "rotate", "--database-url", url, "--secret-key-file", key); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			db := dbtest.Open(t, url)
			if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", "ann", "--name", "Ann", "--role", "nurse"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(context.Background(), `INSERT INTO user_recovery_codes (user_id, code_hash) SELECT id, $1 FROM users WHERE username = 'ann'`, first+":0123abcd"); err != nil {
				t.Fatal(err)
			}
			if _, err := retire(first); err == nil || !strings.Contains(err.Error(), "1 unused recovery codes") || !strings.Contains(err.Error(), "authenticated archives") {
				t.Errorf("retire a key in use: %v", err)
			}
			if _, err := db.ExecContext(context.Background(), `UPDATE user_recovery_codes SET used_at = $1`, time.Now()); err != nil {
				t.Fatal(err)
			}
			if _, err := retire(first); err == nil || strings.Contains(err.Error(), "recovery codes") || !strings.Contains(err.Error(), "--archives-gone") {
				t.Errorf("retire a key that authenticated archives: %v", err)
			}
			out, err := retire(first, "--archives-gone")
			if err != nil || !strings.Contains(out, "retired: key "+first) {
				t.Fatalf("retire: %v\n%s", err, out)
			}
			if ring, err := secret.Load(key); err != nil || len(ring.IDs()) != 1 || ring.Current() == first {
				t.Errorf("the file after the retirement holds %v (%v)", ring.IDs(), err)
			}
			// The database's sealed values still open with the file (a backup opens them first).
			if out, err := runEMR(t, "", "backup", "--database-url", url, "--secret-key-file", key, "--to", filepath.Join(t.TempDir(), "b.emr"), "--recipient", testKey.recipient); err != nil {
				t.Errorf("after the retirement: %v\n%s", err, out)
			}
		})
	}
}

// TestTwoServersSealUnderTheNewestKeyAtOnce: two `emr serve` processes share a database and a
// key file; after `emr keys rotate` beside them, a second factor set up through either one
// is sealed under the new key, with no restart and no signal.
func TestTwoServersSealUnderTheNewestKeyAtOnce(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	key := filepath.Join(t.TempDir(), "keys")
	const password = "two servers, one key file"
	if _, err := runEMR(t, password+"\n", "user", "create", "--database-url", url, "--username", "rec", "--name", "Rec", "--role", "receptionist"); err != nil {
		t.Fatal(err)
	}
	servers := map[string]string{}
	for _, name := range []string{"a", "b"} {
		said, _ := serveProcessSays(t, url, []string{"EMR is running at "}, "--secret-key-file", key)
		servers[name] = said["EMR is running at "]
	}
	db := dbtest.Open(t, url)
	sealedBy := func(name string) string {
		t.Helper()
		c := apitest.Remote(t, servers[name])
		if r := c.Login("rec", password); r.Status != http.StatusOK {
			t.Fatalf("login on %s: %d %s", name, r.Status, r.Body)
		}
		if r := c.Do("POST", "/api/profile/two-factor/setup", nil); r.Status != http.StatusOK {
			t.Fatalf("two-factor setup on %s: %d %s", name, r.Status, r.Body)
		}
		var s string
		if err := db.QueryRowContext(context.Background(), `SELECT secret FROM user_totp`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return secret.SealedBy(s)
	}
	ring, err := secret.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	first := ring.Current()
	if by := sealedBy("a"); by != first {
		t.Fatalf("before the rotation: sealed by %s, the key is %s", by, first)
	}
	out, err := runEMR(t, "", "keys", "rotate", "--database-url", url, "--secret-key-file", key)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rotated, err := secret.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b", "a"} {
		if by := sealedBy(name); by != rotated.Current() || by == first {
			t.Errorf("after the rotation, server %s sealed under %s; the newest key is %s", name, by, rotated.Current())
		}
	}
}
