package user

import (
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
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
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in emergencyRequest
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := in.validate(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.respondFresh(w, r, id, h.Users.GrantEmergency(r.Context(), auth.AuditEvent(r), id, in.Permissions, in.Hours, in.Reason))
}

// endEmergency ends a user's emergency access now.
func (h *Handler) endEmergency(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.respondFresh(w, r, id, h.Users.EndEmergency(r.Context(), auth.AuditEvent(r), id))
}

// respondFresh answers the account as stored now, or the error that ended its handler.
func (h *Handler) respondFresh(w http.ResponseWriter, r *http.Request, id int64, err error) {
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	u, err := Get(r.Context(), h.Users.DB, id)
	h.respond(w, r, http.StatusOK, u, err)
}
