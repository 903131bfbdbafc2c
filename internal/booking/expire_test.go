package booking_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/booking"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// request holds s for address and confirms it with the mailed code: a request for the desk.
func (f *fixture) request(t *testing.T, c *apitest.Client, s slot, first, address string) int64 {
	t.Helper()
	r := hold(c, s, first, address)
	if r.Status != http.StatusCreated {
		t.Fatalf("hold: %d %s", r.Status, r.Body)
	}
	var h struct{ ID int64 }
	r.JSON(t, &h)
	if r := c.Do("POST", "/api/book/holds/"+strconv.FormatInt(h.ID, 10)+"/confirm", map[string]any{"code": f.code(t, address)}); r.Status != http.StatusOK {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	return h.ID
}

// TestUnansweredRequestsExpire (the attacker's review, M2): a request the desk has not
// answered when its time is nearer than the clinic's notice is declined as not answered in
// time — the patient told, in time to make other plans, the slot free again, audited — and a
// later one waits; one the desk answered meanwhile is left as the desk left it.
func TestUnansweredRequestsExpire(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		f := setUp(t, db, false)
		anon := f.env.Client()
		free := f.slots(t, anon)
		soon, later := free[0], free[len(free)-1]
		first := f.request(t, anon, soon, "Lan", "soon@example.test")
		second := f.request(t, f.env.Client(), later, "Binh", "later@example.test")
		start := mustTime(t, soon.StartsAt)
		// The clinic's clock an hour before the first request's time, its notice 0: nothing is due.
		at := func(d time.Duration) *booking.Store {
			return &booking.Store{DB: db, Loc: time.UTC, Now: func() time.Time { return start.Add(d) }}
		}
		ctx := context.Background()
		if n, err := at(-time.Hour).Expire(ctx); err != nil || n != 0 {
			t.Fatalf("an hour before, notice 0: %d expired (%v)", n, err)
		}
		// With two hours' notice the first is due, the second (hours later) is not.
		settings := f.admin.Do("GET", "/api/settings/online-booking", nil)
		var set map[string]any
		settings.JSON(t, &set)
		set["notice_minutes"] = 120
		if r := f.admin.Do("PUT", "/api/settings/online-booking", set); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
		if n, err := at(-time.Hour).Expire(ctx); err != nil || n != 1 {
			t.Fatalf("an hour before, notice two hours: %d expired (%v)", n, err)
		}
		if n, err := at(-time.Hour).Expire(ctx); err != nil || n != 0 {
			t.Fatalf("again: %d expired (%v)", n, err)
		}
		for id, want := range map[int64]string{first: "declined", second: "requested"} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM booking_requests WHERE id = $1 AND status = $2`, id, want); n != 1 {
				t.Errorf("request %d is not %s", id, want)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1 AND topic_id = $2`, booking.TopicDeclined, first); n != 1 {
			t.Errorf("the patient told %d times", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'booking.expire' AND entity_id = $1`, strconv.FormatInt(first, 10)); n != 1 {
			t.Errorf("the expiry audited %d times", n)
		}
		offered := false
		for _, s := range f.slots(t, anon) {
			offered = offered || s.StartsAt == soon.StartsAt
		}
		if !offered {
			t.Errorf("the expired request's time is not free again")
		}
		var list struct{ Data []request }
		f.desk.Do("GET", "/api/booking-requests", nil).JSON(t, &list)
		if len(list.Data) != 1 || list.Data[0].ID != second {
			t.Errorf("the desk's list: %+v", list.Data)
		}
	})
}
