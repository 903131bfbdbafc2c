package archtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
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

// product is the product's own code: tools and test support are not the product (they may
// seed and inspect in bulk), nor is the embedded web bundle.
func (a architecture) product(p goPackage) bool {
	part := a.partOf(p.rel)
	return part != "Tools" && part != "TestKit" && part != "WebBundle"
}

// owners maps each table to the folder of its owner.
func (a architecture) owners() map[string]string {
	owner := map[string]string{}
	for dir, list := range a.Tables.Owners {
		for _, table := range list {
			owner[table] = dir
		}
	}
	return owner
}

func report(t *testing.T, findings []string) {
	t.Helper()
	for _, f := range findings {
		t.Error(f)
	}
}

func TestNoHandlerRunsSQL(t *testing.T) {
	report(t, handlerSQL(sources(t, func(p goPackage) bool { return strings.HasPrefix(p.rel, "internal/") })))
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

// TestTablesAreNamedOnlyByTheirOwners: the product's SQL names only its own package's tables,
// each written out. The database floor is exempt: it copies every table in an archive, by
// the names the database lists.
func TestTablesAreNamedOnlyByTheirOwners(t *testing.T) {
	a, _ := load(t)
	report(t, tableNames(sources(t, func(p goPackage) bool {
		return a.product(p) && !strings.HasPrefix(p.rel, "internal/database/")
	}), a.owners()))
}

// TestDatabaseCallsTakeAContext: every query, statement and transaction of the product and its
// tools runs with the request's (or the command's) context. The floor (internal/database) is
// exempt: its writer runs savepoints on the one connection it holds, outside any request.
func TestDatabaseCallsTakeAContext(t *testing.T) {
	report(t, contextFreeCalls(sources(t, func(p goPackage) bool { return !strings.HasPrefix(p.rel, "internal/database/") })))
}

// TestWritesAreAuditedInTheirTransaction: no write's event is recorded after its write.
func TestWritesAreAuditedInTheirTransaction(t *testing.T) {
	report(t, auditOutsideWrites(sources(t, func(p goPackage) bool { return strings.HasPrefix(p.rel, "internal/") })))
}

// auditActionsFile lists every action the product audits, for the audit log's filter; each
// has its label under activity in the web app's strings (en.json here; the locales' own test
// holds the other languages to the same keys).
const auditActionsFile = "web/src/features/administration/auditActions.json"

// TestEveryAuditedActionIsNamed: the actions the server writes as literals are all in the web
// app's list, each listed action has a label, and each label's action is listed. Not read
// here: actions composed at run time. The FHIR API's, composed from its resource types
// ("fhir.<type>.read"), are held to the list by its own test of fhir.AuditActions; those
// composed from a state ("lab_order."+status) the list names by hand.
func TestEveryAuditedActionIsNamed(t *testing.T) {
	_, root := load(t)
	var listed []string
	raw, err := os.ReadFile(filepath.Join(root, auditActionsFile))
	if err == nil {
		err = json.Unmarshal(raw, &listed)
	}
	if err != nil {
		t.Fatal(err)
	}
	var labels struct {
		Activity map[string]any `json:"activity"`
	}
	raw, err = os.ReadFile(filepath.Join(root, "web", "src", "locales", "en.json"))
	if err == nil {
		err = json.Unmarshal(raw, &labels)
	}
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, a := range listed {
		named[a] = true
		var node any = labels.Activity
		for _, part := range strings.Split(a, ".") {
			m, _ := node.(map[string]any)
			node = m[part]
		}
		if _, ok := node.(string); !ok {
			t.Errorf("%s lists %s, which has no label under activity in en.json", auditActionsFile, a)
		}
	}
	// And the other way: every labelled action is in the list (the filter offers it); the
	// outcomes' words sit beside the actions' labels and are not actions.
	var labelled func(prefix string, node map[string]any)
	labelled = func(prefix string, node map[string]any) {
		for k, v := range node {
			if sub, ok := v.(map[string]any); ok {
				labelled(prefix+k+".", sub)
			} else if !named[prefix+k] && !strings.HasPrefix(prefix, "outcome.") {
				t.Errorf("activity.%s%s has a label but is not in %s", prefix, k, auditActionsFile)
			}
		}
	}
	labelled("", labels.Activity)
	report(t, unnamedActions(sources(t, func(p goPackage) bool {
		return strings.HasPrefix(p.rel, "internal/")
	}), named))
}

// TestEachRuleCatchesItsViolations: each rule on its fixtures, a package that breaks it in
// every way the rule knows (each one a finding: the count is exact) and one that keeps it.
func TestEachRuleCatchesItsViolations(t *testing.T) {
	owners := map[string]string{"patients": "internal/patient/", "bills": "internal/billing/", "services": "internal/bad/", "roles": "internal/good/"}
	rules := []struct {
		name  string
		check func([]parsed) []string
		bad   int
	}{
		{"handlersql", handlerSQL, 5},
		{"tables", func(f []parsed) []string { return tableNames(f, owners) }, 6},
		{"contextfree", contextFreeCalls, 4},
		{"auditwrites", auditOutsideWrites, 3},
		{"auditlabels", func(f []parsed) []string { return unnamedActions(f, map[string]bool{"patient.read": true}) }, 4},
		{"actors", ownActors, 3},
		{"stores", storeLiterals, 4},
		{"errchains", errChains, 4},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			if got := r.check(fixture(t, r.name, "bad")); len(got) != r.bad {
				t.Errorf("the breaking package: %d findings, want %d:\n%s", len(got), r.bad, strings.Join(got, "\n"))
			}
			if got := r.check(fixture(t, r.name, "good")); len(got) != 0 {
				t.Errorf("the keeping package: %d findings:\n%s", len(got), strings.Join(got, "\n"))
			}
		})
	}
}

