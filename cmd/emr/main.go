// Command emr is the EMR server and its operator tools: serve, migrate, seed, user create,
// audit verify, backup, restore, copy and version. Run `emr --help` for every flag and environment variable.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/server"
	"emr/internal/stores"
	"emr/internal/user"
	"emr/tools/demo"
	"emr/web"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			if barOpen {
				fmt.Fprintln(os.Stderr)
			}
			fmt.Fprintln(os.Stderr, "emr:", err)
		}
		os.Exit(2)
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `EMR — electronic medical records for outpatient clinics.

Usage: emr COMMAND [flags]

Commands:
  serve         start the web server (runs pending migrations first)
  migrate       apply pending database migrations and exit
  seed          add demo staff to an empty database (passwords printed once); --patients N adds N
                random patients, --appointments N appointments with visits, --bills N bills with payments, --results N lab results, --audit-events N
                chained audit events, each with a progress bar
  user create   create an account: --username NAME --name "Full Name" --role ROLE [--role ROLE…];
                the password is read from standard input (one line)
  token create  make an API token for an account, printed as the last line (shown once):
                --user USERNAME --name NAME [--scope S …] [--expires 90d]
  token list    list API tokens (--user USERNAME for one account's), their last use and state
  token revoke  revoke an API token at once: emr token revoke ID
  export        write the clinic's records as FHIR R4 NDJSON files, one per type, into a new
                folder: --to DIR [--type Patient,Observation] [--since 2026-01-01T00:00:00Z] [--doctor USERNAME]
  client create register a backend client (SMART Backend Services), its client_id printed as the
                last line: --name NAME --scope system/Patient.rs [--scope …] --jwks-file FILE
  client list   list the backend clients, their keys, scopes and last token
  client revoke revoke a backend client at once: emr client revoke ID
  client enable let a backend client a restore ended ask for tokens again: emr client enable ID
  audit verify  check the audit log's hash chain from its first event; reports the first event
                changed, removed or inserted outside the product and exits with status 1
  backup        write an archive of the whole database, from a live server, on either engine,
                encrypted to age public keys and authenticated by the secret key file: --to FILE
                --recipient age1… (or --plaintext on purpose); --verify FILE --identity KEYFILE
                checks an archive as a restore would, into a scratch database
  restore       load an archive into a new, empty database of either engine, check its
                authentication, every table and the audit chain, and migrate it: --from FILE
                --identity KEYFILE --database-url URL; it ends the archive's API tokens and
                backend clients unless --keep-tokens
  keys rotate   put a new key first in the secret key file and re-seal the second factors and
                the push secret under it
  keys retire   remove a key that no longer seals from the key file, once nothing uses it:
                emr keys retire ID
  copy          copy a database into a new, empty one, on the same or the other engine:
                --from sqlite:./data/emr.db --to postgres://…
  version       print the version

Run "emr COMMAND --help" for the flags of a command.

Environment variables (each is the default of the flag beside it):
`)
	for _, e := range config.Env {
		fmt.Fprintf(w, "  %-22s %-20s %s\n", e[0], e[1], e[2])
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	privateUmask()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return errors.New("no command given")
		}
		return nil
	}
	cmd, rest := args[0], args[1:]
	if cmd == "user" {
		if len(rest) == 0 || rest[0] != "create" {
			return errors.New(`unknown command; did you mean "emr user create"?`)
		}
		cmd, rest = "user create", rest[1:]
	}
	if cmd == "client" {
		if len(rest) == 0 || (rest[0] != "create" && rest[0] != "list" && rest[0] != "revoke" && rest[0] != "enable") {
			return errors.New(`unknown command; did you mean "emr client create", "emr client list", "emr client revoke" or "emr client enable"?`)
		}
		cmd, rest = "client "+rest[0], rest[1:]
	}
	if cmd == "token" {
		if len(rest) == 0 || (rest[0] != "create" && rest[0] != "list" && rest[0] != "revoke") {
			return errors.New(`unknown command; did you mean "emr token create", "emr token list" or "emr token revoke"?`)
		}
		cmd, rest = "token "+rest[0], rest[1:]
	}
	if cmd == "keys" {
		if len(rest) == 0 || (rest[0] != "rotate" && rest[0] != "retire") {
			return errors.New(`unknown command; did you mean "emr keys rotate" or "emr keys retire"?`)
		}
		cmd, rest = "keys "+rest[0], rest[1:]
	}
	if cmd == "audit" {
		if len(rest) == 0 || rest[0] != "verify" {
			return errors.New(`unknown command; did you mean "emr audit verify"?`)
		}
		cmd, rest = "audit verify", rest[1:]
	}
	command, ok := commands[cmd]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", cmd)
	}
	fs := flag.NewFlagSet("emr "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return command(ctx, invocation{fs: fs, args: rest, stdin: stdin, stdout: stdout, stderr: stderr})
}

