// Package audit appends events to the audit log: who did what, when, from where, and how
// it ended. The log is append-only (the database refuses updates and deletes).
package audit

import (
	"context"
	"fmt"
	"time"

	"emr/internal/database"
)

// Outcomes of an audited action.
const (
	Success = "success"
	Failure = "failure"
	Denied  = "denied"
)

// Event is one audit record. ActorID is 0 when nobody is logged in (e.g. a failed login).
type Event struct {
	At         time.Time
	ActorID    int64
	ActorName  string // the user's username, or the username tried at a failed login
	Action     string // e.g. "auth.login", "patient.read"
	EntityType string
	EntityID   string
	Address    string
	Outcome    string
	Detail     string // never a password; patient data only by reference (ids)
}

// Record appends e, inside the caller's transaction when q is one.
func Record(ctx context.Context, q database.Querier, e Event) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	var actor any
	if e.ActorID != 0 {
		actor = e.ActorID
	}
	_, err := q.ExecContext(ctx, `INSERT INTO audit_events (at, actor_id, actor_name, action, entity_type, entity_id, address, outcome, detail)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		e.At.UTC(), actor, truncate(e.ActorName, 200), e.Action, e.EntityType, e.EntityID, e.Address, e.Outcome, truncate(e.Detail, 2000))
	if err != nil {
		return fmt.Errorf("record audit event %s: %w", e.Action, err)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
