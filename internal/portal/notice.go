package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/reminder"
	"emr/internal/settings"
)

// SignInChanged is the patient register's hook (patient.Store.SignInChanged): when the
// e-mail or the phone of a record with portal access changes — the addresses its one-time
// codes go to — the old one is told, by its own channel, with the clinic to call if the
// patient did not ask for it (ASVS 2.2.3: someone who changed it at the desk in the patient's
// name would otherwise sign in unseen). The notice names no new address and nothing clinical.
func (s *Store) SignInChanged(ctx context.Context, tx *sql.Tx, id int64, old, new patient.SignInAddresses) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM portal_access WHERE patient_id = $1`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read portal access: %w", err)
	}
	msg, err := reminder.ReadSettings(ctx, tx)
	if err != nil {
		return err
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return err
	}
	lang := old.Language
	if !slices.Contains(i18n.Languages, lang) {
		lang = msg.Language
	}
	now := s.now()
	day := now.In(s.loc()).Format(time.DateOnly)
	if old.Email != "" && !strings.EqualFold(strings.TrimSpace(old.Email), strings.TrimSpace(new.Email)) {
		m := mail.Message{Topic: reminder.TopicContactChanged, TopicID: id, PatientID: id, Channel: mail.Email, To: strings.TrimSpace(old.Email),
			Subject: i18n.T(lang, "message.subject.portal_contact_changed", clinic.Name), Body: i18n.T(lang, "message.email.portal_email_changed", clinic.Name, day)}
		if s.Codes != nil && s.Codes.CanSend != nil && !s.Codes.CanSend(mail.Email) {
			m.Unsendable = "no mail server is set (--smtp-url)"
		}
		if err := mail.Enqueue(ctx, tx, now, m); err != nil {
			return err
		}
	}
	if old.Phone != "" && reminder.ContactKey(mail.SMS, old.Phone) != reminder.ContactKey(mail.SMS, new.Phone) {
		m := mail.Message{Topic: reminder.TopicContactChanged, TopicID: id, PatientID: id, Channel: mail.SMS,
			Body: i18n.T(lang, "message.sms.portal_phone_changed", clinic.Name, day)}
		if to, err := reminder.SMSCountry(old.Phone, clinic.CallingCode(), msg.SMSCountries); err == nil {
			m.To = to
		} else {
			m.Unsendable = "the number is not of a country the clinic texts"
		}
		if s.Codes != nil && s.Codes.CanSend != nil && !s.Codes.CanSend(mail.SMS) {
			m.Unsendable = "no SMS gateway is set (--sms-url)"
		}
		if err := mail.Enqueue(ctx, tx, now, m); err != nil {
			return err
		}
	}
	return nil
}
