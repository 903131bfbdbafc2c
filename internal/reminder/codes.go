package reminder

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
	"emr/internal/textsearch"
)

// The purposes of a one-time code: holding an online booking, signing in to the portal.
const (
	CodeBook   = "book"
	CodePortal = "portal"
)

// TopicCode is the outbox topic of a one-time code's message (topic_id: the code's row).
const TopicCode = "patient.code"

// The one-time code's rules (ASVS 4.0.3 2.7: short-lived, single-use, limited tries, throttled).
const (
	CodeDigits   = 6
	CodeLifetime = 10 * time.Minute
	CodeTries    = 5
	// Codes sent per address (an e-mail or a phone number) and per client address block in
	// CodeWindow; a refused request sends nothing.
	CodeAddressLimit = 5
	CodeBlockLimit   = 20
	CodeWindow       = time.Hour
	// Wrong code checks per contact (an e-mail mailbox or a phone number) in a day, across
	// all its codes and networks: past it the contact's codes are refused, sent or checked,
	// until the day's window ends (the attacker's review of the codes, M2).
	CodeContactFailureLimit = 30
	// The clinic-wide caps on codes by e-mail, generous: a flood of addresses must not make
	// the clinic's mail server a spam source.
	EmailCodesPerHour = 300
	EmailCodesPerDay  = 2000
)

// codeMACPurpose keys a code's hash in the key file, apart from every other use of it.
const codeMACPurpose = "patient one-time code"

// CodeRequest asks for a one-time code sent to Address by Channel.
type CodeRequest struct {
	Purpose string // CodeBook or CodePortal
	Channel string // mail.Email or mail.SMS
	Address string // an e-mail address or a phone number, as typed
	// Language is the message's (en, ru, zh, vi); "" the clinic's message language.
	Language string
	// PatientID is the patient the code is for, 0 when not known yet (a new booking).
	PatientID int64
	// Client is the caller's network address (auth.ClientAddress), throttled by its block.
	Client string
}

// Code is a one-time code that was checked: what it was sent for, and to whom.
type Code struct {
	ID        int64
	Purpose   string
	Channel   string
	Address   string // normalised: an e-mail in lower case, a phone number's + and digits
	PatientID int64
}

// NormaliseAddress is the address a code goes to, checked for its channel: an e-mail in
// lower case, a phone number as + and digits. A field error names "address".
func NormaliseAddress(channel, address string) (string, error) {
	a := strings.TrimSpace(address)
	switch channel {
	case mail.Email:
		a = strings.ToLower(a)
		if !apperr.Email(a) {
			return "", apperr.Invalid("reminder.code_bad_email")
		}
		return a, nil
	case mail.SMS:
		d := textsearch.Digits(a)
		if len(d) < 7 || len(d) > 15 || strings.ContainsFunc(a, func(r rune) bool {
			return !strings.ContainsRune("+0123456789 -().", r)
		}) {
			return "", apperr.Invalid("reminder.code_bad_phone")
		}
		if strings.HasPrefix(a, "+") {
			return "+" + d, nil
		}
		return d, nil
	}
	return "", apperr.Invalid("reminder.code_bad_channel")
}

// throttleKey is what one address's codes are counted by: a phone number by its national
// digits, so that "+84 912 345 678" and "0912 345 678" share one budget.
func throttleKey(channel, address string) string {
	return "code-to:" + ContactKey(channel, address)
}

// ContactKey is one contact however it is written, for counting what it asks for (codes,
// booking requests): "sms:" and a phone number's national digits, "email:" and the
// address as NormaliseAddress writes it.
func ContactKey(channel, address string) string {
	if channel == mail.SMS {
		return "sms:" + textsearch.PhoneKey(address)
	}
	return "email:" + mailboxKey(address)
}

