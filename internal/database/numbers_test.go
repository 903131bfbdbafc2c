package database_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestYearlyNumbers: a year's patient numbers start at 1 and follow each other, whether taken
// one or several at a time, and the next year starts at 1 again; after a restore moved the
// year past 500 (Ensure), the next is 501 — on both engines (PostgreSQL: one sequence and a
// base per year, read with the sequence's value).
func TestYearlyNumbers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		y := database.Yearly{Counter: "mrn", Sequence: "patient_numbers"}
		take := func(year, n int) []int64 {
			t.Helper()
			var got []int64
			if err := db.Tx(ctx, func(tx *sql.Tx) error {
				var err error
				got, err = y.Take(ctx, tx, db.Engine, year, n)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}
		for _, c := range []struct {
			year, n int
			want    string
		}{
			{2031, 1, "[1]"}, {2031, 1, "[2]"}, {2031, 3, "[3 4 5]"}, {2032, 2, "[1 2]"}, {2032, 1, "[3]"},
		} {
			if got := fmt.Sprint(take(c.year, c.n)); got != c.want {
				t.Errorf("%d, %d numbers: %s, want %s", c.year, c.n, got, c.want)
			}
		}
		if err := y.Ensure(ctx, db, db.Engine, 2032, 500); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(take(2032, 2)); got != "[501 502]" {
			t.Errorf("after a restore to 500: %s, want [501 502]", got)
		}
	})
}
