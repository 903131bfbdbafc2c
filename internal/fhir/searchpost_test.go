package fhir_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestSearchByPost: a search's POST form (FHIR R4 search 3.1.1.3) finds what its GET finds,
// with parameters in the body, in the URL or both, and its links are GET links; a body that
// is not a form is refused, and so is a form too large.
func TestSearchByPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		doctor, _ := c.token(t, "doc", "")
		want := ids(get(t, doctor, "/fhir/R4/Patient?family=L%C3%AA&birthdate=1970-03-02", http.StatusOK))
		if len(want) != 1 {
			t.Fatalf("GET found %v", want)
		}
		post := func(path, contentType, body string) (int, map[string]any, string) {
			t.Helper()
			doctor.Header.Set("Content-Type", contentType)
			defer doctor.Header.Del("Content-Type")
			r := doctor.Do("POST", path, []byte(body))
			if r.Status != http.StatusOK {
				return r.Status, nil, string(r.Body)
			}
			return r.Status, validResource(t, r.Body), string(r.Body)
		}
		form := "application/x-www-form-urlencoded"
		for _, tc := range []struct{ name, path, body string }{
			{"in the body", "/fhir/R4/Patient/_search", "family=L%C3%AA&birthdate=1970-03-02"},
			{"in the URL and the body", "/fhir/R4/Patient/_search?birthdate=1970-03-02", "family=L%C3%AA"},
			{"in the URL alone", "/fhir/R4/Patient/_search?family=L%C3%AA&birthdate=1970-03-02", ""},
		} {
			status, bundle, body := post(tc.path, form, tc.body)
			if status != http.StatusOK || !slices.Equal(ids(bundle), want) {
				t.Errorf("%s: %d %s, want %v", tc.name, status, body, want)
				continue
			}
			for _, l := range bundle["link"].([]any) {
				if u := l.(map[string]any)["url"].(string); strings.Contains(u, "_search") || !strings.Contains(u, "family=") {
					t.Errorf("%s: link %s is not the GET of the search", tc.name, u)
				}
			}
		}
		// Each repetition narrows, as in the URL: a birth date in the body the URL's excludes.
		if _, bundle, body := post("/fhir/R4/Patient/_search?birthdate=1970-03-02", form, "birthdate=1985-11-20"); len(ids(bundle)) != 0 {
			t.Errorf("two birth dates found %s", body)
		}
		if status, _, body := post("/fhir/R4/Patient/_search", "application/json", `{"family":"Lê"}`); status != http.StatusUnsupportedMediaType || !strings.Contains(body, "OperationOutcome") {
			t.Errorf("a JSON body: %d %s", status, body)
		}
		if status, _, body := post("/fhir/R4/Patient/_search", form, "family="+strings.Repeat("a", 70<<10)); status != http.StatusRequestEntityTooLarge {
			t.Errorf("a form of 70 KB: %d %.200s", status, body)
		}
		// The form is a search: a scope that may not search the type may not post it either.
		nurse, _ := c.token(t, "nurse", "user/Observation.rs")
		nurse.Header.Set("Content-Type", form)
		if r := nurse.Do("POST", "/fhir/R4/Patient/_search", []byte("family=L%C3%AA")); r.Status != http.StatusForbidden {
			t.Errorf("a scope without Patient: %d %s", r.Status, r.Body)
		}
	})
}
