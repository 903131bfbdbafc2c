// Command outbox measures the message outbox (ADR 42) under 10,000 due reminders: half by
// e-mail to a local SMTP sink, half by SMS to a local HTTP gateway, sent by two senders
// racing as two instances would; it checks that each message was received exactly once and
// records the throughput and the peak memory (Go heap and the process's resident set).
// Usage: go run ./bench/outbox -database-url sqlite:bench/out/outbox.db [-n 10000] [-label SQLite]
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"

	"emr/internal/database"
	"emr/internal/mail"
)

func main() {
	url := flag.String("database-url", "sqlite:bench/out/outbox.db", "a fresh database")
	n := flag.Int("n", 10000, "how many reminders")
	label := flag.String("label", "SQLite", "the engine's name in the table")
	senders := flag.Int("senders", 2, "senders racing (instances)")
	flag.Parse()
	ctx := context.Background()
	db, err := database.Open(ctx, *url)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		log.Fatal(err)
	}

	// The local SMTP sink and SMS gateway, each counting what it got by message id.
	var mu sync.Mutex
	got := map[string]int{}
	count := func(id string) {
		mu.Lock()
		got[id]++
		mu.Unlock()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	sink := smtp.NewServer(backend{count: count})
	sink.Domain = "127.0.0.1"
	go func() { _ = sink.Serve(l) }()
	defer sink.Close()
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		count("sms:" + body["id"])
		w.WriteHeader(http.StatusAccepted)
	}))
	defer gateway.Close()
	smsGateway, err := mail.ParseSMS(gateway.URL)
	if err != nil {
		log.Fatal(err)
	}
	host, _, _ := net.SplitHostPort(l.Addr().String())
	smtpServer := &mail.Server{Addr: l.Addr().String(), Host: host, From: "emr@clinic.test", Timeout: 10 * time.Second}

	// 10,000 reminders due now, written as the appointment hook writes them.
	now := time.Now().UTC()
	start := time.Now()
	for i := 0; i < *n; i += 1000 {
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			for j := i; j < min(i+1000, *n); j++ {
				m := mail.Message{Topic: "appointment.reminder", TopicID: int64(j + 1), Channel: mail.Email, To: fmt.Sprintf("p%d@example.test", j),
					Subject: "Sunrise Clinic: reminder of your appointment", Body: "Hello,\n\nA reminder: your appointment is tomorrow at 09:30.\n\nhttps://clinic.example/m/x\n",
					DueAt: now.Add(-time.Minute), ExpiresAt: now.Add(24 * time.Hour)}
				if j%2 == 1 {
					m.Channel, m.To, m.Subject, m.Body = mail.SMS, fmt.Sprintf("+8490%07d", j), "", "Sunrise Clinic: reminder, appointment 03/12/2026 at 09:30. https://clinic.example/m/x"
				}
				if err := mail.Enqueue(ctx, tx, now.Add(-time.Minute), m); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	written := time.Since(start)

	// Peak memory, sampled while sending.
	var peakHeap atomic.Uint64
	stop := make(chan struct{})
	var sampling sync.WaitGroup
	sampling.Add(1)
	go func() {
		defer sampling.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peakHeap.Load() {
				peakHeap.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start = time.Now()
	var wg sync.WaitGroup
	var total atomic.Int64
	for range *senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			box := &mail.Outbox{DB: db, Server: smtpServer, SMS: smsGateway, Domain: "clinic.test"}
			for idle := 0; idle < 3; {
				k, err := box.SendDue(ctx)
				if err != nil {
					log.Fatal(err)
				}
				total.Add(int64(k))
				if k == 0 {
					idle++
					time.Sleep(50 * time.Millisecond) // the other sender may hold the last ones
				} else {
					idle = 0
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	sampling.Wait()

	var sent, left int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE status = 'sent'`).Scan(&sent); err != nil {
		log.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE status <> 'sent'`).Scan(&left); err != nil {
		log.Fatal(err)
	}
	mu.Lock()
	twice := 0
	for _, c := range got {
		if c > 1 {
			twice++
		}
	}
	received := len(got)
	mu.Unlock()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	once := "yes"
	if received != *n || twice > 0 || sent != *n || left != 0 || int(total.Load()) != *n {
		once = fmt.Sprintf("NO: received %d distinct, %d more than once, %d sent, %d not sent, senders counted %d", received, twice, sent, left, total.Load())
	}
	fmt.Printf("| %s | %d | %d | %.1f | %.1f | %.0f | %.1f | %.1f | %s |\n", *label, *n, *senders, written.Seconds(), elapsed.Seconds(),
		float64(*n)/elapsed.Seconds(), float64(peakHeap.Load())/(1<<20), float64(ru.Maxrss)/1024, once)
	if !strings.HasPrefix(once, "yes") {
		os.Exit(1)
	}
}

type backend struct{ count func(string) }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{count: b.count}, nil }

type session struct{ count func(string) }

func (s *session) Mail(string, *smtp.MailOptions) error { return nil }
func (s *session) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Message-ID: ") {
			s.count("mail:" + strings.TrimSpace(strings.TrimPrefix(line, "Message-ID: ")))
		}
	}
	return nil
}
func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }
