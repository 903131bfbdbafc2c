package main

import (
	"context"
	"fmt"

	"emr/internal/config"
	"emr/internal/database"
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
			"Copy the new key file to where the backup identity is kept; running servers read it on their next use of a new key.\n",
			ring.Current(), old, ring.Path(), ring.IDs())
		return nil
	})
}
