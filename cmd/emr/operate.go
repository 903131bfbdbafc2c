package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/backups"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/secret"
	"emr/internal/server"
)

// archiveOptions are what the product adds to an archive: the audit chain's head, and what
// a restore rebuilds per engine; progress, when not nil, gets a progress bar.
func archiveOptions(progress io.Writer, label string) archive.Options {
	opt := backups.ArchiveOptions(version)
	if progress != nil {
		var bar func(int)
		opt.Progress = func(done, total int64) {
			if bar == nil {
				bar = progressBar(progress, label, int(total))
			}
			bar(int(done))
		}
	}
	return opt
}

func cmdBackup(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	config.BindRecipients(in.fs, "recipient", &cfg)
	config.BindSecretKey(in.fs, &cfg)
	to := in.fs.String("to", "", "file to write the archive to (must not exist)")
	plaintext := in.fs.Bool("plaintext", false, "write the archive unencrypted, on purpose: whoever holds it reads every record (with --verify: check a plain archive, on purpose)")
	verify := in.fs.String("verify", "", "check the archive FILE as a restore would — authenticated by the clinic's key file, decrypted, restored into a scratch database and its audit chain verified — without keeping it")
	identity := in.fs.String("identity", "", "with --verify: the age identity file that opens an encrypted archive")
	unauthenticated := in.fs.Bool("unauthenticated", false, "with --verify: check an archive that carries no tag of the clinic's key (an earlier version's), on purpose")
	scratch := in.fs.String("scratch", "", "with --verify: the folder for the scratch database (default: the system's temporary folder); it is removed after")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	switch {
	case *verify != "" && *to != "":
		return errors.New("backup takes --to FILE or --verify FILE, not both")
	case *verify != "":
		return verifyArchive(ctx, in, cfg, *verify, *identity, *plaintext, *unauthenticated, *scratch)
	case *to == "":
		return errors.New("backup needs --to FILE (or --verify FILE)")
	case *plaintext && len(cfg.BackupRecipients) > 0:
		return errors.New("backup takes --recipient or --plaintext, not both")
	}
	opt := archiveOptions(in.stderr, "Backing up")
	recipients, err := archive.ParseRecipients(cfg.BackupRecipients)
	if err != nil {
		return err
	}
	opt.Recipients, opt.RecipientNames, opt.Plaintext = recipients, cfg.BackupRecipients, *plaintext
	if len(recipients) == 0 && !*plaintext {
		return archive.ErrUnencrypted
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		ring, err := server.OpenSecrets(ctx, cfg, db, in.stdout)
		if err != nil {
			return err
		}
		opt.Keys = ring
		start := time.Now()
		w, err := archive.Write(ctx, db, *to, opt)
		if err != nil {
			return err
		}
		describeArchive(in.stdout, w.Manifest)
		fmt.Fprintf(in.stdout, "backup written to %s (%s) in %s, authenticated by key %s of %s\n", w.Path, size(w.Size), time.Since(start).Round(time.Millisecond), w.Manifest.Key, ring.Path())
		if len(recipients) == 0 {
			fmt.Fprintln(in.stdout, "WARNING: the archive is not encrypted: keep it where only the clinic's administrators can read it")
		}
		return nil
	})
}

// loadKeys opens the clinic's key file for reading archives; a missing one is nil when the
// caller reads an unauthenticated archive on purpose.
func loadKeys(cfg config.Config, unauthenticated bool) (*secret.Ring, error) {
	path := cfg.KeyFile()
	ring, err := secret.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		if unauthenticated {
			return nil, nil
		}
		return nil, fmt.Errorf("the secret key file %s does not exist: give the clinic's key file (--secret-key-file or EMR_SECRET_KEY_FILE), kept with the backup identity; it authenticates the clinic's archives", path)
	}
	return ring, err
}

// readOptions are archiveOptions for reading an archive: the identities of the age identity
// file at identity (none when ""), the key file, and what is read on purpose.
func readOptions(progress io.Writer, label string, cfg config.Config, identity string, plaintext, unauthenticated bool) (archive.Options, error) {
	opt := archiveOptions(progress, label)
	if identity != "" && plaintext {
		return opt, errors.New("--identity opens an encrypted archive and --plaintext reads a plain one on purpose: give one of them")
	}
	opt.Plaintext, opt.Unauthenticated = plaintext, unauthenticated
	keys, err := loadKeys(cfg, unauthenticated)
	if err != nil {
		return opt, err
	}
	opt.Keys = keys
	if identity != "" {
		opt.Identities, err = archive.ReadIdentities(identity)
	}
	return opt, err
}

