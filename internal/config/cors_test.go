package config

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestCORSOrigins: --cors-origin takes origins alone, repeated or comma-separated; anything
// that is not exactly an origin a browser sends (a path, a wildcard, upper case, another
// scheme) is refused at start, so no pattern is ever matched.
func TestCORSOrigins(t *testing.T) {
	var c Config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	BindCORS(fs, &c)
	if err := fs.Parse([]string{"--cors-origin", "https://growth.example,http://localhost:8000", "--cors-origin", "https://risk.example:8443"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://growth.example", "http://localhost:8000", "https://risk.example:8443"}; !slices.Equal(c.CORSOrigins, want) {
		t.Errorf("origins %v, want %v", c.CORSOrigins, want)
	}
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"https://growth.example", true},
		{"http://127.0.0.1:18255", true},
		{"https://growth.example/", false},
		{"https://growth.example/app", false},
		{"https://*.example", false},
		{"*", false},
		{"https://Growth.example", false},
		{"ftp://growth.example", false},
		{"https://user@growth.example", false},
		{"https://growth.example?x", false},
		{"growth.example", false},
		{"null", false},
		// A browser never sends the scheme's default port: refused, never compared.
		{"https://growth.example:443", false},
		{"http://localhost:80", false},
		{"http://growth.example:443", true},
		{"https://growth.example:80", true},
	} {
		if IsOrigin(tc.origin) != tc.ok {
			t.Errorf("IsOrigin(%q) = %v", tc.origin, !tc.ok)
		}
	}
}

// TestCORSOriginWithTheDefaultPort: an origin naming its scheme's default port is refused at
// start with a message giving the form a browser sends; other ports are kept as written.
func TestCORSOriginWithTheDefaultPort(t *testing.T) {
	for _, tc := range []struct {
		origin, want string
	}{
		{"https://growth.example:443", "write it https://growth.example"},
		{"http://localhost:80", "write it http://localhost"},
		{"https://growth.example", ""},
		{"https://growth.example:8443", ""},
	} {
		c := Config{CORSOrigins: []string{tc.origin}}
		err := c.validateOperations()
		switch {
		case tc.want == "" && err != nil && strings.Contains(err.Error(), "CORS"):
			t.Errorf("%s: %v", tc.origin, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "default port")):
			t.Errorf("%s: %v, want %q", tc.origin, err, tc.want)
		}
	}
}

// TestTrustedProxies: --trusted-proxy takes addresses and networks, repeated or
// comma-separated; anything else stops the server at start.
func TestTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		list []string
		want string // the networks, or "" refused
	}{
		{[]string{"127.0.0.1", "10.0.0.0/8"}, "127.0.0.1/32 10.0.0.0/8"},
		{[]string{"fd00::/8", "::1"}, "fd00::/8 ::1/128"},
		{[]string{"10.1.2.3/8"}, "10.0.0.0/8"},
		{[]string{"::ffff:10.0.0.1"}, "10.0.0.1/32"},
		{[]string{"proxy.local"}, ""},
		{[]string{"10.0.0.0/33"}, ""},
		{[]string{"*"}, ""},
	} {
		nets, err := Config{TrustedProxies: tc.list}.ProxyNetworks()
		var got []string
		for _, n := range nets {
			got = append(got, n.String())
		}
		if (tc.want == "") != (err != nil) || strings.Join(got, " ") != tc.want {
			t.Errorf("%v: %v %v, want %q", tc.list, got, err, tc.want)
		}
	}
}
