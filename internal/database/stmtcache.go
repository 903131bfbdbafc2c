package database

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"
)

// The SQLite driver parses a statement's text on every call unless it was prepared, and
// parsing was a fifth of an audited read's CPU. On SQLite, DB's queries outside transactions
// go through prepared statements kept per SQL text (database/sql prepares each on every
// connection that runs it). Texts built per call (IN lists of varying length, bulk inserts)
// could fill the cache with statements run once: it stops growing at maxCached, and long
// texts are not kept. PostgreSQL's driver keeps its own statement cache per connection.
const (
	maxCached    = 512
	maxCachedLen = 4000
)

type stmtCache struct {
	stmts sync.Map // SQL text -> *sql.Stmt
	n     atomic.Int64
	mu    sync.Mutex // one preparation of a text at a time
}

// stmt returns the prepared statement for query, or nil to run it unprepared.
func (db *DB) stmt(ctx context.Context, query string) *sql.Stmt {
	c := db.stmts
	if c == nil || len(query) > maxCachedLen {
		return nil
	}
	if s, ok := c.stmts.Load(query); ok {
		return s.(*sql.Stmt)
	}
	if c.n.Load() >= maxCached {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts.Load(query); ok {
		return s.(*sql.Stmt)
	}
	s, err := db.DB.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil // run unprepared, to answer with the statement's own error
	}
	c.stmts.Store(query, s)
	c.n.Add(1)
	return s
}

// QueryContext runs a query, through a kept prepared statement on SQLite.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	defer db.timed("query", time.Now())
	if s := db.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return db.DB.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a query for one row, through a kept prepared statement on SQLite.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	defer db.timed("query", time.Now())
	if s := db.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return db.DB.QueryRowContext(ctx, query, args...)
}

// ExecContext runs a statement, through a kept prepared statement on SQLite.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer db.timed("exec", time.Now())
	if s := db.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return db.DB.ExecContext(ctx, query, args...)
}

// Observe has fn told the time of each statement outside a transaction (kind "query" until
// its first row, or "exec") and of each whole write transaction ("tx"): the server hands it
// its metrics. The database layer knows no metrics of its own; without Observe (or after
// Observe(nil)) nothing is told.
func (db *DB) Observe(fn func(kind string, took time.Duration)) {
	if fn == nil {
		db.observe.Store(nil)
		return
	}
	db.observe.Store(&fn)
}

// timed tells the observer, if any, a statement's or a transaction's time since start.
func (db *DB) timed(kind string, start time.Time) {
	if fn := db.observe.Load(); fn != nil {
		(*fn)(kind, time.Since(start))
	}
}

func (c *stmtCache) close() {
	c.stmts.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
}
