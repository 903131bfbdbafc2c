package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters (OWASP's minimum recommendation: 19 MiB, 2 passes, 1 lane).
const (
	argonThreads = 1
	argonKeyLen  = 32
)

// argonMemory (KiB) and argonTime are what new hashes take; a hash keeps its own parameters,
// so CheckPassword reads them from it.
var argonMemory, argonTime = atomicUint32(19 * 1024), atomicUint32(2)

func atomicUint32(v uint32) *atomic.Uint32 {
	var a atomic.Uint32
	a.Store(v)
	return &a
}

// CheapHashingForTests makes new password hashes cheap (argon2id with 64 KiB and one pass) for
// the rest of the process: for test servers that make and check hundreds of passwords on a
// two-core machine, where the real cost is most of a test's time. The product never calls it
// (archtest holds that only test code does).
func CheapHashingForTests() {
	argonMemory.Store(64)
	argonTime.Store(1)
}

// MinPasswordLength is the shortest password the product accepts.
const MinPasswordLength = 12

// HashPassword returns the argon2id hash of password in the PHC string format.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	memory, passes := argonMemory.Load(), argonTime.Load()
	key := argon2.IDKey([]byte(password), salt, passes, memory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, memory, passes, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches the PHC-format hash.
func CheckPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("unsupported password hash")
	}
	var version int
	var memory, iterations uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errors.New("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &iterations, &threads); err != nil {
		return false, fmt.Errorf("argon2 parameters: %w", err)
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, err
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, iterations, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when a username does not exist, so that a wrong username
// takes as long to refuse as a wrong password: made at first use, at the cost hashes then take.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("no such user: timing equaliser")
	if err != nil {
		panic(err)
	}
	return h
})

// CheckPasswordOrDummy checks password against hash, or against a dummy hash when the user
// was not found (hash == ""), and is false then.
func CheckPasswordOrDummy(hash, password string) bool {
	if hash == "" {
		_, _ = CheckPassword(dummyHash(), password)
		return false
	}
	ok, err := CheckPassword(hash, password)
	return err == nil && ok
}

// NewPassword returns a random 16-character password without look-alike characters (demo
// accounts, an administrator's temporary password).
func NewPassword() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	for {
		b := make([]byte, 16)
		for i := range b {
			n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
			if err != nil {
				panic(err) // the system's random source never fails on supported platforms
			}
			b[i] = alphabet[n.Int64()]
		}
		// About one in 2,500 holds the product's name ("eMr"), which the policy refuses.
		if pw := string(b); PasswordProblem(pw) == "" {
			return pw
		}
	}
}
