package push

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// message is one protocol frame. Data is a JSON value; for server events it is a string
// holding JSON, as the protocol has it.
type message struct {
	Event   string          `json:"event"`
	Channel string          `json:"channel,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Keys are the app key clients connect with and the secret that signs channel
// authorisations. Every instance of one installation shares them.
type Keys struct {
	Key    string `json:"key"`
	Secret string `json:"secret"`
}

// Sign is the protocol's signature of parts joined by ':' (socket id, channel and channel
// data for a channel; socket id, "user" and user data for a sign-in), as "key:hex".
func (k Keys) Sign(parts ...string) string {
	mac := hmac.New(sha256.New, []byte(k.Secret))
	mac.Write([]byte(strings.Join(parts, ":")))
	return k.Key + ":" + hex.EncodeToString(mac.Sum(nil))
}

func (k Keys) valid(auth string, parts ...string) bool {
	return hmac.Equal([]byte(auth), []byte(k.Sign(parts...)))
}

// Server is the WebSocket endpoint GET /app/{key}.
type Server struct {
	Hub  *Hub
	Keys *KeyStore
	// Identify, when set, names the user a connection belongs to (from its session cookie);
	// a connection it refuses is closed as unauthorised, and one user may hold at most
	// PerUser sockets at once.
	Identify func(*http.Request) (int64, error)
	PerUser  int
	// Alive, when set, is asked every Recheck whether the connection's session still
	// lives; a socket whose session has ended is closed.
	Alive   func(ctx context.Context, r *http.Request) (bool, error)
	Recheck time.Duration
}

// SessionRecheck is how often a socket's session is checked.
const SessionRecheck = 5 * time.Second

// Error codes of the protocol (4000-4099: do not reconnect; 4200-4299: reconnect at once).
const (
	codeAppUnknown   = 4001
	codeProtocol     = 4007
	codeUnauthorized = 4009
	codeOverCapacity = 4100
	codeReconnectNow = 4200
)

func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	keys, err := srv.Keys.Get(r.Context())
	if err != nil {
		http.Error(w, "push keys unavailable", http.StatusServiceUnavailable)
		return
	}
	// The HTTP server's read timeout must not cut a socket that is quiet between pings.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, nil) // same origin only (the library checks Origin against Host)
	if err != nil {
		return
	}
	c.SetReadLimit(maxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if r.PathValue("key") != keys.Key {
		_ = c.Close(websocket.StatusCode(codeAppUnknown), "Application does not exist")
		return
	}
	if r.URL.Query().Get("protocol") != "7" {
		_ = c.Close(websocket.StatusCode(codeProtocol), "Unsupported protocol version")
		return
	}
	if srv.Identify != nil {
		user, err := srv.Identify(r)
		if err != nil {
			_ = c.Close(websocket.StatusCode(codeUnauthorized), "Connection is unauthorized")
			return
		}
		if !srv.Hub.admit(user, srv.PerUser) {
			_ = c.Close(websocket.StatusCode(codeOverCapacity), "Over capacity: too many connections for this user")
			return
		}
		defer srv.Hub.release(user)
	}
	s := &socket{id: newSocketID(), send: make(chan []byte, sendQueue), closed: make(chan struct{})}
	srv.Hub.add(s)
	defer srv.Hub.remove(s)

	if srv.Alive != nil && srv.Recheck > 0 {
		go srv.watchSession(ctx, r, s)
	}
	established, _ := json.Marshal(map[string]any{"socket_id": s.id, "activity_timeout": activityTimeout})
	s.send <- mustFrame(message{Event: "pusher:connection_established", Data: quote(established)})
	go func() { // the writer: one goroutine per socket owns writes
		defer cancel()
		for {
			select {
			case msg := <-s.send:
				wctx, done := context.WithTimeout(ctx, 10*time.Second)
				err := c.Write(wctx, websocket.MessageText, msg)
				done()
				if err != nil {
					return
				}
			case <-s.closed:
				_ = c.Close(websocket.StatusCode(codeReconnectNow), s.reason)
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		rctx, done := context.WithTimeout(ctx, (activityTimeout+30)*time.Second)
		_, data, err := c.Read(rctx)
		done()
		if err != nil {
			_ = c.CloseNow()
			return
		}
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			srv.reply(s, errorFrame("Invalid JSON"))
			continue
		}
		srv.handle(s, keys, m)
	}
}

// watchSession closes s once its session has ended (a database error leaves it open).
func (srv *Server) watchSession(ctx context.Context, r *http.Request, s *socket) {
	tick := time.NewTicker(srv.Recheck)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.closed:
			return
		case <-tick.C:
			if ok, err := srv.Alive(ctx, r); err == nil && !ok {
				s.closeWith("Session ended")
				return
			}
		}
	}
}

func (srv *Server) handle(s *socket, keys Keys, m message) {
	switch m.Event {
	case "pusher:ping":
		srv.reply(s, mustFrame(message{Event: "pusher:pong", Data: json.RawMessage("{}")}))
	case "pusher:subscribe":
		var d struct {
			Channel     string `json:"channel"`
			Auth        string `json:"auth"`
			ChannelData string `json:"channel_data"`
		}
		if err := json.Unmarshal(m.Data, &d); err != nil || d.Channel == "" || len(d.Channel) > 200 {
			srv.reply(s, errorFrame("Invalid subscription"))
			return
		}
		data := json.RawMessage(`"{}"`)
		switch {
		case strings.HasPrefix(d.Channel, "private-"):
			if !keys.valid(d.Auth, s.id, d.Channel) {
				srv.reply(s, subscriptionError(d.Channel))
				return
			}
		case strings.HasPrefix(d.Channel, "presence-"):
			if !keys.valid(d.Auth, s.id, d.Channel, d.ChannelData) {
				srv.reply(s, subscriptionError(d.Channel))
				return
			}
			var member struct {
				UserID   json.RawMessage `json:"user_id"`
				UserInfo json.RawMessage `json:"user_info"`
			}
			if json.Unmarshal([]byte(d.ChannelData), &member) != nil || len(member.UserID) == 0 {
				srv.reply(s, errorFrame("Invalid channel data"))
				return
			}
			ids, hash := srv.Hub.join(s, d.Channel, strings.Trim(string(member.UserID), `"`), orEmpty(member.UserInfo))
			presence, _ := json.Marshal(map[string]any{"presence": map[string]any{"ids": ids, "hash": hash, "count": len(ids)}})
			srv.reply(s, mustFrame(message{Event: "pusher_internal:subscription_succeeded", Channel: d.Channel, Data: quote(presence)}))
			return
		}
		srv.Hub.subscribe(s, d.Channel)
		srv.reply(s, mustFrame(message{Event: "pusher_internal:subscription_succeeded", Channel: d.Channel, Data: data}))
	case "pusher:unsubscribe":
		var d struct {
			Channel string `json:"channel"`
		}
		if json.Unmarshal(m.Data, &d) == nil {
			srv.Hub.unsubscribe(s, d.Channel)
		}
	case "pusher:signin":
		var d struct {
			Auth     string `json:"auth"`
			UserData string `json:"user_data"`
		}
		var user struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(m.Data, &d) != nil || json.Unmarshal([]byte(d.UserData), &user) != nil || !keys.valid(d.Auth, s.id, "user", d.UserData) {
			srv.reply(s, errorFrame("Invalid signature"))
			return
		}
		ud, _ := json.Marshal(map[string]string{"user_data": d.UserData})
		srv.reply(s, mustFrame(message{Event: "pusher:signin_success", Data: quote(ud)}))
	default:
		if !strings.HasPrefix(m.Event, "client-") {
			srv.reply(s, errorFrame("Unknown event"))
		}
		// Client events (client-*) are not enabled: they are dropped.
	}
}

// reply queues a frame for s without blocking.
func (srv *Server) reply(s *socket, frame []byte) { s.offer(frame) }

func mustFrame(m message) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // only fixed shapes are framed
	}
	return b
}

func errorFrame(text string) []byte {
	d, _ := json.Marshal(map[string]any{"message": text, "code": nil})
	return mustFrame(message{Event: "pusher:error", Data: d})
}

func subscriptionError(channel string) []byte {
	d, _ := json.Marshal(map[string]any{"type": "AuthError", "error": "Invalid signature", "status": 401})
	return mustFrame(message{Event: "pusher:subscription_error", Channel: channel, Data: d})
}

func orEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}