// withDB validates the database settings, opens and migrates the database, and runs fn.
func withDB(ctx context.Context, cfg config.Config, fn func(db *database.DB) error) error {
	if err := cfg.ValidateDatabase(); err != nil {
		return err
	}
	setupLogging(cfg)
	db, err := database.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		slog.Info("migrations applied", "count", n, "engine", db.Engine)
	}
	if err := catalogue.InstallStarter(ctx, db); err != nil {
		return err
	}
	err = fn(db)
	// What a command wrote to the audit log is chained before it ends, as the server's
	// sealer does for requests (and at its own shutdown).
	if _, serr := audit.SealPending(context.WithoutCancel(ctx), db); serr != nil && err == nil {
		err = serr
	}
	return err
}

func setupLogging(cfg config.Config) {
	var h slog.Handler = slog.NewTextHandler(os.Stderr, nil)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, nil)
	}
	slog.SetDefault(slog.New(h))
}

// storesOf is every store on db for a command, wired as the server's (stores.New), in the
// machine's zone (only emr serve takes --timezone); no patient is told of what a command
// writes (stores.Clinic.Tell is off).
func storesOf(db *database.DB, cfg config.Config) *stores.Set {
	loc, err := cfg.Location()
	if err != nil {
		loc = time.Local // only emr serve takes a zone, and ValidateServe has refused a bad one
	}
	return stores.New(db, stores.Clinic{Loc: loc})
}

func printDemoStaff(ctx context.Context, st *stores.Set, w io.Writer, explainSkip bool) error {
	creds, err := demo.Staff(ctx, st.Users)
	if err != nil {
		return err
	}
	if creds == nil {
		if explainSkip {
			fmt.Fprintln(w, "The database has accounts already; no demo staff were added.")
		}
		return nil
	}
	fmt.Fprintln(w, "Demo staff accounts (these passwords are shown only this once):")
	for _, c := range creds {
		fmt.Fprintf(w, "  %-14s %-16s password: %s\n", c.Username, "("+c.Role+")", c.Password)
	}
	return nil
}

// demoPatients is how many patients --demo adds to an empty register.
const demoPatients = 300

func seedPatients(ctx context.Context, db *database.DB, st *stores.Set, n int, progress io.Writer) error {
	if n == 0 {
		return nil
	}
	if err := demo.Patients(ctx, st.Patients, n, uint64(time.Now().UnixNano()), progressBar(progress, "Demo patients", n)); err != nil {
		return err
	}
	return db.Analyze(ctx) // fresh statistics, so the first searches already get good plans
}

