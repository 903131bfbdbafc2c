package staff

import (
	"net/http"

	"emr/internal/httpjson"
)

// Role is a role with the permissions it holds and how many accounts have it.
type Role struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
	Users       int      `json:"users"`
}

// roles lists every role by name, for the account form's choice and the roles screen.
func (h *Handler) roles(w http.ResponseWriter, r *http.Request) {
	rows, err := h.Users.DB.QueryContext(r.Context(), `SELECT r.id, r.name, (SELECT COUNT(*) FROM user_roles ur WHERE ur.role_id = r.id)
		FROM roles r ORDER BY r.name`)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list := []Role{}
	for rows.Next() {
		var ro Role
		if err := rows.Scan(&ro.ID, &ro.Name, &ro.Users); err != nil {
			rows.Close()
			httpjson.Error(w, r, err)
			return
		}
		list = append(list, ro)
	}
	rows.Close()
	for i := range list {
		perms, err := h.Users.DB.QueryContext(r.Context(), `SELECT permission FROM role_permissions WHERE role_id = $1 ORDER BY permission`, list[i].ID)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		list[i].Permissions = []string{}
		for perms.Next() {
			var p string
			if err := perms.Scan(&p); err != nil {
				perms.Close()
				httpjson.Error(w, r, err)
				return
			}
			list[i].Permissions = append(list[i].Permissions, p)
		}
		perms.Close()
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list})
}
