package staff

import (
	"database/sql"
	"fmt"
	"net/http"
	"strconv"

	"emr/internal/account"
	"emr/internal/apperr"
	"emr/internal/audit"
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
	rows, err := h.Users.DB.QueryContext(r.Context(), `SELECT r.id, r.name, (SELECT COUNT(*) FROM user_roles ur WHERE ur.role_id = r.id), r.require_two_factor
		FROM roles r ORDER BY r.name`)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list := []Role{}
	for rows.Next() {
		var ro Role
		if err := rows.Scan(&ro.ID, &ro.Name, &ro.Users, &ro.RequireTwoFactor); err != nil {
			rows.Close()
			httpjson.Error(w, r, err)
			return
		}
		list = append(list, ro)
	}
	rows.Close()
	// Every role's permissions in one read, not one query per role.
	perms, err := h.Users.DB.QueryContext(r.Context(), `SELECT role_id, permission FROM role_permissions ORDER BY permission`)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	held := map[int64][]string{}
	for perms.Next() {
		var id int64
		var p string
		if err := perms.Scan(&id, &p); err != nil {
			perms.Close()
			httpjson.Error(w, r, err)
			return
		}
		held[id] = append(held[id], p)
	}
	perms.Close()
	if err := perms.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	for i := range list {
		list[i].Permissions = append([]string{}, held[list[i].ID]...)
	}
	version, err := matrixVersion(r.Context(), h.Users.DB)
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
		id, err = CreateRole(r.Context(), h.Users.DB, account.Event(r), in.Name)
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
		err = RenameRole(r.Context(), h.Users.DB, account.Event(r), id, in.Name)
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
		err = h.Users.DB.Tx(r.Context(), func(tx *sql.Tx) error {
			res, err := tx.ExecContext(r.Context(), `UPDATE roles SET require_two_factor = $1 WHERE id = $2`, *in.Required, id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return apperr.NotFound("role.not_found")
			}
			e := account.Event(r)
			e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "role.two_factor", "role", strconv.FormatInt(id, 10), audit.Success, fmt.Sprintf("required: %v", *in.Required)
			return audit.Record(r.Context(), tx, e)
		})
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
		err = DeleteRole(r.Context(), h.Users.DB, account.Event(r), id)
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
		err = SaveMatrix(r.Context(), h.Users.DB, account.Event(r), in.Matrix, *in.Version)
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
