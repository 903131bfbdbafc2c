// Command loadgen measures the patient API of a running emr server on loopback: it logs in
// once, then runs each scenario with a fixed number of requests over a few concurrent
// workers, and prints p50/p95/p99 latency and requests per second as a Markdown table,
// with each scenario's throughput as a ratio of a trivial authenticated endpoint's.
// With -push-clients it measures instead how fast a change reaches that many live sockets;
// with -mixed, the mixed clinic workload (mixed.go); with -safety, the medicine-safety check
// (safety.go); with -verify, the public verify page under a flood of guesses (verify.go).
package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type scenario struct {
	name string
	path func(r *rand.Rand) string
}

func main() {
	base := flag.String("url", "http://127.0.0.1:18300", "server address (loopback only)")
	user := flag.String("username", "admin", "username")
	pass := flag.String("password", os.Getenv("EMR_BENCH_PASSWORD"), "password (or EMR_BENCH_PASSWORD)")
	requests := flag.Int("requests", 3000, "requests per scenario")
	workers := flag.Int("workers", 4, "concurrent workers")
	patients := flag.Int("patients", 1_000_000, "patients seeded (ids 1..N)")
	year := flag.Int("year", time.Now().Year(), "year of the seeded patient numbers")
	label := flag.String("label", "", "engine label for the table")
	appointments := flag.Bool("appointments", false, "also measure the day's queue and patients' visit histories (seeded with emr seed --appointments)")
	fees := flag.Bool("fees", false, "instead: the ceiling and the fee reports over a year of seeded bills (emr seed --bills)")
	auditEvents := flag.Int("audit", 0, "also measure the audit log viewer over this many seeded events (emr seed --audit-events)")
	pushClients := flag.Int("push-clients", 0, "instead: measure live event delivery to this many sockets")
	pushUsers := flag.Int("push-users", 50, "accounts push1…pushN (with the same password) the sockets belong to")
	pushEvents := flag.Int("push-events", 30, "events to time with -push-clients")
	pushAlerts := flag.Bool("push-alerts", false, "with -push-clients: the sockets are doctors' on the results channel, each event a critical result")
	results := flag.Int("results", 0, "instead: the ceiling, the review queue, a patient's results and a five-year trend over this many seeded results (emr seed --results), at 1, 8 and 32 clients")
	recordPanel := flag.Bool("record-panel", false, "instead: recording a 20-analyte panel at 1, 8 and 32 clients (results.go)")
	mixedMode := flag.Bool("mixed", false, "instead: the mixed clinic workload after the ceiling, -requests each, at -workers clients")
	only := flag.String("only", "", "with -mixed: one kind of the mix alone (search, chart, queue, dashboard, register, edit, book, vitals)")
	cpuPids := flag.String("cpu-pids", "", "comma-separated pids whose CPU time counts (the server)")
	cpuNames := flag.String("cpu-names", "postgres", "comma-separated process names whose CPU time counts (the database)")
	safety := flag.Bool("safety", false, "instead: the medicine-safety check at 1, 8 and 32 clients (safety.go)")
	charting := flag.Int("charting", 0, "instead: the charting aids at 1, 8 and 32 clients, for a doctor (the account) with this many visits in 90 days (charting.go)")
	fhirMode := flag.Bool("fhir", false, "instead: the FHIR API beside the native one at 1, 8 and 32 clients, a 1,000-entry batch against single creates, and a bulk export (fhir.go)")
	serverPID := flag.Int("server-pid", 0, "with -fhir: the server's pid, whose memory the export row reads")
	booking := flag.Bool("booking", false, "instead: the public booking page's slot search over 50 doctors and 60 days at 8 and 32 clients (booking.go; the server needs --trust-proxy)")
	writes := flag.String("writes", "", "instead: registration, visit save, prescription and payment at these client counts (\"8,32\"), the visits and prescriptions as -doctor (writes.go)")
	doctor := flag.String("doctor", "doctor", "with -writes: the doctor account (the same password)")
	immunisation := flag.Int("immunisation", 0, "instead: the immunisation due list and a child's forecast at 8 and 32 clients, over this many seeded children (immunisation.go)")
	verify := flag.Bool("verify", false, "instead: the public verify page flooded with guesses at 1, 8 and 32 clients (verify.go; the server needs --trust-proxy)")
	flag.Parse()
	u, err := url.Parse(*base)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		fmt.Fprintln(os.Stderr, "loadgen: the server must be on loopback")
		os.Exit(2)
	}
	client := login(*base, *user, *pass)
	if *mixedMode {
		var pids []int
		for _, p := range strings.Split(*cpuPids, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
				pids = append(pids, n)
			}
		}
		mixedRun(client, *base, *label, *only, *patients, *year, *requests, *workers, pids, strings.Split(*cpuNames, ","))
		return
	}
	if *writes != "" {
		var clients []int
		for _, n := range strings.Split(*writes, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(n))
			must(err)
			clients = append(clients, k)
		}
		writesBench(client, *base, *doctor, *pass, *label, *patients, *requests, clients)
		return
	}
	if *safety {
		safetyBench(client, *base, *label, *requests)
		return
	}
	if *immunisation > 0 {
		immunisationBench(client, *base, *label, *requests, *immunisation)
		return
	}
	if *charting > 0 {
		chartingBench(client, *base, *label, *requests, *charting)
		return
	}
	if *verify {
		verifyBench(client, *base, *label, *requests)
		return
	}
	if *booking {
		bookingBench(client, *base, *label, *requests)
		return
	}
	if *fhirMode {
		fhirBench(client, *base, *pass, *label, *patients, *year, *requests, *serverPID)
		return
	}
	if *pushClients > 0 {
		pushBench(client, *base, *pass, *label, *pushClients, *pushUsers, *pushEvents, *pushAlerts)
		return
	}

	if *results > 0 {
		resultsBench(client, *base, *label, *patients, *requests)
		return
	}
	if *recordPanel {
		recordPanelBench(client, *base, *label, *requests)
		return
	}
	scenarios := []scenario{
		{"ceiling: GET /api/user", func(*rand.Rand) string { return "/api/user" }},
		{"search by name prefix", func(r *rand.Rand) string {
			return "/api/patients?q=" + url.QueryEscape(prefixes[r.IntN(len(prefixes))])
		}},
		{"search by patient number", func(r *rand.Rand) string {
			return fmt.Sprintf("/api/patients?q=%d-%06d", *year, 1+r.IntN(*patients))
		}},
		{"list page 1", func(*rand.Rand) string { return "/api/patients?page=1&per_page=15" }},
		{"open one patient", func(r *rand.Rand) string { return fmt.Sprintf("/api/patients/%d", 1+r.IntN(*patients)) }},
	}
	if *appointments {
		var doctors struct{ Data []struct{ ID int64 } }
		resp, err := client.Get(*base + "/api/doctors")
		must(err)
		must(json.NewDecoder(resp.Body).Decode(&doctors))
		resp.Body.Close()
		// The seeded days: 1,500 days ending a month ahead (tools/demo/appointments.go).
		first := time.Now().AddDate(0, 0, 30-1500)
		scenarios = append(scenarios,
			scenario{"day queue of one doctor", func(r *rand.Rand) string {
				d := doctors.Data[r.IntN(len(doctors.Data))].ID
				return fmt.Sprintf("/api/appointments?date=%s&doctor_id=%d", first.AddDate(0, 0, r.IntN(1500)).Format(time.DateOnly), d)
			}},
			scenario{"a patient's visit history (audited)", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/appointments?patient_id=%d", 1+r.IntN(*patients))
			}},
			scenario{"dashboard: appointments (today, 30 days, own queue)", func(*rand.Rand) string { return "/api/dashboard/appointments" }},
			scenario{"dashboard: patients (register, 12 months, ages)", func(*rand.Rand) string { return "/api/dashboard/patients" }},
			scenario{"dashboard: top diagnoses this month", func(*rand.Rand) string { return "/api/dashboard/diagnoses" }},
		)
	}
	if *fees {
		// The seeded year: 365 days ending today (tools/demo/bills.go).
		today := time.Now()
		day := func(r *rand.Rand) string { return today.AddDate(0, 0, -r.IntN(365)).Format(time.DateOnly) }
		yearAgo := today.AddDate(0, 0, -364).Format(time.DateOnly)
		scenarios = append(scenarios[:1],
			scenario{"fees: a day's cash-up", func(r *rand.Rand) string { return "/api/reports/cash-up?day=" + day(r) }},
			scenario{"fees: the year's bills, a page and the totals", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/reports/bills?from=%s&to=%s&page=%d&per_page=20", yearAgo, today.Format(time.DateOnly), 1+r.IntN(100))
			}},
			scenario{"fees: a month's bills, a page and the totals", func(r *rand.Rand) string {
				from := today.AddDate(0, 0, -30-r.IntN(330))
				return fmt.Sprintf("/api/reports/bills?from=%s&to=%s&per_page=20", from.Format(time.DateOnly), from.AddDate(0, 1, -1).Format(time.DateOnly))
			}},
			scenario{"fees: the year's revenue by service", func(*rand.Rand) string {
				return fmt.Sprintf("/api/reports/revenue?from=%s&to=%s&by=service", yearAgo, today.Format(time.DateOnly))
			}},
			scenario{"fees: a month's revenue by doctor", func(r *rand.Rand) string {
				from := today.AddDate(0, 0, -30-r.IntN(330))
				return fmt.Sprintf("/api/reports/revenue?from=%s&to=%s&by=doctor", from.Format(time.DateOnly), from.AddDate(0, 1, -1).Format(time.DateOnly))
			}},
			scenario{"fees: outstanding balances, a page and the count", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/reports/outstanding?per_page=20&page=%d", 1+r.IntN(100))
			}},
			scenario{"fees: collected today (dashboard)", func(*rand.Rand) string { return "/api/reports/today" }},
			scenario{"desk: bills to pay, newest page and the count", func(*rand.Rand) string { return "/api/bills?status=unpaid&per_page=20" }},
			scenario{"desk: a bill by its number", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/bills?q=BL-%d-%06d", today.Year(), 1+r.IntN(40000))
			}},
			scenario{"desk: a patient's bills (the chart)", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/bills?patient_id=%d&per_page=10", 1+r.IntN(*patients))
			}},
		)
	}
	if *auditEvents > 0 {
		actions := []string{"patient.read", "visit.read", "appointment.create", "visit.sign", "auth.login"}
		// A cursor names a row's sort values and id: any (action, id) pair is a valid place to
		// start a page, so random ones reach deep into the log as the Next button would.
		cursor := func(r *rand.Rand) string {
			c, _ := json.Marshal(map[string]any{"v": []string{actions[r.IntN(len(actions))]}, "id": 1 + r.IntN(*auditEvents)})
			return base64.RawURLEncoding.EncodeToString(c)
		}
		scenarios = append(scenarios,
			scenario{"audit log: newest 50 events", func(*rand.Rand) string { return "/api/audit-events?per_page=50" }},
			scenario{"audit log: a deep page sorted by action (cursor)", func(r *rand.Rand) string {
				return "/api/audit-events?per_page=50&sort=action&after=" + cursor(r)
			}},
			scenario{"audit log: one patient's events", func(r *rand.Rand) string {
				return fmt.Sprintf("/api/audit-events?per_page=50&patient_id=%d", 1+r.IntN(*patients))
			}},
			scenario{"audit log: one user's failures", func(*rand.Rand) string { return "/api/audit-events?per_page=50&user=admin&outcome=failure" }},
		)
	}
	fmt.Printf("| %s | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|\n", *label)
	var ceiling float64
	for i, s := range scenarios {
		lat, rps := run(client, *base, s, *requests, *workers)
		if i == 0 {
			ceiling = rps
		}
		fmt.Printf("| %s | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/ceiling)
	}
}

