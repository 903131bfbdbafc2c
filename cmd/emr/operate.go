package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"emr/internal/audit"
	"emr/internal/backups"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/archive"
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
	to := in.fs.String("to", "", "file to write the archive to (must not exist)")
	plaintext := in.fs.Bool("plaintext", false, "write the archive unencrypted, on purpose: whoever holds it reads, and can change, every record")
	verify := in.fs.String("verify", "", "check the archive FILE (its encryption, checksum, every table's rows) without restoring it")
	identity := in.fs.String("identity", "", "with --verify: the age identity file that opens an encrypted archive")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	switch {
	case *verify != "" && *to != "":
		return errors.New("backup takes --to FILE or --verify FILE, not both")
	case *verify != "":
		opt, err := readOptions(in.stderr, "Checking", *identity)
		if err != nil {
			return err
		}
		m, _, err := archive.VerifyFile(*verify, opt.Identities, opt.Progress)
		if err != nil {
			return err
		}
		describeArchive(in.stdout, m)
		if len(m.Recipients) > 0 {
			fmt.Fprintln(in.stdout, "OK: the archive is whole (its encryption authenticates every byte; checksum and every table's rows verified)")
		} else {
			fmt.Fprintln(in.stdout, "OK: the archive is whole (checksum and every table's rows verified); it is NOT encrypted: its checksum shows damage, not a deliberate change")
		}
		return nil
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
		start := time.Now()
		w, err := archive.Write(ctx, db, *to, opt)
		if err != nil {
			return err
		}
		describeArchive(in.stdout, w.Manifest)
		fmt.Fprintf(in.stdout, "backup written to %s (%s) in %s\n", w.Path, size(w.Size), time.Since(start).Round(time.Millisecond))
		if len(recipients) == 0 {
			fmt.Fprintln(in.stdout, "WARNING: the archive is not encrypted: keep it where only the clinic's administrators can read it")
		}
		return nil
	})
}

// readOptions are archiveOptions with the identities of the age identity file at path (none
// when path is "").
func readOptions(progress io.Writer, label, path string) (archive.Options, error) {
	opt := archiveOptions(progress, label)
	if path == "" {
		return opt, nil
	}
	ids, err := archive.ReadIdentities(path)
	opt.Identities = ids
	return opt, err
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
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *from == "" {
		return errors.New("restore needs --from FILE and --database-url of a new, empty database")
	}
	opt, err := readOptions(in.stderr, "Restoring", *identity)
	if err != nil {
		return err
	}
	plain := false
	err = withTarget(ctx, cfg.DatabaseURL, func(db *database.DB) (archive.Report, error) {
		rep, err := archive.RestoreFile(ctx, db, *from, opt)
		plain = len(rep.Manifest.Recipients) == 0
		return rep, err
	}, in.stdout)
	if err != nil {
		return err
	}
	if plain {
		fmt.Fprintln(in.stdout, "NOTE: the archive was not encrypted: its checksum shows damage, not a deliberate change; use it only if it never left the clinic's hands")
	}
	return server.CheckRestoredSecrets(ctx, cfg, in.stdout)
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
