package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/coder/websocket"

	"emr/internal/apitest"
	"emr/internal/database/dbtest"
	"emr/internal/push"
	"emr/internal/user"
)

// TestMain lets a test start this binary as the emr command itself (a real server process).
func TestMain(m *testing.M) {
	if os.Getenv("EMR_TEST_AS_EMR") == "1" {
		main()
		return
	}
	// Every command and server of this run shares one secret key file, as a clinic's
	// instances do (a restored database is served with the key of the one it came from).
	dir, err := os.MkdirTemp("", "emr-keys-")
	if err != nil {
		panic(err)
	}
	os.Setenv("EMR_SECRET_KEY_FILE", filepath.Join(dir, "emr.key"))
	testKey = newTestKey(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testKey is the age key pair this run's backups are encrypted to.
var testKey ageKey

type ageKey struct {
	recipient, identity string // the public key, and the file holding the private one
	ids                 []age.Identity
}

func newTestKey(dir string) ageKey {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		panic(err)
	}
	file := filepath.Join(dir, "backup-identity.txt")
	if err := os.WriteFile(file, []byte("# the clinic's backup identity\n"+id.String()+"\n"), 0o600); err != nil {
		panic(err)
	}
	return ageKey{recipient: id.Recipient().String(), identity: file, ids: []age.Identity{id}}
}

// serveProcess starts `emr serve` in its own process on url and returns its base URL.
func serveProcess(t *testing.T, url string) string {
	t.Helper()
	base, _ := serveProcessCmd(t, url)
	return base
}

// serveProcessCmd is serveProcess, also returning the process (to kill it).
func serveProcessCmd(t *testing.T, url string) (string, *exec.Cmd) {
	t.Helper()
	said, cmd := serveProcessSays(t, url, []string{"EMR is running at "})
	return said["EMR is running at "], cmd
}

// serveProcessSays starts `emr serve` on url with the extra flags, and returns the first
// word after each of the prefixes it waits for in what the process prints (an address).
func serveProcessSays(t *testing.T, url string, prefixes []string, extra ...string) (map[string]string, *exec.Cmd) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"serve", "--database-url", url, "--addr", "127.0.0.1:0"}, extra...)...)
	cmd.Env = append(os.Environ(), "EMR_TEST_AS_EMR=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	said := make(chan map[string]string, 1)
	go func() {
		got := map[string]string{}
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			for _, p := range prefixes {
				if rest, ok := strings.CutPrefix(lines.Text(), p); ok {
					got[p] = strings.Fields(rest)[0]
				}
			}
			if len(got) == len(prefixes) {
				said <- got
				got = map[string]string{}
			}
		}
	}()
	select {
	case s := <-said:
		return s, cmd
	case <-time.After(60 * time.Second):
		t.Fatal("emr serve did not start")
		return nil, nil
	}
}

