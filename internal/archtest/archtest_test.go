package archtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"emr/internal/database"
)

// architecture is docs/architecture.json.
type architecture struct {
	Parts map[string]struct {
		Is []string `json:"is"`
	} `json:"parts"`
	Arrows  [][2]string `json:"arrows"`
	Never   [][3]string `json:"never"`
	Domains struct {
		Order []string `json:"order"`
	} `json:"domains"`
	Tables struct {
		Owners map[string][]string `json:"owners"`
	} `json:"tables"`
}

// moduleRoot is the folder of go.mod, above this package's.
var moduleRoot = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test")
		}
		dir = parent
	}
})

func load(t *testing.T) (architecture, string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "docs", "architecture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a architecture
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("docs/architecture.json: %v", err)
	}
	return a, root
}

// partOf is the part whose folder is the longest prefix of dir ("internal/user/"), or "".
func (a architecture) partOf(dir string) string {
	best, part := -1, ""
	for name, p := range a.Parts {
		for _, prefix := range p.Is {
			if strings.HasPrefix(dir, prefix) && len(prefix) > best {
				best, part = len(prefix), name
			}
		}
	}
	return part
}

// goPackage is what `go list` says of one package of the module.
type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	rel        string // its folder from the module root, with a trailing slash
}

func packages(t *testing.T) []goPackage {
	t.Helper()
	list, err := listed()
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// listed is `go list` of the module, run once for all the tests.
var listed = sync.OnceValues(func() ([]goPackage, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	return goList(root)
})

func goList(root string) ([]goPackage, error) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	var list []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil {
			return nil, err
		}
		p.rel = filepath.ToSlash(rel) + "/"
		list = append(list, p)
	}
	if len(list) < 10 {
		return nil, fmt.Errorf("go list found only %d packages", len(list))
	}
	return list, nil
}

func TestTheDocumentHoldsTogether(t *testing.T) {
	a, root := load(t)
	arrows := map[[2]string]bool{}
	for _, arrow := range a.Arrows {
		for _, p := range arrow {
			if _, ok := a.Parts[p]; !ok {
				t.Errorf("arrow %v names no part %q", arrow, p)
			}
		}
		arrows[arrow] = true
	}
	for _, n := range a.Never {
		if arrows[[2]string{n[0], n[1]}] {
			t.Errorf("%s -> %s is both allowed and never allowed", n[0], n[1])
		}
	}
	for _, d := range a.Domains.Order {
		if part := a.partOf(d); part != "Clinical" && part != "Administration" {
			t.Errorf("domain %s is in part %q, not a domain part", d, part)
		}
	}
	for dir := range a.Tables.Owners {
		if _, err := os.Stat(filepath.Join(root, dir)); err != nil {
			t.Errorf("table owner %s: %v", dir, err)
		}
	}
}

func TestEveryPackageHasAPart(t *testing.T) {
	a, _ := load(t)
	for _, p := range packages(t) {
		if a.partOf(p.rel) == "" {
			t.Errorf("package %s (%s) belongs to no part of docs/architecture.json", p.ImportPath, p.rel)
		}
	}
}

func TestImportsFollowTheArrows(t *testing.T) {
	a, _ := load(t)
	list := packages(t)
	module := strings.TrimSuffix(list[0].ImportPath, strings.TrimSuffix(list[0].rel, "/"))
	arrows := map[[2]string]bool{}
	for _, arrow := range a.Arrows {
		arrows[arrow] = true
	}
	never := map[[2]string]string{}
	for _, n := range a.Never {
		never[[2]string{n[0], n[1]}] = n[2]
	}
	rank := func(dir string) int { return slices.Index(a.Domains.Order, dir) }
	for _, p := range list {
		from := a.partOf(p.rel)
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dir := strings.TrimPrefix(imp, module) + "/"
			to := a.partOf(dir)
			switch {
			case from == "" || to == "":
				continue // TestEveryPackageHasAPart says so
			case never[[2]string{from, to}] != "":
				t.Errorf("%s imports %s: %s -> %s is never allowed (%s)", p.rel, dir, from, to, never[[2]string{from, to}])
			case from != to && !arrows[[2]string{from, to}]:
				t.Errorf("%s imports %s: no arrow %s -> %s in docs/architecture.json", p.rel, dir, from, to)
			case rank(p.rel) >= 0 && rank(dir) >= 0 && rank(dir) > rank(p.rel):
				t.Errorf("%s imports %s, a domain above it (domains import only downward)", p.rel, dir)
			}
		}
	}
}

// parsed is one non-test Go file of a package.
type parsed struct {
	pkg  goPackage
	name string
	file *ast.File
}

func sources(t *testing.T, keep func(p goPackage) bool) []parsed {
	t.Helper()
	var out []parsed
	fset := token.NewFileSet()
	for _, p := range packages(t) {
		if !keep(p) {
			continue
		}
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, parsed{pkg: p, name: name, file: f})
		}
	}
	return out
}

// dbCalls are the methods that run SQL or a transaction.
var dbCalls = []string{"QueryContext", "QueryRowContext", "ExecContext", "PrepareContext", "BeginTx", "Tx"}

// takesResponseWriter reports whether fn is an HTTP handler (has an http.ResponseWriter).
func takesResponseWriter(fn *ast.FuncType) bool {
	for _, field := range fn.Params.List {
		if sel, ok := field.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "ResponseWriter" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "http" {
				return true
			}
		}
	}
	return false
}

