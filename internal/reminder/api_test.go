package reminder_test

import (
	"context"
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
	"emr/internal/mail/mailtest"
)

type message struct {
	ID        int64  `json:"id"`
	Topic     string `json:"topic"`
	Channel   string `json:"channel"`
	To        string `json:"to"`
	Status    string `json:"status"`
	LastError string `json:"last_error"`
	DueAt     string `json:"due_at"`
}

type view struct {
	State     string `json:"state"`
	UsedFor   string `json:"used_for"`
	Language  string `json:"language"`
	Clinic    string `json:"clinic"`
	Date      string `json:"date"`
	Time      string `json:"time"`
	Status    string `json:"status"`
	Confirmed bool   `json:"confirmed"`
	CanCancel bool   `json:"can_cancel"`
}

// smsSink is a local SMS gateway that records the texts it got.
type smsSink struct {
	mu    sync.Mutex
	texts []map[string]string
}

func (s *smsSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]string
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	s.texts = append(s.texts, body)
	s.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

func (s *smsSink) got() []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]string(nil), s.texts...)
}

var linkPattern = regexp.MustCompile(`/m/([0-9]+\.[0-9]+\.appointment\.[^ \s.]+\.[0-9a-f]{32})`)
var optOutPattern = regexp.MustCompile(`/m/([0-9]+\.[0-9]+\.optout\.[^ \s.]+\.[0-9a-f]{32})`)

