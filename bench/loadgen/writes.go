package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// The everyday writes (bench/README.md, "Writes"): a registration (with a phone, so both
// duplicate look-ups run), a visit's draft saved again, a prescription and a payment, each
// alone at 8 and 32 clients after the trivial endpoint at the same concurrency, against a
// seeded register. The visits and prescriptions are the doctor's (-doctor, same password);
// the rest the administrator's. Every write path change reruns it (bench/writes.sh).

type writer struct {
	admin, doctor *http.Client
	base          string
	patients      int
	visits        []int64          // one started appointment per client
	versions      []int            // each visit's version
	bills         []int64          // one final bill per client, paid a little at a time
	rx            []map[string]any // prescriptions to write (prepareRx)
	nextRx        atomic.Int64
	lastPatient   int
	phones        atomic.Int64 // each registration's own phone number (a country the seed does not use)
}

func writesBench(admin *http.Client, base, doctorName, pass, label string, patients, requests int, clients []int) {
	w := &writer{admin: admin, doctor: login(base, doctorName, pass), base: base, patients: patients}
	w.phones.Store(time.Now().UnixNano() % 100_000_000)
	w.prepare(slices.Max(clients))
	fmt.Printf("| %s | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label)
	for _, n := range clients {
		lat, ceiling := timedEach(func(int, *rand.Rand) { get(admin, base+"/api/user") }, requests, n, 20, uint64(time.Now().UnixNano()))
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", n, pct(lat, 50), pct(lat, 95), pct(lat, 99), ceiling)
		w.prepareRx(requests + 20)
		for _, s := range []struct {
			name string
			do   func(int, *rand.Rand)
		}{{"registration (with a phone)", w.register}, {"visit save (draft, one diagnosis)", w.saveVisit},
			{"prescription (one line)", w.prescribe}, {"payment (cash)", w.pay}} {
			lat, rps := timedEach(s.do, requests, n, 20, uint64(time.Now().UnixNano()))
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, n, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/ceiling)
		}
	}
}

func (w *writer) register(_ int, r *rand.Rand) {
	body := map[string]any{"first_name": randomName(r), "last_name": randomName(r), "sex": []string{"female", "male"}[r.IntN(2)],
		"birth_date": fmt.Sprintf("%d-%02d-%02d", 1940+r.IntN(80), 1+r.IntN(12), 1+r.IntN(28)),
		"phone":      fmt.Sprintf("+61 4%08d", w.phones.Add(1)%100_000_000), "history": map[string]any{"allergy_status": "none"}}
	post(w.admin, w.base, "/api/patients", body, http.StatusCreated)
}

func (w *writer) saveVisit(i int, r *rand.Rand) {
	var out struct {
		Version int `json:"version"`
	}
	path := fmt.Sprintf("/api/appointments/%d/visit", w.visits[i])
	must(json.Unmarshal(expect("PUT", path, request(w.doctor, w.base, "PUT", path, map[string]any{"version": w.versions[i],
		"chief_complaint": "Sore throat " + strconv.Itoa(r.IntN(1000)), "diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}}), http.StatusOK), &out))
	w.versions[i] = out.Version
}

// prescribe writes the next of the bodies prepareRx made.
func (w *writer) prescribe(int, *rand.Rand) {
	post(w.doctor, w.base, "/api/prescriptions", w.rx[w.nextRx.Add(1)-1], http.StatusCreated)
}

// prepareRx makes n prescription bodies, each for a seeded patient no other prescription of
// the run names (from the end of the register, so no duplicate therapy is found), with the
// safety check's findings acknowledged beforehand as the editor does (a patient whose
// allergies were never asked is a finding): the check is not part of the timed write.
func (w *writer) prepareRx(n int) {
	w.rx, w.nextRx = make([]map[string]any, n), atomic.Int64{}
	for i := range n {
		items := []map[string]any{{"medicine": "Paracetamol 500 mg tablet", "dose": "1 tablet", "frequency": "every 6 hours when needed",
			"duration": "3 days", "quantity": "12"}}
		w.lastPatient++
		body := map[string]any{"patient_id": w.patients - w.lastPatient, "items": items}
		acknowledge(w.doctor, w.base, body, items)
		w.rx[i] = body
	}
}

func (w *writer) pay(i int, _ *rand.Rand) {
	post(w.admin, w.base, fmt.Sprintf("/api/bills/%d/payments", w.bills[i]), map[string]any{"method": "cash", "amount": 100}, http.StatusCreated)
}

// prepare gives each of n clients a started visit of today and a final bill to pay.
func (w *writer) prepare(n int) {
	var me struct {
		ID int64 `json:"id"`
	}
	getJSON(w.doctor, w.base+"/api/user", &me)
	tag := strconv.FormatInt(time.Now().UnixNano()%1_000_000, 10)
	var service struct{ ID int64 }
	must(json.Unmarshal(post(w.admin, w.base, "/api/services", map[string]any{"code": "WR-" + tag, "name": "Writes bench " + tag,
		"category": "consultation", "price": 100_000_000}, http.StatusCreated), &service))
	expect("PUT", "/api/drawers/float", request(w.admin, w.base, "PUT", "/api/drawers/float", map[string]any{"opening_float": 0}), http.StatusOK)
	today := time.Now().UTC()
	w.visits, w.versions, w.bills = make([]int64, n), make([]int, n), make([]int64, n)
	slot := 0
	for i := range n {
		var a struct{ ID int64 }
		for ; ; slot++ {
			start := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC).Add(time.Duration(slot*5) * time.Minute)
			an := request(w.admin, w.base, "POST", "/api/appointments", map[string]any{"patient_id": 1 + i, "doctor_id": me.ID,
				"starts_at": start.Format(time.RFC3339), "duration_minutes": 5, "type": "walk-in"})
			status, body := an.status, an.body
			if status == http.StatusCreated {
				must(json.Unmarshal(body, &a))
				break
			}
			if status != http.StatusConflict || slot > 24*12 {
				fmt.Fprintf(os.Stderr, "loadgen: no visit for client %d: %d %s\n", i, status, body)
				os.Exit(1)
			}
		}
		post(w.admin, w.base, fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
		post(w.doctor, w.base, fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{}, http.StatusOK)
		w.visits[i] = a.ID
		var b struct {
			ID      int64 `json:"id"`
			Version int   `json:"version"`
		}
		must(json.Unmarshal(post(w.admin, w.base, fmt.Sprintf("/api/appointments/%d/bill/lines", a.ID), map[string]any{"service_id": service.ID, "quantity": 1}, http.StatusCreated), &b))
		post(w.admin, w.base, fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version}, http.StatusOK)
		w.bills[i] = b.ID
	}
}
