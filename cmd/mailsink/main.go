// Command mailsink is a local SMTP server for the end-to-end tests: on a loopback address,
// without TLS or login (emr serve sends in the clear only to this machine), it writes every
// message it accepts into a folder as NNNNNN.eml, where a test reads it. Not part of the
// product: e2e/serve.sh builds and starts it beside the server.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:2525", "loopback address to listen on")
	dir := flag.String("dir", "mail", "folder the messages are written into")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		log.Fatalf("mailsink listens on a loopback address only, not %q", *addr)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	b := &backend{dir: *dir}
	srv := smtp.NewServer(b)
	srv.Addr, srv.Domain = *addr, "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	log.Fatal(srv.ListenAndServe())
}

type backend struct {
	dir string
	mu  sync.Mutex
	n   int
}

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{b: b}, nil }

type session struct {
	b    *backend
	from string
	to   []string
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.b.mu.Lock()
	s.b.n++
	name := filepath.Join(s.b.dir, fmt.Sprintf("%06d.eml", s.b.n))
	s.b.mu.Unlock()
	head := "X-Envelope-From: " + s.from + "\nX-Envelope-To: " + strings.Join(s.to, ", ") + "\n"
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, append([]byte(head), data...), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name) // a reader never sees half a message
}

func (s *session) Reset() { s.from, s.to = "", nil }

func (s *session) Logout() error { return nil }
