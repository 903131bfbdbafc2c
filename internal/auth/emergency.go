package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"emr/internal/database"
)

// EmergencyGrantable lists the permissions an emergency ("break-the-glass") grant may give:
// the clinical ones a patient's care can need at once. Administration is never granted so.
var EmergencyGrantable = []Permission{
	ViewPatient, ManagePatient, ViewAppointment, ManageAppointment, RecordVitals, WriteDiagnosis, WritePrescription,
}

// Emergency is a user's active emergency-access grant: extra permissions until ExpiresAt,
// given by an administrator for Reason. Everything done under it is flagged in the audit log.
type Emergency struct {
	ID          int64        `json:"id"`
	Reason      string       `json:"reason"`
	Permissions []Permission `json:"permissions"`
	StartsAt    time.Time    `json:"starts_at"`
	ExpiresAt   time.Time    `json:"expires_at"`
	GrantedBy   string       `json:"granted_by"`
}

// ActiveEmergency returns userID's grant in force at now, or nil.
func ActiveEmergency(ctx context.Context, q database.Querier, userID int64, now time.Time) (*Emergency, error) {
	g := &Emergency{}
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

// withEmergency adds a grant's permissions to p's own.
func (p *Principal) withEmergency(g *Emergency) {
	if g == nil {
		return
	}
	p.Emergency = g
	for _, perm := range g.Permissions {
		if !slices.Contains(p.Permissions, perm) {
			p.Permissions = append(p.Permissions, perm)
		}
	}
	slices.Sort(p.Permissions)
}
