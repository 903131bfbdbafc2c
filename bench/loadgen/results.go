package main

import (
	"encoding/json"
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

// panelAnalytes are the 20 analytes of the panel recordPanel writes: the comprehensive
// metabolic panel's 14 with direct bilirubin, urate and the lipids, each with its unit.
var panelAnalytes = []struct{ code, unit, value string }{
	{"GLU", "mmol/L", "5.4"}, {"NA", "mmol/L", "139"}, {"K", "mmol/L", "4.2"}, {"CL", "mmol/L", "101"}, {"HCO3", "mmol/L", "25"},
	{"UREA", "mmol/L", "5.1"}, {"CREA", "umol/L", "88"}, {"CA", "mmol/L", "2.35"}, {"TP", "g/L", "70"}, {"ALB", "g/L", "42"},
	{"ALP", "U/L", "80"}, {"ALT", "U/L", "25"}, {"AST", "U/L", "22"}, {"TBIL", "umol/L", "10"}, {"DBIL", "umol/L", "3"},
	{"URATE", "umol/L", "300"}, {"CHOL", "mmol/L", "4.8"}, {"HDL", "mmol/L", "1.4"}, {"LDL", "mmol/L", "2.6"}, {"TG", "mmol/L", "1.2"},
}

// recordPanelBench measures recording a 20-analyte panel (issue 52): the clinic's CMP made a
// 20-analyte panel, ordered on as many visits (a patient each) as there are writes, each write
// the panel's first recording on its own order, final (every write converts, flags against the
// patient's limits, runs the delta rules over the patient's earlier results, raises nothing
// critical, keeps the order's version and audits), at 1, 8 and 32 clients after the ceiling in
// the same run. (Recording one order again and again would measure its growing history of
// replaced results instead.)
func recordPanelBench(c *http.Client, base, label string, requests int) {
	codes := make([]string, len(panelAnalytes))
	results := make([]map[string]any, len(panelAnalytes))
	for i, a := range panelAnalytes {
		codes[i] = a.code
		results[i] = map[string]any{"analyte": a.code, "unit": a.unit, "value": a.value}
	}
	expect("PUT", "panel", request(c, base, "PUT", "/api/lab-test-definitions/CMP",
		map[string]any{"loinc": "", "turnaround_hours": 24, "analytes": codes}), http.StatusOK)
	var docs struct{ Data []struct{ ID int64 } }
	getJSON(c, base+"/api/doctors", &docs)
	slot := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Hour)
	type ordered struct{ id, version int64 }
	made := 0
	order := func() ordered {
		var p, a struct{ ID int64 }
		made++
		born := time.Date(1940, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 7*made+int(time.Now().UnixNano()%7)).Format(time.DateOnly)
		must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": fmt.Sprintf("Panel%d", made), "last_name": fmt.Sprintf("Bench%d", made),
			"sex": "female", "birth_date": born}, http.StatusCreated), &p))
		for booked := false; !booked; { // the first free quarter hour (seeded visits fill the days)
			slot = slot.Add(15 * time.Minute)
			r := request(c, base, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": docs.Data[0].ID,
				"starts_at": slot.Format(time.RFC3339), "duration_minutes": 15, "type": "follow-up"})
			booked = r.status == http.StatusCreated
			if booked {
				must(json.Unmarshal(r.body, &a))
			} else {
				expect("POST", "/api/appointments", r, http.StatusConflict)
			}
		}
		post(c, base, fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
		post(c, base, fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{}, http.StatusOK)
		expect("PUT", "visit", request(c, base, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0,
			"orders": []map[string]any{{"code": "CMP", "note": ""}}}), http.StatusOK)
		var orders struct{ Data []struct{ ID, Version int64 } }
		getJSON(c, fmt.Sprintf("%s/api/appointments/%d/orders", base, a.ID), &orders)
		return ordered{orders.Data[0].ID, orders.Data[0].Version}
	}
	for _, workers := range []int{1, 8, 32} {
		// One order per write (and 20 for the timer's warm-up), made before the clock starts.
		free := make(chan ordered, requests+20)
		for range requests + 20 {
			free <- order()
		}
		_, ceiling := run(c, base, scenario{"ceiling", func(*rand.Rand) string { return "/api/user" }}, requests, workers)
		lat, rps := timed(func() {
			o := <-free
			body := map[string]any{"version": o.version, "final": true, "results": results}
			expect("PUT", "results", request(c, base, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.id), body), http.StatusOK)
		}, requests, workers)
		fmt.Printf("| %s, %d client(s) | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|\n", label, workers)
		fmt.Printf("| ceiling: GET /api/user | | | | %.0f | 1.00 |\n", ceiling)
		fmt.Printf("| record a 20-analyte panel (final, a new order each) | %.2f | %.2f | %.2f | %.0f | %.2f |\n\n", pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/ceiling)
	}
}
