package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The mixed clinic workload (bench/README.md): per 100 requests about 40 patient searches,
// 20 chart opens, 15 queue reads, 10 dashboard reads, 5 registrations, 5 patient edits, 3
// bookings and 2 vitals saves, drawn at random by every client. It is measured after the
// ceiling endpoint at the same concurrency, in the same run, and reports the CPU the server
// and the database used (from /proc) as requests per CPU-second.
var mix = []struct {
	kind   string
	weight int
}{
	{"search", 40}, {"chart", 20}, {"queue", 15}, {"dashboard", 10},
	{"register", 5}, {"edit", 5}, {"book", 3}, {"vitals", 2},
}

type mixed struct {
	c        *http.Client
	base     string
	patients int
	year     int
	doctors  []int64
	today    time.Time
	booked   atomic.Int64 // bookings refused as double-booked (a real outcome, counted)
}

// worker is one client's own records: the patients it registered (to edit) and its visit.
type worker struct {
	r        *rand.Rand
	mine     []ownPatient
	visit    int64 // an arrived appointment of today, for vitals
	visitVer int
}

type ownPatient struct {
	id      int64
	version int
	body    map[string]any
}

var prefixes = []string{"nguy", "tran", "ива", "смир", "王", "李", "smit", "john", "pham van", "петров ан", "le thi", "garc"}

func (m *mixed) pick(r *rand.Rand) string {
	n := r.IntN(100)
	for _, k := range mix {
		if n < k.weight {
			return k.kind
		}
		n -= k.weight
	}
	return mix[0].kind
}

// do sends one request of kind and returns its status.
func (m *mixed) do(w *worker, kind string) {
	r := w.r
	switch kind {
	case "search":
		if r.IntN(4) == 0 {
			m.get(fmt.Sprintf("/api/patients?q=%d-%06d", m.year, 1+r.IntN(m.patients)))
			return
		}
		m.get("/api/patients?q=" + url.QueryEscape(prefixes[r.IntN(len(prefixes))]))
	case "chart":
		m.get(fmt.Sprintf("/api/patients/%d", 1+r.IntN(m.patients)))
	case "queue":
		d := m.doctors[r.IntN(len(m.doctors))]
		m.get(fmt.Sprintf("/api/appointments?date=%s&doctor_id=%d", m.today.Format(time.DateOnly), d))
	case "dashboard":
		m.get([]string{"/api/dashboard/appointments", "/api/dashboard/patients", "/api/dashboard/diagnoses"}[r.IntN(3)])
	case "register":
		body := map[string]any{"first_name": randomName(r), "last_name": randomName(r), "sex": []string{"female", "male"}[r.IntN(2)],
			"birth_date": fmt.Sprintf("%d-%02d-%02d", 1940+r.IntN(80), 1+r.IntN(12), 1+r.IntN(28)), "history": map[string]any{"allergy_status": "none"}}
		var p struct {
			ID      int64 `json:"id"`
			Version int   `json:"version"`
		}
		must(json.Unmarshal(m.send("POST", "/api/patients", body, http.StatusCreated), &p))
		w.mine = append(w.mine, ownPatient{p.ID, p.Version, body})
	case "edit":
		if len(w.mine) == 0 {
			m.do(w, "register")
			return
		}
		p := &w.mine[r.IntN(len(w.mine))]
		p.body["address"] = fmt.Sprintf("%d Main Street", r.IntN(1000))
		p.body["version"] = p.version
		var out struct {
			Version int `json:"version"`
		}
		must(json.Unmarshal(m.send("PUT", fmt.Sprintf("/api/patients/%d", p.id), p.body, http.StatusOK), &out))
		p.version = out.Version
	case "book":
		// A free slot far ahead (nothing is seeded there); a slot taken by an earlier run is
		// refused as double-booked, which is also a full request.
		day := m.today.AddDate(0, 0, 60+r.IntN(3000))
		start := time.Date(day.Year(), day.Month(), day.Day(), 8+r.IntN(9), 15*r.IntN(4), 0, 0, time.UTC)
		a := m.request("POST", "/api/appointments", map[string]any{"patient_id": 1 + r.IntN(m.patients),
			"doctor_id": m.doctors[r.IntN(len(m.doctors))], "starts_at": start.Format(time.RFC3339), "duration_minutes": 15, "type": "follow-up"})
		if expect("POST", "/api/appointments", a, http.StatusCreated, http.StatusConflict); a.status == http.StatusConflict {
			m.booked.Add(1)
		}
	case "vitals":
		if w.visit == 0 {
			m.do(w, "chart")
			return
		}
		var out struct {
			Version int `json:"version"`
		}
		must(json.Unmarshal(m.send("PUT", fmt.Sprintf("/api/appointments/%d/visit/vitals", w.visit),
			map[string]any{"version": w.visitVer, "vitals": map[string]any{"heart_rate": 60 + r.IntN(40), "temperature": 36.6}}, http.StatusOK), &out))
		w.visitVer = out.Version
	}
}

