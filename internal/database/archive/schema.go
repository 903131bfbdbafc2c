package archive

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"emr/internal/database"
)

// Kind is how a column's values are written in an archive; both engines' types map to the
// same kinds (the schemas agree column by column: database's parity test).
type Kind string

// The kinds of column.
const (
	Int   Kind = "int"
	Text  Kind = "text"
	Bool  Kind = "bool"
	Time  Kind = "time" // UTC, microseconds (what PostgreSQL keeps)
	Bytes Kind = "bytes"
)

// Column is one archived column.
type Column struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
}

// Table is one archived table: its columns, the columns its rows are read in order of
// (the primary key; none for a table without one) and how many rows it holds.
type Table struct {
	Name    string   `json:"name"`
	Columns []Column `json:"columns"`
	Key     []string `json:"key,omitempty"`
	Rows    int64    `json:"rows"`
	// AutoIncrement is, on SQLite, whether the table never gives an id again (its
	// high-water mark is kept in sqlite_sequence).
	autoIncrement bool
}

// tables reads the schema of the database q is on: every table of the product (not the
// migrations' own, not SQLite's internal or virtual ones), sorted by name. What of the
// schema is one engine's own (database.EngineOwn: its patient search) is left out, rebuilt
// after a restore by the caller's hooks (Options.After); so are any other virtual tables
// (with their shadows) and generated columns.
func tables(ctx context.Context, q database.Querier, engine database.Engine) ([]Table, error) {
	var out []Table
	var err error
	if engine == database.SQLite {
		out, err = sqliteTables(ctx, q)
	} else {
		out, err = postgresTables(ctx, q)
	}
	if err != nil {
		return nil, fmt.Errorf("read the schema: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func sqliteTables(ctx context.Context, q database.Querier) ([]Table, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version'`)
	if err != nil {
		return nil, err
	}
	var names, virtual []string
	ddl := map[string]string{}
	for rows.Next() {
		var name, sql string
		if err := rows.Scan(&name, &sql); err != nil {
			rows.Close()
			return nil, err
		}
		if strings.HasPrefix(strings.ToUpper(sql), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, name)
			continue
		}
		names, ddl[name] = append(names, name), sql
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []Table
	for _, name := range names {
		shadow := false
		for _, v := range virtual {
			shadow = shadow || strings.HasPrefix(name, v+"_")
		}
		if shadow || database.EngineOwn[database.SQLite].Table(name) {
			continue
		}
		t := Table{Name: name, autoIncrement: strings.Contains(strings.ToUpper(ddl[name]), "AUTOINCREMENT")}
		cols, err := q.QueryContext(ctx, `SELECT name, type, pk FROM pragma_table_info($1) ORDER BY cid`, name)
		if err != nil {
			return nil, err
		}
		keys := map[int]string{}
		for cols.Next() {
			var col, typ string
			var pk int
			if err := cols.Scan(&col, &typ, &pk); err != nil {
				cols.Close()
				return nil, err
			}
			if database.EngineOwn[database.SQLite].Column(name, col) {
				continue
			}
			k, err := sqliteKind(typ)
			if err != nil {
				cols.Close()
				return nil, fmt.Errorf("%s.%s: %w", name, col, err)
			}
			t.Columns = append(t.Columns, Column{Name: col, Kind: k})
			if pk > 0 {
				keys[pk] = col
			}
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, err
		}
		for i := 1; i <= len(keys); i++ {
			t.Key = append(t.Key, keys[i])
		}
		out = append(out, t)
	}
	return out, nil
}

func sqliteKind(declared string) (Kind, error) {
	switch strings.ToUpper(declared) {
	case "INTEGER", "BIGINT":
		return Int, nil
	case "TEXT":
		return Text, nil
	case "BOOLEAN":
		return Bool, nil
	case "TIMESTAMP":
		return Time, nil
	case "BLOB":
		return Bytes, nil
	}
	return "", fmt.Errorf("a column of type %q cannot be archived", declared)
}

func postgresTables(ctx context.Context, q database.Querier) ([]Table, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.data_type
		FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'goose_db_version' AND c.is_generated = 'NEVER'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, err
	}
	var out []Table
	for rows.Next() {
		var table, col, typ string
		if err := rows.Scan(&table, &col, &typ); err != nil {
			rows.Close()
			return nil, err
		}
		if own := database.EngineOwn[database.Postgres]; own.Table(table) || own.Column(table, col) {
			continue
		}
		k, err := postgresKind(typ)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s.%s: %w", table, col, err)
		}
		if len(out) == 0 || out[len(out)-1].Name != table {
			out = append(out, Table{Name: table})
		}
		out[len(out)-1].Columns = append(out[len(out)-1].Columns, Column{Name: col, Kind: k})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	keys, err := q.QueryContext(ctx, `SELECT t.relname, a.attname FROM pg_index ix
		JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
		JOIN unnest(ix.indkey) WITH ORDINALITY k(attnum, n) ON true
		JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
		WHERE ix.indisprimary AND ns.nspname = current_schema() ORDER BY t.relname, k.n`)
	if err != nil {
		return nil, err
	}
	defer keys.Close()
	for keys.Next() {
		var table, col string
		if err := keys.Scan(&table, &col); err != nil {
			return nil, err
		}
		for i := range out {
			if out[i].Name == table {
				out[i].Key = append(out[i].Key, col)
			}
		}
	}
	return out, keys.Err()
}

func postgresKind(typ string) (Kind, error) {
	switch typ {
	case "smallint", "integer", "bigint":
		return Int, nil
	case "text", "character varying":
		return Text, nil
	case "boolean":
		return Bool, nil
	case "timestamp with time zone", "timestamp without time zone":
		return Time, nil
	case "bytea":
		return Bytes, nil
	}
	return "", fmt.Errorf("a column of type %q cannot be archived", typ)
}

// quote is an identifier read from the database's own catalogue, quoted for SQL.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// columnList is the table's columns, quoted and separated by commas.
func columnList(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quote(c.Name)
	}
	return strings.Join(names, ", ")
}
