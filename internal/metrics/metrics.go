// Package metrics holds the server's Prometheus series and the few calls that feed them;
// `emr serve` exposes them at /metrics, on a separate address (--metrics-addr) or behind a
// token (--metrics-token). Requests are labelled by their route's pattern, never their path,
// so that a patient's id never becomes a series.
package metrics

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"emr/internal/httpjson"
)

// Registry holds every series of the process (and the Go runtime's and process's own).
var Registry = prometheus.NewRegistry()

var (
	requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "emr_http_requests_total", Help: "HTTP requests answered, by route pattern, method and status class (2xx, 4xx, …).",
	}, []string{"route", "method", "class"})
	latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "emr_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route pattern and method.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method"})
	queries = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "emr_db_query_duration_seconds", Help: "Time of a database statement outside a transaction (query, exec) or of a whole write transaction (tx).",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
	}, []string{"kind"})
	sockets = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "emr_push_sockets", Help: "Push sockets open on this instance.",
	})
	events = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "emr_push_events_total", Help: "Push events published by this instance.",
	})
	loginFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "emr_login_failures_total", Help: "Log-ins refused for a wrong username, password or code.",
	})
	loginThrottled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "emr_login_throttled_total", Help: "Log-ins refused because the account or the address had too many failures.",
	})
	verifyUnknown = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "emr_verify_unknown_total", Help: "Look-ups on the public verify page of a code no document has.",
	})
)

func init() {
	Registry.MustRegister(requests, latency, queries, sockets, events, loginFailures, loginThrottled, verifyUnknown,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}

// Route counts and times the requests of one route; pattern is its method and path pattern.
func Route(method, pattern string, next http.Handler) http.Handler {
	count := requests.MustCurryWith(prometheus.Labels{"route": pattern, "method": method})
	observe := latency.WithLabelValues(pattern, method)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &httpjson.Recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		observe.Observe(time.Since(start).Seconds())
		count.WithLabelValues(strconv.Itoa(rec.Status()/100) + "xx").Inc()
	})
}

// Query records how long a database statement or transaction took.
func Query(kind string, took time.Duration) { queries.WithLabelValues(kind).Observe(took.Seconds()) }

// SocketOpened and SocketClosed follow the push sockets open.
func SocketOpened() { sockets.Inc() }

// SocketClosed is SocketOpened's other half.
func SocketClosed() { sockets.Dec() }

// Published counts a push event.
func Published() { events.Inc() }

// LoginFailed counts a refused log-in; LoginThrottled one refused for too many failures.
func LoginFailed() { loginFailures.Inc() }

// VerifyUnknown counts a look-up of an unknown code on the verify page.
func VerifyUnknown() { verifyUnknown.Inc() }

// LoginThrottled counts a log-in refused by the throttle.
func LoginThrottled() { loginThrottled.Inc() }

var (
	watched  sync.Mutex
	pool     prometheus.Collector
	gauges   = map[string]*gaugeFunc{}
	noGauges = func(context.Context) (float64, bool) { return 0, false }
)

// WatchPool exposes the database pool's use (connections open, in use, idle, waits) as
// go_sql_* series; a later call (another server in the same process) replaces the pool.
func WatchPool(db *sql.DB) {
	watched.Lock()
	defer watched.Unlock()
	if pool != nil {
		Registry.Unregister(pool)
	}
	pool = collectors.NewDBStatsCollector(db, "emr")
	Registry.MustRegister(pool)
}

// Gauge exposes a value read when scraped (the audit chain's length, the last backup's
// age); read gets a bounded context, and when it reports no value the series is left out. A
// later call with the same name replaces read.
func Gauge(name, help string, read func(ctx context.Context) (float64, bool)) {
	watched.Lock()
	defer watched.Unlock()
	if g := gauges[name]; g != nil {
		g.read.Store(&read)
		return
	}
	g := &gaugeFunc{desc: prometheus.NewDesc(name, help, nil, nil)}
	g.read.Store(&read)
	gauges[name] = g
	Registry.MustRegister(g)
}

type gaugeFunc struct {
	desc *prometheus.Desc
	read atomic.Pointer[func(ctx context.Context) (float64, bool)]
}

func (g *gaugeFunc) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g *gaugeFunc) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	read := noGauges
	if p := g.read.Load(); p != nil {
		read = *p
	}
	if v, ok := read(ctx); ok {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v)
	}
}

// Handler serves the exposition format; with a token, only to a request that bears it
// (Authorization: Bearer TOKEN), comparing in constant time.
func Handler(token string) http.Handler {
	h := promhttp.HandlerFor(Registry, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics need the token given to emr serve (--metrics-token)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
