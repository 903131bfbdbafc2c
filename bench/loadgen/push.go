package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// pushBench connects clients sockets to the push endpoint, spread over users accounts
// (push1…pushN, as a clinic's staff with a few tabs each; one account may hold only so many
// sockets), subscribes each to the patients channel, then saves a patient `events` times
// through the admin's session and times how long each socket takes to hear of it: from the
// moment the save is sent (so the write itself is included) to the event's arrival.
//
// With alerts, the sockets join the results channel (their accounts review results) and each
// event is a critical potassium recorded on an order: the time from sending the result to
// each doctor's socket hearing of the alert.
func pushBench(admin *http.Client, base, password, label string, clients, users, events int, alerts bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var cfg struct{ Push struct{ Key string } }
	getJSON(admin, base+"/api/config", &cfg)

	sessions := make([]*http.Client, users)
	for i := range sessions {
		sessions[i] = login(base, fmt.Sprintf("push%d", i+1), password)
	}
	channel, event := "private-patients", "App.Events.PatientChanged"
	write := func(e int) {
		body := map[string]any{"first_name": "Push", "last_name": fmt.Sprintf("Bench%d", e), "sex": "female", "birth_date": "1990-01-02"}
		post(admin, base, "/api/patients", body, http.StatusCreated)
	}
	if alerts {
		channel, event = "private-results", "App.Events.ResultsChanged"
		write = criticalResults(admin, base)
	}
	heard := make(chan time.Time, clients*4)
	var wg sync.WaitGroup
	connectStart := time.Now()
	for i := range clients {
		c := sessions[i%users]
		conn := dialPush(ctx, c, base, cfg.Push.Key, channel)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, f, err := conn.Read(ctx)
				if err != nil {
					return
				}
				if bytes.Contains(f, []byte(event)) {
					heard <- time.Now()
				}
			}
		}()
		defer conn.CloseNow()
	}
	connected := time.Since(connectStart)

	var lat, writes []float64
	for e := range events {
		sent := time.Now()
		write(e)
		writes = append(writes, ms(time.Since(sent)))
		for got := 0; got < clients; got++ {
			select {
			case at := <-heard:
				lat = append(lat, ms(at.Sub(sent)))
			case <-time.After(10 * time.Second):
				fmt.Fprintf(os.Stderr, "loadgen: event %d reached %d of %d sockets\n", e+1, got, clients)
				os.Exit(1)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	slices.Sort(lat)
	slices.Sort(writes)
	fmt.Printf("| %s | sockets | events | deliveries | p50 ms | p95 ms | p99 ms | max ms | the save alone, p50 ms | all connected in |\n|---|---|---|---|---|---|---|---|---|---|\n", label)
	what := "push delivery"
	if alerts {
		what = "critical alert delivery"
	}
	fmt.Printf("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f s |\n",
		what, clients, events, len(lat), pct(lat, 50), pct(lat, 95), pct(lat, 99), lat[len(lat)-1], pct(writes, 50), connected.Seconds())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// dialPush connects one socket with c's session, as pusher-js would, and subscribes it to
// channel with a signature from /api/broadcasting/auth.
func dialPush(ctx context.Context, c *http.Client, base, key, channel string) *websocket.Conn {
	u, _ := url.Parse(base)
	var cookies []string
	for _, ck := range c.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/app/"+key+"?protocol=7&client=js&version=8.4.0",
		&websocket.DialOptions{HTTPHeader: http.Header{"Cookie": {strings.Join(cookies, "; ")}}})
	must(err)
	var m struct{ Event, Data string }
	_, first, err := conn.Read(ctx)
	must(err)
	must(json.Unmarshal(first, &m))
	var established struct {
		SocketID string `json:"socket_id"`
	}
	must(json.Unmarshal([]byte(m.Data), &established))
	var signed struct{ Auth string }
	resp := post(c, base, "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": channel}, http.StatusOK)
	must(json.Unmarshal(resp, &signed))
	sub, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": channel, "auth": signed.Auth}})
	must(conn.Write(ctx, websocket.MessageText, sub))
	_, ok, err := conn.Read(ctx)
	must(err)
	if !bytes.Contains(ok, []byte("subscription_succeeded")) {
		fmt.Fprintln(os.Stderr, "loadgen: subscribe:", string(ok))
		os.Exit(1)
	}
	return conn
}

// post sends body as JSON and returns the response body, exiting unless the status is want.
func post(c *http.Client, base, path string, body any, want int) []byte {
	return expect("POST", path, request(c, base, "POST", path, body), want)
}

// answer is a response's status and body.
type answer struct {
	status int
	body   []byte
}

// request sends a request, body as JSON when not nil, with the session's CSRF token.
func request(c *http.Client, base, method, path string, body any) answer {
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
				req.Header.Set("X-XSRF-TOKEN", ck.Value)
			}
		}
	}
	resp, err := c.Do(req)
	must(err)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, out}
}

// expect returns a's body, exiting unless its status is one of want.
func expect(method, path string, a answer, want ...int) []byte {
	if !slices.Contains(want, a.status) {
		fmt.Fprintln(os.Stderr, "loadgen:", method, path, a.status, string(a.body))
		os.Exit(1)
	}
	return a.body
}

func getJSON(c *http.Client, u string, v any) {
	resp, err := c.Get(u)
	must(err)
	defer resp.Body.Close()
	must(json.NewDecoder(resp.Body).Decode(v))
}

// criticalResults prepares an order of electrolytes on a visit in progress and returns a
// write that records a critical potassium on it: a final result first, then corrections
// (each with a reason), every one raising an alert for the ordering doctor.
func criticalResults(admin *http.Client, base string) func(e int) {
	var p, a struct{ ID int64 }
	must(json.Unmarshal(post(admin, base, "/api/patients", map[string]any{"first_name": "Alert", "last_name": "Bench", "sex": "male", "birth_date": "1970-01-02"}, http.StatusCreated), &p))
	var docs struct{ Data []struct{ ID int64 } }
	getJSON(admin, base+"/api/doctors", &docs)
	starts := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute).Format(time.RFC3339)
	must(json.Unmarshal(post(admin, base, "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": docs.Data[0].ID, "starts_at": starts,
		"duration_minutes": 10, "type": "new"}, http.StatusCreated), &a))
	post(admin, base, fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{}, http.StatusOK)
	post(admin, base, fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{}, http.StatusOK)
	expect("PUT", "visit", request(admin, base, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a.ID), map[string]any{"version": 0,
		"orders": []map[string]any{{"code": "ELEC", "note": ""}}}), http.StatusOK)
	var orders struct{ Data []struct{ ID, Version int64 } }
	getJSON(admin, fmt.Sprintf("%s/api/appointments/%d/orders", base, a.ID), &orders)
	id, version := orders.Data[0].ID, orders.Data[0].Version
	return func(e int) {
		var out struct{ Order struct{ Version int64 } }
		body := map[string]any{"version": version, "final": true, "results": []map[string]any{{"analyte": "K", "unit": "mmol/L", "value": fmt.Sprintf("6.%d", 5+e%5)}}}
		if e > 0 {
			body["reason"] = "bench: repeated sample"
		}
		must(json.Unmarshal(expect("PUT", "results", request(admin, base, "PUT", fmt.Sprintf("/api/lab-orders/%d/results", id), body), http.StatusOK), &out))
		version = out.Order.Version
	}
}
