package patient_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	patientpkg "emr/internal/patient"
)

// TestArchiveWaitsForAWrite: a write that found the patient active (CheckActive, in its
// transaction) is not overtaken by an archive on PostgreSQL, whose read committed would let
// the archive commit between the check and the write: the archive waits for the write, and a
// write that starts after the archive sees it (409). SQLite's writes run one at a time.
func TestArchiveWaitsForAWrite(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if db.Engine != database.Postgres {
			t.Skip("SQLite's write transactions run one at a time")
		}
		_, c := setup(t, db)
		p := create(t, c, newPatient("Race", "Archive", "1980-01-01", "female", ""))
		ctx := context.Background()
		write, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer write.Rollback()
		if err := patientpkg.CheckActive(ctx, write, db.Engine, p.ID); err != nil {
			t.Fatal(err)
		}
		done := make(chan int, 1)
		go func() {
			done <- c.Do("POST", fmt.Sprintf("/api/patients/%d/archive", p.ID), map[string]string{"reason": "moved away"}).Status
		}()
		// Wait until the archive waits for the write's lock on the patient.
		deadline := time.Now().Add(10 * time.Second)
		for waiting := false; !waiting; {
			select {
			case status := <-done:
				t.Fatalf("the archive went ahead of the uncommitted write: %d", status)
			default:
			}
			waiting = dbtest.Count(t, db, `SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`) > 0
			if !waiting && time.Now().After(deadline) {
				t.Fatal("the archive never waited for the write")
			}
			time.Sleep(5 * time.Millisecond) // polling for the condition, not a fixed wait
		}
		if err := write.Commit(); err != nil {
			t.Fatal(err)
		}
		if status := <-done; status != http.StatusOK {
			t.Fatalf("the archive after the write: %d", status)
		}
		// A write after the archive is refused.
		err = db.Tx(ctx, func(tx *sql.Tx) error { return patientpkg.CheckActive(ctx, tx, db.Engine, p.ID) })
		if err == nil {
			t.Fatal("a write after the archive went ahead")
		}
	})
}
