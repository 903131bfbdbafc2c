package auth_test

import (
	"testing"

	"emr/internal/auth"
)

// TestConfinedFor: a SMART grant's confinement is decided per type and interaction — the
// launch patient whenever the grant has a patient/ scope and no user/ scope allows the type
// and interaction — never once for a route a user/ scope opens.
func TestConfinedFor(t *testing.T) {
	const launch = 7
	cases := []struct {
		scopes string
		kind   string
		act    byte
		want   int64
	}{
		{"patient/*.rs", "Observation", auth.ActSearch, launch},
		{"patient/*.rs user/Patient.rs", "Patient", auth.ActRead, 0},
		{"patient/*.rs user/Patient.rs", "Observation", auth.ActRead, launch},
		{"patient/*.rs user/Patient.rs", "Observation", auth.ActSearch, launch},
		{"patient/*.rs user/Encounter.rs", "Patient", auth.ActRead, launch},
		{"patient/*.rs user/Encounter.rs", "Encounter", auth.ActSearch, 0},
		{"patient/*.rs user/Encounter.r", "Encounter", auth.ActRead, 0},
		{"patient/*.rs user/Encounter.r", "Encounter", auth.ActSearch, launch}, // a read scope opens no search
		{"patient/Observation.rs user/*.rs", "Observation", auth.ActSearch, 0},
		{"patient/Observation.rs user/Patient.rs", "Encounter", auth.ActRead, launch}, // no scope: confined all the same
		{"user/Patient.rs", "Observation", auth.ActRead, 0},                           // no patient/ scope: nothing to confine
	}
	for _, tc := range cases {
		scopes, err := auth.ParseScopes(tc.scopes, "patient", "user")
		if err != nil {
			t.Fatal(err)
		}
		p := &auth.Principal{GrantID: 1, LaunchPatient: launch, Scopes: scopes}
		if got := p.ConfinedFor(tc.kind, tc.act); got != tc.want {
			t.Errorf("%s: %s %c confined to %d, want %d", tc.scopes, tc.kind, tc.act, got, tc.want)
		}
	}
	if got := (&auth.Principal{Scopes: []auth.Scope{{Context: "patient", Resource: "*", Actions: "rs"}}}).ConfinedFor("Observation", auth.ActRead); got != 0 {
		t.Errorf("no launch patient: confined to %d", got)
	}
}
