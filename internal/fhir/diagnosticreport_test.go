package fhir

import (
	"slices"
	"testing"
	"time"

	"emr/internal/result"
)

// TestReportStatusFollowsTheOrder: a laboratory order's state, and its results', as the
// report's status. An imaging or functional order gives a report too (issue 54's review:
// before, it gave none), never a laboratory one.
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
	studyReportsAreNotLaboratoryReports(t, at)
}

// studyReportsAreNotLaboratoryReports: an imaging or functional study's report is of its
// section (RAD, EC, CUS, or OTH for a functional test US Core names no category for), carries
// the study's text as its conclusion once reported, and claims the note profile — never the
// laboratory one — only with a US Core category and a result to show.
func studyReportsAreNotLaboratoryReports(t *testing.T, at time.Time) {
	t.Helper()
	text := result.Result{ID: 1, Analyte: "REPORT", Text: "No abnormality seen.", Status: result.Final, ObservedAt: at, RecordedAt: at.Add(time.Hour)}
	cases := []struct {
		test, kind, state string
		results           []result.Result
		category          string
		note              bool
	}{
		{"XR-CHEST", "imaging", result.Final, []result.Result{text}, "RAD", true},
		{"CT-HEAD", "imaging", result.Final, []result.Result{text}, "RAD", true},
		{"ECHO", "functional", result.Final, []result.Result{text}, "CUS", true},
		{"ECG", "functional", result.Final, []result.Result{text}, "EC", true},
		{"SPIRO", "functional", result.Final, []result.Result{text}, "OTH", false},
		{"XR-CHEST", "imaging", result.Ordered, nil, "RAD", false},
	}
	for _, c := range cases {
		o := result.Order{ID: 8, PatientID: 3, AppointmentID: 5, Test: c.test, TestLabel: c.test, Kind: c.kind, Status: c.state, Results: c.results, OrderedAt: at, Version: 2}
		list := toDiagnosticReports(o)
		if len(list) != 1 {
			t.Fatalf("%s: %d reports", c.test, len(list))
		}
		d := list[0].(DiagnosticReport)
		if !hasIn(d.Category, systemV20074, c.category) || hasIn(d.Category, systemV20074, "LAB") {
			t.Errorf("%s: category %v, want %s", c.test, d.Category, c.category)
		}
		if slices.Contains(d.Meta.Profile, profileDiagnosticReport) || slices.Contains(d.Meta.Profile, profileNoteReport) != c.note {
			t.Errorf("%s (%s): profiles %v", c.test, c.state, d.Meta.Profile)
		}
		if wantText := len(c.results) > 0; (d.Conclusion == text.Text) != wantText {
			t.Errorf("%s (%s): conclusion %q", c.test, c.state, d.Conclusion)
		}
	}
}
