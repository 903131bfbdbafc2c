package fhir

// SetAnswerLimits lowers the bytes a Bundle's reads may answer, in all and each, until the
// returned function puts them back (tests run one at a time in this package).
func SetAnswerLimits(total, entry int) (restore func()) {
	saved := answerLimits
	answerLimits.total, answerLimits.entry = total, entry
	return func() { answerLimits = saved }
}
