package staff

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/user"
)

// MaxEmergencyHours is the longest an emergency grant may last.
const MaxEmergencyHours = 24

// emergencyRequest grants a user emergency ("break-the-glass") access.
type emergencyRequest struct {
	Permissions []auth.Permission `json:"permissions"`
	Hours       int               `json:"hours"`
	Reason      string            `json:"reason"`
}

func (in *emergencyRequest) validate() error {
	var v apperr.Validation
	if len(in.Permissions) == 0 {
		v.Add("permissions", "validation.required")
	}
	for _, p := range in.Permissions {
		if !slices.Contains(auth.EmergencyGrantable, p) {
			v.Add("permissions", "validation.invalid_choice")
			break
		}
	}
	slices.Sort(in.Permissions)
	in.Permissions = slices.Compact(in.Permissions)
	if in.Hours < 1 || in.Hours > MaxEmergencyHours {
		v.Add("hours", "validation.invalid_choice")
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if in.Reason == "" {
		v.Add("reason", "validation.reason_required")
	} else if utf8.RuneCountInString(in.Reason) > apperr.MaxReason {
		v.Add("reason", "validation.too_long")
	}
	return v.Err()
}

// grantEmergency gives a user extra clinical permissions for a few hours, with a reason;
// it replaces a grant already in force. Everything the user does under it is flagged.
func (h *Handler) grantEmergency(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	var in emergencyRequest
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	if err == nil {
		err = in.validate()
	}
	if err == nil {
		err = h.Users.DB.Tx(r.Context(), func(tx *sql.Tx) error {
			e := auth.AuditEvent(r)
			if err := grantable(r.Context(), tx, e.ActorID, id); err != nil {
				return err
			}
			now := time.Now().UTC()
			if _, err := endGrants(r.Context(), tx, id, e.ActorID, now); err != nil {
				return err
			}
			perms, _ := json.Marshal(in.Permissions)
			var grant int64
			if err := tx.QueryRowContext(r.Context(), `INSERT INTO emergency_grants (user_id, granted_by, reason, permissions, starts_at, expires_at)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, id, e.ActorID, in.Reason, string(perms), now, now.Add(time.Duration(in.Hours)*time.Hour)).Scan(&grant); err != nil {
				return fmt.Errorf("grant emergency access: %w", err)
			}
			e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.grant", "user", strconv.FormatInt(id, 10), audit.Success
			e.Detail = fmt.Sprintf("grant %d for %d h: %s", grant, in.Hours, joinPermissions(in.Permissions))
			return audit.Record(r.Context(), tx, e)
		})
	}
	h.respondFresh(w, r, id, err)
}

// endEmergency ends a user's emergency access now.
func (h *Handler) endEmergency(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err == nil {
		err = h.Users.DB.Tx(r.Context(), func(tx *sql.Tx) error {
			e := auth.AuditEvent(r)
			n, err := endGrants(r.Context(), tx, id, e.ActorID, time.Now().UTC())
			if err != nil {
				return err
			}
			if n == 0 {
				return apperr.Conflict("emergency.none")
			}
			e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.end", "user", strconv.FormatInt(id, 10), audit.Success
			return audit.Record(r.Context(), tx, e)
		})
	}
	h.respondFresh(w, r, id, err)
}

// respondFresh answers the account as stored now, or err.
func (h *Handler) respondFresh(w http.ResponseWriter, r *http.Request, id int64, err error) {
	var u user.User
	if err == nil {
		u, err = user.Get(r.Context(), h.Users.DB, id)
	}
	h.respond(w, r, http.StatusOK, u, err)
}

// grantable checks that target may receive emergency access from actor: an active account,
// not the actor's own and not an administrator's (who holds everything already).
func grantable(ctx context.Context, tx *sql.Tx, actor, target int64) error {
	u, err := user.Get(ctx, tx, target)
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
