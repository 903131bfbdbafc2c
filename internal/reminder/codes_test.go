package reminder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/mail"
	"emr/internal/secret"
	"emr/internal/settings"
)

func TestNormaliseAddress(t *testing.T) {
	for _, c := range []struct{ channel, in, want string }{
		{mail.Email, "  Lan.Nguyen@Example.COM ", "lan.nguyen@example.com"},
		{mail.Email, "not an address", ""},
		{mail.SMS, "+84 912 345 678", "+84912345678"},
		{mail.SMS, "0912-345-678", "0912345678"},
		{mail.SMS, "8 (912) 345-67-89", "89123456789"},
		{mail.SMS, "12345", ""},              // too short to be a number
		{mail.SMS, "+1234567890123456", ""},  // longer than E.164
		{mail.SMS, "0912 345 678; drop", ""}, // letters are not a number
		{"fax", "0912 345 678", ""},          // no such channel
	} {
		got, err := NormaliseAddress(c.channel, c.in)
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("%s %q: %q %v, want %q", c.channel, c.in, got, err, c.want)
		}
	}
}

// clinicIn saves the clinic's own phone number, which names its country, as an
// administrator it writes; it answers that administrator's audit event, for other settings.
func clinicIn(t *testing.T, db *database.DB, phone string) audit.Event {
	t.Helper()
	e := audit.Event{ActorName: "settings-admin"}
	if err := db.QueryRowContext(context.Background(), `INSERT INTO users (username, name, password_hash, active, created_at, updated_at)
		VALUES ('settings-admin', 'Settings', 'x', TRUE, $1, $1) RETURNING id`, time.Now().UTC()).Scan(&e.ActorID); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.SaveClinic(context.Background(), db, e, settings.Clinic{Name: "Bình Minh Clinic", Phone: phone}); err != nil {
		t.Fatal(err)
	}
	return e
}

// sentCode reads the code the outbox holds for code id (what the patient's phone would show).
func sentCode(t *testing.T, db *database.DB, id int64) (lang, body string, code string) {
	t.Helper()
	var subject string
	if err := db.QueryRowContext(context.Background(), `SELECT subject, body FROM mail_outbox WHERE topic = $1 AND topic_id = $2`, TopicCode, id).Scan(&subject, &body); err != nil {
		t.Fatalf("the code's message: %v", err)
	}
	m := regexp.MustCompile(`\b\d{6}\b`).FindString(body)
	return subject, body, m
}

