package fhir

import (
	"testing"
	"time"
)

// TestVitalsBelongToTheirVisitsDay: the day is the clinic's, not UTC's — a visit at 00:30 in
// the clinic (17:30 UTC the day before) takes a vital of its own local day, in any zone it is
// written in, and one measured within three hours of its start the evening before; it
// refuses one of the day before taken earlier, and a date alone of the day before; a date,
// month or year holding the day is taken, no value or one that is not a dateTime says
// nothing against it.
func TestVitalsBelongToTheirVisitsDay(t *testing.T) {
	clinic := time.FixedZone("UTC+7", 7*3600)
	starts := time.Date(2026, 3, 4, 17, 30, 0, 0, time.UTC) // 2026-03-05 00:30 at the clinic
	for effective, refused := range map[string]bool{
		"2026-03-05T08:00:00+07:00": false, "2026-03-04T18:00:00Z": false, "2026-03-05": false, "2026-03": false, "2026": false,
		"": false, "yesterday": false,
		// Around the visit, whichever side of midnight: the visit's.
		"2026-03-04T23:59:00+07:00": false, "2026-03-04T16:00:00Z": false, "2026-03-05T03:30:00+07:00": false,
		"2026-03-04T20:00:00+07:00": true, "2026-03-04T12:00:00Z": true, "2026-03-04": true, "2026-02": true, "2025": true,
	} {
		err := vitalOnVisitDay(effective, starts, clinic)
		if (err != nil) != refused {
			t.Errorf("%q: %v, refused %v", effective, err, refused)
		}
		if e, ok := err.(*Error); ok && (e.Status != 422 || e.Args[0] != "2026-03-05") {
			t.Errorf("%q: %+v", effective, e)
		}
	}
}
