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
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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
	archive []byte // authenticates archives (ArchiveTag)
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
	archiveKey, err := hkdf.Key(sha256.New, raw, nil, "emr archive v1", 32)
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
	return key{id: id, created: created, raw: raw, aead: aead, mac: macKey, archive: archiveKey}, nil
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
	seen stamp // the file as it was when keys were read from it
	// signing are the signing keys derived so far, by purpose and key id: each is derived
	// once, not at every signature (a key of the file never changes under its id).
	signing sync.Map
}

// stamp is what tells a key file rewritten since it was read (a rotation renames a new file
// over it: another inode, size or time).
type stamp struct {
	mod  time.Time
	size int64
	ino  uint64
}

func stampOf(info os.FileInfo) stamp {
	return stamp{mod: info.ModTime(), size: info.Size(), ino: inode(info)}
}

// Ephemeral is a ring of one new key kept in memory only (tests).
func Ephemeral() *Ring { return &Ring{keys: []key{randomKey(time.Now())}} }

// Path is the key file's path ("" for an ephemeral ring).
func (r *Ring) Path() string { return r.path }

// Current is the id of the key that seals.
func (r *Ring) Current() string {
	r.fresh()
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.keys[0].id
}

// IDs are the ids of every key, the current one first.
func (r *Ring) IDs() []string {
	r.fresh()
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.ids()
}

// Load reads the key file at path. A file others may read is refused: the key is as
// private as the second factors it seals.
func Load(path string) (*Ring, error) {
	keys, seen, err := read(path)
	if err != nil {
		return nil, err
	}
	return &Ring{path: path, keys: keys, seen: seen}, nil
}

// fresh re-reads the key file when it was rewritten since the ring read it (`emr keys
// rotate` or `retire`, run beside the servers): every instance sharing the file seals under
// its newest key from the next seal on. A stat per use; a file that cannot be read now keeps
// the keys read before (and the server says so).
func (r *Ring) fresh() {
	if r.path == "" {
		return
	}
	info, err := os.Stat(r.path)
	if err != nil {
		return
	}
	r.mu.RLock()
	same := r.seen == stampOf(info)
	r.mu.RUnlock()
	if same {
		return
	}
	keys, seen, err := read(r.path)
	if err != nil {
		slog.Error("the secret key file changed and cannot be read; the keys read before stay in use", "file", r.path, "err", err)
		return
	}
	r.mu.Lock()
	r.keys, r.seen = keys, seen
	r.mu.Unlock()
}

func read(path string) ([]key, stamp, error) {
	keys, info, err := readKeys(path)
	if err != nil {
		return nil, stamp{}, err
	}
	return keys, stampOf(info), nil
}

func readKeys(path string) ([]key, os.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, nil, fmt.Errorf("the secret key file %s may be read by others (mode %04o): chmod 600 it", path, info.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
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
			return nil, nil, fmt.Errorf("the secret key file %s: line %d is not a key", path, n)
		}
		raw, err := base64.RawURLEncoding.DecodeString(f[2])
		if err != nil {
			return nil, nil, fmt.Errorf("the secret key file %s: line %d: %v", path, n, err)
		}
		created, _ := time.Parse(time.RFC3339, f[3])
		k, err := newKey(f[1], raw, created)
		if err != nil {
			return nil, nil, fmt.Errorf("the secret key file %s: line %d: %v", path, n, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("the secret key file %s holds no key", path)
	}
	return keys, info, nil
}

// Create makes a new key file at path (which must not exist), mode 0600, in a folder
// made 0700.
func Create(path string) (*Ring, error) {
	r := &Ring{path: path, keys: []key{randomKey(time.Now())}}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the secret key's folder: %w", err)
	}
	unlock, err := r.lock() // two first starts at once: one makes the file, the other is refused
	if err != nil {
		return nil, err
	}
	defer unlock()
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("the secret key file %s exists already", path)
	}
	return r, r.write()
}

// Rotate puts a new key first in the ring and its file (the old ones stay, to open what
// they sealed); the caller then re-seals the stored values under it.
func (r *Ring) Rotate() error {
	unlock, err := r.lock()
	if err != nil {
		return err
	}
	defer unlock()
	r.fresh() // another instance's rotation is kept, not written over
	r.mu.Lock()
	r.keys = append([]key{randomKey(time.Now())}, r.keys...)
	r.mu.Unlock()
	return r.write()
}

// lock serializes the changes to the key file (Rotate, Retire) across processes.
func (r *Ring) lock() (func(), error) {
	if r.path == "" {
		return func() {}, nil
	}
	unlock, err := lock(r.path)
	if err != nil {
		return nil, fmt.Errorf("lock the secret key file: %w", err)
	}
	return unlock, nil
}

