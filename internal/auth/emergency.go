package auth

import (
	"slices"
	"time"
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
