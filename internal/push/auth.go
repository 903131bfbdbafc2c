package push

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/secret"
)

// Channels the web app subscribes to, and who may. A user's own channel carries what
// concerns them alone (their roles changed, their session ended).
const (
	AppointmentsChannel = "private-appointments"
	PatientsChannel     = "private-patients"
	UsersChannel        = "private-users"
	// ResultsChannel tells who reviews results that an order, a result or an alert changed.
	ResultsChannel = "private-results"
	// BillsChannel tells who charges, takes payments, counts a drawer or reads the fee
	// reports that a bill, a payment or a drawer changed.
	BillsChannel = "private-bills"
	// DocumentsChannel tells who reads patients' records that a document was issued or
	// cancelled, or a template changed.
	DocumentsChannel = "private-documents"
	// RolesChannel tells every logged-in user that role permissions changed.
	RolesChannel      = "private-roles"
	userChannelPrefix = "private-App.Models.User."
	// editingPrefix + a patient id is the presence channel of that patient's edit form: who
	// else has it open.
	editingPrefix = "presence-patient-edit."
)

var patientIDPattern = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)

// UserChannel is the private channel of one user.
func UserChannel(id int64) string { return userChannelPrefix + strconv.FormatInt(id, 10) }

// channelAccess names, for each shared channel, the permissions of which one admits: those
// that read what the channel announces.
var channelAccess = map[string][]auth.Permission{
	AppointmentsChannel: {auth.ViewAppointment},
	PatientsChannel:     {auth.ViewPatient},
	UsersChannel:        {auth.ManageUser},
	ResultsChannel:      {auth.ReviewResults, auth.AcknowledgeCritical},
	BillsChannel:        {auth.RecordCharges, auth.RecordPayment, auth.ViewFinancial, auth.CashUpOwn},
	DocumentsChannel:    {auth.ViewPatient},
}

// mayJoin reports whether p may subscribe to channel.
func mayJoin(p *auth.Principal, channel string) bool {
	if rest, ok := strings.CutPrefix(channel, userChannelPrefix); ok {
		return rest == strconv.FormatInt(p.UserID, 10)
	}
	if channel == RolesChannel {
		return true
	}
	if id, ok := strings.CutPrefix(channel, editingPrefix); ok {
		return patientIDPattern.MatchString(id) && p.Can(auth.ManagePatient)
	}
	return slices.ContainsFunc(channelAccess[channel], p.Can)
}

var socketIDPattern = regexp.MustCompile(`^\d{1,12}\.\d{1,12}$`)

// Handler serves the authorisation calls of spec §7.
type Handler struct {
	Keys *KeyStore
}

// Routes is the push channel's route table.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "POST", Path: "/api/broadcasting/auth", Access: auth.LoggedIn, Handler: h.authorize},
		{Method: "POST", Path: "/api/broadcasting/user-auth", Access: auth.LoggedIn, Handler: h.signIn},
	}
}

// readForm reads socket_id and channel_name from a form (what pusher-js sends) or JSON body.
func readForm(w http.ResponseWriter, r *http.Request) (socketID, channel string, err error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		var body struct {
			SocketID    string `json:"socket_id"`
			ChannelName string `json:"channel_name"`
		}
		if err := httpjson.Decode(w, r, &body); err != nil {
			return "", "", err
		}
		socketID, channel = body.SocketID, body.ChannelName
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		if err := r.ParseForm(); err != nil {
			return "", "", apperr.Invalid("error.bad_json")
		}
		socketID, channel = r.PostForm.Get("socket_id"), r.PostForm.Get("channel_name")
	}
	var v apperr.Validation
	if !socketIDPattern.MatchString(socketID) {
		v.Add("socket_id", "validation.query")
	}
	return socketID, channel, v.Err()
}

// read reads a signing request and the keys to sign it with.
func (h *Handler) read(w http.ResponseWriter, r *http.Request) (socketID, channel string, keys Keys, err error) {
	socketID, channel, err = readForm(w, r)
	if err != nil {
		return socketID, channel, Keys{}, err
	}
	keys, err = h.Keys.Get(r.Context())
	return socketID, channel, keys, err
}

func (h *Handler) authorize(w http.ResponseWriter, r *http.Request) {
	socketID, channel, keys, err := h.read(w, r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !mayJoin(auth.PrincipalFrom(r.Context()), channel) {
		httpjson.Error(w, r, apperr.Forbidden("push.channel_forbidden"))
		return
	}
	if strings.HasPrefix(channel, "presence-") {
		// Who the user is on the channel comes from the session, never from the client.
		p := auth.PrincipalFrom(r.Context())
		member, _ := json.Marshal(map[string]any{"user_id": strconv.FormatInt(p.UserID, 10), "user_info": map[string]string{"name": p.Name}})
		httpjson.Respond(w, http.StatusOK, map[string]string{"auth": keys.Sign(socketID, channel, string(member)), "channel_data": string(member)})
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]string{"auth": keys.Sign(socketID, channel)})
}

func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	socketID, _, keys, err := h.read(w, r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p := auth.PrincipalFrom(r.Context())
	data, _ := json.Marshal(map[string]any{"id": strconv.FormatInt(p.UserID, 10), "user_info": map[string]string{"name": p.Name}})
	httpjson.Respond(w, http.StatusOK, map[string]string{"auth": keys.Sign(socketID, "user", string(data)), "user_data": string(data)})
}

// Settings keeps values every instance shares; the clinic's settings store is one.
type Settings interface {
	// Once stores value under key unless one is there already, and returns the stored one.
	Once(ctx context.Context, key, value string) (string, error)
}

// KeyStore loads the installation's keys once, on first use; they are stored sealed under
// Secrets (ADR 26).
type KeyStore struct {
	Settings Settings
	Secrets  *secret.Ring
	mu       sync.Mutex
	keys     *Keys
}

// StaticKeys is a store that always has k (tests, a configured provider).
func StaticKeys(k Keys) *KeyStore { return &KeyStore{keys: &k} }

// Get returns the keys, loading or creating them the first time.
func (ks *KeyStore) Get(ctx context.Context) (Keys, error) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if ks.keys == nil {
		k, err := LoadKeys(ctx, ks.Settings, ks.Secrets)
		if err != nil {
			return Keys{}, err
		}
		ks.keys = &k
	}
	return *ks.keys, nil
}

// KeysSetting is the setting the push keys are stored under, sealed.
const KeysSetting = "push:keys"

// LoadKeys returns the installation's push keys, creating them on the first start. They
// live in the database, sealed under ring, so that every instance signs and checks with the
// same secret and a dump of the database does not reveal it.
func LoadKeys(ctx context.Context, settings Settings, ring *secret.Ring) (Keys, error) {
	fresh, _ := json.Marshal(Keys{Key: randomHex(10), Secret: randomHex(32)})
	stored, err := settings.Once(ctx, KeysSetting, ring.Seal(KeysSetting, fresh))
	if err != nil {
		return Keys{}, fmt.Errorf("load push keys: %w", err)
	}
	plain := []byte(stored)
	if secret.IsSealed(stored) {
		if plain, err = ring.Open(KeysSetting, stored); err != nil {
			return Keys{}, fmt.Errorf("load push keys: %w", err)
		}
	}
	var k Keys
	if err := json.Unmarshal(plain, &k); err != nil || k.Key == "" || k.Secret == "" {
		return Keys{}, fmt.Errorf("load push keys: the stored keys are damaged")
	}
	return k, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
