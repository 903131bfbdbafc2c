package reminder_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"

	"github.com/coder/websocket"
)

// TestMessagesHoldOrGo: what a patient is sent follows what changed since it was written —
// a resend re-checks the appointment and the patient's channel and address; a change of the
// patient's reminders or address re-writes what still waits; a visit begun retires the links;
// an opt-out link shows no appointment; a name cannot add lines to an e-mail.
func TestMessagesHoldOrGo(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.NewWith(t, db, withSenders(true, false)) // e-mail goes; SMS is kept as failed
		env.CreateUser("doc", "doctor")
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		anon := env.Client()
		var docs struct {
			Data []struct{ ID int64 } `json:"data"`
		}
		rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
		doctor := docs.Data[0].ID
		day := time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
		type person struct {
			ID      int64  `json:"id"`
			Version int    `json:"version"`
			First   string `json:"first_name"`
			Phone   string `json:"phone"`
			Email   string `json:"email"`
		}
		newPatient := func(first string, fields map[string]any) person {
			body := map[string]any{"first_name": first, "last_name": "Hold", "birth_date": "1980-01-02", "sex": "female"}
			for k, v := range fields {
				body[k] = v
			}
			var p person
			r := rec.Do("POST", "/api/patients", body)
			if r.Status != http.StatusCreated {
				t.Fatalf("patient: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &p)
			return p
		}
		update := func(p person, fields map[string]any) person {
			var cur person
			rec.Do("GET", "/api/patients/"+strconv.FormatInt(p.ID, 10), nil).JSON(t, &cur)
			body := map[string]any{"first_name": cur.First, "last_name": "Hold", "birth_date": "1980-01-02", "sex": "female", "phone": cur.Phone,
				"email": cur.Email, "version": cur.Version}
			for k, v := range fields {
				body[k] = v
			}
			r := rec.Do("PUT", "/api/patients/"+strconv.FormatInt(p.ID, 10), body)
			if r.Status != http.StatusOK {
				t.Fatalf("update patient: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &cur)
			return cur
		}
		book := func(p person, at string) int64 {
			var a struct{ ID int64 }
			r := rec.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": doctor, "starts_at": at,
				"duration_minutes": 15, "type": "new"})
			if r.Status != http.StatusCreated {
				t.Fatalf("book: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &a)
			return a.ID
		}
		type row struct {
			id                     int64
			topic, status, to, why string
		}
		rows := func(appt int64) []row {
			q, err := db.Query(`SELECT id, topic, status, recipient, last_error FROM mail_outbox WHERE topic_id = $1 AND topic LIKE 'appointment.%' ORDER BY id`, appt)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			var out []row
			for q.Next() {
				var r row
				if err := q.Scan(&r.id, &r.topic, &r.status, &r.to, &r.why); err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
			return out
		}
		pending := func(appt int64) (n int, to []string) {
			for _, r := range rows(appt) {
				if r.status == mail.Pending {
					n++
					to = append(to, r.to)
				}
			}
			return n, to
		}
		resend := func(id int64) (int, string) {
			r := rec.Do("POST", "/api/messages/"+strconv.FormatInt(id, 10)+"/resend", nil)
			if r.Status == http.StatusNoContent {
				return r.Status, ""
			}
			msg, _, _ := r.Error(t)
			return r.Status, msg
		}

		// A failed booking SMS; then the phone changes: not sent again to the old number.
		sms := newPatient("Sms", map[string]any{"phone": "0901 000 111", "reminders": "sms"})
		a := book(sms, day+"T10:00:00Z")
		booked := rows(a)[0]
		if booked.topic != "appointment.booked" || booked.status != mail.Failed {
			t.Fatalf("booked: %+v", booked)
		}
		update(sms, map[string]any{"phone": "0902 222 333", "reminders": "sms"})
		if status, msg := resend(booked.id); status != http.StatusConflict || !strings.Contains(msg, "phone number has changed") {
			t.Errorf("resend to the old number: %d %q", status, msg)
		}
		// … and once the appointment is cancelled, "confirm or cancel" is not sent at all.
		if r := rec.Do("POST", "/api/appointments/"+strconv.FormatInt(a, 10)+"/cancel", map[string]any{"reason": "Called"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		if status, msg := resend(booked.id); status != http.StatusConflict || !strings.Contains(msg, "no longer holds") {
			t.Errorf("resend for a cancelled appointment: %d %q", status, msg)
		}

		// Reminders set to none after booking: what waits is withdrawn.
		quiet := newPatient("Quiet", map[string]any{"email": "quiet@example.test"})
		b := book(quiet, day+"T11:00:00Z")
		if n, _ := pending(b); n != 3 {
			t.Fatalf("after booking: %+v", rows(b))
		}
		update(quiet, map[string]any{"reminders": "none"})
		if n, _ := pending(b); n != 0 {
			t.Errorf("reminders none: still waiting %+v", rows(b))
		}

		// A new e-mail address: what waits goes to it, not to the old one.
		moved := newPatient("Moved", map[string]any{"email": "old@example.test"})
		c := book(moved, day+"T12:00:00Z")
		update(moved, map[string]any{"email": "new@example.test"})
		if n, to := pending(c); n != 3 || strings.Join(to, ",") != "new@example.test,new@example.test,new@example.test" {
			t.Errorf("after the new address: %+v", rows(c))
		}
		// A cancellation still waiting follows the new address too.
		gone := newPatient("Gone", map[string]any{"email": "old2@example.test"})
		g := book(gone, day+"T12:30:00Z")
		if r := rec.Do("POST", "/api/appointments/"+strconv.FormatInt(g, 10)+"/cancel", map[string]any{"reason": "Called"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		update(gone, map[string]any{"email": "new2@example.test"})
		if n, to := pending(g); n != 1 || to[0] != "new2@example.test" {
			t.Errorf("the cancellation after the new address: %+v", rows(g))
		}
		// A message resent unchanged still goes.
		first := rows(c)[len(rows(c))-3]
		if _, err := db.Exec(`UPDATE mail_outbox SET status = 'failed' WHERE id = $1`, first.id); err != nil {
			t.Fatal(err)
		}
		if status, msg := resend(first.id); status != http.StatusNoContent {
			t.Fatalf("resend what holds: %d %q", status, msg)
		}

		// Arrived: the links neither confirm nor cancel any more.
		soon := time.Now().UTC().Add(3 * time.Hour).Truncate(time.Minute).Format("2006-01-02T15:04:05Z")
		here := newPatient("Here", map[string]any{"email": "here@example.test"})
		d := book(here, soon)
		var body string
		if err := db.QueryRow(`SELECT body FROM mail_outbox WHERE topic = 'appointment.booked' AND topic_id = $1`, d).Scan(&body); err != nil {
			t.Fatal(err)
		}
		token := linkPattern.FindStringSubmatch(body)[1]
		stop := optOutPattern.FindStringSubmatch(body)[1]
		if r := rec.Do("POST", "/api/appointments/"+strconv.FormatInt(d, 10)+"/arrive", nil); r.Status != http.StatusOK {
			t.Fatalf("arrive: %d %s", r.Status, r.Body)
		}
		if r := anon.Do("POST", "/api/m/"+token+"/cancel", nil); r.Status != http.StatusConflict {
			t.Errorf("cancel after arriving: %d %s", r.Status, r.Body)
		}
		if _, err := db.Exec(`UPDATE message_links SET used_at = NULL, used_for = '' WHERE appointment_id = $1`, d); err != nil {
			t.Fatal(err)
		}
		for _, act := range []string{"cancel", "confirm"} {
			r := anon.Do("POST", "/api/m/"+token+"/"+act, nil)
			if msg, _, _ := r.Error(t); r.Status != http.StatusConflict || !strings.Contains(msg, "call the clinic") {
				t.Errorf("%s an arrived appointment by a link still unused: %d %s", act, r.Status, r.Body)
			}
		}
		// The opt-out link's page shows no appointment.
		var v view
		anon.Do("GET", "/api/m/"+stop, nil).JSON(t, &v)
		if v.State != "ok" || v.Date != "" || v.Time != "" || v.Status != "" {
			t.Errorf("opt-out page: %+v", v)
		}

		// A name with a line break is refused on input …
		if r := rec.Do("POST", "/api/patients", map[string]any{"first_name": "Eve\r\nBcc: all@example.test", "last_name": "Hold", "birth_date": "1980-01-02",
			"sex": "female", "email": "eve@example.test"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a name with a line break: %d %s", r.Status, r.Body)
		}
		// … and one already stored (an import) makes no lines of its own in the e-mail.
		odd := newPatient("Odd", map[string]any{"email": "odd@example.test"})
		if _, err := db.Exec(`UPDATE patients SET first_name = $1 WHERE id = $2`, "Eve\r\nBcc: all@example.test\n\nHello", odd.ID); err != nil {
			t.Fatal(err)
		}
		e := book(odd, day+"T13:00:00Z")
		if err := db.QueryRow(`SELECT body FROM mail_outbox WHERE topic = 'appointment.booked' AND topic_id = $1`, e).Scan(&body); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, "\nBcc") || strings.Contains(body, "\r") || !strings.Contains(body, "Eve Bcc: all@example.test Hello") {
			t.Errorf("name in the body: %q", body)
		}
	})
}

// TestLinkEventCarriesNoToken: the live event a patient's confirmation announces to the desk
// names the route, never the link's token (the patient's credential).
func TestLinkEventCarriesNoToken(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.NewWith(t, db, withSenders(true, false))
		env.CreateUser("doc", "doctor")
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		var docs struct {
			Data []struct{ ID int64 } `json:"data"`
		}
		rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
		var p struct{ ID int64 }
		rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Live", "birth_date": "1980-01-02", "sex": "male",
			"email": "live@example.test"}).JSON(t, &p)
		var a struct{ ID int64 }
		rec.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": docs.Data[0].ID,
			"starts_at": time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly) + "T10:00:00Z", "duration_minutes": 15, "type": "new"}).JSON(t, &a)
		var body string
		if err := db.QueryRow(`SELECT body FROM mail_outbox WHERE topic = 'appointment.booked' AND topic_id = $1`, a.ID).Scan(&body); err != nil {
			t.Fatal(err)
		}
		token := linkPattern.FindStringSubmatch(body)[1]

		var cfg struct{ Push struct{ Key string } }
		env.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := rec.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		read := func() (string, string) {
			t.Helper()
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Event string
				Data  json.RawMessage
			}
			_ = json.Unmarshal(b, &m)
			return m.Event, string(m.Data)
		}
		_, data := read()
		var s string
		_ = json.Unmarshal([]byte(data), &s)
		var established struct {
			SocketID string `json:"socket_id"`
		}
		_ = json.Unmarshal([]byte(s), &established)
		var auth struct{ Auth string }
		rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": "private-appointments"}).JSON(t, &auth)
		sub, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": "private-appointments", "auth": auth.Auth}})
		if err := c.Write(ctx, websocket.MessageText, sub); err != nil {
			t.Fatal(err)
		}
		if ev, _ := read(); ev != "pusher_internal:subscription_succeeded" {
			t.Fatalf("subscribe: %s", ev)
		}
		if r := env.Client().Do("POST", "/api/m/"+token+"/confirm", nil); r.Status != http.StatusOK {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}
		// The booking's own event may still be on its way (on PostgreSQL events travel through
		// NOTIFY after the commit): every appointment event is read until the confirmation's, and
		// none may carry the link's key.
		key := token[strings.LastIndex(token, ".")+1:]
		for {
			ev, data := read()
			if ev != "App.Events.AppointmentChanged" {
				continue
			}
			if strings.Contains(data, key) {
				t.Fatalf("event: %s", data)
			}
			if strings.Contains(data, "confirm") {
				return
			}
		}
	})
}
