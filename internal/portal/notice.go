package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/reminder"
	"emr/internal/settings"
	"emr/internal/textsearch"
)

// SignInChanged is the patient register's hook (patient.Store.SignInChanged): when the set
// of addresses a record with portal access signs in by changes — its e-mail or phone changed,
// added or removed — every old address is told, each by its own channel, with the clinic to
// call if the patient did not ask for it (ASVS 2.2.3: someone who changed it at the desk in the
// patient's name would otherwise sign in unseen), and the sessions signed in by an address
// that no longer opens the record lose it. A phone is compared by its full identity (country
// code and national digits), an e-mail without regard to case: formatting is no change. The
// notice names no new address and nothing clinical.
func (s *Store) SignInChanged(ctx context.Context, tx *sql.Tx, id int64, old, new patient.SignInAddresses) error {
	on, err := s.hasAccess(ctx, tx, id)
	if err != nil || !on {
		return err
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return err
	}
	home := clinic.CallingCode()
	if textsearch.PhoneIdentity(old.Phone, home) == textsearch.PhoneIdentity(new.Phone, home) &&
		strings.EqualFold(strings.TrimSpace(old.Email), strings.TrimSpace(new.Email)) {
		return nil
	}
	if err := s.dropLostAddresses(ctx, tx, id, new, home); err != nil {
		return err
	}
	return s.tellSignInChanged(ctx, tx, id, old)
}

// hasAccess says whether record id's portal access is on.
func (s *Store) hasAccess(ctx context.Context, tx *sql.Tx, id int64) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM portal_access WHERE patient_id = $1`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read portal access: %w", err)
	}
	return true, nil
}

// dropLostAddresses takes record id out of the sessions signed in by a code to an address
// that is no longer its own (changed at the desk because someone else reads the old mailbox):
// one that is neither its e-mail now (any case) nor its phone now (the same line, home the
// clinic's calling code). A session left with no record is signed out at its next request.
func (s *Store) dropLostAddresses(ctx context.Context, tx *sql.Tx, id int64, now patient.SignInAddresses, home string) error {
	rows, err := tx.QueryContext(ctx, `SELECT s.token_hash, s.address FROM portal_sessions s JOIN portal_session_records r ON r.token_hash = s.token_hash
		WHERE r.patient_id = $1 AND r.guardian_id IS NULL AND s.via = $2`, id, ViaCode)
	if err != nil {
		return fmt.Errorf("read portal sessions: %w", err)
	}
	var lost []string
	for rows.Next() {
		var hash, address string
		if err := rows.Scan(&hash, &address); err != nil {
			rows.Close()
			return err
		}
		kept := strings.EqualFold(address, strings.TrimSpace(now.Email))
		if channelOf(address) == mail.SMS {
			kept = now.Phone != "" && textsearch.PhoneIdentity(address, home) == textsearch.PhoneIdentity(now.Phone, home)
		}
		if !kept {
			lost = append(lost, hash)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, hash := range lost {
		if _, err := tx.ExecContext(ctx, `DELETE FROM portal_session_records WHERE token_hash = $1 AND patient_id = $2 AND guardian_id IS NULL`, hash, id); err != nil {
			return fmt.Errorf("end a lost address's reach: %w", err)
		}
	}
	return nil
}

// tellSignInChanged tells each of the addresses in to (a record's phone and e-mail as they
// were) that how record id is signed in to changed, in their language.
func (s *Store) tellSignInChanged(ctx context.Context, tx *sql.Tx, id int64, to patient.SignInAddresses) error {
	msg, clinic, lang, err := reminder.Addressing(ctx, tx, to.Language)
	if err != nil {
		return err
	}
	now := s.now()
	day := reminder.DateIn(lang, now.In(s.loc()))
	if email := strings.TrimSpace(to.Email); email != "" {
		m := mail.Message{Topic: reminder.TopicContactChanged, TopicID: id, PatientID: id, Channel: mail.Email, To: email,
			Subject: i18n.T(lang, "message.subject.portal_contact_changed", clinic.Name), Body: i18n.T(lang, "message.email.portal_contact_changed", clinic.Name, day)}
		if s.Codes != nil && s.Codes.CanSend != nil && !s.Codes.CanSend(mail.Email) {
			m.Unsendable = "no mail server is set (--smtp-url)"
		}
		if err := mail.Enqueue(ctx, tx, now, m); err != nil {
			return err
		}
	}
	if strings.TrimSpace(to.Phone) != "" {
		m := mail.Message{Topic: reminder.TopicContactChanged, TopicID: id, PatientID: id, Channel: mail.SMS,
			Body: i18n.T(lang, "message.sms.portal_contact_changed", clinic.Name, day)}
		if number, err := reminder.SMSCountry(to.Phone, clinic.CallingCode(), msg.SMSCountries); err == nil {
			m.To = number
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

// tellGuardiansChanged tells record id's own addresses that a guardian's way in to it was
// added or removed (ASVS 2.2.3: a link gives a new address the record).
func (s *Store) tellGuardiansChanged(ctx context.Context, tx *sql.Tx, id int64) error {
	on, err := s.hasAccess(ctx, tx, id)
	if err != nil || !on {
		return err
	}
	r, err := patient.ReachOf(ctx, tx, id)
	if err != nil {
		return err
	}
	return s.tellSignInChanged(ctx, tx, id, patient.SignInAddresses{Phone: r.Phone, Email: r.Email, Language: r.Language})
}
