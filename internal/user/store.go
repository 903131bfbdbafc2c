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
	"emr/internal/role"
)

// Store reads and writes accounts.
type Store struct {
	DB *database.DB
	// Keeps, when set, is asked inside an update that deactivates an account or changes its
	// roles, after the change, whether the account still holds what a duty it has needs (the
	// medical lead of critical results, ADR 37): its error refuses the update.
	Keeps func(ctx context.Context, tx *sql.Tx, id int64) error
}

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
	checkNameAndRoles(&v, n.Name, n.Roles)
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
		if err := role.Assign(ctx, tx, u.ID, u.Roles); err != nil {
			return err
		}
		if err := keep(ctx, tx, u.ID); err != nil {
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
	u.Roles, err = role.NamesOf(ctx, q, id)
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
		if out[i].Roles, err = role.NamesOf(ctx, s.DB, out[i].ID); err != nil {
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
	admins, err := role.Holders(ctx, tx, auth.AdminRole)
	admins = slices.DeleteFunc(admins, func(a int64) bool { return a == id })
	if err != nil || len(admins) == 0 {
		return 0, err
	}
	active, err := readNamed(ctx, tx, `SELECT id, name FROM users WHERE active AND id IN (`, admins)
	return len(active), err
}

// Update changes an account's name, e-mail, roles and active flag. The last active admin
// keeps both; a deactivated account's sessions end at once; roles apply from the user's next
// request (they are read per request).
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, c Change) (User, error) {
	c.Name, c.Email = strings.Join(strings.Fields(c.Name), " "), strings.TrimSpace(c.Email)
	c.Roles = slices.Compact(slices.Sorted(slices.Values(c.Roles)))
	var v apperr.Validation
	checkNameAndRoles(&v, c.Name, c.Roles)
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
		if err := role.Assign(ctx, tx, id, c.Roles); err != nil {
			return err
		}
		if s.Keeps != nil && old.Active && (!c.Active || !slices.Equal(old.Roles, c.Roles)) {
			if err := s.Keeps(ctx, tx, id); err != nil {
				return err
			}
		}
		if !c.Active {
			if err := auth.EndSessions(ctx, tx, id); err != nil {
				return err
			}
			// Tokens ended here stay ended when the account is made active again; the access
			// tokens of the systems it registered end as it leaves (the systems stay).
			if err := auth.EndTokens(ctx, tx, e, id, auth.EndedDeactivated, old.Active); err != nil {
				return err
			}
		}
		if u, err = Get(ctx, tx, id); err != nil {
			return err
		}
		if err := database.KeepVersion(ctx, tx, VersionKind, id, u.Version, u.UpdatedAt, u); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "user.update", "user", strconv.FormatInt(id, 10), audit.Success
		e.Detail = changes(old, u)
		return audit.Record(ctx, tx, e)
	})
	return u, err
}

// ResetPassword gives the account a temporary password, returned once, that must be
// changed at the next login; its sessions and API tokens end.
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
		if err := auth.EndSessions(ctx, tx, id); err != nil {
			return err
		}
		if err := auth.EndTokens(ctx, tx, e, id, auth.EndedPasswordReset, false); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "user.password_reset", "user", strconv.FormatInt(id, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// RequirePasswordChange makes the account change its password before anything else (a
// password from before the policy, which the policy would now refuse).
func (s *Store) RequirePasswordChange(ctx context.Context, id int64) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE users SET must_change_password = TRUE WHERE id = $1`, id); err != nil {
		return fmt.Errorf("require password change: %w", err)
	}
	return nil
}

// PasswordHash returns the account's stored password hash.
func (s *Store) PasswordHash(ctx context.Context, id int64) (string, error) {
	var hash string
	if err := s.DB.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = $1`, id).Scan(&hash); err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	return hash, nil
}

// ChangePassword stores the signed-in user's own new password hash, lifts a required
// change and ends their other sessions and every API token, audited as e's.
func (s *Store) ChangePassword(ctx context.Context, e audit.Event, p *auth.Principal, hash string, sessions *auth.Sessions) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1, must_change_password = FALSE WHERE id = $2`, hash, p.UserID); err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if err := sessions.RevokeOthers(ctx, tx, p); err != nil {
			return err
		}
		if err := auth.EndTokens(ctx, tx, e, p.UserID, auth.EndedPasswordChanged, false); err != nil {
			return err
		}
		e.Outcome = audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// Unlock forgets the failed logins that throttle u's account, audited as e's.
func (s *Store) Unlock(ctx context.Context, e audit.Event, u User, throttle *auth.Throttle) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := throttle.Reset(ctx, tx, "user:"+u.Username); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "user.unlock", "user", strconv.FormatInt(u.ID, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// RemoveTwoFactor removes the account's second factor (turned off by its owner, or reset by
// an administrator for a lost phone), audited as e's action; the account's sessions end but
// by's own (by is who asks), and its API tokens end.
func (s *Store) RemoveTwoFactor(ctx context.Context, e audit.Event, id int64, second *auth.TwoFactor, by *auth.Principal) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := second.Remove(ctx, tx, id, by); err != nil {
			return err
		}
		reason := auth.EndedTwoFactorReset
		if by != nil && by.UserID == id {
			reason = auth.EndedTwoFactorChanged
		}
		if err := auth.EndTokens(ctx, tx, e, id, reason, false); err != nil {
			return err
		}
		e.EntityType, e.EntityID, e.Outcome = "user", strconv.FormatInt(id, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// VersionKind names the kept versions of staff accounts (database.KeepVersion).
const VersionKind = "user"

// keep keeps account id as it now is in q (the change's transaction), as the version it has.
func keep(ctx context.Context, q database.Querier, id int64) error {
	u, err := Get(ctx, q, id)
	if err != nil {
		return err
	}
	return database.KeepVersion(ctx, q, VersionKind, id, u.Version, u.UpdatedAt, u)
}
