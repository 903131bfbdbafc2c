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

const userColumns = `id, username, name, email, avatar, introduction, active, must_change_password, created_at, updated_at, version`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	err := row.Scan(&u.ID, &u.Username, &u.Name, &u.Email, &u.Avatar, &u.Introduction, &u.Active, &u.MustChangePassword, &u.CreatedAt, &u.UpdatedAt, &u.Version)
	return u, err
}

// Get reads one account with its roles.
func Get(ctx context.Context, q database.Querier, id int64) (User, error) {
	u, err := scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return u, apperr.NotFound("user.not_found")
	}
	if err != nil {
		return u, fmt.Errorf("read user: %w", err)
	}
	u.Roles, err = auth.RoleNames(ctx, q, id)
	return u, err
}

// List returns a page of accounts by name, and how many match.
func (s *Store) List(ctx context.Context, q ListQuery) ([]User, int, error) {
	where, args := []string{"TRUE"}, []any{}
	if w := strings.TrimSpace(q.Q); w != "" {
		if utf8.RuneCountInString(w) > 100 {
			return nil, 0, apperr.Invalid("validation.query")
		}
		args = append(args, "%"+strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(w))+"%")
		where = append(where, fmt.Sprintf(`(lower(username) LIKE $%[1]d ESCAPE '\' OR lower(name) LIKE $%[1]d ESCAPE '\' OR lower(email) LIKE $%[1]d ESCAPE '\')`, len(args)))
	}
	switch q.Status {
	case "active":
		where = append(where, "active")
	case "inactive":
		where = append(where, "NOT active")
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	args = append(args, q.PerPage, (q.Page-1)*q.PerPage)
	rows, err := s.DB.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE `+cond+` ORDER BY lower(name), id
		LIMIT $`+strconv.Itoa(len(args)-1)+` OFFSET $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		out = append(out, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	for i := range out {
		if out[i].Roles, err = auth.RoleNames(ctx, s.DB, out[i].ID); err != nil {
			return nil, 0, err
		}
	}
	if out == nil {
		out = []User{}
	}
	return out, total, nil
}

// CheckEmail checks an e-mail's form and that no other account has it.
func CheckEmail(ctx context.Context, q database.Querier, email string, except int64, v *apperr.Validation) error {
	if email == "" {
		return nil
	}
	if !apperr.Email(email) {
		v.Add("email", "validation.email")
		return nil
	}
	var taken bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2)`, email, except).Scan(&taken); err != nil {
		return fmt.Errorf("check e-mail: %w", err)
	}
	if taken {
		v.Add("email", "user.email_taken")
	}
	return nil
}

// lockAdmins serialises the changes that could leave the clinic without an active admin
// (SQLite transactions are serialised already).
func lockAdmins(ctx context.Context, db *database.DB, tx *sql.Tx) error {
	if db.Engine != database.Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(2, 0)`)
	return err
}

// otherActiveAdmins counts the active admins other than id.
func otherActiveAdmins(ctx context.Context, tx *sql.Tx, id int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
		WHERE r.name = $1 AND u.active AND u.id <> $2`, auth.AdminRole, id).Scan(&n)
	return n, err
}

// setRoles replaces an account's roles, which must exist.
func setRoles(ctx context.Context, tx *sql.Tx, id int64, names []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM user_roles WHERE user_id = $1`, id); err != nil {
		return fmt.Errorf("clear roles: %w", err)
	}
	for _, role := range names {
		res, err := tx.ExecContext(ctx, `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = $2`, id, role)
		if err != nil {
			return fmt.Errorf("grant role: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Invalid("user.unknown_role", role)
		}
	}
	return nil
}

// Update changes an account's name, e-mail, roles and active flag. The last active admin
// keeps both; a deactivated account's sessions end at once; roles apply from the user's next
// request (they are read per request).
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, c Change) (User, error) {
	c.Name, c.Email = strings.Join(strings.Fields(c.Name), " "), strings.TrimSpace(c.Email)
	c.Roles = slices.Compact(slices.Sorted(slices.Values(c.Roles)))
	var v apperr.Validation
	switch {
	case c.Name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(c.Name) > 200:
		v.Add("name", "validation.too_long")
	}
	if len(c.Roles) == 0 {
		v.Add("roles", "user.roles_required")
	}
	var u User
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := CheckEmail(ctx, tx, c.Email, id, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		if err := lockAdmins(ctx, s.DB, tx); err != nil {
			return err
		}
		old, err := Get(ctx, tx, id)
		if err != nil {
			return err
		}
		if old.Version != c.Version {
			return apperr.Conflict("error.conflict")
		}
		wasAdmin := old.Active && slices.Contains(old.Roles, auth.AdminRole)
		staysAdmin := c.Active && slices.Contains(c.Roles, auth.AdminRole)
		if wasAdmin && !staysAdmin {
			n, err := otherActiveAdmins(ctx, tx, id)
			if err != nil {
				return fmt.Errorf("count admins: %w", err)
			}
			if n == 0 {
				return apperr.Conflict("user.last_admin")
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET name = $1, email = $2, active = $3, updated_at = $4, version = version + 1 WHERE id = $5`,
			c.Name, c.Email, c.Active, time.Now().UTC(), id); err != nil {
			return fmt.Errorf("update user: %w", err)
		}
		if err := setRoles(ctx, tx, id, c.Roles); err != nil {
			return err
		}
		if !c.Active {
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, id); err != nil {
				return fmt.Errorf("end sessions: %w", err)
			}
		}
		if u, err = Get(ctx, tx, id); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "user.update", "user", strconv.FormatInt(id, 10), audit.Success
		e.Detail = changes(old, u)
		return audit.Record(ctx, tx, e)
	})
	return u, err
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

// ResetPassword gives the account a temporary password, returned once, that must be
// changed at the next login; its sessions end.
func (s *Store) ResetPassword(ctx context.Context, e audit.Event, id int64, temporary string) error {
	hash, err := auth.HashPassword(temporary)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1, must_change_password = TRUE, updated_at = $2 WHERE id = $3`, hash, time.Now().UTC(), id)
		if err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("user.not_found")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, id); err != nil {
			return fmt.Errorf("end sessions: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "user.password_reset", "user", strconv.FormatInt(id, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}
