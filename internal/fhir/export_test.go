package fhir

// SetScanBudget sets how many records a search tested on built resources examines for a
// page, until the test ends.
func SetScanBudget(t interface{ Cleanup(func()) }, n int) {
	old := scanBudget
	scanBudget = n
	t.Cleanup(func() { scanBudget = old })
}
