package archive_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"emr/internal/database/archive"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// keyFile writes a key file holding one key with the given id (a forger knows the clinic's
// key id: it is in every archive's manifest) and loads it.
func keyFile(t *testing.T, id string) *secret.Ring {
	t.Helper()
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	path := filepath.Join(t.TempDir(), "keys")
	line := fmt.Sprintf("emr-key-v1 %s %s 2026-11-28T00:00:00Z\n", id, base64.RawURLEncoding.EncodeToString(raw))
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	ring, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// rechecksummed is a plain archive file with "Bob" changed to "Rob" and every unkeyed
// checksum (the trailer's SHA-256, the table's digest) made to match again: what someone
// holding a plain archive can do without the clinic's key.
func rechecksummed(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	changed := false
	for i, l := range lines[:len(lines)-1] {
		if bytes.Contains(l, []byte(`"Bob"`)) {
			lines[i], changed = bytes.Replace(l, []byte(`"Bob"`), []byte(`"Rob"`), 1), true
		}
	}
	if !changed {
		t.Fatal("no row to change")
	}
	var tr map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &tr); err != nil {
		t.Fatal(err)
	}
	sum := sha256.New()
	for _, l := range lines[:len(lines)-1] {
		sum.Write(l)
		sum.Write([]byte{'\n'})
	}
	tr["sha256"] = hex.EncodeToString(sum.Sum(nil))
	lines[len(lines)-1], _ = json.Marshal(tr)
	out := filepath.Join(t.TempDir(), "changed.emr")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(append(bytes.Join(lines, []byte{'\n'}), '\n'))
	zw.Close()
	if err := os.WriteFile(out, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOnlyTheClinicsArchivesRestore: every kind of archive file against every way of reading
// it and every key file, as a table; a check (VerifyFile) and a restore into an empty
// database of each engine answer alike: restored, or refused with the sentence that says why
// — and a restore refused at its end leaves the target empty, ready for a good archive.
func TestOnlyTheClinicsArchivesRestore(t *testing.T) {
	ctx := context.Background()
	src := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	seed(t, src)
	id, _ := age.GenerateX25519Identity()
	to := []age.Recipient{id.Recipient()}
	other := secret.Ephemeral() // another clinic's key file
	forger := keyFile(t, clinic.Current())
	file := func(opt archive.Options) string {
		t.Helper()
		opt.App = "test"
		opt.Plaintext = len(opt.Recipients) == 0
		path := filepath.Join(t.TempDir(), "a.emr")
		if _, err := archive.Write(ctx, src, path, opt); err != nil {
			t.Fatal(err)
		}
		return path
	}
	kinds := map[string]string{
		"encrypted, authenticated": file(archive.Options{Recipients: to, Keys: clinic}),
		// An earlier version's archive, or one made by whoever holds only the recipient.
		"encrypted, no tag":               file(archive.Options{Recipients: to}),
		"encrypted, another clinic's key": file(archive.Options{Recipients: to, Keys: other}),
		// Made with a key file claiming the clinic's key id.
		"encrypted, forged tag": file(archive.Options{Recipients: to, Keys: forger}),
		"plain, authenticated":  file(archive.Options{Keys: clinic}),
		"plain, no tag":         file(archive.Options{}),
	}
	kinds["plain, changed and re-checksummed"] = rechecksummed(t, kinds["plain, authenticated"])
	const (
		ok          = ""
		noTag       = "not authenticated — made by an older version or not by this clinic"
		wrongTag    = "altered or not made with this clinic's key"
		unknownKey  = "made with a key this key file does not hold"
		needKeys    = "give the clinic's secret key file"
		plainWithID = "NOT encrypted, and an --identity was given"
		plainNeeds  = "read it only on purpose, with --plaintext"
	)
	type how struct {
		identity, plaintext, unauthenticated bool
		keys                                 *secret.Ring
	}
	withID, plain := how{identity: true, keys: clinic}, how{plaintext: true, keys: clinic}
	rows := []struct {
		kind string
		how  how
		want string
	}{
		{"encrypted, authenticated", withID, ok},
		{"encrypted, authenticated", how{identity: true, keys: other}, unknownKey},
		{"encrypted, authenticated", how{identity: true}, needKeys},
		{"encrypted, authenticated", how{identity: true, unauthenticated: true, keys: clinic}, ok},
		{"encrypted, no tag", withID, noTag},
		{"encrypted, no tag", how{identity: true, unauthenticated: true, keys: clinic}, ok},
		{"encrypted, no tag", how{identity: true, unauthenticated: true}, ok},
		{"encrypted, another clinic's key", withID, unknownKey},
		{"encrypted, another clinic's key", how{identity: true, unauthenticated: true, keys: clinic}, unknownKey},
		{"encrypted, forged tag", withID, wrongTag},
		{"encrypted, forged tag", how{identity: true, unauthenticated: true, keys: clinic}, wrongTag},
		{"plain, authenticated", withID, plainWithID},
		{"plain, authenticated", how{keys: clinic}, plainNeeds},
		{"plain, authenticated", plain, ok},
		{"plain, no tag", plain, noTag},
		{"plain, no tag", how{plaintext: true, unauthenticated: true, keys: clinic}, ok},
		{"plain, changed and re-checksummed", plain, wrongTag},
		{"plain, changed and re-checksummed", how{plaintext: true, unauthenticated: true, keys: clinic}, wrongTag},
	}
	for _, e := range dbtest.Engines() {
		for _, row := range rows {
			name := fmt.Sprintf("%s/%s/identity=%v,plaintext=%v,unauthenticated=%v,keys=%v", e.Name, row.kind, row.how.identity, row.how.plaintext, row.how.unauthenticated, row.how.keys != nil)
			t.Run(name, func(t *testing.T) {
				opt := archive.Options{Keys: row.how.keys, Plaintext: row.how.plaintext, Unauthenticated: row.how.unauthenticated}
				if row.how.identity {
					opt.Identities = []age.Identity{id}
				}
				check := func(what string, err error) {
					t.Helper()
					switch {
					case row.want == ok && err != nil:
						t.Errorf("%s: %v, want restored", what, err)
					case row.want != ok && (err == nil || !strings.Contains(err.Error(), row.want)):
						t.Errorf("%s: %v, want %q", what, err, row.want)
					}
				}
				_, _, err := archive.VerifyFile(kinds[row.kind], opt)
				check("check", err)
				dst := fresh(t, e)
				rep, err := archive.RestoreFile(ctx, dst, kinds[row.kind], opt)
				check("restore", err)
				// A tag found wrong at the trailer, after every row was loaded: the transaction
				// rolls back, and the target takes a good archive (the other refusals load nothing).
				if err != nil && row.want == wrongTag {
					if _, err := archive.RestoreFile(ctx, dst, kinds["encrypted, authenticated"], reading([]age.Identity{id})); err != nil {
						t.Errorf("a good archive after the refusal: %v", err)
					}
				} else if err == nil && (rep.Rows == 0 || dbtest.Count(t, dst, `SELECT COUNT(*) FROM users WHERE name = 'Bob'`) != 1) {
					t.Errorf("restored %d rows", rep.Rows)
				}
			})
		}
	}
}

// TestOlderKeysStillVerifyTheirArchives: after a rotation the archive the older key
// authenticated still restores (the file keeps that key), a new one is authenticated by the
// new key; once the older key is retired, its archive is refused by name.
func TestOlderKeysStillVerifyTheirArchives(t *testing.T) {
	ctx := context.Background()
	e := dbtest.Engines()[0]
	src := dbtest.Open(t, e.URL(t))
	seed(t, src)
	path := filepath.Join(t.TempDir(), "keys")
	ring, err := secret.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	first := ring.Current()
	before := write(t, src, archive.Options{App: "test", Keys: ring})
	if err := ring.Rotate(); err != nil {
		t.Fatal(err)
	}
	after := write(t, src, archive.Options{App: "test", Keys: ring})
	reader, err := secret.Load(path) // a restore, reading the rotated file
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]string{"before": before, "after": after} {
		m, _, err := archive.VerifyFile(file, archive.Options{Keys: reader, Plaintext: true})
		if err != nil {
			t.Fatalf("%s the rotation: %v", name, err)
		}
		if want := map[string]string{"before": first, "after": ring.Current()}[name]; m.Key != want {
			t.Errorf("%s the rotation: authenticated by %s, want %s", name, m.Key, want)
		}
	}
	if when, ok, err := archive.NewestAuthenticatedBy(ctx, src, first); err != nil || !ok || when.IsZero() {
		t.Errorf("the database does not remember the archive key %s authenticated: %v %v %v", first, when, ok, err)
	}
	if err := ring.Retire(first); err != nil {
		t.Fatal(err)
	}
	if _, _, err := archive.VerifyFile(before, archive.Options{Keys: reader, Plaintext: true}); err == nil || !strings.Contains(err.Error(), "made with a key this key file does not hold") {
		t.Errorf("an archive of a retired key: %v", err)
	}
}
