package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/metrics"
)

// listening are the servers `emr serve` runs: the app (HTTP, or HTTPS with a certificate
// re-read on SIGHUP), and optionally a redirect from HTTP to HTTPS and the metrics.
type listening struct {
	app    *http.Server
	others []*http.Server
	errc   chan error
	stop   func() // stops watching for SIGHUP
}

// listen opens every address first (so that a taken port fails the start), then serves.
func listen(cfg config.Config, handler http.Handler, stdout io.Writer, engine database.Engine) (*listening, error) {
	l := &listening{errc: make(chan error, 3), stop: func() {}}
	type server struct {
		srv *http.Server
		ln  net.Listener
		tls bool
	}
	var servers []server
	open := func(addr string, h http.Handler, tls bool) (net.Listener, error) {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			for _, s := range servers {
				s.ln.Close()
			}
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
		servers = append(servers, server{srv: srv, ln: ln, tls: tls})
		return ln, nil
	}
	https := cfg.TLSCert != ""
	ln, err := open(cfg.Addr, handler, https)
	if err != nil {
		return nil, err
	}
	l.app = servers[0].srv
	scheme := "http"
	if https {
		cert := &certificate{certFile: cfg.TLSCert, keyFile: cfg.TLSKey}
		if err := cert.load(); err != nil {
			ln.Close()
			return nil, err
		}
		l.stop = cert.reloadOnHangUp()
		l.app.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: cert.get}
		scheme = "https"
	}
	fmt.Fprintf(stdout, "EMR is running at %s://%s (database: %s)\n", scheme, ln.Addr(), engine)
	if cfg.RedirectAddr != "" {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		rln, err := open(cfg.RedirectAddr, redirect(port), false)
		if err != nil {
			l.stop()
			return nil, err
		}
		fmt.Fprintf(stdout, "Redirecting http://%s to HTTPS\n", rln.Addr())
	}
	if cfg.MetricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", metrics.Handler(""))
		mln, err := open(cfg.MetricsAddr, mux, false)
		if err != nil {
			l.stop()
			return nil, err
		}
		fmt.Fprintf(stdout, "Metrics at http://%s/metrics\n", mln.Addr())
	}
	for i, s := range servers {
		if i > 0 {
			l.others = append(l.others, s.srv)
		}
		go func() {
			var err error
			if s.tls {
				err = s.srv.ServeTLS(s.ln, "", "")
			} else {
				err = s.srv.Serve(s.ln)
			}
			if !errors.Is(err, http.ErrServerClosed) {
				l.errc <- err
			}
		}()
	}
	return l, nil
}

// shutdown stops accepting on every address and waits (until ctx ends) for the requests in
// flight.
func (l *listening) shutdown(ctx context.Context) error {
	l.stop()
	for _, s := range l.others {
		_ = s.Shutdown(ctx)
	}
	return l.app.Shutdown(ctx)
}

// redirect answers plain HTTP with a permanent redirect to the same place over HTTPS, on the
// app's port.
func redirect(port string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if port != "443" {
			host = net.JoinHostPort(host, port)
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
}

// certificate is the TLS certificate served, read again from its files on SIGHUP (a renewal
// needs no restart); a file that does not load keeps the one served.
type certificate struct {
	certFile, keyFile string
	current           atomic.Pointer[tls.Certificate]
}

func (c *certificate) load() error {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("load the TLS certificate: %w", err)
	}
	c.current.Store(&cert)
	for _, advice := range certificateAdvice(cert.Leaf, time.Now()) {
		slog.Warn(advice, "file", c.certFile)
	}
	return nil
}

// certificateAdvice says what is wrong with a served certificate that its loading does not
// refuse. A certificate the clinic's browsers do not trust is the costly one: a browser told
// to go past the warning keeps none of the app's files in its cache, so every screen of every
// visit loads cold (bench/README.md, "The everyday screens").
func certificateAdvice(leaf *x509.Certificate, now time.Time) []string {
	if leaf == nil {
		return nil
	}
	var advice []string
	if bytes.Equal(leaf.RawIssuer, leaf.RawSubject) && leaf.CheckSignature(leaf.SignatureAlgorithm, leaf.RawTBSCertificate, leaf.Signature) == nil {
		advice = append(advice, "the TLS certificate is self-signed: browsers warn on every visit and, told to go on, cache none of the app's files, so every screen loads slowly; use a certificate the clinic's browsers trust (README, TLS)")
	}
	switch left := leaf.NotAfter.Sub(now); {
	case left <= 0:
		advice = append(advice, "the TLS certificate has expired: browsers refuse it; renew it and send SIGHUP")
	case left < 14*24*time.Hour:
		advice = append(advice, fmt.Sprintf("the TLS certificate expires in %d days (%s): renew it and send SIGHUP", int(left.Hours()/24), leaf.NotAfter.UTC().Format(time.DateOnly)))
	}
	return advice
}

func (c *certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.current.Load(), nil
}

func (c *certificate) reloadOnHangUp() func() {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-hup:
				if err := c.load(); err != nil {
					slog.Error("SIGHUP: the TLS certificate was not reloaded; the previous one is still served", "err", err)
				} else {
					slog.Info("SIGHUP: TLS certificate reloaded", "file", c.certFile)
				}
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}
