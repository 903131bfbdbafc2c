package fhir

// SetMaxIncluded lowers how many resources the includes add to a page, until the test ends.
func SetMaxIncluded(t interface{ Cleanup(func()) }, n int) {
	old := maxIncluded
	maxIncluded = n
	t.Cleanup(func() { maxIncluded = old })
}
