package patient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	pt "emr/internal/patient"
)

// TestIdentifierSearchReadsIndexes: among 20,000 patients (statistics gathered), each way
// the programs look a patient up by number or identifier — the clinic's number or any
// system's value, a value with no system, a system's value, every value of a system — reads
// the patients by primary key from the number's and the identifiers' indexes on both
// engines: neither engine scans the patients table (the number-or-identifier OR did on
// PostgreSQL), and each finds the same patients as before.
func TestIdentifierSearchReadsIndexes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		store := &pt.Store{DB: db}
		in := make([]pt.Input, 20000)
		for i := range in {
			in[i] = pt.Input{FirstName: fmt.Sprint("Ident", i), LastName: "Plan", Sex: []string{"male", "female"}[i%2], BirthDate: fmt.Sprintf("19%02d-0%d-1%d", 40+i%60, 1+i%9, i%10)}
		}
		if err := store.BulkInsert(ctx, in); err != nil {
			t.Fatal(err)
		}
		// Every tenth patient has a number of another system, the value "X<id>"; one has the
		// value another's clinic number reads as.
		if _, err := db.ExecContext(ctx, `INSERT INTO patient_identifiers (patient_id, system, value)
			SELECT id, 'urn:oid:1.2.3', 'X' || CAST(id AS TEXT) FROM patients WHERE id % 10 = 0`); err != nil {
			t.Fatal(err)
		}
		var mrn string
		var mrnID, otherID int64
		if err := db.QueryRowContext(ctx, `SELECT id, mrn FROM patients WHERE id = 5`).Scan(&mrnID, &mrn); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, `SELECT id FROM patients WHERE id = 7`).Scan(&otherID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO patient_identifiers (patient_id, system, value) VALUES ($1, '', $2)`, otherID, mrn); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name  string
			match pt.IdentifierMatch
			want  []int64
		}{
			{"number or any system's value: the number", pt.IdentifierMatch{Value: mrn, OrNumber: true}, []int64{mrnID, otherID}},
			{"number or any system's value: a value", pt.IdentifierMatch{Value: "X100", OrNumber: true}, []int64{100}},
			{"number or any system's value: none", pt.IdentifierMatch{Value: "nobody", OrNumber: true}, nil},
			{"any system's value", pt.IdentifierMatch{Value: "X100"}, []int64{100}},
			{"a value with no system", pt.IdentifierMatch{Value: mrn, HasSystem: true}, []int64{otherID}},
			{"a system's value", pt.IdentifierMatch{Value: "X100", System: "urn:oid:1.2.3", HasSystem: true}, []int64{100}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f := pt.Filter{Identifier: &c.match, Limit: 10}
				query, args := pt.PageQuery(db, f)
				assertIndexPlan(t, db, query, args)
				got, _, err := store.Page(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				var ids []int64
				for _, p := range got {
					ids = append(ids, p.ID)
				}
				if fmt.Sprint(ids) != fmt.Sprint(c.want) {
					t.Errorf("found %v, want %v", ids, c.want)
				}
			})
		}
		t.Run("the clinic's number", func(t *testing.T) {
			query, args := pt.PageQuery(db, pt.Filter{MRN: mrn, Limit: 10})
			assertIndexPlan(t, db, query, args)
		})
		// A portal sign-in by e-mail, on every public request (migration 00095).
		t.Run("a sign-in's e-mail address", func(t *testing.T) {
			if _, err := db.ExecContext(ctx, `UPDATE patients SET email = 'p' || CAST(id AS TEXT) || '@example.test'`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
				t.Fatal(err)
			}
			assertIndexPlan(t, db, pt.ByEmailQuery, []any{"p100@example.test"})
			ids, err := pt.ByContact(ctx, db, "email", "P100@Example.test", "")
			if err != nil || len(ids) != 1 || ids[0] != 100 {
				t.Fatalf("found %v (%v)", ids, err)
			}
		})
	})
}

// assertIndexPlan fails t when the engine's plan for query scans the patients or their
// identifiers rather than reading them through an index.
func assertIndexPlan(t *testing.T, db *database.DB, query string, args []any) {
	t.Helper()
	ctx := context.Background()
	if db.Engine == database.Postgres {
		var plan string
		if err := db.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+query, args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		var nodes []struct{ Plan filteredNode }
		if err := json.Unmarshal([]byte(plan), &nodes); err != nil || len(nodes) != 1 {
			t.Fatalf("%v: %s", err, plan)
		}
		read := 0
		var walk func(n filteredNode)
		walk = func(n filteredNode) {
			if n.Relation == "patients" || n.Relation == "patient_identifiers" {
				read += (n.ActualRows + n.RowsRemoved) * max(n.ActualLoops, 1)
				if n.NodeType == "Seq Scan" {
					t.Errorf("%s is scanned: %s", n.Relation, plan)
				}
			}
			for _, c := range n.Plans {
				walk(c)
			}
		}
		walk(nodes[0].Plan)
		// An index walk in id order that filters every patient reads the table all the same.
		if read > 20 {
			t.Errorf("the search read %d rows to find at most two:\n%s", read, plan)
		}
		return
	}
	rows, err := db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, d := range plan {
		if strings.HasPrefix(d, "SCAN ") && !strings.HasPrefix(d, "SCAN CONSTANT") && !strings.Contains(d, "subquery") && !strings.Contains(d, "LIST SUBQUERY") {
			t.Errorf("a table is scanned (%s):\n%s", d, strings.Join(plan, "\n"))
		}
	}
}

// filteredNode is a node of PostgreSQL's EXPLAIN (ANALYZE, FORMAT JSON), with the rows its
// filter read and dropped.
type filteredNode struct {
	NodeType    string         `json:"Node Type"`
	Relation    string         `json:"Relation Name"`
	ActualRows  int            `json:"Actual Rows"`
	ActualLoops int            `json:"Actual Loops"`
	RowsRemoved int            `json:"Rows Removed by Filter"`
	Plans       []filteredNode `json:"Plans"`
}