// TestAppointmentMessages: what a patient is told of their appointment, by the channel and in
// the language they chose, through a real SMTP server and a local SMS gateway; the link that
// confirms once; a change or a cancellation withdrawing what no longer holds.
func TestAppointmentMessages(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		env := apitest.NewWith(t, db, withSenders(true, true))
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		env.CreateUser("doc", "doctor")
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Sunrise Clinic", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("clinic: %d %s", r.Status, r.Body)
		}
		var docs struct {
			Data []struct{ ID int64 } `json:"data"`
		}
		rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
		doctor := docs.Data[0].ID
		day := time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
		newPatient := func(last string, fields map[string]any) int64 {
			body := map[string]any{"first_name": "An", "last_name": last, "birth_date": "1980-01-02", "sex": "male"}
			for k, v := range fields {
				body[k] = v
			}
			var p struct{ ID int64 }
			r := rec.Do("POST", "/api/patients", body)
			if r.Status != http.StatusCreated {
				t.Fatalf("patient: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &p)
			return p.ID
		}
		type appt struct {
			ID          int64   `json:"id"`
			Version     int     `json:"version"`
			ConfirmedAt *string `json:"confirmed_at"`
			Status      string  `json:"status"`
		}
		book := func(patientID int64, clock string) appt {
			var a appt
			r := rec.Do("POST", "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": doctor, "starts_at": day + "T" + clock + ":00Z",
				"duration_minutes": 15, "type": "new", "reason": "Cough and fever"})
			if r.Status != http.StatusCreated {
				t.Fatalf("book: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &a)
			return a
		}
		messages := func(id int64) []message {
			var out struct{ Data []message }
			rec.Do("GET", "/api/appointments/"+strconv.FormatInt(id, 10)+"/messages", nil).JSON(t, &out)
			return out.Data
		}
		count := func(list []message, topic, status string) int {
			n := 0
			for _, m := range list {
				if m.Topic == topic && m.Status == status {
					n++
				}
			}
			return n
		}
		smtp := mailtest.Start(t)
		sink := &smsSink{}
		gatewaySrv := httptest.NewServer(sink)
		defer gatewaySrv.Close()
		gateway, _ := mail.ParseSMS(gatewaySrv.URL)
		box := &mail.Outbox{DB: db, Server: smtp.Client(mailtest.Password), SMS: gateway, Domain: "clinic.test"}
		anon := env.Client()

		// An e-mail patient who reads Vietnamese.
		an := newPatient("Email", map[string]any{"email": "an@example.test", "message_language": "vi"})
		a := book(an, "10:00")
		list := messages(a.ID)
		if len(list) != 3 || count(list, "appointment.booked", mail.Pending) != 1 || count(list, "appointment.reminder", mail.Pending) != 2 ||
			list[0].Channel != mail.Email || strings.Contains(list[0].To, "an@example.test") {
			t.Fatalf("after booking: %+v", list)
		}
		if n, err := box.SendDue(ctx); n != 1 || err != nil {
			t.Fatalf("sent %d now: %v (the reminders wait for their time)", n, err)
		}
		got := smtp.Messages()
		if len(got) != 1 || got[0].To[0] != "an@example.test" {
			t.Fatalf("received %+v", got)
		}
		body := decodeQP(got[0].Data)
		if !strings.Contains(body, "Sunrise Clinic") || !strings.Contains(body, "Xin chào") || strings.Contains(body, "Cough") {
			t.Fatalf("confirmation: %s", body)
		}
		token := linkPattern.FindStringSubmatch(body)
		if token == nil || optOutPattern.FindStringSubmatch(body) == nil {
			t.Fatalf("no link or no opt-out link in %s", body)
		}
		var v view
		anon.Do("GET", "/api/m/"+token[1], nil).JSON(t, &v)
		if v.State != "ok" || v.Language != "vi" || v.Clinic != "Sunrise Clinic" || v.Date != day || v.Time != "10:00" || !v.CanCancel || v.Confirmed {
			t.Fatalf("link page: %+v", v)
		}
		tampered := token[1][:len(token[1])-1] + map[bool]string{true: "0", false: "1"}[!strings.HasSuffix(token[1], "0")]
		anon.Do("GET", "/api/m/"+tampered, nil).JSON(t, &v)
		if v.State != "invalid" {
			t.Fatalf("tampered: %+v", v)
		}
		if r := anon.Do("POST", "/api/m/"+tampered+"/confirm", nil); r.Status != http.StatusConflict {
			t.Fatalf("tampered confirm: %d", r.Status)
		}
		if r := anon.Do("POST", "/api/m/"+token[1]+"/confirm", nil); r.Status != http.StatusOK {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}
		var after appt
		rec.Do("GET", "/api/appointments/"+strconv.FormatInt(a.ID, 10), nil).JSON(t, &after)
		if after.ConfirmedAt == nil {
			t.Fatalf("not confirmed: %+v", after)
		}
		var actor string
		if err := db.QueryRow(`SELECT actor_name FROM audit_events WHERE action = 'appointment.confirm' AND entity_id = $1`, strconv.FormatInt(a.ID, 10)).Scan(&actor); err != nil ||
			actor != "patient:"+strconv.FormatInt(an, 10) {
			t.Fatalf("audit: %q %v", actor, err)
		}
		if r := anon.Do("POST", "/api/m/"+token[1]+"/confirm", nil); r.Status != http.StatusConflict {
			t.Fatalf("the same link twice: %d", r.Status)
		}
		anon.Do("GET", "/api/m/"+token[1], nil).JSON(t, &v)
		if v.State != "used" || v.UsedFor != "confirm" {
			t.Fatalf("used link: %+v", v)
		}

		// Moved: the reminders for the old time are withdrawn, the confirmation undone.
		if r := rec.Do("PUT", "/api/appointments/"+strconv.FormatInt(a.ID, 10), map[string]any{"version": after.Version, "doctor_id": doctor,
			"starts_at": day + "T11:00:00Z", "duration_minutes": 15, "type": "new", "reason": "Cough and fever"}); r.Status != http.StatusOK {
			t.Fatalf("move: %d %s", r.Status, r.Body)
		}
		list = messages(a.ID)
		if count(list, "appointment.reminder", mail.Cancelled) != 2 || count(list, "appointment.reminder", mail.Pending) != 2 || count(list, "appointment.changed", mail.Pending) != 1 {
			t.Fatalf("after moving: %+v", list)
		}
		rec.Do("GET", "/api/appointments/"+strconv.FormatInt(a.ID, 10), nil).JSON(t, &after)
		if after.ConfirmedAt != nil {
			t.Fatal("a moved appointment still confirmed")
		}
		// Cancelled: nothing waiting goes, the cancellation does.
		if r := rec.Do("POST", "/api/appointments/"+strconv.FormatInt(a.ID, 10)+"/cancel", map[string]any{"reason": "Doctor away"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		list = messages(a.ID)
		if count(list, "appointment.reminder", mail.Pending) != 0 || count(list, "appointment.changed", mail.Pending) != 0 || count(list, "appointment.cancelled", mail.Pending) != 1 {
			t.Fatalf("after cancelling: %+v", list)
		}

		// An SMS patient: clinic, date, time and a link, nothing clinical.
		binh := newPatient("Sms", map[string]any{"phone": "+84 90 123 4567", "reminders": "sms"})
		b := book(binh, "14:00")
		if _, err := box.SendDue(ctx); err != nil { // an's cancellation and binh's confirmation
			t.Fatal(err)
		}
		texts := sink.got()
		var sms map[string]string
		for _, x := range texts {
			if x["to"] == "+84 90 123 4567" {
				sms = x
			}
		}
		if sms == nil || !strings.Contains(sms["text"], "Sunrise Clinic") || !strings.Contains(sms["text"], "14:00") || strings.Contains(sms["text"], "Cough") ||
			strings.Contains(sms["text"], "Test doc") || linkPattern.FindString(sms["text"]) == "" {
			t.Fatalf("sms: %+v (all: %+v)", sms, texts)
		}
		// Opting out from the SMS withdraws the reminders still waiting and stops the next.
		stop := optOutPattern.FindStringSubmatch(sms["text"])
		if r := anon.Do("POST", "/api/m/"+stop[1]+"/optout", nil); r.Status != http.StatusOK {
			t.Fatalf("opt out: %d %s", r.Status, r.Body)
		}
		if list := messages(b.ID); count(list, "appointment.reminder", mail.Pending) != 0 || count(list, "appointment.reminder", mail.Cancelled) != 2 {
			t.Fatalf("after opting out: %+v", list)
		}
		var reminders string
		rec.Do("GET", "/api/patients/"+strconv.FormatInt(binh, 10), nil)
		if err := db.QueryRow(`SELECT reminders FROM patients WHERE id = $1`, binh).Scan(&reminders); err != nil || reminders != "none" {
			t.Fatalf("reminders after opting out: %q %v", reminders, err)
		}
		// The opt-out link cannot confirm.
		if r := anon.Do("POST", "/api/m/"+stop[1]+"/confirm", nil); r.Status != http.StatusConflict {
			t.Fatalf("opt-out link confirming: %d", r.Status)
		}

		// A patient who wants none gets nothing.
		chi := newPatient("None", map[string]any{"email": "chi@example.test", "reminders": "none"})
		if list := messages(book(chi, "15:00").ID); len(list) != 0 {
			t.Fatalf("reminders none: %+v", list)
		}
		// E-mail chosen but the address gone (a record from before the rule): kept as no_address.
		dung := newPatient("NoAddress", map[string]any{"email": "dung@example.test"})
		if _, err := db.Exec(`UPDATE patients SET email = '' WHERE id = $1`, dung); err != nil {
			t.Fatal(err)
		}
		if list := messages(book(dung, "16:00").ID); count(list, "appointment.booked", mail.NoAddress) != 1 {
			t.Fatalf("no address: %+v", list)
		}

		// The cancellation window: too late, refused, and the link still works for confirming.
		e := newPatient("Window", map[string]any{"email": "em@example.test"})
		late := book(e, "17:00")
		if r := admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"reminders": true, "offsets_minutes": []int{1440, 120}, "quiet_start": "21:00",
			"quiet_end": "08:00", "cancel_hours": 24 * 5, "email": true, "sms": true, "language": "en", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		_, _ = box.SendDue(ctx)
		var link string
		for _, m := range smtp.Messages() {
			if m.To[0] == "em@example.test" {
				link = linkPattern.FindStringSubmatch(decodeQP(m.Data))[1]
			}
		}
		anon.Do("GET", "/api/m/"+link, nil).JSON(t, &v)
		if v.CanCancel {
			t.Fatalf("cancellable inside the window: %+v", v)
		}
		if r := anon.Do("POST", "/api/m/"+link+"/cancel", nil); r.Status != http.StatusConflict {
			t.Fatalf("late cancel: %d", r.Status)
		}
		if r := anon.Do("POST", "/api/m/"+link+"/confirm", nil); r.Status != http.StatusOK {
			t.Fatalf("confirm after a refused cancel: %d %s", r.Status, r.Body)
		}
		rec.Do("GET", "/api/appointments/"+strconv.FormatInt(late.ID, 10), nil).JSON(t, &after)
		if after.Status != "booked" || after.ConfirmedAt == nil {
			t.Fatalf("after: %+v", after)
		}
	})
}

// withSenders is the test server's configuration with a mail server and an SMS gateway named
// (the test sends through its own outbox; the server's worker does not run in tests).
func withSenders(email, sms bool) config.Config {
	cfg := apitest.Config()
	if email {
		cfg.SMTPURL, cfg.SMTPFrom = "smtp://127.0.0.1:1", "emr@clinic.test"
	}
	if sms {
		cfg.SMSURL = "http://127.0.0.1:1/sms"
	}
	return cfg
}

// decodeQP undoes the quoted-printable soft breaks and escapes of a received message.
func decodeQP(data string) string {
	_, body, _ := strings.Cut(strings.ReplaceAll(data, "\r\n", "\n"), "\n\n")
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
	if err != nil {
		return data
	}
	return string(b)
}

// TestMessageLog: the log lists messages masked, filters them, and sends a failed one again
// (audited); one that has not failed is refused.
func TestMessageLog(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.NewWith(t, db, withSenders(true, false)) // a mail server, no SMS gateway
		env.CreateUser("doc", "doctor")
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
		var docs struct {
			Data []struct{ ID int64 } `json:"data"`
		}
		rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
		var p struct{ ID int64 }
		rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Log", "birth_date": "1980-01-02", "sex": "male",
			"email": "log@example.test"}).JSON(t, &p)
		day := time.Now().UTC().AddDate(0, 0, 3).Format(time.DateOnly)
		if r := rec.Do("POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": docs.Data[0].ID, "starts_at": day + "T10:00:00Z",
			"duration_minutes": 15, "type": "new"}); r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		type page struct {
			Data []struct {
				message
				Patient string `json:"patient"`
			} `json:"data"`
		}
		var all page
		rec.Do("GET", "/api/messages", nil).JSON(t, &all)
		if len(all.Data) != 3 || all.Data[0].To != "l•••@example.test" || all.Data[0].Patient == "" {
			t.Fatalf("log: %+v", all)
		}
		var booked page
		rec.Do("GET", "/api/messages?status=pending&channel=email&from="+time.Now().UTC().Format(time.DateOnly), nil).JSON(t, &booked)
		if len(booked.Data) != 3 {
			t.Fatalf("filtered: %+v", booked)
		}
		var none page
		rec.Do("GET", "/api/messages?channel=sms", nil).JSON(t, &none)
		if len(none.Data) != 0 {
			t.Fatalf("sms: %+v", none)
		}
		if r := rec.Do("GET", "/api/messages?status=lost", nil); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("bad status: %d", r.Status)
		}
		if r := nurse.Do("GET", "/api/messages", nil); r.Status != http.StatusForbidden {
			t.Fatalf("nurse: %d", r.Status)
		}
		id := all.Data[len(all.Data)-1].ID
		if r := rec.Do("POST", "/api/messages/"+strconv.FormatInt(id, 10)+"/resend", nil); r.Status != http.StatusConflict {
			t.Fatalf("resend a pending one: %d", r.Status)
		}
		if _, err := db.Exec(`UPDATE mail_outbox SET status = 'failed', last_error = 'refused' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		if r := rec.Do("POST", "/api/messages/"+strconv.FormatInt(id, 10)+"/resend", nil); r.Status != http.StatusNoContent {
			t.Fatalf("resend: %d %s", r.Status, r.Body)
		}
		var status string
		if err := db.QueryRow(`SELECT status FROM mail_outbox WHERE id = $1`, id).Scan(&status); err != nil || status != "pending" {
			t.Fatalf("after resend: %q %v", status, err)
		}
		// SMS chosen while the clinic gave no gateway: kept as failed, saying why, to send again later.
		var sp struct{ ID int64 }
		rec.Do("POST", "/api/patients", map[string]any{"first_name": "Bình", "last_name": "Sms", "birth_date": "1980-01-02", "sex": "male",
			"phone": "0901 000 111", "reminders": "sms"}).JSON(t, &sp)
		if r := rec.Do("POST", "/api/appointments", map[string]any{"patient_id": sp.ID, "doctor_id": docs.Data[0].ID, "starts_at": day + "T11:00:00Z",
			"duration_minutes": 15, "type": "new"}); r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		var failed page
		rec.Do("GET", "/api/messages?status=failed&channel=sms", nil).JSON(t, &failed)
		if len(failed.Data) != 3 || !strings.Contains(failed.Data[0].LastError, "--sms-url") {
			t.Fatalf("no gateway: %+v", failed)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM audit_events WHERE action = 'message.resend'`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("audit: %d %v", n, err)
		}
	})
}

