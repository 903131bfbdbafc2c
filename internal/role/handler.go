package role

import (
	"net/http"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// Handler serves the roles API.
type Handler struct{ Store *Store }

// Routes is the roles' route table.
func (h *Handler) Routes() []auth.Route {
	manage := auth.Need(auth.ManagePermission)
	return []auth.Route{
		{Method: "GET", Path: "/api/roles", Access: auth.NeedAny(auth.ManageUser, auth.ManagePermission), Handler: h.roles},
		{Method: "POST", Path: "/api/roles", Access: manage, SessionOnly: true, Announces: auth.ChangesRoles, Handler: h.createRole},
		{Method: "PUT", Path: "/api/roles/matrix", Access: manage, SessionOnly: true, Announces: auth.ChangesRoles, Handler: h.saveMatrix},
		{Method: "PUT", Path: "/api/roles/{id}", Access: manage, SessionOnly: true, Announces: auth.ChangesRoles, Handler: h.renameRole},
		{Method: "DELETE", Path: "/api/roles/{id}", Access: manage, SessionOnly: true, Announces: auth.ChangesRoles, Handler: h.deleteRole},
		{Method: "PUT", Path: "/api/roles/{id}/two-factor", Access: manage, SessionOnly: true, Announces: auth.ChangesRoles, Handler: h.requireTwoFactor},
		{Method: "GET", Path: "/api/permissions", Access: manage, Handler: h.permissions},
	}
}

// roles lists every role by name, for the account form's choice and the roles screen.
func (h *Handler) roles(w http.ResponseWriter, r *http.Request) {
	list, version, err := h.Store.List(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, Roles{Data: list, Version: version})
}

func rolePathID(r *http.Request) (int64, error) { return httpjson.PathID(r, "id", "role.not_found") }

type roleInput struct {
	Name string `json:"name"`
}

func (h *Handler) createRole(w http.ResponseWriter, r *http.Request) {
	var in roleInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	id, err := h.Store.Create(r.Context(), auth.AuditEvent(r), in.Name)
	httpjson.Result(w, r, http.StatusCreated, map[string]any{"id": id}, err)
}

func (h *Handler) renameRole(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[roleInput](w, r, "role.not_found")
	if !ok {
		return
	}
	if err := h.Store.Rename(r.Context(), auth.AuditEvent(r), id, in.Name); err != nil {
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
	id, in, ok := httpjson.DecodeOn[twoFactorInput](w, r, "role.not_found")
	if !ok {
		return
	}
	if in.Required == nil {
		var v apperr.Validation
		v.Add("required", "validation.required")
		httpjson.Error(w, r, v.Err())
		return
	}
	if err := h.Store.RequireTwoFactor(r.Context(), auth.AuditEvent(r), id, *in.Required); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.roles(w, r)
}

func (h *Handler) deleteRole(w http.ResponseWriter, r *http.Request) {
	id, err := rolePathID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.Delete(r.Context(), auth.AuditEvent(r), id); err != nil {
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
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var v apperr.Validation
	if in.Matrix == nil {
		v.Add("matrix", "validation.required")
	}
	if in.Version == nil {
		v.Add("version", "validation.required")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.SaveMatrix(r.Context(), auth.AuditEvent(r), in.Matrix, *in.Version); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.roles(w, r)
}

// permissions lists the permission catalogue, in the order screens show it.
func (h *Handler) permissions(w http.ResponseWriter, r *http.Request) {
	httpjson.List(w, auth.Catalogue)
}
