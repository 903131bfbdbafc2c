package user

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/role"
)

// What other parts read of accounts: a session's identity, names for records, the
// holders of a role, the profile's columns.

// ProfileFields are the account's columns its owner edits on their profile (specialisations
// and licences as the JSON the profile keeps).
type ProfileFields struct {
	Username, Name, Avatar, Email, Introduction string
	Specialisations, Licences                   string
	Version                                     int
}

// ProfileOf reads the profile columns of account id; NotFound when there is none.
func ProfileOf(ctx context.Context, q database.Querier, id int64) (ProfileFields, error) {
	var f ProfileFields
	err := q.QueryRowContext(ctx, `SELECT username, name, avatar, email, introduction, specialisations, licences, version
		FROM users WHERE id = $1`, id).Scan(&f.Username, &f.Name, &f.Avatar, &f.Email, &f.Introduction, &f.Specialisations, &f.Licences, &f.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return f, apperr.NotFound("error.not_found")
	}
	if err != nil {
		return f, fmt.Errorf("read profile: %w", err)
	}
	return f, nil
}

// SaveProfile writes the profile columns of account id and raises its version, inside the
// caller's transaction (which has checked the version it read).
func SaveProfile(ctx context.Context, tx *sql.Tx, id int64, f ProfileFields) error {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET name = $1, email = $2, introduction = $3, specialisations = $4, licences = $5,
		updated_at = $6, version = version + 1 WHERE id = $7`, f.Name, f.Email, f.Introduction, f.Specialisations, f.Licences, time.Now().UTC(), id); err != nil {
		return fmt.Errorf("update profile: %w", err)
	}
	return keep(ctx, tx, id)
}

// SetAvatar sets the address of account id's avatar ("" for none).
func SetAvatar(ctx context.Context, tx *sql.Tx, id int64, address string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET avatar = $1, updated_at = $2 WHERE id = $3`, address, time.Now().UTC(), id); err != nil {
		return fmt.Errorf("set avatar: %w", err)
	}
	return nil
}

// IDOf returns the id of the account with username; NotFound when there is none.
func (s *Store) IDOf(ctx context.Context, username string) (int64, error) {
	var id int64
	err := s.DB.QueryRowContext(ctx, `SELECT id FROM users WHERE username = $1`, NormalizeUsername(username)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.NotFound("user.not_found")
	}
	if err != nil {
		return 0, fmt.Errorf("find user: %w", err)
	}
	return id, nil
}

// Identity is userID's identity for a session at now (auth.Identities): the account as
// stored, its roles' permissions and any emergency grant; nil for a deactivated account.
func (s *Store) Identity(ctx context.Context, userID int64, now time.Time) (*auth.Identity, error) {
	id := &auth.Identity{}
	var active bool
	err := s.DB.QueryRowContext(ctx, `SELECT username, name, avatar, introduction, must_change_password, active FROM users WHERE id = $1`,
		userID).Scan(&id.Username, &id.Name, &id.Avatar, &id.Intro, &id.MustChangePassword, &active)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !active) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read account: %w", err)
	}
	m, err := role.Of(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	id.Roles, id.Permissions, id.TwoFactorRequired = m.Names, m.Permissions, m.RequireTwoFactor
	if id.Emergency, err = ActiveEmergency(ctx, s.DB, userID, now); err != nil {
		return nil, err
	}
	return id, nil
}

// Names reads the names of the accounts with ids (each once), for other domains' records
// (who booked, signed, prescribed).
func Names(ctx context.Context, q database.Querier, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		named, err := readNamed(ctx, q, `SELECT id, name FROM users WHERE id IN (`, chunk)
		for _, n := range named {
			out[n.ID] = n.Name
		}
		return err
	})
	return out, err
}

// Addresses reads the e-mail addresses of the active accounts with ids ("" for one that has
// none), for messages sent to staff.
func Addresses(ctx context.Context, q database.Querier, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT id, email FROM users WHERE active AND id IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("read addresses: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var email string
			if err := rows.Scan(&id, &email); err != nil {
				return err
			}
			out[id] = email
		}
		return rows.Err()
	})
	return out, err
}

// Named is an account's id and name.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// ActiveHolders lists the active accounts that hold the role called roleName, by name.
func ActiveHolders(ctx context.Context, q database.Querier, roleName string) ([]Named, error) {
	ids, err := role.Holders(ctx, q, roleName)
	if err != nil || len(ids) == 0 {
		return []Named{}, err
	}
	out := []Named{}
	err = database.InChunks(ids, 500, func(chunk []int64) error {
		named, err := readNamed(ctx, q, `SELECT id, name FROM users WHERE active AND id IN (`, chunk)
		out = append(out, named...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list %s accounts: %w", roleName, err)
	}
	slices.SortFunc(out, func(a, b Named) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return int(a.ID - b.ID)
	})
	return out, nil
}

// Deactivated lists the accounts no longer active (a doctor who left: whose results someone
// else must now review).
func Deactivated(ctx context.Context, q database.Querier) ([]int64, error) {
	return database.Column[int64](q.QueryContext(ctx, `SELECT id FROM users WHERE NOT active ORDER BY id`))
}

// Active reports whether account id exists and is active.
func Active(ctx context.Context, q database.Querier, id int64) (bool, error) {
	var active bool
	err := q.QueryRowContext(ctx, `SELECT active FROM users WHERE id = $1`, id).Scan(&active)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read account: %w", err)
	}
	return active, nil
}

// ActiveWithRole reports whether account id is active and holds the role called roleName.
func ActiveWithRole(ctx context.Context, q database.Querier, id int64, roleName string) (bool, error) {
	if active, err := Active(ctx, q, id); !active || err != nil {
		return false, err
	}
	names, err := role.NamesOf(ctx, q, id)
	return slices.Contains(names, roleName), err
}

// readNamed runs a query of ids and names whose text ends in an open IN list, for ids.
func readNamed(ctx context.Context, q database.Querier, query string, ids []int64) ([]Named, error) {
	marks, args := database.InList(ids, 1)
	rows, err := q.QueryContext(ctx, query+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read names: %w", err)
	}
	defer rows.Close()
	var out []Named
	for rows.Next() {
		var n Named
		if err := rows.Scan(&n.ID, &n.Name); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// ByIDs reads the accounts among ids, in id order, without their roles (the FHIR API's
// included Practitioners).
func ByIDs(ctx context.Context, q database.Querier, ids []int64) ([]User, error) {
	in, args := database.InIDs(q, "id", ids, 1)
	rows, err := q.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE `+in+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read accounts: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// Page lists accounts for programs (the FHIR API's Practitioner), in id order from after
// (below it when desc), up to limit, without their roles.
func Page(ctx context.Context, q database.Querier, after int64, desc bool, limit int) ([]User, error) {
	query := `SELECT ` + userColumns + ` FROM users WHERE id > $1 ORDER BY id LIMIT $2`
	if desc {
		query = `SELECT ` + userColumns + ` FROM users WHERE id < $1 ORDER BY id DESC LIMIT $2`
		if after <= 0 {
			after = 1<<63 - 1
		}
	}
	rows, err := q.QueryContext(ctx, query, after, limit)
	if err != nil {
		return nil, fmt.Errorf("page accounts: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
