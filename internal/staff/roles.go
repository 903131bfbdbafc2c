package staff

import (
	"net/http"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// Role is a role with the permissions it holds and how many accounts have it.
type Role struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
	Users       int      `json:"users"`
	// RequireTwoFactor: the role's members must sign in with a second factor.
	RequireTwoFactor bool `json:"require_two_factor"`
}

// roles lists every role by name, for the account form's choice and the roles screen.
func (h *Handler) roles(w http.ResponseWriter, r *http.Request) {
	list, version, err := ListRoles(r.Context(), h.Users.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list, "version": version})
}

func rolePathID(r *http.Request) (int64, error) { return httpjson.PathID(r, "id", "role.not_found") }

type roleInput struct {
	Name string `json:"name"`
}

func (h *Handler) createRole(w http.ResponseWriter, r *http.Request) {
	var in roleInput
	err := httpjson.Decode(w, r, &in)
	var id int64
	if err == nil {
		id, err = CreateRole(r.Context(), h.Users.DB, auth.AuditEvent(r), in.Name)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, map[string]any{"id": id})
}

func (h *Handler) renameRole(w http.ResponseWriter, r *http.Request) {
	id, err := rolePathID(r)
	var in roleInput
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	if err == nil {
		err = RenameRole(r.Context(), h.Users.DB, auth.AuditEvent(r), id, in.Name)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

type twoFactorInput struct {
	Required *bool `json:"required"`
}

// requireTwoFactor sets whether the role's members must use two-factor sign-in; a member
// without it is sent to set it up at their next request. Audited.
func (h *Handler) requireTwoFactor(w http.ResponseWriter, r *http.Request) {
	id, err := rolePathID(r)
	var in twoFactorInput
	if err == nil {
		err = httpjson.Decode(w, r, &in)
	}
	if err == nil && in.Required == nil {
		var v apperr.Validation
		v.Add("required", "validation.required")
		err = v.Err()
	}
	if err == nil {
		err = RequireTwoFactor(r.Context(), h.Users.DB, auth.AuditEvent(r), id, *in.Required)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.roles(w, r)
}

func (h *Handler) deleteRole(w http.ResponseWriter, r *http.Request) {
	id, err := rolePathID(r)
	if err == nil {
		err = DeleteRole(r.Context(), h.Users.DB, auth.AuditEvent(r), id)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}

type matrixInput struct {
	Matrix  map[string][]string `json:"matrix"`
	Version *int                `json:"version"`
}

// saveMatrix replaces the roles' permissions: both the matrix and the version it was read
// at are required (a body without them changes nothing).
func (h *Handler) saveMatrix(w http.ResponseWriter, r *http.Request) {
	var in matrixInput
	err := httpjson.Decode(w, r, &in)
	if err == nil {
		var v apperr.Validation
		if in.Matrix == nil {
			v.Add("matrix", "validation.required")
		}
		if in.Version == nil {
			v.Add("version", "validation.required")
		}
		err = v.Err()
	}
	if err == nil {
		err = SaveMatrix(r.Context(), h.Users.DB, auth.AuditEvent(r), in.Matrix, *in.Version)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.roles(w, r)
}

// permissions lists the permission catalogue, in the order screens show it.
func (h *Handler) permissions(w http.ResponseWriter, r *http.Request) {
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": auth.Catalogue})
}
