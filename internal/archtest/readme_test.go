package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var packageName = regexp.MustCompile(`^[a-z0-9]+$`)

// The README's layout names every package under internal/ (and none that is gone), so that a
// newcomer's map of the tree is the tree.
func TestTheReadmeLayoutNamesEveryPackage(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\n## Layout\n")
	block := regexp.MustCompile("(?s)```\n(.*?)```").FindStringSubmatch(after)
	if !ok || block == nil {
		t.Fatal("the README has no Layout section with a tree in a code block")
	}
	// The lines under "internal/", indented, up to the next line that is not.
	named := map[string]bool{}
	in := false
	for _, line := range strings.Split(block[1], "\n") {
		if strings.HasPrefix(line, "internal/") {
			in = true
			continue
		}
		if !in || !strings.HasPrefix(line, "  ") {
			in = false
			continue
		}
		for _, word := range strings.Fields(line) {
			if name, ok := strings.CutSuffix(word, "/"); ok && packageName.MatchString(name) {
				named[name] = true
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(root, "internal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !named[e.Name()] {
			t.Errorf("the README's layout does not name internal/%s/", e.Name())
		}
		delete(named, e.Name())
	}
	for name := range named {
		t.Errorf("the README's layout names internal/%s/, which is not there", name)
	}
}
