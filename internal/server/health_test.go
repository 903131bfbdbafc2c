package server_test

import (
	"context"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestHealthSaysWhenTheAuditLogIsBehind: an event left unchained longer than the bound (no
// sealer running) turns the health answer's audit field to "behind"; sealing clears it.
func TestHealthSaysWhenTheAuditLogIsBehind(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		c := apitest.New(t, db).Client()
		health := func() string {
			var h struct{ Audit string }
			c.Do("GET", "/api/health", nil).JSON(t, &h)
			return h.Audit
		}
		if got := health(); got != "ok" {
			t.Fatalf("fresh: %q", got)
		}
		if err := audit.Access(ctx, db, audit.Event{At: time.Now().Add(-10 * time.Second), Action: "patient.read", Outcome: audit.Success}); err != nil {
			t.Fatal(err)
		}
		if got := health(); got != "behind" {
			t.Errorf("with an event waiting 10 s: %q", got)
		}
		if _, err := audit.SealPending(ctx, db); err != nil {
			t.Fatal(err)
		}
		if got := health(); got != "ok" {
			t.Errorf("after sealing: %q", got)
		}
	})
}
