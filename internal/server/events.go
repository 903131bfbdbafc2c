package server

import (
	"net/http"
	"strconv"

	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/push"
)

// changeEvents names the push event each kind of change announces, and the channel it goes
// to. Listeners re-read what they show; the event carries no record data, so a channel never
// leaks more than "something changed here".
var changeEvents = map[auth.Change]struct{ channel, event string }{
	auth.ChangesAppointments: {push.AppointmentsChannel, "App.Events.AppointmentChanged"},
	auth.ChangesPatients:     {push.PatientsChannel, "App.Events.PatientChanged"},
	auth.ChangesUser:         {push.UsersChannel, "App.Events.UserChanged"},
	auth.ChangesRoles:        {push.RolesChannel, "App.Events.RolesChanged"},
	auth.ChangesResults:      {push.ResultsChannel, "App.Events.ResultsChanged"},
	auth.ChangesBills:        {push.BillsChannel, "App.Events.BillChanged"},
	auth.ChangesDocuments:    {push.DocumentsChannel, "App.Events.DocumentChanged"},
}

// announce publishes the change rt declares (Announces) after a successful call, except to
// the sender's own socket (X-Socket-ID).
func announce(hub push.Publisher, rt auth.Route, next http.Handler) http.Handler {
	switch rt.Announces {
	case auth.ChangesNothing:
		return next
	case auth.ChangesOwnSessions:
		// A logout, or a new password that ends the others, tells the user's other tabs and
		// devices, which re-read who they are and open the login page if their session ended.
		return afterSuccess(next, func(r *http.Request) {
			// The guard names the user in the request logger's slot, even after a logout.
			if id := auth.SlotUserID(r.Context()); id != 0 {
				_ = hub.Publish(push.UserChannel(id), "App.Events.UserChanged", map[string]string{"path": r.URL.Path}, r.Header.Get("X-Socket-ID"))
			}
		})
	}
	ce, ok := changeEvents[rt.Announces]
	if !ok {
		panic("server: route " + rt.Method + " " + rt.Path + " announces an unknown change")
	}
	return afterSuccess(next, func(r *http.Request) {
		path := r.URL.Path
		if r.PathValue("token") != "" {
			path = rt.Path // a patient's link: its token, their credential, is never broadcast
		}
		_ = hub.Publish(ce.channel, ce.event, map[string]string{"path": path}, r.Header.Get("X-Socket-ID"))
		// A change to one account also tells that user, whose menus (or session) follow.
		if id, err := strconv.ParseInt(r.PathValue("id"), 10, 64); err == nil && rt.Announces == auth.ChangesUser {
			_ = hub.Publish(push.UserChannel(id), "App.Events.UserChanged", map[string]string{"path": r.URL.Path}, "")
		}
	})
}

// afterSuccess runs then once next has answered r without an error status.
func afterSuccess(next http.Handler, then func(r *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &httpjson.Recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.Status() < 400 {
			then(r)
		}
	})
}
