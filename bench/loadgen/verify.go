package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
)

// The public verify page under a flood of guesses (ADR 26): its limits live in the database
// (one row per address block, one for everyone), so each look-up is a write. Measured at 1, 8
// and 32 clients beside the trivial endpoint: from one address (refused after its 20), and
// from a new IPv6 /64 each time (through a trusted proxy's X-Forwarded-For) until the limit
// for everyone refuses them too. What the clinic's staff feel is a patient's registration (a
// write, which meets the flood's writes) timed alone and while the flood runs.
func verifyBench(c *http.Client, base, label string, requests int) {
	plain := &http.Client{Transport: c.Transport}
	var block atomic.Int64
	look := func(spread bool) func() {
		return func() {
			req, _ := http.NewRequest("GET", base+"/verify/QX7K2M9PDD4RT8WA", nil)
			if spread {
				n := block.Add(1)
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("2001:db8:%x:%x::1", n>>16, n&0xffff))
			}
			resp, err := plain.Do(req)
			must(err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusTooManyRequests {
				fmt.Fprintln(os.Stderr, "loadgen: verify:", resp.Status)
				os.Exit(1)
			}
		}
	}
	fmt.Printf("| %s | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{1, 8, 32} {
		ceiling := func() { get(c, base+"/api/user") }
		clat, crps := timed(ceiling, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, s := range []struct {
			name   string
			spread bool
		}{{"verify flood, one address", false}, {"verify flood, a new /64 each", true}} {
			lat, rps := timed(look(s.spread), requests, workers)
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, workers, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/crps)
		}
	}
	// A registration at the front desk, alone and while 32 clients flood from new /64s.
	n := 0
	register := func() {
		n++
		post(c, base, "/api/patients", map[string]any{"first_name": fmt.Sprintf("Desk%d", n), "last_name": "Verify", "birth_date": "1980-02-03", "sex": "female"}, http.StatusCreated)
	}
	alone, _ := timed(register, requests/10, 1)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		flood := look(true)
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
						flood()
					}
				}
			})
		}
		wg.Wait()
	}()
	during, _ := timed(register, requests/10, 1)
	close(stop)
	<-done
	fmt.Printf("| POST /api/patients, alone | 1 | %.2f | %.2f | %.2f | | |\n", pct(alone, 50), pct(alone, 95), pct(alone, 99))
	fmt.Printf("| POST /api/patients, during a 32-client flood | 1 | %.2f | %.2f | %.2f | | %.2f (p50 alone / during) |\n", pct(during, 50), pct(during, 95), pct(during, 99), pct(alone, 50)/pct(during, 50))
}
