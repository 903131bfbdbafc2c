package server_test

import (
	"context"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// /api/ready answers 200 on a migrated database and 503 while a migration is pending, for a
// load balancer to send an instance requests only when it can serve them.
func TestReadiness(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		c := env.Client()
		var body struct{ Status, Database string }
		r := c.Do("GET", "/api/ready", nil)
		r.JSON(t, &body)
		if r.Status != http.StatusOK || body.Status != "ready" || body.Database != string(db.Engine) {
			t.Fatalf("ready: %d %s", r.Status, r.Body)
		}
		if _, err := db.ExecContext(context.Background(), `DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
			t.Fatal(err)
		}
		r = c.Do("GET", "/api/ready", nil)
		r.JSON(t, &body)
		if r.Status != http.StatusServiceUnavailable || body.Database != "migrations pending" {
			t.Errorf("pending: %d %s", r.Status, r.Body)
		}
	})
}
