package dashboard_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/patient"
	"emr/internal/user"
	"emr/tools/demo"
)

// TestCountsOfAnUpgradedDatabase: a clinic's database with records from before the dashboard
// gets counts equal to its rows when migration 8 runs, on both engines. The records are
// written by today's code (which needs today's schema); the counts are then emptied and
// filled again by migration 8's own backfill statements, as on an upgrade.
func TestCountsOfAnUpgradedDatabase(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := database.Open(ctx, e.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			none := func(int) {}
			if err := demo.Patients(ctx, &patient.Store{DB: db}, 300, 7, none); err != nil {
				t.Fatal(err)
			}
			if err := demo.Appointments(ctx, db, &user.Store{DB: db}, time.UTC, 3000, 7, none); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, `UPDATE patients SET archived_at = $1 WHERE id % 7 = 0`, time.Now().UTC()); err != nil {
				t.Fatal(err)
			}
			backfill(t, db)

			differ := func(what, query string) {
				t.Helper()
				if n := dbtest.Count(t, db, query); n != 0 {
					t.Errorf("%s: %d counts differ from the rows", what, n)
				}
			}
			differ("appointments by day and status", `SELECT COUNT(*) FROM (SELECT day, status, COUNT(*) AS n FROM appointments GROUP BY day, status) a
				FULL JOIN appointment_day_counts c USING (day, status) WHERE COALESCE(a.n, 0) <> COALESCE(c.n, 0)`)
			differ("the register by birth year and sex", `SELECT COUNT(*) FROM
				(SELECT CAST(substr(birth_date, 1, 4) AS INTEGER) AS birth_year, sex, COUNT(*) AS n FROM patients WHERE archived_at IS NULL GROUP BY 1, 2) p
				FULL JOIN patient_birth_counts c USING (birth_year, sex) WHERE COALESCE(p.n, 0) <> COALESCE(c.n, 0)`)
			if months, all := dbtest.Count(t, db, `SELECT SUM(n) FROM patient_month_counts`), dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); months != all {
				t.Errorf("registrations by month add up to %d, not %d", months, all)
			}

			// Diagnoses: each signed visit's distinct codes, in the month of its day.
			want := map[[2]string]int{}
			rows, err := db.QueryContext(ctx, `SELECT a.day, v.content FROM visits v JOIN appointments a ON a.id = v.appointment_id WHERE v.status = 'signed'`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var day, content string
				if err := rows.Scan(&day, &content); err != nil {
					t.Fatal(err)
				}
				var c struct{ Diagnoses []struct{ Code string } }
				if err := json.Unmarshal([]byte(content), &c); err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				for _, d := range c.Diagnoses {
					if d.Code != "" && !seen[d.Code] {
						seen[d.Code] = true
						want[[2]string{day[:7], d.Code}]++
					}
				}
			}
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
			got := map[[2]string]int{}
			rows, err = db.QueryContext(ctx, `SELECT month, code, n FROM diagnosis_month_counts WHERE n <> 0`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var month, code string
				var n int
				if err := rows.Scan(&month, &code, &n); err != nil {
					t.Fatal(err)
				}
				got[[2]string{month, code}] = n
			}
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("diagnosis counts: %d (month, code) pairs, want %d", len(got), len(want))
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%v: %d, want %d", k, got[k], n)
				}
			}
		})
	}
}

// backfill empties the dashboard's counts and deltas and runs migration 8's statements that
// fill the counts from the rows (the unindented INSERTs; the triggers' are indented).
func backfill(t *testing.T, db *database.DB) {
	t.Helper()
	ctx := context.Background()
	for _, table := range []string{"appointment_day", "patient_month", "patient_birth", "diagnosis_month"} {
		for _, suffix := range []string{"_counts", "_deltas"} {
			if _, err := db.ExecContext(ctx, "DELETE FROM "+table+suffix); err != nil { // names are ours
				t.Fatal(err)
			}
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "database", "migrations", string(db.Engine), "00008_dashboard_counts.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var stmt []string
	ran := 0
	for line := range strings.Lines(string(src)) {
		if strings.HasPrefix(line, "INSERT INTO ") || len(stmt) > 0 {
			stmt = append(stmt, line)
		}
		if len(stmt) > 0 && strings.HasSuffix(strings.TrimSpace(line), ";") {
			if _, err := db.ExecContext(ctx, strings.Join(stmt, "")); err != nil {
				t.Fatalf("%s: %v", strings.Join(stmt, ""), err)
			}
			stmt, ran = nil, ran+1
		}
	}
	if ran != 4 {
		t.Fatalf("migration 8 has %d backfill statements, want 4", ran)
	}
}
