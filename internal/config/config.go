// Package config holds the one typed configuration of the emr binary, read from flags with
// defaults from EMR_* environment variables, and validated before anything starts.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
	"emr/internal/secret"
)

// Config is the whole configuration. It is passed explicitly; there is no global.
type Config struct {
	Version         string // of the binary (set by main, not a flag)
	Addr            string
	DatabaseURL     string
	Demo            bool
	SessionIdle     time.Duration
	SessionLifetime time.Duration
	Timezone        string
	ShowSettings    bool
	TrustProxy      bool
	// TrustedProxies are the reverse proxies' addresses or networks (CIDR): set, only a
	// request from one of them is read for X-Forwarded-For/-Proto, and its client is the
	// last hop that is none of them. Empty with TrustProxy: one proxy, the last hop.
	TrustedProxies  []string
	LogFormat       string
	PhotoMaxMB      int
	AttachmentMaxMB int
	// PushURL, when set, publishes live events through a hosted provider's HTTP API
	// (scheme://KEY:SECRET@HOST[:PORT]/apps/APP_ID) instead of the built-in endpoint.
	PushURL string

	// MetricsAddr serves /metrics on an address of its own; MetricsToken serves it on the
	// main address to requests bearing the token. Both empty: no metrics.
	MetricsAddr  string
	MetricsToken string

	// TLSCert and TLSKey serve HTTPS (re-read on SIGHUP); RedirectAddr, when set, answers
	// plain HTTP there with a redirect to HTTPS.
	TLSCert      string
	TLSKey       string
	RedirectAddr string

	// BackupDir, when set, gets an archive every BackupEvery, keeping the newest BackupKeep.
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int
	// BackupRecipients are the age public keys archives are encrypted to; BackupPlaintext
	// writes scheduled archives unencrypted, on purpose, when there are none.
	BackupRecipients []string
	BackupPlaintext  bool

	// SecretKeyFile holds the keys that seal second factors and the push secret (made on
	// first start); Secrets is that file opened (by main; tests get an ephemeral ring).
	SecretKeyFile string
	Secrets       *secret.Ring

	// SMTPURL, when set, sends escalated critical results by e-mail through the clinic's
	// mail server (smtp://USER:PASS@HOST:587 with STARTTLS, smtps://… with TLS), from SMTPFrom.
	SMTPURL  string
	SMTPFrom string
	// SMSURL, when set, sends text messages to patients through an SMS gateway: a JSON
	// webhook (https://…) or Twilio's Messages API (twilio://ACCOUNT_SID:AUTH_TOKEN@FROM).
	SMSURL string

	// CORSOrigins are the browser origins (scheme://host[:port]) whose scripts may call the
	// FHIR API and its OAuth endpoints with a bearer token: SMART apps served from elsewhere.
	CORSOrigins []string
}

