package portal_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestPatientSeesAndEndsTheirSessions (ASVS 3.3.4): a patient signed in on two devices — a
// code by e-mail, the printed access code — sees both, this one first, the address masked;
// signing out everywhere else ends the other at once and keeps this one, audited. A session
// of another patient is neither listed nor ended.
func TestPatientSeesAndEndsTheirSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		lan := w.patient(t, "Sessions", "1985-03-04", map[string]any{"email": "sessions@example.test"})
		other := w.patient(t, "Other", "1979-05-06", map[string]any{"email": "other@example.test"})
		access := w.invite(t, lan)
		w.invite(t, other)
		phone, laptop, stranger := w.portalClient(t), w.portalClient(t), w.portalClient(t)
		w.signInByCode(t, phone, "sessions@example.test")
		if r := laptop.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": access, "birth_date": "1985-03-04"}); r.Status != http.StatusOK {
			t.Fatalf("access sign-in: %d %s", r.Status, r.Body)
		}
		w.signInByCode(t, stranger, "other@example.test")

		type view struct {
			ID      string `json:"id"`
			Via     string `json:"via"`
			Address string `json:"address"`
			Current bool   `json:"current"`
		}
		var got struct{ Data []view }
		r := phone.Do("GET", "/api/portal/sessions", nil)
		if r.Status != http.StatusOK {
			t.Fatalf("sessions: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if len(got.Data) != 2 || !got.Data[0].Current || got.Data[0].Via != "code" || got.Data[0].Address == "sessions@example.test" ||
			got.Data[0].Address == "" || got.Data[1].Current || got.Data[1].Via != "access" || got.Data[1].Address != "" {
			t.Fatalf("the phone's list: %+v", got.Data)
		}
		var ended struct{ Ended int }
		if r := phone.Do("POST", "/api/portal/sessions/end-others", nil); r.Status != http.StatusOK {
			t.Fatalf("end others: %d %s", r.Status, r.Body)
		} else if r.JSON(t, &ended); ended.Ended != 1 {
			t.Fatalf("ended %d, want 1", ended.Ended)
		}
		if r := laptop.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("the laptop after it was signed out: %d", r.Status)
		}
		if r := phone.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil); r.Status != http.StatusOK {
			t.Fatalf("the phone after ending the others: %d", r.Status)
		}
		if r := stranger.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", other), nil); r.Status != http.StatusOK {
			t.Fatalf("another patient's session was ended: %d", r.Status)
		}
		got.Data = nil
		phone.Do("GET", "/api/portal/sessions", nil).JSON(t, &got)
		if len(got.Data) != 1 || !got.Data[0].Current {
			t.Fatalf("after: %+v", got.Data)
		}
		for _, action := range []string{"portal.sessions.read", "portal.sessions.end_others"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1 AND actor_name = $2`, action, fmt.Sprintf("patient:%d", lan)); n == 0 {
				t.Errorf("%s not audited with the patient as actor", action)
			}
		}
	})
}

// TestAGuardianSeesAndEndsTheirSessions (the attacker's review, M3): a parent with no record
// of their own here, signed in twice by a code to their address, sees both sessions and ends
// the other; the child's own session is neither listed nor ended.
func TestAGuardianSeesAndEndsTheirSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		child := w.patient(t, "Kid", birthday(9, -30), map[string]any{"email": "kid@example.test"})
		w.invite(t, child)
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "mum@example.test"}); r.Status != http.StatusOK {
			t.Fatalf("link: %d %s", r.Status, r.Body)
		}
		phone, tablet, kid := w.portalClient(t), w.portalClient(t), w.portalClient(t)
		w.signInByCode(t, phone, "mum@example.test")
		w.signInByCode(t, tablet, "mum@example.test")
		w.signInByCode(t, kid, "kid@example.test")
		var got struct {
			Data []struct {
				Current bool `json:"current"`
			}
		}
		phone.Do("GET", "/api/portal/sessions", nil).JSON(t, &got)
		if len(got.Data) != 2 || !got.Data[0].Current {
			t.Fatalf("the parent's sessions: %+v", got.Data)
		}
		if r := phone.Do("POST", "/api/portal/sessions/end-others", nil); r.Status != http.StatusOK {
			t.Fatalf("end others: %d %s", r.Status, r.Body)
		}
		if r := tablet.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", child), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("the parent's other session: %d", r.Status)
		}
		if r := kid.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", child), nil); r.Status != http.StatusOK {
			t.Errorf("the child's own session was ended: %d", r.Status)
		}
	})
}
