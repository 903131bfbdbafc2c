package push

import (
	"context"
	"emr/internal/auth"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

type client struct {
	t  *testing.T
	c  *websocket.Conn
	id string
}

func dial(t *testing.T, url string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	return c, err
}

func connect(t *testing.T, base string, keys Keys) *client {
	t.Helper()
	c, err := dial(t, "ws"+strings.TrimPrefix(base, "http")+"/app/"+keys.Key+"?protocol=7&client=js&version=8.4.0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	cl := &client{t: t, c: c}
	m := cl.read()
	var d struct {
		SocketID        string `json:"socket_id"`
		ActivityTimeout int    `json:"activity_timeout"`
	}
	if m.Event != "pusher:connection_established" || json.Unmarshal([]byte(m.stringData(t)), &d) != nil || !socketIDPattern.MatchString(d.SocketID) || d.ActivityTimeout != activityTimeout {
		t.Fatalf("first frame %+v", m)
	}
	cl.id = d.SocketID
	return cl
}

func (cl *client) send(event string, data any) {
	cl.t.Helper()
	b, _ := json.Marshal(map[string]any{"event": event, "data": data})
	if err := cl.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		cl.t.Fatal(err)
	}
}

func (cl *client) read() message {
	cl.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := cl.c.Read(ctx)
	if err != nil {
		cl.t.Fatal(err)
	}
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		cl.t.Fatal(err)
	}
	return m
}

func (m message) stringData(t *testing.T) string {
	var s string
	if err := json.Unmarshal(m.Data, &s); err != nil {
		t.Fatalf("data of %s is not a JSON string: %s", m.Event, m.Data)
	}
	return s
}

func start(t *testing.T) (*Hub, Keys, string) {
	hub, keys := NewHub(), Keys{Key: "k3y", Secret: "s3cret"}
	mux := http.NewServeMux()
	mux.Handle("GET /app/{key}", &Server{Hub: hub, Keys: StaticKeys(keys)})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return hub, keys, ts.URL
}

func TestProtocol(t *testing.T) {
	hub, keys, base := start(t)
	a, b := connect(t, base, keys), connect(t, base, keys)

	a.send("pusher:ping", map[string]any{})
	if m := a.read(); m.Event != "pusher:pong" {
		t.Errorf("ping answered with %+v", m)
	}

	// A private channel needs the signature of this socket and this channel.
	a.send("pusher:subscribe", map[string]any{"channel": "private-appointments", "auth": keys.Sign(b.id, "private-appointments")})
	if m := a.read(); m.Event != "pusher:subscription_error" || m.Channel != "private-appointments" {
		t.Errorf("another socket's signature: %+v", m)
	}
	a.send("pusher:subscribe", map[string]any{"channel": "private-App.Models.User.2", "auth": keys.Sign(a.id, "private-App.Models.User.1")})
	if m := a.read(); m.Event != "pusher:subscription_error" {
		t.Errorf("another channel's signature: %+v", m)
	}
	for _, cl := range []*client{a, b} {
		cl.send("pusher:subscribe", map[string]any{"channel": "private-appointments", "auth": keys.Sign(cl.id, "private-appointments")})
		if m := cl.read(); m.Event != "pusher_internal:subscription_succeeded" || m.Channel != "private-appointments" {
			t.Fatalf("subscribe: %+v", m)
		}
	}
	if n := hub.Subscribers("private-appointments"); n != 2 {
		t.Fatalf("%d subscribers", n)
	}

	// Events reach every subscriber but the sender's own socket.
	if err := hub.Publish("private-appointments", "App.Events.AppointmentChanged", map[string]int{"id": 7}, a.id); err != nil {
		t.Fatal(err)
	}
	if err := hub.Publish("private-appointments", "App.Events.AppointmentChanged", map[string]int{"id": 8}, ""); err != nil {
		t.Fatal(err)
	}
	if m := a.read(); m.Event != "App.Events.AppointmentChanged" || m.stringData(t) != `{"id":8}` {
		t.Errorf("the sender got %+v first", m)
	}
	if m := b.read(); m.stringData(t) != `{"id":7}` {
		t.Errorf("the other socket got %+v", m)
	}

	// Sign-in with the user's data signed for this socket.
	userData := `{"id":"1","user_info":{"name":"Ann"}}`
	a.send("pusher:signin", map[string]any{"auth": keys.Sign(a.id, "user", userData), "user_data": userData})
	if m := a.read(); m.Event != "pusher:signin_success" {
		t.Errorf("sign-in: %+v", m)
	}
	a.send("pusher:signin", map[string]any{"auth": keys.Sign(b.id, "user", userData), "user_data": userData})
	if m := a.read(); m.Event != "pusher:error" {
		t.Errorf("sign-in with another socket's signature: %+v", m)
	}

	a.send("pusher:unsubscribe", map[string]any{"channel": "private-appointments"})
	a.send("pusher:ping", map[string]any{})
	a.read() // the pong: the unsubscribe has been handled
	if n := hub.Subscribers("private-appointments"); n != 1 {
		t.Errorf("%d subscribers after unsubscribing", n)
	}
}

