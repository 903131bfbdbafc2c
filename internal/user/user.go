// Package user owns staff accounts end to end: the users, user_roles and emergency_grants
// tables (its store is their only writer), login, logout and "who am I", and the
// administration of accounts and emergency access.
package user

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
)

// User is a staff account.
type User struct {
	ID           int64    `json:"id"`
	Username     string   `json:"username"`
	Name         string   `json:"name"`
	Email        string   `json:"email"`
	Avatar       string   `json:"avatar"`
	Introduction string   `json:"introduction"`
	Roles        []string `json:"roles"`
	Active       bool     `json:"active"`
	// MustChangePassword is set by an administrator's password reset.
	MustChangePassword bool      `json:"must_change_password"`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
	Version            int       `json:"version"`
}

// NewUser is what creating an account needs.
type NewUser struct {
	Username string   `json:"username"`
	Name     string   `json:"name"`
	Email    string   `json:"email"`
	Roles    []string `json:"roles"`
	Password string   `json:"password"`
	// Audit, when set, records the creation in the same transaction (an administrator's
	// action; the command line and demo seeding leave it nil).
	Audit *audit.Event `json:"-"`
	// Personal are further words the password may not contain (the clinic's name), besides
	// the account's own username, name and e-mail.
	Personal []string `json:"-"`
}

// NormalizeUsername is how usernames are stored and compared: trimmed and lower-case.
func NormalizeUsername(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Change is what an administrator's edit of an account sends.
type Change struct {
	Name    string   `json:"name"`
	Email   string   `json:"email"`
	Roles   []string `json:"roles"`
	Active  bool     `json:"active"`
	Version int      `json:"version"`
}

// ListQuery filters the accounts list: words of the username or name, and the active ones,
// the inactive ones or all.
type ListQuery struct {
	Q             string
	Status        string // "", "active", "inactive"
	Page, PerPage int
}

// changes says what an edit changed, for the audit log (never a password).
func changes(a, b User) string {
	var out []string
	if a.Name != b.Name {
		out = append(out, "name")
	}
	if a.Email != b.Email {
		out = append(out, "email")
	}
	if !slices.Equal(a.Roles, b.Roles) {
		out = append(out, "roles "+strings.Join(a.Roles, ",")+" -> "+strings.Join(b.Roles, ","))
	}
	if a.Active != b.Active {
		out = append(out, "active "+strconv.FormatBool(b.Active))
	}
	return strings.Join(out, "; ")
}

// checkNameAndRoles checks what creating and changing an account share: a name of at most 200
// characters, and at least one role.
func checkNameAndRoles(v *apperr.Validation, name string, roles []string) {
	switch {
	case name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(name) > 200:
		v.Add("name", "validation.too_long")
	}
	if len(roles) == 0 {
		v.Add("roles", "user.roles_required")
	}
}
