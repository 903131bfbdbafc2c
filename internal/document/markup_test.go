package document

import (
	"encoding/json"
	"testing"

	"emr/internal/patient"
)

func known(string) bool { return true }

func renderJSON(t *testing.T, body string, values map[string]Value) string {
	t.Helper()
	lines, err := parse(body, known)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(render(lines, values))
	return string(b)
}

func TestMarkup(t *testing.T) {
	values := map[string]Value{
		"patient.name":    {Text: "**<b>Ann</b>** {{patient.mrn}}"},
		"visit.diagnoses": {List: []string{"J06.9 URTI", "R50.9 Fever"}},
		"visit.plan":      {Text: ""},
	}
	for _, tc := range []struct{ name, body, want string }{
		{"a value stays text, never markup or a placeholder", "Name: **{{patient.name}}**!",
			`[{"type":"p","runs":[{"text":"Name: "},{"text":"**\u003cb\u003eAnn\u003c/b\u003e** {{patient.mrn}}","bold":true},{"text":"!"}]}]`},
		{"a list value spreads into items on a line of its own, and joins in running text", "- {{visit.diagnoses}}\n- other\nSee {{visit.diagnoses}}.",
			`[{"type":"ul","items":[[{"text":"J06.9 URTI"}],[{"text":"R50.9 Fever"}],[{"text":"other"}]]},{"type":"p","runs":[{"text":"See J06.9 URTI; R50.9 Fever."}]}]`},
		{"lines of a paragraph break; a blank line starts another", "one\ntwo\n\nthree",
			`[{"type":"p","runs":[{"text":"one"},{"text":"\n"},{"text":"two"}]},{"type":"p","runs":[{"text":"three"}]}]`},
		{"headings, a table and a line", "# T\n## S\n| a | **b** |\n| c | d |\n---",
			`[{"type":"h1","runs":[{"text":"T"}]},{"type":"h2","runs":[{"text":"S"}]},{"type":"table","rows":[[[{"text":"a"}],[{"text":"b","bold":true}]],[[{"text":"c"}],[{"text":"d"}]]]},{"type":"hr"}]`},
		{"a section of empty values is left out with its heading, and so is a label over an empty value; a sentence with one stays",
			"## Plan\n{{visit.plan}}\n## Note\nPlan: {{visit.plan}}\n## Text\nFollow-up: {{visit.plan}}\nNo plan {{visit.plan}} today.",
			`[{"type":"h2","runs":[{"text":"Text"}]},{"type":"p","runs":[{"text":"No plan  today."}]}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderJSON(t, tc.body, values); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestMarkupMistakes(t *testing.T) {
	for body, want := range map[string]lineError{
		"ok\n**open":        {Line: 2, Key: "document.template.unclosed_bold"},
		"{{patient.name":    {Line: 1, Key: "document.template.unclosed_placeholder"},
		"a\nb\n{{Bad Key}}": {Line: 3, Key: "document.template.unclosed_placeholder"},
	} {
		_, err := parse(body, known)
		if le, ok := err.(lineError); !ok || le.Line != want.Line || le.Key != want.Key {
			t.Errorf("%q: %v, want %v", body, err, want)
		}
	}
	if _, err := parse("{{patient.passport}}", func(k string) bool { return k != "patient.passport" }); err == nil || err.(lineError).Arg != "{{patient.passport}}" {
		t.Errorf("unknown placeholder: %v", err)
	}
}

// FuzzMarkup: any body either parses or is refused with a line's mistake, and rendering
// what parses never fails.
func FuzzMarkup(f *testing.F) {
	for _, s := range []string{"# a\n- {{x}}\n| a | b |\n---\n**b**", "{{", "**", "|", "- ", "## {{a.b}} **c**"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		lines, err := parse(body, known)
		if err != nil {
			if _, ok := err.(lineError); !ok {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		render(lines, map[string]Value{"x": {List: []string{"1", "2"}}})
	})
}

func TestInitialsMaskChineseNames(t *testing.T) {
	for _, c := range []struct {
		lang, first, last, want string
	}{
		{"zh", "小明", "王", "王*明"},
		{"zh", "明", "王", "王*"},
		{"vi", "An", "Nguyễn", "N. A."},
		{"en", "Anna", "Lee", "A. L."},
	} {
		if got := initials(c.lang, patient.Patient{Input: patient.Input{FirstName: c.first, LastName: c.last}}); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.lang, c.last, c.first, got, c.want)
		}
	}
}
