package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"emr/internal/audit"
)

// The rules below read source, not types: each takes the parsed files of one or more
// packages and answers its findings, one line each. The tests run every rule on the module
// and on its fixtures in testdata/<rule>/: a small package that breaks the rule in each way
// the rule knows (every break must be found) and one that keeps it (nothing may be found).

// parsed is one non-test Go file of a package.
type parsed struct {
	pkg  goPackage
	name string
	file *ast.File
	fset *token.FileSet
}

func (p parsed) where(n ast.Node) string {
	return fmt.Sprintf("%s%s:%d", p.pkg.rel, p.name, p.fset.Position(n.Pos()).Line)
}

// sources parses the non-test files of the module's packages that keep says to read.
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
			out = append(out, parsed{pkg: p, name: name, file: f, fset: fset})
		}
	}
	return out
}

// fixture parses testdata/<rule>/<kind>/*.go.txt as the package internal/<kind>/.
func fixture(t *testing.T, rule, kind string) []parsed {
	t.Helper()
	dir := filepath.Join("testdata", rule, kind)
	names, err := filepath.Glob(filepath.Join(dir, "*.go.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("fixture %s: no files (%v)", dir, err)
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	pkg := goPackage{ImportPath: "emr/internal/" + kind, Dir: dir, rel: "internal/" + kind + "/"}
	var out []parsed
	for _, path := range names {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		f, err := parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsed{pkg: pkg, name: name, file: f, fset: fset})
	}
	return out
}

// byPackage groups files by their package's folder, in a stable order.
func byPackage(files []parsed) [][]parsed {
	groups := map[string][]parsed{}
	var order []string
	for _, f := range files {
		if _, ok := groups[f.pkg.rel]; !ok {
			order = append(order, f.pkg.rel)
		}
		groups[f.pkg.rel] = append(groups[f.pkg.rel], f)
	}
	out := make([][]parsed, 0, len(order))
	for _, rel := range order {
		out = append(out, groups[rel])
	}
	return out
}

// dbCalls are the methods that run SQL or a transaction.
var dbCalls = []string{"QueryContext", "QueryRowContext", "ExecContext", "PrepareContext", "BeginTx", "Tx"}

// runsSQL is the first call in body that runs SQL, or nil.
func runsSQL(body ast.Node) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && slices.Contains(dbCalls, sel.Sel.Name) {
				found = call
			}
		}
		return found == nil
	})
	return found
}

// takesResponseWriter reports whether fn is an HTTP handler (has an http.ResponseWriter).
func takesResponseWriter(fn *ast.FuncType) bool {
	for _, field := range fn.Params.List {
		if typeName(field.Type) == "http.ResponseWriter" {
			return true
		}
	}
	return false
}

// typeName writes a parameter's or receiver's type as source does, without the pointer:
// "sql.Tx", "Store".
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			return pkg.Name + "." + x.Sel.Name
		}
	case *ast.IndexExpr:
		return typeName(x.X)
	}
	return ""
}

// databaseTypes are the parameters that make a function a store's: it is handed the
// database, and its SQL is where SQL belongs.
var databaseTypes = []string{"sql.Tx", "sql.DB", "database.DB", "database.Querier"}

// storeLevel reports whether fn is a store's: a method of a type named Store (or …Store), or
// a function handed the database.
func storeLevel(fn *ast.FuncDecl) bool {
	if fn.Recv != nil && len(fn.Recv.List) > 0 && strings.HasSuffix(typeName(fn.Recv.List[0].Type), "Store") {
		return true
	}
	for _, field := range fn.Type.Params.List {
		if slices.Contains(databaseTypes, typeName(field.Type)) {
			return true
		}
	}
	return false
}

// declKey names a function ("helper") or a method ("Handler.helper") of a package.
func declKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	return typeName(fn.Recv.List[0].Type) + "." + fn.Name.Name
}

// receiver is a method's receiver: its name in the body and its type.
func receiver(fn *ast.FuncDecl) (name, typ string) {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return "", ""
	}
	r := fn.Recv.List[0]
	if len(r.Names) > 0 {
		name = r.Names[0].Name
	}
	return name, typeName(r.Type)
}

