package patient_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestReminderPreferences: how a patient hears of their appointments, by what their contact
// allows unless chosen, refused when the contact cannot carry it, and audited as a change.
func TestReminderPreferences(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		type prefs struct {
			ID              int64  `json:"id"`
			Version         int    `json:"version"`
			Reminders       string `json:"reminders"`
			MessageLanguage string `json:"message_language"`
		}
		read := func(id int64) prefs {
			var p prefs
			c.Do("GET", "/api/patients/"+itoa(id), nil).JSON(t, &p)
			return p
		}
		for _, tc := range []struct {
			name, phone, email, want string
		}{
			{"e-mail first", "0901 234 567", "an@example.test", "email"},
			{"phone only", "0901 234 568", "", "sms"},
			{"no contact", "", "", "none"},
		} {
			body := newPatient("An", "Default "+tc.name, "1990-05-01", "male", tc.phone)
			body["email"] = tc.email
			p := create(t, c, body)
			if got := read(p.ID); got.Reminders != tc.want || got.MessageLanguage != "" {
				t.Errorf("%s: %+v, want %s", tc.name, got, tc.want)
			}
		}
		body := newPatient("Bình", "Trần", "1985-01-02", "female", "")
		body["reminders"] = "sms"
		if r := c.Do("POST", "/api/patients", body); r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "reminders") {
			t.Fatalf("sms without a phone: %d %s", r.Status, r.Body)
		}
		body["reminders"], body["email"], body["message_language"] = "email", "binh@example.test", "vi"
		p := create(t, c, body)
		got := read(p.ID)
		if got.Reminders != "email" || got.MessageLanguage != "vi" {
			t.Fatalf("chosen: %+v", got)
		}
		body["reminders"], body["message_language"] = "none", "xx"
		if r := c.Do("PUT", "/api/patients/"+itoa(p.ID), withVersion(body, got.Version)); r.Status < 400 || !strings.Contains(string(r.Body), "message_language") {
			t.Fatalf("a language the clinic has no messages in: %d %s", r.Status, r.Body)
		}
		body["message_language"] = "ru"
		if r := c.Do("PUT", "/api/patients/"+itoa(p.ID), withVersion(body, got.Version)); r.Status != http.StatusOK {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		if got := read(p.ID); got.Reminders != "none" || got.MessageLanguage != "ru" {
			t.Fatalf("after the update: %+v", got)
		}
		var detail string
		if err := db.QueryRow(`SELECT detail FROM audit_events WHERE action = 'patient.update' AND entity_id = $1 ORDER BY id DESC LIMIT 1`, itoa(p.ID)).Scan(&detail); err != nil ||
			!strings.Contains(detail, "reminders") || !strings.Contains(detail, "message_language") {
			t.Fatalf("audit: %q %v", detail, err)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func withVersion(body map[string]any, version int) map[string]any {
	out := map[string]any{"version": version}
	for k, v := range body {
		out[k] = v
	}
	return out
}
