package push_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/push"
	"emr/internal/settings"
)

// TestChannelAuthorisation: the server signs only channels the user may see, and the push
// endpoint admits a socket only with a signature for that socket and channel.
func TestChannelAuthorisation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		env.CreateUser("doc", "doctor")
		recID, docID := env.UserID("rec"), env.UserID("doc")
		var cfg struct{ Push struct{ Key string } }
		env.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
		if cfg.Push.Key == "" {
			t.Fatal("no push key in /api/config")
		}

		// Connect as pusher-js does and learn the socket id.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := rec.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		read := func() (event, channel, data string) {
			t.Helper()
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Event, Channel string
				Data           json.RawMessage
			}
			_ = json.Unmarshal(b, &m)
			return m.Event, m.Channel, string(m.Data)
		}
		_, _, data := read()
		var established struct {
			SocketID string `json:"socket_id"`
		}
		var s string
		_ = json.Unmarshal([]byte(data), &s)
		_ = json.Unmarshal([]byte(s), &established)

		authFor := func(channel string) (int, string) {
			r := rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": channel})
			var body struct{ Auth string }
			_ = json.Unmarshal(r.Body, &body)
			return r.Status, body.Auth
		}
		subscribe := func(channel, auth string) string {
			b, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": channel, "auth": auth}})
			if err := c.Write(ctx, websocket.MessageText, b); err != nil {
				t.Fatal(err)
			}
			event, _, _ := read()
			return event
		}

		for channel, want := range map[string]int{
			"private-appointments": http.StatusOK,
			"private-patients":     http.StatusOK,
			"private-users":        http.StatusForbidden,
			"private-bills":        http.StatusOK, // a receptionist charges and takes payments
			"private-documents":    http.StatusOK,
			"private-results":      http.StatusForbidden,
			fmt.Sprintf("private-App.Models.User.%d", recID): http.StatusOK,
			fmt.Sprintf("private-App.Models.User.%d", docID): http.StatusForbidden,
			"private-anything-else":                          http.StatusForbidden,
			"presence-patient-edit.12":                       http.StatusOK,
			"presence-patient-edit.x":                        http.StatusForbidden,
			"presence-anything-else":                         http.StatusForbidden,
		} {
			if status, _ := authFor(channel); status != want {
				t.Errorf("auth for %s: %d, want %d", channel, status, want)
			}
		}
		if r := rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": "nonsense", "channel_name": "private-appointments"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("bad socket id: %d", r.Status)
		}
		if r := env.Client().Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": "private-appointments"}); r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
			t.Errorf("anonymous: %d", r.Status)
		}

		// With the server's signature the socket joins; with its own channel's signature it
		// cannot join someone else's.
		_, own := authFor(fmt.Sprintf("private-App.Models.User.%d", recID))
		if ev := subscribe(fmt.Sprintf("private-App.Models.User.%d", docID), own); ev != "pusher:subscription_error" {
			t.Errorf("another user's channel with one's own signature: %s", ev)
		}
		if ev := subscribe(fmt.Sprintf("private-App.Models.User.%d", recID), own); ev != "pusher_internal:subscription_succeeded" {
			t.Errorf("own channel: %s", ev)
		}
		_, appts := authFor("private-appointments")
		if ev := subscribe("private-appointments", appts); ev != "pusher_internal:subscription_succeeded" {
			t.Errorf("appointments: %s", ev)
		}
		// A presence channel: who the user is there comes from the session, signed with it.
		var member struct {
			Auth        string `json:"auth"`
			ChannelData string `json:"channel_data"`
		}
		rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": "presence-patient-edit.12"}).JSON(t, &member)
		if want := fmt.Sprintf(`{"user_id":"%d","user_info":{"name":"Test rec"}}`, recID); member.ChannelData != want {
			t.Errorf("channel data %s, want %s", member.ChannelData, want)
		}
		frame, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": "presence-patient-edit.12", "auth": member.Auth, "channel_data": member.ChannelData}})
		_ = c.Write(ctx, websocket.MessageText, frame)
		if ev, _, _ := read(); ev != "pusher_internal:subscription_succeeded" {
			t.Errorf("presence: %s", ev)
		}
		nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse")) // may read patients, not edit them
		if r := nurse.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": "presence-patient-edit.12"}); r.Status != http.StatusForbidden {
			t.Errorf("a nurse on the edit form's presence: %d", r.Status)
		}
		// Events published by the server arrive.
		if err := env.Server.Push.Publish("private-appointments", "App.Events.AppointmentChanged", map[string]int{"id": 1}, ""); err != nil {
			t.Fatal(err)
		}
		if ev, ch, _ := read(); ev != "App.Events.AppointmentChanged" || ch != "private-appointments" {
			t.Errorf("published event: %s on %s", ev, ch)
		}

		// User sign-in, signed for this socket.
		var signin struct {
			Auth     string `json:"auth"`
			UserData string `json:"user_data"`
		}
		rec.Do("POST", "/api/broadcasting/user-auth", map[string]string{"socket_id": established.SocketID}).JSON(t, &signin)
		b, _ := json.Marshal(map[string]any{"event": "pusher:signin", "data": signin})
		_ = c.Write(ctx, websocket.MessageText, b)
		if ev, _, _ := read(); ev != "pusher:signin_success" {
			t.Errorf("sign-in: %s", ev)
		}
	})
}

