package demo

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
)

type auditKind struct {
	action, entity string
	weight         int
}

// auditMix is what a clinic's log mostly holds, by weight.
var auditMix = []auditKind{
	{"patient.read", "patient", 30}, {"visit.read", "visit", 12}, {"visit.list", "patient", 10}, {"appointment.create", "appointment", 8},
	{"appointment.arrive", "appointment", 7}, {"appointment.start", "appointment", 6}, {"appointment.complete", "appointment", 6},
	{"visit.save", "visit", 6}, {"visit.sign", "visit", 3}, {"prescription.print", "prescription", 3}, {"patient.update", "patient", 3},
	{"patient.create", "patient", 2}, {"auth.login", "", 3}, {"auth.logout", "", 1},
}

// AuditEvents appends n chained audit events spread over the last two years, by the existing
// accounts about the registered patients, in large transactions; progress is called after
// each.
func AuditEvents(ctx context.Context, db *database.DB, n int, seed uint64, progress func(done int)) error {
	var actors []struct {
		id   int64
		name string
	}
	rows, err := db.QueryContext(ctx, `SELECT id, username FROM users ORDER BY id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var a struct {
			id   int64
			name string
		}
		if err := rows.Scan(&a.id, &a.name); err != nil {
			rows.Close()
			return err
		}
		actors = append(actors, a)
	}
	rows.Close()
	var patients int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM patients`).Scan(&patients); err != nil {
		return err
	}
	if len(actors) == 0 || patients == 0 {
		return fmt.Errorf("seed audit events: add staff and patients first")
	}
	r := rand.New(rand.NewPCG(seed, seed^0xa0d17))
	end := time.Now().UTC()
	start := end.AddDate(-2, 0, 0)
	step := end.Sub(start) / time.Duration(n+1)
	const batch = 10_000
	for from := 0; from < n; from += batch {
		to := min(from+batch, n)
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			seq, prev, err := audit.Head(ctx, tx)
			if err != nil {
				return err
			}
			out := make([][]any, 0, to-from)
			for i := from; i < to; i++ {
				m := weighted(r, auditMix, func(m auditKind) int { return m.weight })
				a := actors[r.IntN(len(actors))]
				e := audit.Event{At: start.Add(time.Duration(i+1) * step), ActorID: a.id, ActorName: a.name, Action: m.action,
					EntityType: m.entity, Address: fmt.Sprintf("10.0.%d.%d", r.IntN(4), 2+r.IntN(200)), Outcome: audit.Success,
					Emergency: r.IntN(1000) == 0}
				if m.entity != "" {
					e.PatientID = 1 + r.Int64N(patients)
					e.EntityID = fmt.Sprint(e.PatientID)
				}
				if m.action == "auth.login" && r.IntN(10) == 0 {
					e.Outcome = audit.Failure
				}
				seq++
				var hash string
				e, hash = audit.Chained(prev, seq, e)
				out = append(out, []any{seq, e.At, e.ActorID, e.ActorName, e.Action, e.EntityType, e.EntityID, e.PatientID, e.Address,
					e.Outcome, e.Detail, e.Emergency, prev, hash})
				prev = hash
			}
			if err := bulk(ctx, tx, db, `INSERT INTO audit_events (seq, at, actor_id, actor_name, action, entity_type, entity_id, patient_id, address, outcome, detail, emergency, prev_hash, hash) VALUES `, out); err != nil {
				return fmt.Errorf("seed audit events: %w", err)
			}
			return audit.MoveHead(ctx, tx, seq, prev, nil) // chained as written: back-dated on purpose
		})
		if err != nil {
			return err
		}
		progress(to)
	}
	return nil
}