// mailboxKey is the mailbox an e-mail address delivers to, for counting (the attacker's
// review, M3): lower case, without a "+tag" in the local part, and for Gmail without the
// dots it ignores — "A.Lan+x@GoogleMail.com" and "alan@gmail.com" are one mailbox.
func mailboxKey(address string) string {
	a := strings.ToLower(strings.TrimSpace(address))
	local, domain, ok := strings.Cut(a, "@")
	if !ok {
		return a
	}
	if tag := strings.IndexByte(local, '+'); tag > 0 {
		local = local[:tag]
	}
	if domain == "gmail.com" || domain == "googlemail.com" {
		local, domain = strings.ReplaceAll(local, ".", ""), "gmail.com"
	}
	return local + "@" + domain
}

// failureKey is what a contact's wrong code checks are counted by, for a day.
func failureKey(channel, address string) string {
	return auth.DayKey + "code-failures:" + ContactKey(channel, address)
}

// contactLocked answers reminder.code_contact_locked (429) when the contact's wrong checks
// fill CodeContactFailureLimit in the day's window, read through q.
func (s *Service) contactLocked(ctx context.Context, q database.Querier, channel, address string) error {
	t := &auth.Throttle{DB: s.DB, Window: auth.DayWindow, Now: s.Now}
	wait, err := t.RetryAfterIn(ctx, q, failureKey(channel, address), CodeContactFailureLimit)
	if err != nil || wait <= 0 {
		return err
	}
	// No seconds in the message: the wait may be most of a day; Retry-After says it.
	return &apperr.Error{Kind: apperr.KindThrottled, Key: "reminder.code_contact_locked", RetryAfterSeconds: auth.Seconds(wait)}
}

// SendCode writes a new one-time code for r and its message (in the outbox, expiring with
// the code) in one transaction, in which it also calls with (nil: none) with the code's id,
// for what the code is to hold (a booking's slot); and says the code's id: the caller hands
// the id to the patient's page, the code itself goes only to the address. The requests are
// throttled per client address block and per address before anything is written (a failed
// transaction does not give a request back); a refused one answers reminder.code_throttled.
func (s *Service) SendCode(ctx context.Context, r CodeRequest, with func(tx *sql.Tx, id int64) error) (int64, error) {
	if r.Purpose != CodeBook && r.Purpose != CodePortal {
		return 0, fmt.Errorf("send a code: unknown purpose %q", r.Purpose)
	}
	to, sendTo, err := s.admitCode(ctx, r)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if id, err = s.writeCode(ctx, tx, r, to, sendTo); err != nil {
			return err
		}
		if with != nil {
			return with(tx, id)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// SendDecoy answers a code request that must not send (the portal's, for an address that
// opens no record) as SendCode answers one that does, sending nothing: the same checks and
// throttles, and a code's row whose hash no code matches, so that its id takes wrong tries
// and expires like any other. The caller answers both alike: nobody learns from the answer
// whether an address is known.
func (s *Service) SendDecoy(ctx context.Context, r CodeRequest) (int64, error) {
	if r.Purpose != CodeBook && r.Purpose != CodePortal {
		return 0, fmt.Errorf("send a code: unknown purpose %q", r.Purpose)
	}
	to, _, err := s.admitCode(ctx, r)
	if err != nil {
		return 0, err
	}
	now := s.now()
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		// "unmatched:" and a random token: no keyed hash (hex) ever equals it.
		return tx.QueryRowContext(ctx, `INSERT INTO patient_codes (purpose, channel, address, patient_id, code_mac, created_at, expires_at)
			VALUES ($1, $2, $3, NULL, $4, $5, $6) RETURNING id`, r.Purpose, r.Channel, to, "unmatched:"+auth.NewToken(), now, now.Add(CodeLifetime)).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("write a code: %w", err)
	}
	return id, nil
}

// admitCode checks r before anything is written, the same for a code and a decoy: its
// address for its channel; a number by SMS for its country (SMSCountry); the throttles per
// client address block and per address; then, by SMS, the clinic-wide caps (takeSMSCode).
// It says the normalised address (kept with the code) and, by SMS, the number in
// international form, which is what the message goes to: the number checked is the number
// texted, whatever trunk or exit prefix it was typed with.
func (s *Service) admitCode(ctx context.Context, r CodeRequest) (to, sendTo string, err error) {
	to, err = NormaliseAddress(r.Channel, r.Address)
	if err != nil {
		return "", "", err
	}
	sendTo = to
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return "", "", err
	}
	// A channel the clinic turned off sends no code, for booking and the portal alike.
	if !set.Sends(r.Channel) {
		var v apperr.Validation
		v.Add("channel", "booking.channel_off")
		return "", "", v.Err()
	}
	if r.Channel == mail.SMS {
		clinic, err := settings.ReadClinic(ctx, s.DB)
		if err != nil {
			return "", "", err
		}
		if sendTo, err = SMSCountry(to, clinic.CallingCode(), set.SMSCountries); err != nil {
			return "", "", err
		}
	}
	if err := s.contactLocked(ctx, s.DB, r.Channel, to); err != nil {
		return "", "", err
	}
	if err := s.throttleCode(ctx, throttleKey(r.Channel, to), auth.AddressBlock(r.Client)); err != nil {
		return "", "", err
	}
	if r.Channel == mail.SMS {
		if err := s.takeSMSCode(ctx, set, r.Client); err != nil {
			return "", "", err
		}
	} else if err := s.takeEmailCode(ctx); err != nil {
		return "", "", err
	}
	return to, sendTo, nil
}

