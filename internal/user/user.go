// Package user keeps staff accounts: username, name, password hash, roles.
package user

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
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

// Store reads and writes accounts.
type Store struct{ DB *database.DB }

// Credentials returns the id, password hash and active flag of a username; NotFound when
// there is no such account.
func (s *Store) Credentials(ctx context.Context, username string) (id int64, hash string, active bool, err error) {
	err = s.DB.QueryRowContext(ctx, `SELECT id, password_hash, active FROM users WHERE username = $1`,
		NormalizeUsername(username)).Scan(&id, &hash, &active)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, apperr.NotFound("error.not_found")
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("read credentials: %w", err)
	}
	return id, hash, active, nil
}

// Create adds an account with the given roles, which must exist.
func (s *Store) Create(ctx context.Context, n NewUser) (User, error) {
	n.Username = NormalizeUsername(n.Username)
	n.Name = strings.Join(strings.Fields(n.Name), " ")
	n.Email = strings.TrimSpace(n.Email)
	var v apperr.Validation
	switch {
	case n.Username == "":
		v.Add("username", "validation.required")
	case utf8.RuneCountInString(n.Username) > 64:
		v.Add("username", "validation.too_long")
	}
	switch {
	case n.Name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(n.Name) > 200:
		v.Add("name", "validation.too_long")
	}
	if len(n.Roles) == 0 {
		v.Add("roles", "user.roles_required")
	}
	if problem := auth.PasswordProblem(n.Password, append([]string{n.Username, n.Name, n.Email}, n.Personal...)...); problem != "" {
		v.Add("password", problem)
	}
	if err := CheckEmail(ctx, s.DB, n.Email, 0, &v); err != nil {
		return User{}, err
	}
	if err := v.Err(); err != nil {
		return User{}, err
	}
	hash, err := auth.HashPassword(n.Password)
	if err != nil {
		return User{}, err
	}
	now := time.Now().UTC()
	u := User{Username: n.Username, Name: n.Name, Email: n.Email, Active: true, CreatedAt: now, UpdatedAt: now, Version: 1}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE username = $1)`, n.Username).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return apperr.Conflict("user.username_taken")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO users (username, name, email, password_hash, active, created_at, updated_at, version)
			VALUES ($1, $2, $3, $4, TRUE, $5, $5, 1) RETURNING id`, n.Username, n.Name, n.Email, hash, now).Scan(&u.ID); err != nil {
			return fmt.Errorf("insert user: %w", err)
		}
		u.Roles = slices.Compact(slices.Sorted(slices.Values(n.Roles)))
		if err := setRoles(ctx, tx, u.ID, u.Roles); err != nil {
			return err
		}
		if n.Audit == nil {
			return nil
		}
		e := *n.Audit
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "user.create", "user", strconv.FormatInt(u.ID, 10), audit.Success, "roles "+strings.Join(u.Roles, ",")
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// Count returns how many accounts exist.
func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}
