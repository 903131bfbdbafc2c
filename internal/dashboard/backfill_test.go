package dashboard_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/patient"
	"emr/internal/user"
	"emr/tools/demo"
)

// TestCountsOfAnUpgradedDatabase: a clinic's database with records from before the dashboard
// gets counts equal to its rows when migration 8 runs, on both engines.
func TestCountsOfAnUpgradedDatabase(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := database.Open(ctx, e.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.MigrateTo(ctx, 7); err != nil {
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
			if err := db.MigrateTo(ctx, 8); err != nil {
				t.Fatal(err)
			}

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
