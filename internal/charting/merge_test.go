package charting

import (
	"slices"
	"testing"

	"emr/internal/appointment"
)

// TestMergeRules: what applying a set adds to a visit's draft and what it leaves, one case a
// rule (issue 37: "applying a set twice warns of the duplicates"; ADR 34).
func TestMergeRules(t *testing.T) {
	dx := func(code, text string, primary bool) appointment.Diagnosis {
		return appointment.Diagnosis{Code: code, Text: text, Primary: primary}
	}
	codes := func(c appointment.Content) (out []string) {
		for _, d := range c.Diagnoses {
			p := ""
			if d.Primary {
				p = "*"
			}
			out = append(out, d.Code+d.Text+p)
		}
		return out
	}
	cases := []struct {
		name      string
		visit     appointment.Content
		set       SetContent
		diagnoses []string
		plan      string
		followUp  string
		skipped   Skipped
	}{
		{"an empty draft takes the set as it is",
			appointment.Content{}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}, Plan: "Diet.", FollowUpDays: 28},
			[]string{"I10*"}, "Diet.", "2026-12-24", Skipped{Diagnoses: []string{}, Orders: []string{}}},
		{"a code the visit has is not added twice",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true), dx("E78.5", "", false)}},
			[]string{"I10*", "E78.5"}, "", "", Skipped{Diagnoses: []string{"I10"}, Orders: []string{}}},
		{"free text matches whatever its case",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("", "Dehydration", false)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("", "dehydration", false)}},
			[]string{"Dehydration*"}, "", "", Skipped{Diagnoses: []string{"dehydration"}, Orders: []string{}}},
		{"the set's primary yields to the visit's",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("J06.9", "", true)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}},
			[]string{"J06.9*", "I10"}, "", "", Skipped{Diagnoses: []string{}, Orders: []string{}}},
		{"a plan is added after the visit's, once",
			appointment.Content{Plan: "Rest.\nDiet."}, SetContent{Plan: "Diet."},
			nil, "Rest.\nDiet.", "", Skipped{Diagnoses: []string{}, Orders: []string{}, Plan: true}},
		{"a chosen follow-up date stays",
			appointment.Content{FollowUpDate: "2026-12-01"}, SetContent{FollowUpDays: 28},
			nil, "", "2026-12-01", Skipped{Diagnoses: []string{}, Orders: []string{}, FollowUp: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, sk := merge(c.visit, "2026-11-26", c.set)
			if !slices.Equal(codes(got), c.diagnoses) || got.Plan != c.plan || got.FollowUpDate != c.followUp {
				t.Errorf("merged: diagnoses %v plan %q follow-up %q", codes(got), got.Plan, got.FollowUpDate)
			}
			if !slices.Equal(sk.Diagnoses, c.skipped.Diagnoses) || sk.Plan != c.skipped.Plan || sk.FollowUp != c.skipped.FollowUp {
				t.Errorf("skipped %+v, want %+v", sk, c.skipped)
			}
		})
	}
}
