package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestTheOldAddressIsToldOfAChange (ASVS 2.2.3): the desk changes the e-mail and the phone of
// a patient with portal access — the addresses a sign-in code goes to — and the old e-mail
// gets a notice (read from the test's mail server) naming neither the new address nor
// anything clinical, and the old phone an SMS; a patient without portal access, or a change of
// anything else, sends nothing.
func TestTheOldAddressIsToldOfAChange(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		lan := w.patient(t, "Notice", "1985-03-04", map[string]any{"email": "old@example.test", "phone": "0912 345 678"})
		plain := w.patient(t, "Plain", "1980-01-01", map[string]any{"email": "plain@example.test"})
		w.invite(t, lan)
		change := func(id int64, fields map[string]any) {
			t.Helper()
			var p map[string]any
			w.rec.Do("GET", fmt.Sprintf("/api/patients/%d", id), nil).JSON(t, &p)
			for k, v := range fields {
				p[k] = v
			}
			if r := w.rec.Do("PUT", fmt.Sprintf("/api/patients/%d", id), p); r.Status != http.StatusOK {
				t.Fatalf("change: %d %s", r.Status, r.Body)
			}
		}
		count := func(to string) int {
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'patient.contact_changed' AND recipient = $1`, to)
		}
		change(lan, map[string]any{"address": "12 Lê Lợi"}) // not a sign-in address: nothing
		change(plain, map[string]any{"email": "plain2@example.test"})
		change(lan, map[string]any{"email": "new@example.test", "phone": "0987 654 321"})
		if _, err := w.box.SendDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		var notice string
		for _, m := range w.smtp.Messages() {
			switch strings.ToLower(m.To[0]) {
			case "old@example.test":
				notice = m.Data
			case "new@example.test", "plain@example.test":
				if strings.Contains(m.Data, "contact details were changed") {
					t.Errorf("a notice went to %s", m.To[0])
				}
			}
		}
		if !strings.Contains(notice, "contact details were changed") || strings.Contains(notice, "new@example.test") {
			t.Fatalf("the old address's notice: %q", notice)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'patient.contact_changed' AND channel = 'sms'`); n != 1 {
			t.Errorf("SMS notices: %d, want 1 (to the old phone)", n)
		}
		if count("plain@example.test") != 0 || count("new@example.test") != 0 {
			t.Errorf("a notice to an address without portal access, or to the new one")
		}
	})
}