// TestTwoInstancesShareEvents: two servers on one PostgreSQL database; an event published
// on one reaches sockets connected to either.
func TestTwoInstancesShareEvents(t *testing.T) {
	url := dbtest.PostgresURL(t)
	a, b := apitest.New(t, dbtest.Open(t, url)), apitest.New(t, dbtest.Open(t, url))
	keys, err := push.LoadKeys(context.Background(), &settings.Store{DB: a.DB}, apitest.Secrets)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	doc := a.LoggedIn("doc", a.CreateUser("doc", "doctor")) // one session, valid on both
	frames := make(chan string, 16)
	for _, env := range []*apitest.Env{a, b} {
		c, err := doc.DialPush(ctx, env.HTTP.URL, keys.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		_, first, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Data string }
		var d struct {
			SocketID string `json:"socket_id"`
		}
		_ = json.Unmarshal(first, &m)
		_ = json.Unmarshal([]byte(m.Data), &d)
		sub, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": push.AppointmentsChannel, "auth": keys.Sign(d.SocketID, push.AppointmentsChannel)}})
		if err := c.Write(ctx, websocket.MessageText, sub); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := c.Read(ctx); err != nil || !strings.Contains(string(ok), "subscription_succeeded") {
			t.Fatalf("subscribe: %s %v", ok, err)
		}
		go func() {
			for {
				_, f, err := c.Read(ctx)
				if err != nil {
					return
				}
				frames <- env.HTTP.URL + " " + string(f)
			}
		}()
	}
	// The listeners start with the servers; publish until both sockets have heard.
	heard := map[string]bool{}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for len(heard) < 2 {
		select {
		case f := <-frames:
			if strings.Contains(f, "App.Events.AppointmentChanged") {
				heard[strings.Fields(f)[0]] = true
			}
		case <-tick.C:
			if err := a.Server.Push.Publish(push.AppointmentsChannel, "App.Events.AppointmentChanged", map[string]int{"id": 1}, ""); err != nil {
				t.Fatal(err)
			}
		case <-ctx.Done():
			t.Fatalf("heard on %v only", heard)
		}
	}
	if !heard[b.HTTP.URL] {
		t.Error("the other instance's socket did not hear the event")
	}
}

// TestSocketsNeedASessionAndAreBounded: the built-in endpoint admits logged-in users only,
// and at most push.MaxSocketsPerUser sockets of one user at once.
func TestSocketsNeedASessionAndAreBounded(t *testing.T) {
	db := dbtest.Open(t, dbtest.Engines()[0].URL(t))
	env := apitest.New(t, db)
	var cfg struct{ Push struct{ Key string } }
	env.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	closedWith := func(c *websocket.Conn) websocket.StatusCode {
		t.Helper()
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return websocket.CloseStatus(err)
			}
		}
	}
	anonymous, err := env.Client().DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
	if err != nil {
		t.Fatal(err)
	}
	if code := closedWith(anonymous); code != 4009 {
		t.Errorf("a socket without a session closed with %d, want 4009", code)
	}

	nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	for i := range push.MaxSocketsPerUser {
		c, err := nurse.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		if _, first, err := c.Read(ctx); err != nil || !strings.Contains(string(first), "connection_established") {
			t.Fatalf("socket %d: %s %v", i+1, first, err)
		}
	}
	over, err := nurse.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
	if err != nil {
		t.Fatal(err)
	}
	if code := closedWith(over); code != 4100 {
		t.Errorf("socket %d of one user closed with %d, want 4100 (over capacity)", push.MaxSocketsPerUser+1, code)
	}
	// Another user is not affected by the first one's sockets.
	doc := env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	c, err := doc.DialPush(ctx, env.HTTP.URL, cfg.Push.Key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, first, err := c.Read(ctx); err != nil || !strings.Contains(string(first), "connection_established") {
		t.Fatalf("another user's socket: %s %v", first, err)
	}
}