// TestSMSCodeSettings: the clinic's rules for codes by SMS (the attacker's review, C4) are
// checked, in the caller's language; defaults text only the clinic's own country, 30 an hour
// and 200 a day; a save that leaves the new fields out keeps them.
func TestSMSCodeSettings(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.NewWith(t, db, withSenders(true, true))
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		admin.Header.Set("Accept-Language", "vi")
		type sms struct {
			Countries []string `json:"sms_code_countries"`
			Hour      int      `json:"sms_codes_per_hour"`
			Day       int      `json:"sms_codes_per_day"`
			Version   int      `json:"version"`
		}
		var got sms
		admin.Do("GET", "/api/settings/patient-messages", nil).JSON(t, &got)
		if len(got.Countries) != 0 || got.Hour != 30 || got.Day != 200 {
			t.Fatalf("defaults: %+v", got)
		}
		for _, c := range []struct {
			name   string
			change map[string]any
			field  string
		}{
			{"a code too long", map[string]any{"sms_code_countries": []string{"8490"}}, "sms_code_countries"},
			{"not a code of its own", map[string]any{"sms_code_countries": []string{"8"}}, "sms_code_countries"},
			{"letters", map[string]any{"sms_code_countries": []string{"4x"}}, "sms_code_countries"},
			{"a leading zero", map[string]any{"sms_code_countries": []string{"044"}}, "sms_code_countries"},
			{"a negative cap", map[string]any{"sms_codes_per_hour": -1}, "sms_codes_per_hour"},
			{"a cap too high", map[string]any{"sms_codes_per_day": 10001}, "sms_codes_per_day"},
			{"the day below the hour", map[string]any{"sms_codes_per_hour": 50, "sms_codes_per_day": 40}, "sms_codes_per_day"},
		} {
			body := map[string]any{"version": got.Version}
			for k, v := range c.change {
				body[k] = v
			}
			r := admin.Do("PUT", "/api/settings/patient-messages", body)
			if r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("%s: %d %s", c.name, r.Status, r.Body)
			}
			if _, _, fields := r.Error(t); len(fields[c.field]) == 0 || !strings.Contains(strings.ToLower(fields[c.field][0]), "vui lòng") && c.field == "sms_code_countries" {
				t.Fatalf("%s: fields %v", c.name, fields)
			}
		}
		r := admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"sms_code_countries": []string{"+7", " 44", "7"}, "sms_codes_per_hour": 10,
			"sms_codes_per_day": 50, "version": got.Version})
		if r.Status != http.StatusOK {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if strings.Join(got.Countries, ",") != "44,7" || got.Hour != 10 || got.Day != 50 {
			t.Fatalf("saved: %+v", got)
		}
		// A save from before these fields (the old page, a script) keeps them.
		r = admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"reminders": false, "version": got.Version})
		if r.Status != http.StatusOK {
			t.Fatalf("save without them: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if strings.Join(got.Countries, ",") != "44,7" || got.Hour != 10 || got.Day != 50 {
			t.Fatalf("a save without them: %+v", got)
		}
		// No version: a conflict, never a blind overwrite.
		if r := admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"sms_codes_per_hour": 5}); r.Status != http.StatusConflict {
			t.Fatalf("no version: %d %s", r.Status, r.Body)
		}
	})
}
