package mail

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
)

// The states of a message in the outbox.
const (
	Pending   = "pending"    // waiting to be sent (again) at next_attempt_at
	Sent      = "sent"       // the mail server took it
	Failed    = "failed"     // refused for good, or retries ran out: not tried again
	NoAddress = "no_address" // the recipient's account has no e-mail address: nothing to send
	Cancelled = "cancelled"  // what it said no longer held before it went: never sent
)

// Retrying: the first retry after FirstRetry, each next one twice as late up to MaxRetry
// between tries; a message still unsent GiveUpAfter its writing is failed (the alert it tells
// about is in the app all along).
const (
	FirstRetry  = 30 * time.Second
	MaxRetry    = 30 * time.Minute
	GiveUpAfter = 24 * time.Hour
	// lease is how long a sender holds a message it is sending, so that another instance
	// does not send it too; longer than one conversation's time-out.
	lease = 2 * time.Minute
)

// Message is what a feature has to say to one person by e-mail or SMS.
type Message struct {
	Topic   string // what it is about, e.g. "critical_alert.1"
	TopicID int64  // which one
	// Channel is Email ("" too) or SMS.
	Channel   string
	UserID    int64  // the recipient's account, 0 for none
	PatientID int64  // or the recipient patient, 0 for none
	To        string // the address or phone number; "" when there is none (kept as no_address)
	Subject   string // e-mail only
	Body      string
	// DueAt, when set, is when it is to go (a reminder); zero: now.
	DueAt time.Time
	// ExpiresAt, when set, is when it no longer holds: one not sent by then is cancelled.
	ExpiresAt time.Time
	// Dropped, when set, keeps the message as cancelled from the start, with this reason
	// (a reminder that quiet hours left no time for): the log shows why none went.
	Dropped string
	// Unsendable, when set, keeps the message as failed from the start, with this reason (no
	// sender for its channel is configured): it can be sent again once one is.
	Unsendable string
}

