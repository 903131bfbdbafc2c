package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"emr/internal/database"
	"emr/internal/secret"
)

// restoring is the counter a restore sets once it has made the schema, and which its
// transaction removes with every other row: a database holding it is one whose restore
// stopped half-way, into which a restore may start again.
const restoring = "archive:restoring"

// ErrNotEmpty is a target database that holds data already.
var ErrNotEmpty = errors.New("the target database is not empty: restore into a new, empty database (a restore never overwrites one)")

// Report is what a restore did and checked.
type Report struct {
	Manifest Manifest
	Rows     int64         // rows loaded (and counted again, and compared, table by table)
	Schema   int64         // the schema version after the restore's migrations
	Took     time.Duration // from start to the commit
}

// Restore loads the archive read from src into db, which must be empty (or hold an unfinished
// restore): it makes the archive's schema, loads every row in one transaction, counts each
// table's rows and compares their content with the archive's digests, checks the audit
// chain's head, runs opt.After, commits, and then migrates to this version's schema. Anything
// wrong — a damaged archive, a mismatch — rolls the transaction back and leaves the target
// as empty as it was.
func Restore(ctx context.Context, db *database.DB, src io.Reader, opt Options) (Report, error) {
	start := time.Now()
	if err := checkEmpty(ctx, db); err != nil {
		return Report{}, err
	}
	r := newReader(src, opt)
	m, err := r.manifest()
	if err != nil {
		return Report{}, err
	}
	rep := Report{Manifest: m}
	latest, err := db.Latest()
	if err != nil {
		return rep, err
	}
	if m.Schema > latest {
		return rep, database.NewerError{Schema: m.Schema, Known: latest}
	}
	if err := makeSchema(ctx, db, m.Schema); err != nil {
		return rep, err
	}
	target, err := tables(ctx, db, db.Engine)
	if err != nil {
		return rep, err
	}
	if err := matches(m, target); err != nil {
		return rep, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return rep, err
	}
	defer conn.Close()
	l := newLoader(db.Engine, conn)
	if err := l.begin(ctx, target); err != nil {
		l.abort()
		return rep, err
	}
	if err := load(ctx, l, r, m, opt, db.Engine); err != nil {
		l.abort()
		return rep, err
	}
	rep.Rows, rep.Took = m.Rows(), time.Since(start)
	if _, err := db.Migrate(ctx); err != nil {
		return rep, err
	}
	if rep.Schema, err = db.Latest(); err != nil {
		return rep, err
	}
	return rep, db.Analyze(ctx)
}

// load runs in the loader's transaction: the rows, the checks, the hooks, the commit.
func load(ctx context.Context, l loader, r *reader, m Manifest, opt Options, engine database.Engine) error {
	total, done := m.Rows(), int64(0)
	opt.progress(0, total)
	for _, t := range m.Tables {
		if err := r.openTable(t); err != nil {
			return err
		}
		vals := make([]any, len(t.Columns))
		left := t.Rows
		next := func() ([]any, error) {
			if left == 0 {
				return nil, nil
			}
			left--
			if done++; done%10000 == 0 {
				opt.progress(done, total)
			}
			return vals, r.row(t, vals)
		}
		if err := l.load(ctx, t, next); err != nil {
			return fmt.Errorf("load %s: %w", t.Name, err)
		}
		r.closeTable(t)
	}
	if err := r.trailer(); err != nil {
		return err
	}
	opt.progress(total, total)
	if err := compare(ctx, l.querier(), m, r.digests); err != nil {
		return err
	}
	if opt.Head != nil {
		head, err := opt.Head(ctx, l.querier())
		if err != nil {
			return err
		}
		if head != m.Audit {
			return fmt.Errorf("the audit chain's head is %d %s after loading, and was %d %s in the archive", head.Seq, head.Hash, m.Audit.Seq, m.Audit.Hash)
		}
	}
	if err := l.ids(ctx, m); err != nil {
		return err
	}
	for _, after := range opt.After {
		if err := after(ctx, l.querier(), engine); err != nil {
			return err
		}
	}
	return l.commit(ctx)
}