// TestOneTimeCodes: a code is sent in the patient's language, held only as a keyed hash,
// good once for ten minutes and five tries, only for its own purpose; a wrong try counts even when the caller's own
// transaction is rolled back; requests are throttled per address (however the number is
// written) and per network.
func TestOneTimeCodes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		s := &Service{DB: db, Ring: secret.Ephemeral(), Now: func() time.Time { return now }}
		clinicIn(t, db, "+84 28 3822 1234") // a clinic in Vietnam: its numbers get codes by SMS
		send := func(r CodeRequest) (int64, error) { return s.SendCode(ctx, r, nil) }
		id, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: "Lan@Example.com", Language: "vi", Client: "203.0.113.5"})
		if err != nil {
			t.Fatal(err)
		}
		subject, body, code := sentCode(t, db, id)
		if code == "" || !strings.Contains(subject, "Mã xác nhận") || !strings.Contains(body, "10 phút") {
			t.Fatalf("message: %q %q", subject, body)
		}
		var mac string
		if err := db.QueryRowContext(ctx, `SELECT code_mac FROM patient_codes WHERE id = $1`, id).Scan(&mac); err != nil || strings.Contains(mac, code) || mac == "" {
			t.Fatalf("kept as %q (%v)", mac, err)
		}
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		_, err = s.CheckCode(ctx, id, CodePortal, wrong, nil)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Key != "reminder.code_wrong" || ae.Kind != apperr.KindInvalid {
			t.Fatalf("wrong code: %v", err)
		}
		c, err := s.CheckCode(ctx, id, CodePortal, " "+code+" ", nil)
		if err != nil || c.Purpose != CodePortal || c.Address != "lan@example.com" || c.Channel != mail.Email || c.ID != id {
			t.Fatalf("right code: %+v %v", c, err)
		}
		if _, err := s.CheckCode(ctx, id, CodePortal, code, nil); !errors.As(err, &ae) || ae.Key != "reminder.code_expired" {
			t.Fatalf("used twice: %v", err)
		}
		if _, body, _ := sentCode(t, db, id); body != "" {
			t.Fatalf("the used code's text is kept: %q", body)
		}

		// Five wrong tries spend it, the right code after them included.
		id, err = send(CodeRequest{Purpose: CodeBook, Channel: mail.SMS, Address: "+84 912 345 678", Language: "ru", Client: "203.0.113.5"})
		if err != nil {
			t.Fatal(err)
		}
		_, body, code = sentCode(t, db, id)
		if !strings.Contains(body, "ваш код "+code) || strings.Contains(body, "http") {
			t.Fatalf("SMS: %q", body)
		}
		for i := 1; i <= CodeTries; i++ {
			_, err := s.CheckCode(ctx, id, CodeBook, strconv.Itoa(100000+i), nil)
			if i < CodeTries && (!errors.As(err, &ae) || ae.Key != "reminder.code_wrong" || ae.Args[0] != CodeTries-i) {
				t.Fatalf("try %d: %v", i, err)
			}
			if i == CodeTries && (!errors.As(err, &ae) || ae.Key != "reminder.code_expired") {
				t.Fatalf("last try: %v", err)
			}
		}
		if _, err := s.CheckCode(ctx, id, CodeBook, code, nil); !errors.As(err, &ae) || ae.Key != "reminder.code_expired" {
			t.Fatalf("right code after five wrong: %v", err)
		}

		// What the code holds is written with it; what it was for is done with its use, and
		// undone with it: a failed action leaves the code unspent, a wrong try counted.
		held := int64(0)
		id, err = send(CodeRequest{Purpose: CodeBook, Channel: mail.Email, Address: "b@example.com", Client: "198.51.100.1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SendCode(ctx, CodeRequest{Purpose: CodeBook, Channel: mail.Email, Address: "b@example.com", Client: "198.51.100.1"},
			func(*sql.Tx, int64) error { return errors.New("the slot was taken") }); err == nil {
			t.Fatal("a failed hold sent a code")
		}
		// Checked for another purpose (the portal's sign-in given a booking code's id), it is
		// unknown there, and the try is not counted against its holder.
		for range CodeTries {
			if _, err := s.CheckCode(ctx, id, CodePortal, "999999", func(*sql.Tx, Code) error { held++; return nil }); !errors.As(err, &ae) || ae.Key != "reminder.code_expired" || held != 0 {
				t.Fatalf("checked for another purpose: %v %d", err, held)
			}
		}
		if _, err := s.CheckCode(ctx, id, CodeBook, "999999", func(*sql.Tx, Code) error { held++; return nil }); err == nil || held != 0 {
			t.Fatalf("a wrong code acted: %v %d", err, held)
		}
		_, _, code = sentCode(t, db, id)
		if _, err := s.CheckCode(ctx, id, CodeBook, code, func(*sql.Tx, Code) error { return errors.New("the slot was taken") }); err == nil {
			t.Fatal("a failed action passed")
		}
		c, err = s.CheckCode(ctx, id, CodeBook, code, func(tx *sql.Tx, c Code) error { held = c.ID; return nil })
		if err != nil || held != id {
			t.Fatalf("the code after a failed action: %v %d", err, held)
		}
		var tries, codes int
		if err := db.QueryRowContext(ctx, `SELECT tries FROM patient_codes WHERE id = $1`, id).Scan(&tries); err != nil || tries != 1 {
			t.Fatalf("tries: %d %v", tries, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM patient_codes WHERE address = 'b@example.com'`).Scan(&codes); err != nil || codes != 1 {
			t.Fatalf("codes written with a failed hold: %d %v", codes, err)
		}

		// Ten minutes later the code is gone, and its message with it.
		id, _ = send(CodeRequest{Purpose: CodeBook, Channel: mail.Email, Address: "c@example.com", Client: "198.51.100.1"})
		_, _, code = sentCode(t, db, id)
		now = now.Add(CodeLifetime)
		if _, err := s.CheckCode(ctx, id, CodeBook, code, nil); !errors.As(err, &ae) || ae.Key != "reminder.code_expired" {
			t.Fatalf("expired: %v", err)
		}

		// Throttled per address, however the number is written, and per network.
		for i := 0; i < CodeAddressLimit; i++ {
			addr := []string{"+84 913 000 111", "0913 000 111", "0084913000111"}[i%3]
			if _, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.SMS, Address: addr, Client: "192.0.2." + strconv.Itoa(i+1)}); err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
		}
		if _, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.SMS, Address: "+84913000111", Client: "192.0.2.99"}); !errors.As(err, &ae) || ae.Key != "reminder.code_throttled" {
			t.Fatalf("sixth code to one number: %v", err)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM patient_codes WHERE address LIKE '%913000111'`).Scan(&n); err != nil || n != CodeAddressLimit {
			t.Fatalf("codes written: %d %v", n, err)
		}
		for i := 0; i < CodeBlockLimit; i++ {
			_, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: "p" + strconv.Itoa(i) + "@example.com", Client: "2001:db8:1:2::" + strconv.Itoa(i+1)})
			if err != nil && !errors.As(err, &ae) {
				t.Fatal(err)
			}
			if err != nil {
				t.Fatalf("request %d from one network: %v", i, err)
			}
		}
		if _, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: "q@example.com", Client: "2001:db8:1:2::ff"}); !errors.As(err, &ae) || ae.Key != "reminder.code_throttled" {
			t.Fatalf("one network over its limit: %v", err)
		}
		if _, err := send(CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: "q@example.com", Client: "2001:db8:9::1"}); err != nil {
			t.Fatalf("another network: %v", err)
		}
	})
}

