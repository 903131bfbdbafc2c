package patient

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/textsearch"
)

// Reach is how a patient is reached with the clinic's messages.
type Reach struct {
	ID        int64
	FirstName string
	Phone     string
	Email     string
	// Reminders is "email", "sms" or "none"; Language "" for the clinic's.
	Reminders string
	Language  string
}

// ReachOf reads how patient id is reached, in q (a feature's transaction).
func ReachOf(ctx context.Context, q database.Querier, id int64) (Reach, error) {
	r := Reach{ID: id}
	err := q.QueryRowContext(ctx, `SELECT first_name, phone, email, reminders, message_language FROM patients WHERE id = $1`, id).
		Scan(&r.FirstName, &r.Phone, &r.Email, &r.Reminders, &r.Language)
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.NotFound("patient.not_found")
	}
	if err != nil {
		return r, fmt.Errorf("read patient's contact: %w", err)
	}
	return r, nil
}

// OptOutIn stops the patient's appointment messages (reminders "none"), inside tx, audited
// as e's: the patient's own choice, from a message's link.
func OptOutIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE patients SET reminders = 'none', updated_at = $1, version = version + 1 WHERE id = $2 AND reminders <> 'none'`, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("opt out: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // already out
	}
	if err := snapshot(ctx, tx, id, e, now); err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "patient.opt_out", "patient", strconv.FormatInt(id, 10), audit.Success, now.UTC()
	e.Detail = "changed: reminders (opted out from a message)"
	return audit.Record(ctx, tx, e)
}

// byEmail finds the patients of an e-mail address (lower case) through patients_email.
const byEmail = `SELECT id FROM patients WHERE lower(email) = $1 AND archived_at IS NULL ORDER BY id`

// ByContact lists the patients (not archived) whose e-mail address (channel "email", address
// in lower case) or phone number (channel "sms") is address: whose record a one-time code
// sent there may open. A phone number is found by its national digits and kept only when it
// is the same line (textsearch.PhoneIdentity, home the clinic's calling code): the same
// digits in another country open nothing.
func ByContact(ctx context.Context, q database.Querier, channel, address, home string) ([]int64, error) {
	var rows *sql.Rows
	var err error
	switch channel {
	case "email":
		rows, err = q.QueryContext(ctx, byEmail, strings.ToLower(address))
	case "sms":
		key := textsearch.PhoneKey(address)
		if len(key) < 6 {
			return nil, nil
		}
		rows, err = q.QueryContext(ctx, `SELECT id, phone FROM patients WHERE phone_key = $1 AND archived_at IS NULL ORDER BY id`, key)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find patients by contact: %w", err)
	}
	defer rows.Close()
	var out []int64
	want := textsearch.PhoneIdentity(address, home)
	for rows.Next() {
		var id int64
		phone := address
		dest := []any{&id}
		if channel == "sms" {
			dest = append(dest, &phone)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("find patients by contact: %w", err)
		}
		if channel == "sms" && textsearch.PhoneIdentity(phone, home) != want {
			continue // the same national digits, another line
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
