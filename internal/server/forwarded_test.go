package server

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestForwardedClient: the client's address behind a reverse proxy is what the proxy
// appended, never what the client wrote before it (the attacker's review, M7): the last hop
// with trust alone, the last hop that is no trusted proxy with proxies named, every
// X-Forwarded-For line read in order; a request from no trusted proxy is read for nothing.
func TestForwardedClient(t *testing.T) {
	nets := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("fd00::/8")}
	for _, c := range []struct {
		name    string
		peer    string
		lines   []string
		trust   bool
		proxies []netip.Prefix
		want    string // "" none: the peer stands
		ok      bool   // the forwarding headers are believed
	}{
		{"no trust: ignored", "198.51.100.1:5000", []string{"203.0.113.9"}, false, nil, "", false},
		{"trust, one hop", "127.0.0.1:5000", []string{"203.0.113.9"}, true, nil, "203.0.113.9", true},
		{"trust: the client's forged first hop loses", "127.0.0.1:5000", []string{"1.2.3.4, 203.0.113.9"}, true, nil, "203.0.113.9", true},
		{"trust: the proxy's own line, after the client's", "127.0.0.1:5000", []string{"1.2.3.4", "203.0.113.9"}, true, nil, "203.0.113.9", true},
		{"trust: a port on the hop", "127.0.0.1:5000", []string{"203.0.113.9:61000"}, true, nil, "203.0.113.9", true},
		{"trust: IPv6 in brackets with a port", "127.0.0.1:5000", []string{"[2001:db8::7]:443"}, true, nil, "2001:db8::7", true},
		{"trust: bare IPv6", "127.0.0.1:5000", []string{" 2001:db8::7 "}, true, nil, "2001:db8::7", true},
		{"trust: IPv4 mapped in IPv6", "127.0.0.1:5000", []string{"::ffff:203.0.113.9"}, true, nil, "203.0.113.9", true},
		{"trust: garbage last hop: the peer stands", "127.0.0.1:5000", []string{"203.0.113.9, unknown"}, true, nil, "", true},
		{"trust: no header", "127.0.0.1:5000", nil, true, nil, "", true},
		{"proxies: from one, the last untrusted hop", "10.0.0.2:5000", []string{"1.2.3.4, 203.0.113.9, 10.0.0.3"}, false, nets, "203.0.113.9", true},
		{"proxies: a forged hop inside the range before the client's", "10.0.0.2:5000", []string{"10.9.9.9, 203.0.113.9"}, false, nets, "203.0.113.9", true},
		{"proxies: not from one of them: ignored", "198.51.100.1:5000", []string{"203.0.113.9"}, true, nets, "", false},
		{"proxies: every hop a proxy: the first", "10.0.0.2:5000", []string{"10.0.0.5, 10.0.0.3"}, false, nets, "10.0.0.5", true},
		{"proxies: a proxy appended no address: that proxy", "10.0.0.2:5000", []string{"1.2.3.4, garbage, 10.0.0.3"}, false, nets, "10.0.0.3", true},
		{"proxies: IPv6 proxy", "[fd00::1]:5000", []string{"2001:db8::7, fd00::2"}, false, nets, "2001:db8::7", true},
		{"proxies: two lines", "127.0.0.1:5000", []string{"6.6.6.6", "203.0.113.9, 10.0.0.3"}, false, nets, "203.0.113.9", true},
	} {
		got, ok := forwardedClient(c.peer, c.lines, c.trust, c.proxies)
		want := netip.Addr{}
		if c.want != "" {
			want = netip.MustParseAddr(c.want)
		}
		if got != want || ok != c.ok {
			t.Errorf("%s: %v %v, want %v %v", c.name, got, ok, want, c.ok)
		}
	}
}

// TestForwardedHandler: what the rest of the server sees (auth.ClientAddress reads
// RemoteAddr), and that an untrusted caller's X-Forwarded-Proto is dropped.
func TestForwardedHandler(t *testing.T) {
	var addr, proto string
	h := forwarded(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr, proto = r.RemoteAddr, r.Header.Get("X-Forwarded-Proto")
	}), false, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})
	for _, c := range []struct {
		peer, want, proto string
	}{
		{"127.0.0.1:4000", "203.0.113.9:0", "https"},
		{"198.51.100.1:4000", "198.51.100.1:4000", ""},
	} {
		r := httptest.NewRequest("GET", "/api/book/options", nil)
		r.RemoteAddr = c.peer
		r.Header.Add("X-Forwarded-For", "1.2.3.4")
		r.Header.Add("X-Forwarded-For", "203.0.113.9")
		r.Header.Set("X-Forwarded-Proto", "https")
		h.ServeHTTP(httptest.NewRecorder(), r)
		if addr != c.want || proto != c.proto {
			t.Errorf("from %s: %s %q, want %s %q", c.peer, addr, proto, c.want, c.proto)
		}
	}
}
