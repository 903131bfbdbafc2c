package auth

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Before an API token expires its owner is reminded (by its owner's package, which knows the
// address), RemindEarly and RemindLate before, once each: a reminder is claimed in the
// transaction that writes it, so that however many instances look, one sends it.
const (
	RemindEarly = 14 * 24 * time.Hour
	RemindLate  = 24 * time.Hour
)

// Reminder is an expiry reminder due for a token.
type Reminder struct {
	TokenID, UserID int64
	Name            string
	ExpiresAt       time.Time
	Late            bool // the 1-day reminder (else the 14-day one)
	// Send is false for a token made to live less than the reminder's lead: the claim only
	// marks it, nothing is sent.
	Send bool
}

// DueReminders lists the reminders due at now (at most 500, soonest expiry first).
func (t *APITokens) DueReminders(ctx context.Context, now time.Time) ([]Reminder, error) {
	now = now.UTC()
	rows, err := t.DB.QueryContext(ctx, `SELECT id, user_id, name, created_at, expires_at, reminded_14_at IS NOT NULL, reminded_1_at IS NOT NULL
		FROM api_tokens WHERE revoked_at IS NULL AND expires_at > $1 AND expires_at <= $2 AND (reminded_14_at IS NULL OR reminded_1_at IS NULL)
		ORDER BY expires_at LIMIT 500`, now, now.Add(RemindEarly))
	if err != nil {
		return nil, fmt.Errorf("read tokens to remind: %w", err)
	}
	defer rows.Close()
	var out []Reminder
	for rows.Next() {
		var r Reminder
		var created time.Time
		var early, late bool
		if err := rows.Scan(&r.TokenID, &r.UserID, &r.Name, &created, &r.ExpiresAt, &early, &late); err != nil {
			return nil, err
		}
		left, lifetime := r.ExpiresAt.Sub(now), r.ExpiresAt.Sub(created)
		switch {
		case left <= RemindLate && !late:
			r.Late, r.Send = true, lifetime > RemindLate
		case left > RemindLate && !early:
			r.Send = lifetime > RemindEarly
		default:
			continue
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ClaimReminder marks r sent inside tx (the late one marks the early one too: it is past)
// and reports whether this caller claimed it; false when another instance did first or the
// token has ended meanwhile.
func (t *APITokens) ClaimReminder(ctx context.Context, tx *sql.Tx, r Reminder, now time.Time) (bool, error) {
	query := `UPDATE api_tokens SET reminded_14_at = $1 WHERE id = $2 AND reminded_14_at IS NULL AND revoked_at IS NULL`
	if r.Late {
		query = `UPDATE api_tokens SET reminded_1_at = $1, reminded_14_at = COALESCE(reminded_14_at, $1) WHERE id = $2 AND reminded_1_at IS NULL AND revoked_at IS NULL`
	}
	res, err := tx.ExecContext(ctx, query, now.UTC(), r.TokenID)
	if err != nil {
		return false, fmt.Errorf("claim a token reminder: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
