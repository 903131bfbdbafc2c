package apitest

import (
	"fmt"
	"strings"
	"testing"
)

// Vars are the values a scenario's Setup made (ids, versions), by name: "{name}" in its Path
// is replaced by the value, and BodyOf and After are handed them.
type Vars map[string]any

// Scenario is one request of a table-driven API test and what must come back: a rule of
// the API (who may, what is refused and why), named so that a failure says which rule broke.
type Scenario struct {
	Name string
	As   string // a client of the table's clients ("" is an anonymous client)
	// Setup, when set, runs first and makes what the request acts on (a bill, a visit),
	// answering its ids for Path, BodyOf and After.
	Setup  func(t *testing.T) Vars
	Method string
	Path   string // "{name}" stands for Vars["name"]
	Body   any
	// BodyOf, when set, is the body, made from the setup's values.
	BodyOf func(v Vars) any
	Status int
	// Contains must each appear in the answer's body (a field name, an error key, a value);
	// NotContains must not (what the caller may not see).
	Contains    []string
	NotContains []string
	// After, when set, checks what the request left behind (rows, audit events, another
	// reader's view), once the answer is checked.
	After func(t *testing.T, r Response, v Vars)
}

// AtVersion is a BodyOf: fields, with "version" the setup's Vars["version"] plus offset (-1
// for a version read before the last write: stale).
func AtVersion(offset int, fields map[string]any) func(Vars) any {
	return func(v Vars) any {
		body := map[string]any{"version": v["version"].(int) + offset}
		for k, x := range fields {
			body[k] = x
		}
		return body
	}
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
			v := Vars{}
			if s.Setup != nil {
				v = s.Setup(t)
			}
			path := s.Path
			for name, value := range v {
				path = strings.ReplaceAll(path, "{"+name+"}", fmt.Sprint(value))
			}
			body := s.Body
			if s.BodyOf != nil {
				body = s.BodyOf(v)
			}
			r := c.Do(s.Method, path, body)
			if r.Status != s.Status {
				t.Errorf("%s %s as %q: %d, want %d: %s", s.Method, path, s.As, r.Status, s.Status, r.Body)
			}
			for _, want := range s.Contains {
				if !strings.Contains(string(r.Body), want) {
					t.Errorf("%s %s as %q: the answer does not contain %q: %s", s.Method, path, s.As, want, r.Body)
				}
			}
			for _, not := range s.NotContains {
				if strings.Contains(string(r.Body), not) {
					t.Errorf("%s %s as %q: the answer contains %q: %s", s.Method, path, s.As, not, r.Body)
				}
			}
			if s.After != nil {
				s.After(t, r, v)
			}
		})
	}
}

// Do sends a request as c, fails the test unless it answers want, and decodes the answer.
func Do[T any](t testing.TB, c *Client, want int, method, path string, body any) T {
	t.Helper()
	var out T
	r := c.Do(method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	if len(r.Body) > 0 {
		r.JSON(t, &out)
	}
	return out
}