// SMSCountry is the number a one-time code may be texted to, in international form ("+84…"),
// when number (as NormaliseAddress writes it) is one of the clinic's country (home, its
// calling code; "" when its own phone does not say) or of a country the clinic lists
// (Settings.SMSCountries). Any other number — another country's, or a domestic one while
// the clinic's country is unknown — answers reminder.code_sms_country (422), which tells the
// person to use e-mail or call the clinic: a public page must not make the clinic pay for
// texts to premium or foreign numbers.
func SMSCountry(number, home string, others []string) (string, error) {
	id := textsearch.PhoneIdentity(number, home)
	if strings.HasPrefix(id, "+") {
		cc := textsearch.CallingCode(id)
		if (cc != "" && cc == home) || slices.Contains(others, cc) {
			if len(textsearch.Digits(id)) <= 15 && len(id) > len(cc)+1 {
				return id, nil
			}
		}
	}
	return "", apperr.Invalid("reminder.code_sms_country")
}

// The windows of the clinic-wide caps on one-time codes by SMS (Settings.SMSCodesPerHour, …PerDay).
const (
	smsHour = time.Hour
	smsDay  = 24 * time.Hour
)

// capOf is one of the clinic-wide caps: its window's name, its length, its limit.
type capOf struct {
	name   string
	window time.Duration
	limit  int
}

// key is the cap's throttle key for what it counts; a window longer than the sweep's hour
// under auth.DayKey, so that the sweep keeps it until it is over.
func (c capOf) key(what string) string {
	if c.window > auth.ShortWindow {
		return auth.DayKey + what + c.name
	}
	return what + c.name
}

// takeSMSCode counts one code by SMS against the clinic's caps, per hour and per day, on the
// shared throttle: past either it answers reminder.code_sms_cap (429, e-mail still works)
// and, the first time in the window, tells the administrators by an audit event
// (message.sms_cap, denied). A refused code counts against neither cap.
func (s *Service) takeSMSCode(ctx context.Context, set Settings, client string) error {
	caps := []capOf{{"hour", smsHour, set.SMSCodesPerHour}, {"day", smsDay, set.SMSCodesPerDay}}
	for i, c := range caps {
		t := &auth.Throttle{DB: s.DB, Window: c.window, Now: s.Now}
		wait, err := t.TakeMany(ctx, c.key("sms-codes:"), 1, c.limit)
		if err != nil {
			return err
		}
		if wait == 0 {
			continue
		}
		for _, taken := range caps[:i] { // give back what the earlier caps counted
			if err := (&auth.Throttle{DB: s.DB}).GiveBack(ctx, taken.key("sms-codes:")); err != nil {
				return err
			}
		}
		// Told once a window: the first refusal takes the window's only "told" slot.
		if first, err := t.TakeMany(ctx, c.key("sms-codes-told:"), 1, 1); err != nil {
			return err
		} else if first == 0 {
			e := audit.Event{At: s.now(), ActorName: "public", Action: "message.sms_cap", EntityType: "settings", EntityID: settingsKey,
				Address: client, Outcome: audit.Denied,
				Detail: fmt.Sprintf("one-time codes by SMS refused: the clinic's cap of %d per %s is reached; codes go by e-mail only until it ends", c.limit, c.name)}
			if err := audit.Access(ctx, s.DB, e); err != nil {
				return err
			}
			slog.Warn("one-time codes by SMS refused: the clinic's cap is reached", "per", c.name, "cap", c.limit)
		}
		// No seconds in the message: the wait may be most of a day; Retry-After says it.
		return &apperr.Error{Kind: apperr.KindThrottled, Key: "reminder.code_sms_cap", RetryAfterSeconds: auth.Seconds(wait)}
	}
	return nil
}

