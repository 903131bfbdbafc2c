// Package archtest holds the architecture's own test: docs/architecture.json names the parts
// of the system, the imports allowed between them and never allowed, the order of the
// domains and the owner of every table; the test reads the code and fails where it departs.
package archtest
