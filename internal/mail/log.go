package mail

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/database"
)

// Entry is one message as the message log shows it.
type Entry struct {
	ID        int64      `json:"id"`
	Topic     string     `json:"topic"`
	TopicID   int64      `json:"topic_id"`
	Channel   string     `json:"channel"`
	PatientID *int64     `json:"patient_id"`
	To        string     `json:"to"`
	Status    string     `json:"status"`
	Attempts  int        `json:"attempts"`
	LastError string     `json:"last_error"`
	CreatedAt time.Time  `json:"created_at"`
	DueAt     time.Time  `json:"due_at"`
	SentAt    *time.Time `json:"sent_at"`
	// ExpiresAt is when what it says no longer holds (read for a resend's check only).
	ExpiresAt *time.Time `json:"-"`
}

// Filter picks the log's messages: among Topics (required), by status and channel ("" any),
// written in [From, To), one page of Limit after the id After (newest first).
type Filter struct {
	Topics  []string
	Status  string
	Channel string
	From    time.Time
	To      time.Time
	Before  int64 // list messages older than this id (0: from the newest)
	Limit   int
	TopicID int64 // one topic's (an appointment's) messages only, 0: all
}

// Log lists the messages f picks, newest first.
func Log(ctx context.Context, q database.Querier, f Filter) ([]Entry, error) {
	if len(f.Topics) == 0 {
		return nil, nil
	}
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	var in []string
	for _, t := range f.Topics {
		in = append(in, arg(t))
	}
	where = append(where, "topic IN ("+strings.Join(in, ", ")+")")
	if f.Status != "" {
		where = append(where, "status = "+arg(f.Status))
	}
	if f.Channel != "" {
		where = append(where, "channel = "+arg(f.Channel))
	}
	if !f.From.IsZero() {
		where = append(where, "created_at >= "+arg(f.From.UTC()))
	}
	if !f.To.IsZero() {
		where = append(where, "created_at < "+arg(f.To.UTC()))
	}
	if f.Before > 0 {
		where = append(where, "id < "+arg(f.Before))
	}
	if f.TopicID > 0 {
		where = append(where, "topic_id = "+arg(f.TopicID))
	}
	limit := f.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	rows, err := q.QueryContext(ctx, `SELECT id, topic, topic_id, channel, patient_id, recipient, status, attempts, last_error, created_at, next_attempt_at, sent_at
		FROM mail_outbox WHERE `+strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT `+arg(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("read the message log: %w", err)
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.Topic, &e.TopicID, &e.Channel, &e.PatientID, &e.To, &e.Status, &e.Attempts, &e.LastError, &e.CreatedAt, &e.DueAt, &e.SentAt); err != nil {
			return nil, err
		}
		e.CreatedAt, e.DueAt = e.CreatedAt.UTC(), e.DueAt.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// Resend puts a failed message among topics back in the queue, due now, its give-up time
// counted afresh, once holds (the feature's check that what it says still holds, with the
// recipient unmasked) has passed it; it returns the message (for the audit).
func Resend(ctx context.Context, tx *sql.Tx, topics []string, id int64, now time.Time, holds func(Entry) error) (Entry, error) {
	var e Entry
	err := tx.QueryRowContext(ctx, `SELECT id, topic, topic_id, channel, patient_id, status, recipient, expires_at FROM mail_outbox WHERE id = $1`, id).
		Scan(&e.ID, &e.Topic, &e.TopicID, &e.Channel, &e.PatientID, &e.Status, &e.To, &e.ExpiresAt)
	known := false
	for _, t := range topics {
		known = known || t == e.Topic
	}
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !known) {
		return e, apperr.NotFound("reminder.message_not_found")
	}
	if err != nil {
		return e, fmt.Errorf("read a message: %w", err)
	}
	if e.Status != Failed {
		return e, apperr.Conflict("reminder.not_failed")
	}
	if holds != nil {
		if err := holds(e); err != nil {
			return e, err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, created_at = $2, next_attempt_at = $2, claimed_until = NULL WHERE id = $3 AND status = $4`,
		Pending, now.UTC(), id, Failed)
	if err != nil {
		return e, fmt.Errorf("resend a message: %w", err)
	}
	return e, nil
}

// Mask hides most of an address or phone number for a list: "a***@example.org", "•••••4567".
func Mask(channel, to string) string {
	if to == "" {
		return ""
	}
	if channel == SMS {
		r := []rune(to)
		if len(r) <= 4 {
			return strings.Repeat("•", len(r))
		}
		return strings.Repeat("•", len(r)-4) + string(r[len(r)-4:])
	}
	local, domain, ok := strings.Cut(to, "@")
	if !ok || local == "" {
		return "•••"
	}
	return string([]rune(local)[:1]) + "•••@" + domain
}

// Newer reports whether a message under topics about topicID was written after message id.
func Newer(ctx context.Context, q database.Querier, topics []string, topicID, id int64) (bool, error) {
	for _, t := range topics {
		var n int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1 AND topic_id = $2 AND id > $3`, t, topicID, id).Scan(&n); err != nil {
			return false, fmt.Errorf("read newer messages: %w", err)
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}
