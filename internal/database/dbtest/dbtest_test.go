package dbtest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"emr/internal/database"
)

// snapshot is a database's tables, columns, indexes and triggers, and each table's row count.
func snapshot(t *testing.T, db *database.DB) []string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT type || ' ' || name || ' ' || COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`
	tables := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.Engine == database.Postgres {
		q = `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || COALESCE(column_default, '') FROM information_schema.columns WHERE table_schema = 'public'
			UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
			UNION ALL SELECT tgname || ' ' || tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal`
		tables = `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
	}
	var out, names []string
	for _, s := range []struct {
		q   string
		dst *[]string
	}{{q, &out}, {tables, &names}} {
		rows, err := db.QueryContext(ctx, s.q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			*s.dst = append(*s.dst, v)
		}
		rows.Close()
	}
	for _, name := range names {
		if name == "goose_db_version" {
			continue // its timestamps differ; its rows are counted below
		}
		out = append(out, fmt.Sprintf("rows %s %d", name, Count(t, db, `SELECT count(*) FROM "`+name+`"`)))
	}
	out = append(out, fmt.Sprintf("versions %d", Count(t, db, `SELECT count(*) FROM goose_db_version`)))
	slices.Sort(out)
	return out
}

// TestACopyIsAFreshMigration: the template's copy a test gets is the database the
// migrations make, on each engine.
func TestACopyIsAFreshMigration(t *testing.T) {
	for _, e := range Engines() {
		t.Run(e.Name, func(t *testing.T) {
			copied, fresh := snapshot(t, Migrated(t, e)), snapshot(t, Open(t, e.URL(t)))
			if !slices.Equal(copied, fresh) {
				for i := range max(len(copied), len(fresh)) {
					if i >= len(copied) || i >= len(fresh) || copied[i] != fresh[i] {
						t.Fatalf("first difference at %d: copy %q, fresh %q", i, at(copied, i), at(fresh, i))
					}
				}
			}
			if len(copied) < 100 {
				t.Fatalf("too little compared: %d", len(copied))
			}
		})
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
