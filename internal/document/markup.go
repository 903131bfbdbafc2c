package document

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// The template language (ADR 23) is a few line rules and two inline ones, nothing else:
//
//	# Heading            a heading; "## " a smaller one
//	- item               a list item; consecutive items make one list
//	| cell | cell |      a table row; consecutive rows make one table
//	---                  a line across the page
//	text                 a paragraph; consecutive lines stay one paragraph, line by line
//	**bold**             bold text inside any of them
//	{{patient.name}}     a placeholder: a value of the patient, visit, doctor, clinic, or a
//	{{field.rest_days}}  field the template declares and the doctor fills when issuing
//	{{field.rest_until}} the last day of a period: a number field rest_days and a date
//	                     field rest_from declared, the day rest_from + rest_days − 1
//
// A template is parsed into blocks of runs, and a placeholder's value always becomes the
// text of a run: it is never parsed again, so whatever a patient's name or a field holds
// stays text (no markup, no HTML) on the page, in the print and on the verify page, which
// all draw runs as text.

// Run is a piece of a line's text, bold or not.
type Run struct {
	Text string `json:"text"`
	Bold bool   `json:"bold,omitempty"`
}

// Block is one block of a document: a heading (h1, h2), a paragraph (p, its runs with line
// breaks as "\n"), a list (ul, its items), a table (table, its rows of cells) or a line (hr).
type Block struct {
	Type  string    `json:"type"`
	Runs  []Run     `json:"runs,omitempty"`
	Items [][]Run   `json:"items,omitempty"`
	Rows  [][][]Run `json:"rows,omitempty"`
}

// piece is a run of the template: literal text, or a placeholder to fill.
type piece struct {
	text        string
	placeholder string
	bold        bool
}

// line is one parsed line of a template.
type line struct {
	kind   string    // h1, h2, li, row, hr, p, blank
	pieces []piece   // h1, h2, li, p
	cells  [][]piece // row
}

var placeholderPattern = regexp.MustCompile(`\{\{\s*([a-z_]+(?:\.[a-z0-9_]+)?)\s*\}\}`)

// Limits of a template.
const (
	MaxBody   = 20000
	MaxFields = 20
)

// parseInline splits a line's text into pieces: "**" turns bold on and off, "{{key}}" is a
// placeholder. An unclosed "**" or "{{" is a mistake the author is told of.
func parseInline(s string) ([]piece, error) {
	var out []piece
	bold := false
	for len(s) > 0 {
		star, brace := strings.Index(s, "**"), strings.Index(s, "{{")
		next := min(pos(star), pos(brace))
		if next == none {
			out = append(out, piece{text: s, bold: bold})
			break
		}
		if next > 0 {
			out = append(out, piece{text: s[:next], bold: bold})
		}
		s = s[next:]
		if strings.HasPrefix(s, "**") {
			bold = !bold
			s = s[2:]
			continue
		}
		m := placeholderPattern.FindStringSubmatchIndex(s)
		if m == nil || m[0] != 0 {
			return nil, errUnclosedPlaceholder
		}
		out = append(out, piece{placeholder: s[m[2]:m[3]], bold: bold})
		s = s[m[1]:]
	}
	if bold {
		return nil, errUnclosedBold
	}
	return out, nil
}

// none is where pos puts what is not there.
const none = 1 << 30

func pos(i int) int {
	if i < 0 {
		return none
	}
	return i
}

// lineError is a mistake on a line of a template.
type lineError struct {
	Line int
	Key  string // the message key
	Arg  string // the placeholder named, if any
}

func (e lineError) Error() string { return fmt.Sprintf("line %d: %s %s", e.Line, e.Key, e.Arg) }

var (
	errUnclosedPlaceholder = lineError{Key: "document.template.unclosed_placeholder"}
	errUnclosedBold        = lineError{Key: "document.template.unclosed_bold"}
)

