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
	"sync/atomic"
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
	// newAPI makes an API token of the account and a client that sends it. Writes in Bundles
	// count against a credential's rate (2,000 a minute): each set of Bundle rows has its own.
	newAPI := func(name string) *http.Client {
		var made struct{ Token string }
		must(json.Unmarshal(post(c, base, "/api/api-tokens", map[string]any{"user_id": me.ID, "name": name, "expires_in_days": 1, "current_password": password}, http.StatusCreated), &made))
		return &http.Client{Timeout: 60 * time.Second, Transport: bearer{made.Token, &http.Transport{MaxIdleConnsPerHost: 64}}}
	}
	api := newAPI("bench")
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
	transactionBench(c, newAPI, base, label, requests)
	includeBench(api, base, label, requests)

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

// transactionBench measures a 50-entry transaction — 25 new patients, each with a booking
// that names it by urn:uuid, written all or nothing across the register and the book — at 1
// and 8 clients, beside the same work through the native API (25 registrations and 25
// bookings, one request each) and the ceiling, in the same run. Each booking has a slot of
// its own (doctor, day and time), so none is refused as a double booking.
func transactionBench(c *http.Client, newAPI func(string) *http.Client, base, label string, requests int) {
	var doctors struct{ Data []struct{ ID int64 } }
	getJSON(c, base+"/api/doctors", &doctors)
	if len(doctors.Data) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: the transaction rows need a doctor")
		os.Exit(1)
	}
	var slot atomic.Int64
	// next is a free slot: a doctor, and 20 minutes of a day from the day after tomorrow on.
	day0 := time.Now().UTC().AddDate(0, 0, 2).Truncate(24 * time.Hour)
	// The slot's number also names its patient, so no two are possible duplicates.
	next := func() (int64, int64, string) {
		n := slot.Add(1)
		d := doctors.Data[int(n)%len(doctors.Data)].ID
		k := n / int64(len(doctors.Data))
		start := day0.AddDate(0, 0, int(k/24)).Add(time.Duration(8*60+(k%24)*20) * time.Minute)
		return n, d, start.Format(time.RFC3339)
	}
	patient := func(n int64) map[string]any {
		return map[string]any{"resourceType": "Patient", "gender": []string{"male", "female"}[n%2], "birthDate": fmt.Sprintf("%d-%02d-%02d", 1950+n%60, 1+n%12, 1+n%28),
			"name": []any{map[string]any{"family": fmt.Sprintf("Tx%d", n), "given": []string{"Bench"}}}}
	}
	var api *http.Client
	viaFHIR := func() {
		entries := make([]any, 0, 50)
		for i := range 25 {
			urn := fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%012d", i)
			n, doctor, start := next()
			entries = append(entries,
				map[string]any{"fullUrl": urn, "resource": patient(n), "request": map[string]any{"method": "POST", "url": "Patient"}},
				map[string]any{"resource": map[string]any{"resourceType": "Appointment", "status": "booked", "start": start, "minutesDuration": 20,
					"appointmentType": map[string]any{"text": "new"}, "participant": []any{
						map[string]any{"actor": map[string]any{"reference": urn}, "status": "accepted"},
						map[string]any{"actor": map[string]any{"reference": fmt.Sprintf("Practitioner/%d", doctor)}, "status": "accepted"}}},
					"request": map[string]any{"method": "POST", "url": "Appointment"}})
		}
		body, _ := json.Marshal(map[string]any{"resourceType": "Bundle", "type": "transaction", "entry": entries})
		fhirPost(api, base+"/fhir/R4", body)
	}
	native := func() {
		for range 25 {
			n, doctor, start := next()
			var p struct{ ID int64 }
			must(json.Unmarshal(post(c, base, "/api/patients", map[string]any{"first_name": "Bench", "last_name": fmt.Sprintf("Nx%d", n), "sex": []string{"male", "female"}[n%2],
				"birth_date": fmt.Sprintf("%d-%02d-%02d", 1950+n%60, 1+n%12, 1+n%28)}, http.StatusCreated), &p))
			post(c, base, "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": doctor, "starts_at": start, "duration_minutes": 20, "type": "new"}, http.StatusCreated)
		}
	}
	n := max(requests/20, 20)
	fmt.Printf("| %s: a 50-entry transaction (25 patients, each booked) | clients | p50 ms | p95 ms | p99 ms | per s | ratio to ceiling | FHIR rate / native rate |\n|---|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{1, 8} {
		api = newAPI(fmt.Sprintf("bench transactions %d", workers))
		clat, crps := timed(func() { get(c, base+"/api/user") }, requests, workers)
		fmt.Printf("| ceiling: GET /api/user | %d | %.2f | %.2f | %.2f | %.0f | 1.00 | |\n", workers, pct(clat, 50), pct(clat, 95), pct(clat, 99), crps)
		nlat, nrps := timed(native, n, workers)
		flat, frps := timed(viaFHIR, n, workers)
		fmt.Printf("| native: 25 registrations and 25 bookings, one request each | %d | %.2f | %.2f | %.2f | %.1f | %.3f | |\n", workers, pct(nlat, 50), pct(nlat, 95), pct(nlat, 99), nrps, nrps/crps)
		fmt.Printf("| FHIR: one transaction of the same 50 writes | %d | %.2f | %.2f | %.2f | %.1f | %.3f | %.2f |\n", workers, pct(flat, 50), pct(flat, 95), pct(flat, 99), frps, frps/crps, frps/nrps)
	}
	fmt.Println()
}