// takeEmailCode counts one code by e-mail against the clinic's caps (EmailCodesPerHour,
// EmailCodesPerDay): past either it answers reminder.code_email_cap (429) and logs a
// warning. A refused code counts against neither cap.
func (s *Service) takeEmailCode(ctx context.Context) error {
	caps := []capOf{{"hour", smsHour, EmailCodesPerHour}, {"day", smsDay, EmailCodesPerDay}}
	for i, c := range caps {
		t := &auth.Throttle{DB: s.DB, Window: c.window, Now: s.Now}
		wait, err := t.TakeMany(ctx, c.key("email-codes:"), 1, c.limit)
		if err != nil {
			return err
		}
		if wait == 0 {
			continue
		}
		for _, taken := range caps[:i] {
			if err := (&auth.Throttle{DB: s.DB}).GiveBack(ctx, taken.key("email-codes:")); err != nil {
				return err
			}
		}
		slog.Warn("one-time codes by e-mail refused: the clinic's cap is reached", "per", c.name, "cap", c.limit)
		return &apperr.Error{Kind: apperr.KindThrottled, Key: "reminder.code_email_cap", RetryAfterSeconds: auth.Seconds(wait)}
	}
	return nil
}

// writeCode writes r's code, to the normalised address to, and its message (to sendTo)
// inside tx.
func (s *Service) writeCode(ctx context.Context, tx *sql.Tx, r CodeRequest, to, sendTo string) (int64, error) {
	now := s.now()
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO patient_codes (purpose, channel, address, patient_id, code_mac, created_at, expires_at)
		VALUES ($1, $2, $3, $4, '', $5, $6) RETURNING id`, r.Purpose, r.Channel, to, nullID(r.PatientID), now, now.Add(CodeLifetime)).Scan(&id); err != nil {
		return 0, fmt.Errorf("write a code: %w", err)
	}
	code, err := newCode()
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE patient_codes SET code_mac = $1 WHERE id = $2`, s.Ring.MAC(codeMACPurpose, codeData(id, code)), id); err != nil {
		return 0, fmt.Errorf("key a code: %w", err)
	}
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return 0, err
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return 0, err
	}
	lang := r.Language
	if !slices.Contains(i18n.Languages, lang) {
		lang = set.Language
	}
	minutes := int(CodeLifetime / time.Minute)
	m := mail.Message{Topic: TopicCode, TopicID: id, Channel: r.Channel, PatientID: r.PatientID, To: sendTo, ExpiresAt: now.Add(CodeLifetime)}
	if r.Channel == mail.SMS {
		m.Body = i18n.T(lang, "message.sms.code", oneLine(clinic.Name), code, minutes)
	} else {
		m.Subject = i18n.T(lang, "message.subject.code", oneLine(clinic.Name))
		m.Body = i18n.T(lang, "message.email.code", oneLine(clinic.Name), code, minutes)
	}
	if s.CanSend != nil && !s.CanSend(r.Channel) {
		m.Unsendable = map[string]string{mail.Email: "no mail server is set (--smtp-url)", mail.SMS: "no SMS gateway is set (--sms-url)"}[r.Channel]
	}
	if err := mail.Enqueue(ctx, tx, now, m); err != nil {
		return 0, err
	}
	return id, nil
}

