package backups_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"emr/internal/backups"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/database/dbtest"
)

// TestSchedulerKeepsTheNewestAndTellsWhenOverdue: each run writes an archive named by its
// time and removes the oldest beyond Keep; the status lists them newest first, says when
// the newest is older than the interval, and keeps a failed run's error until a success.
func TestSchedulerKeepsTheNewestAndTellsWhenOverdue(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 2, 0, 0, 0, time.UTC)
		s := &backups.Scheduler{DB: db, Dir: filepath.Join(t.TempDir(), "b"), Every: time.Hour, Keep: 2, Options: plaintext(backups.ArchiveOptions("test")),
			Now: func() time.Time { return now }}
		for range 3 {
			if err := s.BackUp(ctx); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Hour)
		}
		st := s.Status()
		if len(st.Files) != 2 || st.Files[0].Name != "emr-20261125-040000.emr" || st.Files[1].Name != "emr-20261125-030000.emr" || st.Files[0].Size == 0 {
			t.Fatalf("kept %+v", st.Files)
		}
		if st.Overdue || st.LastFailure != nil {
			t.Errorf("an hour after the last backup: %+v", st)
		}
		now = now.Add(2 * time.Hour)
		if st = s.Status(); !st.Overdue {
			t.Error("three hours after the last backup of an hourly schedule, not overdue")
		}
		if age, ok := s.LastSuccessAge(); !ok || age != 3*time.Hour {
			t.Errorf("last success age %s %v", age, ok)
		}
		// A folder that cannot be written: the run fails, and the status says so.
		if err := os.Chmod(s.Dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(s.Dir, 0o700) })
		if os.Geteuid() == 0 {
			s.Dir = filepath.Join(s.Dir, "emr-20261125-040000.emr") // a file, not a folder: root writes anywhere
		}
		if err := s.BackUp(ctx); err == nil {
			t.Fatal("a backup into a folder that cannot be written succeeded")
		}
		if st = s.Status(); st.LastFailure == nil || st.LastFailure.Error == "" {
			t.Errorf("after a failed run: %+v", st)
		}
	})
}

// plaintext is opt writing plain archives (what is tested here is the schedule).
func plaintext(opt archive.Options) archive.Options {
	opt.Plaintext = true
	return opt
}

// What others put in the folder is not an archive of ours: a name dated ahead of now (it
// would hold off every scheduled backup and push the real ones out of those kept) and a link
// (its target would be served) are neither listed nor counted among those kept.
func TestPlantedFilesAreNotArchives(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		now := time.Date(2026, 11, 25, 2, 0, 0, 0, time.UTC)
		s := &backups.Scheduler{DB: db, Dir: filepath.Join(t.TempDir(), "b"), Every: time.Hour, Keep: 2, Options: plaintext(backups.ArchiveOptions("test")),
			Now: func() time.Time { return now }}
		if err := os.MkdirAll(s.Dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"emr-20991231-235959.emr", "emr-20991231-235958.emr"} {
			if err := os.WriteFile(filepath.Join(s.Dir, name), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink("/etc/hostname", filepath.Join(s.Dir, "emr-20261125-010000.emr")); err != nil {
			t.Fatal(err)
		}
		if err := s.BackUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		if st := s.Status(); len(st.Files) != 1 || st.Files[0].Name != "emr-20261125-020000.emr" {
			t.Fatalf("listed %+v", st.Files)
		}
	})
}
