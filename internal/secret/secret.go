// Package secret seals the few secrets the database must hold but must not reveal (TOTP
// secrets, the push signing secret) and keys the hashes of recovery codes, under keys kept
// outside the database in a key file (ADR 26). A database dump alone then yields no working
// second factor and no signing secret.
//
// Values are sealed with AES-256-GCM under a key derived from the file's current key, bound
// to what they are (their purpose: "totp:17" cannot be moved to another user's row). The
// file keeps earlier keys after a rotation: they open what they sealed and check the
// recovery codes they keyed; they seal nothing new.
package secret

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// A key file is lines of "emr-key-v1 ID KEY CREATED", the current key first; lines starting
// with # are comments.
const (
	keyLine  = "emr-key-v1"
	sealedV1 = "emr:sealed:v1:"
)

// ErrUnknownKey is a value sealed (or a hash keyed) by a key the key file does not hold.
var ErrUnknownKey = errors.New("sealed with a key the key file does not hold")

// ErrDamaged is a sealed value that does not open: changed, moved to another row, or not
// sealed by us.
var ErrDamaged = errors.New("a sealed value does not open: it was changed or moved")

type key struct {
	id      string
	created time.Time
	raw     []byte
	aead    cipher.AEAD
	mac     []byte
}

func newKey(id string, raw []byte, created time.Time) (key, error) {
	if len(raw) != 32 {
		return key{}, fmt.Errorf("key %s is %d bytes, not 32", id, len(raw))
	}
	sealKey, err := hkdf.Key(sha256.New, raw, nil, "emr seal v1", 32)
	if err != nil {
		return key{}, err
	}
	macKey, err := hkdf.Key(sha256.New, raw, nil, "emr mac v1", 32)
	if err != nil {
		return key{}, err
	}
	block, err := aes.NewCipher(sealKey)
	if err != nil {
		return key{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return key{}, err
	}
	return key{id: id, created: created, raw: raw, aead: aead, mac: macKey}, nil
}

func randomKey(now time.Time) key {
	raw, id := make([]byte, 32), make([]byte, 4)
	_, _ = rand.Read(raw)
	_, _ = rand.Read(id)
	k, _ := newKey(hex.EncodeToString(id), raw, now.UTC().Truncate(time.Second))
	return k
}

// Ring is the keys of one key file, the current one first.
type Ring struct {
	path string // "" for an ephemeral ring
	mu   sync.RWMutex
	keys []key
}

// Ephemeral is a ring of one new key kept in memory only (tests).
func Ephemeral() *Ring { return &Ring{keys: []key{randomKey(time.Now())}} }

// Path is the key file's path ("" for an ephemeral ring).
func (r *Ring) Path() string { return r.path }

// Current is the id of the key that seals.
func (r *Ring) Current() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.keys[0].id
}

// IDs are the ids of every key, the current one first.
func (r *Ring) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, len(r.keys))
	for i, k := range r.keys {
		ids[i] = k.id
	}
	return ids
}

// Load reads the key file at path. A file others may read is refused: the key is as
// private as the second factors it seals.
func Load(path string) (*Ring, error) {
	keys, err := read(path)
	if err != nil {
		return nil, err
	}
	return &Ring{path: path, keys: keys}, nil
}

func read(path string) ([]key, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the secret key file %s may be read by others (mode %04o): chmod 600 it", path, info.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keys []key
	lines := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; lines.Scan(); n++ {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != keyLine {
			return nil, fmt.Errorf("the secret key file %s: line %d is not a key", path, n)
		}
		raw, err := base64.RawURLEncoding.DecodeString(f[2])
		if err != nil {
			return nil, fmt.Errorf("the secret key file %s: line %d: %v", path, n, err)
		}
		created, _ := time.Parse(time.RFC3339, f[3])
		k, err := newKey(f[1], raw, created)
		if err != nil {
			return nil, fmt.Errorf("the secret key file %s: line %d: %v", path, n, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("the secret key file %s holds no key", path)
	}
	return keys, nil
}

// Create makes a new key file at path (which must not exist), mode 0600, in a folder
// made 0700.
func Create(path string) (*Ring, error) {
	r := &Ring{path: path, keys: []key{randomKey(time.Now())}}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the secret key's folder: %w", err)
	}
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("the secret key file %s exists already", path)
	}
	return r, r.write()
}

// Rotate puts a new key first in the ring and its file (the old ones stay, to open what
// they sealed); the caller then re-seals the stored values under it.
func (r *Ring) Rotate() error {
	r.mu.Lock()
	r.keys = append([]key{randomKey(time.Now())}, r.keys...)
	r.mu.Unlock()
	return r.write()
}

