package result

import (
	"testing"
	"time"

	"emr/internal/catalogue"
)

// A patient's age on the day a specimen was taken is counted on the clinic's calendar: in
// Ho Chi Minh City (UTC+7) a sample taken at 06:00 on the 18th birthday is taken on the
// birthday, though it is still the day before in UTC.
func TestAgeIsCountedOnTheClinicsCalendar(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Ho_Chi_Minh")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	birth := time.Date(2008, 11, 28, 0, 0, 0, 0, time.UTC)
	taken := time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC) // 06:00 on 28 November in the clinic
	if got := catalogue.MonthsOld(birth, (&Store{Loc: loc}).clinicDay(taken)); got != 216 {
		t.Errorf("in the clinic's time zone: %d months, want 216 (the 18th birthday)", got)
	}
	if got := catalogue.MonthsOld(birth, (&Store{}).clinicDay(taken)); got != 215 {
		t.Errorf("without a time zone (UTC): %d months, want 215", got)
	}
}
