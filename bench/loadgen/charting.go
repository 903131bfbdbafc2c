package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The charting aids (issue 37) under load. The benchmark's account is a doctor with `visits`
// visits in the 90 days "most used" reads (each visit with a diagnosis, a test and a two-line
// prescription: what "most used" reads), with two favourites of each kind. Measured at 1, 8
// and 32 clients, each beside the trivial endpoint at the same concurrency: the pickers'
// favourites and most used, the order sets, the snippets, a visit's chart values, and the
// safety check of a set's two lines as the set's dialog runs it. Applying a set (a write of
// the visit and a prescription in one transaction) is timed at one client on a visit of its
// own each time.

var chartingCodes = []string{"I10", "E11.9", "J06.9", "N39.0", "A09", "K52.9", "R50.9"}
var chartingTests = []string{"LIPID", "HBA1C", "CBC", "UA", "CREA", "BMP"}

func chartingBench(c *http.Client, base, label string, requests, visits int) {
	var me struct{ ID int64 }
	getJSON(c, base+"/api/user", &me)
	var meds struct {
		Data []struct {
			ID    int64  `json:"id"`
			Label string `json:"label"`
		} `json:"data"`
	}
	getJSON(c, base+"/api/medicines?per_page=20", &meds)
	var p struct{ ID int64 }
	must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Bench", "last_name": "Charting", "birth_date": "1960-05-01", "sex": "male",
		"history": map[string]any{"allergy_status": "none"}}, http.StatusCreated), &p))
	// The API books no day in the past: the visits run from tomorrow on, 40 a day, which the
	// 90 days' "most used" reads all the same (it reads from 90 days ago on).
	start := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	open := func(patientID int64, i int) int64 { // a started visit of the doctor's, i slots from start
		var a struct{ ID int64 }
		must(json.Unmarshal(post(c, base, "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": me.ID,
			"starts_at": start.Add(time.Duration(i)*10*time.Minute + time.Duration(i/40)*14*time.Hour).Format(time.RFC3339), "duration_minutes": 10, "type": "follow-up"}, http.StatusCreated), &a))
		post(c, base, fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
		post(c, base, fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{}, http.StatusOK)
		return a.ID
	}
	line := func(k int) map[string]any {
		m := meds.Data[k%len(meds.Data)]
		return map[string]any{"medicine_id": m.ID, "medicine": m.Label, "dose": "1", "route": "oral", "frequency": "daily", "duration": "30 days", "quantity": "30",
			"override_reason": "bench", "overrides": []string{}}
	}
	var appt int64
	for i := range visits {
		appt = open(p.ID, i)
		expect("PUT", "visit", request(c, base, "PUT", fmt.Sprintf("/api/appointments/%d/visit", appt), map[string]any{"version": 0,
			"diagnoses": []map[string]any{{"code": chartingCodes[i%len(chartingCodes)], "primary": true}}, "orders": []map[string]any{{"code": chartingTests[i%len(chartingTests)]}}}), http.StatusOK)
		// Written on the blank form (no safety findings against the patient's other lines),
		// which counts for "most used" all the same.
		items := []map[string]any{line(i), line(i + 1)}
		acknowledge(c, base, map[string]any{"items": items}, items)
		post(c, base, "/api/prescriptions", map[string]any{"items": items}, http.StatusCreated)
	}
	for _, f := range []string{"code/I10", "code/E11.9", "test/LIPID", "test/HBA1C", fmt.Sprintf("medicine/%d", meds.Data[0].ID), fmt.Sprintf("medicine/%d", meds.Data[1].ID)} {
		expect("PUT", f, request(c, base, "PUT", "/api/favourites/"+f, map[string]any{}), http.StatusNoContent)
	}
	var sets struct {
		Data []struct {
			ID      int64           `json:"id"`
			Content json.RawMessage `json:"content"`
		} `json:"data"`
	}
	getJSON(c, base+"/api/order-sets", &sets)
	twoLines := map[string]any{"appointment_id": appt, "items": []map[string]any{line(0), line(5)}}

	fmt.Printf("| %s (%d visits in 90 days) | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling |\n|---|---|---|---|---|---|---|\n", label, visits)
	for _, workers := range []int{1, 8, 32} {
		clat, crps := timed(func() { get(c, base+"/api/user") }, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, s := range []struct {
			name string
			do   func()
		}{
			{"GET /api/favourites (favourites, then 90 days' most used)", func() { get(c, base+"/api/favourites") }},
			{"GET /api/order-sets", func() { get(c, base+"/api/order-sets") }},
			{"GET /api/snippets", func() { get(c, base+"/api/snippets") }},
			{"GET chart values of a visit (audited)", func() { get(c, fmt.Sprintf("%s/api/appointments/%d/chart-values", base, appt)) }},
			{"check a set's two lines", func() { post(c, base, "/api/prescriptions/check", twoLines, http.StatusOK) }},
		} {
			lat, rps := timed(s.do, requests, workers)
			fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f |\n", s.name, workers, pct(lat, 50), pct(lat, 95), pct(lat, 99), rps, rps/crps)
		}
	}
	// Applying the example hypertension set (diagnosis, two tests, plan, follow-up, a line) to
	// a fresh started visit of a patient of its own, one at a time: the write's whole
	// transaction, with the line's safety check against the patient's record.
	n := min(requests, 200)
	ids := make([]int64, n+20) // and the 20 warm-up requests
	for i := range ids {
		var q struct{ ID int64 }
		must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Bench", "last_name": fmt.Sprintf("Set %d", i), "birth_date": "1960-05-01", "sex": "female",
			"history": map[string]any{"allergy_status": "none"}}, http.StatusCreated), &q))
		ids[i] = open(q.ID, visits+40+i)
	}
	var body map[string]any
	for _, s := range sets.Data {
		body = map[string]any{"set_id": s.ID, "version": 0, "content": s.Content}
		break
	}
	k := 0
	lat, rps := timed(func() {
		id := ids[k]
		k++
		var v struct{ Version int }
		getJSON(c, fmt.Sprintf("%s/api/appointments/%d/visit", base, id), &v)
		body["version"] = v.Version
		expect("POST", "apply", request(c, base, "POST", fmt.Sprintf("/api/appointments/%d/order-set", id), body), http.StatusOK)
	}, n, 1)
	fmt.Printf("| apply a set to a visit (read its version, then one transaction) | 1 | %.2f | %.2f | %.2f | %.0f | — |\n", pct(lat, 50), pct(lat, 95), pct(lat, 99), rps)
}

// acknowledge checks a prescription's body and gives each of its lines a reason and the keys
// of its findings that need one (two lines may interact, or be the same drug), as a prescriber
// overriding them would.
func acknowledge(c *http.Client, base string, body map[string]any, items []map[string]any) {
	var checked struct {
		Findings []struct {
			Line           int    `json:"line"`
			Key            string `json:"key"`
			RequiresReason bool   `json:"requires_reason"`
		} `json:"findings"`
	}
	must(json.Unmarshal(post(c, base, "/api/prescriptions/check", body, http.StatusOK), &checked))
	for _, f := range checked.Findings {
		if f.RequiresReason {
			it := items[f.Line]
			it["override_reason"] = "bench"
			keys, _ := it["overrides"].([]string)
			it["overrides"] = append(keys, f.Key)
		}
	}
}
