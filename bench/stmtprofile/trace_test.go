package stmtprofile

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"
)

// A statement the traced driver saw: its text (whitespace folded) and its time, from the
// call until the last row was read (for a query) or the call returned.
type statement struct {
	SQL string
	D   time.Duration
}

// trace gathers the statements of every traced connection while on.
type trace struct {
	mu   sync.Mutex
	on   bool
	list []statement
}

func (t *trace) start() {
	t.mu.Lock()
	t.on, t.list = true, nil
	t.mu.Unlock()
}

func (t *trace) stop() []statement {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.on = false
	return t.list
}

var space = regexp.MustCompile(`\s+`)

func (t *trace) add(query string, start time.Time) {
	d := time.Since(start)
	t.mu.Lock()
	if t.on {
		t.list = append(t.list, statement{strings.TrimSpace(space.ReplaceAllString(query, " ")), d})
	}
	t.mu.Unlock()
}

// errNoContext: both drivers implement the context-taking interfaces, which alone are traced.
var errNoContext = errors.New("stmtprofile: the driver lacks a context-taking method")

// tracedDriver wraps a driver so that every statement, prepared or not, in a transaction or
// not, is timed into tr: the statements one request makes, whichever store makes them.
type tracedDriver struct {
	inner driver.Driver
	tr    *trace
}

func (d tracedDriver) Open(name string) (driver.Conn, error) {
	c, err := d.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return &tconn{c, d.tr}, nil
}

type tconn struct {
	driver.Conn
	tr *trace
}

func (c *tconn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *tconn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var s driver.Stmt
	var err error
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.Conn.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &tstmt{s, query, c.tr}, nil
}

func (c *tconn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	start := time.Now()
	b, ok := c.Conn.(driver.ConnBeginTx)
	if !ok {
		return nil, errNoContext
	}
	tx, err := b.BeginTx(ctx, opts)
	c.tr.add("BEGIN", start)
	if err != nil {
		return nil, err
	}
	return ttx{tx, c.tr}, nil
}

func (c *tconn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	start := time.Now()
	r, err := e.ExecContext(ctx, query, args)
	if err != driver.ErrSkip {
		c.tr.add(query, start)
	}
	return r, err
}

func (c *tconn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	start := time.Now()
	r, err := q.QueryContext(ctx, query, args)
	if err != nil {
		if err != driver.ErrSkip {
			c.tr.add(query, start)
		}
		return nil, err
	}
	return &trows{r, query, start, c.tr}, nil
}

func (c *tconn) CheckNamedValue(v *driver.NamedValue) error {
	if n, ok := c.Conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func (c *tconn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *tconn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *tconn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

type ttx struct {
	driver.Tx
	tr *trace
}

func (t ttx) Commit() error {
	start := time.Now()
	err := t.Tx.Commit()
	t.tr.add("COMMIT", start)
	return err
}

type tstmt struct {
	driver.Stmt
	query string
	tr    *trace
}

func (s *tstmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	start := time.Now()
	defer s.tr.add(s.query, start)
	e, ok := s.Stmt.(driver.StmtExecContext)
	if !ok {
		return nil, errNoContext
	}
	return e.ExecContext(ctx, args)
}

func (s *tstmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	start := time.Now()
	q, ok := s.Stmt.(driver.StmtQueryContext)
	if !ok {
		return nil, errNoContext
	}
	r, err := q.QueryContext(ctx, args)
	if err != nil {
		s.tr.add(s.query, start)
		return nil, err
	}
	return &trows{r, s.query, start, s.tr}, nil
}

func (s *tstmt) CheckNamedValue(v *driver.NamedValue) error {
	if n, ok := s.Stmt.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

type trows struct {
	driver.Rows
	query string
	start time.Time
	tr    *trace
}

func (r *trows) Close() error {
	err := r.Rows.Close()
	r.tr.add(r.query, r.start)
	return err
}

// tracedDriverOf is the driver registered under name, wrapped.
func tracedDriverOf(name string, tr *trace) driver.Driver {
	db, _ := sql.Open(name, "")
	d := db.Driver()
	db.Close()
	return tracedDriver{d, tr}
}
