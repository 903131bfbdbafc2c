package role

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
)

// Store reads and writes roles, the role × permission matrix and its version; it is the only
// writer of the roles and role_permissions tables.
type Store struct{ DB *database.DB }

// matrixVersion is the version of the whole role × permission matrix, raised by every save,
// so that an administrator's stale matrix is refused rather than silently merged.
func matrixVersion(ctx context.Context, q database.Querier) (int, error) {
	v, err := database.Counter(ctx, q, "roles:matrix")
	return int(v), err
}

func bumpMatrix(ctx context.Context, tx *sql.Tx) error {
	_, err := database.AddToCounter(ctx, tx, "roles:matrix", 1)
	return err
}

// Create adds a custom role without permissions.
func (s *Store) Create(ctx context.Context, e audit.Event, name string) (int64, error) {
	name, err := cleanRoleName(name)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var taken bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM roles WHERE name = $1)`, name).Scan(&taken); err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("role.name_taken")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO roles (name) VALUES ($1) RETURNING id`, name).Scan(&id); err != nil {
			return fmt.Errorf("insert role: %w", err)
		}
		if err := bumpMatrix(ctx, tx); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "role.create", "role", strconv.FormatInt(id, 10), audit.Success, name
		return audit.Record(ctx, tx, e)
	})
	return id, err
}

func roleName(ctx context.Context, tx *sql.Tx, id int64) (string, error) {
	var name string
	err := tx.QueryRowContext(ctx, `SELECT name FROM roles WHERE id = $1`, id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.NotFound("role.not_found")
	}
	return name, err
}

// Rename renames a custom role.
func (s *Store) Rename(ctx context.Context, e audit.Event, id int64, name string) error {
	name, err := cleanRoleName(name)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := roleName(ctx, tx, id)
		if err != nil {
			return err
		}
		if slices.Contains(seededRoles, old) {
			return apperr.Conflict("role.seeded")
		}
		var taken bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM roles WHERE name = $1 AND id <> $2)`, name, id).Scan(&taken); err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("role.name_taken")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE roles SET name = $1 WHERE id = $2`, name, id); err != nil {
			return fmt.Errorf("rename role: %w", err)
		}
		if err := bumpMatrix(ctx, tx); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "role.rename", "role", strconv.FormatInt(id, 10), audit.Success, old+" -> "+name
		return audit.Record(ctx, tx, e)
	})
}

// Delete deletes a custom role that no account holds.
func (s *Store) Delete(ctx context.Context, e audit.Event, id int64) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		name, err := roleName(ctx, tx, id)
		if err != nil {
			return err
		}
		if slices.Contains(seededRoles, name) {
			return apperr.Conflict("role.seeded")
		}
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM user_roles WHERE role_id = $1)`, id).Scan(&used); err != nil {
			return err
		}
		if used {
			return apperr.Conflict("role.in_use")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM role_permissions WHERE role_id = $1`, id); err != nil {
			return fmt.Errorf("delete role permissions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM roles WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete role: %w", err)
		}
		if err := bumpMatrix(ctx, tx); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "role.delete", "role", strconv.FormatInt(id, 10), audit.Success, name
		return audit.Record(ctx, tx, e)
	})
}

// SaveMatrix replaces every role's permissions at once, at the matrix version read. The
// admin role keeps every permission: a matrix that takes one away is refused.
func (s *Store) SaveMatrix(ctx context.Context, e audit.Event, matrix map[string][]string, version int) error {
	var v apperr.Validation
	for role, perms := range matrix {
		for _, p := range perms {
			if !slices.Contains(auth.Catalogue, auth.Permission(p)) {
				v.Add(role, "role.unknown_permission")
			}
		}
		if role == auth.AdminRole && len(slices.Compact(slices.Sorted(slices.Values(perms)))) != len(auth.Catalogue) {
			v.Add(role, "role.admin_all")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		have, err := matrixVersion(ctx, tx)
		if err != nil {
			return err
		}
		if have != version {
			return apperr.Conflict("error.conflict")
		}
		var changed []string
		for role, perms := range matrix {
			var id int64
			if err := tx.QueryRowContext(ctx, `SELECT id FROM roles WHERE name = $1`, role).Scan(&id); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return apperr.Invalid("user.unknown_role", role)
				}
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM role_permissions WHERE role_id = $1`, id); err != nil {
				return fmt.Errorf("clear permissions: %w", err)
			}
			for _, p := range slices.Compact(slices.Sorted(slices.Values(perms))) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2)`, id, p); err != nil {
					return fmt.Errorf("grant permission: %w", err)
				}
			}
			changed = append(changed, role+": "+strings.Join(perms, ","))
		}
		if err := bumpMatrix(ctx, tx); err != nil {
			return err
		}
		slices.Sort(changed)
		e.Action, e.EntityType, e.Outcome, e.Detail = "role.permissions", "role", audit.Success, strings.Join(changed, "; ")
		return audit.Record(ctx, tx, e)
	})
}

// List reads every role by name with its member count, permissions and two-factor
// requirement, and the matrix's version.
func (s *Store) List(ctx context.Context) ([]Role, int, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT r.id, r.name, (SELECT COUNT(*) FROM user_roles ur WHERE ur.role_id = r.id), r.require_two_factor
		FROM roles r ORDER BY r.name`)
	if err != nil {
		return nil, 0, fmt.Errorf("list roles: %w", err)
	}
	list := []Role{}
	for rows.Next() {
		var ro Role
		if err := rows.Scan(&ro.ID, &ro.Name, &ro.Users, &ro.RequireTwoFactor); err != nil {
			rows.Close()
			return nil, 0, err
		}
		list = append(list, ro)
	}
	rows.Close()
	// Every role's permissions in one read, not one query per role.
	perms, err := s.DB.QueryContext(ctx, `SELECT role_id, permission FROM role_permissions ORDER BY permission`)
	if err != nil {
		return nil, 0, fmt.Errorf("list role permissions: %w", err)
	}
	held := map[int64][]string{}
	for perms.Next() {
		var id int64
		var p string
		if err := perms.Scan(&id, &p); err != nil {
			perms.Close()
			return nil, 0, err
		}
		held[id] = append(held[id], p)
	}
	perms.Close()
	if err := perms.Err(); err != nil {
		return nil, 0, err
	}
	for i := range list {
		list[i].Permissions = append([]string{}, held[list[i].ID]...)
	}
	version, err := matrixVersion(ctx, s.DB)
	return list, version, err
}

// RequireTwoFactor sets whether role id's members must use two-factor sign-in, audited as e's.
func (s *Store) RequireTwoFactor(ctx context.Context, e audit.Event, id int64, required bool) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE roles SET require_two_factor = $1 WHERE id = $2`, required, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("role.not_found")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "role.two_factor", "role", strconv.FormatInt(id, 10), audit.Success, fmt.Sprintf("required: %v", required)
		return audit.Record(ctx, tx, e)
	})
}
