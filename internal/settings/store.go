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
	"emr/internal/secret"
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

// Reseal brings the values stored under keys under ring's current key: sealed when stored
// plain, re-sealed when an earlier key sealed them (at start, and after `emr keys rotate`).
// It reports how many it changed.
func (s *Store) Reseal(ctx context.Context, ring *secret.Ring, keys ...string) (int, error) {
	changed := 0
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		for _, key := range keys {
			var value string
			err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&value)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return fmt.Errorf("read setting %s: %w", key, err)
			}
			sealed, ok, err := ring.Reseal(key, value)
			if err != nil {
				return fmt.Errorf("setting %s: %w", key, err)
			}
			if !ok {
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE settings SET value = $2 WHERE key = $1`, key, sealed); err != nil {
				return fmt.Errorf("seal setting %s: %w", key, err)
			}
			changed++
		}
		return nil
	})
	return changed, err
}

// Value is the value stored under key, "" when none is.
func (s *Store) Value(ctx context.Context, key string) (string, error) {
	var value string
	err := s.DB.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, err)
	}
	return value, nil
}

// ReadClinic returns the clinic's settings (empty ones until an admin sets them).
func ReadClinic(ctx context.Context, q database.Querier) (Clinic, error) {
	var c Clinic
	version, err := Read(ctx, q, clinicKey, &c)
	c.Version = version // the row's, not whatever the stored JSON says
	return c, err
}

// Read decodes the JSON value stored under key into v and returns its version: 0, and v
// untouched, when nothing is stored.
func Read(ctx context.Context, q database.Querier, key string, v any) (int, error) {
	var value string
	var version int
	err := q.QueryRowContext(ctx, `SELECT value, version FROM settings WHERE key = $1`, key).Scan(&value, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read setting %s: %w", key, err)
	}
	if err := json.Unmarshal([]byte(value), v); err != nil {
		return 0, fmt.Errorf("decode setting %s: %w", key, err)
	}
	return version, nil
}

// Save stores v under key in tx if version is still the stored one (0: none stored yet),
// else a conflict (another administrator saved first); it returns the new version and
// audits the change as e's, under e.Action: each caller names what its settings are (the
// clinic's details, the fees, the critical results), as the audit log then shows.
func Save(ctx context.Context, tx *sql.Tx, e audit.Event, key string, v any, version int) (int, error) {
	value, err := json.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("encode setting %s: %w", key, err)
	}
	now := time.Now().UTC()
	var res sql.Result
	if version == 0 {
		res, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, updated_by, version) VALUES ($1, $2, $3, $4, 1)
			ON CONFLICT (key) DO NOTHING`, key, string(value), now, e.ActorID)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE settings SET value = $1, updated_at = $2, updated_by = $3, version = version + 1
			WHERE key = $4 AND version = $5`, string(value), now, e.ActorID, key, version)
	}
	if err != nil {
		return 0, fmt.Errorf("save setting %s: %w", key, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, apperr.Conflict("error.conflict") // another admin saved first
	}
	e.EntityType, e.EntityID, e.Outcome = "settings", key, audit.Success
	return version + 1, audit.Record(ctx, tx, e)
}

// SaveClinic replaces the clinic's settings with in, if in.Version is still the stored one
// (else a conflict: another administrator saved first), and audits it as e's. A public
// address saved with no patient number system writes down the system derived from it: the
// clinic's numbers keep their system when the address changes later, so a receiving system's
// links to them hold (only an administrator's explicit change moves them).
func SaveClinic(ctx context.Context, db *database.DB, e audit.Event, in Clinic) (Clinic, error) {
	if err := in.clean(); err != nil {
		return Clinic{}, err
	}
	if in.NumberSystem == "" && in.PublicURL != "" {
		in.NumberSystem = in.PatientNumberSystem()
	}
	e.Action = "settings.update"
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		version, err := Save(ctx, tx, e, clinicKey, Clinic{Name: in.Name, Address: in.Address, Phone: in.Phone, TaxID: in.TaxID, PublicURL: in.PublicURL,
			NumberSystem: in.NumberSystem}, in.Version)
		if err != nil {
			return err
		}
		in.Version = version
		return database.KeepVersion(ctx, tx, ClinicVersionKind, ClinicRecordID, version, time.Now().UTC(), in)
	})
	return in, err
}

// ClinicVersionKind names the kept versions of the clinic's settings (database.KeepVersion),
// under the one record id ClinicRecordID.
const (
	ClinicVersionKind = "clinic"
	ClinicRecordID    = 1
)
