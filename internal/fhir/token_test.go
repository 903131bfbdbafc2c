package fhir

import (
	"slices"
	"testing"
)

func TestTokenMatchesPerTheSearchRules(t *testing.T) {
	const system = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
	cases := []struct {
		value        string
		system, code string
		want         bool
	}{
		{"active", system, "active", true},
		{"active", "", "active", true},
		{"inactive", system, "active", false},
		{system + "|active", system, "active", true},
		{system + "|active", "http://other.example/cs", "active", false},
		{system + "|active", "", "active", false},
		{"|active", "", "active", true},
		{"|active", system, "active", false},
		{system + "|", system, "resolved", true},
		{system + "|", "http://other.example/cs", "resolved", false},
	}
	for _, c := range cases {
		if got := parseToken(c.value).matches(c.system, c.code); got != c.want {
			t.Errorf("%q matches (%q, %q) = %v, want %v", c.value, c.system, c.code, got, c.want)
		}
	}
}

// TestSearchValuesAreEscapeAware: per the search rules' escaping, "\," "\|" "\$" and "\\"
// in a value are the characters themselves; an unescaped "," separates values and, in a
// token, the first unescaped "|" separates system and code.
func TestSearchValuesAreEscapeAware(t *testing.T) {
	cases := []struct {
		kind   paramKind
		value  string
		values []string // as the occurrence splits (a token's parts keep their escapes)
		tokens []token  // a token's values as read
	}{
		{kindToken, `a,b`, []string{"a", "b"}, []token{{code: "a"}, {code: "b"}}},
		{kindToken, `A\,1`, []string{`A\,1`}, []token{{code: "A,1"}}},
		{kindToken, `sys|A\,1,sys|B`, []string{`sys|A\,1`, "sys|B"}, []token{{system: "sys", code: "A,1", hasSystem: true}, {system: "sys", code: "B", hasSystem: true}}},
		{kindToken, `sys|A\|1`, []string{`sys|A\|1`}, []token{{system: "sys", code: "A|1", hasSystem: true}}},
		{kindToken, `A\|1`, []string{`A\|1`}, []token{{code: "A|1"}}},
		{kindToken, `s\|x|c`, []string{`s\|x|c`}, []token{{system: "s|x", code: "c", hasSystem: true}}},
		{kindToken, `s\\|c`, []string{`s\\|c`}, []token{{system: `s\`, code: "c", hasSystem: true}}},
		{kindToken, `c\\,d`, []string{`c\\`, "d"}, []token{{code: `c\`}, {code: "d"}}},
		{kindToken, `\$1\,00`, []string{`\$1\,00`}, []token{{code: "$1,00"}}},
		{kindToken, `a\b`, []string{`a\b`}, []token{{code: `a\b`}}}, // not an escape: kept
		{kindString, `O\,Brien,Le`, []string{"O,Brien", "Le"}, nil},
		{kindString, `a\|b\\c\$`, []string{`a|b\c$`}, nil},
		{kindString, `end\`, []string{`end\`}, nil},
		{kindReference, `Patient/1,Patient/2`, []string{"Patient/1", "Patient/2"}, nil},
	}
	for _, c := range cases {
		got := splitValues(c.kind, c.value)
		if !slices.Equal(got, c.values) {
			t.Errorf("%q splits as %q, want %q", c.value, got, c.values)
			continue
		}
		for i, want := range c.tokens {
			if tk := parseToken(got[i]); tk != want {
				t.Errorf("%q: token %d is %+v, want %+v", c.value, i, tk, want)
			}
		}
	}
}
