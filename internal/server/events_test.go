package server_test

import (
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database/dbtest"
)

// TestWritesDeclareWhatTheyChange: every write to a resource that open screens follow live
// declares the change it announces (a route added without it would leave those screens
// stale), and no read announces anything.
func TestWritesDeclareWhatTheyChange(t *testing.T) {
	env := apitest.New(t, dbtest.Open(t, dbtest.Engines()[0].URL(t)))
	// The first prefix a route's path has names what it changes: a bill is its own domain,
	// even the visit's (a payment re-reads no appointment view).
	followed := []struct {
		prefix string
		change auth.Change
	}{
		{"/api/appointments/{id}/bill", auth.ChangesBills},
		{"/api/bills", auth.ChangesBills},
		{"/api/drawers", auth.ChangesBills},
		{"/api/documents", auth.ChangesDocuments},
		{"/api/document-templates", auth.ChangesDocuments},
		{"/api/lab-orders", auth.ChangesResults},
		{"/api/results", auth.ChangesResults},
		{"/api/appointments", auth.ChangesAppointments},
		{"/api/patients/{id}/immunisation-card", auth.ChangesDocuments}, // a document issued for the patient
		{"/api/patients", auth.ChangesPatients},
		{"/api/users", auth.ChangesUser},
		{"/api/roles", auth.ChangesRoles},
	}
	// Writes that change nothing an open screen shows.
	quiet := map[string]bool{
		"POST /api/patients/duplicates":               true,
		"POST /api/bills/{id}/print":                  true, // audited, not shown
		"POST /api/documents/{id}/print":              true,
		"POST /api/document-templates/preview":        true,
		"POST /api/patients/{id}/immunisations/check": true, // a read of the record, audited
	}
	for _, rt := range env.Server.Routes {
		key := rt.Method + " " + rt.Path
		if rt.Method == http.MethodGet && !rt.ChangesState {
			if rt.Announces != auth.ChangesNothing {
				t.Errorf("%s is a read and announces a change", key)
			}
			continue
		}
		for _, f := range followed {
			if !strings.HasPrefix(rt.Path, f.prefix) {
				continue
			}
			if want := f.change; quiet[key] {
				if rt.Announces != auth.ChangesNothing {
					t.Errorf("%s changes nothing and announces %d", key, rt.Announces)
				}
			} else if rt.Announces != want {
				t.Errorf("%s announces %d, want %d", key, rt.Announces, want)
			}
			break
		}
	}
}
