package push

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5" //nolint:gosec // the provider's HTTP API asks for the body's MD5; it is not a security check
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Publisher delivers events to the subscribers of a channel: the built-in endpoint (Fanout)
// or a hosted provider of the same protocol (Provider).
type Publisher interface {
	// Publish sends event to channel's subscribers except the socket except (the sender's own).
	Publish(channel, event string, data any, except string) error
	// Run does the background work until ctx ends: hearing the other instances, or sending
	// to the provider.
	Run(ctx context.Context)
	// Ready is closed once Run is ready to deliver.
	Ready() <-chan struct{}
	// ClientSettings is what the web app connects with (served by /api/config).
	ClientSettings(ctx context.Context) (ClientSettings, error)
}

// ClientSettings tell pusher-js where to connect. With none of Host and Cluster it connects
// to the origin it was loaded from (the built-in endpoint).
type ClientSettings struct {
	Key     string `json:"key"`
	Cluster string `json:"cluster,omitempty"`
	Host    string `json:"host,omitempty"`
	Port    int    `json:"port,omitempty"`
	TLS     bool   `json:"tls,omitempty"`
}

// Origin is the WebSocket origin browsers connect to with these settings, for the content
// security policy; "" for the built-in endpoint on the page's own origin.
func (c ClientSettings) Origin() string {
	switch {
	case c.Cluster != "":
		return "wss://ws-" + c.Cluster + ".pusher.com"
	case c.Host != "":
		return map[bool]string{true: "wss", false: "ws"}[c.TLS] + "://" + net.JoinHostPort(c.Host, strconv.Itoa(c.Port))
	}
	return ""
}

// providerQueue is how many events may wait for the provider; past it new events are
// dropped (and logged) rather than slowing the requests that announce them.
const providerQueue = 1024

// Provider publishes through the HTTP API of a hosted (or self-hosted) provider of the
// protocol instead of the built-in endpoint. It is configured by one URL,
// scheme://KEY:SECRET@HOST[:PORT]/apps/APP_ID, the form the providers' own libraries read.
type Provider struct {
	AppID string
	Keys  Keys
	// Base is scheme://host[:port] of the HTTP API.
	Base   *url.URL
	Client *http.Client

	queue chan providerEvent
	ready chan struct{}
}

type providerEvent struct {
	Name     string   `json:"name"`
	Channels []string `json:"channels"`
	Data     string   `json:"data"`
	SocketID string   `json:"socket_id,omitempty"`
}

var hostedCluster = regexp.MustCompile(`^api-([a-z0-9-]+)\.pusher\.com$`)

// ParseProvider reads a provider URL, with one clear sentence when it is wrong.
func ParseProvider(raw string) (*Provider, error) {
	const form = "scheme://KEY:SECRET@HOST[:PORT]/apps/APP_ID"
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the push provider URL must look like %s", form)
	}
	secret, _ := u.User.Password()
	appID, ok := strings.CutPrefix(strings.TrimSuffix(u.Path, "/"), "/apps/")
	if u.User.Username() == "" || secret == "" || !ok || appID == "" || strings.Contains(appID, "/") {
		return nil, fmt.Errorf("the push provider URL must name the key, secret and app id: %s", form)
	}
	return &Provider{
		AppID:  appID,
		Keys:   Keys{Key: u.User.Username(), Secret: secret},
		Base:   &url.URL{Scheme: u.Scheme, Host: u.Host},
		Client: &http.Client{Timeout: 5 * time.Second},
		queue:  make(chan providerEvent, providerQueue),
		ready:  make(chan struct{}),
	}, nil
}

// ClientSettings points the web app at the provider's WebSocket host: a hosted cluster by
// name, any other host as it is.
func (p *Provider) ClientSettings(context.Context) (ClientSettings, error) {
	tls := p.Base.Scheme == "https"
	if m := hostedCluster.FindStringSubmatch(p.Base.Hostname()); m != nil {
		return ClientSettings{Key: p.Keys.Key, Cluster: m[1], TLS: true}, nil
	}
	port, _ := strconv.Atoi(p.Base.Port())
	if port == 0 {
		port = map[bool]int{true: 443, false: 80}[tls]
	}
	return ClientSettings{Key: p.Keys.Key, Host: p.Base.Hostname(), Port: port, TLS: tls}, nil
}

// Ready is closed when Run has started.
func (p *Provider) Ready() <-chan struct{} { return p.ready }

// Publish queues the event for the provider; it never waits for the network.
func (p *Provider) Publish(channel, event string, data any, except string) error {
	d, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("push %s: %w", event, err)
	}
	select {
	case p.queue <- providerEvent{Name: event, Channels: []string{channel}, Data: string(d), SocketID: except}:
		return nil
	default:
		slog.Warn("push provider: queue full, event dropped", "event", event, "channel", channel)
		return fmt.Errorf("push %s: the provider's queue is full", event)
	}
}

// Run sends the queued events to the provider, one at a time, until ctx ends.
func (p *Provider) Run(ctx context.Context) {
	close(p.ready)
	for {
		select {
		case e := <-p.queue:
			if err := p.send(ctx, e); err != nil {
				slog.Warn("push provider: event not delivered", "event", e.Name, "error", err)
			}
		case <-ctx.Done():
			return
		}
	}
}

// send posts one event to the provider's events API, signed as its HTTP API requires.
func (p *Provider) send(ctx context.Context, e providerEvent) error {
	body, err := json.Marshal(e)
	if err != nil {
		return err
	}
	path := "/apps/" + p.AppID + "/events"
	sum := md5.Sum(body) //nolint:gosec // see the import
	q := url.Values{
		"auth_key":       {p.Keys.Key},
		"auth_timestamp": {strconv.FormatInt(time.Now().Unix(), 10)},
		"auth_version":   {"1.0"},
		"body_md5":       {hex.EncodeToString(sum[:])},
	}
	q.Set("auth_signature", SignRequest(p.Keys.Secret, http.MethodPost, path, q))
	u := *p.Base
	u.Path, u.RawQuery = path, q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := p.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return errors.New(res.Status + ": " + strings.TrimSpace(string(msg)))
	}
	return nil
}

// SignRequest is the HTTP API's signature of a request: HMAC-SHA256, in hex, of the method,
// the path and the query parameters sorted by name (auth_signature left out), one per line.
func SignRequest(secret, method, path string, query url.Values) string {
	names := make([]string, 0, len(query))
	for name := range query {
		if name != "auth_signature" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	pairs := make([]string, len(names))
	for i, name := range names {
		pairs[i] = strings.ToLower(name) + "=" + query.Get(name)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(method + "\n" + path + "\n" + strings.Join(pairs, "&")))
	return hex.EncodeToString(mac.Sum(nil))
}
