// Package server mounts every feature's route table behind the permission guard, adds the
// middleware every response passes through, and serves the web app.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auditlog"
	"emr/internal/auth"
	"emr/internal/backups"
	"emr/internal/billing"
	"emr/internal/booking"
	"emr/internal/catalogue"
	"emr/internal/charting"
	"emr/internal/config"
	"emr/internal/dashboard"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/document"
	"emr/internal/feereport"
	"emr/internal/fhir"
	"emr/internal/growth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/mail"
	"emr/internal/metrics"
	"emr/internal/patient"
	"emr/internal/portal"
	"emr/internal/prescription"
	"emr/internal/profile"
	"emr/internal/push"
	"emr/internal/release"
	"emr/internal/reminder"
	"emr/internal/result"
	"emr/internal/role"
	"emr/internal/secret"
	"emr/internal/settings"
	"emr/internal/stores"
	"emr/internal/user"
)

// Server is the HTTP handler of the emr binary and the routes it serves.
type Server struct {
	Routes  []auth.Route
	Handler http.Handler
	// Push carries events to the push channel's subscribers: through the built-in endpoint
	// on every instance, or a hosted provider. Its Run must run for events to be delivered.
	Push push.Publisher

	background []func(ctx context.Context) // see Background
	hub        *push.Hub                   // the built-in endpoint's sockets
	// settle waits for the work a request left running after it answered (a rebuild of the
	// immunisation due list): a test's database is closed after it.
	settle func()
}

// Settle waits for the work requests left running after they answered.
func (s *Server) Settle() {
	if s.settle != nil {
		s.settle()
	}
}

// CloseSockets closes the built-in push endpoint's sockets with the protocol's "reconnect
// now" code, once requests have stopped (a stopping instance: clients move to another), and
// waits until they are gone or ctx ends.
func (s *Server) CloseSockets(ctx context.Context) {
	if s.hub.CloseAll() == 0 {
		return
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for s.hub.Open() > 0 {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Background starts the server's work outside requests — the audit log's sealer and the
// folding of the dashboard's deltas — and returns a channel closed when, ctx ended, all of
// it has stopped (the sealer chains what is left first).
func (s *Server) Background(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, run := range s.background {
		wg.Go(func() { run(ctx) })
	}
	go func() { wg.Wait(); close(done) }()
	return done
}

// sealer chains the appended audit events every audit.SealEvery (ADR 21) and, once ctx has
// ended (after the last request), once more, so that a server stopping leaves none waiting.
func sealer(db *database.DB) func(ctx context.Context) {
	seal := func(ctx context.Context) error {
		_, err := audit.SealPending(ctx, db)
		return err
	}
	return func(ctx context.Context) {
		every(audit.SealEvery, "seal the audit log", seal)(ctx)
		if err := seal(context.WithoutCancel(ctx)); err != nil {
			slog.Error("seal the audit log at shutdown", "err", err)
		}
	}
}

// foldEvery is how often the dashboard's deltas are folded into its counts; sweepEvery how
// often ended throttle windows are forgotten.
const (
	foldEvery  = time.Second
	sweepEvery = 10 * time.Minute
)

// escalateEvery is how often critical alerts are checked for having waited too long.
const escalateEvery = 30 * time.Second

// escalate marks the critical alerts that waited past the clinic's interval and, when any
// did, tells who reviews results (the covering role re-reads its alerts).
func escalate(results *result.Store, publisher push.Publisher) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		n, err := results.Escalate(ctx)
		if err == nil && n > 0 {
			_ = publisher.Publish(push.ResultsChannel, "App.Events.ResultsChanged", map[string]string{"path": "escalation"}, "")
		}
		return err
	}
}

// every calls fn every period until ctx ends, logging a failure once until it succeeds.
func every(period time.Duration, what string, fn func(ctx context.Context) error) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(period)
		defer t.Stop()
		failing := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := fn(ctx); err != nil && ctx.Err() == nil {
				if !failing {
					slog.Error(what, "err", err)
				}
				failing = true
				continue
			}
			failing = false
		}
	}
}

