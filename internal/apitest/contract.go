package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The API contract, api/openapi.yaml: every JSON response a test receives is checked against
// the schema the contract documents for that operation and status, so a renamed or missing
// field fails the test that saw it. An object schema without a `required` list requires
// every property it declares but those it names in `x-optional` (fields a response leaves
// out when empty; a request may leave out more). A status the operation does not document,
// and a path no operation serves, is checked as the common error body when it is an error;
// a success the contract does not document is refused.

// contract is the parsed document, its routes, and its compiled response schemas.
type contract struct {
	doc      map[string]any
	routes   *http.ServeMux
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
}

const contractURL = "file:///openapi.json"

var loadContract = sync.OnceValues(func() (*contract, error) {
	_, here, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "api", "openapi.yaml"))
	if err != nil {
		return nil, err
	}
	var node any
	if err := yaml.Unmarshal(raw, &node); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	// Through JSON, so that the schema library sees JSON types (and json.Number).
	js, err := json.Marshal(node)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	requireDeclared(doc)
	c := &contract{doc: doc.(map[string]any), routes: http.NewServeMux(), compiler: jsonschema.NewCompiler(), schemas: map[string]*jsonschema.Schema{}}
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	if err := c.compiler.AddResource(contractURL, doc); err != nil {
		return nil, err
	}
	paths, _ := c.doc["paths"].(map[string]any)
	for path, item := range paths {
		for method := range item.(map[string]any) {
			if slices.Contains([]string{"get", "put", "post", "patch", "delete"}, method) {
				c.routes.Handle(strings.ToUpper(method)+" "+path, http.NotFoundHandler())
			}
		}
	}
	return c, nil
})

// requireDeclared makes every object schema without a `required` list require all the
// properties it declares but those listed in its `x-optional`.
func requireDeclared(v any) {
	switch n := v.(type) {
	case map[string]any:
		if props, ok := n["properties"].(map[string]any); ok && n["required"] == nil {
			optional, _ := n["x-optional"].([]any)
			names := make([]any, 0, len(props))
			for name := range props {
				if !slices.Contains(optional, any(name)) {
					names = append(names, name)
				}
			}
			n["required"] = names
		}
		for _, child := range n {
			requireDeclared(child)
		}
	case []any:
		for _, child := range n {
			requireDeclared(child)
		}
	}
}

// pointerEscape escapes a JSON pointer token.
func pointerEscape(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// schemaFor finds where the contract documents the JSON body of a response: "" when the
// response is not JSON the contract describes.
func (c *contract) schemaFor(req *http.Request, status int, contentType string) (string, error) {
	if !strings.HasPrefix(contentType, "application/json") || !strings.HasPrefix(req.URL.Path, "/api/") {
		return "", nil
	}
	_, pattern := c.routes.Handler(req)
	if pattern == "" {
		if status >= 400 { // an unknown path or method, refused
			return "#/components/schemas/Error", nil
		}
		return "", fmt.Errorf("%s %s is in no operation of api/openapi.yaml", req.Method, req.URL.Path)
	}
	method, path, _ := strings.Cut(pattern, " ")
	method = strings.ToLower(method)
	op := c.doc["paths"].(map[string]any)[path].(map[string]any)[method].(map[string]any)
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	loc := "#/paths/" + pointerEscape(path) + "/" + method + "/responses/" + code
	resp, ok := responses[code].(map[string]any)
	if !ok {
		if status < 400 {
			return "", fmt.Errorf("%s %s answered %d, which api/openapi.yaml does not document", req.Method, path, status)
		}
		return "#/components/schemas/Error", nil // every error has the one body
	}
	if ref, ok := resp["$ref"].(string); ok { // a shared response, e.g. #/components/responses/Forbidden
		loc = ref
		name := strings.TrimPrefix(ref, "#/components/responses/")
		resp, _ = c.doc["components"].(map[string]any)["responses"].(map[string]any)[name].(map[string]any)
	}
	content, _ := resp["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if _, ok := media["schema"]; !ok {
		if status >= 400 {
			return "#/components/schemas/Error", nil
		}
		return "", fmt.Errorf("%s %s answered %d with JSON, which api/openapi.yaml does not describe", req.Method, path, status)
	}
	return loc + "/content/application~1json/schema", nil
}

// check validates one response against the contract; nil when it holds (or is not JSON).
func (c *contract) check(req *http.Request, status int, header http.Header, body []byte) error {
	loc, err := c.schemaFor(req, status, header.Get("Content-Type"))
	if err != nil || loc == "" {
		return err
	}
	c.mu.Lock()
	schema, ok := c.schemas[loc]
	if !ok {
		schema, err = c.compiler.Compile(contractURL + loc)
		if err != nil {
			c.mu.Unlock()
			return fmt.Errorf("api/openapi.yaml %s: %w", loc, err)
		}
		c.schemas[loc] = schema
	}
	c.mu.Unlock()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s %s answered %d with a body that is not JSON: %w", req.Method, req.URL.Path, status, err)
	}
	if err := schema.Validate(inst); err != nil {
		return fmt.Errorf("%s %s answered %d with a body api/openapi.yaml does not describe (%s):\n%v\nbody: %.600s", req.Method, req.URL.Path, status, loc, err, body)
	}
	return nil
}
