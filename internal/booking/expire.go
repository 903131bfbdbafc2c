package booking

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

// ExpireEvery is how often requests the desk has not answered are looked at (Expire).
const ExpireEvery = time.Minute

// expiredReason is the decline reason of a request no one answered in time.
const expiredReason = "not answered in time"

// Expire declines each request still waiting for the desk once its time is nearer than the
// clinic's online notice (the attacker's review, M2: unanswered requests expiring): the patient
// is told, as by a decline, that the clinic could not take the booking — in time to make
// other plans, not after the hour has passed — and the doctor's time is free again. Audited
// booking.expire, the online booking as actor. It answers how many it declined.
func (s *Store) Expire(ctx context.Context) (int, error) {
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return 0, err
	}
	now := s.now()
	due, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT id FROM booking_requests WHERE status = 'requested' AND starts_at < $1
		ORDER BY starts_at LIMIT 200`, now.Add(time.Duration(set.NoticeMinutes)*time.Minute)))
	if err != nil {
		return 0, fmt.Errorf("read requests to expire: %w", err)
	}
	n := 0
	for _, id := range due {
		err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
			var version int
			if err := tx.QueryRowContext(ctx, `SELECT version FROM booking_requests WHERE id = $1 AND status = 'requested'`, id).Scan(&version); err != nil {
				return err
			}
			e := audit.Event{At: now, ActorName: "online booking", Action: "booking.expire", EntityType: "booking",
				EntityID: strconv.FormatInt(id, 10), Outcome: audit.Success, Detail: expiredReason}
			r, err := decide(ctx, tx, audit.Event{}, id, version, Declined, expiredReason, now)
			if err != nil {
				return err
			}
			if err := s.tellDeclined(ctx, tx, r, now); err != nil {
				return err
			}
			return audit.Record(ctx, tx, e)
		})
		var refused *apperr.Error
		switch {
		case err == nil:
			n++
		case errors.Is(err, sql.ErrNoRows), errors.As(err, &refused) && refused.Kind == apperr.KindConflict:
			// The desk answered it meanwhile.
		default:
			return n, err
		}
	}
	return n, nil
}
