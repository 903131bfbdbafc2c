package portal_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/portal"
)

// TestPortalRevokedGuardianOpensNoChild: revoking a parent's own access ends the parent's way
// to the child linked to the parent's record: a new code to the parent's address opens
// nothing, and a session the parent already had loses the child at once.
func TestPortalRevokedGuardianOpensNoChild(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		parent := w.patient(t, "Parent", "1980-05-05", map[string]any{"email": "p@example.test"})
		child := w.patient(t, "Child", "2018-06-06", nil)
		w.invite(t, parent)
		w.invite(t, child)
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "patient", "patient_id": parent}); r.Status != http.StatusCreated && r.Status != http.StatusOK {
			t.Fatalf("link guardian: %d %s", r.Status, r.Body)
		}
		before := w.portalClient(t)
		s := w.signInByCode(t, before, "p@example.test")
		if len(s.Records) != 2 {
			t.Fatalf("parent's session before the revoke: %+v", s)
		}
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/revoke", parent), nil); r.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		if r := before.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", child), nil); r.Status == http.StatusOK {
			t.Errorf("the revoked parent's old session still opens the child: %d %s", r.Status, r.Body)
		}
		c := w.portalClient(t)
		var req struct {
			CodeID int64 `json:"code_id"`
		}
		c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": "p@example.test", "language": "en"}).JSON(t, &req)
		if code := w.mailedCode(t, "p@example.test"); code != "" {
			r := c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", req.CodeID), map[string]any{"code": code})
			if r.Status == http.StatusOK {
				t.Errorf("a code to the revoked parent's address opened: %s", r.Body)
			}
		}
	})
}

// TestPortalCodeChecksThrottled: one-time code checks are limited per address block (code
// ids are sequential); a booking code's id is unknown to the portal's sign-in, and trying it
// there does not spend its holder's tries.
func TestPortalCodeChecksThrottled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		if _, err := db.Exec(`INSERT INTO patient_codes (purpose, channel, address, code_mac, tries, created_at, expires_at)
			VALUES ('book', 'email', 'b@example.test', 'x', 0, $1, $2)`, time.Now().UTC(), time.Now().UTC().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var book int64
		if err := db.QueryRow(`SELECT id FROM patient_codes WHERE address = 'b@example.test'`).Scan(&book); err != nil {
			t.Fatal(err)
		}
		c := w.portalClient(t)
		// Failed checks meet the network's failure budget (the attacker's review, M4) before
		// the block's budget of code checks, right or wrong (portal.CodeCheckBlockLimit).
		for i := 0; i < min(portal.CodeCheckBlockLimit, auth.PublicFailureLimit); i++ {
			r := c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", book), map[string]any{"code": "000000"})
			if r.Status != http.StatusConflict {
				t.Fatalf("check %d of a booking code at the portal: %d %s", i, r.Status, r.Body)
			}
		}
		var tries int
		if err := db.QueryRow(`SELECT tries FROM patient_codes WHERE id = $1`, book).Scan(&tries); err != nil || tries != 0 {
			t.Fatalf("the booking code's tries after portal checks: %d %v", tries, err)
		}
		r := c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", book), map[string]any{"code": "000000"})
		if r.Status != http.StatusTooManyRequests {
			t.Fatalf("check past the limit: %d %s", r.Status, r.Body)
		}
	})
}

// TestPortalContactIsNotACredentialChange: the portal changes no phone or e-mail (they are
// how a patient signs in; the desk changes them) and a guardian changes nothing of a child's
// contact; so a guardian cannot make the child's record its own and outlive being unlinked.
func TestPortalContactIsNotACredentialChange(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		child := w.patient(t, "Child", "2018-06-06", map[string]any{"email": "mother@example.test"})
		lan := w.patient(t, "Lan", "1985-03-04", map[string]any{"email": "lan@example.test", "phone": "+84 912 345 678"})
		w.invite(t, child)
		w.invite(t, lan)
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "ex@example.test"}); r.Status >= 300 {
			t.Fatalf("link guardian: %d %s", r.Status, r.Body)
		}
		type contact struct {
			Phone           string `json:"phone"`
			Email           string `json:"email"`
			Reminders       string `json:"reminders"`
			MessageLanguage string `json:"message_language"`
			Version         int    `json:"version"`
			CanChange       bool   `json:"can_change"`
		}

		// The guardian reads the child's contact but changes nothing of it.
		g := w.portalClient(t)
		w.signInByCode(t, g, "ex@example.test")
		var cc contact
		g.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", child), nil).JSON(t, &cc)
		if cc.CanChange || cc.Email != "mother@example.test" {
			t.Fatalf("the child's contact as the guardian sees it: %+v", cc)
		}
		for _, change := range []func(c *contact){
			func(c *contact) { c.Email = "ex@example.test" },
			func(c *contact) { c.Reminders = "none" },
		} {
			next := cc
			change(&next)
			if r := g.Do("PUT", fmt.Sprintf("/api/portal/records/%d/contact", child), next); r.Status != http.StatusForbidden {
				t.Fatalf("a guardian's change of the child's contact: %d %s", r.Status, r.Body)
			}
		}

		// The patient's own session: reminders and language change, the phone and e-mail do not.
		c := w.portalClient(t)
		w.signInByCode(t, c, "lan@example.test")
		var own contact
		c.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", lan), nil).JSON(t, &own)
		if !own.CanChange {
			t.Fatalf("own contact: %+v", own)
		}
		for _, tc := range []struct {
			name, field string
			change      func(c *contact)
		}{
			{"new e-mail", "email", func(c *contact) { c.Email = "ex@example.test" }},
			{"new phone", "phone", func(c *contact) { c.Phone = "+84 900 000 000" }},
		} {
			next := own
			tc.change(&next)
			r := c.Do("PUT", fmt.Sprintf("/api/portal/records/%d/contact", lan), next)
			var e struct {
				Code   string              `json:"code"`
				Fields map[string][]string `json:"errors"`
			}
			r.JSON(t, &e)
			if r.Status != http.StatusUnprocessableEntity || len(e.Fields[tc.field]) == 0 {
				t.Fatalf("%s: %d %s", tc.name, r.Status, r.Body)
			}
		}
		own.Reminders, own.MessageLanguage = "sms", "vi"
		var saved contact
		if r := c.Do("PUT", fmt.Sprintf("/api/portal/records/%d/contact", lan), map[string]any{"reminders": "sms", "message_language": "vi", "version": own.Version}); r.Status != http.StatusOK {
			t.Fatalf("reminders only: %d %s", r.Status, r.Body)
		} else {
			r.JSON(t, &saved)
		}
		if saved.Email != "lan@example.test" || saved.Phone == "" || saved.Reminders != "sms" || saved.MessageLanguage != "vi" {
			t.Fatalf("saved: %+v", saved)
		}

		// Unlinked, the guardian's address opens nothing.
		var st struct {
			Guardians []struct{ ID int64 } `json:"guardians"`
		}
		w.rec.Do("GET", fmt.Sprintf("/api/patients/%d/portal", child), nil).JSON(t, &st)
		if r := w.rec.Do("DELETE", fmt.Sprintf("/api/patients/%d/portal/guardians/%d", child, st.Guardians[0].ID), nil); r.Status >= 300 {
			t.Fatalf("unlink: %d %s", r.Status, r.Body)
		}
		if r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", child), nil); r.Status == http.StatusOK {
			t.Fatalf("the unlinked guardian's session still opens the child")
		}
	})
}
