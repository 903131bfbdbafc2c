package role

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/database"
)

// The accounts' roles: the user_roles table is the role package's, since who holds a role
// decides what it grants, how many hold it and whether it may be deleted (docs/adr/0018).

// Membership is what an account's roles give it.
type Membership struct {
	Names       []string
	Permissions []auth.Permission
	// RequireTwoFactor: one of the roles requires two-factor sign-in.
	RequireTwoFactor bool
}

// Of reads userID's roles and the permissions they grant, as stored (one query: it runs on
// every request); admins are given the whole catalogue.
func Of(ctx context.Context, q database.Querier, userID int64) (Membership, error) {
	m := Membership{Names: []string{}, Permissions: []auth.Permission{}}
	rows, err := q.QueryContext(ctx, `SELECT r.name, r.require_two_factor, rp.permission FROM user_roles ur
		JOIN roles r ON r.id = ur.role_id LEFT JOIN role_permissions rp ON rp.role_id = r.id
		WHERE ur.user_id = $1 ORDER BY r.name, rp.permission`, userID)
	if err != nil {
		return m, fmt.Errorf("load roles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var twoFactor bool
		var perm sql.NullString
		if err := rows.Scan(&name, &twoFactor, &perm); err != nil {
			return m, fmt.Errorf("load roles: %w", err)
		}
		if !slices.Contains(m.Names, name) {
			m.Names = append(m.Names, name)
		}
		m.RequireTwoFactor = m.RequireTwoFactor || twoFactor
		if perm.Valid && !slices.Contains(m.Permissions, auth.Permission(perm.String)) {
			m.Permissions = append(m.Permissions, auth.Permission(perm.String))
		}
	}
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("load roles: %w", err)
	}
	slices.Sort(m.Permissions)
	if slices.Contains(m.Names, auth.AdminRole) {
		m.Permissions = append(m.Permissions[:0], auth.Catalogue...)
	}
	return m, nil
}

// NamesOf returns the names of userID's roles, sorted.
func NamesOf(ctx context.Context, q database.Querier, userID int64) ([]string, error) {
	m, err := Of(ctx, q, userID)
	return m.Names, err
}

// Assign replaces userID's roles with names, which must exist, inside the caller's
// transaction.
func Assign(ctx context.Context, tx *sql.Tx, userID int64, names []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM user_roles WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("clear roles: %w", err)
	}
	for _, name := range names {
		res, err := tx.ExecContext(ctx, `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = $2`, userID, name)
		if err != nil {
			return fmt.Errorf("grant role: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Invalid("user.unknown_role", name)
		}
	}
	return nil
}

// Holders returns the ids of the accounts that hold the role called name.
func Holders(ctx context.Context, q database.Querier, name string) ([]int64, error) {
	ids, err := database.Column[int64](q.QueryContext(ctx, `SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name = $1 ORDER BY ur.user_id`, name))
	if err != nil {
		return nil, fmt.Errorf("role holders: %w", err)
	}
	return ids, nil
}

// Exists says whether a role called name exists.
func Exists(ctx context.Context, q database.Querier, name string) (bool, error) {
	var ok bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM roles WHERE name = $1)`, name).Scan(&ok)
	return ok, err
}

// Grants reports whether the role called name grants perm (the admin role grants every one).
func Grants(ctx context.Context, q database.Querier, name string, perm auth.Permission) (bool, error) {
	if name == auth.AdminRole {
		return true, nil
	}
	var ok bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM role_permissions rp JOIN roles r ON r.id = rp.role_id
		WHERE r.name = $1 AND rp.permission = $2)`, name, string(perm)).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("read a role's permissions: %w", err)
	}
	return ok, nil
}
