package database_test

import (
	"context"
	"fmt"
	"regexp"
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
		rows, err := db.QueryContext(ctx, `SELECT name, "notnull", pk, type, COALESCE(dflt_value, '') FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, typ, dflt string
			var notNull, pk int
			if err := rows.Scan(&name, &notNull, &pk, &typ, &dflt); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprintf("column %s null=%v", name, notNull == 0 && pk == 0),
				fmt.Sprintf("column %s type=%s default=%s", name, typeClass(typ), defaultValue(dflt)))
		}
		rows.Close()
		fks, err := db.QueryContext(ctx, `SELECT "from", "table", COALESCE("to", ''), on_delete FROM pragma_foreign_key_list(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for fks.Next() {
			var from, to, toCol, onDelete string
			if err := fks.Scan(&from, &to, &toCol, &onDelete); err != nil {
				t.Fatal(err)
			}
			if toCol == "" {
				toCol = "id" // the referenced table's primary key
			}
			out[table] = append(out[table], fmt.Sprintf("foreign key %s -> %s(%s) on delete %s", from, to, toCol, strings.ToLower(onDelete)))
		}
		fks.Close()
		var create string
		if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&create); err != nil {
			t.Fatal(err)
		}
		if n := len(checkWord.FindAllString(create, -1)); n > 0 {
			out[table] = append(out[table], fmt.Sprintf("checks %d", n))
		}
		trig, err := db.QueryContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`, table)
		if err != nil {
			t.Fatal(err)
		}
		events := map[string]bool{}
		for trig.Next() {
			var create string
			if err := trig.Scan(&create); err != nil {
				t.Fatal(err)
			}
			if m := triggerEvent.FindStringSubmatch(create); m != nil {
				events[strings.ToLower(m[1])] = true
			}
		}
		trig.Close()
		for event := range events {
			out[table] = append(out[table], "trigger on "+event)
		}
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
	rows, err := db.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.is_nullable = 'YES', c.data_type, COALESCE(c.column_default, ''), c.is_identity = 'YES'
		FROM information_schema.columns c JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
		WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE' AND c.table_name <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, col, typ, dflt string
		var null, identity bool
		if err := rows.Scan(&table, &col, &null, &typ, &dflt, &identity); err != nil {
			t.Fatal(err)
		}
		if identity || strings.HasPrefix(dflt, "nextval(") {
			dflt = "" // a generated key, as SQLite's INTEGER PRIMARY KEY
		}
		out[table] = append(out[table], fmt.Sprintf("column %s null=%v", col, null),
			fmt.Sprintf("column %s type=%s default=%s", col, typeClass(typ), defaultValue(dflt)))
	}
	rows.Close()
	cons, err := db.QueryContext(ctx, `SELECT t.relname, c.contype::text, COALESCE(a.attname, ''), COALESCE(rt.relname, ''), COALESCE(ra.attname, ''), c.confdeltype::text
		FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
		LEFT JOIN pg_attribute a ON a.attrelid = c.conrelid AND c.contype = 'f' AND a.attnum = c.conkey[1]
		LEFT JOIN pg_class rt ON rt.oid = c.confrelid
		LEFT JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
		WHERE ns.nspname = current_schema() AND c.contype IN ('f', 'c') AND t.relname <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]int{}
	for cons.Next() {
		var table, kind, from, to, toCol, onDelete string
		if err := cons.Scan(&table, &kind, &from, &to, &toCol, &onDelete); err != nil {
			t.Fatal(err)
		}
		if kind == "c" {
			checks[table]++
			continue
		}
		out[table] = append(out[table], fmt.Sprintf("foreign key %s -> %s(%s) on delete %s", from, to, toCol, pgAction[onDelete]))
	}
	cons.Close()
	for table, n := range checks {
		out[table] = append(out[table], fmt.Sprintf("checks %d", n))
	}
	trig, err := db.QueryContext(ctx, `SELECT DISTINCT c.relname, e.event FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
		JOIN pg_namespace ns ON ns.oid = c.relnamespace
		CROSS JOIN LATERAL (VALUES ('insert', 4), ('delete', 8), ('update', 16)) AS e(event, bit)
		WHERE ns.nspname = current_schema() AND NOT tg.tgisinternal AND (tg.tgtype::int & e.bit) <> 0`)
	if err != nil {
		t.Fatal(err)
	}
	for trig.Next() {
		var table, event string
		if err := trig.Scan(&table, &event); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], "trigger on "+event)
	}
	trig.Close()
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

