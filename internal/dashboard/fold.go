package dashboard

import (
	"context"
	"fmt"

	"emr/internal/database"
)

// folds move each delta table's rows into its counts, one statement per table: the deltas a
// statement deletes are the ones it adds, in one transaction, so a reader sees each change
// once, before or after. Deltas of transactions still open are left for the next fold.
var folds = []string{
	`WITH moved AS (DELETE FROM appointment_day_deltas RETURNING day, status, n)
	INSERT INTO appointment_day_counts (day, status, n) SELECT day, status, SUM(n) FROM moved GROUP BY day, status
	ON CONFLICT (day, status) DO UPDATE SET n = appointment_day_counts.n + EXCLUDED.n`,
	`WITH moved AS (DELETE FROM patient_month_deltas RETURNING month, n)
	INSERT INTO patient_month_counts (month, n) SELECT month, SUM(n) FROM moved GROUP BY month
	ON CONFLICT (month) DO UPDATE SET n = patient_month_counts.n + EXCLUDED.n`,
	`WITH moved AS (DELETE FROM patient_birth_deltas RETURNING birth_year, sex, n)
	INSERT INTO patient_birth_counts (birth_year, sex, n) SELECT birth_year, sex, SUM(n) FROM moved GROUP BY birth_year, sex
	ON CONFLICT (birth_year, sex) DO UPDATE SET n = patient_birth_counts.n + EXCLUDED.n`,
	`WITH moved AS (DELETE FROM diagnosis_month_deltas RETURNING month, code, n)
	INSERT INTO diagnosis_month_counts (month, code, n) SELECT month, code, SUM(n) FROM moved GROUP BY month, code
	ON CONFLICT (month, code) DO UPDATE SET n = diagnosis_month_counts.n + EXCLUDED.n`,
}

// Fold folds the deltas writers appended into the counts. Only PostgreSQL appends deltas
// (SQLite's one writer updates the counts directly).
func (s *Store) Fold(ctx context.Context) error {
	if s.DB.Engine != database.Postgres {
		return nil
	}
	for _, stmt := range folds {
		if _, err := s.DB.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("fold dashboard counts: %w", err)
		}
	}
	return nil
}