// CheckConfig checks what configuration cannot check alone: the mail server's and the push
// provider's URLs, with one clear sentence when one is wrong.
func CheckConfig(cfg config.Config) error {
	if cfg.SMTPURL != "" {
		if _, err := mail.ParseServer(cfg.SMTPURL, cfg.SMTPFrom); err != nil {
			return err
		}
	} else if cfg.SMTPFrom != "" {
		return errors.New("--smtp-from is the sender of e-mail through --smtp-url, which is not set")
	}
	if cfg.SMSURL != "" {
		if _, err := mail.ParseSMS(cfg.SMSURL); err != nil {
			return err
		}
	}
	if cfg.PushURL == "" {
		return nil
	}
	_, err := push.ParseProvider(cfg.PushURL)
	return err
}

// New wires every feature onto one handler. web is the built web app (its dist folder).
func New(cfg config.Config, db *database.DB, web fs.FS) *Server {
	ring := cfg.Secrets
	if ring == nil {
		ring = secret.Ephemeral() // tests; emr serve opens the key file
	}
	loc, err := cfg.Location()
	if err != nil {
		loc = time.Local // ValidateServe has refused a bad zone before this
	}
	st := stores.New(db, stores.Clinic{Loc: loc, Ring: ring, BaseURL: cfg.PublicBase(), Email: cfg.SMTPURL != "", SMS: cfg.SMSURL != "", Tell: true})
	users := st.Users
	sessions := &auth.Sessions{DB: db, Identities: users, Idle: cfg.SessionIdle, Lifetime: cfg.SessionLifetime}
	throttle := &auth.Throttle{DB: db, Window: auth.ThrottleWindow}
	twoFactor := &auth.TwoFactor{DB: db, Secrets: ring}
	tokens := &auth.APITokens{DB: db, Sessions: sessions}
	accounts := &user.Handler{Users: users, Sessions: sessions, Throttle: throttle, TwoFactor: twoFactor, Tokens: tokens, Clients: &auth.Clients{DB: db}}
	patients := &patient.Handler{Store: st.Patients, MaxPhoto: int64(cfg.PhotoMaxMB) << 20, MaxAttachment: int64(cfg.AttachmentMaxMB) << 20}
	codes, dash, results, patientMessages := st.Codes, st.Dashboard, st.Results, st.Messages
	appointments := &appointment.Handler{Store: st.Appointments}
	onlineBooking := st.Booking
	hub, keys := push.NewHub(), &push.KeyStore{Settings: st.Settings, Secrets: ring}
	var publisher push.Publisher = &push.Fanout{Hub: hub, DB: db, Keys: keys}
	var pushOrigin string                                                                  // where browsers connect for live events, when not to this origin
	if provider, err := push.ParseProvider(cfg.PushURL); cfg.PushURL != "" && err == nil { // CheckConfig has refused a bad URL
		publisher, keys = provider, push.StaticKeys(provider.Keys)
		settings, _ := provider.ClientSettings(context.Background())
		pushOrigin = settings.Origin()
	}
	archiveOptions := backups.ArchiveOptions(cfg.Version)
	archiveOptions.Recipients, _ = archive.ParseRecipients(cfg.BackupRecipients) // emr serve has refused a wrong one
	archiveOptions.RecipientNames, archiveOptions.Plaintext = cfg.BackupRecipients, cfg.BackupPlaintext
	archiveOptions.Keys = ring // the clinic's key file authenticates every scheduled archive
	scheduled := &backups.Scheduler{DB: db, Dir: cfg.BackupDir, Every: cfg.BackupEvery, Keep: cfg.BackupKeep, Options: archiveOptions}
	watch(db, scheduled)
	fees, prescriptions, releases, portalStore := st.Fees, st.Prescriptions, st.Releases, st.Portal
	clients := &auth.Clients{DB: db}
	apps := &auth.Apps{DB: db, Sessions: sessions, InCompartment: fhir.InPatientCompartment}
	interop := &fhir.Handler{DB: db, Patients: patients.Store, Visits: appointments.Store, Prescriptions: prescriptions, Results: results,
		Documents: st.Documents, Version: cfg.Version, Clients: clients, Apps: apps, Keys: ring, MaxImport: int64(cfg.AttachmentMaxMB) << 20}
	routes := slices.Concat(
		accounts.Routes(),
		accounts.TokenRoutes(),
		patients.Routes(),
		appointments.Routes(),
		(&result.Handler{Store: results, MaxReport: int64(cfg.AttachmentMaxMB) << 20}).Routes(),
		(&catalogue.Handler{Store: codes, MaxImport: int64(cfg.AttachmentMaxMB) << 20, Progress: importProgress(publisher)}).Routes(),
		(&prescription.Handler{Store: prescriptions}).Routes(),
		(&immunisation.Handler{Store: st.Immunisations}).Routes(),

		(&growth.Handler{DB: db, Patients: st.Patients, Loc: loc}).Routes(),
		(&charting.Handler{Store: st.Charting}).Routes(),
		(&billing.Handler{Store: fees, MaxImport: int64(cfg.AttachmentMaxMB) << 20}).Routes(),
		(&feereport.Handler{Reports: &feereport.Reports{DB: db, Fees: fees, Loc: loc}}).Routes(),
		(&document.Handler{Store: st.Documents, Verify: &document.Limiter{Throttle: &auth.Throttle{DB: db, Window: document.VerifyWindow}}}).Routes(),
		(&document.Handler{Store: st.Documents}).CardRoutes(),
		(&profile.Handler{Store: st.Profiles, Users: users, Sessions: sessions, Throttle: throttle, TwoFactor: twoFactor}).Routes(),
		(&settings.Handler{DB: db}).Routes(),
		(&release.Handler{Store: releases}).Routes(),
		(&reminder.Handler{Service: patientMessages, Appointments: appointments.Store, Throttle: &auth.Throttle{DB: db, Window: reminder.ThrottleWindow}}).Routes(),
		(&portal.Handler{Store: portalStore, Throttle: &auth.Throttle{DB: db, Window: portal.AccessWindow}}).Routes(),
		(&booking.Handler{Store: onlineBooking, Throttle: &auth.Throttle{DB: db, Window: booking.ThrottleWindow}}).Routes(),
		(&role.Handler{Store: st.Roles}).Routes(),
		(&immunisation.DueHandler{Reminders: st.DueReminders}).DueRoutes(),
		(&auditlog.Handler{DB: db}).Routes(),
		(&dashboard.Handler{Store: dash}).Routes(),
		(&push.Handler{Keys: keys}).Routes(),
		scheduled.Routes(),
		interop.Routes(),
		interop.ImportRoutes(),
		interop.SmartRoutes(),
		[]auth.Route{
			{Method: "GET", Path: "/api/health", Access: auth.Public, Handler: health(db)},
			{Method: "GET", Path: "/api/ready", Access: auth.Public, Handler: ready(db)},
			{Method: "GET", Path: "/api/config", Access: auth.Public, Handler: clientConfig(cfg, publisher)},
		},
	)
	accounts.FHIRRoutes = routes // what a token's scopes may reach: the FHIR routes an account's roles allow
	apps.Routes = routes         // and what a SMART app's may
	mux := http.NewServeMux()
	guard := &auth.Guard{Sessions: sessions, Tokens: tokens, Clients: clients, Apps: apps, Portal: portalStore}
	for _, rt := range routes {
		mux.Handle(rt.Method+" "+rt.Path, metrics.Route(rt.Method, rt.Path, refuseControlQuery(announce(publisher, rt, guard.Wrap(rt)))))
	}
	mux.Handle("/api/", metrics.Route("ANY", "/api/ (no route)", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { apiFallback(mux, w, r) })))
	mux.Handle(fhir.Base+"/", metrics.Route("ANY", fhir.Base+"/ (no route)", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fhir.WriteError(w, r, &fhir.Error{Status: http.StatusNotFound, Code: "not-supported", Key: "fhir.no_route"})
	})))
	if cfg.MetricsToken != "" {
		mux.Handle("GET /metrics", metrics.Handler(cfg.MetricsToken))
	}
	if _, builtIn := publisher.(*push.Fanout); builtIn {
		identify := func(r *http.Request) (int64, error) {
			p, err := sessions.Lookup(r.Context(), auth.SessionToken(r))
			if err != nil {
				return 0, err
			}
			return p.UserID, nil
		}
		// The push protocol's WebSocket path, for logged-in users only.
		// A socket closes once its session has ended (logout, a password or second-factor
		// change, an administrator's reset) on whichever instance it ended.
		alive := func(ctx context.Context, r *http.Request) (bool, error) {
			return sessions.Alive(ctx, auth.SessionToken(r))
		}
		mux.Handle("GET /app/{key}", metrics.Route("GET", "/app/{key}", &push.Server{Hub: hub, Keys: keys, Identify: identify, PerUser: push.MaxSocketsPerUser,
			Alive: alive, Recheck: push.SessionRecheck}))
	}
	mux.Handle("/", metrics.Route("GET", "/ (web app)", static{files: web}))

	var h http.Handler = mux
	h = logRequests(h)
	proxies, _ := cfg.ProxyNetworks() // checked by ValidateServe; a bad list names no proxy
	h = forwarded(h, cfg.TrustProxy, proxies)
	h = cors(h, cfg.CORSOrigins)
	h = securityHeaders(h, pushOrigin)
	h = recoverPanics(h)
	interop.Dispatch = h
	background := []func(context.Context){
		sealer(db),
		every(foldEvery, "fold the dashboard's counts", dash.Fold),
		every(foldEvery, "fold the totals", func(ctx context.Context) error { return database.FoldTotals(ctx, db) }),
		every(sweepEvery, "sweep ended throttle windows", func(ctx context.Context) error {
			_, err := throttle.Sweep(ctx, time.Now().UTC()) // each row once its own window is over
			return err
		}),
		every(sweepEvery, "write the token endpoint's ended refusal windows to the audit log", func(ctx context.Context) error {
			_, err := clients.CloseRefusalWindows(ctx) // before the sweep above could drop one: its windows end after 15 minutes
			return err
		}),
		every(escalateEvery, "escalate critical results", escalate(results, publisher)),
		every(booking.ExpireEvery, "expire unanswered online booking requests", func(ctx context.Context) error {
			n, err := onlineBooking.Expire(ctx)
			if err == nil && n > 0 {
				_ = publisher.Publish(push.AppointmentsChannel, "App.Events.AppointmentChanged", map[string]string{"path": "booking-expiry"}, "")
			}
			return err
		}),
		every(sweepEvery, "delete expired bulk export files", func(ctx context.Context) error { return fhir.SweepExports(ctx, db) }),
		every(user.RemindEvery, "remind owners of expiring API tokens", func(ctx context.Context) error {
			_, err := user.RemindExpiringTokens(ctx, db, time.Now())
			return err
		}),
		// The immunisation reminders' daily pass (and a rebuild of the due list the clinic's
		// schedules asked for), hourly: each dose is reminded of once ever.
		every(immunisation.PassEvery, "remind of due immunisations", func(ctx context.Context) error {
			_, err := st.DueReminders.Pass(ctx)
			return err
		}),
		scheduled.Run,
	}
	if outbox := mailOutbox(cfg, db); outbox != nil {
		background = append(background, outbox.Run)
	}
	return &Server{Routes: routes, Handler: h, Push: publisher, hub: hub, background: background, settle: st.Immunisations.WaitRebuild}
}

