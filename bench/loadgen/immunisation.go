package main

import (
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
)

// The clinic's immunisation due list (issue 59) at 20,000 children: its first page, a page
// filtered by status, band and antigen, and a deep page by its cursor (keyset, no OFFSET);
// and one child's forecast (the record's GET, when the server has it). At 8 and 32 clients,
// each beside the trivial endpoint at the same concurrency.
func immunisationBench(c *http.Client, base, label string, requests, children int) {
	var deep struct {
		Next *string `json:"next"`
	}
	// A cursor some twenty pages in: the list's order is due day, child, antigen.
	cursor := ""
	for range 20 {
		getJSON(c, base+"/api/immunisation/due?limit=50&after_id="+url.QueryEscape(cursor), &deep)
		if deep.Next == nil {
			break
		}
		cursor = *deep.Next
	}
	forecast := true
	if resp, err := c.Get(base + "/api/patients/1/immunisations"); err != nil || resp.StatusCode != http.StatusOK {
		forecast = false
	} else {
		resp.Body.Close()
	}
	var n atomic.Int64
	scenarios := []struct {
		name string
		do   func()
	}{
		{"due list, first page (50, all statuses, counts)", func() { get(c, base+"/api/immunisation/due?status=all&limit=50") }},
		{"overdue, 1–2 years, one antigen", func() { get(c, base+"/api/immunisation/due?status=overdue&band=1-2y&antigen=measles&limit=50") }},
		{"due, not yet overdue (first page, counts)", func() { get(c, base+"/api/immunisation/due?status=due&limit=50") }},
		{"a page 20 pages in (keyset)", func() { get(c, base+"/api/immunisation/due?limit=50&after_id="+url.QueryEscape(cursor)) }},
	}
	if forecast {
		scenarios = append(scenarios, struct {
			name string
			do   func()
		}{"one child's forecast (GET /api/patients/{id}/immunisations)", func() {
			get(c, fmt.Sprintf("%s/api/patients/%d/immunisations", base, 1+int(n.Add(1))%children))
		}})
	}
	fmt.Printf("| %s | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{8, 32} {
		clat, crps := timed(func() { get(c, base+"/api/user") }, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, s := range scenarios {
			lat, rps := timed(s.do, requests, workers)
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, workers, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/crps)
		}
	}
	if !forecast {
		fmt.Printf("\n(%s: GET /api/patients/{id}/immunisations is not served by this build: the child's forecast is measured by the Go benchmark instead.)\n", label)
	}
}