// Env lists every environment variable, its flag and meaning, for --help.
var Env = [][3]string{
	{"EMR_DATABASE_URL", "--database-url", "database: sqlite:PATH (default sqlite:./data/emr.db) or postgres://USER@HOST/DB"},
	{"EMR_ADDR", "--addr", "address to listen on (default 127.0.0.1:8080)"},
	{"EMR_DEMO", "--demo", "1: seed demo staff into an empty database and print their passwords once"},
	{"EMR_SESSION_IDLE", "--session-idle", "a session unused this long ends (default 30m)"},
	{"EMR_SESSION_LIFETIME", "--session-lifetime", "a session ends this long after login (default 12h)"},
	{"EMR_TIMEZONE", "--timezone", "the clinic's time zone, e.g. Asia/Ho_Chi_Minh (default: the machine's)"},
	{"EMR_SHOW_SETTINGS", "--show-settings", "1: show the layout settings panel in the web app"},
	{"EMR_TRUST_PROXY", "--trust-proxy", "1: trust X-Forwarded-For/-Proto from a reverse proxy in front (one hop: the last address it appended)"},
	{"EMR_TRUSTED_PROXIES", "--trusted-proxy", "the proxies' addresses or networks, comma-separated (10.0.0.0/8,127.0.0.1): only requests from them are read for X-Forwarded-For, whose client is the last hop that is none of them"},
	{"EMR_LOG_FORMAT", "--log-format", "text or json (default text)"},
	{"EMR_PHOTO_MAX_MB", "--photo-max-mb", "largest patient photo accepted, in MB (default 5)"},
	{"EMR_ATTACHMENT_MAX_MB", "--attachment-max-mb", "largest patient attachment accepted, in MB (default 20)"},
	{"EMR_PUSH_URL", "--push-url", "live events through a hosted push provider: https://KEY:SECRET@HOST/apps/APP_ID (default: built in)"},
	{"EMR_METRICS_ADDR", "--metrics-addr", "serve Prometheus metrics at /metrics on this address of its own (default: off)"},
	{"EMR_METRICS_TOKEN", "--metrics-token", "serve /metrics on the main address to requests with Authorization: Bearer TOKEN (default: off)"},
	{"EMR_TLS_CERT", "--tls-cert", "serve HTTPS with this certificate (PEM, full chain), re-read on SIGHUP"},
	{"EMR_TLS_KEY", "--tls-key", "the certificate's private key (PEM)"},
	{"EMR_REDIRECT_ADDR", "--redirect-addr", "with TLS: answer plain HTTP on this address with a redirect to HTTPS, e.g. :80"},
	{"EMR_BACKUP_DIR", "--backup-dir", "write a backup archive into this folder every --backup-every (default: off)"},
	{"EMR_BACKUP_EVERY", "--backup-every", "how often to back up into --backup-dir (default 24h)"},
	{"EMR_BACKUP_KEEP", "--backup-keep", "how many archives to keep in --backup-dir (default 14)"},
	{"EMR_BACKUP_RECIPIENTS", "--backup-recipient", "age public keys (age1…, comma-separated) backups are encrypted to; required for --backup-dir"},
	{"EMR_BACKUP_PLAINTEXT", "--backup-plaintext", "1: write scheduled backups unencrypted (anyone holding one reads and can change every record)"},
	{"EMR_SMTP_URL", "--smtp-url", "e-mail escalated critical results through this mail server: smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://…:465 (default: alerts stay in the app)"},
	{"EMR_SMTP_FROM", "--smtp-from", "the address those e-mails come from, e.g. emr@clinic.example (required with --smtp-url)"},
	{"EMR_SMS_URL", "--sms-url", "text patients through an SMS gateway: https://USER:PASSWORD@HOST/PATH (a JSON webhook) or twilio://ACCOUNT_SID:AUTH_TOKEN@FROM_NUMBER (default: no SMS)"},
	{"EMR_CORS_ORIGINS", "--cors-origin", "browser origins (https://app.example, comma-separated) whose scripts may call the FHIR API with a bearer token (default: none)"},
	{"EMR_SECRET_KEY_FILE", "--secret-key-file", "the key file sealing second factors and the push secret and authenticating backups (default: /etc/emr/keys as root or when /etc/emr exists, else ~/.config/emr/keys; a file at the earlier place beside the database is still found)"},
}

// DefaultDatabaseURL is where the embedded SQLite database lives unless told otherwise.
const DefaultDatabaseURL = "sqlite:./data/emr.db"

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func envBool(name string) bool {
	b, _ := strconv.ParseBool(env(name, "false"))
	return b
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(env(name, "")); err == nil {
		return n
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(env(name, "")); err == nil {
		return d
	}
	return def
}

// BindDatabase registers the database flag that every subcommand takes.
func BindDatabase(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.DatabaseURL, "database-url", env("EMR_DATABASE_URL", DefaultDatabaseURL), "database URL: sqlite:PATH or postgres://… (env EMR_DATABASE_URL)")
	fs.StringVar(&c.LogFormat, "log-format", env("EMR_LOG_FORMAT", "text"), "log format: text or json (env EMR_LOG_FORMAT)")
}

