package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"emr/internal/database"
)

// notifyChannel is the PostgreSQL notification channel events travel on between instances.
const notifyChannel = "emr_push"

// envelope is an event on its way to every instance.
type envelope struct {
	Channel string          `json:"c"`
	Event   string          `json:"e"`
	Data    json.RawMessage `json:"d"`
	Except  string          `json:"x,omitempty"`
}

// Fanout carries events between the instances sharing one PostgreSQL database: Publish sends
// a NOTIFY; every instance (this one included) LISTENs and delivers to its own sockets. On
// SQLite there is one instance and events go straight to the hub.
type Fanout struct {
	Hub  *Hub
	DB   *database.DB
	Keys *KeyStore

	once  sync.Once
	ready chan struct{}
}

// Ready is closed once this instance hears what the others publish (at once on SQLite).
func (f *Fanout) Ready() <-chan struct{} {
	f.once.Do(func() { f.ready = make(chan struct{}) })
	return f.ready
}

func (f *Fanout) markReady() {
	ready := f.Ready()
	select {
	case <-ready:
	default:
		close(f.ready)
	}
}

// Publish sends an event to channel's subscribers on every instance, except the socket
// except (the sender's own).
func (f *Fanout) Publish(channel, event string, data any, except string) error {
	if f.DB == nil || f.DB.Engine != database.Postgres {
		return f.Hub.Publish(channel, event, data, except)
	}
	d, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("push %s: %w", event, err)
	}
	payload, _ := json.Marshal(envelope{Channel: channel, Event: event, Data: d, Except: except})
	if len(payload) > 7900 { // NOTIFY's payload limit is 8000 bytes
		return fmt.Errorf("push %s: %d bytes is too large to send between instances", event, len(payload))
	}
	if _, err := f.DB.ExecContext(context.Background(), `SELECT pg_notify($1, $2)`, notifyChannel, string(payload)); err != nil {
		return fmt.Errorf("push %s: %w", event, err)
	}
	return nil
}

// ClientSettings name the installation's key; the web app connects to its own origin.
func (f *Fanout) ClientSettings(ctx context.Context) (ClientSettings, error) {
	k, err := f.Keys.Get(ctx)
	return ClientSettings{Key: k.Key}, err
}

// Run delivers the events every instance publishes to this instance's sockets until ctx
// ends, reconnecting after a lost connection. It returns at once on SQLite.
func (f *Fanout) Run(ctx context.Context) {
	if f.DB == nil || f.DB.Engine != database.Postgres {
		f.markReady()
		return
	}
	for ctx.Err() == nil {
		if err := f.listen(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("push fan-out: listening again after an error", "error", err)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
		}
	}
}

func (f *Fanout) listen(ctx context.Context) error {
	conn, err := f.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `LISTEN `+notifyChannel); err != nil {
		return err
	}
	f.markReady()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return errors.New("not a pgx connection")
		}
		for {
			n, err := c.Conn().WaitForNotification(ctx)
			if err != nil {
				return err
			}
			var e envelope
			if json.Unmarshal([]byte(n.Payload), &e) != nil {
				continue
			}
			_ = f.Hub.publishRaw(e.Channel, e.Event, e.Data, e.Except)
		}
	})
}
