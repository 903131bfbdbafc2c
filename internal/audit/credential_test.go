package audit_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestTheCredentialIsChainedOnlyWhenSet: events chained before the credential existed (on a
// database at migration 34) and events without one still verify after the upgrade; an event
// with a credential verifies; changing its credential, or giving one to an event that had
// none, breaks the chain at that event; the seal leaves a credential as written.
func TestTheCredentialIsChainedOnlyWhenSet(t *testing.T) {
	ctx := context.Background()
	for _, engine := range dbtest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db, err := database.Open(ctx, engine.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.MigrateTo(ctx, 34); err != nil {
				t.Fatal(err)
			}
			// Chained and sealed as the code before the credential did, in the columns it had.
			err = db.Tx(ctx, func(tx *sql.Tx) error {
				prev := ""
				for seq := int64(1); seq <= 2; seq++ {
					ev, hash := audit.Chained(prev, seq, audit.Event{At: time.Now(), ActorName: "nurse", Action: "patient.read", EntityType: "patient", EntityID: "1", PatientID: 1, Outcome: audit.Success})
					if _, err := tx.ExecContext(ctx, `INSERT INTO audit_events (seq, at, actor_name, action, entity_type, entity_id, patient_id, outcome, prev_hash, hash)
						VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, seq, ev.At, ev.ActorName, ev.Action, ev.EntityType, ev.EntityID, ev.PatientID, ev.Outcome, prev, hash); err != nil {
						return err
					}
					prev = hash
				}
				now := time.Now()
				return audit.MoveHead(ctx, tx, 2, prev, &now)
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, e := range []audit.Event{
				{ActorID: 0, ActorName: "clerk", Action: "patient.read", EntityType: "patient", EntityID: "2", Outcome: audit.Success},
				{ActorName: "clerk", Action: "fhir.patient.read", EntityType: "patient", EntityID: "2", Outcome: audit.Success, Credential: `token:17 "Lab script"`},
				{ActorName: "client:emr-abc", Action: "fhir.patient.read", EntityType: "patient", EntityID: "2", Outcome: audit.Success, Credential: `client:emr-abc "Lab interface"`},
			} {
				if err := audit.Access(ctx, db, e); err != nil {
					t.Fatal(err)
				}
			}
			seal(t, db)
			if r := verify(t, db); r.Broken != nil || r.Checked != 5 {
				t.Fatalf("old and new events: %+v %+v", r, r.Broken)
			}
			var stored []string
			rows, err := db.QueryContext(ctx, `SELECT COALESCE(credential, '(none)') FROM audit_events ORDER BY seq`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var c string
				if err := rows.Scan(&c); err != nil {
					t.Fatal(err)
				}
				stored = append(stored, c)
			}
			rows.Close()
			if strings.Join(stored, "|") != `(none)|(none)|(none)|token:17 "Lab script"|client:emr-abc "Lab interface"` {
				t.Errorf("stored credentials: %q", stored)
			}
			// The log refuses a change of the credential as of any other field.
			if _, err := db.ExecContext(ctx, `UPDATE audit_events SET credential = 'token:1 "x"' WHERE seq = 4`); err == nil {
				t.Error("a credential was changed in place")
			}
			for name, c := range map[string]struct {
				stmt string
				seq  int64
			}{
				"a credential changed":         {`UPDATE audit_events SET credential = 'token:18 "Other"' WHERE seq = 4`, 4},
				"a credential removed":         {`UPDATE audit_events SET credential = NULL WHERE seq = 5`, 5},
				"a credential given afterward": {`UPDATE audit_events SET credential = 'token:17 "Lab script"' WHERE seq = 2`, 2},
			} {
				t.Run(name, func(t *testing.T) {
					var was *string
					if err := db.QueryRowContext(ctx, `SELECT credential FROM audit_events WHERE seq = $1`, c.seq).Scan(&was); err != nil {
						t.Fatal(err)
					}
					dbtest.Tamper(t, db, c.stmt)
					r := verify(t, db)
					if r.Broken == nil || r.Broken.Seq != c.seq || !strings.Contains(r.Broken.Reason, "changed") {
						t.Errorf("tampered: %+v", r.Broken)
					}
					restore := fmt.Sprintf(`UPDATE audit_events SET credential = NULL WHERE seq = %d`, c.seq)
					if was != nil {
						restore = fmt.Sprintf(`UPDATE audit_events SET credential = '%s' WHERE seq = %d`, strings.ReplaceAll(*was, `'`, `''`), c.seq)
					}
					dbtest.Tamper(t, db, restore)
					if r := verify(t, db); r.Broken != nil {
						t.Fatalf("put back: %+v", r.Broken)
					}
				})
			}
		})
	}
}
