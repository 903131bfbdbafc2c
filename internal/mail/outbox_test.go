package mail_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
	"emr/internal/mail/mailtest"
)

// enqueue writes messages into the outbox as a feature does, in a transaction of its own.
func enqueue(t *testing.T, db *database.DB, at time.Time, msgs ...mail.Message) {
	t.Helper()
	err := db.Tx(context.Background(), func(tx *sql.Tx) error {
		for _, m := range msgs {
			if err := mail.Enqueue(context.Background(), tx, at, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func deliveries(t *testing.T, db *database.DB, id int64) []mail.Delivery {
	t.Helper()
	list, err := mail.Deliveries(context.Background(), db, []string{"test"}, []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestOutbox: what the outbox does with a message, against a real SMTP server (STARTTLS
// under the test's own certificate, PLAIN login), one case per row.
func TestOutbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		start := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		body := "Ответ: критический результат ждёт. 危急值。\n.a line that starts with a dot\n"
		cases := []struct {
			name string
			run  func(t *testing.T, id int64)
		}{
			{"delivered once over TLS to each recipient, with its subject and text, and not sent again", func(t *testing.T, id int64) {
				srv := mailtest.Start(t)
				box := &mail.Outbox{DB: db, Server: srv.Client(mailtest.Password), Domain: "clinic.test", Now: func() time.Time { return start }}
				enqueue(t, db, start, mail.Message{Topic: "test", TopicID: id, To: "a@clinic.test", Subject: "Критический результат", Body: body},
					mail.Message{Topic: "test", TopicID: id, To: "b@clinic.test", Subject: "Критический результат", Body: body})
				if n, err := box.SendDue(ctx); err != nil || n != 2 {
					t.Fatalf("sent %d: %v", n, err)
				}
				if n, err := box.SendDue(ctx); err != nil || n != 0 {
					t.Fatalf("sent again %d: %v", n, err)
				}
				got := srv.Messages()
				if len(got) != 2 || got[0].To[0] != "a@clinic.test" || got[1].To[0] != "b@clinic.test" || got[0].From != "emr@clinic.test" || !got[0].TLS {
					t.Fatalf("received: %+v", got)
				}
				if !strings.Contains(got[0].Data, "Subject: =?utf-8?q?") || !strings.Contains(got[0].Data, "Message-ID: <outbox-") {
					t.Errorf("headers: %s", got[0].Data)
				}
				for _, d := range deliveries(t, db, id) {
					if d.Status != mail.Sent || d.Attempts != 1 || d.SentAt == nil || d.LastError != "" {
						t.Errorf("delivery: %+v", d)
					}
				}
			}},
			{"the server down: kept, retried after its back-off, delivered once when it is up", func(t *testing.T, id int64) {
				srv := mailtest.Reserve(t)
				now := start
				box := &mail.Outbox{DB: db, Server: srv.Client(mailtest.Password), Now: func() time.Time { return now }}
				enqueue(t, db, start, mail.Message{Topic: "test", TopicID: id, To: "a@clinic.test", Subject: "s", Body: "b"})
				if n, _ := box.SendDue(ctx); n != 0 {
					t.Fatalf("sent to a server that is down")
				}
				d := deliveries(t, db, id)
				if len(d) != 1 || d[0].Status != mail.Pending || d[0].Attempts != 1 || d[0].LastError == "" {
					t.Fatalf("after a failed attempt: %+v", d)
				}
				srv.Up()
				now = start.Add(mail.Backoff(1) - time.Second) // not due yet
				if n, _ := box.SendDue(ctx); n != 0 || len(srv.Messages()) != 0 {
					t.Fatalf("sent before its back-off ended")
				}
				now = start.Add(mail.Backoff(1))
				if n, err := box.SendDue(ctx); n != 1 || err != nil {
					t.Fatalf("retry: %d %v", n, err)
				}
				now = now.Add(time.Hour)
				_, _ = box.SendDue(ctx)
				if got := srv.Messages(); len(got) != 1 {
					t.Fatalf("received %d messages, want exactly 1", len(got))
				}
				if d := deliveries(t, db, id); d[0].Status != mail.Sent || d[0].Attempts != 2 || d[0].LastError != "" {
					t.Fatalf("delivery: %+v", d)
				}
			}},
			{"a wrong password: failed at once, the server's answer shown, not tried again", func(t *testing.T, id int64) {
				srv := mailtest.Start(t)
				now := start
				box := &mail.Outbox{DB: db, Server: srv.Client("wrong"), Now: func() time.Time { return now }}
				enqueue(t, db, start, mail.Message{Topic: "test", TopicID: id, To: "a@clinic.test", Subject: "s", Body: "b"})
				_, _ = box.SendDue(ctx)
				d := deliveries(t, db, id)
				if len(d) != 1 || d[0].Status != mail.Failed || !strings.Contains(d[0].LastError, "535") {
					t.Fatalf("delivery: %+v", d)
				}
				now = now.Add(24 * time.Hour)
				_, _ = box.SendDue(ctx)
				if d := deliveries(t, db, id); d[0].Attempts != 1 || len(srv.Messages()) != 0 {
					t.Fatalf("tried again: %+v", d)
				}
			}},
			{"an account without an address: kept as no_address, nothing sent", func(t *testing.T, id int64) {
				srv := mailtest.Start(t)
				box := &mail.Outbox{DB: db, Server: srv.Client(mailtest.Password), Now: func() time.Time { return start }}
				enqueue(t, db, start, mail.Message{Topic: "test", TopicID: id, To: " ", Subject: "s", Body: "b"})
				_, _ = box.SendDue(ctx)
				if d := deliveries(t, db, id); len(d) != 1 || d[0].Status != mail.NoAddress || len(srv.Messages()) != 0 {
					t.Fatalf("delivery: %+v", d)
				}
			}},
			{"given up a day after it was written when the server never came", func(t *testing.T, id int64) {
				srv := mailtest.Reserve(t)
				now := start.Add(mail.GiveUpAfter)
				box := &mail.Outbox{DB: db, Server: srv.Client(mailtest.Password), Now: func() time.Time { return now }}
				enqueue(t, db, start, mail.Message{Topic: "test", TopicID: id, To: "a@clinic.test", Subject: "s", Body: "b"})
				_, _ = box.SendDue(ctx)
				if d := deliveries(t, db, id); d[0].Status != mail.Failed || d[0].LastError == "" {
					t.Fatalf("delivery: %+v", d)
				}
			}},
			{"the worker sends what is written while it runs", func(t *testing.T, id int64) {
				srv := mailtest.Start(t)
				box := &mail.Outbox{DB: db, Server: srv.Client(mailtest.Password), Every: 10 * time.Millisecond}
				runCtx, stop := context.WithCancel(ctx)
				done := make(chan struct{})
				go func() { box.Run(runCtx); close(done) }()
				defer func() { stop(); <-done }()
				enqueue(t, db, time.Now(), mail.Message{Topic: "test", TopicID: id, To: "a@clinic.test", Subject: "s", Body: "b"})
				deadline := time.Now().Add(10 * time.Second)
				for len(srv.Messages()) == 0 && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond) // polling a condition, bounded by the deadline
				}
				if len(srv.Messages()) != 1 {
					t.Fatalf("the worker sent %d", len(srv.Messages()))
				}
			}},
		}
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) { c.run(t, int64(1000+i)) })
		}
	})
}

