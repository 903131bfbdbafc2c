// Package profile serves the logged-in user's own profile (spec §7: get-profile,
// update-profile, remove-signature): name, e-mail, avatar, introduction, the doctor's
// specialisations and licences, the drawn signature, a password change and the user's own
// recent activity.
package profile

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/role"
	"emr/internal/user"
)

// Licence is one of a prescriber's licence numbers and the dates it is valid (YYYY-MM-DD;
// empty when open).
type Licence struct {
	Number     string `json:"number"`
	Issuer     string `json:"issuer"`
	ValidFrom  string `json:"valid_from"`
	ValidUntil string `json:"valid_until"`
}

// Expired reports whether the licence is no longer (or not yet) valid on day (YYYY-MM-DD).
func (l Licence) Expired(day string) bool {
	return (l.ValidUntil != "" && l.ValidUntil < day) || (l.ValidFrom != "" && l.ValidFrom > day)
}

// Profile is the user's own profile. Name and Pic are the spec's get-profile answer.
type Profile struct {
	ID              int64     `json:"id"`
	Username        string    `json:"username"`
	Name            string    `json:"name"`
	Pic             string    `json:"pic"`
	Email           string    `json:"email"`
	Introduction    string    `json:"introduction"`
	Roles           []string  `json:"roles"`
	Specialisations []string  `json:"specialisations"`
	Licences        []Licence `json:"licences"`
	HasSignature    bool      `json:"has_signature"`
	// SignatureURL changes with every new signature, so a browser never shows an old one.
	SignatureURL string `json:"signature_url"`
	Version      int    `json:"version"`
}

// Update is the update-profile payload: the fields sent are changed, the others kept.
type Update struct {
	Name            *string    `json:"name"`
	Email           *string    `json:"email"`
	Introduction    *string    `json:"introduction"`
	Specialisations *[]string  `json:"specialisations"`
	Licences        *[]Licence `json:"licences"`
	Version         int        `json:"version"`
}

// Limits of the profile's fields.
const (
	maxListed = 10
	maxIntro  = 2000
)

// Store reads and writes profiles.
type Store struct{ DB *database.DB }

// Get reads user id's profile.
func Get(ctx context.Context, q database.Querier, id int64) (Profile, error) {
	p := Profile{ID: id}
	f, err := user.ProfileOf(ctx, q, id)
	if err != nil {
		return p, err
	}
	p.Username, p.Name, p.Pic, p.Email, p.Introduction, p.Version = f.Username, f.Name, f.Avatar, f.Email, f.Introduction, f.Version
	specs, lics := f.Specialisations, f.Licences
	var signedAt sql.NullTime
	err = q.QueryRowContext(ctx, `SELECT updated_at FROM user_images WHERE user_id = $1 AND kind = 'signature'`, id).Scan(&signedAt)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("read signature: %w", err)
	}
	if err := json.Unmarshal([]byte(specs), &p.Specialisations); err != nil {
		return p, fmt.Errorf("read specialisations: %w", err)
	}
	if err := json.Unmarshal([]byte(lics), &p.Licences); err != nil {
		return p, fmt.Errorf("read licences: %w", err)
	}
	if signedAt.Valid {
		p.HasSignature = true
		p.SignatureURL = fmt.Sprintf("/api/users/%d/signature?v=%d", id, signedAt.Time.UnixMilli())
	}
	p.Roles, err = role.NamesOf(ctx, q, id)
	return p, err
}

func tidy(s string) string { return strings.Join(strings.Fields(s), " ") }

// apply merges u into p, checking every field it sets.
func (u Update) apply(p *Profile) error {
	var v apperr.Validation
	if u.Name != nil {
		p.Name = tidy(*u.Name)
		if p.Name == "" {
			v.Add("name", "validation.required")
		} else if utf8.RuneCountInString(p.Name) > 200 {
			v.Add("name", "validation.too_long")
		}
	}
	if u.Email != nil {
		p.Email = strings.TrimSpace(*u.Email)
		if p.Email != "" && !apperr.Email(p.Email) {
			v.Add("email", "validation.email")
		}
	}
	if u.Introduction != nil {
		p.Introduction = strings.TrimSpace(*u.Introduction)
		if utf8.RuneCountInString(p.Introduction) > maxIntro {
			v.Add("introduction", "validation.too_long")
		}
	}
	if u.Specialisations != nil {
		p.Specialisations = []string{}
		for _, s := range *u.Specialisations {
			if s = tidy(s); s != "" {
				p.Specialisations = append(p.Specialisations, s)
			}
			if utf8.RuneCountInString(s) > 100 {
				v.Add("specialisations", "validation.too_long")
			}
		}
		if len(p.Specialisations) > maxListed {
			v.Add("specialisations", "profile.too_many")
		}
	}
	if u.Licences != nil {
		p.Licences = []Licence{}
		for _, l := range *u.Licences {
			l = Licence{Number: tidy(l.Number), Issuer: tidy(l.Issuer), ValidFrom: strings.TrimSpace(l.ValidFrom), ValidUntil: strings.TrimSpace(l.ValidUntil)}
			if l == (Licence{}) {
				continue
			}
			switch {
			case l.Number == "":
				v.Add("licences", "profile.licence_number")
			case utf8.RuneCountInString(l.Number) > 100 || utf8.RuneCountInString(l.Issuer) > 200:
				v.Add("licences", "validation.too_long")
			case !isDate(l.ValidFrom) || !isDate(l.ValidUntil):
				v.Add("licences", "validation.date_format")
			case l.ValidFrom != "" && l.ValidUntil != "" && l.ValidUntil < l.ValidFrom:
				v.Add("licences", "profile.licence_dates")
			}
			p.Licences = append(p.Licences, l)
		}
		if len(p.Licences) > maxListed {
			v.Add("licences", "profile.too_many")
		}
	}
	return v.Err()
}

