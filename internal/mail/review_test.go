package mail_test

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
)

// during is a sender that, on its first message, runs while() (the clinic's change made while
// the message is on its way), then answers err; later messages are counted and taken.
type during struct {
	while func()
	err   error
	calls int
}

func (d *during) Send(context.Context, mail.Envelope) error {
	d.calls++
	if d.calls == 1 {
		d.while()
		return d.err
	}
	return nil
}

// TestWithdrawnWhileSending: a message withdrawn while a sender holds it is not put back in
// the queue when that attempt fails, and is recorded sent when the other side took it.
func TestWithdrawnWhileSending(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		start := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		now := start
		cancel := func(id int64) func() {
			return func() {
				err := db.Tx(ctx, func(tx *sql.Tx) error {
					n, err := mail.Cancel(ctx, tx, now, []string{"test"}, id)
					if err == nil && n != 1 {
						t.Errorf("cancelled %d while sending", n)
					}
					return err
				})
				if err != nil {
					t.Error(err)
				}
			}
		}
		for _, c := range []struct {
			name   string
			id     int64
			err    error
			status string
		}{
			{"the gateway answers 503: cancelled, never tried again", 1, &mail.GatewayStatus{Code: 503, Retry: true}, mail.Cancelled},
			{"refused for good: still cancelled", 2, &mail.PermanentError{Err: &mail.GatewayStatus{Code: 400}}, mail.Cancelled},
			{"the gateway took it: it went, recorded sent", 3, nil, mail.Sent},
		} {
			t.Run(c.name, func(t *testing.T) {
				now = start
				s := &during{while: cancel(c.id), err: c.err}
				box := &mail.Outbox{DB: db, SMS: s, Now: func() time.Time { return now }}
				enqueue(t, db, now, mail.Message{Topic: "test", TopicID: c.id, Channel: mail.SMS, To: "+84901234567", Body: "booked: confirm or cancel"})
				if _, err := box.SendDue(ctx); err != nil {
					t.Fatal(err)
				}
				now = now.Add(2 * time.Hour) // past every back-off and lease
				if _, err := box.SendDue(ctx); err != nil {
					t.Fatal(err)
				}
				if s.calls != 1 {
					t.Fatalf("sent %d times", s.calls)
				}
				if d := deliveries(t, db, c.id); d[0].Status != c.status {
					t.Fatalf("status %+v", d[0])
				}
			})
		}
	})
}

// TestFailureReason: what staff see of a failed attempt is its class and code, never the
// recipient or what the gateway wrote back; a redirect is not followed.
func TestFailureReason(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		followed := false
		mux := http.NewServeMux()
		mux.HandleFunc("/sms", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid number +84901234567 for text https://clinic/m/1.2.appointment.k.abc"}`))
		})
		mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		})
		mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { followed = true })
		srv := httptest.NewServer(mux)
		defer srv.Close()
		for i, path := range []string{"/sms", "/moved"} {
			gw, err := mail.ParseSMS(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
			id := int64(10 + i)
			enqueue(t, db, now, mail.Message{Topic: "test", TopicID: id, Channel: mail.SMS, To: "+84901234567", Body: "text https://clinic/m/1.2.appointment.k.abc"})
			if _, err := box.SendDue(ctx); err != nil {
				t.Fatal(err)
			}
			d := deliveries(t, db, id)[0]
			want := map[string]string{"/sms": "SMS gateway refused: 400", "/moved": "SMS gateway refused: 307"}[path]
			if d.Status != mail.Failed || d.LastError != want || strings.Contains(d.LastError, "4567") {
				t.Fatalf("%s: %+v", path, d)
			}
		}
		if followed {
			t.Fatal("a redirect was followed")
		}
		if got := mail.Reason(errors.New("recipient a@b.c: 550 no such user")); got != "not sent" {
			t.Fatalf("unclassified: %q", got)
		}
	})
}

// TestResendNewKey: a message sent again after it failed carries a new idempotency key, so a
// gateway that remembers the refused one does not drop the new attempt as its duplicate.
func TestResendNewKey(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		g := &gateway{answer: []int{http.StatusBadRequest}}
		srv := httptest.NewServer(g)
		defer srv.Close()
		gw, _ := mail.ParseSMS(srv.URL)
		box := &mail.Outbox{DB: db, SMS: gw, Now: func() time.Time { return now }}
		enqueue(t, db, now, mail.Message{Topic: "test", TopicID: 20, Channel: mail.SMS, To: "+84901234567", Body: "text"})
		if _, err := box.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		var id int64
		if err := db.QueryRow(`SELECT id FROM mail_outbox WHERE topic = 'test' AND topic_id = 20`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Hour)
		if err := db.Tx(ctx, func(tx *sql.Tx) error {
			_, err := mail.Resend(ctx, tx, []string{"test"}, id, now, nil)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if n, err := box.SendDue(ctx); n != 1 || err != nil {
			t.Fatalf("sent %d: %v", n, err)
		}
		reqs, _ := g.received()
		if len(reqs) != 2 || reqs[0].Header.Get("Idempotency-Key") == reqs[1].Header.Get("Idempotency-Key") {
			t.Fatalf("keys: %q %q", reqs[0].Header.Get("Idempotency-Key"), reqs[1].Header.Get("Idempotency-Key"))
		}
	})
}
