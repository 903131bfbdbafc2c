package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// resultsBench measures the results' reads over seeded results (emr seed --results, with the
// benchmark's account as the reviewer of one order in a hundred): the ceiling, the account's
// review queue (critical first, then abnormal, then oldest: one index range), a random
// patient's results table, and a random patient's five-year trend of potassium, each at 1,
// 8 and 32 clients after its own ceiling in the same run.
func resultsBench(c *http.Client, base, label string, patients, requests int) {
	from := time.Now().AddDate(-5, 0, 0).Format(time.DateOnly)
	scenarios := []scenario{
		{"ceiling: GET /api/user", func(*rand.Rand) string { return "/api/user" }},
		{"results to review (the doctor's queue)", func(*rand.Rand) string { return "/api/results/review" }},
		{"a patient's results table (audited)", func(r *rand.Rand) string { return fmt.Sprintf("/api/patients/%d/orders", 1+r.IntN(patients)) }},
		{"a five-year trend of potassium (audited)", func(r *rand.Rand) string {
			return fmt.Sprintf("/api/patients/%d/trend?analyte=K&from=%s", 1+r.IntN(patients), from)
		}},
	}
	for _, workers := range []int{1, 8, 32} {
		fmt.Printf("| %s, %d client(s) | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|\n", label, workers)
		var ceiling float64
		for i, s := range scenarios {
			lat, rps := run(c, base, s, requests, workers)
			if i == 0 {
				ceiling = rps
			}
			fmt.Printf("| %s | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/ceiling)
		}
		fmt.Println()
	}
}
