package portal_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// smsSignIn asks for a code by SMS to number, reads it from the outbox (what the phone would
// show), and signs in: the records the session opens.
func (w *world) smsSignIn(t *testing.T, number string) []int64 {
	t.Helper()
	c := w.portalClient(t)
	var req struct {
		CodeID int64 `json:"code_id"`
	}
	r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "sms", "address": number, "language": "en"})
	if r.Status != http.StatusOK {
		t.Fatalf("ask for a code: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &req)
	var body string
	if err := w.db.QueryRow(`SELECT body FROM mail_outbox WHERE topic = 'patient.code' AND topic_id = $1`, req.CodeID).Scan(&body); err != nil {
		return nil // a decoy: no message, nothing to open
	}
	code := sixDigits.FindString(body)
	var s session
	r = c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", req.CodeID), map[string]any{"code": code})
	if r.Status != http.StatusOK {
		return nil
	}
	r.JSON(t, &s)
	return s.ids()
}

// TestACodeToAnotherCountrysNumberOpensNothing: a code proves the line it went to, so it opens
// only a record whose number is that line — never one that shares the national digits in
// another country (the security review's C1). A number written domestically is in the clinic's
// country (its own phone, written internationally); with the country unknown, a domestic
// number and an international one are never taken for the same line. Guardian links by phone
// follow the same rule.
func TestACodeToAnotherCountrysNumberOpensNothing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		victim := w.patient(t, "Victim", "1985-03-04", map[string]any{"phone": "+7 912 345-67-89"})
		w.invite(t, victim)
		// By default no code is texted abroad (the attacker's review, C4), to a known record's
		// number or an unknown one alike: the answer tells nothing of the record.
		for _, number := range []string{"+7 912 345-67-89", "+7 912 000-00-00"} {
			r := w.portalClient(t).Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "sms", "address": number, "language": "en"})
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "reminder.code_sms_country") {
				t.Fatalf("a code to %s by default: %d %s", number, r.Status, r.Body)
			}
		}
		// The clinic texts codes to these countries' numbers too.
		admin := w.env.LoggedIn("adm", w.env.CreateUser("adm", "admin"))
		var set map[string]any
		admin.Do("GET", "/api/settings/patient-messages", nil).JSON(t, &set)
		set["sms_code_countries"] = []string{"1", "7", "84"}
		if r := admin.Do("PUT", "/api/settings/patient-messages", set); r.Status != http.StatusOK {
			t.Fatalf("message settings: %d %s", r.Status, r.Body)
		}
		if got := w.smsSignIn(t, "+1 912 345 6789"); len(got) != 0 {
			t.Fatalf("+1 912 345 6789 opened %v, the record of +7 912 345-67-89", got)
		}
		if got := w.smsSignIn(t, "+7 912 345 67 89"); len(got) != 1 || got[0] != victim {
			t.Fatalf("the victim's own number: %v", got)
		}

		local := w.patient(t, "Local", "1990-01-02", map[string]any{"phone": "0913 555 777"})
		w.invite(t, local)
		if got := w.smsSignIn(t, "+84 913 555 777"); len(got) != 0 {
			t.Fatalf("the clinic's country unknown, +84 913 555 777 opened %v", got)
		}
		// A domestic number while the clinic's country is unknown could be anyone's: no code
		// is texted to it (it fails closed, C4), the person is told to use e-mail or call.
		if r := w.portalClient(t).Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "sms", "address": "0913-555-777", "language": "en"}); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(r.Body), "reminder.code_sms_country") {
			t.Fatalf("a domestic number, the clinic's country unknown: %d %s", r.Status, r.Body)
		}

		// The clinic names its country by its own number: now +84 913 555 777 is that line.
		var clinic map[string]any
		admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)
		clinic["name"], clinic["phone"] = "Bình Minh Clinic", "+84 28 3822 1234"
		if r := admin.Do("PUT", "/api/settings/clinic", clinic); r.Status != http.StatusOK {
			t.Fatalf("clinic: %d %s", r.Status, r.Body)
		}
		if got := w.smsSignIn(t, "+84 913 555 777"); len(got) != 1 || got[0] != local {
			t.Fatalf("in the clinic's country: %v", got)
		}
		if got := w.smsSignIn(t, "0913-555-777"); len(got) != 1 || got[0] != local {
			t.Fatalf("the same domestic number: %v", got)
		}
		if got := w.smsSignIn(t, "+1 913 555 777"); len(got) != 0 {
			t.Fatalf("another country's 913 555 777 opened %v", got)
		}

		// A guardian linked by phone: the same line opens the child, the same digits abroad do not.
		child := w.patient(t, "Child", "2019-06-06", nil)
		w.invite(t, child)
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "sms", "address": "0914 222 333"}); r.Status != http.StatusOK {
			t.Fatalf("link a guardian: %d %s", r.Status, r.Body)
		}
		if got := w.smsSignIn(t, "+1 914 222 333"); len(got) != 0 {
			t.Fatalf("another country's 914 222 333 opened %v", got)
		}
		if got := w.smsSignIn(t, "+84 914 222 333"); len(got) != 1 || got[0] != child {
			t.Fatalf("the guardian's own line: %v", got)
		}
	})
}
