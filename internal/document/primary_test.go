package document

import (
	"slices"
	"testing"
	"time"

	"emr/internal/appointment"
)

// The primary diagnosis prints first on every paper, whatever order the doctor recorded them
// in, as the prescription prints it (issue 55, m6; the clinic manager's run of 2026-11-29).
func TestThePrimaryDiagnosisPrintsFirst(t *testing.T) {
	visit := &appointment.Visit{}
	visit.Diagnoses = []appointment.Diagnosis{{Code: "J06.9", Label: "URTI"}, {Code: "R50.9", Label: "Fever"}, {Code: "J18.9", Label: "Pneumonia", Primary: true}}
	src := sources{appointment: &appointment.Appointment{Day: "2026-11-29"}, visit: visit, lang: "en", today: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}
	got := src.values("1", nil, nil)["visit.diagnoses"].List
	if want := []string{"J18.9 Pneumonia (primary)", "J06.9 URTI", "R50.9 Fever"}; !slices.Equal(got, want) {
		t.Errorf("diagnoses: %q, want %q", got, want)
	}
	if visit.Diagnoses[0].Code != "J06.9" {
		t.Error("printing reordered the visit's own list")
	}
}
