package apitest

import (
	"strings"
	"testing"
)

// Scenario is one request of a table-driven API test and what must come back: a rule of
// the API (who may, what is refused and why), named so that a failure says which rule broke.
type Scenario struct {
	Name   string
	As     string // a client of the table's clients ("" is an anonymous client)
	Method string
	Path   string
	Body   any
	Status int
	// Contains, when set, must appear in the answer's body (a field name, an error key).
	Contains string
}

// Run runs each scenario as its own subtest, with the client it names.
func Run(t *testing.T, env *Env, clients map[string]*Client, scenarios []Scenario) {
	t.Helper()
	anonymous := env.Client()
	anonymous.Do("GET", "/api/sanctum/csrf-cookie", nil)
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			c := anonymous
			if s.As != "" {
				var ok bool
				if c, ok = clients[s.As]; !ok {
					t.Fatalf("no client %q", s.As)
				}
			}
			r := c.Do(s.Method, s.Path, s.Body)
			if r.Status != s.Status {
				t.Errorf("%s %s as %q: %d, want %d: %s", s.Method, s.Path, s.As, r.Status, s.Status, r.Body)
			}
			if s.Contains != "" && !strings.Contains(string(r.Body), s.Contains) {
				t.Errorf("%s %s as %q: the answer does not contain %q: %s", s.Method, s.Path, s.As, s.Contains, r.Body)
			}
		})
	}
}