// ErrCurrentKey is a retirement of the key that seals.
var ErrCurrentKey = errors.New("it is the key that seals now: rotate first (emr keys rotate), then retire it")

// Retire removes the key id from the ring and its file. The caller has checked that nothing
// still needs it (a sealed value, a keyed recovery code, an archive it authenticated): what
// it sealed does not open after this, and archives it authenticated are refused.
func (r *Ring) Retire(id string) error {
	unlock, err := r.lock()
	if err != nil {
		return err
	}
	defer unlock()
	r.fresh()
	r.mu.Lock()
	i := slices.IndexFunc(r.keys, func(k key) bool { return k.id == id })
	switch {
	case i < 0:
		r.mu.Unlock()
		return fmt.Errorf("the key file %s holds no key %s (it holds %v)", r.describe(), id, r.ids())
	case i == 0:
		r.mu.Unlock()
		return fmt.Errorf("key %s cannot be retired: %w", id, ErrCurrentKey)
	}
	r.keys = slices.Delete(r.keys, i, i+1)
	r.mu.Unlock()
	return r.write()
}

func (r *Ring) ids() []string {
	ids := make([]string, len(r.keys))
	for i, k := range r.keys {
		ids[i] = k.id
	}
	return ids
}

// Has reports whether the ring (or its file, read again) holds the key id.
func (r *Ring) Has(id string) bool {
	_, err := r.find(id)
	return err == nil
}

// ArchiveTag is the HMAC-SHA256, under the archive key the key id derives (its own HKDF
// label: not the sealing or hashing keys), of an archive's key id and the SHA-256 of its
// content: what authenticates the archive as one this clinic's key file made.
func (r *Ring) ArchiveTag(id string, contentSHA256 []byte) ([]byte, error) {
	k, err := r.find(id)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, k.archive)
	m.Write([]byte("emr archive v1\x00"))
	m.Write([]byte(id))
	m.Write([]byte{0})
	m.Write(contentSHA256)
	return m.Sum(nil), nil
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
	if info, err := os.Stat(r.path); err == nil {
		r.mu.Lock()
		r.seen = stampOf(info)
		r.mu.Unlock()
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
	r.fresh()
	r.mu.RLock()
	for _, k := range r.keys {
		if k.id == id {
			r.mu.RUnlock()
			return k, nil
		}
	}
	r.mu.RUnlock()
	if r.path != "" {
		if keys, seen, err := read(r.path); err == nil {
			r.mu.Lock()
			r.keys, r.seen = keys, seen
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
	r.fresh()
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

// SealedPrefix starts every value key id sealed.
func SealedPrefix(id string) string { return sealedV1 + id + ":" }

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
	r.fresh()
	r.mu.RLock()
	k := r.keys[0]
	r.mu.RUnlock()
	return macWith(k, purpose, data)
}

// MACs are data's keyed hashes under every key, to look a value up whichever key keyed it.
func (r *Ring) MACs(purpose string, data []byte) []string {
	r.fresh()
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

// SigningKey is a P-256 key derived from one key of the file, for signatures others verify
// with its public half (a SMART app checks its id_token against the published key set). It
// is the file's key under another name: a rotation adds the next one, and what the older
// keys signed still verifies while they are kept.
type SigningKey struct {
	ID  string
	Key *ecdsa.PrivateKey
}

// SigningKeys are the signing keys for purpose derived from every key of the file, the
// current one (which signs) first.
func (r *Ring) SigningKeys(purpose string) []SigningKey {
	r.fresh()
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]SigningKey, 0, len(r.keys))
	for _, k := range r.keys {
		out = append(out, SigningKey{ID: k.id, Key: r.derived(k, purpose)})
	}
	return out
}

// derived is k's signing key for purpose, derived at its first use and kept.
func (r *Ring) derived(k key, purpose string) *ecdsa.PrivateKey {
	name := purpose + "\x00" + k.id
	if d, ok := r.signing.Load(name); ok {
		return d.(*ecdsa.PrivateKey)
	}
	d, _ := r.signing.LoadOrStore(name, signingKey(k.raw, purpose))
	return d.(*ecdsa.PrivateKey)
}

// signingKey derives a P-256 private key from raw for purpose: HKDF output taken as the
// scalar, the next counter's when it falls outside the group's order (about once in 2^32).
func signingKey(raw []byte, purpose string) *ecdsa.PrivateKey {
	for i := 0; ; i++ {
		scalar, err := hkdf.Key(sha256.New, raw, nil, fmt.Sprintf("emr signing v1 %s %d", purpose, i), 32)
		if err != nil {
			panic(err) // 32 bytes of SHA-256 HKDF never fail
		}
		if k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), scalar); err == nil {
			return k
		}
	}
}
