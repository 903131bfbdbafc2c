package server_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"emr/internal/apitest"
	"emr/internal/database/dbtest"
)

// TestOpenAPIMatchesRoutes checks api/openapi.yaml against the server's route table: the
// same operations, each with the access the route declares (and whether it is session-only).
func TestOpenAPIMatchesRoutes(t *testing.T) {
	raw, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	type operation struct {
		Permission  string         `yaml:"x-permission"`
		SessionOnly bool           `yaml:"x-session-only"`
		Responses   map[string]any `yaml:"responses"`
	}
	documented := map[string]string{}
	sessionOnly := map[string]bool{}
	for path, items := range doc.Paths {
		for method, node := range items {
			if !slices.Contains([]string{"get", "put", "post", "patch", "delete"}, method) {
				continue // path-level parameters and the like
			}
			var op operation
			if err := node.Decode(&op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			if len(op.Responses) == 0 {
				t.Errorf("%s %s documents no responses", method, path)
			}
			documented[strings.ToUpper(method)+" "+path] = op.Permission
			sessionOnly[strings.ToUpper(method)+" "+path] = op.SessionOnly
		}
	}
	env := apitest.New(t, dbtest.Open(t, dbtest.Engines()[0].URL(t)))
	served := map[string]bool{}
	for _, rt := range env.Server.Routes {
		// "/a/{$}" serves /a/ alone: the operation of /a at its other address, documented
		// there (OpenAPI paths end without a slash).
		key := rt.Method + " " + strings.TrimSuffix(rt.Path, "/{$}")
		perm, ok := documented[key]
		if !ok {
			t.Errorf("%s is served but not in api/openapi.yaml", key)
			continue
		}
		if perm != rt.Access.String() {
			t.Errorf("%s: openapi.yaml says x-permission %q, the route declares %q", key, perm, rt.Access.String())
		}
		if sessionOnly[key] != rt.SessionOnly {
			t.Errorf("%s: openapi.yaml says x-session-only %v, the route declares %v", key, sessionOnly[key], rt.SessionOnly)
		}
		served[key] = true
	}
	for key := range documented {
		if !served[key] {
			t.Errorf("api/openapi.yaml documents %s, which the server does not serve", key)
		}
	}
}