// TestNoHandlerRunsSQL: an HTTP handler decodes, calls a store, and responds; the SQL is the
// store's. Every function literal or declaration taking an http.ResponseWriter, and every
// handler.go and routes.go, is read for calls that run SQL.
func TestNoHandlerRunsSQL(t *testing.T) {
	for _, src := range sources(t, func(p goPackage) bool { return strings.HasPrefix(p.rel, "internal/") }) {
		whole := src.name == "handler.go" || src.name == "routes.go"
		ast.Inspect(src.file, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body != nil && (whole || takesResponseWriter(fn.Type)) {
					body = fn.Body
				}
			case *ast.FuncLit:
				if whole || takesResponseWriter(fn.Type) {
					body = fn.Body
				}
			}
			if body == nil {
				return true
			}
			ast.Inspect(body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && slices.Contains(dbCalls, sel.Sel.Name) {
					t.Errorf("%s%s: a handler calls %s: move the SQL into the package's store", src.pkg.rel, src.name, sel.Sel.Name)
				}
				return true
			})
			return false
		})
	}
}

// tables lists the tables of a freshly migrated database (SQLite, which has every table
// PostgreSQL has and the search index's virtual table), without a virtual table's shadows.
func tables(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "arch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names, virtual []string
	for rows.Next() {
		var name, sql string
		if err := rows.Scan(&name, &sql); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		if strings.HasPrefix(strings.ToUpper(sql), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, name)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(n string) bool {
		return slices.ContainsFunc(virtual, func(v string) bool { return strings.HasPrefix(n, v+"_") })
	})
	sort.Strings(names)
	return names
}

func TestEveryTableHasOneOwner(t *testing.T) {
	a, _ := load(t)
	owner := map[string]string{}
	for dir, list := range a.Tables.Owners {
		for _, table := range list {
			if owner[table] != "" {
				t.Errorf("table %s has two owners, %s and %s", table, owner[table], dir)
			}
			owner[table] = dir
		}
	}
	have := tables(t)
	for _, table := range have {
		if owner[table] == "" {
			t.Errorf("table %s has no owner in docs/architecture.json", table)
		}
	}
	for table := range owner {
		if !slices.Contains(have, table) {
			t.Errorf("docs/architecture.json names a table %s the migrations do not create", table)
		}
	}
}

// sqlTable finds the tables a statement reads or writes.
var sqlTable = regexp.MustCompile(`(?i)\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)`)

// TestTablesAreNamedOnlyByTheirOwners: a table is read and written only by its owner's
// SQL; others call the owner. The product's code is read (tools and test support are not the
// product: they may seed and inspect in bulk).
func TestTablesAreNamedOnlyByTheirOwners(t *testing.T) {
	a, _ := load(t)
	owner := map[string]string{}
	for dir, list := range a.Tables.Owners {
		for _, table := range list {
			owner[table] = dir
		}
	}
	product := func(p goPackage) bool {
		part := a.partOf(p.rel)
		return part != "Tools" && part != "TestKit" && part != "WebBundle"
	}
	seen := map[string]bool{}
	for _, src := range sources(t, product) {
		ast.Inspect(src.file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range sqlTable.FindAllStringSubmatch(text, -1) {
				table := strings.ToLower(m[1])
				dir, known := owner[table]
				if !known || dir == src.pkg.rel {
					continue
				}
				if key := src.pkg.rel + src.name + " " + table; !seen[key] {
					seen[key] = true
					t.Errorf("%s%s names table %s, which %s owns: call its store", src.pkg.rel, src.name, table, dir)
				}
			}
			return true
		})
	}
}

// contextFree are the database/sql methods that run SQL without a context: a request that
// ends, a shutdown or a deadline cannot stop them.
var contextFree = []string{"Exec", "Query", "QueryRow", "Prepare", "Begin"}

// contextFreeCalls finds the calls of f that run SQL without a context: a contextFree method
// called on a value (not a package's function of that name), with the SQL as its argument (or,
// for Begin, none). It reads syntax only, so a method of another type with such a name and such
// arguments is reported too: rename it.
func contextFreeCalls(fset *token.FileSet, f *ast.File) []string {
	packages := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		packages[name] = true
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !slices.Contains(contextFree, sel.Sel.Name) {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && packages[x.Name] {
			return true
		}
		if (sel.Sel.Name == "Begin") != (len(call.Args) == 0) {
			return true // URL.Query(), or a Begin of something else that takes arguments
		}
		out = append(out, fmt.Sprintf("line %d: %s without a context", fset.Position(call.Pos()).Line, sel.Sel.Name))
		return true
	})
	return out
}

// TestDatabaseCallsTakeAContext: every query, statement and transaction of the product and its
// tools runs with the request's (or the command's) context. The floor (internal/database) is
// exempt: its writer runs savepoints on the one connection it holds, outside any request.
func TestDatabaseCallsTakeAContext(t *testing.T) {
	fset := token.NewFileSet()
	for _, src := range sources(t, func(p goPackage) bool { return !strings.HasPrefix(p.rel, "internal/database/") }) {
		path := filepath.Join(src.pkg.Dir, src.name)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, finding := range contextFreeCalls(fset, f) {
			t.Errorf("%s%s %s: use the Context form", src.pkg.rel, src.name, finding)
		}
	}
}

// TestTheContextRuleCatchesItsViolations: the rule above, on a file that breaks it four ways
// (and calls a package's Query, which is not a database call) and on one that keeps it.
func TestTheContextRuleCatchesItsViolations(t *testing.T) {
	for name, want := range map[string]int{"bad.go.txt": 4, "good.go.txt": 0} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join("testdata", "contextfree", name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if got := contextFreeCalls(fset, f); len(got) != want {
			t.Errorf("%s: %d findings, want %d: %v", name, len(got), want, got)
		}
	}
}
