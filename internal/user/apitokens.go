package user

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// TokenRoutes are the API tokens' routes: an administrator's, for any account
// (Administrator → API access), and an account holder's, for their own (the profile).
// A token never manages tokens (the table is SessionOnly, the guard refuses tokens and
// clients): a leaked one cannot make itself a longer-lived heir.
// Making one asks the maker's password again (and second factor): a session left open is
// not enough to mint a credential that outlives it.
func (h *Handler) TokenRoutes() []auth.Route {
	manage := auth.Need(auth.ManageUser)
	return auth.ForSessionsOnly([]auth.Route{
		{Method: "GET", Path: "/api/api-tokens", Access: manage, Handler: h.listTokens(false)},
		{Method: "GET", Path: "/api/api-tokens/reach", Access: manage, Handler: h.tokenReach(false)},
		{Method: "POST", Path: "/api/api-tokens", Access: manage, Handler: h.createToken(false)},
		{Method: "DELETE", Path: "/api/api-tokens/{id}", Access: manage, Handler: h.revokeToken(false)},
		{Method: "GET", Path: "/api/profile/api-tokens", Access: auth.LoggedIn, Handler: h.listTokens(true)},
		{Method: "GET", Path: "/api/profile/api-tokens/reach", Access: auth.LoggedIn, Handler: h.tokenReach(true)},
		{Method: "POST", Path: "/api/profile/api-tokens", Access: auth.LoggedIn, Handler: h.createToken(true)},
		{Method: "DELETE", Path: "/api/profile/api-tokens/{id}", Access: auth.LoggedIn, Handler: h.revokeToken(true)},
		{Method: "GET", Path: "/api/api-clients", Access: manage, Handler: h.listClients},
		{Method: "POST", Path: "/api/api-clients", Access: manage, Handler: h.registerClient},
		{Method: "DELETE", Path: "/api/api-clients/{id}", Access: manage, Handler: h.revokeClient},
	})
}

func (h *Handler) listClients(w http.ResponseWriter, r *http.Request) {
	list, err := h.Clients.List(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := registrars(r.Context(), h.Users.DB, list); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// registrars names the account that registered each client, and flags a client whose
// registrar is deactivated: it keeps working, but its keys should be rotated.
func registrars(ctx context.Context, q database.Querier, list []auth.Client) error {
	var ids []int64
	for _, k := range list {
		if k.CreatedBy != nil {
			ids = append(ids, *k.CreatedBy)
		}
	}
	names, err := Logins(ctx, q, ids)
	if err != nil {
		return err
	}
	active, err := activeOf(ctx, q, ids)
	if err != nil {
		return err
	}
	for i, k := range list {
		if k.CreatedBy != nil {
			list[i].CreatedByName, list[i].CreatorDeactivated = names[*k.CreatedBy].Name, !active[*k.CreatedBy]
		}
	}
	return nil
}

// activeOf tells which of the accounts ids are active.
func activeOf(ctx context.Context, q database.Querier, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "id", chunk, 1)
		found, err := database.Column[int64](q.QueryContext(ctx, `SELECT id FROM users WHERE active AND `+in, args...))
		for _, id := range found {
			out[id] = true
		}
		return err
	})
	return out, err
}

func (h *Handler) registerClient(w http.ResponseWriter, r *http.Request) {
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
	id, err := httpjson.PathID(r, "id", "api_client.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if _, err := h.Clients.Get(r.Context(), id); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	k, err := h.Clients.Revoke(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, k, err)
}

// TokenView is a token as the screens list it: with its account's username and name, and
// the name of who made it.
type TokenView struct {
	auth.APIToken
	Username      string `json:"username"`
	UserName      string `json:"user_name"`
	CreatedByName string `json:"created_by_name"`
	Expired       bool   `json:"expired"`
	// ExpiringSoon: live, and ending within 14 days (its owner is reminded).
	ExpiringSoon bool `json:"expiring_soon"`
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
	// CurrentPassword and Code re-authenticate the maker (the signed-in user, also when an
	// administrator makes a token for another account).
	CurrentPassword string `json:"current_password"`
	Code            string `json:"code"`
}

func (h *Handler) listTokens(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
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

// tokenReach answers what a token for the account may be scoped to: each FHIR resource type
// the account's roles reach, with the interactions they allow there.
func (h *Handler) tokenReach(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		userID := auth.PrincipalFrom(r.Context()).UserID
		if !own {
			id, err := strconv.ParseInt(r.URL.Query().Get("user_id"), 10, 64)
			if err != nil || id <= 0 {
				var v apperr.Validation
				v.Add("user_id", "validation.query")
				httpjson.Error(w, r, v.Err())
				return
			}
			userID = id
		}
		reach, err := h.Sessions.AccountReach(r.Context(), h.FHIRRoutes, userID)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if reach.Can == nil {
			httpjson.Error(w, r, apperr.NotFound("user.not_found"))
			return
		}
		httpjson.List(w, reach.Items())
	}
}

func (h *Handler) createToken(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in tokenRequest
		if err := httpjson.Decode(w, r, &in); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		ctx, me := r.Context(), auth.PrincipalFrom(r.Context())
		if own {
			in.UserID = me.UserID
		}
		if in.ExpiresInDays == 0 {
			in.ExpiresInDays = int(auth.DefaultTokenValid / (24 * time.Hour))
		}
		// The token's account's credential epoch, read before the maker is re-authenticated:
		// a remedy of that account committing meanwhile (its password changed, deactivated…)
		// makes the insert refuse the token (409), which would otherwise outlive the remedy.
		// The epoch first, then whether the account is active: a deactivation between the two
		// reads is seen by the second, one after both by the insert.
		epoch, err := auth.CredentialEpoch(ctx, h.Users.DB, in.UserID)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		active, err := Active(ctx, h.Users.DB, in.UserID)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if !active {
			var v apperr.Validation
			v.Add("user_id", "api_token.no_account")
			httpjson.Error(w, r, v.Err())
			return
		}
		n := auth.NewAPIToken{UserID: in.UserID, Name: in.Name, Scopes: in.Scopes, Lifetime: time.Duration(in.ExpiresInDays) * 24 * time.Hour, Epoch: &epoch, Maker: me}
		if err := h.checkTokenRequest(ctx, me, &n, in); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		e := auth.AuditEvent(r)
		if err := h.reauthenticate(ctx, e, me, in.CurrentPassword, in.Code); err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if hook := afterReauth.Load(); hook != nil {
			(*hook)(in.UserID)
		}
		token, k, err := h.Tokens.Create(ctx, e, n)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		views, err := tokenViews(ctx, h.Users.DB, []auth.APIToken{k})
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusCreated, CreatedToken{Token: token, APIToken: views[0]})
	}
}

