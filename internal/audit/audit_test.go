package audit_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
			errs <- audit.Access(ctx, db, e)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seal(t, db)
}

func seal(t *testing.T, db *database.DB) {
	t.Helper()
	if _, err := audit.SealPending(context.Background(), db); err != nil {
		t.Fatal(err)
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
		{"reordered", `UPDATE audit_events SET seq = -seq WHERE seq IN (2, 3);UPDATE audit_events SET seq = CASE seq WHEN -2 THEN 3 ELSE 2 END WHERE seq < 0`, 2, "does not follow"},
		{"batch head replaced", `UPDATE audit_seals SET hash = 'z'`, 6, "not the one its batch was sealed with"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				writeEvents(t, db, 6)
				dbtest.Tamper(t, db, strings.Split(c.stmt, ";")...)
				r := verify(t, db)
				if r.Broken == nil || r.Broken.Seq != c.seq || !strings.Contains(r.Broken.Reason, c.reason) {
					t.Fatalf("broken %+v, want event %d %q", r.Broken, c.seq, c.reason)
				}
			})
		})
	}
}

func TestEventsAreChainedInBatchesAndOnlySealingMayUpdateThem(t *testing.T) {
	ctx := context.Background()
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		writeEvents(t, db, 5) // sealed
		for i := range 3 {
			if err := audit.Access(ctx, db, audit.Event{Action: "patient.read", EntityType: "patient", EntityID: fmt.Sprint(i + 1), Outcome: audit.Success}); err != nil {
				t.Fatal(err)
			}
		}
		r := verify(t, db)
		if r.Broken != nil || r.Checked != 5 || r.Unsealed != 3 {
			t.Fatalf("before sealing: %+v", r)
		}
		// Waiting events can be sealed but not changed; sealed ones not at all.
		for _, stmt := range []string{
			`UPDATE audit_events SET outcome = 'failure' WHERE seq IS NULL`,
			`UPDATE audit_events SET outcome = 'failure' WHERE seq = 2`,
			`UPDATE audit_events SET seq = 99, hash = 'x' WHERE seq = 3`,
			`DELETE FROM audit_events WHERE seq IS NULL`,
		} {
			if _, err := db.ExecContext(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v", stmt, err)
			}
		}
		seal(t, db)
		r = verify(t, db)
		if r.Broken != nil || r.Checked != 8 || r.Unsealed != 0 || r.Late != 0 {
			t.Fatalf("after sealing: %+v %+v", r, r.Broken)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_seals`); n != 2 {
			t.Errorf("%d batch heads, want 2", n)
		}
	})
}

func TestVerifyReportsEventsSealedLate(t *testing.T) {
	ctx := context.Background()
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		writeEvents(t, db, 2)
		// Written ten seconds ago and sealed now: as after a crash, or an event slipped in
		// with an earlier time.
		e := audit.Event{At: time.Now().Add(-10 * time.Second), Action: "patient.read", Outcome: audit.Success}
		if err := audit.Access(ctx, db, e); err != nil {
			t.Fatal(err)
		}
		r := verify(t, db)
		if r.Unsealed != 1 || r.OldestUnsealed < 9*time.Second {
			t.Fatalf("waiting: %+v", r)
		}
		seal(t, db)
		r = verify(t, db)
		if r.Broken != nil || r.Late != 1 || r.FirstLate != 3 {
			t.Fatalf("late: %+v", r)
		}
	})
}

func TestVerifyNamesAnEventChainedOutsideTheSealer(t *testing.T) {
	ctx := context.Background()
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		writeEvents(t, db, 3)
		// Hashed correctly onto the last event, as someone knowing the algorithm could, but
		// not sealed: no batch head covers it.
		var prev string
		if err := db.QueryRowContext(ctx, `SELECT hash FROM audit_events WHERE seq = 3`).Scan(&prev); err != nil {
			t.Fatal(err)
		}
		e, hash := audit.Chained(prev, 4, audit.Event{At: time.Now(), Action: "patient.read", Outcome: audit.Success})
		if _, err := db.ExecContext(ctx, `INSERT INTO audit_events (seq, at, actor_name, action, outcome, prev_hash, hash) VALUES (4, $1, '', $2, $3, $4, $5)`,
			e.At, e.Action, e.Outcome, prev, hash); err != nil {
			t.Fatal(err)
		}
		r := verify(t, db)
		if r.Broken == nil || r.Broken.Seq != 4 || !strings.Contains(r.Broken.Reason, "no sealed batch") {
			t.Fatalf("broken %+v", r.Broken)
		}
	})
}

// TestAnUpgradedChainVerifies: a database whose events were chained as they were written
// (before migration 13), with one event older than the chain, verifies after the upgrade,
// and new events are sealed onto the same chain.
func TestAnUpgradedChainVerifies(t *testing.T) {
	ctx := context.Background()
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			db, err := database.Open(ctx, e.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.MigrateTo(ctx, 12); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO audit_events (at, actor_name, action, outcome) VALUES ($1, 'old', 'auth.login', 'success')`, time.Now().UTC()); err != nil {
				t.Fatal(err)
			}
			prev := ""
			for seq := int64(1); seq <= 3; seq++ { // as the code before the upgrade wrote them
				ev, hash := audit.Chained(prev, seq, audit.Event{At: time.Now(), ActorName: "nurse", Action: "patient.read", EntityType: "patient", EntityID: "1", PatientID: 1, Outcome: audit.Success})
				if _, err := db.ExecContext(ctx, `INSERT INTO audit_events (seq, at, actor_name, action, entity_type, entity_id, patient_id, outcome, prev_hash, hash)
					VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, seq, ev.At, ev.ActorName, ev.Action, ev.EntityType, ev.EntityID, ev.PatientID, ev.Outcome, prev, hash); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ExecContext(ctx, `UPDATE audit_chain SET seq = $1, hash = $2 WHERE id = 1`, seq, hash); err != nil {
					t.Fatal(err)
				}
				prev = hash
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			r := verify(t, db)
			if r.Broken != nil || r.Checked != 3 || r.Legacy != 1 || r.Unsealed != 0 || r.Head != prev {
				t.Fatalf("after the upgrade: %+v %+v", r, r.Broken)
			}
			if err := audit.Access(ctx, db, audit.Event{Action: "patient.read", Outcome: audit.Success}); err != nil {
				t.Fatal(err)
			}
			seal(t, db)
			if r = verify(t, db); r.Broken != nil || r.Checked != 4 || r.Legacy != 1 || r.Late != 0 {
				t.Fatalf("a new event after the upgrade: %+v %+v", r, r.Broken)
			}
		})
	}
}

// TestAccessRecordsOnlyWhatChangesNothing: an event outside a write's transaction is a
// read, a print, an export, a check, a sign-in, or an attempt that did not succeed; the event
// of a successful write is refused there, so it cannot be recorded after its write committed.
func TestAccessRecordsOnlyWhatChangesNothing(t *testing.T) {
	for _, c := range []struct {
		e      audit.Event
		access bool
	}{
		{audit.Event{Action: "patient.read", Outcome: audit.Success}, true},
		{audit.Event{Action: "bill.print", Outcome: audit.Success}, true},
		{audit.Event{Action: "audit.export", Outcome: audit.Success}, true},
		{audit.Event{Action: "patient.file.download", Outcome: audit.Success}, true},
		{audit.Event{Action: "auth.login", Outcome: audit.Success}, true},
		{audit.Event{Action: "profile.password", Outcome: audit.Failure}, true},
		{audit.Event{Action: "service.update", Outcome: audit.Denied}, true},
		{audit.Event{Action: "service.update", Outcome: audit.Success}, false},
		{audit.Event{Action: "catalogue.import", Outcome: audit.Success}, false},
		{audit.Event{Action: "reader", Outcome: audit.Success}, false},
	} {
		if got := audit.IsAccess(c.e); got != c.access {
			t.Errorf("%s %s: access %v, want %v", c.e.Action, c.e.Outcome, got, c.access)
		}
	}
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		if err := audit.Access(ctx, db, audit.Event{Action: "service.update", Outcome: audit.Success}); err == nil {
			t.Fatal("a write's event was recorded outside its transaction")
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE action = 'service.update'`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("events %d, %v", n, err)
		}
	})
}
