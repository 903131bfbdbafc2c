// Package dbtest gives each test a fresh, migrated database on every engine under test:
// SQLite always, and PostgreSQL too when EMR_TEST_POSTGRES_URL names a server (each test
// then gets a throw-away database of its own, dropped when the test ends).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
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
		t.Run(e.Name, func(t *testing.T) { fn(t, Migrated(t, e)) })
	}
}

// Migrated is a fresh database on e with every migration applied, closed (and on PostgreSQL
// dropped) when t ends. It is a copy of a template migrated once per schema (the migrations'
// digest) and kept between runs: a copy takes a fraction of the time the migrations take,
// and is the same database they make (TestACopyIsAFreshMigration).
func Migrated(t testing.TB, e Engine) *database.DB {
	t.Helper()
	var url string
	switch e.Name {
	case "sqlite":
		url = sqliteCopy(t)
	default:
		url = postgresCopy(t, os.Getenv("EMR_TEST_POSTGRES_URL"))
	}
	return Open(t, url) // migrates nothing more, and says so if the copy were behind
}

var (
	sqliteTemplateOnce sync.Once
	sqliteTemplate     string
	sqliteTemplateErr  error
)

// sqliteCopy copies the migrated SQLite template into t's own directory.
func sqliteCopy(t testing.TB) string {
	t.Helper()
	sqliteTemplateOnce.Do(func() { sqliteTemplate, sqliteTemplateErr = makeSQLiteTemplate() })
	if sqliteTemplateErr != nil {
		t.Fatalf("the SQLite template: %v", sqliteTemplateErr)
	}
	b, err := os.ReadFile(sqliteTemplate)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "emr.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return "sqlite:" + path
}

// makeSQLiteTemplate migrates a template file named by the schema's digest in the system's
// temporary directory, unless one is there: written under another name and renamed into
// place, so that test processes running at once never read half of one.
func makeSQLiteTemplate() (string, error) {
	digest, err := database.MigrationsDigest(database.SQLite)
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), "emr-dbtest-"+digest+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	dir, err := os.MkdirTemp("", "emr-dbtest-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	build := filepath.Join(dir, "emr.db")
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+build)
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx)
	if err == nil {
		_, err = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(build + "-wal"); err == nil {
		if st, _ := os.Stat(build + "-wal"); st.Size() > 0 {
			return "", errors.New("the template's write-ahead log was not folded in")
		}
	}
	return path, os.Rename(build, path)
}

var (
	postgresTemplateOnce sync.Once
	postgresTemplate     string
	postgresTemplateErr  error
)

// postgresCopy makes a throw-away database from the migrated PostgreSQL template.
func postgresCopy(t testing.TB, admin string) string {
	t.Helper()
	postgresTemplateOnce.Do(func() { postgresTemplate, postgresTemplateErr = makePostgresTemplate(admin) })
	if postgresTemplateErr != nil {
		t.Fatalf("the PostgreSQL template: %v", postgresTemplateErr)
	}
	return postgresURLFrom(t, admin, postgresTemplate)
}

// makePostgresTemplate migrates the template database named by the schema's digest unless
// one is there, under an advisory lock so that test processes running at once make it once;
// it is built under another name and renamed when done, so a half-made one is never copied.
// Templates of other schemas are left alone: a checkout with other migrations may be
// copying from one at that moment (each is a few megabytes; drop `emr_tmpl_*` at will).
func makePostgresTemplate(admin string) (string, error) {
	digest, err := database.MigrationsDigest(database.Postgres)
	if err != nil {
		return "", err
	}
	name := "emr_tmpl_" + digest
	ctx := context.Background()
	adminDB, err := sql.Open("pgx", admin)
	if err != nil {
		return "", err
	}
	defer adminDB.Close()
	conn, err := adminDB.Conn(ctx) // the advisory lock is the connection's
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(74201156)`); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock(74201156)`) //nolint:errcheck // released with the connection anyway
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
		return "", err
	}
	if n == 1 {
		return name, nil
	}
	build := name + "_build"
	_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+build+" WITH (FORCE)") // a build a killed run left
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+build); err != nil {
		return "", err
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", err
	}
	u.Path = "/" + build
	db, err := database.Open(ctx, u.String())
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+build+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
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
	return postgresURLFrom(t, admin, "")
}

// postgresURLFrom makes a throw-away database, empty or a copy of template, dropped when t ends.
func postgresURLFrom(t testing.TB, admin, template string) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "emr_test_" + hex.EncodeToString(b)
	adminDB, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	create := "CREATE DATABASE " + name // names are ours, not input
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := adminDB.Exec(create); err != nil {
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
	// A throw-away database's commits need not wait for the disk: the server's process may
	// still be killed without losing one (only PostgreSQL's own crash could lose the last few).
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// OneConnectionFree leaves db's pool one connection beside those in use (on PostgreSQL a
// server's event listener holds one for good): code that holds a connection — open rows, a
// transaction — and asks the pool for another then waits forever, where a busy server's pool,
// every connection held so, would hang. Tests of that bound their wait and fail on it.
func OneConnectionFree(db *database.DB) {
	db.SetMaxOpenConns(db.Stats().InUse + 1)
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
		// A test's database is thrown away: its commits need not wait for the disk (the
		// server's own process may still be killed without losing one; only the machine's
		// crash could). The product's connections keep synchronous(FULL).
		if _, err := conn.ExecContext(context.Background(), "PRAGMA synchronous = OFF", nil); err != nil {
			return err
		}
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
