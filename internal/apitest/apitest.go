// Package apitest runs the real HTTP server on a real database for API tests, with
// clients that keep cookies and send the CSRF header the way the web app does.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/secret"
	"emr/internal/server"
	"emr/internal/user"
)

// Env is a running server on a database.
type Env struct {
	T      testing.TB
	DB     *database.DB
	Server *server.Server
	HTTP   *httptest.Server
}

// Secrets is the key ring of every test server (servers on one database share it, as
// instances share the key file).
var Secrets = secret.Ephemeral()

// Config is the configuration tests run the server with.
func Config() config.Config {
	return config.Config{Addr: "127.0.0.1:0", SessionIdle: 30 * time.Minute, SessionLifetime: 12 * time.Hour, Timezone: "UTC", LogFormat: "text",
		PhotoMaxMB: 5, AttachmentMaxMB: 20, Secrets: Secrets}
}

// WebFS is a stand-in for the built web app.
var WebFS fs.FS = fstest.MapFS{
	"index.html":              {Data: []byte("<!doctype html><title>EMR</title>")},
	"link.html":               {Data: []byte("<!doctype html><title>Appointment</title>")},
	"portal.html":             {Data: []byte("<!doctype html><title>Patient portal</title>")},
	"book.html":               {Data: []byte("<!doctype html><title>Book an appointment</title>")},
	"assets/app-abc123.js":    {Data: []byte("console.log('app')")},
	"assets/app-abc123.js.gz": {Data: []byte("gzip bytes")}, // only which file is chosen is tested
}

// New starts the server on db with the test configuration.
func New(t testing.TB, db *database.DB) *Env {
	return NewWith(t, db, Config())
}

// NewWith starts the server on db with cfg. Passwords are hashed cheaply in tests
// (auth.CheapHashingForTests): the real cost made most of a test's time.
func NewWith(t testing.TB, db *database.DB, cfg config.Config) *Env {
	t.Helper()
	auth.CheapHashingForTests()
	if err := catalogue.InstallStarter(context.Background(), db); err != nil { // as emr serve does at start
		t.Fatal(err)
	}
	srv := server.New(cfg, db, WebFS)
	t.Cleanup(srv.Settle) // after the server below has closed, before the database does
	listening, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go srv.Push.Run(listening)
	<-srv.Push.Ready()
	ts := httptest.NewServer(srv.Handler)
	t.Cleanup(ts.Close)
	return &Env{T: t, DB: db, Server: srv, HTTP: ts}
}

// CreateUser adds an account with the given roles and returns its password.
func (e *Env) CreateUser(username string, roles ...string) string {
	e.T.Helper()
	pw := "lantern orchard 7 glacier " + strconv.Itoa(len(username)) // passes the password policy
	if _, err := (&user.Store{DB: e.DB}).Create(context.Background(), user.NewUser{Username: username, Name: "Test " + username, Roles: roles, Password: pw}); err != nil {
		e.T.Fatalf("create user %s: %v", username, err)
	}
	return pw
}

// UserID returns the id of the account username.
func (e *Env) UserID(username string) int64 {
	e.T.Helper()
	id, err := (&user.Store{DB: e.DB}).IDOf(context.Background(), username)
	if err != nil {
		e.T.Fatalf("user %s: %v", username, err)
	}
	return id
}

// Client is a browser-like client: it keeps cookies and echoes the CSRF cookie.
type Client struct {
	env  *Env
	HTTP *http.Client
	// NoCSRF, when set, leaves out the X-XSRF-TOKEN header.
	NoCSRF bool
	// Header is added to every request.
	Header http.Header
}

// Client returns a new client with an empty cookie jar.
func (e *Env) Client() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{env: e, HTTP: &http.Client{Jar: jar, Transport: &http.Transport{DisableCompression: true}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, Header: http.Header{}}
}

// Remote returns a client of a server running elsewhere (another process) at base.
func Remote(t testing.TB, base string) *Client {
	return (&Env{T: t, HTTP: &httptest.Server{URL: base}}).Client()
}

