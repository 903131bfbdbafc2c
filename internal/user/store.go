package user

import (
	"context"
	"database/sql"
	"encoding/json"
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
		if err := role.Assign(ctx, tx, u.ID, u.Roles); err != nil {
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
	if err != nil {
		return 0, err
	}
	n := 0
	for _, admin := range admins {
		var active bool
		if admin == id {
			continue
		}
		if err := tx.QueryRowContext(ctx, `SELECT active FROM users WHERE id = $1`, admin).Scan(&active); err != nil {
			return 0, fmt.Errorf("read admin: %w", err)
		}
		if active {
			n++
		}
	}
	return n, nil
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
		if err := role.Assign(ctx, tx, id, c.Roles); err != nil {
			return err
		}
		if !c.Active {
			if err := auth.EndSessions(ctx, tx, id); err != nil {
				return err
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
		if err := auth.EndSessions(ctx, tx, id); err != nil {
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
// change and ends their other sessions, audited as e's.
func (s *Store) ChangePassword(ctx context.Context, e audit.Event, p *auth.Principal, hash string, sessions *auth.Sessions) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1, must_change_password = FALSE WHERE id = $2`, hash, p.UserID); err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if err := sessions.RevokeOthers(ctx, tx, p); err != nil {
			return err
		}
		e.Outcome = audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// GrantEmergency gives userID extra clinical permissions for hours, with a reason, replacing
// a grant in force; audited as e's.
func (s *Store) GrantEmergency(ctx context.Context, e audit.Event, userID int64, perms []auth.Permission, hours int, reason string) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := grantable(ctx, tx, e.ActorID, userID); err != nil {
			return err
		}
		now := time.Now().UTC()
		if _, err := endGrants(ctx, tx, userID, e.ActorID, now); err != nil {
			return err
		}
		list, _ := json.Marshal(perms)
		var grant int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO emergency_grants (user_id, granted_by, reason, permissions, starts_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, userID, e.ActorID, reason, string(list), now, now.Add(time.Duration(hours)*time.Hour)).Scan(&grant); err != nil {
			return fmt.Errorf("grant emergency access: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.grant", "user", strconv.FormatInt(userID, 10), audit.Success
		e.Detail = fmt.Sprintf("grant %d for %d h: %s", grant, hours, joinPermissions(perms))
		return audit.Record(ctx, tx, e)
	})
}

// EndEmergency ends userID's emergency access now; a conflict when none is in force.
func (s *Store) EndEmergency(ctx context.Context, e audit.Event, userID int64) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		n, err := endGrants(ctx, tx, userID, e.ActorID, time.Now().UTC())
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Conflict("emergency.none")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "emergency.end", "user", strconv.FormatInt(userID, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// RemoveTwoFactor removes the account's second factor (turned off by its owner, or reset by
// an administrator for a lost phone), audited as e's action.
func (s *Store) RemoveTwoFactor(ctx context.Context, e audit.Event, id int64, second *auth.TwoFactor) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := second.Remove(ctx, tx, id); err != nil {
			return err
		}
		e.EntityType, e.EntityID, e.Outcome = "user", strconv.FormatInt(id, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// grantable checks that target may receive emergency access from actor: an active account,
// not the actor's own and not an administrator's (who holds everything already).
func grantable(ctx context.Context, tx *sql.Tx, actor, target int64) error {
	u, err := Get(ctx, tx, target)
	switch {
	case err != nil:
		return err
	case target == actor:
		return apperr.Conflict("emergency.self")
	case !u.Active:
		return apperr.Conflict("emergency.inactive")
	case slices.Contains(u.Roles, auth.AdminRole):
		return apperr.Conflict("emergency.admin")
	}
	return nil
}

// endGrants ends every grant of userID still in force and says how many there were.
func endGrants(ctx context.Context, tx *sql.Tx, userID, by int64, now time.Time) (int64, error) {
	res, err := tx.ExecContext(ctx, `UPDATE emergency_grants SET ended_at = $1, ended_by = $2
		WHERE user_id = $3 AND ended_at IS NULL AND expires_at > $1`, now, by, userID)
	if err != nil {
		return 0, fmt.Errorf("end emergency access: %w", err)
	}
	return res.RowsAffected()
}

func joinPermissions(perms []auth.Permission) string {
	s := make([]string, len(perms))
	for i, p := range perms {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

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
	return nil
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

// ActiveEmergency returns userID's grant in force at now, or nil.
func ActiveEmergency(ctx context.Context, q database.Querier, userID int64, now time.Time) (*auth.Emergency, error) {
	g := &auth.Emergency{}
	var perms string
	err := q.QueryRowContext(ctx, `SELECT g.id, g.reason, g.permissions, g.starts_at, g.expires_at, u.name
		FROM emergency_grants g JOIN users u ON u.id = g.granted_by
		WHERE g.user_id = $1 AND g.ended_at IS NULL AND g.starts_at <= $2 AND g.expires_at > $2
		ORDER BY g.id DESC LIMIT 1`, userID, now.UTC()).Scan(&g.ID, &g.Reason, &perms, &g.StartsAt, &g.ExpiresAt, &g.GrantedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load emergency access: %w", err)
	}
	if err := json.Unmarshal([]byte(perms), &g.Permissions); err != nil {
		return nil, fmt.Errorf("load emergency access %d: %w", g.ID, err)
	}
	g.StartsAt, g.ExpiresAt = g.StartsAt.UTC(), g.ExpiresAt.UTC()
	return g, nil
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

// ActiveWithRole reports whether account id is active and holds the role called roleName.
func ActiveWithRole(ctx context.Context, q database.Querier, id int64, roleName string) (bool, error) {
	var active bool
	err := q.QueryRowContext(ctx, `SELECT active FROM users WHERE id = $1`, id).Scan(&active)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !active) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read account: %w", err)
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
