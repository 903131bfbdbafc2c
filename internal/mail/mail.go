// Package mail sends the product's e-mail through the clinic's own mail server. What a
// feature has to say by e-mail it writes into the outbox (mail_outbox) in the transaction of
// the change it tells about, so nothing is lost while the mail server is down; a worker sends
// what is due, retries with back-off, and marks each message sent once the server took it.
// The package knows no feature: a message names its topic and the topic's id.
package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"
)

// Server is the clinic's mail server, as --smtp-url and --smtp-from give it.
type Server struct {
	Addr     string // host:port
	Host     string // the name its certificate must carry
	Implicit bool   // smtps://: TLS from the first byte; smtp://: STARTTLS
	Username string
	Password string
	From     string // the sender's address
	// RootCAs verifies the server's certificate; nil: the system's roots. Tests set their own
	// authority here; certificates are always verified.
	RootCAs *x509.CertPool
	// Timeout bounds one message's whole conversation (default 30 s).
	Timeout time.Duration
}

// ParseServer reads --smtp-url (smtp://USER:PASS@HOST:587 with STARTTLS, or smtps://…:465
// with implicit TLS) and --smtp-from, with one clear sentence when either is wrong.
func ParseServer(rawURL, from string) (*Server, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, errors.New("the mail server URL must look like smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://USER:PASSWORD@HOST:465 (TLS)")
	}
	s := &Server{Host: u.Hostname(), Implicit: u.Scheme == "smtps", Username: u.User.Username()}
	s.Password, _ = u.User.Password()
	port := u.Port()
	if port == "" {
		port = map[bool]string{false: "587", true: "465"}[s.Implicit]
	}
	s.Addr = net.JoinHostPort(s.Host, port)
	addr, err := mail.ParseAddress(from)
	if err != nil || addr.Name != "" {
		return nil, fmt.Errorf("--smtp-from must be the address alerts are sent from, e.g. emr@clinic.example (not %q)", from)
	}
	s.From = addr.Address
	return s, nil
}

// Envelope is one message to one recipient.
type Envelope struct {
	To        string
	Subject   string
	Body      string // plain text
	MessageID string // the same on every attempt, so a receiver can drop a duplicate
}

// PermanentError is a refusal the mail server gives for good (a 5xx reply: a wrong password,
// an address it will not take): trying again would be refused again.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// classify marks 5xx replies permanent; everything else (no connection, 4xx) may pass later.
func classify(err error) error {
	var reply *textproto.Error
	if errors.As(err, &reply) && reply.Code >= 500 && reply.Code < 600 {
		return &PermanentError{Err: err}
	}
	return err
}

// Send hands one message to the server: TLS first (STARTTLS, or implicit), the credentials,
// then the message. A server that offers no STARTTLS is refused unless it listens on this
// machine (a local relay), so that no password or message crosses a network in the clear.
func (s *Server) Send(ctx context.Context, m Envelope) error {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("connect to the mail server: %w", err)
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	tlsConfig := &tls.Config{ServerName: s.Host, RootCAs: s.RootCAs, MinVersion: tls.VersionTLS12}
	if s.Implicit {
		conn = tls.Client(conn, tlsConfig)
	}
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("greet the mail server: %w", classify(err))
	}
	defer c.Close()
	if !s.Implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tlsConfig); err != nil {
				return fmt.Errorf("start TLS with the mail server: %w", classify(err))
			}
		} else if !loopback(s.Host) {
			return errNoSTARTTLS
		}
	}
	if s.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.Username, s.Password, s.Host)); err != nil {
			return fmt.Errorf("log in to the mail server: %w", classify(err))
		}
	}
	if err := c.Mail(s.From); err != nil {
		return fmt.Errorf("mail from: %w", classify(err))
	}
	if err := c.Rcpt(m.To); err != nil {
		return fmt.Errorf("recipient: %w", classify(err))
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("data: %w", classify(err))
	}
	if _, err := w.Write(s.compose(m)); err != nil {
		return fmt.Errorf("send the message: %w", err)
	}
	if err := w.Close(); err != nil { // the server's answer to the message itself
		return fmt.Errorf("the mail server did not take the message: %w", classify(err))
	}
	_ = c.Quit() // taken: a failed goodbye changes nothing
	return nil
}

var errNoSTARTTLS = errors.New("the mail server offers no STARTTLS: nothing is sent in the clear (use smtps:// for TLS from the start)")

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// compose writes the message: UTF-8 text, quoted-printable (every server takes it), the
// subject encoded for the header.
func (s *Server) compose(m Envelope) []byte {
	var b strings.Builder
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", s.From)
	header("To", m.To)
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", time.Now().UTC().Format(time.RFC1123Z))
	if m.MessageID != "" {
		header("Message-ID", m.MessageID)
	}
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	header("Auto-Submitted", "auto-generated")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n")))
	_ = qp.Close()
	return []byte(b.String())
}
