package user

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
)

// Expiry reminders of API tokens: the owner is e-mailed (when the account has an address)
// auth.RemindEarly and auth.RemindLate before a token ends, once each across instances; the
// profile's token list shows the same as a notice.
const (
	// RemindEvery is how often the server looks for tokens to remind about.
	RemindEvery = 10 * time.Minute
	// TokenMailTopic is the outbox topic of a token's expiry reminder.
	TokenMailTopic = "api_token.expiry"
)

// RemindExpiringTokens writes the expiry reminders due at now into the outbox and reports
// how many it wrote.
func RemindExpiringTokens(ctx context.Context, db *database.DB, now time.Time) (int, error) {
	tokens := &auth.APITokens{DB: db}
	due, err := tokens.DueReminders(ctx, now)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, r := range due {
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			claimed, err := tokens.ClaimReminder(ctx, tx, r, now)
			if err != nil || !claimed || !r.Send {
				return err
			}
			addresses, err := Addresses(ctx, tx, []int64{r.UserID})
			if err != nil || strings.TrimSpace(addresses[r.UserID]) == "" {
				return err // no address (or the account is deactivated): the profile's notice says it
			}
			m, err := tokenReminder(ctx, tx, r)
			if err != nil {
				return err
			}
			m.To = addresses[r.UserID]
			if err := mail.Enqueue(ctx, tx, now, m); err != nil {
				return err
			}
			sent++
			return nil
		})
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// tokenReminder is the e-mail that tells an owner their token ends: its name and day, and
// where to make its successor, in the four languages (accounts carry no language).
func tokenReminder(ctx context.Context, q database.Querier, r auth.Reminder) (mail.Message, error) {
	clinic, err := settings.ReadClinic(ctx, q)
	if err != nil {
		return mail.Message{}, err
	}
	var subject []string
	var body strings.Builder
	day := r.ExpiresAt.UTC().Format(time.DateOnly)
	for _, lang := range i18n.Languages {
		subject = append(subject, i18n.T(lang, "api_token.mail_subject"))
		body.WriteString(i18n.T(lang, "api_token.mail_expires", r.Name, day) + "\n")
		if clinic.PublicURL != "" {
			body.WriteString(i18n.T(lang, "api_token.mail_open", strings.TrimRight(clinic.PublicURL, "/")+"/profile/edit") + "\n\n")
		} else {
			body.WriteString(i18n.T(lang, "api_token.mail_open_app") + "\n\n")
		}
	}
	return mail.Message{Topic: TokenMailTopic, TopicID: r.TokenID, UserID: r.UserID, Subject: "EMR: " + strings.Join(subject, " · "), Body: body.String()}, nil
}
