package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// The FHIR API (issue 38) beside the native one, in the same run: Patient search by name and
// by patient number, and a read, at 1, 8 and 32 clients, each FHIR row with its ratio to the
// native row of the same work; a 1,000-entry batch of Patients against 1,000 single creates;
// and a bulk export of every patient, its throughput and the server's memory.

// bearer is a client that sends a token and no cookie (a request may not carry both).
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	r.Header.Set("Accept", "application/fhir+json")
	return b.base.RoundTrip(r)
}

func fhirBench(c *http.Client, base, password, label string, patients, year, requests, serverPID int) {
	var me struct{ ID int64 }
	getJSON(c, base+"/api/user", &me)
	var made struct{ Token string }
	must(json.Unmarshal(post(c, base, "/api/api-tokens", map[string]any{"user_id": me.ID, "name": "bench", "expires_in_days": 1, "current_password": password}, http.StatusCreated), &made))
	api := &http.Client{Timeout: 60 * time.Second, Transport: bearer{made.Token, &http.Transport{MaxIdleConnsPerHost: 64}}}
	r := rand.New(rand.NewPCG(3, 8))
	pick := func() int { return 1 + r.IntN(patients) }
	// A name prefix the FHIR name parameter takes as one word (the native search takes the
	// same words).
	names := []string{"nguy", "tran", "ива", "смир", "王", "李", "smit", "john", "garc"}
	pairs := []struct {
		name           string
		native, viaAPI func() string
	}{
		{"search by name prefix (a page of 15)", func() string { return "/api/patients?q=" + url.QueryEscape(names[r.IntN(len(names))]) },
			func() string { return "/fhir/R4/Patient?_count=15&name=" + url.QueryEscape(names[r.IntN(len(names))]) }},
		{"search by patient number", func() string { return fmt.Sprintf("/api/patients?q=%d-%06d", year, pick()) },
			func() string { return fmt.Sprintf("/fhir/R4/Patient?identifier=%d-%06d", year, pick()) }},
		{"read one patient (audited)", func() string { return fmt.Sprintf("/api/patients/%d", pick()) },
			func() string { return fmt.Sprintf("/fhir/R4/Patient/%d", pick()) }},
	}
	fmt.Printf("| %s (%d patients) | clients | p50 ms | p95 ms | p99 ms | req/s | ratio to ceiling | FHIR rate / native rate |\n|---|---|---|---|---|---|---|---|\n", label, patients)
	for _, workers := range []int{1, 8, 32} {
		clat, crps := timed(func() { get(c, base+"/api/user") }, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 | |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		for _, p := range pairs {
			nlat, nrps := timed(func() { get(c, base+p.native()) }, requests, workers)
			flat, frps := timed(func() { get(api, base+p.viaAPI()) }, requests, workers)
			fmt.Printf("| native: %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f | |\n", p.name, workers, pct(nlat, 50), pct(nlat, 95), pct(nlat, 99), nrps, nrps/crps)
			fmt.Printf("| FHIR: %s | %d | %.2f | %.2f | %.2f | %.0f | %.2f | %.2f |\n", p.name, workers, pct(flat, 50), pct(flat, 95), pct(flat, 99), frps, frps/crps, frps/nrps)
		}
	}
	fmt.Println()

	// 1,000 Patients: one batch Bundle, then one request each.
	const n = 1000
	resource := func(i int, kind string) map[string]any {
		return map[string]any{"resourceType": "Patient", "gender": []string{"male", "female"}[i%2],
			"birthDate": fmt.Sprintf("%d-%02d-%02d", 1940+i%70, 1+i%12, 1+i%28),
			"name":      []any{map[string]any{"family": fmt.Sprintf("Bench%s%d", kind, i), "given": []string{"Load", strconv.Itoa(r.IntN(1_000_000))}}}}
	}
	entries := make([]any, n)
	for i := range entries {
		entries[i] = map[string]any{"resource": resource(i, "Batch"), "request": map[string]any{"method": "POST", "url": "Patient"}}
	}
	body, _ := json.Marshal(map[string]any{"resourceType": "Bundle", "type": "batch", "entry": entries})
	start := time.Now()
	resp := fhirPost(api, base+"/fhir/R4", body)
	batch := time.Since(start)
	var out struct {
		Entry []struct {
			Response struct{ Status string }
		}
	}
	must(json.Unmarshal(resp, &out))
	created := 0
	for _, e := range out.Entry {
		if strings.HasPrefix(e.Response.Status, "201") {
			created++
		}
	}
	start = time.Now()
	for i := range n {
		js, _ := json.Marshal(resource(i, "Single"))
		fhirPost(api, base+"/fhir/R4/Patient", js)
	}
	single := time.Since(start)
	perBatch, perSingle := batch.Seconds()*1000/float64(n), single.Seconds()*1000/float64(n)
	fmt.Printf("| %s: 1,000 Patients | total s | ms per patient | created |\n|---|---|---|---|\n", label)
	fmt.Printf("| one batch Bundle of 1,000 entries | %.2f | %.3f | %d |\n", batch.Seconds(), perBatch, created)
	fmt.Printf("| 1,000 single POST /fhir/R4/Patient (1 client) | %.2f | %.3f | %d |\n", single.Seconds(), perSingle, n)
	fmt.Printf("| the batch is faster per patient by | | %.1f× | |\n\n", perSingle/perBatch)

	// A bulk export of every patient (and their allergies).
	before := memory(serverPID)
	req, _ := http.NewRequest("GET", base+"/fhir/R4/$export?_type=Patient,AllergyIntolerance", nil)
	req.Header.Set("Prefer", "respond-async")
	start = time.Now()
	kick, err := api.Do(req)
	must(err)
	kick.Body.Close()
	if kick.StatusCode != http.StatusAccepted {
		fmt.Fprintln(os.Stderr, "loadgen: export kick-off", kick.Status)
		os.Exit(1)
	}
	status := kick.Header.Get("Content-Location")
	var manifest struct {
		Output []struct {
			Type  string
			URL   string
			Count int
		}
	}
	peak := before
	for {
		resp, err := api.Get(status)
		must(err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if m := memory(serverPID); m.rss > peak.rss {
			peak.rss = m.rss
		}
		if resp.StatusCode == http.StatusOK {
			must(json.Unmarshal(b, &manifest))
			break
		}
		if resp.StatusCode != http.StatusAccepted {
			fmt.Fprintln(os.Stderr, "loadgen: export status", resp.Status, string(b))
			os.Exit(1)
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(start)
	after := memory(serverPID)
	var lines int
	var size int64
	dl := time.Now()
	for _, o := range manifest.Output {
		resp, err := api.Get(o.URL)
		must(err)
		k, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		size += k
		lines += o.Count
	}
	download := time.Since(dl)
	fmt.Printf("| %s: bulk export | resources | s | resources/s | NDJSON MB | download s | server RSS before MB | peak RSS while exporting MB | server's peak RSS of its life MB |\n|---|---|---|---|---|---|---|---|---|\n", label)
	fmt.Printf("| $export?_type=Patient,AllergyIntolerance | %d | %.1f | %.0f | %.0f | %.1f | %.0f | %.0f | %.0f |\n",
		lines, elapsed.Seconds(), float64(lines)/elapsed.Seconds(), float64(size)/(1<<20), download.Seconds(), before.rss, peak.rss, after.hwm)
}

func fhirPost(c *http.Client, u string, body []byte) []byte {
	req, _ := http.NewRequest("POST", u, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/fhir+json")
	resp, err := c.Do(req)
	must(err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		fmt.Fprintln(os.Stderr, "loadgen:", u, resp.Status, string(b[:min(len(b), 500)]))
		os.Exit(1)
	}
	return b
}

type mem struct{ rss, hwm float64 } // MB

// memory reads a process's resident set and its peak from /proc (zero when unknown).
func memory(pid int) mem {
	var m mem
	if pid == 0 {
		return m
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			m.rss = kb / 1024
		case "VmHWM:":
			m.hwm = kb / 1024
		}
	}
	return m
}
