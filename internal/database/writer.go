package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// SQLite lets one transaction write at a time, and each commit waits for its fsync. Left to
// themselves, N concurrent writers take the lock in turn and pay N commits. The writer gives
// them group commit instead (ADR 21): one goroutine runs every transaction of Tx, each in a
// savepoint of a shared transaction, and commits the whole batch once. A function that fails
// is rolled back to its savepoint alone; a caller is answered only after the batch's commit,
// so an answered write is a committed one. The batch is whatever queued while the previous
// one committed, so one writer alone waits for nothing.
type writer struct {
	db   *sql.DB
	jobs chan *job
	stop chan struct{}
	once sync.Once
	done sync.WaitGroup
}

type job struct {
	ctx      context.Context
	fn       func(*sql.Tx) error
	result   chan error
	panicked any
}

// maxBatch bounds how many transactions share one commit.
const maxBatch = 128

var errWriterClosed = errors.New("the database is closing")

func startWriter(db *sql.DB) *writer {
	w := &writer{db: db, jobs: make(chan *job), stop: make(chan struct{})}
	w.done.Add(1)
	go w.run()
	return w
}

// do runs fn in the next batch and returns its outcome once the batch is committed.
func (w *writer) do(ctx context.Context, fn func(*sql.Tx) error) error {
	j := &job{ctx: ctx, fn: fn, result: make(chan error, 1)}
	select {
	case w.jobs <- j:
	case <-w.stop:
		return errWriterClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	err := <-j.result // never abandoned: the batch may already hold this transaction's writes
	if j.panicked != nil {
		panic(j.panicked)
	}
	return err
}

func (w *writer) close() {
	w.once.Do(func() { close(w.stop) })
	w.done.Wait()
}

func (w *writer) run() {
	defer w.done.Done()
	for {
		select {
		case <-w.stop:
			return
		case first := <-w.jobs:
			w.commit(first)
		}
	}
}

// commit runs first and every transaction queued behind it (up to maxBatch) in one
// transaction, and answers each.
func (w *writer) commit(first *job) {
	tx, err := w.db.BeginTx(context.Background(), nil)
	if err != nil {
		first.result <- fmt.Errorf("begin: %w", err)
		return
	}
	sp, err := prepareSavepoints(tx)
	if err != nil {
		_ = tx.Rollback()
		first.result <- fmt.Errorf("begin: %w", err)
		return
	}
	var held []*job // ran without error: answered after the commit
	next := first
	for n := 0; next != nil; n++ {
		if err := sp.run(next); err != nil {
			next.result <- err
		} else {
			held = append(held, next)
		}
		next = nil
		if n+1 < maxBatch {
			select {
			case next = <-w.jobs:
			default:
			}
		}
	}
	sp.close()
	err = tx.Commit()
	if err != nil {
		err = fmt.Errorf("commit: %w", err)
	}
	for _, j := range held {
		j.result <- err
	}
}

// savepoints are the batch's three statements around each function, prepared once.
type savepoints struct {
	tx                       *sql.Tx
	begin, release, rollback *sql.Stmt
}

func prepareSavepoints(tx *sql.Tx) (*savepoints, error) {
	sp := savepoints{tx: tx}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&sp.begin, `SAVEPOINT tx`}, {&sp.release, `RELEASE tx`}, {&sp.rollback, `ROLLBACK TO tx`}} {
		s, err := tx.Prepare(p.sql)
		if err != nil {
			sp.close()
			return nil, err
		}
		*p.stmt = s
	}
	return &sp, nil
}

func (sp *savepoints) close() {
	for _, s := range []*sql.Stmt{sp.begin, sp.release, sp.rollback} {
		if s != nil {
			s.Close()
		}
	}
}

// run runs j's function between SAVEPOINT and RELEASE, rolling back to the savepoint when
// it fails or panics, so the batch keeps only what succeeded.
func (sp *savepoints) run(j *job) (err error) {
	if err := j.ctx.Err(); err != nil {
		return err
	}
	if _, err := sp.begin.Exec(); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			j.panicked = p
			err = fmt.Errorf("panic: %v", p)
		}
		if err != nil {
			_, _ = sp.rollback.Exec()
		}
		if _, rerr := sp.release.Exec(); rerr != nil && err == nil {
			err = fmt.Errorf("commit: %w", rerr)
		}
	}()
	return j.fn(sp.tx)
}