// afterReauth, set only by tests, runs between the maker's re-authentication and the
// token's insert, with the token's account: where a remedy's commit must be refused.
var afterReauth atomic.Pointer[func(userID int64)]

// checkTokenRequest checks a token's fields, that the maker gave what re-authenticates them
// (the password; a code when they have a second factor), and that no scope is wider than
// the account's reach: every problem at once, changing nothing.
func (h *Handler) checkTokenRequest(ctx context.Context, me *auth.Principal, n *auth.NewAPIToken, in tokenRequest) error {
	var v apperr.Validation
	if in.CurrentPassword == "" {
		v.Add("current_password", "validation.required")
	}
	second, err := h.TwoFactor.Status(ctx, me.UserID)
	if err != nil {
		return err
	}
	if second.Enabled && strings.TrimSpace(in.Code) == "" {
		v.Add("code", "validation.required")
	}
	stored, err := n.Check()
	var invalid *apperr.Error
	if errors.As(err, &invalid) && invalid.Kind == apperr.KindInvalid {
		v.Merge(invalid) // with each message's arguments: "…" is not a scope names it
	} else if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	scopes, err := auth.ParseScopes(stored, "user")
	if err != nil {
		return err
	}
	reach, err := h.Sessions.AccountReach(ctx, h.FHIRRoutes, n.UserID)
	if err != nil {
		return err
	}
	if err := reach.Check(scopes); err != nil {
		var e *apperr.Error
		if errors.As(err, &e) {
			e.Fields = map[string][]string{"scopes": {"scope.beyond_account_field"}}
		}
		return err
	}
	return nil
}

// reauthenticate checks the signed-in user's password again, and their second factor's code
// (TOTP or a recovery code, used up) when they have one, under the login's own per-account
// throttle ("user:<username>", shared with the login, the password change and turning the
// second factor off): every password guess, from whichever door, counts against one budget
// of auth.UserFailureLimit a window. The try takes its slot first (a throttled one is a 429
// with Retry-After), a wrong one keeps it and is audited, a right one gives it back. So wrong
// re-authentications also hold off the account's login until the window ends (as wrong
// current passwords in the password change do): whoever holds an open session can lock its
// owner out of signing in for a window, but can never guess more than the login allows. An
// administrator's unlock clears it. A wrong password or code is a 422 on its field, as the
// profile's password change answers.
func (h *Handler) reauthenticate(ctx context.Context, e audit.Event, me *auth.Principal, password, code string) error {
	key := "user:" + NormalizeUsername(me.Username)
	wait, err := h.Throttle.Take(ctx, key, auth.UserFailureLimit)
	if err != nil {
		return err
	}
	if wait > 0 {
		return apperr.Throttled("api_token.reauth_throttled", auth.Seconds(wait))
	}
	hash, err := h.Users.PasswordHash(ctx, me.UserID)
	if err != nil {
		return err
	}
	var v apperr.Validation
	if ok, err := auth.CheckPassword(hash, password); err != nil || !ok {
		v.Add("current_password", "profile.password_wrong")
	} else if second, err := h.TwoFactor.Status(ctx, me.UserID); err != nil {
		return err
	} else if second.Enabled {
		if ok, err := h.TwoFactor.Verify(ctx, me.UserID, code); err != nil {
			return err
		} else if !ok {
			v.Add("code", "twofactor.wrong_code")
		}
	}
	if wrong := v.Err(); wrong != nil {
		e.Action, e.EntityType, e.EntityID, e.Outcome = "api_token.create", "user", strconv.FormatInt(me.UserID, 10), audit.Failure
		e.Detail = "re-authentication refused"
		if err := audit.Access(ctx, h.Users.DB, e); err != nil {
			return err
		}
		return wrong
	}
	return h.Throttle.GiveBack(ctx, key)
}

func (h *Handler) revokeToken(own bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
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

// tokenViews names each token's account and maker.
func tokenViews(ctx context.Context, q database.Querier, list []auth.APIToken) ([]TokenView, error) {
	ids := make([]int64, 0, 2*len(list))
	for _, k := range list {
		ids = append(ids, k.UserID)
		if k.CreatedBy != nil {
			ids = append(ids, *k.CreatedBy)
		}
	}
	accounts, err := Logins(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]TokenView, len(list))
	for i, k := range list {
		a := accounts[k.UserID]
		out[i] = TokenView{APIToken: k, Username: a.Username, UserName: a.Name, Expired: !k.ExpiresAt.After(now), ExpiringSoon: k.ExpiringSoon(now)}
		if k.CreatedBy != nil {
			out[i].CreatedByName = accounts[*k.CreatedBy].Name
		}
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
