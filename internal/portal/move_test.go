package portal_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type movable struct {
	Upcoming []struct {
		ID      int64  `json:"id"`
		Time    string `json:"time"`
		CanMove bool   `json:"can_move"`
		Version int    `json:"version"`
	} `json:"upcoming"`
}

// publishHours opens online booking: the doctor takes new patients in 30-minute slots,
// 08:00–17:00 with a break at 12:00, every day (the clinic's zone is UTC).
func (w *world) publishHours(t *testing.T, admin *apitest.Client) {
	t.Helper()
	var week []map[string]any
	for range 7 {
		week = append(week, map[string]any{"open": "08:00", "close": "17:00", "breaks": []map[string]string{{"from": "12:00", "to": "13:00"}}})
	}
	r := admin.Do("PUT", "/api/settings/online-booking", map[string]any{"enabled": true, "auto_book": false, "ahead_days": 30, "notice_minutes": 0,
		"holidays": []any{}, "version": 0, "doctors": []any{map[string]any{"doctor_id": w.doctor, "enabled": true, "specialty": "Family medicine",
			"offers": []any{map[string]any{"type": "new", "slot_minutes": 30}}, "week": week, "days_off": []any{}}}})
	if r.Status != http.StatusOK {
		t.Fatalf("settings: %d %s", r.Status, r.Body)
	}
}

// bookAt books patientID with the doctor at at, of the visit type kind, for minutes (15 when 0).
func (w *world) bookAt(t *testing.T, patientID int64, at time.Time, kind string, minutes ...int) int64 {
	t.Helper()
	length := 15
	if len(minutes) > 0 {
		length = minutes[0]
	}
	r := w.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": w.doctor,
		"starts_at": at.UTC().Format(time.RFC3339), "duration_minutes": length, "type": kind, "reason": "Private reason"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	var a struct{ ID int64 }
	r.JSON(t, &a)
	return a.ID
}

