package fhir

import (
	"testing"
	"time"

	"emr/internal/result"
)

// TestReportStatusFollowsTheOrder: a laboratory order's state, and its results', as the
// report's status; an imaging or functional order gives no laboratory report.
func TestReportStatusFollowsTheOrder(t *testing.T) {
	at := time.Date(2026, 3, 4, 8, 30, 0, 0, time.UTC)
	res := func(status string) result.Result {
		return result.Result{ID: 1, Status: status, ObservedAt: at, RecordedAt: at.Add(time.Hour)}
	}
	cases := []struct {
		name        string
		kind, state string
		corrections int
		results     []result.Result
		want        string
	}{
		{"ordered, nothing to show yet", "lab", result.Ordered, 0, nil, "registered"},
		{"collected, nothing to show yet", "lab", result.Collected, 0, nil, "registered"},
		{"results recorded as preliminary", "lab", result.Preliminary, 0, []result.Result{res(result.Preliminary)}, "preliminary"},
		{"final results", "lab", result.Final, 0, []result.Result{res(result.Final)}, "final"},
		{"final results, reviewed", "lab", result.Reviewed, 0, []result.Result{res(result.Final)}, "final"},
		{"a final order with one result still preliminary", "lab", result.Final, 0, []result.Result{res(result.Final), res(result.Preliminary)}, "preliminary"},
		{"a final result corrected", "lab", result.Reviewed, 1, []result.Result{res(result.Corrected)}, "corrected"},
		{"cancelled before a result", "lab", result.Cancelled, 0, nil, "cancelled"},
		{"not done: the specimen rejected", "lab", result.NotDone, 0, nil, "cancelled"},
		{"a state the report does not know", "lab", "lost", 0, nil, "unknown"},
	}
	for _, c := range cases {
		o := result.Order{ID: 7, PatientID: 3, AppointmentID: 5, Test: "BMP", LOINC: "51990-0", Kind: c.kind, Status: c.state, Corrections: c.corrections, Results: c.results, OrderedAt: at, Version: 2}
		list := toDiagnosticReports(o)
		if len(list) != 1 {
			t.Fatalf("%s: %d reports", c.name, len(list))
		}
		d := list[0].(DiagnosticReport)
		if d.Status != c.want {
			t.Errorf("%s: %s, want %s", c.name, d.Status, c.want)
		}
		// A report whose results are out carries their time and when it was issued, and claims
		// the profile; one without results claims it as well (us-core-8 and 9 ask neither).
		if len(c.results) > 0 && (d.EffectiveDateTime != instant(at) || d.Issued != instant(at.Add(time.Hour))) {
			t.Errorf("%s: effective %s, issued %s", c.name, d.EffectiveDateTime, d.Issued)
		}
		if len(d.Meta.Profile) != 1 {
			t.Errorf("%s: profiles %v", c.name, d.Meta.Profile)
		}
	}
	for _, kind := range []string{"imaging", "functional"} {
		if list := toDiagnosticReports(result.Order{ID: 8, Kind: kind, Status: result.Final}); len(list) != 0 {
			t.Errorf("a %s order gives %d laboratory reports", kind, len(list))
		}
	}
}
