package user

import (
	"context"
	"net/http"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// TokenRoutes are the API tokens' routes: an administrator's, for any account
// (Administrator → API access), and an account holder's, for their own (the profile).
// A token never manages tokens: a leaked one cannot make itself a longer-lived heir.
func (h *Handler) TokenRoutes() []auth.Route {
	manage := auth.Need(auth.ManageUser)
	return []auth.Route{
		{Method: "GET", Path: "/api/api-tokens", Access: manage, Handler: h.listTokens(false)},
		{Method: "POST", Path: "/api/api-tokens", Access: manage, Handler: h.createToken(false)},
		{Method: "DELETE", Path: "/api/api-tokens/{id}", Access: manage, Handler: h.revokeToken(false)},
		{Method: "GET", Path: "/api/profile/api-tokens", Access: auth.LoggedIn, Handler: h.listTokens(true)},
		{Method: "POST", Path: "/api/profile/api-tokens", Access: auth.LoggedIn, Handler: h.createToken(true)},
		{Method: "DELETE", Path: "/api/profile/api-tokens/{id}", Access: auth.LoggedIn, Handler: h.revokeToken(true)},
		{Method: "GET", Path: "/api/api-clients", Access: manage, Handler: h.listClients},
		{Method: "POST", Path: "/api/api-clients", Access: manage, Handler: h.registerClient},
		{Method: "DELETE", Path: "/api/api-clients/{id}", Access: manage, Handler: h.revokeClient},
	}
}

func (h *Handler) listClients(w http.ResponseWriter, r *http.Request) {
	if err := notByToken(r); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Clients.List(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) registerClient(w http.ResponseWriter, r *http.Request) {
	if err := notByToken(r); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Name   string `json:"name"`
		Scopes string `json:"scopes"`
		JWKS   string `json:"jwks"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	k, err := h.Clients.Register(r.Context(), auth.AuditEvent(r), auth.NewClient{Name: in.Name, Scopes: in.Scopes, JWKS: in.JWKS})
	httpjson.Result(w, r, http.StatusCreated, k, err)
}

func (h *Handler) revokeClient(w http.ResponseWriter, r *http.Request) {
	if err := notByToken(r); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	id, err := httpjson.PathID(r, "id", "api_client.not_found")
	if err == nil {
		_, err = h.Clients.Get(r.Context(), id)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	k, err := h.Clients.Revoke(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, k, err)
}

// TokenView is a token as the screens list it: with its account's username and name.
type TokenView struct {
	auth.APIToken
	Username string `json:"username"`
	UserName string `json:"user_name"`
	Expired  bool   `json:"expired"`
}

// CreatedToken answers a token's creation: the token itself, shown this once.
type CreatedToken struct {
	Token    string    `json:"token"`
	APIToken TokenView `json:"api_token"`
}

type tokenRequest struct {
	UserID        int64  `json:"user_id"`
	Name          string `json:"name"`
	Scopes        string `json:"scopes"`
	ExpiresInDays int    `json:"expires_in_days"`
}

// notByToken refuses token management to a request made with a token.
func notByToken(r *http.Request) error {
	if p := auth.PrincipalFrom(r.Context()); p != nil && (p.TokenID != 0 || p.ClientID != 0) {
		return apperr.Forbidden("api_token.by_token")
	}
	return nil
}

func (h *Handler) listTokens(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := notByToken(r); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var owner int64
		if own {
			owner = auth.PrincipalFrom(r.Context()).UserID
		}
		list, err := h.Tokens.List(r.Context(), owner)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		views, err := tokenViews(r.Context(), h.Users.DB, list)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.List(w, views)
	}
}

func (h *Handler) createToken(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := notByToken(r); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var in tokenRequest
		if err := httpjson.Decode(w, r, &in); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if own {
			in.UserID = auth.PrincipalFrom(r.Context()).UserID
		}
		if in.ExpiresInDays == 0 {
			in.ExpiresInDays = int(auth.DefaultTokenValid / (24 * time.Hour))
		}
		if ok, err := Active(r.Context(), h.Users.DB, in.UserID); err != nil || !ok {
			if err == nil {
				var v apperr.Validation
				v.Add("user_id", "api_token.no_account")
				err = v.Err()
			}
			httpjson.Error(w, r, err)
			return
		}
		token, k, err := h.Tokens.Create(r.Context(), auth.AuditEvent(r), auth.NewAPIToken{UserID: in.UserID, Name: in.Name, Scopes: in.Scopes,
			Lifetime: time.Duration(in.ExpiresInDays) * 24 * time.Hour})
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		views, err := tokenViews(r.Context(), h.Users.DB, []auth.APIToken{k})
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusCreated, CreatedToken{Token: token, APIToken: views[0]})
	}
}

func (h *Handler) revokeToken(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := notByToken(r); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		id, err := httpjson.PathID(r, "id", "api_token.not_found")
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		var owner int64
		if own {
			owner = auth.PrincipalFrom(r.Context()).UserID
		}
		k, err := h.Tokens.Revoke(r.Context(), auth.AuditEvent(r), id, owner)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		views, err := tokenViews(r.Context(), h.Users.DB, []auth.APIToken{k})
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusOK, views[0])
	}
}

// tokenViews names each token's account.
func tokenViews(ctx context.Context, q database.Querier, list []auth.APIToken) ([]TokenView, error) {
	ids := make([]int64, 0, len(list))
	for _, k := range list {
		ids = append(ids, k.UserID)
	}
	accounts, err := Logins(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]TokenView, len(list))
	for i, k := range list {
		a := accounts[k.UserID]
		out[i] = TokenView{APIToken: k, Username: a.Username, UserName: a.Name, Expired: !k.ExpiresAt.After(now)}
	}
	return out, nil
}

// Login is an account's username and name.
type Login struct{ Username, Name string }

// Logins reads the usernames and names of the accounts with ids.
func Logins(ctx context.Context, q database.Querier, ids []int64) (map[int64]Login, error) {
	out := make(map[int64]Login, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "id", chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT id, username, name FROM users WHERE `+in, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var l Login
			if err := rows.Scan(&id, &l.Username, &l.Name); err != nil {
				return err
			}
			out[id] = l
		}
		return rows.Err()
	})
	return out, err
}
