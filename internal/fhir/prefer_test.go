package fhir

import (
	"net/http"
	"testing"
)

// The Prefer header is a list of preferences (RFC 7240): handling is read as a token, not
// found as a substring, so "return=minimal, handling=strict" is strict and a header that only
// mentions the word elsewhere is not.
func TestPreferHandling(t *testing.T) {
	cases := []struct {
		headers []string
		want    string
	}{
		{nil, ""},
		{[]string{"handling=strict"}, "strict"},
		{[]string{"Handling=Lenient"}, "lenient"},
		{[]string{"return=minimal, handling=strict"}, "strict"},
		{[]string{"return=representation", "handling=lenient"}, "lenient"},
		{[]string{`handling="strict"; note=1`}, "strict"},
		{[]string{" handling = strict "}, "strict"},
		{[]string{"respond-async"}, ""},
		{[]string{"x-handling=strict"}, ""},
	}
	for _, c := range cases {
		r := &http.Request{Header: http.Header{}}
		for _, h := range c.headers {
			r.Header.Add("Prefer", h)
		}
		if got := preferHandling(r); got != c.want {
			t.Errorf("Prefer %q: handling %q, want %q", c.headers, got, c.want)
		}
	}
}
