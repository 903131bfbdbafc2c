package immunisation_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"emr/internal/database/dbtest"
	"emr/internal/immunisation"
)

// BenchmarkRefreshDue is one child's forecast as the due list keeps it: the child and the
// record read (12 doses, one refusal), the forecast under the clinic's schedules, and the
// child's due rows written again, in one transaction — what every write of the record costs.
// go test -run '^$' -bench RefreshDue ./internal/immunisation/ (EMR_TEST_POSTGRES_URL for both engines).
func BenchmarkRefreshDue(b *testing.B) {
	for _, e := range dbtest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			ctx := context.Background()
			db := dbtest.Migrated(b, e)
			now := time.Now().UTC()
			var id int64
			if err := db.QueryRowContext(ctx, `INSERT INTO patients (mrn, mrn_digits, first_name, last_name, sex, birth_date, name_key, sort_name, created_at, updated_at)
				VALUES ('2026-000001', '2026000001', 'Bench', 'Child', 'female', $1, 'bench child', 'child bench', $2, $2) RETURNING id`,
				now.AddDate(-1, -2, 0).Format(time.DateOnly), now).Scan(&id); err != nil {
				b.Fatal(err)
			}
			for i, v := range []string{"bcg", "hepb_paed", "dtap_ipv_hib_hepb", "pcv13", "rv1", "dtap_ipv_hib_hepb", "pcv13", "rv1", "dtap_ipv_hib_hepb", "pcv13", "mmr", "varicella"} {
				if _, err := db.ExecContext(ctx, `INSERT INTO immunisations (patient_id, kind, vaccine, occurred_on, created_at, updated_at) VALUES ($1, 'given', $2, $3, $4, $4)`,
					id, v, now.AddDate(-1, -2, 30*i).Format(time.DateOnly), now); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO immunisations (patient_id, kind, antigen, occurred_on, reason, created_at, updated_at) VALUES ($1, 'refused', 'influenza', $2, 'parent declined', $3, $3)`,
				id, now.Format(time.DateOnly), now); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := db.Tx(ctx, func(tx *sql.Tx) error { return immunisation.RefreshDue(ctx, tx, id) }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