// BindSecretKey registers the key file's flag (serve, keys rotate, restore).
func BindSecretKey(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.SecretKeyFile, "secret-key-file", env("EMR_SECRET_KEY_FILE", ""), "the key file sealing second factors and the push secret and authenticating backups (env EMR_SECRET_KEY_FILE; default /etc/emr/keys as root or when /etc/emr exists, else ~/.config/emr/keys)")
}

// KeyFile is the secret key file's path (KeyFilePlace).
func (c Config) KeyFile() string {
	path, _ := c.KeyFilePlace()
	return path
}

// etcDir is where a service's key file lives by default.
const etcDir = "/etc/emr"

// KeyFilePlace is the secret key file's path: the one given; else the default place, away
// from the database (whoever copies the database's folder must not get the key with it) —
// /etc/emr/keys for root or when /etc/emr exists (a service), else the user's configuration
// folder ($XDG_CONFIG_HOME/emr/keys, ~/.config/emr/keys: `make run` as anyone). An earlier
// version made the file beside a SQLite database (else ./data/emr.key): when the default place
// holds none and that one exists, it is used, and legacy is true (the caller warns): a new
// key is never made while the old one exists, for every sealed secret would be lost.
func (c Config) KeyFilePlace() (path string, legacy bool) {
	if c.SecretKeyFile != "" {
		return c.SecretKeyFile, false
	}
	path = DefaultKeyFile()
	if _, err := os.Stat(path); err == nil {
		return path, false
	}
	old := filepath.Join("data", "emr.key")
	if engine, db, err := database.ParseURL(c.DatabaseURL); err == nil && engine == database.SQLite && db != ":memory:" {
		old = filepath.Join(filepath.Dir(db), "emr.key")
	}
	if _, err := os.Stat(old); err == nil {
		return old, true
	}
	return path, false
}

// DefaultKeyFile is where the key file belongs when none is named (KeyFilePlace).
func DefaultKeyFile() string {
	_, etcErr := os.Stat(etcDir)
	return defaultKeyFile(os.Geteuid() == 0, etcErr == nil, os.UserConfigDir)
}

// defaultKeyFile is the default place of the key file for root (or a machine with /etc/emr)
// and for a user.
func defaultKeyFile(root, etcExists bool, userConfig func() (string, error)) string {
	if root || etcExists {
		return filepath.Join(etcDir, "keys")
	}
	dir, err := userConfig()
	if err != nil || dir == "" {
		return filepath.Join(etcDir, "keys")
	}
	return filepath.Join(dir, "emr", "keys")
}

// recipients is a repeatable flag of age recipients, also taking comma-separated lists.
type recipients struct{ list *[]string }

func (r recipients) String() string {
	if r.list == nil {
		return ""
	}
	return strings.Join(*r.list, ",")
}

func (r recipients) Set(v string) error {
	for _, one := range strings.Split(v, ",") {
		if one = strings.TrimSpace(one); one != "" {
			*r.list = append(*r.list, one)
		}
	}
	return nil
}

// BindRecipients registers --backup-recipient (name) with its environment default.
func BindRecipients(fs *flag.FlagSet, name string, c *Config) {
	_ = recipients{&c.BackupRecipients}.Set(env("EMR_BACKUP_RECIPIENTS", ""))
	fs.Var(recipients{&c.BackupRecipients}, name, "an age public key (age1…) to encrypt backups to; repeatable or comma-separated (env EMR_BACKUP_RECIPIENTS)")
}

// BindCORS registers --cors-origin with its environment default.
func BindCORS(fs *flag.FlagSet, c *Config) {
	_ = recipients{&c.CORSOrigins}.Set(env("EMR_CORS_ORIGINS", ""))
	fs.Var(recipients{&c.CORSOrigins}, "cors-origin", "a browser origin (https://app.example) whose scripts may call the FHIR API with a bearer token; repeatable or comma-separated (env EMR_CORS_ORIGINS)")
}

