package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The medicine-safety check (ADR 25) under load: a patient with three recorded allergies
// and 30 prescriptions of the last 90 days (90 lines, each read for duplicates and
// interactions), and a five-line prescription being written — brands, a combination, free
// text in three scripts — checked as the editor does while the doctor types. Measured at 1,
// 8 and 32 clients, each beside the trivial endpoint at the same concurrency; with the read
// of the Medicine safety screen (the knowledge's sizes, the clinic's additions, 250 names).

var safetyLines = []map[string]any{
	{"medicine": "Amoxiclav 625 mg", "quantity": "14", "duration": "7 days"},
	{"medicine": "Neozep Forte", "quantity": "10", "duration": "5 days"},
	{"medicine": "Ибупрофен 400 мг", "quantity": "20", "duration": "10 дней"},
	{"medicine": "阿奇霉素片 0.25g", "quantity": "6", "duration": "3天"},
	{"medicine": "Omeprazole 20 mg", "quantity": "28", "duration": "28 days"},
}

var currentMedicines = []string{"Warfarin 5 mg", "Amlodipine 5 mg", "Metformin 500 mg", "Atorvastatin 20 mg", "Clopidogrel 75 mg", "Levothyroxine 50 mcg"}

func safetyBench(c *http.Client, base, label string, requests int) {
	var p struct{ ID int64 }
	must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Bench", "last_name": "Safety", "birth_date": "1950-01-01", "sex": "female",
		"history": map[string]any{"allergy_status": "present", "allergies": []map[string]string{
			{"substance": "Penicillin", "reaction": "anaphylaxis", "severity": "severe"},
			{"substance": "Aspirin, sulfa", "reaction": "urticaria", "severity": "moderate"},
			{"substance": "Nitroxoline", "reaction": "rash", "severity": "mild"}}}}, http.StatusCreated), &p))
	for i := range 30 {
		var items []map[string]any
		for j := range 3 {
			items = append(items, map[string]any{"medicine": currentMedicines[(i+j)%len(currentMedicines)], "quantity": "30", "duration": "30 days"})
		}
		body := map[string]any{"patient_id": p.ID, "items": items}
		acknowledge(c, base, body, items)
		post(c, base, "/api/prescriptions", body, http.StatusCreated)
	}
	check := map[string]any{"patient_id": p.ID, "items": safetyLines}
	fmt.Printf("| %s | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{1, 8, 32} {
		ceiling := func() { get(c, base+"/api/user") }
		checkOnce := func() { post(c, base, "/api/prescriptions/check", check, http.StatusOK) }
		knowledge := func() { get(c, base+"/api/medicine-safety") }
		clat, crps := timed(ceiling, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, s := range []struct {
			name string
			do   func()
		}{{"check 5 lines (3 allergies, 90 current lines)", checkOnce}, {"GET /api/medicine-safety (the admin screen)", knowledge}} {
			lat, rps := timed(s.do, requests, workers)
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, workers, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/crps)
		}
	}
}

// timed runs do n times over workers goroutines, after a warm-up, and returns the sorted
// latencies in milliseconds and the throughput.
func timed(do func(), n, workers int) ([]float64, float64) {
	for range 20 {
		do()
	}
	lat := make([]float64, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t := time.Now()
				do()
				lat[i] = float64(time.Since(t).Microseconds()) / 1000
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	return lat, float64(n) / elapsed.Seconds()
}