// LoggedIn returns a client logged in as username with password.
func (e *Env) LoggedIn(username, password string) *Client {
	e.T.Helper()
	c := e.Client()
	if r := c.Login(username, password); r.Status != http.StatusOK {
		e.T.Fatalf("login %s: %d %s", username, r.Status, r.Body)
	}
	return c
}

// Response is a finished request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it is not JSON.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("response %d is not JSON: %v: %s", r.Status, err, r.Body)
	}
}

// Error returns the error envelope of a failed response.
func (r Response) Error(t testing.TB) (msg, code string, fields map[string][]string) {
	t.Helper()
	var e struct {
		Error  string              `json:"error"`
		Code   string              `json:"code"`
		Errors map[string][]string `json:"errors"`
	}
	r.JSON(t, &e)
	return e.Error, e.Code, e.Errors
}

// DialPush opens a push socket to the server at base (this one's or another instance's URL)
// with the app key, as pusher-js in this client's browser would: with its session cookie.
func (c *Client) DialPush(ctx context.Context, base, key string) (*websocket.Conn, error) {
	header := http.Header{"Cookie": {auth.SessionCookie + "=" + c.Cookie(auth.SessionCookie)}}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/app/"+key+"?protocol=7&client=js&version=8.4.0", &websocket.DialOptions{HTTPHeader: header})
	return conn, err
}

// Cookie returns the value of the named cookie in the jar, by its name or its __Host-
// prefixed name over TLS ("" when absent).
func (c *Client) Cookie(name string) string {
	u, _ := url.Parse(c.env.HTTP.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == name || ck.Name == "__Host-"+name {
			return ck.Value
		}
	}
	return ""
}

// SetCookie puts a cookie into the jar, as a browser that kept it would.
func (c *Client) SetCookie(name, value string) {
	u, _ := url.Parse(c.env.HTTP.URL)
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// Do sends a request; body, when not nil, is sent as JSON (or as-is when []byte).
func (c *Client) Do(method, path string, body any) Response {
	c.env.T.Helper()
	r, err := c.Try(method, path, body)
	if err != nil {
		c.env.T.Fatal(err)
	}
	return r
}

// Try is Do, returning the error when the request gets no answer (a server that was
// stopped), from any goroutine.
func (c *Client) Try(method, path string, body any) (Response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		js, err := json.Marshal(b)
		if err != nil {
			return Response{}, err
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, c.env.HTTP.URL+path, rd)
	if err != nil {
		return Response{}, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	for k, v := range c.Header {
		req.Header[k] = v
	}
	csrfCookie := "XSRF-TOKEN"
	if strings.HasPrefix(path, "/api/portal/") {
		csrfCookie = "XSRF-PORTAL" // the patient portal echoes its own (ADR 44)
	}
	if tok := c.Cookie(csrfCookie); tok != "" && !c.NoCSRF && req.Header.Get("X-XSRF-TOKEN") == "" {
		req.Header.Set("X-XSRF-TOKEN", tok)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	if c.env.Server != nil { // a server of this process: its answers are held to the contract
		contract, err := loadContract()
		if err == nil {
			err = contract.check(req, resp.StatusCode, resp.Header, b)
		}
		if err != nil {
			c.env.T.Error(err)
		}
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// Login fetches the CSRF cookie (once) and logs in.
func (c *Client) Login(username, password string) Response {
	if c.Cookie("XSRF-TOKEN") == "" {
		c.Do("GET", "/api/sanctum/csrf-cookie", nil)
	}
	return c.Do("POST", "/api/auth/login", map[string]string{"username": username, "password": password})
}

// Upload sends data as the multipart field "file" named filename.
func (c *Client) Upload(method, path, filename string, data []byte) Response {
	c.env.T.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		c.env.T.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = mw.Close()
	c.Header.Set("Content-Type", mw.FormDataContentType())
	defer c.Header.Del("Content-Type")
	return c.Do(method, path, body.Bytes())
}
