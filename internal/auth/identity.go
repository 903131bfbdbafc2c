package auth

import (
	"net"
	"net/http"

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
// when the user acts under emergency access.
func AuditEvent(r *http.Request) audit.Event {
	e := audit.Event{Address: ClientAddress(r)}
	if p := PrincipalFrom(r.Context()); p != nil {
		e.ActorID, e.ActorName, e.Emergency = p.UserID, p.Username, p.Emergency != nil
	}
	return e
}
