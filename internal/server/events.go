package server

import (
	"net/http"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/push"
)

// changeEvents names the push event a successful change under a path prefix announces, and
// the channel it goes to. Listeners re-read what they show; the event carries no record
// data, so a channel never leaks more than "something changed here".
var changeEvents = []struct{ prefix, channel, event string }{
	{"/api/appointments", push.AppointmentsChannel, "App.Events.AppointmentChanged"},
	{"/api/patients", push.PatientsChannel, "App.Events.PatientChanged"},
	{"/api/users", push.UsersChannel, "App.Events.UserChanged"},
	{"/api/roles", push.RolesChannel, "App.Events.RolesChanged"},
}

// ownSessionEvents are changes to one's own sessions (a logout; a new password, which ends
// the others): they tell the user's other tabs and devices, which re-read who they are and
// open the login page if their session has ended.
var ownSessionEvents = map[string]bool{"POST /api/auth/logout": true, "POST /api/profile/password": true}

// announce publishes the change event of rt, if it has one, after a successful write,
// except to the sender's own socket (X-Socket-ID).
func announce(hub push.Publisher, rt auth.Route, next http.Handler) http.Handler {
	if rt.Method == http.MethodGet {
		return next
	}
	if ownSessionEvents[rt.Method+" "+rt.Path] {
		return afterSuccess(next, func(r *http.Request) {
			// The guard names the user in the request logger's slot, even after a logout.
			if id := auth.SlotUserID(r.Context()); id != 0 {
				_ = hub.Publish(push.UserChannel(id), "App.Events.UserChanged", map[string]string{"path": r.URL.Path}, r.Header.Get("X-Socket-ID"))
			}
		})
	}
	for _, ce := range changeEvents {
		if !strings.HasPrefix(rt.Path, ce.prefix) {
			continue
		}
		return afterSuccess(next, func(r *http.Request) {
			_ = hub.Publish(ce.channel, ce.event, map[string]string{"path": r.URL.Path}, r.Header.Get("X-Socket-ID"))
			// A change to one account also tells that user, whose menus (or session) follow.
			if id, err := strconv.ParseInt(r.PathValue("id"), 10, 64); err == nil && ce.channel == push.UsersChannel {
				_ = hub.Publish(push.UserChannel(id), "App.Events.UserChanged", map[string]string{"path": r.URL.Path}, "")
			}
		})
	}
	return next
}

// afterSuccess runs then once next has answered r without an error status.
func afterSuccess(next http.Handler, then func(r *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 || rec.status < 400 {
			then(r)
		}
	})
}