// handlerSQL finds the handlers that run SQL: an HTTP handler decodes, calls a store, and
// responds; the SQL is the store's. A handler is every function or function literal taking an
// http.ResponseWriter, and everything in handler.go and routes.go. Its calls to its package's
// functions and to its receiver's methods are followed, however deep, to a store's function
// (a method of a …Store, or one handed the database), which is where following stops.
func handlerSQL(files []parsed) []string {
	var out []string
	for _, pkg := range byPackage(files) {
		decls := map[string]*ast.FuncDecl{}
		file := map[*ast.FuncDecl]parsed{}
		for _, src := range pkg {
			for _, d := range src.file.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
					decls[declKey(fn)] = fn
					file[fn] = src
				}
			}
		}
		reported := map[*ast.CallExpr]bool{} // a helper's SQL is reported once, by the first handler that reaches it
		for _, src := range pkg {
			whole := src.name == "handler.go" || src.name == "routes.go"
			for _, d := range src.file.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				recvName, recvType := receiver(fn)
				check := func(name string, body *ast.BlockStmt) {
					if call := runsSQL(body); call != nil {
						out = append(out, fmt.Sprintf("%s: handler %s runs SQL (%s): move it into the package's store", src.where(call), name, call.Fun.(*ast.SelectorExpr).Sel.Name))
						return
					}
					seen := map[*ast.FuncDecl]bool{fn: true}
					var follow func(body ast.Node, rName, rType, path string)
					follow = func(body ast.Node, rName, rType, path string) {
						ast.Inspect(body, func(n ast.Node) bool {
							call, ok := n.(*ast.CallExpr)
							if !ok {
								return true
							}
							var callee *ast.FuncDecl
							switch f := call.Fun.(type) {
							case *ast.Ident:
								callee = decls[f.Name]
							case *ast.SelectorExpr:
								if x, ok := f.X.(*ast.Ident); ok && rName != "" && x.Name == rName {
									callee = decls[rType+"."+f.Sel.Name]
								}
							}
							if callee == nil || seen[callee] || storeLevel(callee) {
								return true
							}
							seen[callee] = true
							via := path + " → " + callee.Name.Name
							if sql := runsSQL(callee.Body); sql != nil {
								if reported[sql] {
									return true
								}
								reported[sql] = true
								out = append(out, fmt.Sprintf("%s: handler %s runs SQL through %s: move it into the package's store", file[callee].where(sql), name, strings.TrimPrefix(via, " → ")))
								return true
							}
							cName, cType := receiver(callee)
							follow(callee.Body, cName, cType, via)
							return true
						})
					}
					follow(body, recvName, recvType, "")
				}
				if whole || takesResponseWriter(fn.Type) {
					check(fn.Name.Name, fn.Body)
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if lit, ok := n.(*ast.FuncLit); ok && takesResponseWriter(lit.Type) {
						check(fn.Name.Name+" (its handler literal)", lit.Body)
						return false
					}
					return true
				})
			}
		}
	}
	return out
}

// sqlKeyword opens a table's name in a statement.
const sqlKeyword = `\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+`

// sqlTable finds the tables a statement reads or writes, quoted or not.
var sqlTable = regexp.MustCompile(`(?i)` + sqlKeyword + `"?([a-z_][a-z0-9_]*)`)

// builtTable finds a table named at run time: a keyword followed by a format verb, or ending
// the literal (a name concatenated after it). Upper case only, as the product writes SQL,
// so that prose ("copied from ") is not taken for it.
var builtTable = regexp.MustCompile(sqlKeyword + `"?(?:%[sqv]|$)`)

// tableNames finds the tables named outside their owners: a table is read and written only
// by its owner's SQL (others call the owner), and named in the SQL's text, never built at run
// time (a built name hides the table from this rule and from a reader). owner maps a table
// to the folder of the package that owns it.
func tableNames(files []parsed, owner map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, src := range files {
		ast.Inspect(src.file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if builtTable.MatchString(text) {
				out = append(out, fmt.Sprintf("%s: a table named at run time: write its name in the SQL", src.where(lit)))
			}
			for _, m := range sqlTable.FindAllStringSubmatch(text, -1) {
				table := strings.ToLower(m[1])
				dir, known := owner[table]
				if !known || dir == src.pkg.rel {
					continue
				}
				if key := src.pkg.rel + src.name + " " + table; !seen[key] {
					seen[key] = true
					out = append(out, fmt.Sprintf("%s: names table %s, which %s owns: call its store", src.where(lit), table, dir))
				}
			}
			return true
		})
	}
	return out
}

// contextFree are the database/sql methods that run SQL without a context: a request that
// ends, a shutdown or a deadline cannot stop them.
var contextFree = []string{"Exec", "Query", "QueryRow", "Prepare", "Begin"}

// contextFreeCalls finds the calls that run SQL without a context: a contextFree method
// called on a value (not a package's function of that name), with the SQL as its argument (or,
// for Begin, none). It reads syntax only, so a method of another type with such a name and such
// arguments is reported too: rename it.
func contextFreeCalls(files []parsed) []string {
	var out []string
	for _, src := range files {
		packages := map[string]bool{}
		for _, imp := range src.file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			packages[name] = true
		}
		ast.Inspect(src.file, func(n ast.Node) bool {
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
			out = append(out, fmt.Sprintf("%s: %s without a context: use the Context form", src.where(call), sel.Sel.Name))
			return true
		})
	}
	return out
}

