package portal_test

import (
	"context"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
	"emr/internal/mail/mailtest"
	"emr/internal/portal"
)

// withMail is the test configuration with a mail server set (the outbox is driven by hand).
func withMail() config.Config {
	cfg := apitest.Config()
	cfg.SMTPURL, cfg.SMTPFrom = "smtp://127.0.0.1:1", "emr@clinic.test"
	return cfg
}

type session struct {
	SignedIn bool `json:"signed_in"`
	Records  []struct {
		ID       int64 `json:"id"`
		Guardian bool  `json:"guardian"`
	} `json:"records"`
}

func (s session) ids() []int64 {
	var out []int64
	for _, r := range s.Records {
		out = append(out, r.ID)
	}
	return out
}

type visits struct {
	Upcoming []struct {
		ID        int64  `json:"id"`
		Status    string `json:"status"`
		CanCancel bool   `json:"can_cancel"`
		Doctor    string `json:"doctor"`
	} `json:"upcoming"`
	Past []struct {
		ID int64 `json:"id"`
	} `json:"past"`
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

type world struct {
	env    *apitest.Env
	db     *database.DB
	rec    *apitest.Client
	smtp   *mailtest.Server
	box    *mail.Outbox
	doctor int64
}

func newWorld(t *testing.T, db *database.DB) *world { return newWorldWith(t, db, withMail()) }

func newWorldWith(t *testing.T, db *database.DB, cfg config.Config) *world {
	env := apitest.NewWith(t, db, cfg)
	env.CreateUser("doc", "doctor")
	w := &world{env: env, db: db, rec: env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))}
	w.smtp = mailtest.Start(t)
	w.box = &mail.Outbox{DB: db, Server: w.smtp.Client(mailtest.Password), Domain: "clinic.test"}
	var docs struct{ Data []struct{ ID int64 } }
	w.rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
	w.doctor = docs.Data[0].ID
	return w
}

func (w *world) patient(t *testing.T, last, birth string, fields map[string]any) int64 {
	t.Helper()
	body := map[string]any{"first_name": "An", "last_name": last, "birth_date": birth, "sex": "female"}
	for k, v := range fields {
		body[k] = v
	}
	r := w.rec.Do("POST", "/api/patients", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("patient: %d %s", r.Status, r.Body)
	}
	var p struct{ ID int64 }
	r.JSON(t, &p)
	return p.ID
}

func (w *world) book(t *testing.T, patientID int64, in time.Duration) int64 {
	t.Helper()
	r := w.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": w.doctor,
		"starts_at": time.Now().UTC().Add(in).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "Private reason"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	var a struct{ ID int64 }
	r.JSON(t, &a)
	return a.ID
}

func (w *world) invite(t *testing.T, id int64) string {
	t.Helper()
	var inv struct {
		Code   string `json:"code"`
		Status struct {
			Enabled bool `json:"enabled"`
		} `json:"status"`
	}
	r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/invite", id), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("invite: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &inv)
	if !inv.Status.Enabled || len(inv.Code) != 14 {
		t.Fatalf("invitation: %+v", inv)
	}
	return inv.Code
}

// portalClient is a browser on the portal page: it has read its session (and CSRF cookie).
func (w *world) portalClient(t *testing.T) *apitest.Client {
	c := w.env.Client()
	c.Do("GET", "/api/portal/session", nil)
	return c
}

// mailedCode sends what the outbox holds and reads the last code mailed to address.
func (w *world) mailedCode(t *testing.T, address string) string {
	t.Helper()
	if _, err := w.box.SendDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	code := ""
	for _, m := range w.smtp.Messages() {
		if strings.EqualFold(m.To[0], address) {
			_, body, _ := strings.Cut(strings.ReplaceAll(m.Data, "\r\n", "\n"), "\n\n")
			b, _ := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
			code = sixDigits.FindString(string(b))
		}
	}
	return code
}