// checkWord counts a table's CHECK constraints in SQLite's CREATE TABLE text.
var checkWord = regexp.MustCompile(`(?i)\bCHECK\s*\(`)

// triggerEvent finds the event of SQLite's CREATE TRIGGER (one a trigger).
var triggerEvent = regexp.MustCompile(`(?is)^\s*CREATE\s+TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+(?:BEFORE\s+|AFTER\s+|INSTEAD\s+OF\s+)?(INSERT|UPDATE|DELETE)\b`)

// pgAction is PostgreSQL's letter for a foreign key's ON DELETE, in SQLite's words.
var pgAction = map[string]string{"a": "no action", "r": "restrict", "c": "cascade", "n": "set null", "d": "set default"}

// typeClass is the kind of value a column holds, in words both engines' types map to: an
// integer, text, bytes, a real number, a true/false, a moment or a day.
func typeClass(declared string) string {
	t := strings.ToLower(declared)
	switch {
	case strings.Contains(t, "int"):
		return "integer"
	case strings.Contains(t, "char") || t == "text" || t == "jsonb" || t == "json":
		return "text"
	case t == "blob" || t == "bytea":
		return "bytes"
	case strings.Contains(t, "real") || strings.Contains(t, "double") || strings.Contains(t, "float") || strings.Contains(t, "numeric"):
		return "real"
	case strings.Contains(t, "bool"):
		return "boolean"
	case strings.Contains(t, "timestamp") || strings.Contains(t, "datetime"):
		return "moment"
	case t == "date":
		return "day"
	}
	return "other:" + t
}

// defaultValue is a column's default as both engines write it: PostgreSQL's casts dropped,
// its booleans and clock in SQLite's words.
func defaultValue(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.Index(d, "::"); i > 0 {
		d = d[:i]
	}
	d = strings.Trim(d, "()")
	switch strings.ToLower(d) {
	case "true":
		return "1"
	case "false":
		return "0"
	case "now", "current_timestamp", "now()":
		return "now"
	}
	return d
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

// without is s less what of it is the engine's own (database.EngineOwn): a table, or a
// column or index of a table.
func without(s schema, own database.Own) schema {
	out := schema{}
	for table, items := range s {
		if own.Table(table) {
			continue
		}
		for _, it := range items {
			kind, rest, _ := strings.Cut(it, " ")
			name, _, _ := strings.Cut(rest, " ")
			if kind == "column" && own.Column(table, name) || kind == "index" && own.Index(table, name) {
				continue
			}
			out[table] = append(out[table], it)
		}
	}
	return out
}

// TestSchemasOfBothEnginesAgree: after every migration, SQLite and PostgreSQL have the same
// tables; the same columns with the same nullability, kind of value and default; the same
// indexes (columns and uniqueness), foreign keys (with their ON DELETE), number of CHECK
// constraints, and triggers on the same events — so code written against one does not meet
// a different database on the other.
func TestSchemasOfBothEnginesAgree(t *testing.T) {
	pg := dbtest.Open(t, dbtest.PostgresURL(t))
	lite := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	full := map[database.Engine]schema{database.SQLite: sqliteSchema(t, lite), database.Postgres: postgresSchema(t, pg)}
	// What is declared an engine's own (the one list the archive reads too) is in that
	// engine's schema and in no other's, so the list cannot hide a difference or go stale.
	for engine, own := range database.EngineOwn {
		for other, s := range full {
			mine := other == engine
			for _, table := range own.Tables {
				if _, ok := s[table]; ok != mine {
					t.Errorf("%s's own table %s: on %s %v", engine, table, other, ok)
				}
			}
			for kind, list := range map[string][]string{"column": own.Columns, "index": own.Indexes} {
				for _, item := range list {
					table, name, _ := strings.Cut(item, ".")
					ok := slices.ContainsFunc(s[table], func(it string) bool { return strings.HasPrefix(it, kind+" "+name+" ") })
					if ok != mine {
						t.Errorf("%s's own %s %s: on %s %v", engine, kind, item, other, ok)
					}
				}
			}
		}
	}
	a, b := without(full[database.SQLite], database.EngineOwn[database.SQLite]), without(full[database.Postgres], database.EngineOwn[database.Postgres])
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
