// Package dbtest gives each test a fresh, migrated database on every engine under test:
// SQLite always, and PostgreSQL too when EMR_TEST_POSTGRES_URL names a server (each test
// then gets a throw-away database of its own, dropped when the test ends).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"

	"emr/internal/database"
)

// Engine is one database engine a test can run on.
type Engine struct {
	Name string
	// URL returns a fresh, empty database's URL, removed when t ends.
	URL func(t testing.TB) string
}

// Engines lists the engines under test.
func Engines() []Engine {
	engines := []Engine{{Name: "sqlite", URL: func(t testing.TB) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	}}}
	if admin := os.Getenv("EMR_TEST_POSTGRES_URL"); admin != "" {
		engines = append(engines, Engine{Name: "postgres", URL: func(t testing.TB) string { return postgresURL(t, admin) }})
	}
	return engines
}

// PostgresURL returns the URL of a fresh PostgreSQL database (not migrated), or skips the
// test when no server is configured (EMR_TEST_POSTGRES_URL).
func PostgresURL(t testing.TB) string {
	t.Helper()
	admin := os.Getenv("EMR_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("needs PostgreSQL (EMR_TEST_POSTGRES_URL)")
	}
	return postgresURL(t, admin)
}

// ForEach runs fn as a subtest on each engine with a fresh, migrated database.
func ForEach(t *testing.T, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	for _, e := range Engines() {
		t.Run(e.Name, func(t *testing.T) { fn(t, Open(t, e.URL(t))) })
	}
}

// Open opens and migrates the database at rawURL, closing it when t ends.
func Open(t testing.TB, rawURL string) *database.DB {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, rawURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}

func postgresURL(t testing.TB, admin string) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "emr_test_" + hex.EncodeToString(b)
	adminDB, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adminDB.Exec("CREATE DATABASE " + name); err != nil { // name is ours, not input
		adminDB.Close()
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		defer adminDB.Close()
		if _, err := adminDB.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Count runs a COUNT query and returns its number, failing the test on error.
func Count(t testing.TB, db *database.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Tamper runs stmts against the audit log (events and batch heads) with its append-only triggers out of the way, as
// someone with direct access to the database could, and puts them back.
func Tamper(t testing.TB, db *database.DB, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	var off, on []string
	if db.Engine == database.SQLite {
		// Put back exactly the triggers that were there.
		rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('audit_events', 'audit_seals')`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, def string
			if err := rows.Scan(&name, &def); err != nil {
				t.Fatal(err)
			}
			off, on = append(off, "DROP TRIGGER "+name), append(on, def)
		}
		rows.Close()
	} else {
		off = []string{`ALTER TABLE audit_events DISABLE TRIGGER USER`, `ALTER TABLE audit_seals DISABLE TRIGGER USER`}
		on = []string{`ALTER TABLE audit_events ENABLE TRIGGER USER`, `ALTER TABLE audit_seals ENABLE TRIGGER USER`}
	}
	for _, s := range append(append(off, stmts...), on...) {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// slowFiles maps an SQLite database file to how long each of its commits takes (SlowCommits).
var slowFiles sync.Map

func init() {
	// Every SQLite connection of a test gets a commit hook that waits when its file is
	// listed in slowFiles: a slow disk's fsync, standing in at the moment of commit.
	sqlite.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, dsn string) error {
		hooks, ok := conn.(sqlite.HookRegisterer)
		if !ok {
			return nil
		}
		hooks.RegisterCommitHook(func() int32 {
			slowFiles.Range(func(file, delay any) bool {
				if strings.Contains(dsn, file.(string)) {
					time.Sleep(delay.(time.Duration))
					return false
				}
				return true
			})
			return 0
		})
		return nil
	})
}

// SlowCommits makes every commit of an audited transaction on db take delay longer, until
// t ends: on PostgreSQL a deferred trigger on audit_events sleeps once per transaction, at
// its commit; on SQLite every commit waits in a commit hook, holding the write lock as a
// slow fsync would.
func SlowCommits(t testing.TB, db *database.DB, rawURL string, delay time.Duration) {
	t.Helper()
	ctx := context.Background()
	if db.Engine == database.SQLite {
		_, file, err := database.ParseURL(rawURL)
		if err != nil {
			t.Fatal(err)
		}
		slowFiles.Store(file, delay)
		t.Cleanup(func() { slowFiles.Delete(file) })
		return
	}
	for _, stmt := range []string{
		`CREATE FUNCTION test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF current_setting('emr_test.slept', true) IS DISTINCT FROM 'yes' THEN
				PERFORM set_config('emr_test.slept', 'yes', true);
				PERFORM pg_sleep(` + strconv.FormatFloat(delay.Seconds(), 'f', 3, 64) + `);
			END IF;
			RETURN NULL;
		END $$`,
		`CREATE CONSTRAINT TRIGGER test_slow_commit AFTER INSERT ON audit_events
			DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_slow_commit()`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
}