// signInByCode asks for a code to address, reads it from the mail server, and signs in.
func (w *world) signInByCode(t *testing.T, c *apitest.Client, address string) session {
	t.Helper()
	var req struct {
		CodeID int64 `json:"code_id"`
	}
	r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": address, "language": "en"})
	if r.Status != http.StatusOK {
		t.Fatalf("ask for a code: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &req)
	code := w.mailedCode(t, address)
	if code == "" {
		t.Fatalf("no code mailed to %s", address)
	}
	var s session
	r = c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", req.CodeID), map[string]any{"code": code})
	if r.Status != http.StatusOK {
		t.Fatalf("sign in: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &s)
	return s
}

// TestPortalSignInAndSelfService: the desk invites; the patient signs in with a code read
// from a real mail server, sees their appointments (nothing clinical), cancels one, changes
// their reminders; each read audited with the patient as actor.
func TestPortalSignInAndSelfService(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		lan := w.patient(t, "Portal", "1985-03-04", map[string]any{"email": "lan@example.test", "phone": "+84 912 345 678"})
		appt := w.book(t, lan, 72*time.Hour)
		soon := w.book(t, lan, 30*time.Minute) // inside the 2-hour cancellation window
		w.invite(t, lan)

		c := w.portalClient(t)
		s := w.signInByCode(t, c, "LAN@example.test")
		if !s.SignedIn || len(s.Records) != 1 || s.Records[0].ID != lan || s.Records[0].Guardian {
			t.Fatalf("session: %+v", s)
		}
		r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil)
		if r.Status != http.StatusOK || strings.Contains(string(r.Body), "Private reason") {
			t.Fatalf("appointments: %d %s", r.Status, r.Body)
		}
		var v visits
		r.JSON(t, &v)
		if len(v.Upcoming) != 2 || v.Upcoming[0].ID != soon || v.Upcoming[0].CanCancel || !v.Upcoming[1].CanCancel || v.Upcoming[1].Doctor == "" {
			t.Fatalf("upcoming: %+v", v)
		}
		if r := c.Do("POST", fmt.Sprintf("/api/portal/records/%d/appointments/%d/cancel", lan, soon), nil); r.Status != http.StatusConflict {
			t.Fatalf("cancel inside the window: %d %s", r.Status, r.Body)
		}
		noCSRF := *c
		noCSRF.NoCSRF = true
		if r := noCSRF.Do("POST", fmt.Sprintf("/api/portal/records/%d/appointments/%d/cancel", lan, appt), nil); r.Status != http.StatusForbidden {
			t.Fatalf("cancel without the CSRF header: %d", r.Status)
		}
		r = c.Do("POST", fmt.Sprintf("/api/portal/records/%d/appointments/%d/cancel", lan, appt), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		var status string
		if err := db.QueryRow(`SELECT status FROM appointments WHERE id = $1`, appt).Scan(&status); err != nil || status != "cancelled" {
			t.Fatalf("appointment %q %v", status, err)
		}
		var actor string
		if err := db.QueryRow(`SELECT actor_name FROM audit_events WHERE action = 'appointment.cancel' AND entity_id = $1`, strconv.FormatInt(appt, 10)).Scan(&actor); err != nil ||
			actor != fmt.Sprintf("patient:%d", lan) {
			t.Fatalf("cancel audited as %q %v", actor, err)
		}

		// Contact and reminders, through the register: a stale version is a conflict.
		var contact struct {
			Phone           string `json:"phone"`
			Email           string `json:"email"`
			Reminders       string `json:"reminders"`
			MessageLanguage string `json:"message_language"`
			Version         int    `json:"version"`
		}
		c.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", lan), nil).JSON(t, &contact)
		if contact.Email != "lan@example.test" || contact.Reminders != "email" {
			t.Fatalf("contact: %+v", contact)
		}
		contact.Reminders, contact.MessageLanguage = "sms", "vi"
		r = c.Do("PUT", fmt.Sprintf("/api/portal/records/%d/contact", lan), contact)
		if r.Status != http.StatusOK {
			t.Fatalf("save contact: %d %s", r.Status, r.Body)
		}
		if r := c.Do("PUT", fmt.Sprintf("/api/portal/records/%d/contact", lan), contact); r.Status != http.StatusConflict {
			t.Fatalf("a stale contact form: %d", r.Status)
		}
		var reminders string
		if err := db.QueryRow(`SELECT reminders FROM patients WHERE id = $1`, lan).Scan(&reminders); err != nil || reminders != "sms" {
			t.Fatalf("reminders %q %v", reminders, err)
		}
		c.Do("GET", fmt.Sprintf("/api/portal/records/%d/bills", lan), nil)
		for _, action := range []string{"portal.sign_in", "portal.appointments.read", "portal.contact.read", "portal.bills.read", "patient.update"} {
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM audit_events WHERE action = $1 AND actor_name = $2 AND patient_id = $3`, action, fmt.Sprintf("patient:%d", lan), lan).Scan(&n); err != nil || n == 0 {
				t.Errorf("%s not audited with the patient as actor (%v)", action, err)
			}
		}

		// Sign out ends the session.
		if r := c.Do("POST", "/api/portal/sign-out", nil); r.Status != http.StatusNoContent {
			t.Fatalf("sign out: %d %s", r.Status, r.Body)
		}
		if r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("after signing out: %d", r.Status)
		}
	})
}

// TestPortalNoEnumeration: an address that opens no record is answered as one that does,
// no message goes, and its code takes wrong tries and runs out like a real one.
func TestPortalNoEnumeration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		off := w.patient(t, "NotInvited", "1990-01-01", map[string]any{"email": "off@example.test"})
		_ = off
		c := w.portalClient(t)
		for _, address := range []string{"nobody@example.test", "off@example.test"} {
			var req struct {
				CodeID int64 `json:"code_id"`
			}
			r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": address})
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", address, r.Status, r.Body)
			}
			r.JSON(t, &req)
			if req.CodeID == 0 {
				t.Fatalf("%s: no code id", address)
			}
			if code := w.mailedCode(t, address); code != "" {
				t.Fatalf("a code went to %s", address)
			}
			for try := 1; try <= 5; try++ {
				r := c.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", req.CodeID), map[string]any{"code": "123456"})
				_, key, _ := r.Error(t)
				want, wantKey := http.StatusUnprocessableEntity, "reminder.code_wrong"
				if try == 5 {
					want, wantKey = http.StatusConflict, "reminder.code_expired"
				}
				if r.Status != want || key != wantKey {
					t.Fatalf("%s try %d: %d %s", address, try, r.Status, key)
				}
			}
		}
		if r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": "not an address"}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a bad address: %d", r.Status)
		}
	})
}

// TestPortalAccessCode: the access code and the birth date sign in; a wrong one answers the
// same whichever was wrong, is audited (the patient as actor once the code names them), and
// five wrong birth dates lock the record for the hour even with the right one.
func TestPortalAccessCode(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		minh := w.patient(t, "Access", "1979-12-31", nil)
		code := w.invite(t, minh)
		c := w.portalClient(t)
		try := func(code, birth string) (int, string) {
			r := c.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": code, "birth_date": birth})
			if r.Status == http.StatusOK {
				return r.Status, ""
			}
			_, key, _ := r.Error(t)
			return r.Status, key
		}
		if st, key := try("short", "1979-12-31"); st != http.StatusUnprocessableEntity || key == "portal.access_wrong" {
			t.Fatalf("a code of the wrong form: %d %s", st, key)
		}
		if st, key := try("ABCD-EFGH-JKMN", "1979-12-31"); st != http.StatusUnprocessableEntity || key != "portal.access_wrong" {
			t.Fatalf("an unknown code: %d %s", st, key)
		}
		if st, key := try(strings.ToLower(code), "1979-12-30"); st != http.StatusUnprocessableEntity || key != "portal.access_wrong" {
			t.Fatalf("a wrong birth date: %d %s", st, key)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM audit_events WHERE action = 'portal.sign_in' AND outcome = 'failure' AND actor_name = $1`, fmt.Sprintf("patient:%d", minh)).Scan(&n); err != nil || n != 1 {
			t.Fatalf("the wrong birth date audited %d times (%v)", n, err)
		}
		if st, _ := try(strings.ReplaceAll(code, "-", " "), "1979-12-31"); st != http.StatusOK {
			t.Fatalf("the right code and birth date: %d", st)
		}
		if r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", minh), nil); r.Status != http.StatusOK {
			t.Fatalf("signed in by access code: %d", r.Status)
		}
		// The per-record budget: five wrong birth dates, then even the right one waits.
		other := w.env.Client()
		other.Header.Set("X-Forwarded-For", "198.51.100.7") // no trusted proxy: ignored, all one address
		for i := 0; i < 4; i++ {
			if st, _ := try(code, "2000-01-01"); st != http.StatusUnprocessableEntity {
				t.Fatalf("wrong try %d: %d", i, st)
			}
		}
		if st, key := try(code, "2000-01-01"); st != http.StatusUnprocessableEntity && st != http.StatusTooManyRequests {
			t.Fatalf("fifth wrong try: %d %s", st, key)
		}
		if st, key := try(code, "1979-12-31"); st != http.StatusTooManyRequests || key != "portal.throttled" {
			t.Fatalf("the right one after five wrong: %d %s", st, key)
		}
	})
}

// TestPortalReachesOnlyItsRecords: a patient's session never opens another record by
// changing an id, on any route; a guardian sees the child (named in the audit) and only the
// child, until unlinked; revoking ends every session of the record at once; staff and portal
// sessions never stand in for each other.
func TestPortalReachesOnlyItsRecords(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		mai := w.patient(t, "Parent", "1980-05-05", map[string]any{"email": "mai@example.test"})
		child := w.patient(t, "Child", "2018-06-06", nil)
		stranger := w.patient(t, "Stranger", "1970-07-07", map[string]any{"email": "x@example.test"})
		unlinked := w.patient(t, "OtherChild", "2019-01-01", nil)
		strangerAppt := w.book(t, stranger, 72*time.Hour)
		for _, id := range []int64{mai, child, stranger, unlinked} {
			w.invite(t, id)
		}
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "Mai@Example.test"}); r.Status != http.StatusOK {
			t.Fatalf("link: %d %s", r.Status, r.Body)
		}
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "mai@example.test"}); r.Status != http.StatusConflict {
			t.Fatalf("the same link twice: %d", r.Status)
		}
		c := w.portalClient(t)
		s := w.signInByCode(t, c, "mai@example.test")
		if got := s.ids(); len(got) != 2 || got[0] != mai || got[1] != child || !s.Records[1].Guardian {
			t.Fatalf("records: %+v", s)
		}
		c.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", child), nil)
		var credential string
		if err := db.QueryRow(`SELECT credential FROM audit_events WHERE action = 'portal.appointments.read' AND actor_name = $1`, fmt.Sprintf("patient:%d", child)).Scan(&credential); err != nil ||
			!strings.Contains(credential, "guardian:") {
			t.Fatalf("the guardian's read: %q %v", credential, err)
		}
		// Every route, with another patient's id (or one that does not exist).
		for _, other := range []int64{stranger, unlinked, 999999} {
			for _, rt := range []struct{ method, path string }{
				{"GET", "/api/portal/records/%d/appointments"},
				{"GET", "/api/portal/records/%d/bills"},
				{"GET", "/api/portal/records/%d/contact"},
				{"PUT", "/api/portal/records/%d/contact"},
			} {
				if r := c.Do(rt.method, fmt.Sprintf(rt.path, other), map[string]any{"email": "evil@example.test", "version": 1}); r.Status != http.StatusNotFound {
					t.Errorf("%s %s as another: %d", rt.method, fmt.Sprintf(rt.path, other), r.Status)
				}
			}
			if r := c.Do("POST", fmt.Sprintf("/api/portal/records/%d/appointments/%d/cancel", other, strangerAppt), nil); r.Status != http.StatusNotFound {
				t.Errorf("cancel another's appointment: %d", r.Status)
			}
		}
		if r := c.Do("POST", fmt.Sprintf("/api/portal/records/%d/appointments/%d/cancel", mai, strangerAppt), nil); r.Status != http.StatusNotFound {
			t.Errorf("cancel another's appointment under one's own record: %d", r.Status)
		}
		var status string
		if err := db.QueryRow(`SELECT status FROM appointments WHERE id = $1`, strangerAppt).Scan(&status); err != nil || status != "booked" {
			t.Fatalf("the stranger's appointment: %q %v", status, err)
		}

		// Separation: a staff session opens no portal route, a portal session no staff route,
		// a bearer token no portal route.
		if r := w.rec.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", mai), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a staff session on the portal: %d", r.Status)
		}
		if r := c.Do("GET", fmt.Sprintf("/api/patients/%d", mai), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a portal session on the staff API: %d", r.Status)
		}
		staffToken := w.rec.Cookie(auth.SessionCookie)
		forged := w.env.Client()
		forged.SetCookie(auth.PortalCookie, staffToken)
		if r := forged.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", mai), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a staff token in the portal's cookie: %d", r.Status)
		}
		bearer := w.env.Client()
		bearer.Header.Set("Authorization", "Bearer "+staffToken)
		if r := bearer.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", mai), nil); r.Status != http.StatusForbidden {
			t.Errorf("a bearer token on the portal: %d", r.Status)
		}

		// Unlinking the guardian: the session no longer opens the child.
		var st struct {
			Guardians []struct{ ID int64 } `json:"guardians"`
			Sessions  int                  `json:"sessions"`
		}
		w.rec.Do("GET", fmt.Sprintf("/api/patients/%d/portal", child), nil).JSON(t, &st)
		if len(st.Guardians) != 1 || st.Sessions != 1 {
			t.Fatalf("child's access: %+v", st)
		}
		if r := w.rec.Do("DELETE", fmt.Sprintf("/api/patients/%d/portal/guardians/%d", child, st.Guardians[0].ID), nil); r.Status != http.StatusOK {
			t.Fatalf("unlink: %d %s", r.Status, r.Body)
		}
		if r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", child), nil); r.Status != http.StatusNotFound {
			t.Errorf("the child after unlinking: %d", r.Status)
		}
		// Revoking the parent's access ends their session at once.
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/revoke", mai), nil); r.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		if r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/contact", mai), nil); r.Status != http.StatusUnauthorized {
			t.Errorf("after revoking: %d", r.Status)
		}
		// And no code goes to the address any more (it opens nothing).
		var req struct {
			CodeID int64 `json:"code_id"`
		}
		c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": "mai@example.test"}).JSON(t, &req)
		before := len(w.smtp.Messages())
		if _, err := w.box.SendDue(context.Background()); err != nil || len(w.smtp.Messages()) != before {
			t.Fatalf("a code went after revoking (%v)", err)
		}
	})
}

