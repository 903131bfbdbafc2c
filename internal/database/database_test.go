package database_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		url    string
		engine database.Engine
		ok     bool
	}{
		{"sqlite:./data/emr.db", database.SQLite, true},
		{"sqlite:///var/lib/emr.db", database.SQLite, true},
		{"postgres://u@h/db", database.Postgres, true},
		{"postgresql://u@h/db", database.Postgres, true},
		{"sqlite:", "", false},
		{"mysql://u@h/db", "", false},
		{"", "", false},
	} {
		engine, _, err := database.ParseURL(tc.url)
		if (err == nil) != tc.ok || engine != tc.engine {
			t.Errorf("%q: %s, %v", tc.url, engine, err)
		}
	}
}

func TestMigrationsAreIdempotent(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		n, err := db.Migrate(context.Background())
		if err != nil || n != 0 {
			t.Fatalf("second migrate ran %d: %v", n, err)
		}
	})
}

func TestPermissionTableMirrorsCatalogue(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		rows, err := db.QueryContext(context.Background(), `SELECT name FROM permissions ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			got = append(got, s)
		}
		var want []string
		for _, p := range auth.Catalogue {
			want = append(want, string(p))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("permissions table %v, catalogue %v", got, want)
		}
	})
}

func TestAuditLogIsAppendOnly(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		if err := audit.Access(ctx, db, audit.Event{Action: "auth.login", ActorName: "x", Outcome: audit.Failure, Address: "10.0.0.1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `UPDATE audit_events SET outcome = 'success'`); err == nil {
			t.Error("an audit event was updated")
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM audit_events`); err == nil {
			t.Error("an audit event was deleted")
		}
		var outcome string
		var at time.Time
		if err := db.QueryRowContext(ctx, `SELECT outcome, at FROM audit_events`).Scan(&outcome, &at); err != nil || outcome != audit.Failure {
			t.Fatalf("after the refused changes: %q, %v", outcome, err)
		}
		if time.Since(at) > time.Minute || time.Since(at) < 0 {
			t.Errorf("event time %v is not now", at)
		}
	})
}

func TestInListPadsToPowersOfTwo(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {37, 64}, {500, 512}} {
		values := make([]int64, c.n)
		for i := range values {
			values[i] = int64(10 + i)
		}
		marks, args := database.InList(values, 3)
		if got := strings.Count(marks, "$"); got != c.want || len(args) != c.want {
			t.Fatalf("%d values: %d marks, %d args, want %d", c.n, got, len(args), c.want)
		}
		if !strings.HasPrefix(marks, "$3, ") && c.want > 1 || !strings.HasSuffix(marks, "$"+strconv.Itoa(2+c.want)) {
			t.Fatalf("%d values: marks %q", c.n, marks)
		}
		if args[c.want-1] != values[c.n-1] || args[c.n-1] != values[c.n-1] || args[0] != values[0] {
			t.Fatalf("%d values: args %v", c.n, args)
		}
	}
}

func TestInIDsReadsTheGivenRows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `CREATE TABLE in_ids_test (id BIGINT PRIMARY KEY)`); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 300; i++ {
			if _, err := db.ExecContext(ctx, `INSERT INTO in_ids_test (id) VALUES ($1)`, i); err != nil {
				t.Fatal(err)
			}
		}
		ids := []int64{3, 299, 150, 7, 1000}
		want := []int64{3, 7, 150, 299}
		read := func(q database.Querier) []int64 {
			in, args := database.InIDs(q, "id", ids, 2)
			got, err := database.Column[int64](q.QueryContext(ctx, `SELECT id FROM in_ids_test WHERE id > $1 AND `+in+` ORDER BY id`, append([]any{0}, args...)...))
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := read(db); !slices.Equal(got, want) {
			t.Errorf("through the database: %v, want %v", got, want)
		}
		if err := db.Tx(ctx, func(tx *sql.Tx) error {
			if got := read(tx); !slices.Equal(got, want) {
				t.Errorf("in a transaction: %v, want %v", got, want)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// An older binary started against a database a newer one migrated refuses it, saying why,
// and changes nothing.
func TestNewerDatabaseIsRefused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		var last int64
		if err := db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version`).Scan(&last); err != nil {
			t.Fatal(err)
		}
		if current, err := db.Current(ctx); err != nil || !current {
			t.Fatalf("a migrated database is not current: %v", err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, TRUE)`, last+1); err != nil {
			t.Fatal(err)
		}
		_, err := db.Migrate(ctx)
		var newer database.NewerError
		if !errors.As(err, &newer) || newer.Schema != last+1 || newer.Known != last || !strings.HasPrefix(err.Error(), "this database was written by a newer version of EMR") {
			t.Errorf("migrate: %v", err)
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM goose_db_version WHERE version_id = $1`, last+1); err != nil {
			t.Fatal(err)
		}
		// With the last migration not recorded, the database is not current (not ready).
		if _, err := db.ExecContext(ctx, `DELETE FROM goose_db_version WHERE version_id = $1`, last); err != nil {
			t.Fatal(err)
		}
		if current, err := db.Current(ctx); err != nil || current {
			t.Errorf("a database with a pending migration is current: %v", err)
		}
	})
}
