package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// Store is the only reader and writer of the settings table: the clinic's header, and values
// other parts keep there through Once (the push keys).
type Store struct{ DB *database.DB }

// Once stores value under key unless a value is there already, and returns the stored one
// (whichever instance wrote first).
func (s *Store) Once(ctx context.Context, key, value string) (string, error) {
	if _, err := s.DB.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
		key, value, time.Now().UTC()); err != nil {
		return "", fmt.Errorf("store setting %s: %w", key, err)
	}
	var stored string
	if err := s.DB.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&stored); err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, err)
	}
	return stored, nil
}

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