// TestPortalSessionTimeouts: a session ends after 20 idle minutes, and after 8 hours used or
// not; signing in again rotates the token (the old one ends).
func TestPortalSessionTimeouts(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		id := w.patient(t, "Timeout", "1985-03-04", map[string]any{"email": "t@example.test"})
		w.invite(t, id)
		c := w.portalClient(t)
		w.signInByCode(t, c, "t@example.test")
		first := c.Cookie(auth.PortalCookie)
		w.signInByCode(t, c, "t@example.test")
		second := c.Cookie(auth.PortalCookie)
		ctx := context.Background()
		start := time.Now()
		store := func(at time.Time) *portal.Store {
			return &portal.Store{DB: db, Now: func() time.Time { return at }}
		}
		if first == second || first == "" {
			t.Fatalf("the token was not rotated")
		}
		if _, err := store(start).LookupPortal(ctx, first); err == nil {
			t.Fatalf("the old token still opens a session")
		}
		if _, err := store(start.Add(19*time.Minute)).LookupPortal(ctx, second); err != nil {
			t.Fatalf("after 19 idle minutes: %v", err)
		}
		if _, err := store(start.Add(19*time.Minute+auth.PortalIdle+time.Minute)).LookupPortal(ctx, second); err == nil {
			t.Fatalf("after 21 idle minutes: still signed in")
		}
		// Used every 15 minutes: alive until the eighth hour, then ended all the same.
		other := w.portalClient(t)
		w.signInByCode(t, other, "t@example.test")
		third := other.Cookie(auth.PortalCookie)
		start = time.Now()
		for at := start; at.Before(start.Add(auth.PortalLifetime - time.Minute)); at = at.Add(15 * time.Minute) {
			if _, err := store(at).LookupPortal(ctx, third); err != nil {
				t.Fatalf("used at %v: %v", at.Sub(start), err)
			}
		}
		if _, err := store(start.Add(auth.PortalLifetime+time.Minute)).LookupPortal(ctx, third); err == nil {
			t.Fatalf("past its lifetime: still signed in")
		}
	})
}