// throttleCode counts one code request against its address block, then its address; the
// block first, so that a refused caller spends nothing of the address's budget.
func (s *Service) throttleCode(ctx context.Context, to, block string) error {
	t := &auth.Throttle{DB: s.DB, Window: CodeWindow, Now: s.Now}
	for _, k := range []struct {
		key   string
		limit int
	}{{"code-block:" + block, CodeBlockLimit}, {to, CodeAddressLimit}} {
		wait, err := t.TakeMany(ctx, k.key, 1, k.limit)
		if err != nil {
			return err
		}
		if wait > 0 {
			return apperr.Throttled("reminder.code_throttled", auth.Seconds(wait))
		}
	}
	return nil
}

// CheckCode checks code against the one-time code id sent for purpose. Right, the code is
// used up and with (nil: none) is called in the same transaction, to do what the code was
// for: an error from it rolls both back, the code unspent. Wrong, the try is counted and
// committed whatever comes next (the fifth wrong try spends the code) and
// reminder.code_wrong says how many are left. Spent, expired, unknown or sent for another
// purpose: reminder.code_expired, no try counted (a code for one page cannot be spent from
// another by its id).
func (s *Service) CheckCode(ctx context.Context, id int64, purpose, code string, with func(tx *sql.Tx, c Code) error) (Code, error) {
	var c Code
	now := s.now()
	code = strings.TrimSpace(code)
	var wrong *apperr.Error
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var mac string
		var tries int
		var expires time.Time
		var used sql.NullTime
		var patientID sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT purpose, channel, address, patient_id, code_mac, tries, expires_at, used_at FROM patient_codes WHERE id = $1`, id).
			Scan(&c.Purpose, &c.Channel, &c.Address, &patientID, &mac, &tries, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.Conflict("reminder.code_expired")
		}
		if err != nil {
			return fmt.Errorf("read a code: %w", err)
		}
		if c.Purpose != purpose || used.Valid || tries >= CodeTries || !now.Before(expires) {
			return apperr.Conflict("reminder.code_expired")
		}
		if err := s.contactLocked(ctx, tx, c.Channel, c.Address); err != nil {
			return err // a right code too: the contact's day of guesses is spent
		}
		if !s.codeMatches(mac, id, code) {
			tries++
			left := CodeTries - tries
			if _, err := tx.ExecContext(ctx, `UPDATE patient_codes SET tries = $1 WHERE id = $2`, tries, id); err != nil {
				return fmt.Errorf("count a try: %w", err)
			}
			if left == 0 {
				wrong = apperr.Conflict("reminder.code_expired")
			} else {
				wrong = apperr.Invalid("reminder.code_wrong", left)
			}
			return nil // committed: a wrong try counts whatever the caller does next
		}
		res, err := tx.ExecContext(ctx, `UPDATE patient_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, now, id)
		if err != nil {
			return fmt.Errorf("use a code: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("reminder.code_expired") // another request used it first
		}
		// The message has done its work: its text (the code) is not kept.
		if err := mail.Forget(ctx, tx, TopicCode, id); err != nil {
			return err
		}
		c.ID, c.PatientID = id, patientID.Int64
		if with != nil {
			return with(tx, c)
		}
		return nil
	})
	if err != nil {
		return Code{}, err
	}
	if wrong != nil {
		// Counted for the contact, across its codes and networks, for a day.
		t := &auth.Throttle{DB: s.DB, Window: auth.DayWindow, Now: s.Now}
		if _, err := t.TakeMany(ctx, failureKey(c.Channel, c.Address), 1, CodeContactFailureLimit); err != nil {
			return Code{}, err
		}
		return Code{}, wrong
	}
	return c, nil
}

// codeMatches compares code with its keyed hash under every key of the file, in constant time.
func (s *Service) codeMatches(mac string, id int64, code string) bool {
	if len(code) != CodeDigits {
		return false
	}
	ok := false
	for _, m := range s.Ring.MACs(codeMACPurpose, codeData(id, code)) {
		ok = hmac.Equal([]byte(m), []byte(mac)) || ok
	}
	return ok
}

func codeData(id int64, code string) []byte {
	return []byte(strconv.FormatInt(id, 10) + "|" + code)
}

// newCode is a uniformly random code of CodeDigits digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("make a code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
