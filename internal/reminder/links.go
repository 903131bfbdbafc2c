package reminder

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/database"
	"emr/internal/secret"
)

// A link's purpose: the appointment page (confirm or cancel), or opting out of messages.
const (
	ForAppointment = "appointment"
	ForOptOut      = "optout"
)

// OptOutLifetime is how long an opt-out link works; an appointment's link works until the
// appointment begins.
const OptOutLifetime = 90 * 24 * time.Hour

const macPurpose = "patient message link"

// link is one message link's row.
type link struct {
	ID            int64
	AppointmentID int64
	PatientID     int64
	ExpiresAt     time.Time
	UsedAt        *time.Time
	UsedFor       string
}

// Token states a link page may show.
const (
	StateOK      = "ok"
	StateUsed    = "used"
	StateExpired = "expired"
	StateInvalid = "invalid"
)

// newLink writes a link's row in tx and returns its token: "ID.EXPIRY.PURPOSE.KEY.MAC",
// the MAC (HMAC-SHA256 under the server's key file, truncated to 128 bits) over the first
// three, so that no one can make or change one; the row makes it single-use.
func newLink(ctx context.Context, tx *sql.Tx, ring *secret.Ring, appointmentID, patientID int64, purpose string, now, expires time.Time) (string, error) {
	expires = expires.UTC().Truncate(time.Second) // as the token carries it
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO message_links (appointment_id, patient_id, created_at, expires_at, purpose, used_for)
		VALUES ($1, $2, $3, $4, $5, '') RETURNING id`, appointmentID, patientID, now.UTC(), expires.UTC(), purpose).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("write a message link: %w", err)
	}
	payload := strconv.FormatInt(id, 10) + "." + strconv.FormatInt(expires.Unix(), 10) + "." + purpose
	mac := ring.MAC(macPurpose, []byte(payload))
	key, sum, _ := strings.Cut(mac, ":")
	return payload + "." + key + "." + sum[:32], nil
}

// parsed is what a token says, once its MAC is checked.
type parsed struct {
	id      int64
	expires time.Time
	purpose string
}

// parseToken checks a token's MAC under every key of the file; false: made or changed by
// someone without the key.
func parseToken(ring *secret.Ring, token string) (parsed, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 5 || len(token) > 200 {
		return parsed{}, false
	}
	payload := strings.Join(parts[:3], ".")
	ok := false
	for _, mac := range ring.MACs(macPurpose, []byte(payload)) {
		key, sum, _ := strings.Cut(mac, ":")
		if key == parts[3] && subtle.ConstantTimeCompare([]byte(sum[:32]), []byte(parts[4])) == 1 {
			ok = true
		}
	}
	if !ok {
		return parsed{}, false
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || (parts[2] != ForAppointment && parts[2] != ForOptOut) {
		return parsed{}, false
	}
	return parsed{id: id, expires: time.Unix(exp, 0).UTC(), purpose: parts[2]}, true
}

func readLink(ctx context.Context, q database.Querier, id int64) (link, error) {
	var l link
	err := q.QueryRowContext(ctx, `SELECT id, appointment_id, patient_id, expires_at, used_at, used_for FROM message_links WHERE id = $1`, id).
		Scan(&l.ID, &l.AppointmentID, &l.PatientID, &l.ExpiresAt, &l.UsedAt, &l.UsedFor)
	if errors.Is(err, sql.ErrNoRows) {
		return l, errNoLink
	}
	return l, err
}

var errNoLink = errors.New("no such link")

// use marks link id used for what, once: false when it was used meanwhile.
func use(ctx context.Context, tx *sql.Tx, id int64, what string, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE message_links SET used_at = $1, used_for = $2 WHERE id = $3 AND used_at IS NULL`, now.UTC(), what, id)
	if err != nil {
		return false, fmt.Errorf("use a message link: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// supersede marks an appointment's unused appointment links used: a newer message (a new
// time, a cancellation) has its own, and an older one must not confirm what changed.
func supersede(ctx context.Context, tx *sql.Tx, appointmentID int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE message_links SET used_at = $1, used_for = 'superseded' WHERE appointment_id = $2 AND used_at IS NULL
		AND purpose = $3`, now.UTC(), appointmentID, ForAppointment)
	if err != nil {
		return fmt.Errorf("retire older message links: %w", err)
	}
	return nil
}