// secret is a flag whose value holds a password (a mail server's, a push provider's): set
// like a string, never written back (the usage text shows no default taken from the
// environment).
type hiddenValue struct{ p *string }

func (s hiddenValue) String() string { return "" }

func (s hiddenValue) Set(v string) error {
	*s.p = v
	return nil
}

// BindServe registers the flags of `emr serve`.
func BindServe(fs *flag.FlagSet, c *Config) {
	BindDatabase(fs, c)
	fs.StringVar(&c.Addr, "addr", env("EMR_ADDR", "127.0.0.1:8080"), "address to listen on (env EMR_ADDR)")
	fs.BoolVar(&c.Demo, "demo", envBool("EMR_DEMO"), "seed demo staff into an empty database and print their passwords once (env EMR_DEMO)")
	fs.DurationVar(&c.SessionIdle, "session-idle", envDuration("EMR_SESSION_IDLE", 30*time.Minute), "idle time-out of a session (env EMR_SESSION_IDLE)")
	fs.DurationVar(&c.SessionLifetime, "session-lifetime", envDuration("EMR_SESSION_LIFETIME", 12*time.Hour), "absolute lifetime of a session (env EMR_SESSION_LIFETIME)")
	fs.StringVar(&c.Timezone, "timezone", env("EMR_TIMEZONE", "Local"), "the clinic's time zone (env EMR_TIMEZONE)")
	fs.BoolVar(&c.ShowSettings, "show-settings", envBool("EMR_SHOW_SETTINGS"), "show the layout settings panel (env EMR_SHOW_SETTINGS)")
	fs.BoolVar(&c.TrustProxy, "trust-proxy", envBool("EMR_TRUST_PROXY"), "trust X-Forwarded-For and X-Forwarded-Proto (env EMR_TRUST_PROXY)")
	_ = recipients{&c.TrustedProxies}.Set(env("EMR_TRUSTED_PROXIES", ""))
	fs.Var(recipients{&c.TrustedProxies}, "trusted-proxy", "a reverse proxy's address or network (CIDR) whose X-Forwarded-For is read; repeatable or comma-separated (env EMR_TRUSTED_PROXIES)")
	fs.IntVar(&c.PhotoMaxMB, "photo-max-mb", envInt("EMR_PHOTO_MAX_MB", 5), "largest patient photo, in MB (env EMR_PHOTO_MAX_MB)")
	fs.IntVar(&c.AttachmentMaxMB, "attachment-max-mb", envInt("EMR_ATTACHMENT_MAX_MB", 20), "largest patient attachment, in MB (env EMR_ATTACHMENT_MAX_MB)")
	c.PushURL = env("EMR_PUSH_URL", "")
	fs.Var(hiddenValue{&c.PushURL}, "push-url", "publish live events through a hosted push provider, https://KEY:SECRET@HOST/apps/APP_ID (env EMR_PUSH_URL)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", env("EMR_METRICS_ADDR", ""), "serve Prometheus metrics at /metrics on this address, e.g. 127.0.0.1:9090 (env EMR_METRICS_ADDR)")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("EMR_METRICS_TOKEN", ""), "serve /metrics on the main address to requests bearing this token (env EMR_METRICS_TOKEN)")
	fs.StringVar(&c.TLSCert, "tls-cert", env("EMR_TLS_CERT", ""), "serve HTTPS with this certificate file, PEM (env EMR_TLS_CERT)")
	fs.StringVar(&c.TLSKey, "tls-key", env("EMR_TLS_KEY", ""), "the certificate's private key file, PEM (env EMR_TLS_KEY)")
	fs.StringVar(&c.RedirectAddr, "redirect-addr", env("EMR_REDIRECT_ADDR", ""), "with TLS, redirect plain HTTP on this address to HTTPS (env EMR_REDIRECT_ADDR)")
	fs.StringVar(&c.BackupDir, "backup-dir", env("EMR_BACKUP_DIR", ""), "write backup archives into this folder (env EMR_BACKUP_DIR)")
	fs.DurationVar(&c.BackupEvery, "backup-every", envDuration("EMR_BACKUP_EVERY", 24*time.Hour), "how often to back up into --backup-dir (env EMR_BACKUP_EVERY)")
	fs.IntVar(&c.BackupKeep, "backup-keep", envInt("EMR_BACKUP_KEEP", 14), "how many archives to keep in --backup-dir (env EMR_BACKUP_KEEP)")
	BindRecipients(fs, "backup-recipient", c)
	fs.BoolVar(&c.BackupPlaintext, "backup-plaintext", envBool("EMR_BACKUP_PLAINTEXT"), "write scheduled backups unencrypted, on purpose (env EMR_BACKUP_PLAINTEXT)")
	c.SMTPURL = env("EMR_SMTP_URL", "")
	fs.Var(hiddenValue{&c.SMTPURL}, "smtp-url", "e-mail escalated critical results through this mail server, smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://… (env EMR_SMTP_URL)")
	c.SMSURL = env("EMR_SMS_URL", "")
	fs.Var(hiddenValue{&c.SMSURL}, "sms-url", "text patients through an SMS gateway, https://USER:PASSWORD@HOST/PATH (JSON webhook) or twilio://ACCOUNT_SID:AUTH_TOKEN@FROM_NUMBER (env EMR_SMS_URL)")
	fs.StringVar(&c.SMTPFrom, "smtp-from", env("EMR_SMTP_FROM", ""), "the address those e-mails come from (env EMR_SMTP_FROM)")
	BindCORS(fs, c)
	BindSecretKey(fs, c)
}

