package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"emr/internal/config"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// TestKeyFileIsMadeOnceAndMustMatch: the first use of a database makes its key file (0600);
// a server pointed at a missing key file, or at another clinic's, refuses to start with a
// sentence saying which key it needs, and makes no file; `emr keys rotate` puts a new key
// first and keeps the old one.
func TestKeyFileIsMadeOnceAndMustMatch(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dir := t.TempDir()
			url := e.URL(t)
			key := filepath.Join(dir, "clinic.key")
			out, err := runEMR(t, "", "keys", "rotate", "--database-url", url, "--secret-key-file", key)
			if err != nil || !strings.Contains(out, "Made the secret key file "+key) || !strings.Contains(out, "rotated: key") {
				t.Fatalf("first rotation: %v\n%s", err, out)
			}
			info, err := os.Stat(key)
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("the key file: %v %v", info, err)
			}
			ring, err := secret.Load(key)
			if err != nil || len(ring.IDs()) != 2 {
				t.Fatalf("after a rotation the file holds %v (%v)", ring, err)
			}

			missing := filepath.Join(dir, "elsewhere", "none.key")
			_, err = runEMR(t, "", "serve", "--database-url", url, "--addr", "127.0.0.1:0", "--secret-key-file", missing)
			if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), ring.IDs()[0]) {
				t.Errorf("a missing key file: %v", err)
			}
			if _, err := os.Stat(missing); err == nil {
				t.Error("a new key file was made for a database sealed with another")
			}
			other := filepath.Join(dir, "other.key")
			if _, err := secret.Create(other); err != nil {
				t.Fatal(err)
			}
			_, err = runEMR(t, "", "serve", "--database-url", url, "--addr", "127.0.0.1:0", "--secret-key-file", other)
			if err == nil || !strings.Contains(err.Error(), "does not open this database's sealed secrets") {
				t.Errorf("another clinic's key file: %v", err)
			}
			if err := os.Chmod(key, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := secret.Load(key); err == nil || !strings.Contains(err.Error(), "chmod 600") {
				t.Errorf("a key file others may read: %v", err)
			}
		})
	}
}

// TestFilesArePrivateUnderAPermissiveUmask: with the umask open to all, what emr creates —
// the SQLite database and its write-ahead files, archives, the key file — is its owner's
// alone, and a start tightens such files made readable before.
func TestFilesArePrivateUnderAPermissiveUmask(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "data", "emr.db")
	if out, err := runEMR(t, "", "seed", "--database-url", url, "--patients", "10"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	syscall.Umask(0) // run sets its own; the files below are made as a careless process would
	key := filepath.Join(dir, "data", "emr.key")
	if out, err := runEMR(t, "", "keys", "rotate", "--database-url", url, "--secret-key-file", key); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	backups := filepath.Join(dir, "backups")
	archiveFile := filepath.Join(backups, "clinic.emr")
	if out, err := runEMR(t, "", "backup", "--database-url", url, "--to", archiveFile, "--recipient", testKey.recipient, "--secret-key-file", key); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	db := dbtest.Open(t, url) // holds the write-ahead files open
	if _, err := db.ExecContext(context.Background(), `UPDATE patients SET phone = '1' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	private := func(path string, want os.FileMode) {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		if info.Mode().Perm()&0o077 != 0 || info.Mode().Perm()&want != info.Mode().Perm() {
			t.Errorf("%s: mode %04o, want %04o at most", path, info.Mode().Perm(), want)
		}
	}
	for _, f := range []string{filepath.Join(dir, "data", "emr.db"), filepath.Join(dir, "data", "emr.db-wal"), filepath.Join(dir, "data", "emr.db-shm"), key, archiveFile} {
		private(f, 0o600)
	}
	for _, d := range []string{filepath.Join(dir, "data"), backups} {
		private(d, 0o700)
	}

	// Made readable by an earlier version: a start takes it back.
	loose := filepath.Join(backups, "emr-20260101-000000.emr")
	if err := os.WriteFile(loose, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(dir, "data", "emr.db")} {
		if err := os.Chmod(f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	tighten(config.Config{DatabaseURL: url, SecretKeyFile: key, BackupDir: backups})
	private(loose, 0o600)
	private(filepath.Join(dir, "data", "emr.db"), 0o600)
	private(backups, 0o700)
}

// TestDatabaseURLIsEchoedWithoutItsPassword: a mistyped database URL is named in the error
// without its password.
func TestDatabaseURLIsEchoedWithoutItsPassword(t *testing.T) {
	for _, url := range []string{"postgress://emr:hunter2secret@db.example.org/emr", "postgres://emr:hunter2secret@db.example.org:notaport/emr"} {
		_, err := runEMR(t, "", "migrate", "--database-url", url)
		if err == nil || strings.Contains(err.Error(), "hunter2secret") || !strings.Contains(err.Error(), "emr:xxxxx@db.example.org") {
			t.Errorf("%s: %v", url, err)
		}
	}
}