// TestBackoff: 30 s, doubling, at most 30 minutes.
func TestBackoff(t *testing.T) {
	for _, c := range []struct {
		attempts int
		want     time.Duration
	}{{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {6, 16 * time.Minute}, {7, 30 * time.Minute}, {40, 30 * time.Minute}} {
		if got := mail.Backoff(c.attempts); got != c.want {
			t.Errorf("after %d attempts: %v, want %v", c.attempts, got, c.want)
		}
	}
}

// TestParseServer: the flags' forms, and one sentence for a wrong one.
func TestParseServer(t *testing.T) {
	for _, c := range []struct {
		url, from, addr string
		implicit, ok    bool
	}{
		{"smtp://u:p%40ss@mail.clinic.test:587", "emr@clinic.test", "mail.clinic.test:587", false, true},
		{"smtp://mail.clinic.test", "emr@clinic.test", "mail.clinic.test:587", false, true},
		{"smtps://u:p@mail.clinic.test", "emr@clinic.test", "mail.clinic.test:465", true, true},
		{"http://mail.clinic.test", "emr@clinic.test", "", false, false},
		{"smtp://mail.clinic.test", "not an address", "", false, false},
		{"smtp://", "emr@clinic.test", "", false, false},
	} {
		s, err := mail.ParseServer(c.url, c.from)
		if (err == nil) != c.ok || (err == nil && (s.Addr != c.addr || s.Implicit != c.implicit)) {
			t.Errorf("%s %s: %+v %v", c.url, c.from, s, err)
		}
		if err == nil && c.url == "smtp://u:p%40ss@mail.clinic.test:587" && (s.Username != "u" || s.Password != "p@ss") {
			t.Errorf("credentials: %q %q", s.Username, s.Password)
		}
	}
}
