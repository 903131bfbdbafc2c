package fhir_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
)

// TestWritesReadTheClinicBeforeTheirTransaction: a Bundle's or a Patient's write reads the
// clinic's settings (its patient number systems) before it opens its transaction, never inside
// it: with one connection free beside those in use and the settings read afresh at every
// request, each write finishes. The settings' cache was refreshed on the pool from inside the
// transaction, which under concurrent FHIR writes could take every connection and wait forever
// (found by an audit of the pool's use).
func TestWritesReadTheClinicBeforeTheirTransaction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		defer fhir.SetClinicFresh(0)()
		pat := fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID)
		current := get(t, c.doctor, pat, http.StatusOK)
		mrn := current["identifier"].([]any)[0].(map[string]any)
		delete(current, "text")
		current["gender"] = "male"
		c.doctor.Header.Set("If-Match", `W/"`+current["meta"].(map[string]any)["versionId"].(string)+`"`)
		defer c.doctor.Header.Del("If-Match")
		dbtest.OneConnectionFree(db)

		writes := []struct {
			name, method, path string
			body               map[string]any
			want               int
		}{
			{"a transaction creating a patient and matching one", "POST", "/fhir/R4", bundleOf("transaction",
				writeEntry("", newPatientResource("Oneconn"), "POST", "Patient"),
				writeEntry("", newPatientResource("Lê"), "POST", "Patient", "ifNoneExist", fmt.Sprintf("identifier=%s|%s", mrn["system"], mrn["value"]))), http.StatusOK},
			{"a batch creating a patient", "POST", "/fhir/R4", bundleOf("batch", writeEntry("", newPatientResource("Onebatch"), "POST", "Patient")), http.StatusOK},
			{"a patient's update", "PUT", pat, current, http.StatusOK},
			{"a patient's create", "POST", "/fhir/R4/Patient", newPatientResource("Onecreate"), http.StatusCreated},
		}
		// A write that waits is given up by its client, which ends the server's wait too.
		c.doctor.HTTP.Timeout = 15 * time.Second
		for _, w := range writes {
			r, err := c.doctor.Try(w.method, w.path, w.body)
			if err != nil {
				t.Fatalf("%s: with one connection free the write waited for a second: %v", w.name, err)
			}
			if r.Status != w.want {
				t.Fatalf("%s: %d %s, want %d", w.name, r.Status, r.Body, w.want)
			}
		}
	})
}
