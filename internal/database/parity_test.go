package database_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// schema is a migrated database's shape: per table, each column with whether it may be null,
// and each index (not the primary key's) with its columns and uniqueness.
type schema map[string][]string

func sqliteSchema(t *testing.T, db *database.DB) schema {
	t.Helper()
	ctx := context.Background()
	out := schema{}
	for _, table := range strings.Fields(queryList(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version' ORDER BY name`)) {
		rows, err := db.QueryContext(ctx, `SELECT name, "notnull", pk FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name string
			var notNull, pk int
			if err := rows.Scan(&name, &notNull, &pk); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprintf("column %s null=%v", name, notNull == 0 && pk == 0))
		}
		rows.Close()
		idx, err := db.QueryContext(ctx, `SELECT l.name, l."unique", (SELECT group_concat(COALESCE(name, '(expression)'), ',') FROM (SELECT name FROM pragma_index_info(l.name) ORDER BY seqno))
			FROM pragma_index_list(?) l WHERE l.origin <> 'pk'`, table)
		if err != nil {
			t.Fatal(err)
		}
		for idx.Next() {
			var name, cols string
			var unique int
			if err := idx.Scan(&name, &unique, &cols); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(name, "sqlite_autoindex_") {
				name = "(constraint)"
			}
			out[table] = append(out[table], fmt.Sprintf("index %s (%s) unique=%v", name, cols, unique == 1))
		}
		idx.Close()
		sort.Strings(out[table])
	}
	return out
}

func postgresSchema(t *testing.T, db *database.DB) schema {
	t.Helper()
	ctx := context.Background()
	out := schema{}
	rows, err := db.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.is_nullable = 'YES'
		FROM information_schema.columns c JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
		WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE' AND c.table_name <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, col string
		var null bool
		if err := rows.Scan(&table, &col, &null); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], fmt.Sprintf("column %s null=%v", col, null))
	}
	rows.Close()
	idx, err := db.QueryContext(ctx, `SELECT t.relname, i.relname, ix.indisunique, ix.indisprimary, con.conname IS NOT NULL,
			(SELECT string_agg(COALESCE(a.attname, '(expression)'), ',' ORDER BY k.n) FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n) LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum <> 0)
		FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_namespace ns ON ns.oid = t.relnamespace LEFT JOIN pg_constraint con ON con.conindid = ix.indexrelid AND con.contype = 'u'
		WHERE ns.nspname = current_schema() AND t.relname <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	for idx.Next() {
		var table, name string
		var cols *string // a partial or expression index may have none
		var unique, primary, constraint bool
		if err := idx.Scan(&table, &name, &unique, &primary, &constraint, &cols); err != nil {
			t.Fatal(err)
		}
		if primary {
			continue
		}
		if constraint {
			name = "(constraint)"
		}
		c := ""
		if cols != nil {
			c = *cols
		}
		out[table] = append(out[table], fmt.Sprintf("index %s (%s) unique=%v", name, c, unique))
	}
	idx.Close()
	for table := range out {
		sort.Strings(out[table])
	}
	return out
}

func queryList(t *testing.T, db *database.DB, q string) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// engineOwn is what one engine has and the other must not: patient name search, which SQLite
// does with an FTS5 table (and its shadow tables) and PostgreSQL with a tsvector column, an
// array of search words and a GIN index (migration 3).
var engineOwn = map[string]func(table, item string) bool{
	"sqlite": func(table, _ string) bool {
		return table == "patient_search" || strings.HasPrefix(table, "patient_search_")
	},
	"postgres": func(table, item string) bool {
		return table == "patients" && slices.Contains([]string{"column search_terms null=false", "column search_vector null=true", "index patients_search (search_vector) unique=false"}, item)
	},
}

func without(s schema, own func(table, item string) bool) schema {
	out := schema{}
	for table, items := range s {
		for _, it := range items {
			if !own(table, it) {
				out[table] = append(out[table], it)
			}
		}
	}
	return out
}

// TestSchemasOfBothEnginesAgree: after every migration, SQLite and PostgreSQL have the same
// tables, the same columns with the same nullability, and the same indexes (columns and
// uniqueness), so code written against one does not meet a different database on the other.
func TestSchemasOfBothEnginesAgree(t *testing.T) {
	pg := dbtest.Open(t, dbtest.PostgresURL(t))
	lite := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	a, b := without(sqliteSchema(t, lite), engineOwn["sqlite"]), without(postgresSchema(t, pg), engineOwn["postgres"])
	if len(a) < 30 || len(a) != len(b) {
		t.Errorf("%d tables on SQLite, %d on PostgreSQL", len(a), len(b))
	}
	tables := map[string]bool{}
	for k := range a {
		tables[k] = true
	}
	for k := range b {
		tables[k] = true
	}
	names := make([]string, 0, len(tables))
	for k := range tables {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, table := range names {
		onlyLite, onlyPG := difference(a[table], b[table]), difference(b[table], a[table])
		if len(onlyLite)+len(onlyPG) > 0 {
			t.Errorf("%s differs:\n  SQLite only: %v\n  PostgreSQL only: %v", table, onlyLite, onlyPG)
		}
	}
}

func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