func isDate(s string) bool {
	if s == "" {
		return true
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// Update changes the user's own profile; a stale version is a conflict.
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, u Update) (Profile, error) {
	var p Profile
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if p, err = Get(ctx, tx, id); err != nil {
			return err
		}
		if p.Version != u.Version {
			return apperr.Conflict("error.conflict")
		}
		if err := u.apply(&p); err != nil {
			return err
		}
		var v apperr.Validation
		if u.Email != nil {
			if err := user.CheckEmail(ctx, tx, p.Email, id, &v); err != nil {
				return err
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		specs, _ := json.Marshal(p.Specialisations)
		lics, _ := json.Marshal(p.Licences)
		if err := user.SaveProfile(ctx, tx, id, user.ProfileFields{Name: p.Name, Email: p.Email, Introduction: p.Introduction,
			Specialisations: string(specs), Licences: string(lics)}); err != nil {
			return err
		}
		p.Version++
		e.Action, e.EntityType, e.EntityID, e.Outcome = "profile.update", "user", fmt.Sprint(id), audit.Success
		return audit.Record(ctx, tx, e)
	})
	return p, err
}

// SetImage stores (replacing) the user's avatar or signature; the avatar's address is
// kept on the user so that every screen shows the new one.
func (s *Store) SetImage(ctx context.Context, e audit.Event, id int64, kind, contentType string, data []byte) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := time.Now().UTC()
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_images (user_id, kind, content_type, data, updated_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id, kind) DO UPDATE SET content_type = $3, data = $4, updated_at = $5`, id, kind, contentType, data, now); err != nil {
			return fmt.Errorf("store %s: %w", kind, err)
		}
		if kind == KindAvatar {
			if err := user.SetAvatar(ctx, tx, id, fmt.Sprintf("/api/users/%d/avatar?v=%d", id, now.UnixMilli())); err != nil {
				return err
			}
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "profile."+kind+".set", "user", fmt.Sprint(id), audit.Success, contentType
		return audit.Record(ctx, tx, e)
	})
}

// RemoveImage removes the user's avatar or signature; removing none is not an error.
func (s *Store) RemoveImage(ctx context.Context, e audit.Event, id int64, kind string) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := user.ProfileOf(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM user_images WHERE user_id = $1 AND kind = $2`, id, kind); err != nil {
			return fmt.Errorf("remove %s: %w", kind, err)
		}
		if kind == KindAvatar {
			if err := user.SetAvatar(ctx, tx, id, ""); err != nil {
				return err
			}
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "profile."+kind+".remove", "user", fmt.Sprint(id), audit.Success
		return audit.Record(ctx, tx, e)
	})
}

// Image reads a user's avatar or signature.
func Image(ctx context.Context, q database.Querier, id int64, kind string) (contentType string, data []byte, err error) {
	err = q.QueryRowContext(ctx, `SELECT content_type, data FROM user_images WHERE user_id = $1 AND kind = $2`, id, kind).Scan(&contentType, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, apperr.NotFound("error.not_found")
	}
	if err != nil {
		return "", nil, fmt.Errorf("read %s: %w", kind, err)
	}
	return contentType, data, nil
}

// Activity is one of the user's own recent audit events.
type Activity struct {
	At         time.Time `json:"at"`
	Action     string    `json:"action"`
	EntityType string    `json:"entity_type"`
	EntityID   string    `json:"entity_id"`
	Outcome    string    `json:"outcome"`
	Address    string    `json:"address"`
	// Credential is the API token or backend client the action was made with, "" for the
	// browser.
	Credential string `json:"credential"`
	// By is who acted when it was not the user: an administrator who made or ended one of
	// the user's API tokens. "" for the user's own actions.
	By string `json:"by"`
}

// RecentActivity returns the user's last n audit events, newest first, with what others
// did to the user's API tokens.
func (s *Store) RecentActivity(ctx context.Context, id int64, n int) ([]Activity, error) {
	events, err := audit.RecentBy(ctx, s.DB, id, n)
	if err != nil {
		return nil, err
	}
	out := make([]Activity, len(events))
	for i, e := range events {
		out[i] = Activity{At: e.At, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID, Outcome: e.Outcome, Address: e.Address, Credential: e.Credential}
		if e.ActorID == nil || *e.ActorID != id {
			out[i].By = e.ActorName
		}
	}
	return out, nil
}