// TestPortalMovesWithinTheRules: a patient moves their own appointment to a time the clinic
// publishes online for its doctor and visit type — their own time counted free, another's
// taken, a break no time — within the cancellation window; the move goes through the
// appointment book (the patient as actor, the new time's message) and keeps the visit's length;
// a visit longer than the slot is not moved here; three moves a day at most; no time inside
// the cancellation window is offered or taken.
func TestPortalMovesWithinTheRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		admin := w.env.LoggedIn("admin", w.env.CreateUser("admin", "admin"))
		lan := w.patient(t, "Mover", "1985-03-04", map[string]any{"email": "mover@example.test"})
		other := w.patient(t, "Other", "1990-01-01", nil)
		day := time.Now().UTC().AddDate(0, 0, 3).Truncate(24 * time.Hour)
		at := func(hhmm string) time.Time {
			h, _ := strconv.Atoi(hhmm[:2])
			m, _ := strconv.Atoi(hhmm[3:])
			return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
		}
		appt := w.bookAt(t, lan, at("09:00"), "new")
		long := w.bookAt(t, lan, at("11:00"), "new", 45)
		followUp := w.bookAt(t, lan, at("15:00"), "follow-up")
		soon := w.book(t, lan, 30*time.Minute) // inside the 2-hour cancellation window
		w.bookAt(t, other, at("10:00"), "new")
		stranger := w.bookAt(t, other, at("16:00"), "new")
		w.invite(t, lan)
		c := w.portalClient(t)
		w.signInByCode(t, c, "mover@example.test")
		path := func(id int64, what string) string {
			return fmt.Sprintf("/api/portal/records/%d/appointments/%d/%s", lan, id, what)
		}
		version := map[int64]int{}
		listed := func() map[int64]bool {
			var v movable
			c.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", lan), nil).JSON(t, &v)
			out := map[int64]bool{}
			for _, u := range v.Upcoming {
				out[u.ID], version[u.ID] = u.CanMove, u.Version
			}
			return out
		}
		times := func(id int64) []string {
			var out struct {
				Data []struct {
					Time string `json:"time"`
				} `json:"data"`
			}
			r := c.Do("GET", path(id, "times")+"?days=1&from="+day.Format(time.DateOnly), nil)
			if r.Status != http.StatusOK {
				t.Fatalf("times: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &out)
			var list []string
			for _, s := range out.Data {
				list = append(list, s.Time)
			}
			return list
		}
		move := func(id int64, to time.Time, version int) apitest.Response {
			return c.Do("POST", path(id, "move"), map[string]any{"starts_at": to.Format(time.RFC3339), "version": version})
		}

		// Before the clinic publishes its hours nothing can move: the patient calls.
		if m := listed(); m[appt] || m[followUp] || m[soon] {
			t.Fatalf("movable before online booking: %v", m)
		}
		if got := times(appt); len(got) != 0 {
			t.Fatalf("times before online booking: %v", got)
		}
		w.publishHours(t, admin)
		if m := listed(); !m[appt] || m[followUp] || m[soon] || m[long] {
			t.Fatalf("movable: %v, want the new patient's visit only (no follow-ups online; one inside the window; one longer than the slot)", m)
		}
		got := times(appt)
		for _, want := range []string{"08:00", "09:30", "13:00"} {
			if !slices.Contains(got, want) {
				t.Errorf("times %v lack %s", got, want)
			}
		}
		for _, not := range []string{"09:00", "10:00", "11:00", "11:30", "12:00", "12:30"} {
			if slices.Contains(got, not) {
				t.Errorf("times %v offer %s (its own, taken, or the break)", got, not)
			}
		}

		cases := []struct {
			name    string
			id      int64
			to      time.Time
			version int
			want    int
		}{
			{"another patient's time", appt, at("10:00"), version[appt], http.StatusConflict},
			{"the break", appt, at("12:00"), version[appt], http.StatusConflict},
			{"a time off the slots", appt, at("13:10"), version[appt], http.StatusConflict},
			{"a stale version", appt, at("13:00"), version[appt] + 7, http.StatusConflict},
			{"a follow-up not offered online", followUp, at("13:00"), version[followUp], http.StatusConflict},
			{"inside the cancellation window", soon, at("13:00"), version[soon], http.StatusConflict},
			{"another's appointment", stranger, at("13:00"), 1, http.StatusNotFound},
			{"its own time", appt, at("09:00"), version[appt], http.StatusUnprocessableEntity},
			{"a visit longer than the slot", long, at("13:00"), version[long], http.StatusConflict},
		}
		for _, tc := range cases {
			if r := move(tc.id, tc.to, tc.version); r.Status != tc.want {
				t.Errorf("%s: %d %s, want %d", tc.name, r.Status, r.Body, tc.want)
			}
		}
		if r := c.Do("POST", path(appt, "move"), map[string]any{"starts_at": "tomorrow at nine", "version": 0}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a time in no format: %d %s", r.Status, r.Body)
		}
		var before int
		if err := db.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE topic = 'appointment.changed'`).Scan(&before); err != nil {
			t.Fatal(err)
		}
		if r := move(appt, at("13:00"), version[appt]); r.Status != http.StatusOK {
			t.Fatalf("move: %d %s", r.Status, r.Body)
		}
		var starts time.Time
		var minutes int
		if err := db.QueryRow(`SELECT starts_at, duration_minutes FROM appointments WHERE id = $1`, appt).Scan(&starts, &minutes); err != nil ||
			!starts.Equal(at("13:00")) || minutes != 15 {
			t.Fatalf("moved to %v for %d minutes (%v), want 13:00 for its own 15", starts, minutes, err)
		}
		var actor string
		if err := db.QueryRow(`SELECT actor_name FROM audit_events WHERE action = 'appointment.update' AND entity_id = $1`, strconv.FormatInt(appt, 10)).Scan(&actor); err != nil ||
			actor != fmt.Sprintf("patient:%d", lan) {
			t.Fatalf("move audited as %q %v", actor, err)
		}
		var after int
		if err := db.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE topic = 'appointment.changed'`).Scan(&after); err != nil || after != before+1 {
			t.Fatalf("messages of a new time: %d then %d (%v)", before, after, err)
		}
		// Its old time is free again; its new one is its own, not offered.
		if got := times(appt); !slices.Contains(got, "09:00") || slices.Contains(got, "13:00") {
			t.Fatalf("times after the move: %v", got)
		}
		// The version moved on: the form the patient had open is stale.
		if r := move(appt, at("14:00"), version[appt]); r.Status != http.StatusConflict {
			t.Fatalf("a second move on the old version: %d", r.Status)
		}
		// Three moves a day: the third goes, the fourth is refused (429) and changes nothing.
		for i, to := range []string{"14:00", "14:30", "15:30"} {
			listed()
			r := move(appt, at(to), version[appt])
			if want := []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests}[i]; r.Status != want {
				t.Fatalf("move %d to %s: %d %s, want %d", i+2, to, r.Status, r.Body, want)
			}
		}
		if err := db.QueryRow(`SELECT starts_at FROM appointments WHERE id = $1`, appt).Scan(&starts); err != nil || !starts.Equal(at("14:30")) {
			t.Fatalf("after the refused move: %v %v", starts, err)
		}

		// A cancellation window of four days: a time inside it is neither offered nor taken.
		far := w.bookAt(t, lan, at("09:00").AddDate(0, 0, 3), "new")
		if r := admin.Do("PUT", "/api/settings/patient-messages", map[string]any{"reminders": true, "offsets_minutes": []int{1440, 120}, "quiet_start": "21:00",
			"quiet_end": "08:00", "cancel_hours": 24 * 4, "email": true, "sms": true, "language": "en", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		listed()
		if got := times(far); len(got) != 0 {
			t.Fatalf("times inside the window: %v", got)
		}
		if r := move(far, at("16:00"), version[far]); r.Status != http.StatusConflict {
			t.Fatalf("a move into the window: %d %s", r.Status, r.Body)
		}
	})
}
