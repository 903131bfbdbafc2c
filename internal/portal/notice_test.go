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

// change changes fields of patient id at the desk, as its form saves them.
func (w *world) change(t *testing.T, id int64, fields map[string]any) {
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
		change := func(id int64, fields map[string]any) { w.change(t, id, fields) }
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

// TestSignInChangesAreTold (the attacker's review of 2026-11-30): an address added to a
// record tells the one it had (C1); a change of formatting or letter case tells nobody; a
// session signed in by a code to an address the record no longer has loses the record (M5),
// one opened with the access code keeps it; linking a guardian's address tells the child's
// own addresses (M2).
func TestSignInChangesAreTold(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		phoneOnly := w.patient(t, "Phoneonly", "1985-03-04", map[string]any{"phone": "0912 345 678"})
		lan := w.patient(t, "Mailed", "1986-04-05", map[string]any{"email": "Lan@Example.test", "phone": "0913 555 777"})
		child := w.patient(t, "Child", birthday(9, -30), map[string]any{"email": "child.family@example.test"})
		for _, id := range []int64{phoneOnly, child} {
			w.invite(t, id)
		}
		access := w.invite(t, lan)
		notices := func(id int64) int {
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'patient.contact_changed' AND topic_id = $1`, id)
		}
		change := func(id int64, fields map[string]any) { w.change(t, id, fields) }

		// An e-mail added where there was a phone only: the phone is told.
		change(phoneOnly, map[string]any{"email": "someone@example.test"})
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'patient.contact_changed' AND topic_id = $1 AND channel = 'sms'`, phoneOnly); n != 1 {
			t.Errorf("the phone of a record given an e-mail told %d times", n)
		}
		// The same e-mail in other letters and the same phone written otherwise: nobody.
		signedIn, byAccess := w.portalClient(t), w.portalClient(t)
		w.signInByCode(t, signedIn, "lan@example.test")
		if r := byAccess.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": access, "birth_date": "1986-04-05"}); r.Status != http.StatusOK {
			t.Fatalf("access sign-in: %d %s", r.Status, r.Body)
		}
		change(lan, map[string]any{"email": "lan@example.test", "phone": "0913-555-777"})
		if n := notices(lan); n != 0 {
			t.Errorf("a change of formatting told %d times", n)
		}
		// A new e-mail: both old addresses told; the code's session loses the record, the
		// access code's keeps it.
		change(lan, map[string]any{"email": "lan.new@example.test"})
		if n := notices(lan); n != 2 {
			t.Errorf("a new e-mail told %d addresses, want the old e-mail and the phone", n)
		}
		if r := signedIn.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a session by the old e-mail after the change: %d", r.Status)
		}
		if r := byAccess.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil); r.Status != http.StatusOK {
			t.Errorf("a session by the access code after the change: %d", r.Status)
		}
		// A guardian's address linked to the child: the child's own address is told.
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "parent@example.test"}); r.Status != http.StatusOK {
			t.Fatalf("link: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = 'patient.contact_changed' AND topic_id = $1 AND recipient = 'child.family@example.test'`, child); n != 1 {
			t.Errorf("the child's address told %d times of a guardian linked", n)
		}
	})
}

// TestNoCodeByAChannelTheClinicTurnedOff: a clinic that sends no SMS sends no portal sign-in
// code by SMS either (the check sat in online booking alone): 422 on the channel, nothing sent;
// e-mail still goes.
func TestNoCodeByAChannelTheClinicTurnedOff(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		admin := w.env.LoggedIn("admin", w.env.CreateUser("admin", "admin"))
		lan := w.patient(t, "Nosms", "1985-03-04", map[string]any{"email": "nosms@example.test", "phone": "0912 345 678"})
		w.invite(t, lan)
		if r := admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"reminders": true, "offsets_minutes": []int{1440, 120}, "quiet_start": "21:00",
			"quiet_end": "08:00", "cancel_hours": 2, "email": true, "sms": false, "language": "en", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		c := w.portalClient(t)
		r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "sms", "address": "0912 345 678", "language": "en"})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "channel") {
			t.Fatalf("a code by SMS, SMS off: %d %s", r.Status, r.Body)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE channel = 'sms'`); n != 0 {
			t.Fatalf("%d SMS written", n)
		}
		if r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": "nosms@example.test", "language": "en"}); r.Status != http.StatusOK {
			t.Fatalf("a code by e-mail: %d %s", r.Status, r.Body)
		}
	})
}
