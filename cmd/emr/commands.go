package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/server"
	"emr/tools/demo"
)

// invocation is what a subcommand is run with: its own flag set, its arguments and the
// standard streams.
type invocation struct {
	fs             *flag.FlagSet
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
}

// commands are the subcommands, one function each.
var commands = map[string]func(ctx context.Context, in invocation) error{
	"serve":         cmdServe,
	"migrate":       cmdMigrate,
	"seed":          cmdSeed,
	"user create":   cmdUserCreate,
	"audit verify":  cmdAuditVerify,
	"backup":        cmdBackup,
	"restore":       cmdRestore,
	"copy":          cmdCopy,
	"keys rotate":   cmdKeysRotate,
	"keys retire":   cmdKeysRetire,
	"token create":  cmdTokenCreate,
	"token list":    cmdTokenList,
	"token revoke":  cmdTokenRevoke,
	"export":        cmdExport,
	"client create": cmdClientCreate,
	"client list":   cmdClientList,
	"client revoke": cmdClientRevoke,
	"client enable": cmdClientEnable,
	"version":       cmdVersion,
}

func cmdServe(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindServe(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if err := cfg.ValidateServe(); err != nil {
		return err
	}
	if err := server.CheckConfig(cfg); err != nil {
		return err
	}
	if _, err := archive.ParseRecipients(cfg.BackupRecipients); err != nil {
		return err
	}
	return serve(ctx, cfg, in.stdout)
}

// cmdMigrate applies pending migrations: withDB migrates on opening.
func cmdMigrate(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error { return nil })
}

func cmdSeed(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	n := in.fs.Int("patients", 0, "how many random demo patients to add")
	appts := in.fs.Int("appointments", 0, "how many appointments (with signed visits for the past ones) to add for the registered patients")
	events := in.fs.Int("audit-events", 0, "how many chained audit events (over the last two years, by the accounts about the patients) to add")
	bills := in.fs.Int("bills", 0, "how many final bills with their payments (over the last year) to add for the registered patients")
	results := in.fs.Int("results", 0, "how many lab results (five-analyte orders on the seeded completed visits) to add")
	reviewer := in.fs.Int64("results-reviewer", 0, "an account id that orders 1 in 100 seeded orders, all waiting for its review (a benchmark's long review queue)")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *n < 0 || *n > 10_000_000 {
		return errors.New("--patients must be between 0 and 10000000")
	}
	if *appts < 0 || *appts > 50_000_000 {
		return errors.New("--appointments must be between 0 and 50000000")
	}
	if *events < 0 || *events > 100_000_000 {
		return errors.New("--audit-events must be between 0 and 100000000")
	}
	if *results < 0 || *results > 100_000_000 {
		return errors.New("--results must be between 0 and 100000000")
	}
	if *bills < 0 || *bills > 10_000_000 {
		return errors.New("--bills must be between 0 and 10000000")
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		if err := printDemoStaff(ctx, st, in.stdout, true); err != nil {
			return err
		}
		if err := seedPatients(ctx, db, st, *n, in.stderr); err != nil {
			return err
		}
		if *appts > 0 {
			loc, err := cfg.Location()
			if err != nil {
				return err
			}
			if err := demo.Appointments(ctx, db, st.Users, loc, *appts, uint64(time.Now().UnixNano()), progressBar(in.stderr, "Demo appointments", *appts)); err != nil {
				return err
			}
		}
		if *events > 0 {
			if err := demo.AuditEvents(ctx, db, *events, uint64(time.Now().UnixNano()), progressBar(in.stderr, "Demo audit events", *events)); err != nil {
				return err
			}
		}
		if *bills > 0 {
			loc, err := cfg.Location()
			if err != nil {
				return err
			}
			if err := demo.Bills(ctx, db, st.Users, loc, *bills, uint64(time.Now().UnixNano()), progressBar(in.stderr, "Demo bills", *bills)); err != nil {
				return err
			}
		}
		if *results > 0 {
			if err := demo.EnsureSeedPanel(ctx, db); err != nil {
				return err
			}
			if err := demo.Results(ctx, db, *results, demo.ResultsOptions{Reviewer: *reviewer}, uint64(time.Now().UnixNano()), progressBar(in.stderr, "Demo results", *results)); err != nil {
				return err
			}
		}
		if *appts+*events+*bills+*results == 0 {
			return nil
		}
		return db.Analyze(ctx)
	})
}

func cmdUserCreate(ctx context.Context, in invocation) error {
	var cfg config.Config
	return userCreate(ctx, in.fs, &cfg, in.args, in.stdin, in.stdout)
}

func cmdAuditVerify(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error { return auditVerify(ctx, db, in.stdout) })
}

func cmdVersion(_ context.Context, in invocation) error {
	fmt.Fprintln(in.stdout, "emr", version)
	return nil
}