// demoQueue books today's demo queue with the demo doctor, when that account exists.
func demoQueue(ctx context.Context, st *stores.Set) error {
	doctorID, err := st.Users.IDOf(ctx, "doctor")
	if errors.Is(err, apperr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return demo.Today(ctx, st.Appointments, doctorID)
}

func serve(ctx context.Context, cfg config.Config, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	tighten(cfg)
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		if cfg.Demo {
			if err := printDemoStaff(ctx, st, stdout, false); err != nil {
				return err
			}
			patients, err := st.Patients.ActiveCount(ctx)
			if err != nil {
				return err
			}
			if patients == 0 {
				if err := seedPatients(ctx, db, st, demoPatients, stdout); err != nil {
					return err
				}
				if err := demoQueue(ctx, st); err != nil {
					return err
				}
			}
		}
		if n, err := st.Users.Count(ctx); err != nil {
			return err
		} else if n == 0 {
			fmt.Fprintln(stdout, `No accounts yet. Create the first administrator with:
  emr user create --username admin --name "Your Name" --role admin   (then type the password)`)
		}
		// Fresh planner statistics: ones taken when tables were small make queries scan them.
		if err := db.Analyze(ctx); err != nil {
			return err
		}
		ring, err := server.OpenSecrets(ctx, cfg, db, stdout)
		if err != nil {
			return err
		}
		cfg.Version, cfg.Secrets = version, ring
		app := server.New(cfg, db, web.Dist())
		l, err := listen(cfg, app.Handler, stdout, db.Engine)
		if err != nil {
			return err
		}
		go app.Push.Run(ctx) // events from the other instances, or to the provider
		// The sealer, the compactors and scheduled backups stop after the last request has
		// been answered.
		background, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
		backgroundDone := app.Background(background)
		defer func() { stopBackground(); <-backgroundDone }()
		select {
		case err := <-l.errc:
			return err
		case <-ctx.Done():
			slog.Info("shutting down")
			// Stop accepting, let the requests in flight finish (bounded), then send the push
			// sockets to reconnect (to another instance behind a load balancer).
			shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			err := l.shutdown(shutdownCtx)
			sockets, done := context.WithTimeout(context.Background(), 2*time.Second)
			defer done()
			app.CloseSockets(sockets)
			return err
		}
	})
}

type roleList []string

func (r *roleList) String() string     { return strings.Join(*r, ",") }
func (r *roleList) Set(v string) error { *r = append(*r, v); return nil }

func userCreate(ctx context.Context, fs *flag.FlagSet, cfg *config.Config, args []string, stdin io.Reader, stdout io.Writer) error {
	config.BindDatabase(fs, cfg)
	username := fs.String("username", "", "login name (required)")
	name := fs.String("name", "", "full name (required)")
	email := fs.String("email", "", "e-mail address")
	var roles roleList
	fs.Var(&roles, "role", "role to grant: admin, doctor, nurse or receptionist (repeatable; at least one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *username == "" || *name == "" || len(roles) == 0 {
		return errors.New(`user create needs --username, --name and at least one --role`)
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read the password from standard input: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	return withDB(ctx, *cfg, func(db *database.DB) error {
		u, err := storesOf(db, *cfg).Users.Create(ctx, user.NewUser{Username: *username, Name: *name, Email: *email, Roles: roles, Password: password,
			Audit: &audit.Event{ActorName: "(command line)", Address: "local"}})
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "created user %s (id %d) with roles %s\n", u.Username, u.ID, strings.Join(u.Roles, ", "))
		return nil
	})
}

// errChainBroken makes "emr audit verify" exit non-zero after it has said where.
var errChainBroken = errors.New("the audit log has been tampered with")

func auditVerify(ctx context.Context, db *database.DB, stdout io.Writer) error {
	r, err := audit.Verify(ctx, db)
	if err != nil {
		return err
	}
	if r.Legacy > 0 {
		fmt.Fprintf(stdout, "%d events predate the hash chain and are not covered by it\n", r.Legacy)
	}
	if r.Unsealed > 0 {
		fmt.Fprintf(stdout, "%d events are waiting to be chained (the oldest for %s)", r.Unsealed, r.OldestUnsealed.Round(time.Millisecond))
		if r.OldestUnsealed > audit.SealBound {
			fmt.Fprintf(stdout, ": WARNING, longer than %s: is a server's sealer running?", audit.SealBound)
		}
		fmt.Fprintln(stdout)
	}
	if r.Late > 0 {
		fmt.Fprintf(stdout, "WARNING: %d events were chained more than %s after their time, the first at event %d (after a crash, the next start chains what was left; otherwise an event was written late or back-dated)\n",
			r.Late, audit.SealBound, r.FirstLate)
	}
	if r.Broken != nil {
		fmt.Fprintf(stdout, "BROKEN at event %d", r.Broken.Seq)
		if r.Broken.ID != 0 {
			fmt.Fprintf(stdout, " (row id %d)", r.Broken.ID)
		}
		fmt.Fprintf(stdout, ": %s; %d events before it are intact\n", r.Broken.Reason, r.Checked)
		return errChainBroken
	}
	fmt.Fprintf(stdout, "OK: %d events, chain intact; head %s\n", r.Checked, r.Head)
	return nil
}
