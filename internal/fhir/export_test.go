package fhir

import "time"

// SetScanBudget sets how many records a search tested on built resources examines for a
// page, until the test ends.
func SetScanBudget(t interface{ Cleanup(func()) }, n int) {
	old := scanBudget
	scanBudget = n
	t.Cleanup(func() { scanBudget = old })
}

// SetExportClock moves the bulk exports' clock ahead by d, until the test ends.
func SetExportClock(t interface{ Cleanup(func()) }, d time.Duration) {
	exportSkew.Store(int64(d))
	t.Cleanup(func() { exportSkew.Store(0) })
}

// SetGroupMemberCap sets how many members a Group read lists, until the test ends.
func SetGroupMemberCap(t interface{ Cleanup(func()) }, n int) {
	old := groupMemberCap
	groupMemberCap = n
	t.Cleanup(func() { groupMemberCap = old })
}
