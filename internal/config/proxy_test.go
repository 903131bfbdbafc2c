package config

import (
	"strings"
	"testing"
)

// TestOneTrustedHopOnlyOnLoopback: --trust-proxy without --trusted-proxy trusts whoever
// connects to name the client's address; on an address others reach, that voids every limit
// counted by address, so the server refuses to start (the attacker's review, m1).
func TestOneTrustedHopOnlyOnLoopback(t *testing.T) {
	for _, c := range []struct {
		addr    string
		proxies []string
		trust   bool
		ok      bool
	}{
		{"127.0.0.1:8080", nil, true, true},
		{"[::1]:8080", nil, true, true},
		{"localhost:8080", nil, true, true},
		{"0.0.0.0:8080", nil, true, false},
		{":8080", nil, true, false},
		{"10.0.0.2:8080", nil, true, false},
		{"0.0.0.0:8080", []string{"10.0.0.5"}, true, true},
		{"0.0.0.0:8080", nil, false, true},
	} {
		err := Config{Addr: c.addr, TrustProxy: c.trust, TrustedProxies: c.proxies}.checkProxy()
		if (err == nil) != c.ok {
			t.Errorf("%s %v trust=%v: %v", c.addr, c.proxies, c.trust, err)
		}
		if err != nil && !strings.Contains(err.Error(), "EMR_TRUSTED_PROXIES") {
			t.Errorf("%s: the message names no remedy: %v", c.addr, err)
		}
	}
}
