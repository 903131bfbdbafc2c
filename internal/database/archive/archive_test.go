package archive_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// clinic is the key file that authenticates this run's archives.
var clinic = secret.Ephemeral()

// reading are the options that read an archive of this run: authenticated by the clinic's
// key, decrypted with ids, or plain on purpose when there are none.
func reading(ids []age.Identity) archive.Options {
	return archive.Options{Keys: clinic, Identities: ids, Plaintext: len(ids) == 0}
}

// seed writes rows that test what an archive must carry unchanged: text in four scripts and
// with a line break, bytes that are not text, NULLs, a boolean, moments with microseconds,
// a gap left by a deleted row, and rows of a table without an id column. The users are 1
// (ann) and 3 (bob); 2 was deleted.
func seed(t *testing.T, db *database.DB) {
	t.Helper()
	at := time.Date(2026, 11, 26, 9, 30, 15, 123456000, time.UTC)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO users (username, name, password_hash, active, created_at, updated_at) VALUES ('ann', 'Анна 安娜 Ánh', 'x', TRUE, $1, $1)`, []any{at}},
		{`INSERT INTO users (username, name, password_hash, active, created_at, updated_at) VALUES ('gone', 'Gone', 'x', TRUE, $1, $1)`, []any{at}},
		{`INSERT INTO users (username, name, password_hash, active, created_at, updated_at) VALUES ('bob', 'Bob', 'x', FALSE, $1, $1)`, []any{at}},
		{`DELETE FROM users WHERE username = 'gone'`, nil},
		{`INSERT INTO user_images (user_id, kind, content_type, data, updated_at) SELECT id, 'signature', 'image/png', $1, $2 FROM users WHERE username = 'ann'`, []any{[]byte{0, 0xff, 0x89, 'P', 'N', 'G', '\n', 0}, at}},
		{`INSERT INTO settings (key, value, updated_at, updated_by) VALUES ('clinic', $1, $2, NULL)`, []any{"{\"name\":\"Phòng khám\\nline two\"}", at}},
	} {
		if _, err := db.ExecContext(context.Background(), q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
}

// fresh is an empty (unmigrated) database of engine e.
func fresh(t *testing.T, e dbtest.Engine) *database.DB {
	t.Helper()
	db, err := database.Open(context.Background(), e.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func write(t *testing.T, db *database.DB, opt archive.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.emr")
	opt.Plaintext = opt.Plaintext || len(opt.Recipients) == 0
	if opt.Keys == nil {
		opt.Keys = clinic
	}
	if _, err := archive.Write(context.Background(), db, path, opt); err != nil {
		t.Fatal(err)
	}
	return path
}

func digests(t *testing.T, path string, ids []age.Identity) map[string]string {
	t.Helper()
	_, d, err := archive.VerifyFile(path, reading(ids))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAnArchiveCarriesEveryRowToEitherEngine: an archive of each engine, restored into an
// empty database of each engine, holds the same rows (table by table, by the digests a
// restore checks: an archive of the restored database has the same digests as the first),
// and the next id given is past every one the archive holds.
func TestAnArchiveCarriesEveryRowToEitherEngine(t *testing.T) {
	ctx := context.Background()
	for _, from := range dbtest.Engines() {
		for _, to := range dbtest.Engines() {
			t.Run(from.Name+" to "+to.Name, func(t *testing.T) {
				src := dbtest.Open(t, from.URL(t))
				seed(t, src)
				path := write(t, src, archive.Options{App: "test"})
				want := digests(t, path, nil)

				dst := fresh(t, to)
				rep, err := archive.RestoreFile(ctx, dst, path, reading(nil))
				if err != nil {
					t.Fatal(err)
				}
				if rep.Rows != rep.Manifest.Rows() || rep.Rows == 0 {
					t.Errorf("loaded %d rows of %d", rep.Rows, rep.Manifest.Rows())
				}
				var name string
				var data []byte
				if err := dst.QueryRowContext(ctx, `SELECT u.name, i.data FROM users u JOIN user_images i ON i.user_id = u.id WHERE u.username = 'ann'`).Scan(&name, &data); err != nil {
					t.Fatal(err)
				}
				if name != "Анна 安娜 Ánh" || !bytes.Equal(data, []byte{0, 0xff, 0x89, 'P', 'N', 'G', '\n', 0}) {
					t.Errorf("restored %q %v", name, data)
				}
				got := digests(t, write(t, dst, archive.Options{App: "test"}), nil)
				for table, d := range want {
					if got[table] != d {
						t.Errorf("%s: the restored rows differ from the archive's", table)
					}
				}
				var id int64
				if err := dst.QueryRowContext(ctx, `INSERT INTO users (username, name, password_hash, created_at, updated_at) VALUES ('new', 'New', 'x', $1, $1) RETURNING id`, time.Now()).Scan(&id); err != nil {
					t.Fatal(err)
				}
				if id <= 3 {
					t.Errorf("a new user took id %d, which the archive holds", id)
				}
			})
		}
	}
}

// TestADamagedArchiveRestoresNothing: an archive cut short, with a changed byte, or not an
// archive at all is refused as damaged, and the target is left as empty as it was, ready
// for a whole one.
func TestADamagedArchiveRestoresNothing(t *testing.T) {
	ctx := context.Background()
	e := dbtest.Engines()[0]
	src := dbtest.Open(t, e.URL(t))
	seed(t, src)
	var plain bytes.Buffer
	if _, err := archive.Dump(ctx, src, &plain, archive.Options{App: "test", Keys: clinic}); err != nil {
		t.Fatal(err)
	}
	whole := plain.Bytes()
	changed := bytes.Clone(whole)
	i := bytes.Index(changed, []byte("Bob"))
	changed[i] = 'R' // "Rob": still a valid line, no longer the archive's
	for name, data := range map[string][]byte{
		"cut short":      whole[:len(whole)*2/3],
		"changed":        changed,
		"not an archive": []byte("{\"hello\": \"world\"}\n"),
		"empty":          nil,
	} {
		t.Run(name, func(t *testing.T) {
			dst := fresh(t, e)
			_, err := archive.Restore(ctx, dst, bytes.NewReader(data), archive.Options{Keys: clinic})
			if !errors.Is(err, archive.ErrDamaged) && !errors.Is(err, archive.ErrNotOurs) {
				t.Fatalf("restore: %v, want damaged", err)
			}
			if _, err := archive.Restore(ctx, dst, bytes.NewReader(whole), archive.Options{Keys: clinic}); err != nil {
				t.Fatalf("the whole archive after a damaged one: %v", err)
			}
		})
	}
}

// TestRestoreNeedsAnEmptyDatabase: an archive is never loaded over records.
func TestRestoreNeedsAnEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	e := dbtest.Engines()[0]
	src := dbtest.Open(t, e.URL(t))
	seed(t, src)
	path := write(t, src, archive.Options{App: "test"})
	if _, err := archive.RestoreFile(ctx, src, path, reading(nil)); err == nil {
		t.Fatal("an archive was restored over a database with records")
	}
	var n int
	if err := src.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("users after the refused restore: %d, %v", n, err)
	}
}

// TestAnArchiveFileIsEncryptedUnlessSaidOtherwise: Write refuses to write a plain archive
// unless asked to on purpose; an encrypted one opens with its identity only, and its
// bytes show nothing of the records.
func TestAnArchiveFileIsEncryptedUnlessSaidOtherwise(t *testing.T) {
	ctx := context.Background()
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	seed(t, db)
	if _, err := archive.Write(ctx, db, filepath.Join(t.TempDir(), "plain.emr"), archive.Options{}); !errors.Is(err, archive.ErrUnencrypted) {
		t.Fatalf("a plain archive without asking: %v", err)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := age.GenerateX25519Identity()
	path := write(t, db, archive.Options{App: "test", Recipients: []age.Recipient{id.Recipient()}})
	if enc, err := archive.Encrypted(path); err != nil || !enc {
		t.Fatalf("encrypted: %v %v", enc, err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("ann")) || bytes.Contains(raw, []byte("emr-archive")) {
		t.Error("the encrypted file shows its content")
	}
	if _, _, err := archive.VerifyFile(path, reading([]age.Identity{other})); err == nil {
		t.Error("opened with another's identity")
	}
	if got := digests(t, path, []age.Identity{id}); len(got) == 0 {
		t.Error("no tables in the encrypted archive")
	}
	plain := write(t, db, archive.Options{App: "test"})
	if enc, _ := archive.Encrypted(plain); enc {
		t.Error("a plain archive said to be encrypted")
	}
}

// TestEphemeralTablesAreListedEmpty: a backup leaves out what is only a moment's (sessions):
// the table is in the manifest, with no rows, and comes back empty.
func TestEphemeralTablesAreListedEmpty(t *testing.T) {
	ctx := context.Background()
	e := dbtest.Engines()[0]
	src := dbtest.Open(t, e.URL(t))
	seed(t, src)
	if _, err := src.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ('push:keys', '{}', $1)`, time.Now()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m, err := archive.Dump(ctx, src, &buf, archive.Options{App: "test", Ephemeral: []string{"user_images"}, Keys: clinic})
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range m.Tables {
		if table.Name == "user_images" && table.Rows != 0 {
			t.Errorf("an ephemeral table's rows were written: %d", table.Rows)
		}
	}
	if !strings.Contains(strings.Join(m.Ephemeral, ","), "user_images") {
		t.Errorf("ephemeral tables: %v", m.Ephemeral)
	}
	dst := fresh(t, e)
	if _, err := archive.Restore(ctx, dst, &buf, archive.Options{Keys: clinic}); err != nil {
		t.Fatal(err)
	}
	if n := dbtest.Count(t, dst, `SELECT COUNT(*) FROM user_images`); n != 0 {
		t.Errorf("user_images after restore: %d", n)
	}
}
