// Package settings keeps the clinic-wide settings an admin sets: the clinic's name,
// address and phone that head every printed prescription.
package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// Clinic is the header of printed prescriptions.
type Clinic struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Phone   string `json:"phone"`
	// Version is 0 until an admin first saves the settings.
	Version int `json:"version"`
}

const clinicKey = "clinic"

// ReadClinic returns the clinic's settings (empty ones until an admin sets them).
func ReadClinic(ctx context.Context, q database.Querier) (Clinic, error) {
	var c Clinic
	var value string
	var version int
	err := q.QueryRowContext(ctx, `SELECT value, version FROM settings WHERE key = $1`, clinicKey).Scan(&value, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return Clinic{}, nil
	}
	if err != nil {
		return c, fmt.Errorf("read clinic settings: %w", err)
	}
	if err := json.Unmarshal([]byte(value), &c); err != nil {
		return c, fmt.Errorf("decode clinic settings: %w", err)
	}
	c.Version = version // the row's, not whatever the stored JSON says
	return c, nil
}

func (c *Clinic) clean() error {
	var v apperr.Validation
	c.Name, c.Phone = strings.TrimSpace(c.Name), strings.TrimSpace(c.Phone)
	c.Address = strings.TrimSpace(strings.ReplaceAll(c.Address, "\r\n", "\n"))
	if c.Name == "" {
		v.Add("name", "validation.required")
	}
	for field, s := range map[string]string{"name": c.Name, "address": c.Address, "phone": c.Phone} {
		if utf8.RuneCountInString(s) > 300 {
			v.Add(field, "validation.too_long")
		}
	}
	return v.Err()
}

// Handler serves the settings API.
type Handler struct{ DB *database.DB }

// Routes is the settings API's route table.
func (h *Handler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/settings/clinic", Access: auth.LoggedIn, BeforePasswordChange: true, Handler: h.clinic},
		{Method: "PUT", Path: "/api/settings/clinic", Access: auth.Need(auth.ManageSettings), Handler: h.saveClinic},
	}
}

func (h *Handler) clinic(w http.ResponseWriter, r *http.Request) {
	c, err := ReadClinic(r.Context(), h.DB)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, c)
}

// saveClinic replaces the clinic's settings; the version read must still be current.
func (h *Handler) saveClinic(w http.ResponseWriter, r *http.Request) {
	var in Clinic
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	saved, err := SaveClinic(r.Context(), h.DB, auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, saved)
}

// SaveClinic replaces the clinic's settings with in, if in.Version is still the stored one
// (else a conflict: another administrator saved first), and audits it as e's.
func SaveClinic(ctx context.Context, db *database.DB, e audit.Event, in Clinic) (Clinic, error) {
	if err := in.clean(); err != nil {
		return Clinic{}, err
	}
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		old, err := ReadClinic(ctx, tx)
		if err != nil {
			return err
		}
		if old.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		value, _ := json.Marshal(Clinic{Name: in.Name, Address: in.Address, Phone: in.Phone})
		now := time.Now().UTC()
		var res sql.Result
		if old.Version == 0 {
			res, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, updated_by, version) VALUES ($1, $2, $3, $4, 1)
				ON CONFLICT (key) DO NOTHING`, clinicKey, string(value), now, e.ActorID)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE settings SET value = $1, updated_at = $2, updated_by = $3, version = version + 1
				WHERE key = $4 AND version = $5`, string(value), now, e.ActorID, clinicKey, old.Version)
		}
		if err != nil {
			return fmt.Errorf("save clinic settings: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("error.conflict") // another admin saved first
		}
		in.Version = old.Version + 1
		e.Action, e.EntityType, e.EntityID, e.Outcome = "settings.update", "settings", clinicKey, audit.Success
		return audit.Record(ctx, tx, e)
	})
	return in, err
}
