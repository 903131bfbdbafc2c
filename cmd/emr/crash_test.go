package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database/dbtest"
)

// TestNoAcknowledgedWriteIsLost: registrations are sent by eight clients at once to a real
// `emr serve` process, which is killed (SIGKILL) — or stopped (SIGTERM), after which it must
// exit cleanly — while they are in flight. Started again on the same database, every
// registration that was answered 201 is there with its audit event, the patient numbers are
// distinct, and the audit chain, sealed by the new process, verifies — on both engines.
func TestNoAcknowledgedWriteIsLost(t *testing.T) {
	for _, e := range dbtest.Engines() {
		for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
			t.Run(e.Name+"/"+sig.String(), func(t *testing.T) {
				url := e.URL(t)
				if _, err := runEMR(t, "a long enough password\n", "user", "create", "--database-url", url, "--username", "rec", "--name", "Rec", "--role", "receptionist"); err != nil {
					t.Fatal(err)
				}
				base, cmd := serveProcessCmd(t, url)
				c := apitest.Remote(t, base)
				if r := c.Login("rec", "a long enough password"); r.Status != http.StatusOK {
					t.Fatalf("login: %d", r.Status)
				}
				var mu sync.Mutex
				acked := map[int64]string{} // patient id -> number, for every 201
				var sent atomic.Int64
				stop := make(chan struct{})
				var wg sync.WaitGroup
				for w := range 8 {
					wg.Go(func() {
						for i := 0; ; i++ {
							select {
							case <-stop:
								return
							default:
							}
							sent.Add(1)
							r, err := c.Try("POST", "/api/patients", map[string]any{"first_name": fmt.Sprintf("Crash%dx%d", w, i), "last_name": "Test",
								"birth_date": "1970-01-01", "sex": "female"})
							if err != nil {
								return // the server is gone
							}
							if r.Status == http.StatusCreated {
								var p struct {
									ID  int64
									MRN string
								}
								if json.Unmarshal(r.Body, &p) == nil {
									mu.Lock()
									acked[p.ID] = p.MRN
									mu.Unlock()
								}
							}
						}
					})
				}
				// Kill once some registrations were answered, while more are in flight.
				deadline := time.Now().Add(30 * time.Second)
				for {
					mu.Lock()
					n := len(acked)
					mu.Unlock()
					if n >= 40 || time.Now().After(deadline) {
						break
					}
					time.Sleep(5 * time.Millisecond) // polling for the condition above
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				close(stop)
				wg.Wait()
				if err := cmd.Wait(); sig == syscall.SIGTERM && err != nil {
					t.Errorf("after SIGTERM: %v", err)
				}
				if len(acked) < 40 {
					t.Fatalf("only %d registrations answered before the deadline", len(acked))
				}

				serveProcess(t, url) // starts again on the same database and seals what was left
				db := dbtest.Open(t, url)
				for id, mrn := range acked {
					if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE id = $1 AND mrn = $2`, id, mrn); n != 1 {
						t.Errorf("patient %d (%s) was answered 201 and is gone", id, mrn)
					}
					if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.create' AND entity_id = $1`, fmt.Sprint(id)); n != 1 {
						t.Errorf("patient %d's registration has %d audit events", id, n)
					}
				}
				if d, all := dbtest.Count(t, db, `SELECT COUNT(DISTINCT mrn) FROM patients`), dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); d != all {
					t.Errorf("%d distinct numbers for %d patients", d, all)
				}
				ctx := context.Background()
				if _, err := audit.SealPending(ctx, db); err != nil {
					t.Fatal(err)
				}
				r, err := audit.Verify(ctx, db)
				if err != nil || r.Broken != nil || r.Unsealed != 0 {
					t.Fatalf("chain after the crash: %+v %v", r, err)
				}
				t.Logf("%s: %d of %d registrations answered; %d patients stored; chain of %d events intact", sig, len(acked), sent.Load(),
					dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`), r.Checked)
			})
		}
	}
}
