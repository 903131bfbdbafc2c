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
		checked   string
		diagnoses []string
		plan      string
		followUp  string
		skipped   Skipped
	}{
		{"an empty draft takes the set as it is",
			appointment.Content{}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}, Plan: "Diet.", FollowUpDays: 28}, "",
			[]string{"I10*"}, "Diet.", "2026-12-24", Skipped{Diagnoses: []string{}, Orders: []string{}}},
		{"a code the visit has is not added twice",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true), dx("E78.5", "", false)}}, "",
			[]string{"I10*", "E78.5"}, "", "", Skipped{Diagnoses: []string{"I10"}, Orders: []string{}}},
		{"free text matches whatever its case",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("", "Dehydration", false)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("", "dehydration", false)}}, "",
			[]string{"Dehydration*"}, "", "", Skipped{Diagnoses: []string{"dehydration"}, Orders: []string{}}},
		{"the set's primary yields to the visit's",
			appointment.Content{Diagnoses: []appointment.Diagnosis{dx("J06.9", "", true)}}, SetContent{Diagnoses: []appointment.Diagnosis{dx("I10", "", true)}}, "",
			[]string{"J06.9*", "I10"}, "", "", Skipped{Diagnoses: []string{}, Orders: []string{}}},
		{"a plan is added after the visit's, once",
			appointment.Content{Plan: "Rest.\nDiet."}, SetContent{Plan: "Diet."}, "",
			nil, "Rest.\nDiet.", "", Skipped{Diagnoses: []string{}, Orders: []string{}, Plan: true}},
		{"a chosen follow-up date stays",
			appointment.Content{FollowUpDate: "2026-12-01"}, SetContent{FollowUpDays: 28}, "",
			nil, "", "2026-12-01", Skipped{Diagnoses: []string{}, Orders: []string{}, FollowUp: true}},
		{"the checks the doctor ticked follow the set's plan",
			appointment.Content{}, SetContent{Plan: "Fluids."}, "Confirmed at this visit: Pregnancy excluded.",
			nil, "Fluids.\nConfirmed at this visit: Pregnancy excluded.", "", Skipped{Diagnoses: []string{}, Orders: []string{}}},
		{"ticked checks are recorded when the plan was there already, once",
			appointment.Content{Plan: "Fluids.\nConfirmed at this visit: Pregnancy excluded."}, SetContent{Plan: "Fluids."}, "Confirmed at this visit: Pregnancy excluded.",
			nil, "Fluids.\nConfirmed at this visit: Pregnancy excluded.", "", Skipped{Diagnoses: []string{}, Orders: []string{}, Plan: true}},
		{"a check alone is the plan",
			appointment.Content{}, SetContent{}, "Confirmed at this visit: Feet examined.",
			nil, "Confirmed at this visit: Feet examined.", "", Skipped{Diagnoses: []string{}, Orders: []string{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, sk := merge(c.visit, "2026-11-26", c.set, c.checked)
			if !slices.Equal(codes(got), c.diagnoses) || got.Plan != c.plan || got.FollowUpDate != c.followUp {
				t.Errorf("merged: diagnoses %v plan %q follow-up %q", codes(got), got.Plan, got.FollowUpDate)
			}
			if !slices.Equal(sk.Diagnoses, c.skipped.Diagnoses) || sk.Plan != c.skipped.Plan || sk.FollowUp != c.skipped.FollowUp {
				t.Errorf("skipped %+v, want %+v", sk, c.skipped)
			}
		})
	}
}

// TestOnlyTickedChecksAreRecorded: a set's checks are questions; only those the doctor ticked
// reach the record, in the reader's language and punctuation (translations review S3).
func TestOnlyTickedChecksAreRecorded(t *testing.T) {
	for _, c := range []struct {
		lang   string
		checks []Check
		want   string
	}{
		{"en", []Check{{Text: "Pregnancy excluded"}, {Text: "eGFR 45 or more"}}, ""},
		{"en", nil, ""},
		{"en", []Check{{Text: "Pregnancy excluded", Done: true}, {Text: "eGFR 45 or more"}}, "Confirmed at this visit: Pregnancy excluded."},
		{"en", []Check{{Text: "Pregnancy excluded.", Done: true}, {Text: "eGFR 45 or more", Done: true}}, "Confirmed at this visit: Pregnancy excluded; eGFR 45 or more."},
		{"ru", []Check{{Text: "Беременность исключена", Done: true}}, "Подтверждено на приёме: Беременность исключена."},
		{"zh", []Check{{Text: "已排除妊娠", Done: true}, {Text: "无已知肾脏疾病", Done: true}}, "本次就诊已确认：已排除妊娠；无已知肾脏疾病。"},
		{"vi", []Check{{Text: "Đã loại trừ có thai", Done: true}}, "Đã xác nhận trong lần khám này: Đã loại trừ có thai."},
	} {
		if got := checkedLine(c.lang, c.checks); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.lang, c.checks, got, c.want)
		}
	}
}

// TestTestsDoneTodayAreNotOrderedAgain: a set leaves out a test the patient had ordered or
// resulted that day, unless the doctor asked for it again (clinic-day review m8).
func TestTestsDoneTodayAreNotOrderedAgain(t *testing.T) {
	orders := []appointment.Order{{Code: "CBC"}, {Code: "CRP"}, {Code: "HBA1C"}}
	today := map[string]string{"CBC": "resulted", "CRP": "ordered"}
	kept, left := withoutToday(orders, today, []string{"CRP"})
	if len(kept) != 2 || kept[0].Code != "CRP" || kept[1].Code != "HBA1C" || !slices.Equal(left, []string{"CBC"}) {
		t.Errorf("kept %+v, left %v", kept, left)
	}
}
