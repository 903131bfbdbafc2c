package auth_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/user"
)

func TestPasswordHash(t *testing.T) {
	h, err := auth.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := auth.HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	if ok, err := auth.CheckPassword(h, "correct horse battery"); !ok || err != nil {
		t.Errorf("right password refused: %v", err)
	}
	if ok, _ := auth.CheckPassword(h, "correct horse batterY"); ok {
		t.Error("wrong password accepted")
	}
	if auth.CheckPasswordOrDummy("", "anything") {
		t.Error("a missing user's password was accepted")
	}
	if _, err := auth.CheckPassword("$2a$10$notargon", "x"); err == nil {
		t.Error("a foreign hash format was not refused")
	}
}

func TestSessionTimeouts(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		users := &user.Store{DB: db}
		u, err := users.Create(ctx, user.NewUser{Username: "n", Name: "N", Roles: []string{"nurse"}, Password: "lantern orchard 7 glacier"})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
		s := &auth.Sessions{DB: db, Identities: users, Idle: 30 * time.Minute, Lifetime: 2 * time.Hour, Now: func() time.Time { return now }}
		token, err := s.Create(ctx, u.ID, "127.0.0.1", "test")
		if err != nil {
			t.Fatal(err)
		}
		alive := func() bool {
			_, err := s.Lookup(ctx, token)
			if err != nil && !errors.Is(err, apperr.ErrUnauthenticated) {
				t.Fatal(err)
			}
			return err == nil
		}
		// Used every 25 minutes, the session lives until its absolute lifetime.
		for i := 0; i < 4; i++ {
			now = now.Add(25 * time.Minute)
			if !alive() {
				t.Fatalf("ended after %d uses", i)
			}
		}
		now = now.Add(25 * time.Minute) // 2h05 after login
		if alive() {
			t.Error("the session outlived its absolute lifetime")
		}

		token, _ = s.Create(ctx, u.ID, "127.0.0.1", "test")
		now = now.Add(31 * time.Minute)
		if alive() {
			t.Error("the session outlived its idle time-out")
		}

		// Deactivating the account ends its sessions at once.
		token, _ = s.Create(ctx, u.ID, "127.0.0.1", "test")
		if _, err := db.ExecContext(ctx, `UPDATE users SET active = FALSE WHERE id = $1`, u.ID); err != nil {
			t.Fatal(err)
		}
		if alive() {
			t.Error("a deactivated user's session still works")
		}
	})
}

func TestPrincipalCan(t *testing.T) {
	admin := &auth.Principal{Roles: []string{"admin"}}
	nurse := &auth.Principal{Roles: []string{"nurse"}, Permissions: []auth.Permission{auth.RecordVitals}}
	if !admin.Can(auth.ViewAuditLog) || !nurse.Can(auth.RecordVitals) || nurse.Can(auth.ManageUser) {
		t.Fatal("Can is wrong")
	}
}