// TestANetworkLockedOutAfterTwentyFailures: a network's failed checks count together across
// access codes, one-time codes and records (the attacker's review, M4): after
// auth.PublicFailureLimit of them in an hour, every check from it is refused, a right one
// too, with Retry-After; another network is not; a right check counts nothing.
func TestANetworkLockedOutAfterTwentyFailures(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := withMail()
		cfg.TrustProxy = true // each client names its network in X-Forwarded-For
		w := newWorldWith(t, db, cfg)
		var access []string
		for i, name := range []string{"Ann", "Binh", "Chi"} {
			id := w.patient(t, name, "1980-01-0"+strconv.Itoa(i+1), map[string]any{"email": strings.ToLower(name) + "@example.test"})
			access = append(access, w.invite(t, id))
		}
		from := func(network string) *apitest.Client {
			c := w.portalClient(t)
			c.Header.Set("X-Forwarded-For", network)
			c.Do("GET", "/api/portal/session", nil)
			return c
		}
		x := from("203.0.113.50")
		ask := func(c *apitest.Client, address string) int64 {
			t.Helper()
			var req struct {
				CodeID int64 `json:"code_id"`
			}
			r := c.Do("POST", "/api/portal/sign-in/code", map[string]any{"channel": "email", "address": address, "language": "en"})
			if r.Status != http.StatusOK {
				t.Fatalf("ask for a code: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &req)
			return req.CodeID
		}
		// A right sign-in first: it counts nothing.
		w.signInByCode(t, x, "ann@example.test")
		// Ten wrong access codes (the network's access budget), then five wrong one-time
		// codes for each of two records: twenty failures.
		for range portal.AccessBlockLimit {
			if r := x.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": "ABCD-EFGH-JKMN", "birth_date": "1980-01-01"}); r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("a wrong access code: %d %s", r.Status, r.Body)
			}
		}
		for _, address := range []string{"ann@example.test", "binh@example.test"} {
			id := ask(x, address)
			for range 5 { // the code's tries: four wrong (422), the fifth spends it (409)
				if r := x.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", id), map[string]any{"code": "000000"}); r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusConflict {
					t.Fatalf("a wrong code: %d %s", r.Status, r.Body)
				}
			}
		}
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = 'public-failure:203.0.113.50'`); n != auth.PublicFailureLimit {
			t.Fatalf("failures counted %d, want %d", n, auth.PublicFailureLimit)
		}
		// The network is locked out: a third record's right code, and a right access code.
		id := ask(x, "chi@example.test")
		code := w.mailedCode(t, "chi@example.test")
		r := x.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", id), map[string]any{"code": code})
		if _, key, _ := r.Error(t); r.Status != http.StatusTooManyRequests || key != "portal.throttled" || r.Header.Get("Retry-After") == "" {
			t.Fatalf("a right code from a locked-out network: %d %s (Retry-After %q)", r.Status, r.Body, r.Header.Get("Retry-After"))
		}
		if retry, _ := strconv.Atoi(r.Header.Get("Retry-After")); retry < 30*60 {
			t.Fatalf("Retry-After %d s: the lock lasts the rest of the hour", retry)
		}
		if r := x.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": access[2], "birth_date": "1980-01-03"}); r.Status != http.StatusTooManyRequests {
			t.Fatalf("a right access code from a locked-out network: %d %s", r.Status, r.Body)
		}
		// Another network signs in with the same code: the lock is the network's, not the record's.
		y := from("198.51.100.60")
		if r := y.Do("POST", fmt.Sprintf("/api/portal/sign-in/code/%d", id), map[string]any{"code": code}); r.Status != http.StatusOK {
			t.Fatalf("the right code from another network: %d %s", r.Status, r.Body)
		}
	})
}