// describeIdentity names the identity file and its public keys.
func describeIdentity(path string, ids []age.Identity) string {
	var pub []string
	for _, id := range ids {
		if x, ok := id.(*age.X25519Identity); ok {
			pub = append(pub, x.Recipient().String())
		}
	}
	return fmt.Sprintf("the identity in %s (%s)", path, strings.Join(pub, ", "))
}

// verifyArchive checks an archive as a restore would, into a scratch SQLite database that
// it removes, and says plainly what it checked rather than what the manifest claims.
func verifyArchive(ctx context.Context, in invocation, cfg config.Config, path, identity string, plaintext, unauthenticated bool, scratch string) error {
	opt, err := readOptions(in.stderr, "Checking", cfg, identity, plaintext, unauthenticated)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(scratch, "emr-verify-")
	if err != nil {
		return fmt.Errorf("make the scratch folder: %w", err)
	}
	defer os.RemoveAll(dir)
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(dir, "verify.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := archive.RestoreFile(ctx, db, path, opt)
	if err != nil {
		return err
	}
	m := rep.Manifest
	describeArchive(in.stdout, m)
	if m.Key != "" {
		fmt.Fprintf(in.stdout, "authenticated: by this clinic's key %s (in %s): the tag over every line of the archive verifies\n", m.Key, opt.Keys.Path())
	} else {
		fmt.Fprintln(in.stdout, "NOT authenticated: the archive carries no tag of the clinic's key (read on purpose, --unauthenticated): whoever holds the public recipient could have made it")
	}
	if len(opt.Identities) > 0 {
		fmt.Fprintf(in.stdout, "decrypted: with %s; its encryption authenticates every byte\n", describeIdentity(identity, opt.Identities))
	} else {
		fmt.Fprintln(in.stdout, "NOT encrypted (read on purpose, --plaintext): whoever holds it reads every record")
	}
	fmt.Fprintf(in.stdout, "restored into a scratch database (removed now): %d rows in %d tables, each table's row count and content match the archive's\n", rep.Rows, len(m.Tables))
	r, err := audit.Verify(ctx, db)
	if err != nil {
		return err
	}
	if r.Broken != nil {
		return fmt.Errorf("the archive's audit chain is broken at event %d: %s", r.Broken.Seq, r.Broken.Reason)
	}
	if r.Head != m.Audit.Hash {
		return fmt.Errorf("the archive's audit chain ends at %s, and its manifest says %s", r.Head, m.Audit.Hash)
	}
	fmt.Fprintf(in.stdout, "audit chain: %d events recomputed from the first; head %s, the one the archive carries\n", r.Checked, r.Head)
	fmt.Fprintln(in.stdout, "OK: the archive restores")
	return nil
}

// describeArchive prints what an archive holds.
func describeArchive(w io.Writer, m archive.Manifest) {
	fmt.Fprintf(w, "archive of a %s database at schema %d, taken %s by EMR %s: %d rows in %d tables; audit chain head %d %s\n",
		m.Engine, m.Schema, m.Created.Format(time.RFC3339), m.App, m.Rows(), len(m.Tables), m.Audit.Seq, m.Audit.Hash)
	if len(m.Recipients) > 0 {
		fmt.Fprintf(w, "encrypted to %s\n", strings.Join(m.Recipients, ", "))
	}
	if len(m.Ephemeral) > 0 {
		fmt.Fprintf(w, "left out (they start empty): %s\n", strings.Join(m.Ephemeral, ", "))
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func cmdRestore(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	config.BindSecretKey(in.fs, &cfg)
	from := in.fs.String("from", "", "the archive to restore (written by emr backup)")
	identity := in.fs.String("identity", "", "the age identity file that opens an encrypted archive (keep it off the server)")
	plaintext := in.fs.Bool("plaintext", false, "restore an archive that is not encrypted, on purpose (not with --identity)")
	unauthenticated := in.fs.Bool("unauthenticated", false, "restore an archive that carries no tag of the clinic's key — an earlier version's, or anyone's who holds the public recipient — on purpose; audited")
	keepTokens := in.fs.Bool("keep-tokens", false, "keep the archive's API tokens and backend clients working: only when the restored database replaces the clinic's own (a drill or staging copy must not accept them)")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *from == "" {
		return errors.New("restore needs --from FILE and --database-url of a new, empty database")
	}
	opt, err := readOptions(in.stderr, "Restoring", cfg, *identity, *plaintext, *unauthenticated)
	if err != nil {
		return err
	}
	at := time.Now().UTC()
	var ended auth.Restored
	if !*keepTokens {
		opt.After = append(opt.After, func(ctx context.Context, q database.Querier, engine database.Engine) error {
			var err error
			ended, err = auth.EndRestoredCredentials(ctx, q, engine, at)
			return err
		})
	}
	var m archive.Manifest
	err = withTarget(ctx, cfg.DatabaseURL, func(db *database.DB) (archive.Report, error) {
		rep, err := archive.RestoreFile(ctx, db, *from, opt)
		m = rep.Manifest
		return rep, err
	}, in.stdout)
	if err != nil {
		return err
	}
	if m.Key != "" {
		fmt.Fprintf(in.stdout, "authenticated: by this clinic's key %s (in %s)\n", m.Key, opt.Keys.Path())
	} else {
		fmt.Fprintln(in.stdout, "WARNING: restored an archive NOT authenticated by the clinic's key (--unauthenticated): whoever held the public recipient could have made it; the restore is audited so")
	}
	if len(m.Recipients) == 0 {
		fmt.Fprintln(in.stdout, "NOTE: the archive was not encrypted: use it only if it never left the clinic's hands")
	}
	if err := recordRestore(ctx, cfg, *from, m, ended, *keepTokens, in.stdout); err != nil {
		return err
	}
	return server.CheckRestoredSecrets(ctx, cfg, in.stdout)
}

// recordRestore says why the restore ended the credentials it ended, and audits the restore:
// the archive, whether it was authenticated, and what became of the tokens.
func recordRestore(ctx context.Context, cfg config.Config, from string, m archive.Manifest, ended auth.Restored, kept bool, stdout io.Writer) error {
	db, err := database.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	e := cliEvent
	e.EntityID = filepath.Base(from)
	e.Detail = fmt.Sprintf("archive %s taken %s", filepath.Base(from), m.Created.Format(time.RFC3339))
	if m.Key != "" {
		e.Detail += ", authenticated by key " + m.Key
	} else {
		e.Detail += ", NOT authenticated (--unauthenticated)"
	}
	if kept {
		e.Detail += "; tokens and backend clients kept (--keep-tokens)"
	} else {
		e.Detail += "; " + auth.RestoredDetail(ended)
	}
	if err := db.Tx(ctx, func(tx *sql.Tx) error { return auth.MarkRestored(ctx, tx, ended, e) }); err != nil {
		return err
	}
	if _, err := audit.SealPending(ctx, db); err != nil {
		return err
	}
	if kept {
		fmt.Fprintln(stdout, "tokens: the archive's API tokens and backend clients still work (--keep-tokens): this database is to serve the clinic itself")
	} else {
		fmt.Fprintf(stdout, "tokens: %s — a copy does not accept the clinic's credentials (emr client enable ID lets a client in again; --keep-tokens keeps them all)\n", auth.RestoredDetail(ended))
	}
	fmt.Fprintln(stdout, "audited: the restore is in the restored audit log")
	return nil
}

func cmdCopy(ctx context.Context, in invocation) error {
	from := in.fs.String("from", "", "the database to copy: sqlite:PATH or postgres://… (it is only read)")
	to := in.fs.String("to", "", "a new, empty database to copy into: postgres://… or sqlite:PATH")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return errors.New("copy needs --from URL and --to URL (a new, empty database)")
	}
	if engine, path, err := database.ParseURL(*from); err != nil {
		return err
	} else if _, err := os.Stat(path); engine == database.SQLite && err != nil {
		return fmt.Errorf("the database to copy: %w", err)
	}
	src, err := database.Open(ctx, *from)
	if err != nil {
		return err
	}
	defer src.Close()
	return withTarget(ctx, *to, func(db *database.DB) (archive.Report, error) {
		return archive.Copy(ctx, src, db, archiveOptions(in.stderr, "Copying"))
	}, in.stdout)
}

// withTarget opens the target database without migrating it (a restore makes its schema),
// runs fn, and reports what it loaded and what `emr audit verify` finds on the result.
func withTarget(ctx context.Context, url string, fn func(db *database.DB) (archive.Report, error), stdout io.Writer) error {
	db, err := database.Open(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := fn(db)
	if err != nil {
		return err
	}
	describeArchive(stdout, rep.Manifest)
	fmt.Fprintf(stdout, "loaded %d rows into the %s database in %s: each table's row count and content match the archive's; migrated to schema %d\n",
		rep.Rows, db.Engine, rep.Took.Round(time.Millisecond), rep.Schema)
	r, err := audit.Verify(ctx, db)
	if err != nil {
		return err
	}
	if r.Broken != nil || r.Head != rep.Manifest.Audit.Hash {
		if err := auditVerify(ctx, db, stdout); err != nil {
			return err
		}
		return fmt.Errorf("the audit chain's head is %s, and was %s in the archive", r.Head, rep.Manifest.Audit.Hash)
	}
	fmt.Fprintf(stdout, "audit verify: OK, %d events, chain intact; head %s, the archive's\n", r.Checked, r.Head)
	return nil
}
