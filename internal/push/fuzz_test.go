package push

import (
	"encoding/json"
	"testing"
)

// FuzzClientFrames feeds the protocol handler any frame a client might send (its seed corpus
// runs in every go test): nothing panics, and a frame it cannot use is answered, not obeyed.
func FuzzClientFrames(f *testing.F) {
	keys := Keys{Key: "k", Secret: "s"}
	for _, seed := range []string{
		`{"event":"pusher:ping","data":{}}`,
		`{"event":"pusher:subscribe","data":{"channel":"public"}}`,
		`{"event":"pusher:subscribe","data":{"channel":"private-x","auth":"k:00"}}`,
		`{"event":"pusher:subscribe","data":{"channel":"presence-x","auth":"` + keys.Sign("1.1", "presence-x", `{"user_id":1}`) + `","channel_data":"{\"user_id\":1}"}}`,
		`{"event":"pusher:subscribe","data":{"channel":"presence-x","auth":"` + keys.Sign("1.1", "presence-x", `{}`) + `","channel_data":"{}"}}`,
		`{"event":"pusher:unsubscribe","data":{"channel":"public"}}`,
		`{"event":"pusher:signin","data":{"auth":"x","user_data":"{\"id\":\"1\"}"}}`,
		`{"event":"client-x","data":"\u0000"}`,
		`{"event":"pusher:subscribe","data":"not an object"}`,
		`{"event":12}`, `[]`, `null`, "\xff\xfe",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		srv := &Server{Hub: NewHub()}
		s := &socket{id: "1.1", send: make(chan []byte, sendQueue), closed: make(chan struct{})}
		srv.Hub.add(s)
		defer srv.Hub.remove(s)
		var m message
		if json.Unmarshal(frame, &m) != nil {
			return // answered "Invalid JSON" by the reader
		}
		srv.handle(s, keys, m)
	})
}