// mailOutbox is the sender of the e-mail and text messages the product writes into its
// outbox, when the clinic gave a mail server (--smtp-url) or an SMS gateway (--sms-url); nil
// otherwise: alerts stay inside the app.
func mailOutbox(cfg config.Config, db *database.DB) *mail.Outbox {
	if cfg.SMTPURL == "" && cfg.SMSURL == "" {
		return nil
	}
	box := &mail.Outbox{DB: db}
	if server, err := mail.ParseServer(cfg.SMTPURL, cfg.SMTPFrom); cfg.SMTPURL != "" && err == nil { // CheckConfig has refused a wrong one
		_, box.Domain, _ = strings.Cut(server.From, "@")
		box.Server = server
	}
	if gateway, err := mail.ParseSMS(cfg.SMSURL); cfg.SMSURL != "" && err == nil {
		box.SMS = gateway
	}
	return box
}

// watch adds the series read when metrics are scraped: the database's statement times and
// pool's use, the audit chain's length and the age of the last scheduled backup.
func watch(db *database.DB, scheduled *backups.Scheduler) {
	db.Observe(metrics.Query)
	metrics.WatchPool(db.DB)
	metrics.Gauge("emr_audit_chain_length", "Events in the audit log's hash chain.", func(ctx context.Context) (float64, bool) {
		seq, _, err := audit.ReadHead(ctx, db)
		return float64(seq), err == nil
	})
	metrics.Gauge("emr_backup_last_success_age_seconds", "Seconds since the newest scheduled backup was written (absent when scheduled backups are off or none was written).",
		func(context.Context) (float64, bool) {
			age, ok := scheduled.LastSuccessAge()
			return age.Seconds(), ok
		})
}