func TestRefusedConnections(t *testing.T) {
	_, keys, base := start(t)
	ws := "ws" + strings.TrimPrefix(base, "http")
	for path, code := range map[string]websocket.StatusCode{
		"/app/wrong?protocol=7":            codeAppUnknown,
		"/app/" + keys.Key:                 codeProtocol,
		"/app/" + keys.Key + "?protocol=5": codeProtocol,
	} {
		c, err := dial(t, ws+path)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err = c.Read(ctx)
		cancel()
		if websocket.CloseStatus(err) != code {
			t.Errorf("%s: %v, want close %d", path, err, code)
		}
	}
}

func TestOversizedMessageClosesTheSocket(t *testing.T) {
	_, keys, base := start(t)
	a := connect(t, base, keys)
	a.send("pusher:ping", strings.Repeat("x", maxMessage))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := a.c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Errorf("after an oversized message: %v", err)
	}
}

// TestPresence: a presence channel lists the users present (each once, however many sockets
// they have there) and tells the others when a user arrives and when their last socket leaves.
func TestPresence(t *testing.T) {
	_, keys, base := start(t)
	const channel = "presence-patient.1"
	join := func(cl *client, id, name string) message {
		t.Helper()
		data := `{"user_id":"` + id + `","user_info":{"name":"` + name + `"}}`
		cl.send("pusher:subscribe", map[string]any{"channel": channel, "auth": keys.Sign(cl.id, channel, data), "channel_data": data})
		return cl.read()
	}
	type presence struct {
		Presence struct {
			IDs   []string                   `json:"ids"`
			Hash  map[string]json.RawMessage `json:"hash"`
			Count int                        `json:"count"`
		} `json:"presence"`
	}
	members := func(m message) presence {
		t.Helper()
		var p presence
		if m.Event != "pusher_internal:subscription_succeeded" || json.Unmarshal([]byte(m.stringData(t)), &p) != nil {
			t.Fatalf("subscription: %+v", m)
		}
		return p
	}
	ann, bob, annAgain := connect(t, base, keys), connect(t, base, keys), connect(t, base, keys)

	if p := members(join(ann, "1", "Ann")); p.Presence.Count != 1 || p.Presence.IDs[0] != "1" || string(p.Presence.Hash["1"]) != `{"name":"Ann"}` {
		t.Errorf("alone: %+v", p)
	}
	if p := members(join(bob, "2", "Bob")); p.Presence.Count != 2 {
		t.Errorf("Bob sees %+v", p)
	}
	if m := ann.read(); m.Event != "pusher_internal:member_added" || m.Channel != channel || m.stringData(t) != `{"user_id":"2","user_info":{"name":"Bob"}}` {
		t.Errorf("Ann heard %+v", m)
	}
	// Ann in a second tab is still one member, and Bob is not told again.
	if p := members(join(annAgain, "1", "Ann")); p.Presence.Count != 2 {
		t.Errorf("Ann's second tab sees %+v", p)
	}
	annAgain.send("pusher:unsubscribe", map[string]any{"channel": channel})
	bob.send("pusher:ping", map[string]any{})
	if m := bob.read(); m.Event != "pusher:pong" {
		t.Errorf("Bob heard %+v while Ann was still there", m)
	}
	// Ann's last socket goes: Bob hears that she left.
	_ = ann.c.Close(websocket.StatusNormalClosure, "")
	if m := bob.read(); m.Event != "pusher_internal:member_removed" || m.stringData(t) != `{"user_id":"1"}` {
		t.Errorf("Bob heard %+v", m)
	}
	// Channel data must name the user.
	data := `{"user_info":{}}`
	annAgain.send("pusher:subscribe", map[string]any{"channel": channel, "auth": keys.Sign(annAgain.id, channel, data), "channel_data": data})
	if m := annAgain.read(); m.Event != "pusher:error" {
		t.Errorf("no user id: %+v", m)
	}
}

