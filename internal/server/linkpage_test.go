package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestLinkPageServed: a message's link (/m/TOKEN) opens the link page's own entry, never the
// staff app, and tells no referrer where it came from.
func TestLinkPageServed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		for _, path := range []string{"/m/1.2.appointment.k.abc", "/m/x/y"} {
			res, err := http.Get(env.HTTP.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Appointment") || res.Header.Get("Referrer-Policy") != "no-referrer" {
				t.Fatalf("%s: %d %q %v", path, res.StatusCode, body, res.Header)
			}
		}
		// The patient portal (ADR 44) and the public booking page (ADR 43) are their own
		// entries, at their paths and under them; /booking is the app's.
		for path, want := range map[string]string{"/portal": "Patient portal", "/portal/": "Patient portal", "/portal/anything": "Patient portal",
			"/book": "Book an appointment", "/book/": "Book an appointment", "/book?lang=vi": "Book an appointment", "/booking": "EMR"} {
			res, err := http.Get(env.HTTP.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			patients := want != "EMR"
			if res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) || patients != (res.Header.Get("Referrer-Policy") == "no-referrer") {
				t.Fatalf("%s: %d %q %v", path, res.StatusCode, body, res.Header)
			}
		}
		res, err := http.Get(env.HTTP.URL + "/patients")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), "EMR") {
			t.Fatalf("the app: %q", body)
		}
	})
}
