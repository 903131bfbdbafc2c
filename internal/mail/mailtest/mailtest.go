// Package mailtest runs a real SMTP server for tests: on 127.0.0.1, with STARTTLS under a
// certificate made for the test (mail.Server.RootCAs trusts it), PLAIN login, and a record of
// every message it accepted.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"emr/internal/mail"
)

// Username and Password are the login the server takes.
const (
	Username = "clinic"
	Password = "mail-secret-7"
)

// Received is one message the server accepted.
type Received struct {
	From string
	To   []string
	Data string
	TLS  bool // the message came over TLS
}

// Server is a running SMTP server.
type Server struct {
	Addr    string
	RootCAs *x509.CertPool

	t    testing.TB
	cert tls.Certificate
	mu   sync.Mutex
	got  []Received
	smtp *smtp.Server
}

// Start runs a server on a free port of 127.0.0.1 until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t}
	s.cert, s.RootCAs = certificate(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = l.Addr().String()
	s.serve(l)
	t.Cleanup(s.Stop)
	return s
}

// Reserve picks an address where nothing listens yet (StartAt starts the server there later):
// a mail server that is down.
func Reserve(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t}
	s.cert, s.RootCAs = certificate(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = l.Addr().String()
	l.Close()
	t.Cleanup(s.Stop)
	return s
}

// Up starts a reserved server at its address.
func (s *Server) Up() {
	s.t.Helper()
	l, err := net.Listen("tcp", s.Addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(l)
}

func (s *Server) serve(l net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{server: s, conn: c}, nil }))
	srv.Domain = "127.0.0.1"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.mu.Lock()
	s.smtp = srv
	s.mu.Unlock()
	go func() { _ = srv.Serve(l) }()
}

// Stop closes the server.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.smtp
	s.smtp = nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Messages returns what the server accepted so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// Client is the mail.Server that talks to this server with login, from emr@clinic.test.
func (s *Server) Client(password string) *mail.Server {
	host, _, _ := net.SplitHostPort(s.Addr)
	return &mail.Server{Addr: s.Addr, Host: host, Username: Username, Password: password, From: "emr@clinic.test", RootCAs: s.RootCAs, Timeout: 10 * time.Second}
}

type session struct {
	server *Server
	conn   *smtp.Conn
	authed bool
	msg    Received
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != Username || password != Password {
			return smtp.ErrAuthFailed
		}
		x.authed = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if !x.authed {
		return smtp.ErrAuthRequired
	}
	x.msg = Received{From: from}
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.msg.Data = strings.ReplaceAll(string(b), "\r\n", "\n")
	_, x.msg.TLS = x.conn.TLSConnectionState()
	x.server.mu.Lock()
	x.server.got = append(x.server.got, x.msg)
	x.server.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.msg = Received{} }
func (x *session) Logout() error { return nil }

// certificate makes a self-signed certificate for 127.0.0.1 and a pool that trusts it.
func certificate(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