// isCall reports whether n calls pkg.name.
func isCall(n ast.Node, pkg, name string) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg
}

// auditOutsideWrites finds writes audited after their transaction: a write's event is
// recorded by audit.Record inside the write's transaction (which takes that transaction, so
// nothing else compiles), and audit.Access, the one way to record outside a transaction,
// takes only events that change nothing. Access refuses a write's event when it runs; this
// rule finds it before: a function that calls audit.Access and names, as an event's Action, a
// write's action (unless the function records a failed or refused attempt, whose action is
// the attempted write's).
func auditOutsideWrites(files []parsed) []string {
	var out []string
	for _, src := range files {
		ast.Inspect(src.file, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				body = fn.Body
			case *ast.FuncLit:
				body = fn.Body
			}
			if body == nil {
				return true
			}
			calls, attempt := false, false
			var actions []*ast.BasicLit
			ast.Inspect(body, func(m ast.Node) bool {
				switch x := m.(type) {
				case *ast.FuncLit:
					return false // read on its own
				case *ast.CallExpr:
					calls = calls || isCall(x, "audit", "Access")
				case *ast.SelectorExpr:
					if pkg, ok := x.X.(*ast.Ident); ok && pkg.Name == "audit" && (x.Sel.Name == "Failure" || x.Sel.Name == "Denied") {
						attempt = true
					}
				case *ast.KeyValueExpr:
					if key, ok := x.Key.(*ast.Ident); ok && key.Name == "Action" {
						if lit, ok := x.Value.(*ast.BasicLit); ok {
							actions = append(actions, lit)
						}
					}
				case *ast.AssignStmt:
					for i, lhs := range x.Lhs {
						if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Action" && i < len(x.Rhs) {
							if lit, ok := x.Rhs[i].(*ast.BasicLit); ok {
								actions = append(actions, lit)
							}
						}
					}
				}
				return true
			})
			if !calls || attempt {
				return true
			}
			for _, lit := range actions {
				action, _ := strconv.Unquote(lit.Value)
				if !audit.IsAccess(audit.Event{Action: action, Outcome: audit.Success}) {
					out = append(out, fmt.Sprintf("%s: %s is a write's event, recorded outside its transaction: pass the event to the store's write", src.where(lit), action))
				}
			}
			return true
		})
	}
	return out
}

// auditHelpers are the product's functions that take the action they audit as an argument.
var auditHelpers = map[string]bool{"audited": true, "auditRead": true, "audit": true, "record": true, "knowledgeChanged": true}

// actionLike is an audited action's form: an entity and what was done, dotted (patient.read).
var actionLike = regexp.MustCompile(`^[a-z][a-z_]*(\.[a-z_-]+)+$`)

// unnamedActions finds audited actions people would see as codes: each action written as a
// literal — an event's Action, a variable named action, an argument of a function that audits —
// must be one the web app names (named: its list of actions, each with a label in every
// language), or the audit log's filter misses it and a user's recent activity shows its code.
// Each action is reported once, where it is first written.
func unnamedActions(files []parsed, named map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	check := func(src parsed, e ast.Expr) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		action, err := strconv.Unquote(lit.Value)
		if err != nil || !actionLike.MatchString(action) || named[action] || seen[action] {
			return
		}
		seen[action] = true
		out = append(out, fmt.Sprintf("%s: %s is audited but not named in %s: add it there, with its label under activity in each language", src.where(lit), action, auditActionsFile))
	}
	for _, src := range files {
		ast.Inspect(src.file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if key, ok := x.Key.(*ast.Ident); ok && key.Name == "Action" {
					check(src, x.Value)
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					if i >= len(x.Rhs) {
						break
					}
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Action" {
						check(src, x.Rhs[i])
					}
					if id, ok := lhs.(*ast.Ident); ok && id.Name == "action" {
						check(src, x.Rhs[i])
					}
				}
			case *ast.CallExpr:
				name := ""
				switch f := x.Fun.(type) {
				case *ast.Ident:
					name = f.Name
				case *ast.SelectorExpr:
					name = f.Sel.Name
				}
				if auditHelpers[name] {
					for _, a := range x.Args {
						check(src, a)
					}
				}
			}
			return true
		})
	}
	return out
}

// TestOnlyTestsHashCheaply: cheap password hashing (auth.CheapHashingForTests) is for test
// servers; no product code may call it.
func TestOnlyTestsHashCheaply(t *testing.T) {
	var findings []string
	for _, f := range sources(t, func(p goPackage) bool { return p.rel != "internal/apitest/" }) {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == "CheapHashingForTests" {
				findings = append(findings, f.fset.Position(s.Pos()).String()+": only tests may hash passwords cheaply")
			}
			return true
		})
	}
	report(t, findings)
}