// ValidateDatabase checks the settings every subcommand uses.
func (c Config) ValidateDatabase() error {
	if _, _, err := database.ParseURL(c.DatabaseURL); err != nil {
		return err
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("the log format must be text or json, not %q", c.LogFormat)
	}
	return nil
}

// ValidateServe checks the settings of `emr serve`, with one clear sentence per problem.
func (c Config) ValidateServe() error {
	if err := c.ValidateDatabase(); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("the listen address %q must be HOST:PORT, e.g. 127.0.0.1:8080", c.Addr)
	}
	if c.SessionIdle <= 0 {
		return errors.New("the session idle time-out must be positive, e.g. 30m")
	}
	if c.SessionLifetime < c.SessionIdle {
		return errors.New("the session lifetime must not be shorter than the idle time-out")
	}
	if c.PhotoMaxMB < 1 || c.PhotoMaxMB > 100 || c.AttachmentMaxMB < 1 || c.AttachmentMaxMB > 500 {
		return errors.New("upload limits must be 1–100 MB for photos and 1–500 MB for attachments")
	}
	if _, err := c.Location(); err != nil {
		return fmt.Errorf("the time zone %q is unknown (use a name such as Europe/Moscow)", c.Timezone)
	}
	if err := c.checkProxy(); err != nil {
		return err
	}
	return c.validateOperations()
}

// checkProxy checks the trusted proxies: each an address or a network; and one trusted hop
// (--trust-proxy without --trusted-proxy) only on a loopback listen address (the
// attacker's review, m1).
func (c Config) checkProxy() error {
	if _, err := c.ProxyNetworks(); err != nil {
		return err
	}
	if c.TrustProxy && len(c.TrustedProxies) == 0 && !loopback(c.Addr) {
		// One trusted hop, on an address others reach: whoever reaches it directly names any
		// client address in X-Forwarded-For, and every limit counted by address is void.
		return fmt.Errorf("--trust-proxy (EMR_TRUST_PROXY=1) on %s, an address others can reach, needs the proxy's address: set --trusted-proxy (EMR_TRUSTED_PROXIES, e.g. 10.0.0.5 or 172.16.0.0/12), or listen on 127.0.0.1", c.Addr)
	}
	return nil
}

