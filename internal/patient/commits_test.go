package patient_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestAuditedWorkSharesCommits: with every commit made slow on purpose, 16 concurrent chart
// opens (audited reads) and 16 concurrent registrations finish in about one commit's time,
// not sixteen. Nothing on the request path serializes audited work: events are appended
// without a shared row, numbers come from a sequence, counts take appended deltas, and on
// SQLite the one writer commits what queued in one commit. The bound is halfway between both
// outcomes (one or two commits against sixteen), so a busy machine does not decide it.
func TestAuditedWorkSharesCommits(t *testing.T) {
	const delay = 100 * time.Millisecond
	const clients = 16
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url := e.URL(t)
			db := dbtest.Open(t, url)
			_, c := setup(t, db)
			ids := make([]int64, clients)
			for i := range ids {
				ids[i] = create(t, c, newPatient(fmt.Sprintf("Open%c", 'A'+i), "Chart", "1980-01-01", "female", "")).ID
			}
			if e.Name == "postgres" {
				openConnections(t, db, clients)
			}
			dbtest.SlowCommits(t, db, url, delay)

			concurrently := func(what string, do func(i int) int, want int) {
				t.Helper()
				statuses := make([]int, clients)
				var wg sync.WaitGroup
				start := time.Now()
				for i := range clients {
					wg.Go(func() { statuses[i] = do(i) })
				}
				wg.Wait()
				took := time.Since(start)
				for i, s := range statuses {
					if s != want {
						t.Fatalf("%s %d: status %d", what, i, s)
					}
				}
				t.Logf("%d concurrent %s with %v commits: %v", clients, what, delay, took)
				if took > 8*delay { // halfway between one commit and sixteen: a machine busy with other work took 6.6
					t.Errorf("%d concurrent %s took %v, %.1f commits' time: want about one, not %d", clients, what, took, float64(took)/float64(delay), clients)
				}
			}
			concurrently("chart opens", func(i int) int {
				return c.Do("GET", fmt.Sprintf("/api/patients/%d", ids[i]), nil).Status
			}, http.StatusOK)
			concurrently("registrations", func(i int) int {
				return c.Do("POST", "/api/patients", newPatient(fmt.Sprintf("New%c", 'A'+i), "Register", "1990-02-03", "male", "")).Status
			}, http.StatusCreated)

			// Nothing was lost or given twice.
			if n := dbtest.Count(t, db, `SELECT COUNT(DISTINCT mrn) FROM patients`); n != 2*clients {
				t.Errorf("%d distinct patient numbers, want %d", n, 2*clients)
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('patient.read', 'patient.create')`); n != 3*clients {
				t.Errorf("%d audit events of reads and registrations, want %d", n, 3*clients)
			}
		})
	}
}

// openConnections has the pool open n connections (PostgreSQL keeps them), so that what a
// test times is commits, not a busy machine starting n backends.
func openConnections(t *testing.T, db *database.DB, n int) {
	t.Helper()
	held := make([]*sql.Conn, n)
	for i := range held {
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		held[i] = conn
	}
	for _, conn := range held {
		conn.Close() // back to the pool
	}
}
