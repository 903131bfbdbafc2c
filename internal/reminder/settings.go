// Package reminder writes the clinic's appointment messages to patients — confirmation on
// booking, a message when the time or doctor changes, one on cancellation, and reminders at
// the times the clinic sets, outside its quiet hours — into the one outbox (internal/mail),
// in the transaction of the appointment's change; and it serves the page a message's link
// opens, where the patient confirms, cancels or opts out without signing in (ADR 42).
package reminder

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
	"emr/internal/textsearch"
)

// Settings are the clinic's rules for its messages to patients (an administrator's).
type Settings struct {
	// Reminders on or off (confirmations, changes and cancellations go either way).
	Reminders bool `json:"reminders"`
	// Offsets are how long before the appointment each reminder goes, in minutes.
	Offsets []int `json:"offsets_minutes"`
	// QuietStart and QuietEnd ("21:00", "08:00", the clinic's time) bound the hours in which
	// nothing is sent; equal: none.
	QuietStart string `json:"quiet_start"`
	QuietEnd   string `json:"quiet_end"`
	// CancelHours is how late before the appointment the patient may still cancel from a
	// message's link.
	CancelHours int `json:"cancel_hours"`
	// Email and SMS turn each channel on.
	Email bool `json:"email"`
	SMS   bool `json:"sms"`
	// Language is the clinic's language for patients who chose none.
	Language string `json:"language"`
	// SMSCountries are the country calling codes ("7", "44") besides the clinic's own (read
	// from its phone, settings.Clinic.CallingCode) whose numbers a one-time code from a
	// public page (online booking, the portal's sign-in) may go to by SMS: none by default,
	// so that nobody makes the clinic pay for texts to premium or foreign numbers.
	SMSCountries []string `json:"sms_code_countries"`
	// SMSCodesPerHour and SMSCodesPerDay cap the one-time codes the public pages send by SMS,
	// clinic-wide; past either, codes go by e-mail only (0: none by SMS).
	SMSCodesPerHour int `json:"sms_codes_per_hour"`
	SMSCodesPerDay  int `json:"sms_codes_per_day"`
	Version         int `json:"version"`
}

// The bounds of the clinic-wide caps on one-time codes by SMS.
const (
	MaxSMSCodesPerHour = 1000
	MaxSMSCodesPerDay  = 10000
	maxSMSCountries    = 20
)

const settingsKey = "patient_messages"

// Defaults are the settings until an administrator saves others.
func Defaults() Settings {
	return Settings{Reminders: true, Offsets: []int{24 * 60, 2 * 60}, QuietStart: "21:00", QuietEnd: "08:00", CancelHours: 2, Email: true, SMS: true, Language: "en",
		SMSCountries: []string{}, SMSCodesPerHour: 30, SMSCodesPerDay: 200}
}

// ReadSettings returns the clinic's message settings (Defaults until saved).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	s := Defaults()
	version, err := settings.Read(ctx, q, settingsKey, &s)
	s.Version = version
	return s, err
}

func clock(s string) (int, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

func (s *Settings) clean() error {
	var v apperr.Validation
	s.QuietStart, s.QuietEnd = strings.TrimSpace(s.QuietStart), strings.TrimSpace(s.QuietEnd)
	if _, ok := clock(s.QuietStart); !ok {
		v.Add("quiet_start", "validation.time_format")
	}
	if _, ok := clock(s.QuietEnd); !ok {
		v.Add("quiet_end", "validation.time_format")
	}
	if len(s.Offsets) > 5 {
		v.Add("offsets_minutes", "validation.too_many")
	}
	for _, o := range s.Offsets {
		if o < 15 || o > 14*24*60 {
			v.Add("offsets_minutes", "reminder.bad_offset")
			break
		}
	}
	slices.Sort(s.Offsets)
	slices.Reverse(s.Offsets)
	s.Offsets = slices.Compact(s.Offsets)
	if s.Offsets == nil {
		s.Offsets = []int{}
	}
	if s.CancelHours < 0 || s.CancelHours > 14*24 {
		v.Add("cancel_hours", "reminder.bad_cancel_hours")
	}
	if !slices.Contains([]string{"en", "ru", "zh", "vi"}, s.Language) {
		v.Add("language", "validation.invalid_choice")
	}
	countries := []string{}
	for _, c := range s.SMSCountries {
		c = strings.TrimPrefix(strings.TrimSpace(c), "+")
		if !callingCode(c) {
			v.Add("sms_code_countries", "reminder.bad_calling_code")
			break
		}
		countries = append(countries, c)
	}
	slices.Sort(countries)
	s.SMSCountries = slices.Compact(countries)
	if len(s.SMSCountries) > maxSMSCountries {
		v.Add("sms_code_countries", "validation.too_many")
	}
	if s.SMSCodesPerHour < 0 || s.SMSCodesPerHour > MaxSMSCodesPerHour {
		v.Add("sms_codes_per_hour", "reminder.bad_sms_cap")
	}
	if s.SMSCodesPerDay < 0 || s.SMSCodesPerDay > MaxSMSCodesPerDay {
		v.Add("sms_codes_per_day", "reminder.bad_sms_cap")
	} else if s.SMSCodesPerDay < s.SMSCodesPerHour {
		v.Add("sms_codes_per_day", "reminder.sms_day_below_hour")
	}
	return v.Err()
}

// callingCode reports whether c is a country calling code as E.164 writes one: one to three
// digits, not starting with 0, and a code of its own length (so "84" but not "8" or "849").
func callingCode(c string) bool {
	if c == "" || len(c) > 3 || c[0] == '0' || strings.Trim(c, "0123456789") != "" {
		return false
	}
	return textsearch.CallingCode("+"+c+"0000000") == c
}

// SaveSettings stores the clinic's message settings if in.Version is still the stored one.
func SaveSettings(ctx context.Context, db *database.DB, e audit.Event, in Settings) (Settings, error) {
	if err := in.clean(); err != nil {
		return Settings{}, err
	}
	e.Action = "settings.patient_messages"
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		stored := in
		stored.Version = 0
		version, err := settings.Save(ctx, tx, e, settingsKey, stored, in.Version)
		in.Version = version
		return err
	})
	return in, err
}

// Sends says whether the clinic sends patient messages by channel (e-mail or SMS).
func (s Settings) Sends(channel string) bool {
	return (channel == mail.Email && s.Email) || (channel == mail.SMS && s.SMS)
}

// Addressing is what a message to a patient needs besides its text: the clinic's message
// settings, the clinic (its name, its calling code), and the language to write in — lang when
// the patient chose one the product speaks, else the clinic's.
func Addressing(ctx context.Context, q database.Querier, lang string) (Settings, settings.Clinic, string, error) {
	msg, err := ReadSettings(ctx, q)
	if err != nil {
		return msg, settings.Clinic{}, "", err
	}
	clinic, err := settings.ReadClinic(ctx, q)
	if err != nil {
		return msg, clinic, "", err
	}
	if !slices.Contains(i18n.Languages, lang) {
		lang = msg.Language
	}
	return msg, clinic, lang, nil
}
