// Package demo fills an empty database with demo staff, so a newcomer can log in at once.
package demo

import (
	"context"
	"fmt"
	"time"

	"emr/internal/auth"
	"emr/internal/database"
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
	return out, prescriber(ctx, users.DB)
}

// prescriber gives the demo doctor what a printed prescription shows (a specialisation and
// a licence; the signature is theirs to draw) and the clinic a name, address and phone.
func prescriber(ctx context.Context, db *database.DB) error {
	until := time.Now().AddDate(3, 0, 0).Format(time.DateOnly)
	if _, err := db.ExecContext(ctx, `UPDATE users SET specialisations = $1, licences = $2 WHERE username = 'doctor'`,
		`["Family medicine"]`, `[{"number":"DEMO-0001","issuer":"Demo Medical Council","valid_from":"","valid_until":"`+until+`"}]`); err != nil {
		return fmt.Errorf("demo doctor's profile: %w", err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, version) VALUES ('clinic', $1, $2, 1) ON CONFLICT (key) DO NOTHING`,
		`{"name":"EMR Demo Clinic","address":"1 Example Street","phone":"+1 555 0100"}`, time.Now().UTC()); err != nil {
		return fmt.Errorf("demo clinic: %w", err)
	}
	return nil
}

// Password returns a random 16-character password without look-alike characters.
func Password() string { return auth.NewPassword() }
