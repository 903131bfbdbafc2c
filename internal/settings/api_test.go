package settings_test

import (
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func TestClinicHeader(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
		var c struct {
			Name    string
			Address string
			Version int
		}
		nurse.Do("GET", "/api/settings/clinic", nil).JSON(t, &c)
		if c.Name != "" || c.Version != 0 {
			t.Fatalf("before any save: %+v", c)
		}
		if r := nurse.Do("PUT", "/api/settings/clinic", map[string]any{"name": "X", "version": 0}); r.Status != http.StatusForbidden {
			t.Errorf("nurse sets the header: %d", r.Status)
		}
		r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "  ", "version": 0})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["name"]) == 0 {
			t.Errorf("empty name: %d %s", r.Status, r.Body)
		}
		if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": " Phòng khám An Bình ", "address": "1 Main St\r\nHuế", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}
		// A second admin's form, read before that save, is stale.
		if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Other", "version": 0}); r.Status != http.StatusConflict {
			t.Errorf("stale save: %d", r.Status)
		}
		nurse.Do("GET", "/api/settings/clinic", nil).JSON(t, &c)
		if c.Name != "Phòng khám An Bình" || c.Address != "1 Main St\nHuế" || c.Version != 1 {
			t.Errorf("after save: %+v", c)
		}
		// The public address the documents' QR codes point to: a full http(s) address, kept without its last slash.
		for _, bad := range []string{"emr.example.org", "ftp://emr.example.org", "https://emr.example.org/?x=1", "https://user:pw@emr.example.org", "javascript:alert(1)"} {
			r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "X", "public_url": bad, "version": 1})
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["public_url"]) == 0 {
				t.Errorf("public address %q: %d %s", bad, r.Status, r.Body)
			}
		}
		var saved struct {
			PublicURL string `json:"public_url"`
		}
		admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "X", "public_url": " https://emr.example.org/clinic/ ", "version": 1}).JSON(t, &saved)
		if saved.PublicURL != "https://emr.example.org/clinic" {
			t.Errorf("public address saved as %q", saved.PublicURL)
		}
	})
}

// TestThePatientNumberSystemStaysPut: the system derived from the clinic's public address is
// written down when the address is saved, so moving the address later does not move the
// clinic's numbers to another system (a receiving system's links to them hold); an
// administrator's explicit system is kept as given.
func TestThePatientNumberSystemStaysPut(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		var c struct {
			NumberSystem string `json:"number_system"`
			Version      int
		}
		save := func(body map[string]any) {
			t.Helper()
			if r := admin.Do("PUT", "/api/settings/clinic", body); r.Status != http.StatusOK {
				t.Fatalf("save %v: %d %s", body, r.Status, r.Body)
			}
			admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &c)
		}
		save(map[string]any{"name": "An Bình", "version": 0})
		if c.NumberSystem != "" {
			t.Errorf("no address, yet a system: %q", c.NumberSystem)
		}
		save(map[string]any{"name": "An Bình", "public_url": "https://old.example.org/", "version": c.Version})
		if want := "https://old.example.org/fhir/sid/patient-number"; c.NumberSystem != want {
			t.Errorf("the derived system written down: %q, want %q", c.NumberSystem, want)
		}
		save(map[string]any{"name": "An Bình", "public_url": "https://new.example.org", "number_system": c.NumberSystem, "version": c.Version})
		if want := "https://old.example.org/fhir/sid/patient-number"; c.NumberSystem != want {
			t.Errorf("a new address moved the numbers: %q, want %q", c.NumberSystem, want)
		}
		save(map[string]any{"name": "An Bình", "public_url": "https://new.example.org", "number_system": "urn:oid:1.2.3", "version": c.Version})
		if c.NumberSystem != "urn:oid:1.2.3" {
			t.Errorf("an explicit system: %q", c.NumberSystem)
		}
	})
}
