package user

import "emr/internal/auth"

// Handler serves the signed-in user's session (login, logout, who am I) and the
// administration of staff accounts (spec /administrator/users): list, create, edit,
// deactivate and reactivate, reset a password, unlock a throttled login, reset two-factor
// sign-in, grant and end emergency access.
type Handler struct {
	Users     *Store
	Sessions  *auth.Sessions
	Throttle  *auth.Throttle
	TwoFactor *auth.TwoFactor
	Tokens    *auth.APITokens
	Clients   *auth.Clients
	// FHIRRoutes is the FHIR route table, which says what an account may reach through
	// FHIR: a token's scopes are offered and checked against it.
	FHIRRoutes []auth.Route
}

// Routes is the accounts' route table.
func (h *Handler) Routes() []auth.Route {
	manage := auth.Need(auth.ManageUser)
	return []auth.Route{
		{Method: "GET", Path: "/api/sanctum/csrf-cookie", Access: auth.Public, Handler: h.csrfCookie},
		{Method: "POST", Path: "/api/auth/login", Access: auth.Public, Handler: h.login},
		{Method: "POST", Path: "/api/auth/logout", Access: auth.LoggedIn, BeforePasswordChange: true, Announces: auth.ChangesOwnSessions, Handler: h.logout},
		{Method: "GET", Path: "/api/user", Access: auth.LoggedIn, BeforePasswordChange: true, Handler: h.me},

		{Method: "GET", Path: "/api/users", Access: manage, Handler: h.list},
		{Method: "POST", Path: "/api/users", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.create},
		{Method: "GET", Path: "/api/users/{id}", Access: manage, Handler: h.get},
		{Method: "PUT", Path: "/api/users/{id}", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.update},
		{Method: "POST", Path: "/api/users/{id}/reset-password", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.resetPassword},
		{Method: "POST", Path: "/api/users/{id}/unlock", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.unlock},
		{Method: "POST", Path: "/api/users/{id}/two-factor/reset", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.resetTwoFactor},
		{Method: "POST", Path: "/api/users/{id}/emergency-access", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.grantEmergency},
		{Method: "DELETE", Path: "/api/users/{id}/emergency-access", Access: manage, SessionOnly: true, Announces: auth.ChangesUser, Handler: h.endEmergency},
	}
}