// TestSMSCountry: a code by SMS goes only to a number of the clinic's country or of one it
// lists, and to the number as checked (international form), whatever prefix it was typed
// with; a domestic number while the clinic's country is unknown is refused (fails closed).
func TestSMSCountry(t *testing.T) {
	for _, c := range []struct {
		number, home string
		others       []string
		want         string // "" refused
	}{
		{"0912345678", "84", nil, "+84912345678"},
		{"+84912345678", "84", nil, "+84912345678"},
		{"0084912345678", "84", nil, "+84912345678"},
		{"+79123456789", "84", nil, ""},                       // Russia, not listed
		{"+79123456789", "84", []string{"7"}, "+79123456789"}, // listed
		{"0079123456789", "84", nil, ""},                      // international by 00
		{"+4490612345678", "84", nil, ""},                     // a UK premium-rate number
		{"+88213123456", "84", nil, ""},                       // an international network (882)
		{"+2399912345", "84", []string{"7", "44"}, ""},        // São Tomé: not listed
		{"+1876555123", "1", nil, "+1876555123"},              // NANP is one code: the clinic's own
		{"0912345678", "", nil, ""},                           // the clinic's country unknown
		{"0912345678", "", []string{"84"}, ""},                // still unknown: a domestic number is anyone's
		{"+84912345678", "", []string{"84"}, "+84912345678"},  // listed, written internationally
		{"89123456789", "7", nil, "+79123456789"},             // Russian trunk prefix 8
	} {
		got, err := SMSCountry(c.number, c.home, c.others)
		var ae *apperr.Error
		if got != c.want || (c.want == "") != (err != nil) || (err != nil && (!errors.As(err, &ae) || ae.Key != "reminder.code_sms_country" || ae.Kind != apperr.KindInvalid)) {
			t.Errorf("%s (home %q, %v): %q %v, want %q", c.number, c.home, c.others, got, err, c.want)
		}
	}
}

