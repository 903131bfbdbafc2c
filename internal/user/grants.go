package user

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
)

// Emergency ("break-the-glass") grants: the emergency_grants table is the user store's.

// GrantEmergency gives userID extra clinical permissions for hours, with a reason, replacing
// a grant in force; audited as e's.
func (s *Store) GrantEmergency(ctx context.Context, e audit.Event, userID int64, perms []auth.Permission, hours int, reason string) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := grantable(ctx, tx, e.ActorID, userID); err != nil {
			return err
		}
		now := time.Now().UTC()
		if _, err := endGrants(ctx, tx, userID, e.ActorID, now); err != nil {
			return err
		}
		list, _ := json.Marshal(perms)
		var grant int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO emergency_grants (user_id, granted_by, reason, permissions, starts_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, userID, e.ActorID, reason, string(list), now, now.Add(time.Duration(hours)*time.Hour)).Scan(&grant); err != nil {
			return fmt.Errorf("grant emergency access: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.grant", "user", strconv.FormatInt(userID, 10), audit.Success
		e.Detail = fmt.Sprintf("grant %d for %d h: %s", grant, hours, joinPermissions(perms))
		return audit.Record(ctx, tx, e)
	})
}

// EndEmergency ends userID's emergency access now; a conflict when none is in force.
func (s *Store) EndEmergency(ctx context.Context, e audit.Event, userID int64) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		n, err := endGrants(ctx, tx, userID, e.ActorID, time.Now().UTC())
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Conflict("emergency.none")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.end", "user", strconv.FormatInt(userID, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// grantable checks that target may receive emergency access from actor: an active account,
// not the actor's own and not an administrator's (who holds everything already).
func grantable(ctx context.Context, tx *sql.Tx, actor, target int64) error {
	u, err := Get(ctx, tx, target)
	switch {
	case err != nil:
		return err
	case target == actor:
		return apperr.Conflict("emergency.self")
	case !u.Active:
		return apperr.Conflict("emergency.inactive")
	case slices.Contains(u.Roles, auth.AdminRole):
		return apperr.Conflict("emergency.admin")
	}
	return nil
}

// endGrants ends every grant of userID still in force and says how many there were.
func endGrants(ctx context.Context, tx *sql.Tx, userID, by int64, now time.Time) (int64, error) {
	res, err := tx.ExecContext(ctx, `UPDATE emergency_grants SET ended_at = $1, ended_by = $2
		WHERE user_id = $3 AND ended_at IS NULL AND expires_at > $1`, now, by, userID)
	if err != nil {
		return 0, fmt.Errorf("end emergency access: %w", err)
	}
	return res.RowsAffected()
}

func joinPermissions(perms []auth.Permission) string {
	s := make([]string, len(perms))
	for i, p := range perms {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

// ActiveEmergency returns userID's grant in force at now, or nil.
func ActiveEmergency(ctx context.Context, q database.Querier, userID int64, now time.Time) (*auth.Emergency, error) {
	g := &auth.Emergency{}
	var perms string
	err := q.QueryRowContext(ctx, `SELECT g.id, g.reason, g.permissions, g.starts_at, g.expires_at, u.name
		FROM emergency_grants g JOIN users u ON u.id = g.granted_by
		WHERE g.user_id = $1 AND g.ended_at IS NULL AND g.starts_at <= $2 AND g.expires_at > $2
		ORDER BY g.id DESC LIMIT 1`, userID, now.UTC()).Scan(&g.ID, &g.Reason, &perms, &g.StartsAt, &g.ExpiresAt, &g.GrantedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load emergency access: %w", err)
	}
	if err := json.Unmarshal([]byte(perms), &g.Permissions); err != nil {
		return nil, fmt.Errorf("load emergency access %d: %w", g.ID, err)
	}
	g.StartsAt, g.ExpiresAt = g.StartsAt.UTC(), g.ExpiresAt.UTC()
	return g, nil
}