// prepare gives worker i an arrived appointment of today (between midnight and 8:00, where
// nothing is seeded, at the first slot an earlier run left free) for its vitals.
func (m *mixed) prepare(i, workers int, w *worker) {
	var resp answer
	for k := 0; ; k++ {
		slot := i + k*workers
		d, minute := m.doctors[slot%len(m.doctors)], 5*(slot/len(m.doctors))
		if minute >= 8*60-5 {
			fmt.Fprintf(os.Stderr, "loadgen: no free slot for worker %d; it opens charts instead of saving vitals\n", i)
			return
		}
		start := time.Date(m.today.Year(), m.today.Month(), m.today.Day(), 0, minute, 0, 0, time.UTC)
		resp = m.request("POST", "/api/appointments", map[string]any{"patient_id": 1 + slot, "doctor_id": d,
			"starts_at": start.Format(time.RFC3339), "duration_minutes": 5, "type": "walk-in"})
		if resp.status == http.StatusCreated {
			break
		}
		if resp.status != http.StatusConflict {
			fmt.Fprintf(os.Stderr, "loadgen: no visit for worker %d (%d %s); it opens charts instead of saving vitals\n", i, resp.status, resp.body)
			return
		}
	}
	var a struct{ ID int64 }
	must(json.Unmarshal(resp.body, &a))
	m.send("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
	var v struct {
		Version int `json:"version"`
	}
	must(json.Unmarshal(m.getBody(fmt.Sprintf("/api/appointments/%d/visit", a.ID)), &v))
	w.visit, w.visitVer = a.ID, v.Version
}

func randomName(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := []byte{byte('A' + r.IntN(26))}
	for range 4 + r.IntN(5) {
		b = append(b, letters[r.IntN(len(letters))])
	}
	return string(b)
}

func (m *mixed) get(path string) { m.getBody(path) }

func (m *mixed) getBody(path string) []byte { return m.send("GET", path, nil, http.StatusOK) }

func (m *mixed) send(method, path string, body any, want ...int) []byte {
	return expect(method, path, m.request(method, path, body), want...)
}

func (m *mixed) request(method, path string, body any) answer {
	return request(m.c, m.base, method, path, body)
}

// cpuSeconds is the CPU time (user + system) used so far by the processes whose pid is in
// pids or whose command name is in names.
func cpuSeconds(pids []int, names []string) float64 {
	entries, _ := os.ReadDir("/proc")
	var ticks float64
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		comm := s[open+1 : closing]
		if !slices.Contains(pids, pid) && !slices.Contains(names, comm) {
			continue
		}
		f := strings.Fields(s[closing+2:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseFloat(f[11], 64) // utime: field 14 of stat
		k, _ := strconv.ParseFloat(f[12], 64) // stime
		ticks += u + k
	}
	return ticks / 100 // USER_HZ
}

// mixedRun measures the ceiling and then the mixed workload with workers clients for n
// requests each, printing one Markdown table.
func mixedRun(c *http.Client, base, label, only string, patients, year, n, workers int, pids []int, names []string) {
	m := &mixed{c: c, base: base, patients: patients, year: year, today: time.Now().UTC()}
	var doctors struct{ Data []struct{ ID int64 } }
	must(json.Unmarshal(m.getBody("/api/doctors"), &doctors))
	for _, d := range doctors.Data {
		m.doctors = append(m.doctors, d.ID)
	}
	ws := make([]*worker, workers)
	for i := range ws {
		ws[i] = &worker{r: rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))}
		m.prepare(i, workers, ws[i])
	}
	type cpu struct{ server, db float64 } // seconds
	used := func() cpu { return cpu{cpuSeconds(pids, nil), cpuSeconds(nil, names)} }
	var kinds []string // the kind of each request of the last measure
	measure := func(one func(w *worker) string) (lat []float64, rps float64, spent cpu) {
		lat, kinds = make([]float64, n), make([]string, n)
		var next atomic.Int64
		var wg sync.WaitGroup
		before := used()
		start := time.Now()
		for _, w := range ws {
			wg.Go(func() {
				for {
					i := next.Add(1) - 1
					if i >= int64(n) {
						return
					}
					t := time.Now()
					kinds[i] = one(w)
					lat[i] = float64(time.Since(t).Microseconds()) / 1000
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start).Seconds()
		after := used()
		return lat, float64(n) / elapsed, cpu{after.server - before.server, after.db - before.db}
	}
	for range 100 { // warm-up
		m.do(ws[0], m.pick(ws[0].r))
	}
	name, kind := "mixed clinic workload", func(w *worker) string { return m.pick(w.r) }
	if only != "" {
		name, kind = "only: "+only, func(*worker) string { return only }
	}
	cl, crps, ccpu := measure(func(*worker) string { m.get("/api/user"); return "ceiling" })
	slices.Sort(cl)
	ml, mrps, mcpu := measure(func(w *worker) string { k := kind(w); m.do(w, k); return k })
	byKind := map[string][]float64{}
	for i, k := range kinds {
		byKind[k] = append(byKind[k], ml[i])
	}
	slices.Sort(ml)
	fmt.Printf("| %s, %d clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling | req per CPU-second (server + database) | server CPU ms/req | database CPU ms/req |\n|---|---|---|---|---|---|---|---|---|\n", label, workers)
	row := func(what string, lat []float64, rps float64, c cpu, ratio float64) {
		fmt.Printf("| %s | %.2f | %.2f | %.2f | %.0f | %.2f | %.0f | %.3f | %.3f |\n", what, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, ratio,
			float64(n)/(c.server+c.db), 1000*c.server/float64(n), 1000*c.db/float64(n))
	}
	row("ceiling: GET /api/user", cl, crps, ccpu, 1)
	row(name, ml, mrps, mcpu, mrps/crps)
	if only == "" {
		fmt.Printf("\nBy kind (the requests of the mix above): ")
		for _, k := range mix {
			if l := byKind[k.kind]; len(l) > 0 {
				slices.Sort(l)
				fmt.Printf("%s p50 %.1f / p99 %.1f ms (%d); ", k.kind, pct(l, 50), pct(l, 99), len(l))
			}
		}
		fmt.Println()
	}
	if k := m.booked.Load(); k > 0 {
		fmt.Printf("\n(%d bookings were refused as double-booked by an earlier run's booking: full requests all the same.)\n", k)
	}
}