// includeBench measures _include against the reads it saves (issue 54: "_include must not
// cost more than the reads it saves"): a page of 20 Appointments with their patients in one
// request, beside the same page and then each of its patients read one request at a time,
// at 1 and 8 clients. The transaction rows have booked the appointments it pages through.
func includeBench(api *http.Client, base, label string, requests int) {
	page := base + "/fhir/R4/Appointment?_count=20&date=ge" + time.Now().UTC().Format("2006-01-02")
	var first appointmentPage
	fhirGetJSON(api, page, &first)
	if len(first.Entry) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: the include rows need the transaction rows' appointments")
		os.Exit(1)
	}
	withInclude := func() { get(api, page+"&_include=Appointment:patient") }
	readEach := func() {
		var got appointmentPage
		fhirGetJSON(api, page, &got)
		for _, e := range got.Entry {
			for _, p := range e.Resource.Participant {
				if strings.HasPrefix(p.Actor.Reference, "Patient/") {
					get(api, base+"/fhir/R4/"+p.Actor.Reference)
				}
			}
		}
	}
	n := max(requests/10, 20)
	fmt.Printf("| %s: a page of 20 Appointments and their patients | clients | p50 ms | p95 ms | p99 ms | per s | include rate / reads rate |\n|---|---|---|---|---|---|---|\n", label)
	for _, workers := range []int{1, 8} {
		rlat, rrps := timed(readEach, n, workers)
		ilat, irps := timed(withInclude, n, workers)
		fmt.Printf("| the page, then each patient read (21 requests) | %d | %.2f | %.2f | %.2f | %.1f | |\n", workers, pct(rlat, 50), pct(rlat, 95), pct(rlat, 99), rrps)
		fmt.Printf("| the page with _include=Appointment:patient (1 request) | %d | %.2f | %.2f | %.2f | %.1f | %.2f |\n", workers, pct(ilat, 50), pct(ilat, 95), pct(ilat, 99), irps, irps/rrps)
	}
	fmt.Println()
}

// appointmentPage is what the include rows read of an Appointment searchset.
type appointmentPage struct {
	Entry []struct {
		Resource struct {
			Participant []struct{ Actor struct{ Reference string } }
		}
	}
}

// fhirGetJSON reads a FHIR answer into v.
func fhirGetJSON(c *http.Client, u string, v any) {
	resp, err := c.Get(u)
	must(err)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		fmt.Fprintln(os.Stderr, "loadgen:", u, resp.Status)
		os.Exit(1)
	}
	must(json.NewDecoder(resp.Body).Decode(v))
}
