package backups_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/backups"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestBackUpNowAndDownload: an administrator writes an archive from the screen and
// downloads it, both audited; a receptionist may do neither; a name that is not an archive
// the folder lists (another file there, one beside the folder, a path) is never served.
func TestBackUpNowAndDownload(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := apitest.Config()
		cfg.BackupDir, cfg.BackupEvery, cfg.BackupKeep, cfg.BackupPlaintext = filepath.Join(t.TempDir(), "backups"), 24*time.Hour, 3, true
		env := apitest.NewWith(t, db, cfg)
		admin := env.LoggedIn("boss", env.CreateUser("boss", "admin"))
		desk := env.LoggedIn("desk", env.CreateUser("desk", "receptionist"))

		if r := desk.Do("POST", "/api/backups", nil); r.Status != http.StatusForbidden {
			t.Fatalf("a receptionist backs up: %d", r.Status)
		}
		var st backups.Status
		r := admin.Do("POST", "/api/backups", nil)
		if r.Status != http.StatusCreated {
			t.Fatalf("back up now: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &st)
		if len(st.Files) != 1 || st.Running {
			t.Fatalf("after back up now: %+v", st)
		}
		name := st.Files[0].Name
		want, err := os.ReadFile(filepath.Join(cfg.BackupDir, name))
		if err != nil {
			t.Fatal(err)
		}
		r = admin.Do("GET", "/api/backups/"+name, nil)
		if r.Status != http.StatusOK || !bytes.Equal(r.Body, want) || r.Header.Get("Content-Disposition") != `attachment; filename="`+name+`"` {
			t.Fatalf("download: %d, %d bytes of %d, %q", r.Status, len(r.Body), len(want), r.Header.Get("Content-Disposition"))
		}
		if r := desk.Do("GET", "/api/backups/"+name, nil); r.Status != http.StatusForbidden {
			t.Errorf("a receptionist downloads an archive: %d", r.Status)
		}

		// Files that are not archives kept: one in the folder, one beside it, the system's.
		secret := []byte("not for download")
		for _, p := range []string{filepath.Join(cfg.BackupDir, "notes.txt"), filepath.Join(filepath.Dir(cfg.BackupDir), "emr-20261125-020000.emr")} {
			if err := os.WriteFile(p, secret, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, crafted := range []string{"notes.txt", "..%2Femr-20261125-020000.emr", "%2E%2E%2Femr-20261125-020000.emr", "..%5Cemr-20261125-020000.emr",
			"%2Fetc%2Fpasswd", "emr-20261125-020000.emr", "..", "%2E%2E"} {
			r := admin.Do("GET", "/api/backups/"+crafted, nil)
			if r.Status == http.StatusOK || bytes.Contains(r.Body, secret) || bytes.Contains(r.Body, []byte("root:")) {
				t.Errorf("GET /api/backups/%s: %d %q", crafted, r.Status, r.Body)
			}
		}

		events, err := audit.List(context.Background(), db, audit.Query{User: "boss", Sort: "at", PerPage: 50})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, e := range events.Events {
			if e.ActorName == "boss" && (e.Action == "backup.create" || e.Action == "backup.download") {
				seen[e.Action] = e.EntityID + " " + e.Outcome
			}
		}
		if seen["backup.create"] != name+" success" || seen["backup.download"] != name+" success" {
			t.Errorf("audited %v", seen)
		}
	})
}

// TestBackUpNowRefusesASecondRun: while an archive is being written, another is refused
// with a 409 that says so, and nothing is written.
func TestBackUpNowRefusesASecondRun(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := &backups.Scheduler{DB: db, Dir: filepath.Join(t.TempDir(), "b"), Every: time.Hour, Keep: 2, Options: plaintext(backups.ArchiveOptions("test"))}
		release := backups.Busy(s)
		defer release()
		if err := s.BackUp(context.Background()); err != backups.ErrRunning {
			t.Fatalf("a second run: %v", err)
		}
		var post http.HandlerFunc
		for _, rt := range s.Routes() {
			if rt.Method == "POST" && rt.Path == "/api/backups" {
				post = rt.Handler
			}
		}
		w := httptest.NewRecorder()
		post(w, httptest.NewRequest("POST", "/api/backups", nil))
		if w.Code != http.StatusConflict || !bytes.Contains(w.Body.Bytes(), []byte("being written")) {
			t.Errorf("back up now while running: %d %s", w.Code, w.Body)
		}
		if st := s.Status(); len(st.Files) != 0 {
			t.Errorf("written while refused: %+v", st.Files)
		}
	})
}
