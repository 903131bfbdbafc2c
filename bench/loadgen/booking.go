package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The public booking page's slot search (ADR 43) over 50 doctors taking online bookings every
// day 08:00–17:00 (a break 12:00–13:00, 20-minute first visits) for 60 days ahead, each with
// one desk appointment a day in those 60 days. Measured at 8 and 32 clients beside the public
// trivial endpoint (/api/health): one doctor's 14 days, and any doctor's 7 days, from a random
// day of the 60. Each search comes from a new IPv6 /64 (a trusted proxy's X-Forwarded-For),
// so the per-block read budget does not refuse the load generator.
func bookingBench(c *http.Client, base, label string, requests int) {
	var docs struct{ Data []struct{ ID int64 } }
	getJSON(c, base+"/api/doctors", &docs)
	if len(docs.Data) < 50 {
		fmt.Fprintln(os.Stderr, "loadgen: -booking needs 50 doctor accounts")
		os.Exit(1)
	}
	doctors := docs.Data[:50]
	week := make([]map[string]any, 7)
	for i := range week {
		week[i] = map[string]any{"open": "08:00", "close": "17:00", "breaks": []map[string]string{{"from": "12:00", "to": "13:00"}}}
	}
	var rules []map[string]any
	for _, d := range doctors {
		rules = append(rules, map[string]any{"doctor_id": d.ID, "enabled": true, "specialty": "General practice",
			"offers": []map[string]any{{"type": "new", "slot_minutes": 20}}, "week": week, "days_off": []any{}})
	}
	var current struct{ Version int }
	getJSON(c, base+"/api/settings/online-booking", &current)
	expect("PUT", "settings", request(c, base, "PUT", "/api/settings/online-booking", map[string]any{"enabled": true, "auto_book": false,
		"ahead_days": 60, "notice_minutes": 0, "holidays": []any{}, "doctors": rules, "version": current.Version}), http.StatusOK)
	// One desk appointment per doctor and day, at a random free slot time (written by 8 clients).
	var p struct{ ID int64 }
	must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Slot", "last_name": "Bench", "sex": "female", "birth_date": "1980-01-02"}, http.StatusCreated), &p))
	today := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(next.Load()), 7))
			for {
				i := int(next.Add(1) - 1)
				if i >= 50*60 {
					return
				}
				d, day := doctors[i%50], today.AddDate(0, 0, 1+i/50)
				hour := []int{8, 9, 10, 11, 13, 14, 15, 16}[r.IntN(8)]
				start := time.Date(day.Year(), day.Month(), day.Day(), hour, 0, 0, 0, time.Local).UTC().Format(time.RFC3339)
				expect("POST", "appointment", request(c, base, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": d.ID,
					"starts_at": start, "duration_minutes": 20, "type": "follow-up"}), http.StatusCreated)
			}
		})
	}
	wg.Wait()
	plain := &http.Client{Transport: c.Transport}
	var block atomic.Int64
	search := func(doctor string, days int) func() {
		return func() {
			from := today.AddDate(0, 0, rand.IntN(60-days)).Format(time.DateOnly)
			req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/book/slots?type=new&doctor_id=%s&days=%d&from=%s", base, doctor, days, from), nil)
			n := block.Add(1)
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("2001:db8:%x:%x::1", n>>16, n&0xffff))
			resp, err := plain.Do(req)
			must(err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				fmt.Fprintln(os.Stderr, "loadgen: slots:", resp.Status)
				os.Exit(1)
			}
		}
	}
	one := fmt.Sprint(doctors[len(doctors)/2].ID)
	fmt.Printf("| %s | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{8, 32} {
		clat, crps := timed(func() { get(plain, base+"/api/health") }, requests, workers)
		fmt.Printf("| ceiling: GET /api/health | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, s := range []struct {
			name string
			do   func()
		}{{"slots: one doctor, 14 days", search(one, 14)}, {"slots: any of 50 doctors, 7 days", search("any", 7)}} {
			lat, rps := timed(s.do, requests, workers)
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, workers, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/crps)
		}
	}
}
