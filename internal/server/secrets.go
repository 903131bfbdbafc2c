package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"time"

	"emr/internal/auth"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/push"
	"emr/internal/secret"
	"emr/internal/settings"
	"emr/internal/stores"
)

// checkSetting holds a value sealed under the key file, so that a start with another key
// file is refused before a second factor fails to open.
const checkSetting = "secret:check"

// sealedSettings are the settings stored sealed.
var sealedSettings = []string{push.KeysSetting, checkSetting}

// OpenSecrets opens the key file (making it on the first start of a database that has none),
// checks that it opens the database's sealed values, and seals or re-seals what is not yet
// under its current key.
func OpenSecrets(ctx context.Context, cfg config.Config, db *database.DB, stdout io.Writer) (*secret.Ring, error) {
	path, legacy := cfg.KeyFilePlace()
	if legacy {
		fmt.Fprintf(stdout, "WARNING: the secret key file %s is at its earlier place, beside the database (a copy of the database's folder takes the key with it): "+
			"move it to %s, or point EMR_SECRET_KEY_FILE at where you keep it.\n", path, config.DefaultKeyFile())
		slog.Warn("the secret key file is beside the database: move it", "file", path, "to", config.DefaultKeyFile())
	}
	store := settingsOf(db)
	check, err := store.Value(ctx, checkSetting)
	if err != nil {
		return nil, err
	}
	ring, err := secret.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && check != "":
		return nil, fmt.Errorf("this database's second factors and push secret are sealed with key %s, and the key file %s does not exist: "+
			"put the clinic's key file there (or point EMR_SECRET_KEY_FILE at it): it was kept with the backup identity", secret.SealedBy(check), path)
	case errors.Is(err, fs.ErrNotExist):
		if ring, err = secret.Create(path); err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, "Made the secret key file %s: keep a copy with the backup identity, away from this server.\n", path)
	case err != nil:
		return nil, err
	}
	if check == "" {
		if _, err := store.Once(ctx, checkSetting, ring.Seal(checkSetting, []byte("emr"))); err != nil {
			return nil, err
		}
	} else if _, err := ring.Open(checkSetting, check); err != nil {
		return nil, fmt.Errorf("the key file %s does not open this database's sealed secrets (they need key %s; the file holds %v): "+
			"point EMR_SECRET_KEY_FILE at the clinic's key file", path, secret.SealedBy(check), ring.IDs())
	}
	if err := Reseal(ctx, db, ring); err != nil {
		return nil, err
	}
	return ring, nil
}

// Reseal brings every sealed value under the ring's current key.
func Reseal(ctx context.Context, db *database.DB, ring *secret.Ring) error {
	n, err := auth.Reseal(ctx, db, ring)
	if err != nil {
		return err
	}
	m, err := settingsOf(db).Reseal(ctx, ring, sealedSettings...)
	if err != nil {
		return err
	}
	if n+m > 0 {
		slog.Info("secrets sealed under the current key", "key", ring.Current(), "values", n+m)
	}
	return nil
}

// KeyUse is what a key of the key file still protects in the database.
type KeyUse struct {
	TOTP, RecoveryCodes int64     // second factors sealed, unused recovery codes keyed
	Settings            []string  // sealed settings
	NewestArchive       time.Time // the newest archive it authenticated, as the database knows (zero: none)
}

// InUse reports whether anything in the database still needs the key.
func (u KeyUse) InUse(archives bool) bool {
	return u.TOTP > 0 || u.RecoveryCodes > 0 || len(u.Settings) > 0 || (archives && !u.NewestArchive.IsZero())
}

// KeyUses is what key id still protects: run after Reseal, only recovery codes (which cannot
// be re-keyed without the code) and archives keep a key that no longer seals.
func KeyUses(ctx context.Context, db *database.DB, id string) (KeyUse, error) {
	var u KeyUse
	var err error
	if u.TOTP, u.RecoveryCodes, err = auth.KeyUses(ctx, db, id); err != nil {
		return u, err
	}
	store := settingsOf(db)
	for _, name := range sealedSettings {
		v, err := store.Value(ctx, name)
		if err != nil {
			return u, err
		}
		if secret.SealedBy(v) == id {
			u.Settings = append(u.Settings, name)
		}
	}
	u.NewestArchive, _, err = archive.NewestAuthenticatedBy(ctx, db, id)
	return u, err
}

// CheckRestoredSecrets tells, after a restore, whether the key file opens the restored
// database's sealed secrets, and what to do when it does not.
func CheckRestoredSecrets(ctx context.Context, cfg config.Config, stdout io.Writer) error {
	db, err := database.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	check, err := settingsOf(db).Value(ctx, checkSetting)
	if err != nil || check == "" {
		return err
	}
	path := cfg.KeyFile()
	ring, err := secret.Load(path)
	if err == nil {
		_, err = ring.Open(checkSetting, check)
	}
	if err != nil {
		fmt.Fprintf(stdout, "NOTE: the restored second factors and push secret are sealed with key %s, which %s does not hold: "+
			"before serving, put the clinic's key file there or point EMR_SECRET_KEY_FILE at it\n", secret.SealedBy(check), path)
		return nil
	}
	fmt.Fprintf(stdout, "sealed secrets: key %s, in %s, opens them\n", secret.SealedBy(check), path)
	return nil
}

// settingsOf is the settings store on db, for the key file's checks before the server is
// built (and by the commands that rotate, retire and restore).
func settingsOf(db *database.DB) *settings.Store { return stores.New(db, stores.Clinic{}).Settings }