// importProgress tells the importing user, on their own channel, how far a catalogue import
// has got, so the screen can show it while the upload's request is still running.
func importProgress(publisher push.Publisher) func(r *http.Request, list string, done, total int) {
	return func(r *http.Request, list string, done, total int) {
		if p := auth.PrincipalFrom(r.Context()); p != nil {
			_ = publisher.Publish(push.UserChannel(p.UserID), "App.Events.ImportProgress", map[string]any{"list": list, "done": done, "total": total}, "")
		}
	}
}

// refuseControlQuery answers 422, naming the parameter, for a query parameter with a control
// character (a NUL byte): no handler or database sees one (JSON bodies: httpjson.Decode).
func refuseControlQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for key, values := range r.URL.Query() {
			if httpjson.HasControl(key) || slices.ContainsFunc(values, httpjson.HasControl) {
				name := key
				if httpjson.HasControl(key) {
					name = strconv.QuoteToASCII(key) // the field named without the character itself
				}
				var v apperr.Validation
				v.Add(name, "validation.control_characters")
				httpjson.Error(w, r, v.Err())
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// apiFallback answers unknown API paths with 404 and known paths with another method with
// 405, both as JSON.
func apiFallback(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "/api/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		lang := i18n.FromRequest(r)
		httpjson.Respond(w, http.StatusMethodNotAllowed, httpjson.ErrorBody{Error: i18n.T(lang, "error.method_not_allowed"), Code: "error.method_not_allowed"})
		return
	}
	httpjson.Error(w, r, apperr.NotFound("error.route_not_found"))
}

// probe is a health check's handler: given the database when it answers a ping within 2 s,
// else answered 503 for it.
func probe(db *database.DB, check func(ctx context.Context, w http.ResponseWriter)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := db.PingContext(ctx); err != nil {
			unavailable(w, "unreachable")
			return
		}
		check(ctx, w)
	}
}