// loopback reports whether the listen address addr (HOST:PORT) is reached from this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// ProxyNetworks parses TrustedProxies: each an address (a network of one) or a CIDR network.
func (c Config) ProxyNetworks() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range c.TrustedProxies {
		if n, err := netip.ParsePrefix(p); err == nil {
			out = append(out, n.Masked())
		} else if a, err := netip.ParseAddr(p); err == nil {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		} else {
			return nil, fmt.Errorf("the trusted proxy %q must be an address or a network, e.g. 127.0.0.1 or 10.0.0.0/8", p)
		}
	}
	return out, nil
}

// validateOperations checks the metrics, TLS and backup settings.
func (c Config) validateOperations() error {
	for name, addr := range map[string]string{"metrics": c.MetricsAddr, "redirect": c.RedirectAddr} {
		if _, _, err := net.SplitHostPort(addr); addr != "" && err != nil {
			return fmt.Errorf("the %s address %q must be HOST:PORT, e.g. 127.0.0.1:9090", name, addr)
		}
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		return errors.New("the metrics token must have at least 16 characters")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("TLS needs both --tls-cert and --tls-key")
	}
	if c.RedirectAddr != "" && c.TLSCert == "" {
		return errors.New("--redirect-addr redirects to HTTPS, which needs --tls-cert and --tls-key")
	}
	if c.BackupDir != "" && (c.BackupEvery < time.Minute || c.BackupKeep < 1) {
		return errors.New("scheduled backups need --backup-every of at least 1m and --backup-keep of at least 1")
	}
	for _, o := range c.CORSOrigins {
		if bare, ok := withoutDefaultPort(o); ok {
			return fmt.Errorf("the CORS origin %q names its scheme's default port, which a browser never sends in an Origin header: write it %s", o, bare)
		}
		if !IsOrigin(o) {
			return fmt.Errorf("the CORS origin %q must be an origin alone, scheme://host[:port] such as https://app.example (no path, no wildcard)", o)
		}
	}
	if c.BackupDir != "" && len(c.BackupRecipients) == 0 && !c.BackupPlaintext {
		return errors.New("scheduled backups are encrypted: give EMR_BACKUP_RECIPIENTS (an age public key, age1…, made with age-keygen), or EMR_BACKUP_PLAINTEXT=1 to write them unencrypted on purpose")
	}
	return nil
}

// IsOrigin reports whether o is a web origin as a browser sends it in an Origin header:
// http or https, a host, an optional port other than the scheme's default (a browser leaves
// :443 and :80 out, RFC 6454 §6.2, so an origin naming one would never match), nothing
// else. A wildcard is no origin: every origin allowed is named. Origins are then compared
// as written: the configured form is the browser's.
func IsOrigin(o string) bool {
	u, err := url.Parse(o)
	if _, dflt := withoutDefaultPort(o); dflt {
		return false
	}
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != "" && !strings.Contains(u.Host, "*") &&
		u.User == nil && u.Path == "" && u.RawQuery == "" && u.Fragment == "" && o == strings.ToLower(u.Scheme+"://"+u.Host)
}

// withoutDefaultPort is origin o written without its scheme's default port, when it names
// one (https://app.example:443 is https://app.example).
func withoutDefaultPort(o string) (string, bool) {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "https" || u.Port() != "443") && (u.Scheme != "http" || u.Port() != "80") {
		return "", false
	}
	return strings.TrimSuffix(o, ":"+u.Port()), true
}

// Location returns the clinic's time zone.
func (c Config) Location() (*time.Location, error) {
	if c.Timezone == "" || c.Timezone == "Local" {
		return time.Local, nil
	}
	return time.LoadLocation(c.Timezone)
}

// PublicBase is where the server is reached when the clinic has set no public address in
// its settings (links in patients' messages): its own listening address, https with TLS.
func (c Config) PublicBase() string {
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil || c.Addr == "" {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	scheme := "http"
	if c.TLSCert != "" {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}