// Enqueue writes m into the outbox inside tx, the transaction of the change it tells about.
func Enqueue(ctx context.Context, tx *sql.Tx, now time.Time, m Message) error {
	status := Pending
	if strings.TrimSpace(m.To) == "" {
		status = NoAddress
	}
	reason := m.Dropped
	switch {
	case m.Dropped != "":
		status = Cancelled
	case status == Pending && m.Unsendable != "":
		status, reason = Failed, m.Unsendable
	}
	channel := m.Channel
	if channel == "" {
		channel = Email
	}
	due := now.UTC()
	if !m.DueAt.IsZero() && m.DueAt.After(now) {
		due = m.DueAt.UTC()
	}
	var expires any
	if !m.ExpiresAt.IsZero() {
		expires = m.ExpiresAt.UTC()
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_outbox (topic, topic_id, user_id, recipient, subject, body, status, created_at, next_attempt_at,
		channel, patient_id, expires_at, last_error)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, m.Topic, m.TopicID, nullID(m.UserID), strings.TrimSpace(m.To), m.Subject, m.Body, status, now.UTC(), due,
		channel, nullID(m.PatientID), expires, reason)
	if err != nil {
		return fmt.Errorf("write e-mail to the outbox: %w", err)
	}
	return nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// Cancel marks the messages about id under topics still waiting to be sent cancelled, inside
// tx, the transaction of the change that made them untrue (a critical alert withdrawn before
// its "critical result waiting" went out). One a sender holds now is cancelled too: the
// attempt on its way may still be accepted (and is then recorded sent), but a failed one is
// never tried again. It reports how many it cancelled.
func Cancel(ctx context.Context, tx *sql.Tx, now time.Time, topics []string, id int64) (int, error) {
	n := 0
	for _, topic := range topics {
		res, err := tx.ExecContext(ctx, `UPDATE mail_outbox SET status = $1 WHERE topic = $2 AND topic_id = $3 AND status = $4`,
			Cancelled, topic, id, Pending)
		if err != nil {
			return n, fmt.Errorf("cancel e-mails: %w", err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	return n, nil
}

// WithdrawFor cancels, inside tx, the messages under topics still waiting for patient
// patientID (as Cancel) and returns, per topic id, the topics it withdrew, in the order written.
func WithdrawFor(ctx context.Context, tx *sql.Tx, topics []string, patientID int64) (map[int64][]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, topic, topic_id FROM mail_outbox WHERE patient_id = $1 AND status = $2 ORDER BY id`, patientID, Pending)
	if err != nil {
		return nil, fmt.Errorf("read waiting messages: %w", err)
	}
	type waiting struct {
		id, topicID int64
		topic       string
	}
	var list []waiting
	for rows.Next() {
		var w waiting
		if err := rows.Scan(&w.id, &w.topic, &w.topicID); err != nil {
			rows.Close()
			return nil, err
		}
		for _, t := range topics {
			if t == w.topic {
				list = append(list, w)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := map[int64][]string{}
	for _, w := range list {
		res, err := tx.ExecContext(ctx, `UPDATE mail_outbox SET status = $1 WHERE id = $2 AND status = $3`, Cancelled, w.id, Pending)
		if err != nil {
			return nil, fmt.Errorf("withdraw a message: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			out[w.topicID] = append(out[w.topicID], w.topic)
		}
	}
	return out, nil
}

// Delivery is what became of one message, for the screen that shows its topic.
type Delivery struct {
	Topic     string     `json:"topic"`
	TopicID   int64      `json:"-"`
	Channel   string     `json:"channel"`
	UserID    *int64     `json:"user_id"`
	To        string     `json:"to"`
	Status    string     `json:"status"`
	Attempts  int        `json:"attempts"`
	LastError string     `json:"last_error"`
	SentAt    *time.Time `json:"sent_at"`
}

// Deliveries lists the messages about ids under the topics given, in the order written.
func Deliveries(ctx context.Context, q database.Querier, topics []string, ids []int64) ([]Delivery, error) {
	var out []Delivery
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "topic_id", chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT topic, topic_id, channel, user_id, recipient, status, attempts, last_error, sent_at
			FROM mail_outbox WHERE `+in+` ORDER BY id`, args...)
		if err != nil {
			return fmt.Errorf("read e-mail deliveries: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d Delivery
			if err := rows.Scan(&d.Topic, &d.TopicID, &d.Channel, &d.UserID, &d.To, &d.Status, &d.Attempts, &d.LastError, &d.SentAt); err != nil {
				return err
			}
			for _, t := range topics {
				if d.Topic == t {
					out = append(out, d)
				}
			}
		}
		return rows.Err()
	})
	return out, err
}

// Sender hands one message to a mail server (*Server; tests may count).
type Sender interface {
	Send(ctx context.Context, m Envelope) error
}

// Outbox sends what is due in mail_outbox through Server.
type Outbox struct {
	DB     *database.DB
	Server Sender // e-mail; nil: e-mail waits
	// SMS sends text messages; nil: they wait (no gateway given).
	SMS Sender
	// Domain names the Message-IDs (the sender's domain).
	Domain string
	// Now is the clock (tests move it); nil: the time now.
	Now func() time.Time
	// Every is how often Run looks for due messages (default 5 s).
	Every time.Duration
}

func (o *Outbox) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// Run sends due messages every o.Every until ctx ends.
func (o *Outbox) Run(ctx context.Context) {
	every := o.Every
	if every <= 0 {
		every = 5 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := o.SendDue(ctx); err != nil && ctx.Err() == nil {
			if !failing {
				slog.Error("send e-mail from the outbox", "err", err)
			}
			failing = true
			continue
		}
		failing = false
	}
}

type due struct {
	id        int64
	channel   string
	expiresAt *time.Time
	to        string
	subject   string
	body      string
	createdAt time.Time
	attempts  int
}

// SendDue sends every message due now, each under a lease (no other instance sends it
// meanwhile), and records each outcome; it returns how many the server took. A message is
// marked sent only once the server has accepted it.
func (o *Outbox) SendDue(ctx context.Context) (int, error) {
	now := o.now()
	var channels []any
	for _, c := range []struct {
		name string
		s    Sender
	}{{Email, o.Server}, {SMS, o.SMS}} {
		if c.s != nil {
			channels = append(channels, c.name)
		}
	}
	if len(channels) == 0 {
		return 0, nil
	}
	if len(channels) == 1 {
		channels = append(channels, channels[0])
	}
	rows, err := o.DB.QueryContext(ctx, `SELECT id, channel, recipient, subject, body, created_at, attempts, expires_at FROM mail_outbox
		WHERE status = $1 AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until < $2) AND channel IN ($3, $4)
		ORDER BY next_attempt_at, id LIMIT 50`, Pending, now, channels[0], channels[1])
	if err != nil {
		return 0, fmt.Errorf("read the outbox: %w", err)
	}
	var list []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.channel, &d.to, &d.subject, &d.body, &d.createdAt, &d.attempts, &d.expiresAt); err != nil {
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
		res, err := o.DB.ExecContext(ctx, `UPDATE mail_outbox SET claimed_until = $1 WHERE id = $2 AND status = $3 AND (claimed_until IS NULL OR claimed_until < $4)`,
			now.Add(lease), d.id, Pending, now)
		if err != nil {
			return sent, fmt.Errorf("claim an e-mail: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // another instance has it
		}
		if d.expiresAt != nil && !now.Before(*d.expiresAt) {
			// What it says no longer holds (its appointment has begun): never sent late.
			if _, err := o.DB.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, last_error = $2, claimed_until = NULL WHERE id = $3`,
				Cancelled, "expired before it could be sent", d.id); err != nil {
				return sent, fmt.Errorf("record an expired message: %w", err)
			}
			continue
		}
		sender := o.Server
		if d.channel == SMS {
			sender = o.SMS
		}
		err = sender.Send(ctx, Envelope{To: d.to, Subject: d.subject, Body: d.body, MessageID: o.messageID(d)})
		if ctx.Err() != nil {
			return sent, ctx.Err() // stopping: the lease runs out and the next start sends it
		}
		if err == nil {
			sent++
		}
		if err := o.settle(ctx, d, err); err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// settle records one attempt's outcome: sent, failed for good, or due again after back-off.
// A message withdrawn while the attempt was on its way (Cancel) stays cancelled unless the
// other side accepted it (then it went, and the log must say so): it is never put back in
// the queue.
func (o *Outbox) settle(ctx context.Context, d due, sendErr error) error {
	now := o.now()
	attempts := d.attempts + 1
	var err error
	switch {
	case sendErr == nil:
		_, err = o.DB.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, attempts = $2, last_error = '', sent_at = $3, claimed_until = NULL WHERE id = $4`,
			Sent, attempts, now, d.id)
	case errors.As(sendErr, new(*PermanentError)) || now.Sub(d.createdAt) >= GiveUpAfter:
		_, err = o.DB.ExecContext(ctx, `UPDATE mail_outbox SET status = CASE WHEN status = $1 THEN $2 ELSE status END, attempts = $3, last_error = $4,
			claimed_until = NULL WHERE id = $5`, Pending, Failed, attempts, Reason(sendErr), d.id)
	default:
		_, err = o.DB.ExecContext(ctx, `UPDATE mail_outbox SET attempts = $1, last_error = $2, next_attempt_at = $3, claimed_until = NULL WHERE id = $4`,
			attempts, Reason(sendErr), now.Add(Backoff(attempts)), d.id)
	}
	if err != nil {
		return fmt.Errorf("record an e-mail's delivery: %w", err)
	}
	return nil
}

// Backoff is the wait after the attempts-th failed attempt: FirstRetry, doubling, at most MaxRetry.
func Backoff(attempts int) time.Duration {
	wait := FirstRetry
	for i := 1; i < attempts && wait < MaxRetry; i++ {
		wait *= 2
	}
	return min(wait, MaxRetry)
}

func (o *Outbox) messageID(d due) string {
	domain := o.Domain
	if domain == "" {
		domain = "emr.invalid"
	}
	return "<outbox-" + strconv.FormatInt(d.id, 10) + "." + strconv.FormatInt(d.createdAt.UnixNano(), 36) + "@" + domain + ">"
}

// Reason is the short, classified cause of a failed attempt kept in last_error and shown
// to staff: who refused and with what code, or that nothing answered. Never the recipient,
// the message, or what the other side wrote back (it may echo a link or a number).
func Reason(err error) string {
	var status *GatewayStatus
	var reply *textproto.Error
	var netErr net.Error
	switch {
	case errors.As(err, &status) && status.Retry:
		return "SMS gateway answered: " + strconv.Itoa(status.Code)
	case errors.As(err, &status):
		return "SMS gateway refused: " + strconv.Itoa(status.Code)
	case errors.As(err, &reply) && reply.Code >= 500:
		return "mail server refused: " + strconv.Itoa(reply.Code)
	case errors.As(err, &reply):
		return "mail server answered: " + strconv.Itoa(reply.Code)
	case errors.Is(err, errNoSTARTTLS):
		return errNoSTARTTLS.Error()
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return "no answer"
	case errors.As(err, new(*net.OpError)):
		return "no connection"
	case errors.As(err, new(*tls.CertificateVerificationError)) || errors.As(err, new(tls.RecordHeaderError)):
		return "TLS failed"
	}
	return "not sent"
}

// Forget blanks the text of topic's message topicID once it has done its work (a one-time
// code, used): a secret is not kept in the outbox longer than it is good for.
func Forget(ctx context.Context, tx *sql.Tx, topic string, topicID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE mail_outbox SET body = '' WHERE topic = $1 AND topic_id = $2`, topic, topicID); err != nil {
		return fmt.Errorf("forget a message's text: %w", err)
	}
	return nil
}
