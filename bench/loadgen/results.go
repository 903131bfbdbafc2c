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
// 20-analyte panel, one order per client on its own visit, each client recording its order's
// 20 preliminary results again and again (every write converts, flags against the patient's
// limits, runs the delta rules over the patient's earlier results and replaces the current
// rows), at 1, 8 and 32 clients after the ceiling in the same run.
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
	order := func(n int) (int64, int64) {
		var p, a struct{ ID int64 }
		must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Panel", "last_name": fmt.Sprintf("Bench %d", n),
			"sex": "female", "birth_date": "1968-03-04"}, http.StatusCreated), &p))
		starts := time.Now().UTC().Add(time.Duration(3+n) * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
		must(json.Unmarshal(post(c, base, "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": docs.Data[0].ID, "starts_at": starts,
			"duration_minutes": 10, "type": "new"}, http.StatusCreated), &a))
		post(c, base, fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
		post(c, base, fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{}, http.StatusOK)
		expect("PUT", "visit", request(c, base, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0,
			"orders": []map[string]any{{"code": "CMP", "note": ""}}}), http.StatusOK)
		var orders struct{ Data []struct{ ID, Version int64 } }
		getJSON(c, fmt.Sprintf("%s/api/appointments/%d/orders", base, a.ID), &orders)
		return orders.Data[0].ID, orders.Data[0].Version
	}
	made := 0
	for _, workers := range []int{1, 8, 32} {
		ids, versions := make([]int64, workers), make([]int64, workers)
		for w := range workers {
			ids[w], versions[w] = order(made)
			made++
		}
		_, ceiling := run(c, base, scenario{"ceiling", func(*rand.Rand) string { return "/api/user" }}, requests, workers)
		// Each write takes a free order (as many orders as clients) and gives it back.
		free := make(chan int, workers)
		for w := range workers {
			free <- w
		}
		lat, rps := timed(func() {
			w := <-free
			var out struct{ Order struct{ Version int64 } }
			body := map[string]any{"version": versions[w], "final": false, "results": results}
			must(json.Unmarshal(expect("PUT", "results", request(c, base, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", ids[w]), body), http.StatusOK), &out))
			versions[w] = out.Order.Version
			free <- w
		}, requests, workers)
		fmt.Printf("| %s, %d client(s) | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|\n", label, workers)
		fmt.Printf("| ceiling: GET /api/user | | | | %.0f | 1.00 |\n", ceiling)
		fmt.Printf("| record a 20-analyte panel (preliminary, again) | %.2f | %.2f | %.2f | %.0f | %.2f |\n\n", pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/ceiling)
	}
}
