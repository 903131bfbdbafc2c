package auth

import (
	"net"
	"net/http"
	"strconv"

	"emr/internal/audit"
)

// ClientAddress returns the client's IP address (the server has already resolved a trusted
// proxy's forwarding header into RemoteAddr).
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// AuditEvent starts an audit event for the request's logged-in user and address, flagged
// when the user acts under emergency access, and marked with the API token or backend
// client the request came with.
func AuditEvent(r *http.Request) audit.Event {
	e := audit.Event{Address: ClientAddress(r)}
	if p := PrincipalFrom(r.Context()); p != nil {
		e.ActorID, e.ActorName, e.Emergency, e.Credential = p.UserID, p.Username, p.Emergency != nil, p.Credential()
	}
	return e
}

// Credential names the credential the principal's request came with, for the audit log:
// 'token:17 "Lab script"', 'client:emr-abc "Lab interface"', or "" for a browser session.
func (p *Principal) Credential() string {
	switch {
	case p.TokenID != 0:
		return TokenCredential(p.TokenID, p.TokenName)
	case p.ClientID != 0:
		return p.Username + " " + strconv.Quote(p.Name)
	case p.GrantID != 0:
		return AppCredential(p.AppClientID, p.TokenName, p.GrantID)
	}
	return ""
}

// TokenCredential names API token id, called name, as the audit log names credentials.
func TokenCredential(id int64, name string) string {
	return "token:" + strconv.FormatInt(id, 10) + " " + strconv.Quote(name)
}