// TestTwoServeProcessesShareEvents: two `emr serve` processes on one PostgreSQL database; a
// patient saved through one reaches a socket connected to the other, and not the sender's
// own socket.
func TestTwoServeProcessesShareEvents(t *testing.T) {
	url := dbtest.PostgresURL(t)
	db := dbtest.Open(t, url) // migrated before either process starts
	const password = "two instances, one database"
	if _, err := (&user.Store{DB: db}).Create(context.Background(), user.NewUser{Username: "rec", Name: "Rec", Roles: []string{"receptionist"}, Password: password}); err != nil {
		t.Fatal(err)
	}
	a := serveProcess(t, url)
	b := serveProcess(t, url)

	rec := apitest.Remote(t, a)
	if r := rec.Login("rec", password); r.Status != http.StatusOK {
		t.Fatalf("login: %d %s", r.Status, r.Body)
	}
	var cfg struct{ Push struct{ Key string } }
	rec.Do("GET", "/api/config", nil).JSON(t, &cfg)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// One socket on each process, both subscribed to the patients channel.
	type socket struct {
		id     string
		frames chan string
	}
	connect := func(base string) socket {
		c, err := rec.DialPush(ctx, base, cfg.Push.Key)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.CloseNow() })
		var m struct{ Event, Data string }
		_, first, err := c.Read(ctx)
		if err != nil || json.Unmarshal(first, &m) != nil {
			t.Fatalf("connect to %s: %s %v", base, first, err)
		}
		var established struct {
			SocketID string `json:"socket_id"`
		}
		_ = json.Unmarshal([]byte(m.Data), &established)
		var signed struct{ Auth string }
		rec.Do("POST", "/api/broadcasting/auth", map[string]string{"socket_id": established.SocketID, "channel_name": push.PatientsChannel}).JSON(t, &signed)
		sub, _ := json.Marshal(map[string]any{"event": "pusher:subscribe", "data": map[string]string{"channel": push.PatientsChannel, "auth": signed.Auth}})
		if err := c.Write(ctx, websocket.MessageText, sub); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := c.Read(ctx); err != nil || !strings.Contains(string(ok), "subscription_succeeded") {
			t.Fatalf("subscribe on %s: %s %v", base, ok, err)
		}
		s := socket{id: established.SocketID, frames: make(chan string, 64)}
		go func() {
			for {
				_, f, err := c.Read(ctx)
				if err != nil {
					return
				}
				s.frames <- string(f)
			}
		}()
		return s
	}
	onA, onB := connect(a), connect(b)

	// Save patients through process A as the socket on A (its own echo is left out) until
	// process B's socket hears one: B's listener may still be starting.
	rec.Header.Set("X-Socket-ID", onA.id)
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	// Each a patient of her own (a second "An Two" born the same day is a possible duplicate).
	for heard, n := false, 0; !heard; {
		select {
		case f := <-onB.frames:
			heard = strings.Contains(f, "App.Events.PatientChanged")
		case <-tick.C:
			born := time.Date(1990, 1, 2+n, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
			n++
			if r := rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Two", "sex": "female", "birth_date": born}); r.Status != http.StatusCreated {
				t.Fatalf("create patient on A: %d %s", r.Status, r.Body)
			}
		case <-ctx.Done():
			t.Fatal("process B's socket never heard a patient saved through process A")
		}
	}
	select {
	case f := <-onA.frames:
		if strings.Contains(f, "App.Events.PatientChanged") {
			t.Errorf("the sender's own socket heard its own change: %s", f)
		}
	case <-time.After(500 * time.Millisecond):
	}
}

// TestTermSendsSocketsToReconnect: SIGTERM stops the server gracefully: a push socket is
// closed with the protocol's "reconnect now" code (to find another instance), and the
// process exits without an error.
func TestTermSendsSocketsToReconnect(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "emr.db")
	db := dbtest.Open(t, url)
	const password = "a graceful stop, please"
	if _, err := (&user.Store{DB: db}).Create(context.Background(), user.NewUser{Username: "rec", Name: "Rec", Roles: []string{"receptionist"}, Password: password}); err != nil {
		t.Fatal(err)
	}
	base, cmd := serveProcessCmd(t, url)
	rec := apitest.Remote(t, base)
	if r := rec.Do("GET", "/api/ready", nil); r.Status != http.StatusOK {
		t.Fatalf("ready: %d %s", r.Status, r.Body)
	}
	if r := rec.Login("rec", password); r.Status != http.StatusOK {
		t.Fatalf("login: %d %s", r.Status, r.Body)
	}
	var cfg struct{ Push struct{ Key string } }
	rec.Do("GET", "/api/config", nil).JSON(t, &cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := rec.DialPush(ctx, base, cfg.Push.Key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, first, err := c.Read(ctx); err != nil || !strings.Contains(string(first), "connection_established") {
		t.Fatalf("connect: %s %v", first, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != 4200 {
		t.Errorf("the socket at SIGTERM: %v, want close 4200", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("emr serve did not stop")
	}
}