func unavailable(w http.ResponseWriter, why string) {
	httpjson.Respond(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": why})
}

func health(db *database.DB) http.HandlerFunc {
	return probe(db, func(ctx context.Context, w http.ResponseWriter) {
		// The audit log's sealer chains every event within audit.SealBound; an event waiting
		// longer means it is not running anywhere (an operator's warning, not an outage).
		chained := "ok"
		if _, oldest, err := audit.Backlog(ctx, db, time.Now()); err != nil || oldest > audit.SealBound {
			chained = "behind"
		}
		httpjson.Respond(w, http.StatusOK, map[string]string{"status": "ok", "database": string(db.Engine), "audit": chained})
	})
}

// ready answers 200 when this instance can serve: its database answers and holds every
// migration this binary knows; otherwise 503 (a load balancer sends it no requests).
func ready(db *database.DB) http.HandlerFunc {
	return probe(db, func(ctx context.Context, w http.ResponseWriter) {
		if current, err := db.Current(ctx); err != nil || !current {
			unavailable(w, "migrations pending")
			return
		}
		httpjson.Respond(w, http.StatusOK, map[string]string{"status": "ready", "database": string(db.Engine)})
	})
}

// clientConfig tells the web app the settings it may show before anyone logs in.
// The push channel's connection settings come from here too, so no key is built into the
// web app: the built-in endpoint is this origin's /app/{key}, a provider is named.
func clientConfig(cfg config.Config, publisher push.Publisher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		settings, err := publisher.ClientSettings(r.Context())
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusOK, map[string]any{"show_settings": cfg.ShowSettings, "push": settings})
	}
}

