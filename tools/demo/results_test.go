package demo_test

import (
	"context"
	"testing"
	"time"

	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/patient"
	"emr/internal/user"
	"emr/tools/demo"
)

// TestSeededResultsCarryTheCataloguesLOINC: every seeded result carries its analyte's LOINC
// code from the catalogue, as a result recorded in the app does, so that a laboratory
// Observation of the demo clinic is coded (issue 54).
func TestSeededResultsCarryTheCataloguesLOINC(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		none := func(int) {}
		if err := catalogue.InstallStarter(ctx, db); err != nil {
			t.Fatal(err)
		}
		if err := demo.Patients(ctx, &patient.Store{DB: db}, 20, 7, none); err != nil {
			t.Fatal(err)
		}
		if err := demo.Appointments(ctx, db, &user.Store{DB: db}, time.UTC, 200, 7, none); err != nil {
			t.Fatal(err)
		}
		if err := demo.EnsureSeedPanel(ctx, db); err != nil {
			t.Fatal(err)
		}
		if err := demo.Results(ctx, db, 25, demo.ResultsOptions{}, 7, none); err != nil {
			t.Fatal(err)
		}
		for _, row := range []struct {
			name, query string
			want        int
		}{
			{"results seeded", `SELECT COUNT(*) FROM lab_results`, 25},
			{"without a LOINC code", `SELECT COUNT(*) FROM lab_results WHERE loinc = ''`, 0},
			{"not the catalogue's", `SELECT COUNT(*) FROM lab_results r JOIN lab_analytes a ON a.code = r.analyte WHERE r.loinc <> a.loinc`, 0},
		} {
			if n := dbtest.Count(t, db, row.query); n != row.want {
				t.Errorf("%s: %d, want %d", row.name, n, row.want)
			}
		}
	})
}
