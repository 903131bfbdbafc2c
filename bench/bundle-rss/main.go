// Command bundle-rss measures the server's resident memory around maximal FHIR Bundles
// (bench/README.md, "A maximal Bundle's memory"): it signs in, makes an API token, reads the
// server's VmRSS and VmHWM from /proc/<pid>/status, sends a batch of 1,000 new Patients and
// then a batch of 1,000 searches each asking the most a page may hold, and prints one
// Markdown row per step.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:18350", "the server")
	pid := flag.Int("server-pid", 0, "the server's pid, whose memory is read")
	label := flag.String("label", "SQLite", "the engine, for the table")
	user := flag.String("user", "admin", "an administrator")
	flag.Parse()
	password := os.Getenv("EMR_BENCH_PASSWORD")

	c := login(*base, *user, password)
	var me struct{ ID int64 }
	must(json.Unmarshal(call(c, *base, "GET", "/api/user", nil, http.StatusOK), &me))
	var made struct{ Token string }
	must(json.Unmarshal(call(c, *base, "POST", "/api/api-tokens", map[string]any{"user_id": me.ID, "name": "bundle bench", "expires_in_days": 1,
		"current_password": password}, http.StatusCreated), &made))
	api := &http.Client{Timeout: 10 * time.Minute}

	row := func(step string, start memory, took time.Duration, answer int, note string) {
		m := read(*pid)
		fmt.Printf("| %s | %s | %.0f | %.0f | %.0f | %.1f | %.1f | %s |\n", *label, step, start.rss, m.rss, m.hwm, took.Seconds(), float64(answer)/(1<<20), note)
	}
	fmt.Println("| engine | step | RSS before MB | RSS after MB | peak (VmHWM) MB | seconds | answer MB | entries |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	idle := read(*pid)
	row("idle, signed in", idle, 0, 0, "")

	entries := make([]any, 1000)
	for i := range entries {
		entries[i] = map[string]any{"request": map[string]any{"method": "POST", "url": "Patient"}, "resource": map[string]any{"resourceType": "Patient",
			"gender": []string{"male", "female"}[i%2], "birthDate": fmt.Sprintf("%d-%02d-%02d", 1940+i%70, 1+i%12, 1+i%28),
			"name": []any{map[string]any{"family": fmt.Sprintf("Bundle%04d", i), "given": []string{"Memory", strconv.Itoa(i)}}}}}
	}
	before := read(*pid)
	took, size, statuses := bundle(api, *base, made.Token, entries)
	row("batch of 1,000 POST Patient", before, took, size, statuses)

	for i := range entries {
		entries[i] = map[string]any{"request": map[string]any{"method": "GET", "url": "Patient?_count=1000"}}
	}
	before = read(*pid)
	took, size, statuses = bundle(api, *base, made.Token, entries)
	row("batch of 1,000 GET Patient?_count=1000 (each clamped to 100)", before, took, size, statuses)
}

// bundle sends one batch and answers how long it took, the answer's size and its entries'
// statuses counted.
func bundle(c *http.Client, base, token string, entries []any) (time.Duration, int, string) {
	body, _ := json.Marshal(map[string]any{"resourceType": "Bundle", "type": "batch", "entry": entries})
	req, _ := http.NewRequest("POST", base+"/fhir/R4", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/fhir+json")
	start := time.Now()
	resp, err := c.Do(req)
	must(err)
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	must(err)
	took := time.Since(start)
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(os.Stderr, "bundle: %d %.500s\n", resp.StatusCode, data)
		os.Exit(1)
	}
	var out struct {
		Entry []struct {
			Response struct{ Status string }
		}
	}
	must(json.Unmarshal(data, &out))
	counts := map[string]int{}
	var order []string
	for _, e := range out.Entry {
		if counts[e.Response.Status] == 0 {
			order = append(order, e.Response.Status)
		}
		counts[e.Response.Status]++
	}
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d × %s", counts[s], s))
	}
	return took, len(data), strings.Join(parts, ", ")
}

type memory struct{ rss, hwm float64 }

// read is the process's resident memory now and at its peak, in MB.
func read(pid int) memory {
	var m memory
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	must(err)
	for line := range strings.SplitSeq(string(b), "\n") {
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

func login(base, user, password string) *http.Client {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: time.Minute}
	resp, err := c.Get(base + "/api/sanctum/csrf-cookie")
	must(err)
	resp.Body.Close()
	call(c, base, "POST", "/api/auth/login", map[string]string{"username": user, "password": password}, http.StatusOK)
	return c
}

// call sends a request of the signed-in session, body as JSON with its CSRF token.
func call(c *http.Client, base, method, path string, body any, want int) []byte {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		u, _ := url.Parse(base)
		for _, ck := range c.Jar.Cookies(u) {
			if ck.Name == "XSRF-TOKEN" {
				v, _ := url.QueryUnescape(ck.Value)
				req.Header.Set("X-XSRF-TOKEN", v)
			}
		}
	}
	resp, err := c.Do(req)
	must(err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		fmt.Fprintf(os.Stderr, "%s %s: %d, want %d: %.300s\n", method, path, resp.StatusCode, want, data)
		os.Exit(1)
	}
	return data
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
