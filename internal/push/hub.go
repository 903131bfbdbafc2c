// Package push is the built-in push endpoint: it speaks the public Pusher Channels protocol
// (version 7) over WebSocket, so the stock pusher-js client connects to it, and fans events
// out to the sockets subscribed to a channel. Private and presence channels need a signature
// from POST /api/broadcasting/auth; user sign-in one from /api/broadcasting/user-auth.
package push

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"

	"emr/internal/metrics"
)

// Limits that keep one client from costing the others.
const (
	// sendQueue is how many messages may wait for a slow socket; past it the socket is closed
	// (the client reconnects and re-fetches) rather than stalling a publisher.
	sendQueue = 64
	// maxMessage is the largest message a client may send.
	maxMessage = 10 << 10
	// activityTimeout is what the server tells clients: ping after this many idle seconds.
	activityTimeout = 120
	// MaxSocketsPerUser bounds one account's open sockets (a tab each), so a runaway client
	// cannot take the server's connections.
	MaxSocketsPerUser = 20
)

// Hub holds the open sockets and their subscriptions.
type Hub struct {
	mu       sync.RWMutex
	sockets  map[string]*socket
	channels map[string]map[*socket]struct{}
	perUser  map[int64]int
	// presence holds, per presence channel, the members present: each user once, with the
	// sockets through which they are there.
	presence map[string]map[string]*member
}

// member is one user on a presence channel.
type member struct {
	info    json.RawMessage
	sockets map[*socket]struct{}
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{sockets: map[string]*socket{}, channels: map[string]map[*socket]struct{}{}, perUser: map[int64]int{}, presence: map[string]map[string]*member{}}
}

// socket is one client connection as the hub sees it.
type socket struct {
	id string
	// as is the user id a socket is present as, per presence channel (guarded by Hub.mu).
	as     map[string]string
	send   chan []byte
	once   sync.Once
	closed chan struct{}
	// reason is what the client is told when the server closes the socket (set once, before
	// closed is closed).
	reason string
}

func (s *socket) close() { s.closeWith("Too slow: reconnect") }

// closeWith closes the socket with the protocol's reconnect code and reason.
func (s *socket) closeWith(reason string) {
	s.once.Do(func() {
		s.reason = reason
		close(s.closed)
	})
}

// CloseAll closes every open socket with the protocol's "reconnect now" code (4200), so
// that clients connect again, to another instance if this one is stopping; it returns how
// many it closed.
func (h *Hub) CloseAll() int {
	h.mu.RLock()
	list := make([]*socket, 0, len(h.sockets))
	for _, s := range h.sockets {
		list = append(list, s)
	}
	h.mu.RUnlock()
	for _, s := range list {
		s.closeWith("Server restarting: reconnect")
	}
	return len(list)
}

// Open is how many sockets are open.
func (h *Hub) Open() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.sockets)
}

// newSocketID returns an id of the protocol's form "123.456".
func newSocketID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%d.%d", binary.BigEndian.Uint32(b[:4])%1_000_000_000, binary.BigEndian.Uint32(b[4:])%1_000_000_000)
}

// admit counts one more socket of user, unless they already have limit open.
func (h *Hub) admit(user int64, limit int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perUser[user] >= limit {
		return false
	}
	h.perUser[user]++
	return true
}

// release uncounts a socket of user.
func (h *Hub) release(user int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perUser[user]--; h.perUser[user] <= 0 {
		delete(h.perUser, user)
	}
}

func (h *Hub) add(s *socket) {
	h.mu.Lock()
	h.sockets[s.id] = s
	h.mu.Unlock()
	metrics.SocketOpened()
}

func (h *Hub) remove(s *socket) {
	h.mu.Lock()
	if _, open := h.sockets[s.id]; open {
		metrics.SocketClosed()
	}
	delete(h.sockets, s.id)
	for name, subs := range h.channels {
		if _, ok := subs[s]; ok {
			h.drop(s, name)
		}
	}
	h.mu.Unlock()
	s.close()
}

