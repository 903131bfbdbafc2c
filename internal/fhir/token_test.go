package fhir

import "testing"

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