// TestCloseAll: a stopping server closes every socket with "reconnect now" (4200), which
// sends the clients to another instance.
func TestCloseAll(t *testing.T) {
	hub, keys, base := start(t)
	a, b := connect(t, base, keys), connect(t, base, keys)
	if n := hub.CloseAll(); n != 2 {
		t.Errorf("closed %d sockets, want 2", n)
	}
	for _, cl := range []*client{a, b} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := cl.c.Read(ctx)
		cancel()
		if websocket.CloseStatus(err) != codeReconnectNow {
			t.Errorf("after CloseAll: %v, want close %d", err, codeReconnectNow)
		}
	}
}

// TestEachDomainHasItsOwnChannel: a cashier who may take payments but not see the day's
// appointments hears bills change, and only bills; a nurse who reads records but handles no
// money hears documents and not bills.
func TestEachDomainHasItsOwnChannel(t *testing.T) {
	cashier := &auth.Principal{Permissions: []auth.Permission{auth.RecordPayment}}
	nurse := &auth.Principal{Permissions: []auth.Permission{auth.ViewPatient, auth.ViewAppointment}}
	for _, c := range []struct {
		who     string
		p       *auth.Principal
		channel string
		may     bool
	}{
		{"cashier", cashier, BillsChannel, true},
		{"cashier", cashier, AppointmentsChannel, false},
		{"cashier", cashier, DocumentsChannel, false},
		{"nurse", nurse, BillsChannel, false},
		{"nurse", nurse, DocumentsChannel, true},
		{"nurse", nurse, AppointmentsChannel, true},
	} {
		if got := mayJoin(c.p, c.channel); got != c.may {
			t.Errorf("%s joins %s: %v, want %v", c.who, c.channel, got, c.may)
		}
	}
}

// TestTheWebAppJoinsWhatTheServerAdmits: the web app's channel list (web/src/app/push.ts)
// names, for each shared channel, the permissions the server admits it with, so the app
// neither asks for a channel it is refused nor misses one it may hear.
func TestTheWebAppJoinsWhatTheServerAdmits(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "web", "src", "app", "push.ts"))
	if err != nil {
		t.Fatal(err)
	}
	entry := regexp.MustCompile(`channel: '([^']+)',\s*permissions: \[([^\]]*)\]`)
	quoted := regexp.MustCompile(`'([^']+)'`)
	web := map[string][]auth.Permission{}
	for _, m := range entry.FindAllStringSubmatch(string(src), -1) {
		perms := []auth.Permission{}
		for _, q := range quoted.FindAllStringSubmatch(m[2], -1) {
			perms = append(perms, auth.Permission(q[1]))
		}
		web[m[1]] = perms
	}
	for channel, perms := range channelAccess {
		if !slices.Equal(web[channel], perms) {
			t.Errorf("%s: the web app joins with %v, the server admits with %v", channel, web[channel], perms)
		}
		delete(web, channel)
	}
	delete(web, RolesChannel) // everyone's
	for channel := range web {
		t.Errorf("the web app joins %s, which the server does not admit", channel)
	}
}