// drop takes s off channel, with h.mu held; leaving a presence channel through a user's
// last socket there tells the others that the member left.
func (h *Hub) drop(s *socket, channel string) {
	if subs := h.channels[channel]; subs != nil {
		delete(subs, s)
		if len(subs) == 0 {
			delete(h.channels, channel)
		}
	}
	id, ok := s.as[channel]
	if !ok {
		return
	}
	delete(s.as, channel)
	members := h.presence[channel]
	m := members[id]
	delete(m.sockets, s)
	if len(m.sockets) > 0 {
		return
	}
	delete(members, id)
	if len(members) == 0 {
		delete(h.presence, channel)
	}
	data, _ := json.Marshal(map[string]string{"user_id": id})
	h.sendAll(channel, "pusher_internal:member_removed", data, nil)
}

// join puts s on the presence channel as user id with info, and returns the members then
// present (for subscription_succeeded). A user new to the channel is announced to the others.
func (h *Hub) join(s *socket, channel, id string, info json.RawMessage) (ids []string, hash map[string]json.RawMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := s.as[channel]; ok && old != id {
		h.drop(s, channel) // subscribed again as someone else
	}
	members := h.presence[channel]
	if members == nil {
		members = map[string]*member{}
		h.presence[channel] = members
	}
	m := members[id]
	if m == nil {
		m = &member{info: info, sockets: map[*socket]struct{}{}}
		members[id] = m
		data, _ := json.Marshal(map[string]any{"user_id": id, "user_info": info})
		h.sendAll(channel, "pusher_internal:member_added", data, s)
	}
	m.sockets[s] = struct{}{}
	if s.as == nil {
		s.as = map[string]string{}
	}
	s.as[channel] = id
	h.subscribeLocked(s, channel)
	hash = make(map[string]json.RawMessage, len(members))
	for mid, mm := range members {
		ids = append(ids, mid)
		hash[mid] = mm.info
	}
	return ids, hash
}

func (h *Hub) subscribe(s *socket, channel string) {
	h.mu.Lock()
	h.subscribeLocked(s, channel)
	h.mu.Unlock()
}

func (h *Hub) subscribeLocked(s *socket, channel string) {
	subs := h.channels[channel]
	if subs == nil {
		subs = map[*socket]struct{}{}
		h.channels[channel] = subs
	}
	subs[s] = struct{}{}
}

func (h *Hub) unsubscribe(s *socket, channel string) {
	h.mu.Lock()
	h.drop(s, channel)
	h.mu.Unlock()
}

// Publish sends event with data (marshalled to JSON, sent as a JSON string as the protocol
// wants) to every socket on channel except the one with id except (the sender's own, from
// X-Socket-ID). It never blocks: a socket whose queue is full is closed.
func (h *Hub) Publish(channel, event string, data any, except string) error {
	payload, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("push %s: %w", event, err)
	}
	return h.publishRaw(channel, event, payload, except)
}

// publishRaw is Publish with the data already in JSON.
func (h *Hub) publishRaw(channel, event string, payload []byte, except string) error {
	metrics.Published()
	msg, err := json.Marshal(message{Event: event, Channel: channel, Data: json.RawMessage(quote(payload))})
	if err != nil {
		return fmt.Errorf("push %s: %w", event, err)
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.channels[channel] {
		if s.id != except {
			s.offer(msg)
		}
	}
	return nil
}

// sendAll sends an internal event to channel's sockets but skip, with h.mu held.
func (h *Hub) sendAll(channel, event string, data []byte, skip *socket) {
	msg := mustFrame(message{Event: event, Channel: channel, Data: quote(data)})
	for s := range h.channels[channel] {
		if s != skip {
			s.offer(msg)
		}
	}
}

// offer queues msg for s without waiting; a socket too slow to take it is closed (it
// reconnects and catches up).
func (s *socket) offer(msg []byte) {
	select {
	case s.send <- msg:
	default:
		s.close()
	}
}

// Subscribers is how many sockets are on channel (for tests and metrics).
func (h *Hub) Subscribers(channel string) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.channels[channel])
}

// quote returns b as a JSON string literal.
func quote(b []byte) []byte {
	q, _ := json.Marshal(string(b))
	return q
}