// ownActors finds the copies of audit.Event's Actor: a function outside internal/audit/ that
// returns a bare value (any) and compares an event's ActorID with 0, answering nil for an
// event without an actor (the command line, a patient) and the id otherwise, as a column's
// value. The event answers it itself (e.Actor()), once.
func ownActors(files []parsed) []string {
	var out []string
	for _, src := range files {
		if src.pkg.rel == "internal/audit/" {
			continue
		}
		for _, d := range src.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !returnsAny(fn.Type) {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if cmp, ok := n.(*ast.BinaryExpr); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) && (isActorID(cmp.X) && isZero(cmp.Y) || isActorID(cmp.Y) && isZero(cmp.X)) {
					out = append(out, fmt.Sprintf("%s: %s is a copy of audit.Event's Actor: call e.Actor()", src.where(fn), fn.Name.Name))
					return false
				}
				return true
			})
		}
	}
	return out
}

// returnsAny reports whether fn returns one bare value: any, or interface{}.
func returnsAny(fn *ast.FuncType) bool {
	if fn.Results == nil || len(fn.Results.List) != 1 || len(fn.Results.List[0].Names) > 1 {
		return false
	}
	switch t := fn.Results.List[0].Type.(type) {
	case *ast.Ident:
		return t.Name == "any"
	case *ast.InterfaceType:
		return len(t.Methods.List) == 0
	}
	return false
}

func isActorID(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "ActorID"
}

func isZero(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}

// storeLiterals finds the stores built outside the one constructor (internal/stores): a
// composite literal of a type named Store, a package's (&patient.Store{…}) or its own
// (&Store{…}). The server and every command take the stores it builds, wired the same way;
// a domain that needs another's store is handed it as a field. Tests build their own (this
// rule reads no test file), and so may test support (TestKit), which is not the product.
func storeLiterals(files []parsed) []string {
	var out []string
	for _, src := range files {
		if src.pkg.rel == "internal/stores/" {
			continue
		}
		ast.Inspect(src.file, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			name := ""
			switch t := lit.Type.(type) {
			case *ast.Ident:
				name = t.Name
			case *ast.SelectorExpr:
				if pkg, ok := t.X.(*ast.Ident); ok && t.Sel.Name == "Store" {
					name = pkg.Name + "." + t.Sel.Name
				}
			}
			if name == "Store" || strings.HasSuffix(name, ".Store") {
				out = append(out, fmt.Sprintf("%s: builds a %s: take it from the stores internal/stores builds", src.where(lit), name))
			}
			return true
		})
	}
	return out
}

// errChains finds handlers that carry an error forward instead of answering it: an
// `if err == nil { … err = … }` (the condition err == nil, alone or in an &&, and a body that
// assigns err), whose error one check further down answers. A handler answers each error
// where it happens and returns (`if err != nil { httpjson.Error(w, r, err); return }`), so it
// reads top to bottom: decode, validate, act, respond. A handler is a function or function
// literal taking an http.ResponseWriter; an `if err == nil` that does not assign err (a lookup
// that found something) is not a chain.
func errChains(files []parsed) []string {
	var out []string
	for _, src := range files {
		check := func(name string, body *ast.BlockStmt) {
			ast.Inspect(body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && takesResponseWriter(lit.Type) {
					return false // checked as a handler of its own
				}
				stmt, ok := n.(*ast.IfStmt)
				if !ok || !errIsNil(stmt.Cond) || !assignsErr(stmt.Body) {
					return true
				}
				out = append(out, fmt.Sprintf("%s: handler %s carries an error forward (if err == nil { … err = … }): answer each error where it happens and return", src.where(stmt), name))
				return true
			})
		}
		for _, d := range src.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if takesResponseWriter(fn.Type) {
				check(fn.Name.Name, fn.Body)
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && takesResponseWriter(lit.Type) {
					check(fn.Name.Name+" (its handler literal)", lit.Body)
				}
				return true
			})
		}
	}
	return out
}

// errIsNil reports whether cond is err == nil, alone or as a term of an &&.
func errIsNil(cond ast.Expr) bool {
	switch c := cond.(type) {
	case *ast.ParenExpr:
		return errIsNil(c.X)
	case *ast.BinaryExpr:
		if c.Op == token.LAND {
			return errIsNil(c.X) || errIsNil(c.Y)
		}
		if c.Op != token.EQL {
			return false
		}
		x, ok := c.X.(*ast.Ident)
		y, ok2 := c.Y.(*ast.Ident)
		return ok && ok2 && x.Name == "err" && y.Name == "nil"
	}
	return false
}

// assignsErr reports whether body assigns to err (=, not a := of a new one), outside any
// function literal.
func assignsErr(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Tok != token.ASSIGN {
				return true
			}
			for _, lhs := range x.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == "err" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
