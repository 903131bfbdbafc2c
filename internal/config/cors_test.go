package config

import (
	"flag"
	"slices"
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
	} {
		if IsOrigin(tc.origin) != tc.ok {
			t.Errorf("IsOrigin(%q) = %v", tc.origin, !tc.ok)
		}
	}
}