// TestSMSCodeCaps: past the clinic's caps per hour and per day, codes by SMS are refused
// (429), a decoy's as a real one's, while codes by e-mail still go; the administrators are
// told once a window by an audit event; a number abroad is refused before any throttle.
func TestSMSCodeCaps(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		s := &Service{DB: db, Ring: secret.Ephemeral(), Now: func() time.Time { return now }}
		admin := clinicIn(t, db, "+84 28 3822 1234")
		set := Defaults()
		set.SMSCodesPerHour, set.SMSCodesPerDay = 3, 5
		if _, err := SaveSettings(ctx, db, admin, set); err != nil {
			t.Fatal(err)
		}
		var ae *apperr.Error
		sms := func(i int, decoy bool) error {
			r := CodeRequest{Purpose: CodePortal, Channel: mail.SMS, Address: "0913 000 " + strconv.Itoa(100+i), Client: "198.51.100." + strconv.Itoa(i)}
			var err error
			if decoy {
				_, err = s.SendDecoy(ctx, r)
			} else {
				_, err = s.SendCode(ctx, r, nil)
			}
			return err
		}
		// A foreign number: refused (422), counted nowhere.
		if _, err := s.SendCode(ctx, CodeRequest{Purpose: CodeBook, Channel: mail.SMS, Address: "+44 906 123 4567", Client: "198.51.100.1"}, nil); !errors.As(err, &ae) || ae.Key != "reminder.code_sms_country" {
			t.Fatalf("a premium number abroad: %v", err)
		}
		for i := range 3 {
			if err := sms(i, i == 1); err != nil {
				t.Fatalf("SMS code %d: %v", i, err)
			}
		}
		var to string
		if err := db.QueryRowContext(ctx, `SELECT recipient FROM mail_outbox WHERE topic = $1 ORDER BY id LIMIT 1`, TopicCode).Scan(&to); err != nil || to != "+84913000100" {
			t.Fatalf("texted to %q (%v), want the number as checked", to, err)
		}
		for i := 3; i < 5; i++ { // over the hour's cap, real or decoy alike
			if err := sms(i, i == 4); !errors.As(err, &ae) || ae.Key != "reminder.code_sms_cap" || ae.Kind != apperr.KindThrottled || ae.RetryAfterSeconds < 1 {
				t.Fatalf("SMS code %d past the cap: %v", i, err)
			}
		}
		if _, err := s.SendCode(ctx, CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: "e@example.com", Client: "198.51.100.9"}, nil); err != nil {
			t.Fatalf("e-mail past the SMS cap: %v", err)
		}
		told := func() int {
			t.Helper()
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'message.sms_cap' AND outcome = 'denied'`)
		}
		if n := told(); n != 1 {
			t.Fatalf("the administrators were told %d times, want once", n)
		}
		// The next hour: two more fit the day's cap of five, then the day's refuses.
		now = now.Add(time.Hour)
		for i := 5; i < 7; i++ {
			if err := sms(i, false); err != nil {
				t.Fatalf("SMS code %d the next hour: %v", i, err)
			}
		}
		if err := sms(7, false); !errors.As(err, &ae) || ae.Key != "reminder.code_sms_cap" || ae.RetryAfterSeconds < 3600 {
			t.Fatalf("past the day's cap: %v", err)
		}
		if n := told(); n != 2 {
			t.Fatalf("told %d times, want once for the hour and once for the day", n)
		}
		// The day's refusal gave the hour's count back: one more fits the hour once the day ends.
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = 'sms-codes:hour'`); n != 2 {
			t.Fatalf("the hour counts %d, want 2", n)
		}
		// 0: no codes by SMS at all.
		set, _ = ReadSettings(ctx, db)
		set.SMSCodesPerHour, set.SMSCodesPerDay = 0, 0
		if _, err := SaveSettings(ctx, db, admin, set); err != nil {
			t.Fatal(err)
		}
		now = now.Add(25 * time.Hour)
		if err := sms(8, false); !errors.As(err, &ae) || ae.Key != "reminder.code_sms_cap" {
			t.Fatalf("with a cap of 0: %v", err)
		}
	})
}