// compare counts each table's rows again and checks that their content, read back from the
// target as a backup would read it, has the archive's digest.
func compare(ctx context.Context, q database.Querier, m Manifest, digests map[string]string) error {
	for _, t := range m.Tables {
		var d digest
		n, err := eachRow(ctx, q, t, func(line []byte) error { d.add(line); return nil })
		if err != nil {
			return err
		}
		if n != t.Rows {
			return fmt.Errorf("%s holds %d rows after loading, and %d in the archive", t.Name, n, t.Rows)
		}
		if d.String() != digests[t.Name] {
			return fmt.Errorf("the rows of %s read back differ from the archive's", t.Name)
		}
	}
	return nil
}

// checkEmpty refuses a database that holds tables, unless they hold an unfinished restore.
func checkEmpty(ctx context.Context, db *database.DB) error {
	target, err := tables(ctx, db, db.Engine)
	if err != nil || len(target) == 0 {
		return err
	}
	if !slices.ContainsFunc(target, func(t Table) bool { return t.Name == "counters" }) {
		return ErrNotEmpty
	}
	if v, err := database.Counter(ctx, db, restoring); err != nil || v == 0 {
		return errors.Join(ErrNotEmpty, err)
	}
	return nil
}

// makeSchema migrates an empty database to the archive's schema and marks it as being
// restored into; an unfinished restore's database must be at that schema already.
func makeSchema(ctx context.Context, db *database.DB, schema int64) error {
	var has int
	q := `SELECT COUNT(*) FROM sqlite_master WHERE name = 'goose_db_version'`
	if db.Engine == database.Postgres {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'goose_db_version'`
	}
	if err := db.QueryRowContext(ctx, q).Scan(&has); err != nil {
		return err
	}
	if has > 0 {
		v, err := schemaVersion(ctx, db)
		if err != nil {
			return err
		}
		if v != schema {
			return fmt.Errorf("the target holds an unfinished restore at schema %d, and the archive is at %d: restore into a new, empty database", v, schema)
		}
	} else if err := db.MigrateTo(ctx, schema); err != nil {
		return err
	}
	return database.SetCounter(ctx, db, restoring, 1)
}

// matches checks that the target has each archived table with the same columns.
func matches(m Manifest, target []Table) error {
	if len(m.Tables) != len(target) {
		return fmt.Errorf("the archive holds %d tables and this database has %d at schema %d", len(m.Tables), len(target), m.Schema)
	}
	for i, t := range m.Tables {
		if target[i].Name != t.Name || !slices.Equal(target[i].Columns, t.Columns) {
			return fmt.Errorf("the archive's table %s does not have this database's columns at schema %d", t.Name, m.Schema)
		}
		m.Tables[i].autoIncrement = target[i].autoIncrement
	}
	return nil
}

// Copy copies the whole of from into to, as a backup of from restored into to would, without
// writing the archive down.
func Copy(ctx context.Context, from, to *database.DB, opt Options) (Report, error) {
	pr, pw := io.Pipe()
	dumped := make(chan error, 1)
	// The archive never leaves this process: a key of its own authenticates it.
	opt.Keys, opt.Unauthenticated = secret.Ephemeral(), false
	go func() {
		dumpOpt := opt
		dumpOpt.Progress, dumpOpt.Ephemeral = nil, nil // a copy is the whole database
		_, err := Dump(ctx, from, pw, dumpOpt)
		pw.CloseWithError(err)
		dumped <- err
	}()
	rep, err := Restore(ctx, to, pr, opt)
	pr.CloseWithError(errors.New("the restore stopped"))
	if derr := <-dumped; derr != nil && err == nil {
		err = derr
	}
	return rep, err
}

// loader writes rows into one engine in one transaction, with its triggers and foreign keys
// set aside until the commit.
type loader interface {
	begin(ctx context.Context, target []Table) error
	load(ctx context.Context, t Table, next func() ([]any, error)) error
	ids(ctx context.Context, m Manifest) error
	querier() database.Querier
	commit(ctx context.Context) error
	abort()
}

func newLoader(engine database.Engine, conn *sql.Conn) loader {
	if engine == database.Postgres {
		return &pgLoader{conn: conn}
	}
	return &sqliteLoader{conn: conn}
}

// sqliteLoader loads with foreign keys off and the triggers dropped, and puts both back
// (checking every foreign key) before it commits.
type sqliteLoader struct {
	conn     *sql.Conn
	triggers []string
}

func (l *sqliteLoader) querier() database.Querier { return l.conn }

func (l *sqliteLoader) begin(ctx context.Context, target []Table) error {
	if _, err := l.conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	if _, err := l.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	rows, err := l.conn.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var name, ddl string
		if err := rows.Scan(&name, &ddl); err != nil {
			rows.Close()
			return err
		}
		names, l.triggers = append(names, name), append(l.triggers, ddl)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, name := range names {
		if _, err := l.conn.ExecContext(ctx, "DROP TRIGGER "+quote(name)); err != nil {
			return err
		}
	}
	for _, t := range target {
		if _, err := l.conn.ExecContext(ctx, "DELETE FROM "+quote(t.Name)); err != nil {
			return err
		}
	}
	return nil
}

// load inserts many rows per statement (SQLite binds at most 32766 values).
func (l *sqliteLoader) load(ctx context.Context, t Table, next func() ([]any, error)) error {
	per := max(1, min(500, 30000/len(t.Columns)))
	marks := "(" + strings.Repeat("?, ", len(t.Columns)-1) + "?)"
	prepared := map[int]*sql.Stmt{}
	defer func() {
		for _, s := range prepared {
			s.Close()
		}
	}()
	flush := func(args []any) error {
		n := len(args) / len(t.Columns)
		if n == 0 {
			return nil
		}
		stmt := prepared[n]
		if stmt == nil {
			var err error
			stmt, err = l.conn.PrepareContext(ctx, "INSERT INTO "+quote(t.Name)+" ("+columnList(t.Columns)+") VALUES "+strings.Repeat(marks+", ", n-1)+marks)
			if err != nil {
				return err
			}
			prepared[n] = stmt
		}
		_, err := stmt.ExecContext(ctx, args...)
		return err
	}
	args := make([]any, 0, per*len(t.Columns))
	for {
		row, err := next()
		if err != nil {
			return err
		}
		if row == nil {
			return flush(args)
		}
		args = append(args, row...)
		if len(args) == per*len(t.Columns) {
			if err := flush(args); err != nil {
				return err
			}
			args = args[:0]
		}
	}
}

// ids keeps, for tables that never give an id twice, the highest id the archive's
// database had given.
func (l *sqliteLoader) ids(ctx context.Context, m Manifest) error {
	for _, t := range m.Tables {
		hw := m.IDs[t.Name]
		if !t.autoIncrement || hw == 0 {
			continue
		}
		res, err := l.conn.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, $2) WHERE name = $1`, t.Name, hw)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := l.conn.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) VALUES ($1, $2)`, t.Name, hw); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *sqliteLoader) commit(ctx context.Context) error {
	for _, ddl := range l.triggers {
		if _, err := l.conn.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("put a trigger back: %w", err)
		}
	}
	var broken int
	if err := l.conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_foreign_key_check`).Scan(&broken); err != nil {
		return err
	}
	if broken > 0 {
		return fmt.Errorf("%d rows refer to rows the archive does not hold", broken)
	}
	if _, err := l.conn.ExecContext(ctx, "COMMIT"); err != nil {
		return err
	}
	_, err := l.conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")
	return err
}

