package fhir

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestDateSearchKeepsAFractionOfASecond: a date value's fraction of a second is its precision
// (R4 search, date), so a client asking for what changed after the lastUpdated it last saw
// (_lastUpdated=gt…679Z) gets what changed later in that second, and "lt" what changed earlier.
func TestDateSearchKeepsAFractionOfASecond(t *testing.T) {
	const seen = "2026-11-29T03:00:00.679Z"
	for _, row := range []struct {
		param string
		at    string
		holds bool
	}{
		{"gt" + seen, "2026-11-29T03:00:00.700Z", true},
		{"gt" + seen, "2026-11-29T03:00:00.679Z", false},
		{"gt" + seen, "2026-11-29T03:00:00.680Z", true},
		{"ge" + seen, "2026-11-29T03:00:00.679Z", true},
		{"ge" + seen, "2026-11-29T03:00:00.500Z", false},
		{"lt" + seen, "2026-11-29T03:00:00.500Z", true},
		{"lt" + seen, "2026-11-29T03:00:00.679Z", false},
		{"le" + seen, "2026-11-29T03:00:00.679Z", true},
		{"le" + seen, "2026-11-29T03:00:00.900Z", false},
		{seen, "2026-11-29T03:00:00.679Z", true},
		{seen, "2026-11-29T03:00:00.500Z", false},
		{"eq2026-11-29T03:00:00.5Z", "2026-11-29T03:00:00.599Z", true}, // a tenth of a second
		{"eq2026-11-29T03:00:00.5Z", "2026-11-29T03:00:00.600Z", false},
		{"gt2026-11-29T05:00:00.5+02:00", "2026-11-29T03:00:00.700Z", true},
		{"gt2026-11-29T05:00:00.5+02:00", "2026-11-29T03:00:00.550Z", false},
		// A value to the second is that whole second, as before.
		{"gt2026-11-29T03:00:00Z", "2026-11-29T03:00:00.700Z", false},
		{"lt2026-11-29T03:00:01Z", "2026-11-29T03:00:00.999Z", true},
		{"2026-11-29T03:00:00Z", "2026-11-29T03:00:00.999Z", true},
	} {
		r := httptest.NewRequest("GET", "/fhir/R4/Condition?_lastUpdated="+url.QueryEscape(row.param), nil)
		q, err := parseQuery(r, nil)
		if err != nil {
			t.Fatalf("%s: %v", row.param, err)
		}
		c := Condition{base: base{ResourceType: "Condition", Meta: &Meta{LastUpdated: row.at}}}
		if got := q.keeps(c); got != row.holds {
			t.Errorf("_lastUpdated=%s on %s: %v, want %v", row.param, row.at, got, row.holds)
		}
	}
	for _, bad := range []string{"2026-11-29T03:00:00.Z", "2026-11-29T03:00:00.1234567890Z", "2026-11-29T03:00.5Z"} {
		if _, _, _, err := parseDate(bad); err == nil {
			t.Errorf("%s was read as a date", bad)
		}
	}
}

// TestSearchTakesPrettyAsReadsDo: _pretty, a general parameter, is neither named as ignored
// nor refused under strict handling.
func TestSearchTakesPrettyAsReadsDo(t *testing.T) {
	for _, prefer := range []string{"", "handling=strict"} {
		r := httptest.NewRequest("GET", "/fhir/R4/Patient?_pretty=true&family=x", nil)
		r.Header.Set("Prefer", prefer)
		q, err := parseQuery(r, map[string]paramKind{"family": kindString})
		if err != nil {
			t.Fatalf("Prefer %q: %v", prefer, err)
		}
		if len(*q.notes) > 0 || q.applied.Has("_pretty") {
			t.Errorf("Prefer %q: notes %v, applied %v", prefer, *q.notes, q.applied)
		}
	}
}
