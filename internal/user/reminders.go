package user

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
)

// Before an API token expires its owner is reminded by e-mail (when the account has an
// address), RemindEarly and RemindLate before, once each: the job marks a reminder in the
// transaction that writes it into the outbox, so that however many instances run the job,
// one sends it. A token made to live less than a reminder's lead gets no such reminder.
const (
	RemindEarly = 14 * 24 * time.Hour
	RemindLate  = 24 * time.Hour
	// RemindEvery is how often the server looks for tokens to remind about.
	RemindEvery = 10 * time.Minute
	// TokenMailTopic is the outbox topic of a token's expiry reminder.
	TokenMailTopic = "api_token.expiry"
)

// RemindExpiringTokens writes the expiry reminders due at now into the outbox and reports
// how many it wrote.
func RemindExpiringTokens(ctx context.Context, db *database.DB, now time.Time) (int, error) {
	now = now.UTC()
	type due struct {
		id, user         int64
		name             string
		created, expires time.Time
		early, late      bool // reminded already
	}
	rows, err := db.QueryContext(ctx, `SELECT id, user_id, name, created_at, expires_at, reminded_14_at IS NOT NULL, reminded_1_at IS NOT NULL
		FROM api_tokens WHERE revoked_at IS NULL AND expires_at > $1 AND expires_at <= $2 AND (reminded_14_at IS NULL OR reminded_1_at IS NULL)
		ORDER BY expires_at LIMIT 500`, now, now.Add(RemindEarly))
	if err != nil {
		return 0, fmt.Errorf("read tokens to remind: %w", err)
	}
	var list []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.user, &d.name, &d.created, &d.expires, &d.early, &d.late); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	sent := 0
	for _, d := range list {
		left, lifetime := d.expires.Sub(now), d.expires.Sub(d.created)
		column, lead := "reminded_14_at", RemindEarly
		if left <= RemindLate {
			column, lead = "reminded_1_at", RemindLate
			if d.late {
				continue
			}
		} else if d.early {
			continue
		}
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			// Claim the reminder (both, at the late one: the early one is past); a claim
			// another instance made first leaves nothing to do.
			query := `UPDATE api_tokens SET ` + column + ` = $1 WHERE id = $2 AND ` + column + ` IS NULL AND revoked_at IS NULL`
			if column == "reminded_1_at" {
				query = `UPDATE api_tokens SET reminded_1_at = $1, reminded_14_at = COALESCE(reminded_14_at, $1) WHERE id = $2 AND reminded_1_at IS NULL AND revoked_at IS NULL`
			}
			res, err := tx.ExecContext(ctx, query, now, d.id)
			if err != nil {
				return fmt.Errorf("claim a token reminder: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 || lifetime <= lead {
				return err
			}
			addresses, err := Addresses(ctx, tx, []int64{d.user})
			if err != nil || strings.TrimSpace(addresses[d.user]) == "" {
				return err // no address (or the account is deactivated): the profile's notice says it
			}
			m, err := tokenReminder(ctx, tx, d.id, d.user, d.name, d.expires)
			if err != nil {
				return err
			}
			m.To = addresses[d.user]
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
func tokenReminder(ctx context.Context, q database.Querier, id, userID int64, name string, expires time.Time) (mail.Message, error) {
	clinic, err := settings.ReadClinic(ctx, q)
	if err != nil {
		return mail.Message{}, err
	}
	var subject []string
	var body strings.Builder
	day := expires.UTC().Format(time.DateOnly)
	for _, lang := range i18n.Languages {
		subject = append(subject, i18n.T(lang, "api_token.mail_subject"))
		body.WriteString(i18n.T(lang, "api_token.mail_expires", name, day) + "\n")
		if clinic.PublicURL != "" {
			body.WriteString(i18n.T(lang, "api_token.mail_open", clinic.PublicURL+"/profile/edit") + "\n\n")
		} else {
			body.WriteString(i18n.T(lang, "api_token.mail_open_app") + "\n\n")
		}
	}
	return mail.Message{Topic: TokenMailTopic, TopicID: id, UserID: userID, Subject: "EMR: " + strings.Join(subject, " · "), Body: body.String()}, nil
}
