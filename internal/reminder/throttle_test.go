package reminder

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// signed makes a token with a good MAC for link id (no row: the throttle comes before any read).
func signed(ring *secret.Ring, id int64) string {
	payload := strconv.FormatInt(id, 10) + "." + strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10) + "." + ForAppointment
	key, sum, _ := strings.Cut(ring.MAC(macPurpose, []byte(payload)), ":")
	return payload + "." + key + "." + sum[:32]
}

// TestLinkThrottle: one network flooding the link page is refused alone, its refused calls
// spending nobody else's budget; one link is limited whatever the address; the refusal says
// what happened, not "failed login attempts".
func TestLinkThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ring := secret.Ephemeral()
		h := &Handler{Service: &Service{DB: db, Ring: ring}, Throttle: &auth.Throttle{DB: db, Window: ThrottleWindow}}
		call := func(token, addr string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", "/api/m/"+token, nil)
			r.SetPathValue("token", token)
			r.RemoteAddr = addr + ":40000"
			w := httptest.NewRecorder()
			if h.allow(w, r) {
				w.WriteHeader(http.StatusOK)
			}
			return w
		}
		next := int64(0)
		fresh := func() string { next++; return signed(ring, next) }
		for i := 0; i < LinkLimit; i++ {
			if w := call(fresh(), "203.0.113.5"); w.Code != http.StatusOK {
				t.Fatalf("call %d: %d", i, w.Code)
			}
		}
		for i := 0; i < 3*LinkLimit; i++ {
			w := call(fresh(), "203.0.113.5")
			if w.Code != http.StatusTooManyRequests {
				t.Fatalf("over the limit: %d", w.Code)
			}
			if i == 0 && (strings.Contains(w.Body.String(), "login") || !strings.Contains(w.Body.String(), "message links")) {
				t.Fatalf("refusal: %s", w.Body)
			}
		}
		if w := call(fresh(), "198.51.100.7"); w.Code != http.StatusOK {
			t.Fatalf("another network: %d %s", w.Code, w.Body)
		}
		// One link from many addresses: limited on its own.
		token := fresh()
		for i := 0; i < LinkTokenLimit; i++ {
			if w := call(token, "192.0.2."+strconv.Itoa(i+1)); w.Code != http.StatusOK {
				t.Fatalf("token call %d: %d", i, w.Code)
			}
		}
		if w := call(token, "192.0.2.200"); w.Code != http.StatusTooManyRequests {
			t.Fatalf("one link hammered from many addresses: %d", w.Code)
		}
	})
}
