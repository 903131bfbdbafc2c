package prescription_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/prescription"
)

// TestCurrentMedicinesBySupplyEnd: a referral's current medicines are the issued lines whose
// supply still runs, however long ago they were written — a 6-month warfarin on day 100, 90
// tablets "1 daily" on day 40 — and not a month's supply of day 40 (the pharmacist's review of
// the refill window, M4).
func TestCurrentMedicinesBySupplyEnd(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		now := time.Now().UTC()
		for _, c := range []struct {
			item    map[string]any
			daysAgo int
		}{
			{map[string]any{"medicine": "Warfarin 5 mg", "duration": "6 months"}, 100},
			{map[string]any{"medicine": "Bisoprolol 5 mg", "quantity": "90", "frequency": "1 daily"}, 40},
			{map[string]any{"medicine": "Amlodipine 5 mg", "duration": "1 month"}, 40},
			{map[string]any{"medicine": "Metformin 500 mg", "duration": "1 year"}, 400}, // past the year read
		} {
			var rx struct{ ID int64 }
			r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{c.item}})
			if r.Status != http.StatusCreated {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			r.JSON(t, &rx)
			at := now.AddDate(0, 0, -c.daysAgo)
			if _, err := db.Exec(`UPDATE prescriptions SET status = 'issued', created_at = $1, issued_at = $1 WHERE id = $2`, at, rx.ID); err != nil {
				t.Fatal(err)
			}
		}
		got, err := prescription.CurrentMedicines(context.Background(), db, s.patientID, now)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, c := range got {
			texts = append(texts, c.Text)
		}
		slices.Sort(texts)
		if want := []string{"Bisoprolol 5 mg, 1 daily", "Warfarin 5 mg"}; !slices.Equal(texts, want) {
			t.Errorf("current medicines %q, want %q", texts, want)
		}
	})
}

// TestCurrentMedicinesHoldOneConnectionAtATime: reading a patient's current medicines never
// asks the pool for a second connection while holding one (the pool is left one free). It did (the prescriptions' rows
// stayed open while the lines' stops were read): eight documents issued at once took the
// eight connections of SQLite's pool, each waiting for a ninth, and the server hung.
func TestCurrentMedicinesHoldOneConnectionAtATime(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		if r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{map[string]any{"medicine": "Warfarin 5 mg", "duration": "6 months"}}}); r.Status != http.StatusCreated {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if _, err := db.Exec(`UPDATE prescriptions SET status = 'issued', issued_at = created_at`); err != nil {
			t.Fatal(err)
		}
		dbtest.OneConnectionFree(db)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := prescription.CurrentMedicines(ctx, db, s.patientID, time.Now().UTC())
		if err != nil || len(got) != 1 {
			t.Fatalf("with one connection: %v, %v", got, err)
		}
	})
}