// contentSecurityPolicy allows only this origin: no inline script, no third parties, except
// a configured push provider's WebSocket origin (pushOrigin) for connections.
// Inline styles are allowed because the component library injects its CSS at run time
// (docs/adr/0003-csp-inline-styles.md).
func contentSecurityPolicy(pushOrigin string) string {
	connect := "'self'"
	if pushOrigin != "" {
		connect += " " + pushOrigin
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src " + connect + "; object-src 'none'; " +
		"base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}

func securityHeaders(next http.Handler, pushOrigin string) http.Handler {
	csp := contentSecurityPolicy(pushOrigin)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
		if r.TLS != nil {
			// Served over TLS by this process: browsers keep to HTTPS for a year.
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// forwarded takes the client's address from a trusted reverse proxy's X-Forwarded-For, and
// whether cookies are Secure from its X-Forwarded-Proto; from anyone else both headers are
// dropped, since any client could send them (the attacker's review, M7).
func forwarded(next http.Handler, trust bool, proxies []netip.Prefix) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client, ok := forwardedClient(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), trust, proxies)
		if !ok {
			r.Header.Del("X-Forwarded-For")
			r.Header.Del("X-Forwarded-Proto")
		} else if client.IsValid() {
			r.RemoteAddr = net.JoinHostPort(client.String(), "0")
		}
		next.ServeHTTP(w, r)
	})
}

// forwardedClient reads the client's address from the X-Forwarded-For lines of a request
// from peer. Each proxy appends the address it was called from, so only the end of the list
// is the proxies' word: whatever stands before it the client wrote. ok is whether the peer
// is a proxy to believe at all: with proxies named, one of them; else any, when trust is on.
//   - Proxies named: the client is the last hop that is none of them (a hop that is not an
//     address there ends the walk at the proxy that appended it); all of them: the first.
//   - Trust alone: one proxy, so the client is the last hop it appended.
//
// Every X-Forwarded-For line counts, in order (a proxy may add a line of its own rather than
// extend the client's), and a hop may carry a port ("192.0.2.1:5678", "[2001:db8::1]:443").
// No address found: the zero Addr, and the peer stands.
func forwardedClient(peer string, lines []string, trust bool, proxies []netip.Prefix) (netip.Addr, bool) {
	if !trust && len(proxies) == 0 {
		return netip.Addr{}, false
	}
	var hops []string
	for _, l := range lines {
		hops = append(hops, strings.Split(l, ",")...)
	}
	if len(proxies) == 0 {
		if len(hops) == 0 {
			return netip.Addr{}, true
		}
		a, _ := hopAddress(hops[len(hops)-1])
		return a, true
	}
	from, ok := hopAddress(peer)
	if !ok || !inAny(from, proxies) {
		return netip.Addr{}, false
	}
	last := netip.Addr{}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := hopAddress(hops[i])
		if !ok {
			return last, true // a trusted proxy appended no address: its own is what we know
		}
		if !inAny(a, proxies) {
			return a, true
		}
		last = a
	}
	return last, true
}

// hopAddress parses one hop of X-Forwarded-For (or a RemoteAddr): an address, with or
// without a port, IPv6 in brackets or bare.
func hopAddress(h string) (netip.Addr, bool) {
	h = strings.TrimSpace(h)
	if ap, err := netip.ParseAddrPort(h); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")); err == nil && a.Zone() == "" {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}

func inAny(a netip.Addr, nets []netip.Prefix) bool {
	for _, n := range nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// logRequests logs one line per API request: method, route (the pattern matched, never the
// path or the query string, which may hold a patient's name, a search, a code or a token),
// status, duration and user id. Static files and the verify page are not logged.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, fhir.Base+"/") {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		ctx, userID := auth.WithUserIDSlot(i18n.WithLanguage(r.Context(), i18n.FromRequest(r)))
		rec := &httpjson.Recorder{ResponseWriter: w}
		inner := r.WithContext(ctx)
		next.ServeHTTP(rec, inner) // the mux records the pattern it matched on inner
		slog.InfoContext(r.Context(), "request", "method", r.Method, "route", httpjson.Route(inner), "status", rec.Status(),
			"ms", time.Since(start).Milliseconds(), "user", *userID)
	})
}

func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic", "method", r.Method, "route", httpjson.Route(r), "panic", v, "stack", string(debug.Stack()))
				httpjson.Error(w, r, fmt.Errorf("panic: %v", v)) // answered as a generic 500
			}
		}()
		next.ServeHTTP(w, r)
	})
}
