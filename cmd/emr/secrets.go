package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/secret"
	"emr/internal/server"
)

// cmdKeysRotate puts a new key first in the key file and re-seals every sealed value under
// it; the old keys stay in the file (they open what they sealed and check recovery codes).
func cmdKeysRotate(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	config.BindSecretKey(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		ring, err := server.OpenSecrets(ctx, cfg, db, in.stdout)
		if err != nil {
			return err
		}
		old := ring.Current()
		if err := ring.Rotate(); err != nil {
			return err
		}
		if err := server.Reseal(ctx, db, ring); err != nil {
			return err
		}
		fmt.Fprintf(in.stdout, "rotated: key %s now seals (was %s); every sealed value re-sealed; %s holds %v. "+
			"Copy the new key file to where the backup identity is kept; running servers sharing it seal under the new key from their next seal.\n",
			ring.Current(), old, ring.Path(), ring.IDs())
		return nil
	})
}

// cmdKeysRetire removes a key that no longer seals from the key file, once nothing in the
// database needs it: every sealed value is first re-sealed under the current key; a key that
// still keys unused recovery codes, or authenticated archives the clinic may restore, stays.
func cmdKeysRetire(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	config.BindSecretKey(in.fs, &cfg)
	archivesGone := in.fs.Bool("archives-gone", false, "retire the key although archives it authenticated were written: every one of them is deleted or no longer to be restored (they are refused after this)")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if in.fs.NArg() == 0 {
		return errors.New("keys retire needs the id of the key to retire (the key file lists them: emr-key-v1 ID …)")
	}
	id := in.fs.Arg(0)
	if err := in.fs.Parse(in.fs.Args()[1:]); err != nil { // flags after the id, too
		return err
	}
	if in.fs.NArg() != 0 {
		return fmt.Errorf("keys retire takes one key id, not %d", in.fs.NArg()+1)
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		ring, err := server.OpenSecrets(ctx, cfg, db, in.stdout) // re-seals every value under the current key
		if err != nil {
			return err
		}
		if !slices.Contains(ring.IDs(), id) {
			return fmt.Errorf("the key file %s holds no key %s (it holds %v)", ring.Path(), id, ring.IDs())
		}
		if id == ring.Current() {
			return fmt.Errorf("key %s cannot be retired: %w", id, secret.ErrCurrentKey)
		}
		use, err := server.KeyUses(ctx, db, id)
		if err != nil {
			return err
		}
		if use.InUse(!*archivesGone) {
			var why []string
			if use.TOTP > 0 || len(use.Settings) > 0 {
				why = append(why, fmt.Sprintf("%d second factors and %d settings are still sealed with it (they were not re-sealed: see the log)", use.TOTP, len(use.Settings)))
			}
			if use.RecoveryCodes > 0 {
				why = append(why, fmt.Sprintf("it keys %d unused recovery codes (they move to the current key when their owners make new codes, or an administrator resets their second factor)", use.RecoveryCodes))
			}
			if !use.NewestArchive.IsZero() && !*archivesGone {
				why = append(why, fmt.Sprintf("it authenticated archives, the newest written %s: keep it while you keep them, and once every one is deleted give --archives-gone", use.NewestArchive.Format(time.RFC3339)))
			}
			return fmt.Errorf("key %s is still in use: %s", id, strings.Join(why, "; "))
		}
		if err := ring.Retire(id); err != nil {
			return err
		}
		fmt.Fprintf(in.stdout, "retired: key %s is no longer in %s, which holds %v; nothing in the database needed it. "+
			"Copy the key file to where the backup identity is kept, and to every instance.\n", id, ring.Path(), ring.IDs())
		return nil
	})
}
