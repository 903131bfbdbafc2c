// Package database opens the SQLite or PostgreSQL database named by a URL, sets its
// connection options in one place, runs the embedded migrations and runs transactions.
//
// Stores write one SQL text for both engines: positional parameters are $1, $2, … (both
// drivers bind them), timestamps are passed in UTC, and booleans are scanned into bool.
package database

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Engine names a database engine.
type Engine string

// The supported engines.
const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// DB is an open database and the engine behind it.
type DB struct {
	*sql.DB
	Engine Engine
	w      *writer    // SQLite: the one writer that group-commits Tx (writer.go)
	stmts  *stmtCache // SQLite: prepared statements kept per SQL text (stmtcache.go)
	// observe is told each statement's and transaction's time (Observe).
	observe atomic.Pointer[func(kind string, took time.Duration)]
}

// Querier is what both *sql.DB and *sql.Tx offer, so store functions can run inside or
// outside a transaction.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

//go:embed migrations
var migrations embed.FS

// ParseURL splits a database URL into the engine and the driver's data source name.
// "sqlite:PATH" (or "sqlite://PATH") selects SQLite, "postgres://…" or "postgresql://…"
// selects PostgreSQL.
func ParseURL(raw string) (Engine, string, error) {
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		if _, err := url.Parse(raw); err != nil {
			return "", "", fmt.Errorf("the PostgreSQL database URL %q is not a valid URL", Redact(raw))
		}
		return Postgres, raw, nil
	case strings.HasPrefix(raw, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if path == "" {
			return "", "", errors.New("the SQLite database URL names no file (expected sqlite:./data/emr.db)")
		}
		return SQLite, path, nil
	default:
		return "", "", fmt.Errorf("the database URL %q is neither sqlite:PATH nor postgres://…", Redact(raw))
	}
}

// Redact is a database URL as it may be shown: its password, if any, replaced by "xxxxx"
// (whether the URL parses or not: a mistyped one is echoed without it too).
func Redact(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return raw
	}
	user, _, hasPassword := strings.Cut(rest[:at], ":")
	if !hasPassword {
		return raw
	}
	return scheme + "://" + user + ":xxxxx" + rest[at:]
}

// Open opens and pings the database at rawURL. For SQLite it creates the file's folder,
// and turns on WAL, foreign keys, full fsync and a busy timeout on every connection.
func Open(ctx context.Context, rawURL string) (*DB, error) {
	engine, dsn, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	var db *sql.DB
	switch engine {
	case SQLite:
		if dsn != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(dsn), 0o700); err != nil {
				return nil, fmt.Errorf("create the database folder: %w", err)
			}
		}
		q := url.Values{}
		// A 64 MiB page cache per connection: indexes of a large register stay in memory
		// while nothing is written. No memory map: SQLite empties a connection's cache, and
		// unmaps its map, whenever another connection has committed, and remapping and
		// faulting the pages in again cost more than reading them (ADR 21).
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(FULL)", "cache_size(-65536)", "mmap_size(0)"} {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", "immediate") // writers queue up front instead of failing on upgrade
		db, err = sql.Open("sqlite", "file:"+dsn+"?"+q.Encode())
		if err == nil {
			// Connections are kept: a new one starts with an empty page cache.
			db.SetMaxOpenConns(8)
			db.SetMaxIdleConns(8)
		}
	case Postgres:
		// Plan each statement for its actual values: the driver caches prepared statements,
		// and a generic plan cannot see that a name or number range is narrow.
		if u, perr := url.Parse(dsn); perr == nil && !u.Query().Has("plan_cache_mode") {
			q := u.Query()
			q.Set("plan_cache_mode", "force_custom_plan")
			u.RawQuery = q.Encode()
			dsn = u.String()
		}
		db, err = sql.Open("pgx", dsn)
		if err == nil {
			// Connections are kept (a new one costs a backend process), and renewed now and
			// then so that no backend grows for ever.
			db.SetMaxOpenConns(20)
			db.SetMaxIdleConns(20)
			db.SetConnMaxLifetime(time.Hour)
			db.SetConnMaxIdleTime(10 * time.Minute)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", engine, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to the %s database: %w", engine, err)
	}
	out := &DB{DB: db, Engine: engine}
	if engine == SQLite {
		out.w, out.stmts = startWriter(db), &stmtCache{}
	}
	return out, nil
}

// Close stops the writer, then closes the connections.
func (db *DB) Close() error {
	if db.w != nil {
		db.w.close()
	}
	if db.stmts != nil {
		db.stmts.close()
	}
	return db.DB.Close()
}

func (db *DB) migrator() (*goose.Provider, error) {
	sub, err := fs.Sub(migrations, "migrations/"+string(db.Engine))
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
	}
	return goose.NewProvider(dialect, db.DB, sub)
}

// Migrate applies every embedded migration not yet applied and returns how many ran.
func (db *DB) Migrate(ctx context.Context) (int, error) {
	p, err := db.migrator()
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	if err := refuseNewer(ctx, p); err != nil {
		return 0, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("migrate: %w", err)
	}
	return len(res), nil
}

// NewerError is a database whose schema a later version of EMR wrote.
type NewerError struct{ Schema, Known int64 }

