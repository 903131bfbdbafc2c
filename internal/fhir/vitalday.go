package fhir

import (
	"net/http"
	"strings"
	"time"
)

// aroundVisit is how far from its visit's start a vital sign dated another day may have been
// measured and still be the visit's.
const aroundVisit = 3 * time.Hour

// vitalOnVisitDay refuses a vital sign written for another day than its visit's (issue 54,
// M6): the visit keeps its vitals at its own time, so a measurement dated another day would
// be kept as if taken on the visit's day — a wrong record, not a detail to note. The day is
// the clinic's calendar day (loc; nil: UTC). A time on the visit's day other than the visit's
// own is still taken, and noted as not kept (notKept). No effectiveDateTime, or one given to
// the month or year only that holds the visit's day, says nothing against it; one that is
// not a dateTime at all is left to notKept as well.
func vitalOnVisitDay(effective string, startsAt time.Time, loc *time.Location) error {
	if loc == nil {
		loc = time.UTC
	}
	// A measurement around the visit is the visit's, whichever side of midnight it fell:
	// a blood pressure at 00:05 of a visit begun at 23:40, a triage at 23:55 before a visit at
	// 00:20 (the clinician's review).
	if at, err := time.Parse(time.RFC3339Nano, effective); err == nil && at.Sub(startsAt).Abs() <= aroundVisit {
		return nil
	}
	day := startsAt.In(loc).Format(time.DateOnly)
	sent, ok := calendarDay(effective, loc)
	if !ok || strings.HasPrefix(day, sent) {
		return nil
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: "business-rule", Key: "fhir.vital_day", Args: []any{day}, Expression: "Observation.effectiveDateTime"}
}

// calendarDay is the part of a FHIR dateTime that names a day, month or year on the clinic's
// calendar ("2026-03-04", "2026-03", "2026"): a time with its zone is moved into loc first.
// It reports false for no value or one it cannot read.
func calendarDay(dt string, loc *time.Location) (string, bool) {
	if dt == "" {
		return "", false
	}
	if at, err := time.Parse(time.RFC3339Nano, dt); err == nil {
		return at.In(loc).Format(time.DateOnly), true
	}
	for _, layout := range []string{time.DateOnly, "2006-01", "2006"} {
		if _, err := time.Parse(layout, dt); err == nil {
			return dt, true
		}
	}
	return "", false
}
