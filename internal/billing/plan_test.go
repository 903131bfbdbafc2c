package billing_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestReplacementReadsAnIndex: every read of a bill (a payment's answer among them) asks for
// its replacement; among 20,000 bills, one of them replaced, both engines find it through an
// index of replacements instead of walking every bill from the newest (the bill not replaced,
// the usual case, walked them all).
func TestReplacementReadsAnIndex(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		for _, q := range []string{
			`INSERT INTO patients (mrn, mrn_digits, first_name, last_name, sex, birth_date, name_key, sort_name, created_at, updated_at)
				VALUES ('2026-000001', '2026000001', 'Plan', 'Bills', 'female', '1970-01-01', 'bills plan', 'bills plan', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
				INSERT INTO bills (patient_id, status, currency, created_at, updated_at)
				SELECT (SELECT MIN(id) FROM patients), 'draft', 'VND', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM n`,
			`UPDATE bills SET replaces_id = 5 WHERE id = 19000`,
			`ANALYZE`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		for _, id := range []int64{5, 6} {
			if db.Engine == database.Postgres {
				var plan string
				if err := db.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+billing.ReplacedByQuery, id).Scan(&plan); err != nil {
					t.Fatal(err)
				}
				var nodes []struct{ Plan node }
				if err := json.Unmarshal([]byte(plan), &nodes); err != nil || len(nodes) != 1 {
					t.Fatalf("%v: %s", err, plan)
				}
				if read := nodes[0].Plan.read(); read > 10 {
					t.Errorf("bill %d: %d bills read to find its replacement:\n%s", id, read, plan)
				}
				continue
			}
			rows, err := db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+billing.ReplacedByQuery, id)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var a, b, c int
				var detail string
				if err := rows.Scan(&a, &b, &c, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			rows.Close()
			if text := strings.Join(plan, "\n"); !strings.Contains(text, "INDEX bills_replaced") {
				t.Errorf("bill %d: the replacement is not read by its index:\n%s", id, text)
			}
		}
	})
}

// node is a node of PostgreSQL's EXPLAIN (ANALYZE, FORMAT JSON).
type node struct {
	NodeType    string `json:"Node Type"`
	Relation    string `json:"Relation Name"`
	ActualRows  int    `json:"Actual Rows"`
	ActualLoops int    `json:"Actual Loops"`
	RowsRemoved int    `json:"Rows Removed by Filter"`
	Plans       []node `json:"Plans"`
}

// read is how many rows of bills the plan read, kept or dropped by a filter.
func (n node) read() int {
	r := 0
	if n.Relation == "bills" {
		r = (n.ActualRows + n.RowsRemoved) * max(n.ActualLoops, 1)
	}
	for _, c := range n.Plans {
		r += c.read()
	}
	return r
}
