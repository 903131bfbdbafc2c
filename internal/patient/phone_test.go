package patient_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/textsearch"
)

// The migration that added phone keys computed them in SQL for the patients registered before
// it; that statement must give every phone the key textsearch.PhoneKey gives it at
// registration, or an old patient would stay unfound by a search that finds a new one.
func TestPhoneKeyBackfillAgreesWithRegistration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		// Every form once, each with its own number (one number twice would be a possible duplicate).
		phones := []string{"+84 912 345 671", "0084 912 345 672", "0912 345 673", " +7 912 345-67-84", "8 (912) 345-67-85",
			"+86 138 0013 8006", "138 0013 8007", "+1 415 555 0108", "+855 12 345 679", "+355 4 123 450", "+2", ""}
		for i, ph := range phones {
			create(t, c, newPatient("Key", string(rune('A'+i))+"phone", "1990-01-01", "male", ph))
		}
		src, err := os.ReadFile("../database/migrations/" + string(db.Engine) + "/00022_phone_key.sql")
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		start := strings.Index(text, "UPDATE patients SET phone_key")
		update := text[start : start+strings.Index(text[start:], ";")]
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `UPDATE patients SET phone_key = 'stale'`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, update); err != nil {
			t.Fatalf("the migration's update: %v", err)
		}
		rows, err := db.QueryContext(ctx, `SELECT phone, phone_key FROM patients WHERE first_name = 'Key'`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var phone, key string
			if err := rows.Scan(&phone, &key); err != nil {
				t.Fatal(err)
			}
			n++
			if want := textsearch.PhoneKey(phone); key != want {
				t.Errorf("phone %q: the migration gives %q, registration %q", phone, key, want)
			}
		}
		if n != len(phones) {
			t.Fatalf("%d patients read, want %d", n, len(phones))
		}
	})
}