func (e NewerError) Error() string {
	return fmt.Sprintf("this database was written by a newer version of EMR (schema %d; this version knows up to %d): run that version or a later one, or restore a backup made with this one", e.Schema, e.Known)
}

// refuseNewer refuses a database migrated past this binary's last migration: an older
// binary started against it would run on a schema it does not know.
func refuseNewer(ctx context.Context, p *goose.Provider) error {
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("read the schema version: %w", err)
	}
	sources := p.ListSources()
	if last := sources[len(sources)-1].Version; current > last {
		return NewerError{Schema: current, Known: last}
	}
	return nil
}

// Current says whether every migration this binary knows has been applied (the readiness
// check: an instance that has not migrated yet, or runs on an older schema, is not ready).
func (db *DB) Current(ctx context.Context) (bool, error) {
	p, err := db.migrator()
	if err != nil {
		return false, err
	}
	pending, err := p.HasPending(ctx)
	return !pending && err == nil, err
}

// Latest is the schema version this binary migrates to: its last migration.
func (db *DB) Latest() (int64, error) {
	p, err := db.migrator()
	if err != nil {
		return 0, err
	}
	sources := p.ListSources()
	return sources[len(sources)-1].Version, nil
}

// MigrateTo applies the migrations up to and including version (for testing an upgrade of
// a database that holds data).
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	p, err := db.migrator()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		return fmt.Errorf("migrate to %d: %w", version, err)
	}
	return nil
}

// Placeholder returns the n-th (1-based) parameter placeholder for generated multi-row
// statements: "$n" on PostgreSQL, "?" on SQLite, whose named-parameter lookup is linear per
// parameter and so quadratic over the thousands of parameters of a bulk insert.
func (db *DB) Placeholder(n int) string {
	if db.Engine == SQLite {
		return "?"
	}
	return "$" + strconv.Itoa(n)
}

// Tx runs fn in a transaction, committing when it returns nil and rolling back otherwise;
// when it returns nil, what fn wrote is committed. On SQLite, fn runs on the one writer,
// in a savepoint of a transaction it may share with others (writer.go): it must not start
// another transaction, and should write nothing outside tx.
func (db *DB) Tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	defer db.timed("tx", time.Now())
	if db.w != nil {
		return db.w.do(ctx, fn)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Analyze refreshes the planner's statistics, as after a bulk load or at start. On SQLite
// it samples (analysis_limit) so that it takes moments even on millions of rows: statistics
// left from when a table was small make the planner scan it whole.
func (db *DB) Analyze(ctx context.Context) error {
	if db.Engine != SQLite {
		if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	}
	conn, err := db.Conn(ctx) // the limit is a setting of the connection
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	defer conn.Close()
	// Samples of values (sqlite_stat4) make SQLite plan a statement again at every call
	// whose bound values could change the plan, even a lookup by primary key. The session
	// and account tables, read on every request, have nothing to gain from them: theirs are
	// dropped, and the statistics reloaded.
	for _, stmt := range []string{"PRAGMA analysis_limit = 1000", "ANALYZE", "PRAGMA analysis_limit = 0",
		`DELETE FROM sqlite_stat4 WHERE tbl IN ('sessions', 'identity_epoch', 'users', 'user_roles', 'roles', 'role_permissions', 'emergency_grants', 'user_totp')`,
		"ANALYZE sqlite_schema"} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
	}
	return nil
}

// AnalyzeTables refreshes the statistics of the named tables only (after an import into
// them), sampled as Analyze does. The names are the product's own tables, never input.
func (db *DB) AnalyzeTables(ctx context.Context, tables ...string) error {
	quoted := make([]string, len(tables))
	for i, t := range tables {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	if db.Engine != SQLite {
		if _, err := db.ExecContext(ctx, "ANALYZE "+strings.Join(quoted, ", ")); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	defer conn.Close()
	stmts := []string{"PRAGMA analysis_limit = 1000"}
	for _, q := range quoted {
		stmts = append(stmts, "ANALYZE "+q)
	}
	for _, stmt := range append(stmts, "PRAGMA analysis_limit = 0", "ANALYZE sqlite_schema") {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
	}
	return nil
}

// InList returns the placeholders of an IN list for values, numbered from first ("$3, $4"),
// and the values as arguments; values must not be empty. The list is padded to a power of
// two by repeating the last value (which an IN list ignores), so that a query reading 37 ids
// and one reading 50 are the same statement, prepared once and kept (SQLite's statements,
// the PostgreSQL driver's), instead of a new one for every length.
func InList[T any](values []T, first int) (string, []any) {
	n := 1
	for n < len(values) {
		n *= 2
	}
	marks := make([]string, n)
	args := make([]any, n)
	for i := range n {
		marks[i], args[i] = "$"+strconv.Itoa(first+i), values[min(i, len(values)-1)]
	}
	return strings.Join(marks, ", "), args
}

// MigrationsDigest is a hash of engine's embedded migrations (names and contents): the schema
// a fresh database gets, by which tests keep one migrated copy per schema to clone.
func MigrationsDigest(engine Engine) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations, "migrations/"+string(engine), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := migrations.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the migrations: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