func (l *sqliteLoader) abort() {
	ctx := context.Background()
	_, _ = l.conn.ExecContext(ctx, "ROLLBACK")
	_, _ = l.conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")
}

// pgLoader loads with COPY, the user triggers disabled and the foreign keys dropped; the
// commit adds the foreign keys again (which checks every row) and enables the triggers.
// The restoring role owns the tables, having made them.
type pgLoader struct {
	conn   *sql.Conn
	tables []Table
	fks    [][3]string // table, constraint, definition
}

func (l *pgLoader) querier() database.Querier { return l.conn }

func (l *pgLoader) begin(ctx context.Context, target []Table) error {
	l.tables = target
	if _, err := l.conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	rows, err := l.conn.QueryContext(ctx, `SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
		WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var fk [3]string
		if err := rows.Scan(&fk[0], &fk[1], &fk[2]); err != nil {
			rows.Close()
			return err
		}
		l.fks = append(l.fks, fk)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, fk := range l.fks {
		if _, err := l.conn.ExecContext(ctx, "ALTER TABLE "+fk[0]+" DROP CONSTRAINT "+quote(fk[1])); err != nil {
			return err
		}
	}
	names := make([]string, len(target))
	for i, t := range target {
		names[i] = quote(t.Name)
		if _, err := l.conn.ExecContext(ctx, "ALTER TABLE "+names[i]+" DISABLE TRIGGER USER"); err != nil {
			return err
		}
	}
	_, err = l.conn.ExecContext(ctx, "TRUNCATE "+strings.Join(names, ", "))
	return err
}

func (l *pgLoader) load(ctx context.Context, t Table, next func() ([]any, error)) error {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = c.Name
	}
	return l.conn.Raw(func(dc any) error {
		_, err := dc.(*stdlib.Conn).Conn().CopyFrom(ctx, pgx.Identifier{t.Name}, cols, pgx.CopyFromFunc(next))
		return err
	})
}

// ids moves each identity column's sequence past both the highest id loaded and the highest
// the archive's database had given, and every other sequence to its archived value.
func (l *pgLoader) ids(ctx context.Context, m Manifest) error {
	rows, err := l.conn.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND is_identity = 'YES'`)
	if err != nil {
		return err
	}
	var identity [][2]string
	for rows.Next() {
		var c [2]string
		if err := rows.Scan(&c[0], &c[1]); err != nil {
			rows.Close()
			return err
		}
		identity = append(identity, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range identity {
		if _, err := l.conn.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(m, 1), m > 0)
			FROM (SELECT GREATEST(COALESCE(MAX(`+quote(c[1])+`), 0), $3) AS m FROM `+quote(c[0])+`) x`, quote(c[0]), c[1], m.IDs[c[0]]); err != nil {
			return fmt.Errorf("move the ids of %s: %w", c[0], err)
		}
	}
	for name, v := range m.Sequences {
		if v <= 0 {
			continue
		}
		if _, err := l.conn.ExecContext(ctx, `SELECT setval(c.oid, $2) FROM pg_class c WHERE c.relkind = 'S' AND c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`, name, v); err != nil {
			return fmt.Errorf("move the sequence %s: %w", name, err)
		}
	}
	return nil
}

func (l *pgLoader) commit(ctx context.Context) error {
	for _, fk := range l.fks {
		if _, err := l.conn.ExecContext(ctx, "ALTER TABLE "+fk[0]+" ADD CONSTRAINT "+quote(fk[1])+" "+fk[2]); err != nil {
			return fmt.Errorf("a row refers to a row the archive does not hold: %w", err)
		}
	}
	for _, t := range l.tables {
		if _, err := l.conn.ExecContext(ctx, "ALTER TABLE "+quote(t.Name)+" ENABLE TRIGGER USER"); err != nil {
			return err
		}
	}
	_, err := l.conn.ExecContext(ctx, "COMMIT")
	return err
}

func (l *pgLoader) abort() { _, _ = l.conn.ExecContext(context.Background(), "ROLLBACK") }
