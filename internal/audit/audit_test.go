package audit_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// writeEvents appends n events from several goroutines at once, as requests do.
func writeEvents(t *testing.T, db *database.DB, n int) {
	t.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := audit.Event{ActorName: "nurse", Action: "patient.read", EntityType: "patient", EntityID: fmt.Sprint(i + 1),
				Outcome: audit.Success, Address: "10.0.0.1", Detail: "ünïcode " + strings.Repeat("é", 1500)}
			if i%2 == 0 {
				// half of them inside a caller's transaction
				errs <- db.Tx(ctx, func(tx *sql.Tx) error { return audit.Record(ctx, tx, e) })
				return
			}
			errs <- audit.Record(ctx, db, e)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func verify(t *testing.T, db *database.DB) audit.Report {
	t.Helper()
	r, err := audit.Verify(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChainIsWholeAfterConcurrentWrites(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		writeEvents(t, db, 40)
		r := verify(t, db)
		if r.Broken != nil || r.Checked != 40 || len(r.Head) != 64 {
			t.Fatalf("report %+v, broken %+v", r, r.Broken)
		}
		var patients int
		if err := db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM audit_events WHERE patient_id <> 0`).Scan(&patients); err != nil || patients != 40 {
			t.Errorf("events naming their patient: %d, %v", patients, err)
		}
	})
}

func TestVerifyFindsTheFirstBrokenLink(t *testing.T) {
	cases := []struct {
		name, stmt string
		seq        int64
		reason     string
	}{
		{"edited", `UPDATE audit_events SET outcome = 'failure' WHERE seq = 4`, 4, "changed after it was written"},
		{"hash overwritten", `UPDATE audit_events SET hash = 'x' WHERE seq = 4`, 4, "changed after it was written"},
		{"removed", `DELETE FROM audit_events WHERE seq = 3`, 3, "missing"},
		{"last removed", `DELETE FROM audit_events WHERE seq = 6`, 6, "removed"},
		{"replaced", `UPDATE audit_events SET prev_hash = 'y' WHERE seq = 5`, 5, "does not follow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				writeEvents(t, db, 6)
				dbtest.Tamper(t, db, c.stmt)
				r := verify(t, db)
				if r.Broken == nil || r.Broken.Seq != c.seq || !strings.Contains(r.Broken.Reason, c.reason) {
					t.Fatalf("broken %+v, want event %d %q", r.Broken, c.seq, c.reason)
				}
			})
		})
	}
}
