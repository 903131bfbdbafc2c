package auth_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/user"
)

// TestRemedyWaitsForATokenBeingStored: on PostgreSQL, a remedy that starts while a token's
// insert holds the account's credential epoch (checked, not yet committed) waits for it,
// then ends the token it stored — for an account's first remedy and a later one. (SQLite's
// write transactions run one at a time.)
func TestRemedyWaitsForATokenBeingStored(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if db.Engine != database.Postgres {
			t.Skip("SQLite runs one write transaction at a time")
		}
		ctx := context.Background()
		tokens := &auth.APITokens{DB: db, Sessions: &auth.Sessions{DB: db}}
		remedy := func(id int64) error {
			return db.Tx(ctx, func(tx *sql.Tx) error {
				return auth.EndTokens(ctx, tx, audit.Event{}, id, auth.EndedPasswordReset, false)
			})
		}
		for i, earlier := range []bool{false, true} {
			t.Run(map[bool]string{false: "the account's first remedy", true: "a later remedy"}[earlier], func(t *testing.T) {
				u, err := (&user.Store{DB: db}).Create(ctx, user.NewUser{Username: fmt.Sprintf("n%d", i), Name: "N", Roles: []string{"nurse"}, Password: "lantern orchard 7 glacier"})
				if err != nil {
					t.Fatal(err)
				}
				if earlier {
					if err := remedy(u.ID); err != nil {
						t.Fatal(err)
					}
				}
				epoch, err := auth.CredentialEpoch(ctx, db, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				auth.SetAfterEpochCheck(func(id int64) {
					if id != u.ID {
						return
					}
					go func() { done <- remedy(u.ID) }()
					// Hold the insert until the remedy waits for its lock on the epoch.
					deadline := time.Now().Add(10 * time.Second)
					for {
						select {
						case err := <-done:
							t.Errorf("the remedy went ahead of the token being stored: %v", err)
							done <- err
							return
						default:
						}
						var waiting int
						if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil || waiting > 0 {
							return
						}
						if time.Now().After(deadline) {
							t.Errorf("the remedy never waited for the token being stored")
							return
						}
						time.Sleep(5 * time.Millisecond) // polling for the condition, not a fixed wait
					}
				})
				defer auth.SetAfterEpochCheck(nil)
				_, k, err := tokens.Create(ctx, audit.Event{}, auth.NewAPIToken{UserID: u.ID, Name: "racing", Lifetime: auth.DefaultTokenValid, Epoch: &epoch})
				if err != nil {
					t.Fatalf("stored before the remedy: %v", err)
				}
				if err := <-done; err != nil {
					t.Fatalf("the remedy: %v", err)
				}
				var reason string
				if err := db.QueryRowContext(ctx, `SELECT revoked_reason FROM api_tokens WHERE id = $1`, k.ID).Scan(&reason); err != nil || reason != auth.EndedPasswordReset {
					t.Errorf("the token after the remedy: %q %v, want ended by it", reason, err)
				}
			})
		}
	})
}
