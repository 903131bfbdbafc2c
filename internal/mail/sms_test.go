package mail_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
)

// gateway is a local SMS gateway that records what it got and answers as told.
type gateway struct {
	mu     sync.Mutex
	got    []*http.Request
	bodies []string
	answer []int // the status of each next request; 202 when none is left
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.got = append(g.got, r)
	g.bodies = append(g.bodies, string(b))
	status := http.StatusAccepted
	if len(g.answer) > 0 {
		status, g.answer = g.answer[0], g.answer[1:]
	}
	g.mu.Unlock()
	w.WriteHeader(status)
	_, _ = io.WriteString(w, `{"message":"as told"}`)
}

func (g *gateway) received() ([]*http.Request, []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]*http.Request(nil), g.got...), append([]string(nil), g.bodies...)
}

func smsDeliveries(t *testing.T, db *database.DB, id int64) []mail.Delivery {
	t.Helper()
	list, err := mail.Deliveries(context.Background(), db, []string{"sms-test"}, []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestSMSOutbox: text messages through the same outbox, against a local HTTP gateway.
func TestSMSOutbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		start := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		msg := func(id int64) mail.Message {
			return mail.Message{Topic: "sms-test", TopicID: id, Channel: mail.SMS, To: "+84901234567", Body: "Clinic: 3 Dec 09:30. https://x/l/abc"}
		}
		cases := []struct {
			name string
			run  func(t *testing.T, id int64)
		}{
			{"the webhook takes it: JSON {to, text, id}, the idempotency key and the credentials; sent once", func(t *testing.T, id int64) {
				g := &gateway{}
				srv := httptest.NewServer(g)
				defer srv.Close()
				u, _ := url.Parse(srv.URL + "/sms")
				u.User = url.UserPassword("clinic", "s3cret")
				gw, err := mail.ParseSMS(u.String())
				if err != nil {
					t.Fatal(err)
				}
				box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return start }}
				enqueue(t, db, start, msg(id))
				if n, err := box.SendDue(ctx); n != 1 || err != nil {
					t.Fatalf("sent %d: %v", n, err)
				}
				if n, _ := box.SendDue(ctx); n != 0 {
					t.Fatal("sent again")
				}
				reqs, bodies := g.received()
				if len(reqs) != 1 || reqs[0].URL.Path != "/sms" || reqs[0].Header.Get("Content-Type") != "application/json" {
					t.Fatalf("requests: %+v", reqs)
				}
				var body map[string]string
				if err := json.Unmarshal([]byte(bodies[0]), &body); err != nil || body["to"] != "+84901234567" || body["text"] != msg(id).Body ||
					body["id"] == "" || reqs[0].Header.Get("Idempotency-Key") != body["id"] {
					t.Fatalf("body %s, key %q", bodies[0], reqs[0].Header.Get("Idempotency-Key"))
				}
				if user, pass, ok := reqs[0].BasicAuth(); !ok || user != "clinic" || pass != "s3cret" {
					t.Fatalf("credentials %q %q", user, pass)
				}
				if d := smsDeliveries(t, db, id); len(d) != 1 || d[0].Status != mail.Sent || d[0].Channel != mail.SMS || d[0].Attempts != 1 {
					t.Fatalf("delivery: %+v", d)
				}
			}},
			{"refused with a 4xx: failed for good, the answer kept, not tried again", func(t *testing.T, id int64) {
				g := &gateway{answer: []int{http.StatusBadRequest}}
				srv := httptest.NewServer(g)
				defer srv.Close()
				gw, _ := mail.ParseSMS(srv.URL)
				now := start
				box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
				enqueue(t, db, start, msg(id))
				_, _ = box.SendDue(ctx)
				now = now.Add(time.Hour)
				_, _ = box.SendDue(ctx)
				reqs, _ := g.received()
				if d := smsDeliveries(t, db, id); len(reqs) != 1 || d[0].Status != mail.Failed || !strings.Contains(d[0].LastError, "400") {
					t.Fatalf("%d requests, delivery %+v", len(reqs), d)
				}
			}},
			{"a 5xx, then accepted after the back-off: sent once, with the same idempotency key", func(t *testing.T, id int64) {
				g := &gateway{answer: []int{http.StatusServiceUnavailable}}
				srv := httptest.NewServer(g)
				defer srv.Close()
				gw, _ := mail.ParseSMS(srv.URL)
				now := start
				box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
				enqueue(t, db, start, msg(id))
				if n, _ := box.SendDue(ctx); n != 0 {
					t.Fatal("a 503 counted as sent")
				}
				if d := smsDeliveries(t, db, id); d[0].Status != mail.Pending || !strings.Contains(d[0].LastError, "503") {
					t.Fatalf("after a 503: %+v", d)
				}
				now = start.Add(mail.Backoff(1) - time.Second)
				if n, _ := box.SendDue(ctx); n != 0 {
					t.Fatal("retried before its back-off")
				}
				now = start.Add(mail.Backoff(1))
				if n, _ := box.SendDue(ctx); n != 1 {
					t.Fatal("not retried")
				}
				reqs, _ := g.received()
				if len(reqs) != 2 || reqs[0].Header.Get("Idempotency-Key") != reqs[1].Header.Get("Idempotency-Key") {
					t.Fatalf("requests %d", len(reqs))
				}
				if d := smsDeliveries(t, db, id); d[0].Status != mail.Sent || d[0].Attempts != 2 {
					t.Fatalf("delivery %+v", d)
				}
			}},
			{"the gateway down, then up: kept and sent once it answers", func(t *testing.T, id int64) {
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				addr := l.Addr().String()
				l.Close() // nothing listens there now
				gw, _ := mail.ParseSMS("http://" + addr + "/sms")
				now := start
				box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
				enqueue(t, db, start, msg(id))
				_, _ = box.SendDue(ctx)
				if d := smsDeliveries(t, db, id); d[0].Status != mail.Pending || d[0].Attempts != 1 || d[0].LastError == "" {
					t.Fatalf("while down: %+v", d)
				}
				g := &gateway{}
				l, err = net.Listen("tcp", addr)
				if err != nil {
					t.Skipf("the port was taken meanwhile: %v", err)
				}
				srv := httptest.NewUnstartedServer(g)
				srv.Listener.Close()
				srv.Listener = l
				srv.Start()
				defer srv.Close()
				now = start.Add(mail.Backoff(1))
				if n, _ := box.SendDue(ctx); n != 1 {
					t.Fatal("not sent once up")
				}
				if reqs, _ := g.received(); len(reqs) != 1 {
					t.Fatalf("received %d", len(reqs))
				}
			}},
			{"two senders racing for the same messages: each sent exactly once", func(t *testing.T, id int64) {
				g := &gateway{}
				srv := httptest.NewServer(g)
				defer srv.Close()
				gw, _ := mail.ParseSMS(srv.URL)
				var list []mail.Message
				for range 20 {
					list = append(list, msg(id))
				}
				enqueue(t, db, start, list...)
				var wg sync.WaitGroup
				total := make([]int, 2)
				for i := range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return start }}
						for {
							n, err := box.SendDue(ctx)
							if err != nil {
								t.Error(err)
								return
							}
							if n == 0 {
								return
							}
							total[i] += n
						}
					}()
				}
				wg.Wait()
				_, bodies := g.received()
				seen := map[string]bool{}
				for _, b := range bodies {
					var body map[string]string
					_ = json.Unmarshal([]byte(b), &body)
					if seen[body["id"]] {
						t.Fatalf("message %s sent twice", body["id"])
					}
					seen[body["id"]] = true
				}
				if len(bodies) != 20 || total[0]+total[1] != 20 {
					t.Fatalf("received %d, counted %v", len(bodies), total)
				}
			}},
			{"Twilio's Messages API: a form POST with basic auth to the account's resource", func(t *testing.T, id int64) {
				g := &gateway{answer: []int{http.StatusCreated}}
				srv := httptest.NewServer(g)
				defer srv.Close()
				gw, err := mail.ParseSMS("twilio://AC0123:tok3n@+15550001111")
				if err != nil {
					t.Fatal(err)
				}
				box := &mail.Outbox{DB: db, SMS: gw.WithBase(srv.URL), Now: func() time.Time { return start }}
				enqueue(t, db, start, msg(id))
				if n, _ := box.SendDue(ctx); n != 1 {
					t.Fatal("not sent")
				}
				reqs, bodies := g.received()
				form, _ := url.ParseQuery(bodies[0])
				user, pass, _ := reqs[0].BasicAuth()
				if reqs[0].URL.Path != "/2010-04-01/Accounts/AC0123/Messages.json" || user != "AC0123" || pass != "tok3n" ||
					form.Get("To") != "+84901234567" || form.Get("From") != "+15550001111" || form.Get("Body") != msg(id).Body ||
					reqs[0].Header.Get("I-Twilio-Idempotency-Token") == "" {
					t.Fatalf("request %s %v %s", reqs[0].URL.Path, form, user)
				}
			}},
			{"an SMS waits while no gateway is given; e-mail still goes", func(t *testing.T, id int64) {
				box := &mail.Outbox{DB: db, Now: func() time.Time { return start }}
				enqueue(t, db, start, msg(id))
				if n, err := box.SendDue(ctx); n != 0 || err != nil {
					t.Fatalf("%d %v", n, err)
				}
				if d := smsDeliveries(t, db, id); d[0].Status != mail.Pending || d[0].Attempts != 0 {
					t.Fatalf("%+v", d)
				}
				err := db.Tx(ctx, func(tx *sql.Tx) error { _, err := mail.Cancel(ctx, tx, start, []string{"sms-test"}, id); return err })
				if err != nil {
					t.Fatal(err) // so that the next case's gateway does not get it
				}
			}},
			{"a reminder due later waits for its time, and one whose time has passed is dropped, never sent late", func(t *testing.T, id int64) {
				g := &gateway{}
				srv := httptest.NewServer(g)
				defer srv.Close()
				gw, _ := mail.ParseSMS(srv.URL)
				now := start
				box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
				later, stale := msg(id), msg(id)
				later.DueAt, later.ExpiresAt = start.Add(time.Hour), start.Add(3*time.Hour)
				stale.DueAt, stale.ExpiresAt = start.Add(time.Hour), start.Add(time.Hour)
				enqueue(t, db, start, later, stale)
				if n, _ := box.SendDue(ctx); n != 0 {
					t.Fatal("sent before due")
				}
				now = start.Add(time.Hour)
				if n, _ := box.SendDue(ctx); n != 1 {
					t.Fatal("the due one not sent")
				}
				d := smsDeliveries(t, db, id)
				if d[0].Status != mail.Sent || d[1].Status != mail.Cancelled || d[1].LastError == "" {
					t.Fatalf("%+v", d)
				}
			}},
		}
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) { c.run(t, int64(2000+i)) })
		}
	})
}

// TestParseSMS: the URL's forms, and one sentence for a wrong one.
func TestParseSMS(t *testing.T) {
	for _, c := range []struct {
		url, kind string
		ok        bool
	}{
		{"https://u:p@sms.example/send", "webhook", true},
		{"http://127.0.0.1:9000/send", "webhook", true},
		{"http://sms.example/send", "", false},
		{"twilio://AC1:tok@+15551234567", "twilio", true},
		{"twilio://AC1@+15551234567", "", false},
		{"twilio://AC1:tok@clinic", "", false},
		{"ftp://x", "", false},
	} {
		g, err := mail.ParseSMS(c.url)
		if (err == nil) != c.ok || (err == nil && g.Kind != c.kind) {
			t.Errorf("%s: %+v %v", c.url, g, err)
		}
		if err == nil && strings.Contains(g.URL, "@") {
			t.Errorf("%s: credentials left in the URL %s", c.url, g.URL)
		}
	}
}