// parse reads a template's body into lines; known says whether a placeholder exists.
func parse(body string, known func(string) bool) ([]line, error) {
	if utf8.RuneCountInString(body) > MaxBody {
		return nil, lineError{Key: "validation.too_long"}
	}
	var out []line
	for i, raw := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		l, err := parseLine(strings.TrimRight(raw, " \t"))
		if err != nil {
			le := err.(lineError)
			le.Line = i + 1
			return nil, le
		}
		for _, ps := range append([][]piece{l.pieces}, l.cells...) {
			for _, p := range ps {
				if p.placeholder != "" && !known(p.placeholder) {
					return nil, lineError{Line: i + 1, Key: "document.template.unknown_placeholder", Arg: "{{" + p.placeholder + "}}"}
				}
			}
		}
		out = append(out, l)
	}
	return out, nil
}

func parseLine(s string) (line, error) {
	trimmed := strings.TrimSpace(s)
	var l line
	var err error
	switch {
	case trimmed == "":
		return line{kind: "blank"}, nil
	case trimmed == "---":
		return line{kind: "hr"}, nil
	case strings.HasPrefix(trimmed, "## "):
		l.kind = "h2"
		l.pieces, err = parseInline(strings.TrimSpace(trimmed[3:]))
	case strings.HasPrefix(trimmed, "# "):
		l.kind = "h1"
		l.pieces, err = parseInline(strings.TrimSpace(trimmed[2:]))
	case strings.HasPrefix(trimmed, "- "):
		l.kind = "li"
		l.pieces, err = parseInline(strings.TrimSpace(trimmed[2:]))
	case strings.HasPrefix(trimmed, "|") && strings.HasSuffix(trimmed, "|") && len(trimmed) > 1:
		l.kind = "row"
		for _, cell := range strings.Split(trimmed[1:len(trimmed)-1], "|") {
			ps, err := parseInline(strings.TrimSpace(cell))
			if err != nil {
				return l, err
			}
			l.cells = append(l.cells, ps)
		}
	default:
		l.kind = "p"
		l.pieces, err = parseInline(s)
	}
	return l, err
}

// Value is what a placeholder is filled with: one text, or a list (diagnoses, orders) that
// a list item of its own spreads into items and running text joins.
type Value struct {
	Text string
	List []string
	// Tables, when set, are tables (each one's first row its heads, drawn bold) that a line
	// of the placeholder alone becomes; running text joins them row by row.
	Tables [][][]string
}

func (v Value) inline() string {
	if v.Tables != nil {
		var lines []string
		for _, t := range v.Tables {
			for _, r := range t {
				lines = append(lines, strings.Join(r, " · "))
			}
		}
		return strings.Join(lines, "; ")
	}
	if v.List != nil {
		return strings.Join(v.List, "; ")
	}
	return v.Text
}

// empty says whether a line names values only (no text of its own) and every one of them
// is empty.
func (l line) empty(values map[string]Value) bool {
	if l.kind != "p" && l.kind != "li" {
		return false
	}
	named := false
	for _, p := range l.pieces {
		if p.placeholder == "" {
			if strings.TrimSpace(p.text) != "" {
				return false
			}
			continue
		}
		named = true
		if v := values[p.placeholder]; v.Text != "" || len(v.List) > 0 {
			return false
		}
	}
	return named
}

// vacantLabel says whether a line is a label and its values, every one of them empty
// ("Follow-up: {{visit.follow_up}}" of a visit without one): printed, it would be a label over
// nothing. Its own text must end in a colon, so that a sentence with an empty value in it stays.
func (l line) vacantLabel(values map[string]Value) bool {
	if l.kind != "p" {
		return false
	}
	var label strings.Builder
	named := false
	for _, p := range l.pieces {
		if p.placeholder == "" {
			label.WriteString(p.text)
			continue
		}
		named = true
		if v := values[p.placeholder]; v.Text != "" || len(v.List) > 0 {
			return false
		}
	}
	text := strings.TrimSpace(label.String())
	return named && (strings.HasSuffix(text, ":") || strings.HasSuffix(text, "："))
}