// TestSweepKeepsTheDayCap: the hourly sweep forgets a row only when its own window is over:
// 30 codes by SMS, swept 70 minutes later, still fill the day's cap of 30 (the attacker's
// review, C1: the sweep had dropped every row over an hour old, resetting the day's caps).
func TestSweepKeepsTheDayCap(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		s := &Service{DB: db, Ring: secret.Ephemeral(), Now: func() time.Time { return now }}
		admin := clinicIn(t, db, "+84 28 3822 1234")
		set := Defaults()
		set.SMSCodesPerHour, set.SMSCodesPerDay = 30, 30
		if _, err := SaveSettings(ctx, db, admin, set); err != nil {
			t.Fatal(err)
		}
		sms := func(i int) error {
			_, err := s.SendCode(ctx, CodeRequest{Purpose: CodePortal, Channel: mail.SMS, Address: "0913 000 " + strconv.Itoa(100+i), Client: "198.51.100." + strconv.Itoa(i)}, nil)
			return err
		}
		for i := range 30 {
			if err := sms(i); err != nil {
				t.Fatalf("SMS code %d: %v", i, err)
			}
		}
		now = now.Add(70 * time.Minute)
		sweeper := &auth.Throttle{DB: db}
		if _, err := sweeper.Sweep(ctx, now); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = 'day:sms-codes:day'`); n != 30 {
			t.Fatalf("the day counts %d after the sweep, want 30", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM login_throttle WHERE key = 'sms-codes:hour'`); n != 0 {
			t.Fatalf("the hour's ended window is kept: %d", n)
		}
		var ae *apperr.Error
		if err := sms(31); !errors.As(err, &ae) || ae.Key != "reminder.code_sms_cap" {
			t.Fatalf("a code past the day's cap after the sweep: %v", err)
		}
		// Once the days are over (the refusal's "told" window began at +70 minutes), the
		// sweep forgets them.
		now = now.Add(24*time.Hour + time.Minute)
		if _, err := sweeper.Sweep(ctx, now); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM login_throttle WHERE key LIKE 'day:%'`); n != 0 {
			t.Fatalf("ended day windows kept: %d", n)
		}
		// A window longer than the sweep's hour under a short key is refused, never swept early.
		if _, err := (&auth.Throttle{DB: db, Window: 2 * time.Hour}).TakeMany(ctx, "sms-codes:long", 1, 5); err == nil {
			t.Fatal("a two-hour window under a short key was taken")
		}
	})
}

// TestContactKeyAndSite: one mailbox however its address is dressed up (a "+tag", Gmail's
// dots, case), for the caps per contact; an IPv6 /64's failures count for its /48 too
// (the attacker's review of the codes and booking caps, M2 and M3).
func TestContactKeyAndSite(t *testing.T) {
	for _, c := range [][2]string{
		{"Lan+book1@Example.test", "email:lan@example.test"},
		{"lan@example.test", "email:lan@example.test"},
		{"A.Lan+x@GoogleMail.com", "email:alan@gmail.com"},
		{"a.l.a.n@gmail.com", "email:alan@gmail.com"},
		{"a.lan@example.test", "email:a.lan@example.test"}, // dots matter elsewhere
		{"+tag@example.test", "email:+tag@example.test"},
	} {
		if got := ContactKey(mail.Email, c[0]); got != c[1] {
			t.Errorf("ContactKey(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	for _, c := range [][2]string{
		{"2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"2001:db8:1:ffff::9", "2001:db8:1::/48"},
		{"198.51.100.7", ""},
		{"::ffff:198.51.100.7", ""},
		{"unknown", ""},
	} {
		if got := auth.AddressSite(c[0]); got != c[1] {
			t.Errorf("AddressSite(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		th := &auth.Throttle{DB: db}
		// Three /64s of one /48 spend its budget; a fourth /64 is refused, another /48 is not.
		for i := range auth.PublicSiteFailureLimit {
			block := auth.AddressBlock(fmt.Sprintf("2001:db8:1:%x::1", i/auth.PublicFailureLimit))
			if wait, err := th.TakeFailure(ctx, block); err != nil || wait != 0 {
				t.Fatalf("failure %d from %s: %v %v", i, block, wait, err)
			}
		}
		if wait, err := th.TakeFailure(ctx, auth.AddressBlock("2001:db8:1:99::1")); err != nil || wait == 0 {
			t.Fatalf("a fresh /64 of a spent /48: %v %v", wait, err)
		}
		if n := dbtest.Count(t, db, `SELECT tries FROM login_throttle WHERE key = 'public-failure:2001:db8:1:99::/64'`); n != 0 {
			t.Fatalf("the refused /64 kept %d failures", n)
		}
		if wait, err := th.TakeFailure(ctx, auth.AddressBlock("2001:db8:2::1")); err != nil || wait != 0 {
			t.Fatalf("another /48: %v %v", wait, err)
		}
	})
}

// TestContactFailureCap: wrong checks count per contact for a day, across its codes and
// networks: past CodeContactFailureLimit its codes are refused, sent or checked (a right one
// too), 429 with Retry-After, however the address is written; another contact is not
// (the attacker's review of the codes, M2).
func TestContactFailureCap(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		s := &Service{DB: db, Ring: secret.Ephemeral(), Now: func() time.Time { return now }}
		clinicIn(t, db, "+84 28 3822 1234")
		send := func(address string, i int) (int64, error) {
			return s.SendCode(ctx, CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: address, Client: "203.0.113." + strconv.Itoa(i)}, nil)
		}
		var ae *apperr.Error
		var last int64
		rounds := CodeContactFailureLimit / CodeTries
		for i := range rounds {
			now = now.Add(61 * time.Minute) // a new hour for the address's five codes
			id, err := send("lan+"+strconv.Itoa(i)+"@example.com", i)
			if err != nil {
				t.Fatalf("code %d: %v", i, err)
			}
			if i == rounds-1 {
				if last, err = send("Lan@Example.com", 99); err != nil {
					t.Fatal(err)
				}
			}
			_, _, code := sentCode(t, db, id)
			wrong := "000000"
			if code == wrong {
				wrong = "111111"
			}
			for range CodeTries {
				if _, err := s.CheckCode(ctx, id, CodePortal, wrong, nil); err == nil {
					t.Fatal("a wrong code was taken")
				}
			}
		}
		_, _, code := sentCode(t, db, last)
		if _, err := s.CheckCode(ctx, last, CodePortal, code, nil); !errors.As(err, &ae) || ae.Key != "reminder.code_contact_locked" || ae.Kind != apperr.KindThrottled || ae.RetryAfterSeconds < 3600 {
			t.Fatalf("a right code after a day's failures: %v", err)
		}
		if _, err := send("LAN+new@example.com", 100); !errors.As(err, &ae) || ae.Key != "reminder.code_contact_locked" {
			t.Fatalf("a new code after a day's failures: %v", err)
		}
		if _, err := send("binh@example.com", 101); err != nil {
			t.Fatalf("another contact: %v", err)
		}
		// The day is over: the contact may ask again.
		now = now.Add(auth.DayWindow)
		if _, err := send("lan@example.com", 102); err != nil {
			t.Fatalf("the next day: %v", err)
		}
	})
}

// TestEmailCodeCaps: the clinic's hourly cap on codes by e-mail (EmailCodesPerHour) holds
// whatever the addresses and networks: the request past it is refused (429, with when to try
// again) and sends nothing, while codes by SMS still go; the next hour's window takes codes
// again.
func TestEmailCodeCaps(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		s := &Service{DB: db, Ring: secret.Ephemeral(), Now: func() time.Time { return now }}
		clinicIn(t, db, "+84 28 3822 1234")
		email := func(i int) error {
			// Each from another address and another network: only the clinic-wide cap can refuse it.
			_, err := s.SendCode(ctx, CodeRequest{Purpose: CodePortal, Channel: mail.Email, Address: fmt.Sprintf("p%d@example.com", i),
				Client: fmt.Sprintf("%d.%d.%d.7", 20+i/250, i%250, i%7)}, nil)
			return err
		}
		for i := range EmailCodesPerHour {
			if err := email(i); err != nil {
				t.Fatalf("e-mail code %d of the hour's %d: %v", i+1, EmailCodesPerHour, err)
			}
		}
		sent := func() int {
			t.Helper()
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1`, TopicCode)
		}
		before := sent()
		var ae *apperr.Error
		if err := email(EmailCodesPerHour); !errors.As(err, &ae) || ae.Key != "reminder.code_email_cap" || ae.Kind != apperr.KindThrottled || ae.RetryAfterSeconds < 1 {
			t.Fatalf("past the hour's cap: %v", err)
		}
		if n := sent(); n != before {
			t.Fatalf("a refused code was sent: %d messages, want %d", n, before)
		}
		if _, err := s.SendCode(ctx, CodeRequest{Purpose: CodePortal, Channel: mail.SMS, Address: "0913 000 777", Client: "198.51.100.77"}, nil); err != nil {
			t.Fatalf("SMS past the e-mail cap: %v", err)
		}
		now = now.Add(time.Hour)
		if err := email(EmailCodesPerHour + 1); err != nil {
			t.Fatalf("the next hour: %v", err)
		}
	})
}
