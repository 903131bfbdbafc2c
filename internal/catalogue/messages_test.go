package catalogue_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"emr/internal/i18n"
)

// TestEveryRefusalHasAMessage reads the package's code: each message key it may answer a
// refused edit or import with ("catalogue.delta_window") is written in every language, so an
// administrator is never shown a bare key. Audit action names (e.Action = "catalogue.…") are
// not messages.
func TestEveryRefusalHasAMessage(t *testing.T) {
	key := regexp.MustCompile(`^(catalogue|validation)\.[a-z_]+$`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	used := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		actions := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok {
				for i, lhs := range a.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Action" && i < len(a.Rhs) {
						if lit, ok := a.Rhs[i].(*ast.BasicLit); ok {
							actions[lit] = true
						}
					}
				}
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !actions[lit] {
				if s, err := strconv.Unquote(lit.Value); err == nil && key.MatchString(s) {
					used[s] = fset.Position(lit.Pos()).String()
				}
			}
			return true
		})
	}
	if len(used) == 0 {
		t.Fatal("no message keys found: the scan is broken")
	}
	for _, lang := range i18n.Languages {
		keys := i18n.Keys(lang)
		for k, at := range used {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: %s has no %s message", at, k, lang)
			}
		}
	}
}
