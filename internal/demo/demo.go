// Package demo fills an empty database with demo staff, so a newcomer can log in at once.
package demo

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"

	"emr/internal/user"
)

// Credential is a created demo account and its generated password.
type Credential struct {
	Username, Role, Password string
}

// staff is one account per seeded role.
var staff = []struct{ username, name, role string }{
	{"admin", "Clinic Administrator", "admin"},
	{"doctor", "Dr. Demo Doctor", "doctor"},
	{"nurse", "Demo Nurse", "nurse"},
	{"receptionist", "Demo Receptionist", "receptionist"},
}

// Staff creates the demo accounts with random passwords, only when there are no accounts
// yet; it returns the credentials to print once (nil when it did nothing).
func Staff(ctx context.Context, users *user.Store) ([]Credential, error) {
	n, err := users.Count(ctx)
	if err != nil || n > 0 {
		return nil, err
	}
	var out []Credential
	for _, s := range staff {
		pw := Password()
		if _, err := users.Create(ctx, user.NewUser{Username: s.username, Name: s.name, Roles: []string{s.role}, Password: pw}); err != nil {
			return nil, fmt.Errorf("create demo %s: %w", s.role, err)
		}
		out = append(out, Credential{Username: s.username, Role: s.role, Password: pw})
	}
	return out, nil
}

// Password returns a random 16-character password without look-alike characters.
func Password() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			panic(err)
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b)
}
