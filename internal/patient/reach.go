package patient

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
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