func login(base, user, pass string) *http.Client {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	resp, err := c.Get(base + "/api/sanctum/csrf-cookie")
	must(err)
	resp.Body.Close()
	post(c, base, "/api/auth/login", map[string]string{"username": user, "password": pass}, http.StatusOK)
	return c
}

// run sends n requests of scenario s over workers connections (the same paths every run).
func run(c *http.Client, base string, s scenario, n, workers int) ([]float64, float64) {
	return timedEach(func(_ int, r *rand.Rand) { get(c, base+s.path(r)) }, n, workers, 50, 42)
}

// timedEach calls do n times over workers goroutines, after warmups calls, and returns each
// call's latency in ms, sorted, and the calls per second; worker k draws from its own
// generator, seeded by seed.
func timedEach(do func(int, *rand.Rand), n, workers, warmups int, seed uint64) ([]float64, float64) {
	warm := rand.New(rand.NewPCG(seed, 7))
	for range warmups {
		do(0, warm)
	}
	lat := make([]float64, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(k), seed))
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t := time.Now()
				do(k, r)
				lat[i] = float64(time.Since(t).Microseconds()) / 1000
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	return lat, float64(n) / elapsed.Seconds()
}

func get(c *http.Client, u string) {
	resp, err := c.Get(u)
	must(err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		fmt.Fprintln(os.Stderr, "loadgen:", u, resp.Status)
		os.Exit(1)
	}
}

func pct(sorted []float64, p float64) float64 {
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p/100))]
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}
