package fhir

import "time"

// SetAnswerLimits lowers the bytes a Bundle's reads may answer, in all and each, until the
// returned function puts them back (tests run one at a time in this package).
func SetAnswerLimits(total, entry int) (restore func()) {
	saved := answerLimits
	answerLimits.total, answerLimits.entry = total, entry
	return func() { answerLimits = saved }
}

// SetClinicFresh sets how long the clinic's settings are kept between reads, until the
// returned function puts it back.
func SetClinicFresh(d time.Duration) (restore func()) {
	saved := clinicFresh
	clinicFresh = d
	return func() { clinicFresh = saved }
}