// write replaces the key file with the ring, durably (a new file, synced, renamed).
func (r *Ring) write() error {
	if r.path == "" {
		return nil
	}
	r.mu.RLock()
	var b strings.Builder
	b.WriteString("# EMR secret key file. Keep it private (mode 0600), and keep a copy with the backup identity,\n")
	b.WriteString("# away from this server: without it, restored second factors and push keys do not open.\n")
	b.WriteString("# The first key seals; the others open only what they sealed before a rotation.\n")
	for _, k := range r.keys {
		fmt.Fprintf(&b, "%s %s %s %s\n", keyLine, k.id, base64.RawURLEncoding.EncodeToString(k.raw), k.created.Format(time.RFC3339))
	}
	r.mu.RUnlock()
	tmp := r.path + ".new"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("write the secret key file: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("write the secret key file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, r.path); err != nil {
		return fmt.Errorf("write the secret key file: %w", err)
	}
	if dir, err := os.Open(filepath.Dir(r.path)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

// find returns the key by id, re-reading the file once when the ring lacks it (another
// instance, or `emr keys rotate`, may have added it since this one started).
func (r *Ring) find(id string) (key, error) {
	r.mu.RLock()
	for _, k := range r.keys {
		if k.id == id {
			r.mu.RUnlock()
			return k, nil
		}
	}
	r.mu.RUnlock()
	if r.path != "" {
		if keys, err := read(r.path); err == nil {
			r.mu.Lock()
			r.keys = keys
			r.mu.Unlock()
			for _, k := range keys {
				if k.id == id {
					return k, nil
				}
			}
		}
	}
	return key{}, fmt.Errorf("%w (key %s; the file is %s)", ErrUnknownKey, id, r.describe())
}

func (r *Ring) describe() string {
	if r.path == "" {
		return "kept in memory"
	}
	return r.path
}

// Seal encrypts plain under the current key, bound to purpose.
func (r *Ring) Seal(purpose string, plain []byte) string {
	r.mu.RLock()
	k := r.keys[0]
	r.mu.RUnlock()
	nonce := make([]byte, k.aead.NonceSize())
	_, _ = rand.Read(nonce)
	out := k.aead.Seal(nonce, nonce, plain, []byte(purpose))
	return sealedV1 + k.id + ":" + base64.RawStdEncoding.EncodeToString(out)
}

// IsSealed reports whether s is a sealed value (not a plain one stored before sealing).
func IsSealed(s string) bool { return strings.HasPrefix(s, sealedV1) }

// SealedBy is the id of the key that sealed s ("" when s is not sealed).
func SealedBy(s string) string {
	rest, ok := strings.CutPrefix(s, sealedV1)
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ":")
	return id
}

// Open decrypts a value sealed for purpose.
func (r *Ring) Open(purpose, sealed string) ([]byte, error) {
	rest, ok := strings.CutPrefix(sealed, sealedV1)
	if !ok {
		return nil, ErrDamaged
	}
	id, body, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, ErrDamaged
	}
	k, err := r.find(id)
	if err != nil {
		return nil, err
	}
	b, err := base64.RawStdEncoding.DecodeString(body)
	if err != nil || len(b) < k.aead.NonceSize() {
		return nil, ErrDamaged
	}
	plain, err := k.aead.Open(nil, b[:k.aead.NonceSize()], b[k.aead.NonceSize():], []byte(purpose))
	if err != nil {
		return nil, ErrDamaged
	}
	return plain, nil
}

// Reseal re-seals s under the current key when another key sealed it, or seals it when it
// is plain; it reports whether it changed anything.
func (r *Ring) Reseal(purpose, s string) (string, bool, error) {
	if IsSealed(s) {
		if SealedBy(s) == r.Current() {
			return s, false, nil
		}
		plain, err := r.Open(purpose, s)
		if err != nil {
			return s, false, err
		}
		return r.Seal(purpose, plain), true, nil
	}
	return r.Seal(purpose, []byte(s)), true, nil
}

// MAC is the keyed hash of data for purpose under the current key, as "ID:HEX".
func (r *Ring) MAC(purpose string, data []byte) string {
	r.mu.RLock()
	k := r.keys[0]
	r.mu.RUnlock()
	return macWith(k, purpose, data)
}

// MACs are data's keyed hashes under every key, to look a value up whichever key keyed it.
func (r *Ring) MACs(purpose string, data []byte) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, len(r.keys))
	for i, k := range r.keys {
		out[i] = macWith(k, purpose, data)
	}
	return out
}

func macWith(k key, purpose string, data []byte) string {
	m := hmac.New(sha256.New, k.mac)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(data)
	return k.id + ":" + hex.EncodeToString(m.Sum(nil))
}
