package database

import (
	"slices"
	"strings"
)

// Own is what of the schema one engine has and the other must not: patient name search,
// which SQLite does with an FTS5 table (and its shadow tables, "patient_search_…") and
// PostgreSQL with a tsvector column, an array of search words and a GIN index (migration 3).
// It is declared once: the parity test leaves it out of the schemas it compares, and an
// archive leaves it out of what it copies (a restore rebuilds the search, Options.After).
type Own struct {
	Tables  []string // each with its shadow tables
	Columns []string // "table.column"
	Indexes []string // "table.index"
}

// EngineOwn is each engine's own part of the schema.
var EngineOwn = map[Engine]Own{
	SQLite:   {Tables: []string{"patient_search"}},
	Postgres: {Columns: []string{"patients.search_terms", "patients.search_vector"}, Indexes: []string{"patients.patients_search"}},
}

// Table reports whether table is one of o's tables or their shadows.
func (o Own) Table(table string) bool {
	for _, t := range o.Tables {
		if table == t || strings.HasPrefix(table, t+"_") {
			return true
		}
	}
	return false
}

// Column reports whether table's column is one of o's.
func (o Own) Column(table, column string) bool { return slices.Contains(o.Columns, table+"."+column) }

// Index reports whether table's index is one of o's.
func (o Own) Index(table, index string) bool { return slices.Contains(o.Indexes, table+"."+index) }