// withoutVacantSections leaves out a subheading's section whose every line names only values
// that are empty, with the subheading: a visit without an examination prints no
// "Examination" heading over nothing.
func withoutVacantSections(lines []line, values map[string]Value) []line {
	out := make([]line, 0, len(lines))
	for i := 0; i < len(lines); {
		if lines[i].kind != "h2" {
			out = append(out, lines[i])
			i++
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end].kind != "h1" && lines[end].kind != "h2" {
			end++
		}
		vacant, named := true, false
		for _, l := range lines[i+1 : end] {
			switch {
			case l.kind == "blank":
			case l.empty(values), l.vacantLabel(values):
				named = true
			default:
				vacant = false
			}
		}
		if !vacant || !named {
			out = append(out, lines[i:end]...)
		}
		i = end
	}
	return out
}

// render fills the parsed lines with values into blocks; a value missing from values is
// empty text.
func render(lines []line, values map[string]Value) []Block {
	lines = slices.DeleteFunc(withoutVacantSections(lines, values), func(l line) bool { return l.vacantLabel(values) })
	fill := func(ps []piece) []Run {
		runs := make([]Run, 0, len(ps))
		for _, p := range ps {
			text := p.text
			if p.placeholder != "" {
				text = values[p.placeholder].inline()
			}
			if text == "" {
				continue
			}
			if n := len(runs); n > 0 && runs[n-1].Bold == p.bold {
				runs[n-1].Text += text
				continue
			}
			runs = append(runs, Run{Text: text, Bold: p.bold})
		}
		return runs
	}
	blocks := []Block{}
	last := func(kind string) *Block {
		if n := len(blocks); n > 0 && blocks[n-1].Type == kind {
			return &blocks[n-1]
		}
		return nil
	}
	prev := ""
	for _, l := range lines {
		switch l.kind {
		case "blank":
		case "hr":
			blocks = append(blocks, Block{Type: "hr"})
		case "h1", "h2":
			blocks = append(blocks, Block{Type: l.kind, Runs: fill(l.pieces)})
		case "li":
			var items [][]Run
			if len(l.pieces) == 1 && l.pieces[0].placeholder != "" && values[l.pieces[0].placeholder].List != nil {
				for _, s := range values[l.pieces[0].placeholder].List {
					items = append(items, []Run{{Text: s, Bold: l.pieces[0].bold}})
				}
			} else if runs := fill(l.pieces); len(runs) > 0 {
				items = append(items, runs)
			}
			if b := last("ul"); b != nil && prev == "li" {
				b.Items = append(b.Items, items...)
			} else if len(items) > 0 {
				blocks = append(blocks, Block{Type: "ul", Items: items})
			}
		case "row":
			row := make([][]Run, len(l.cells))
			for i, c := range l.cells {
				row[i] = fill(c)
			}
			if b := last("table"); b != nil && prev == "row" {
				b.Rows = append(b.Rows, row)
			} else {
				blocks = append(blocks, Block{Type: "table", Rows: [][][]Run{row}})
			}
		case "p":
			if len(l.pieces) == 1 && l.pieces[0].placeholder != "" && values[l.pieces[0].placeholder].Tables != nil {
				for _, t := range values[l.pieces[0].placeholder].Tables {
					rows := make([][][]Run, 0, len(t))
					for i, r := range t {
						row := make([][]Run, len(r))
						for j, cell := range r {
							row[j] = []Run{}
							if cell != "" {
								row[j] = []Run{{Text: cell, Bold: i == 0 && len(t) > 1}}
							}
						}
						rows = append(rows, row)
					}
					blocks = append(blocks, Block{Type: "table", Rows: rows})
				}
				break
			}
			runs := fill(l.pieces)
			if b := last("p"); b != nil && prev == "p" {
				b.Runs = append(b.Runs, Run{Text: "\n"})
				b.Runs = append(b.Runs, runs...)
			} else {
				blocks = append(blocks, Block{Type: "p", Runs: runs})
			}
		}
		if l.kind == "li" && last("ul") == nil {
			prev = ""
			continue
		}
		prev = l.kind
	}
	return blocks
}

// placeholders lists the placeholders a parsed template uses, each once.
func placeholders(lines []line) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		for _, ps := range append([][]piece{l.pieces}, l.cells...) {
			for _, p := range ps {
				if p.placeholder != "" && !seen[p.placeholder] {
					seen[p.placeholder] = true
					out = append(out, p.placeholder)
				}
			}
		}
	}
	return out
}