// architectureLog is the ADR whose log holds a line for each version of docs/architecture.json.
const architectureLog = "docs/adr/0030-guards-the-tests-run.md"

// TestTheArchitectureChangesWithAnADRLine: a change to docs/architecture.json (a part, an
// arrow, a table's owner) is a decision, so it comes with a line in the ADR's log naming the
// file's new digest (the first 12 hex digits of its SHA-256) and saying why.
func TestTheArchitectureChangesWithAnADRLine(t *testing.T) {
	_, root := load(t)
	raw, err := os.ReadFile(filepath.Join(root, "docs", "architecture.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	digest := hex.EncodeToString(sum[:])[:12]
	adr, err := os.ReadFile(filepath.Join(root, architectureLog))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^\| [0-9-]{10} \| ` + digest + ` \| .{10,}\|$`)
	if !line.Match(adr) {
		t.Errorf("docs/architecture.json (digest %s) has no line in %s's log: add `| date | %s | why, and which ADR decided it |`", digest, architectureLog, digest)
	}
}

// TestOneActorOfAnEvent: an event's actor as a column's value is audit.Event.Actor, not a
// package's own copy.
func TestOneActorOfAnEvent(t *testing.T) {
	report(t, ownActors(sources(t, func(p goPackage) bool {
		return strings.HasPrefix(p.rel, "internal/") || strings.HasPrefix(p.rel, "cmd/")
	})))
}

// TestStoresAreBuiltInOnePlace: the product builds its stores in internal/stores alone;
// tests and test support (internal/apitest) build their own.
func TestStoresAreBuiltInOnePlace(t *testing.T) {
	a, _ := load(t)
	report(t, storeLiterals(sources(t, a.product)))
}

// TestHandlersReturnEarly: no handler carries an error forward through if err == nil; each
// answers an error where it happens. The rule holds for every handler, with no exceptions.
func TestHandlersReturnEarly(t *testing.T) {
	report(t, errChains(sources(t, func(p goPackage) bool { return strings.HasPrefix(p.rel, "internal/") })))
}
