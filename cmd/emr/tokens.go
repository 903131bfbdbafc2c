package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/fhir"
	"emr/internal/stores"
	"emr/internal/user"
)

// cliEvent is who acts from the command line: the operator, at the machine.
var cliEvent = audit.Event{ActorName: "(command line)", Address: "local"}

func apiTokens(db *database.DB, st *stores.Set) *auth.APITokens {
	return &auth.APITokens{DB: db, Sessions: &auth.Sessions{DB: db, Identities: st.Users}}
}

// parseLifetime reads a token's lifetime: a Go duration ("720h") or a number of days ("90d").
func parseLifetime(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("--expires %q: write a number of days (90d) or hours (720h)", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("--expires %q: write a number of days (90d) or hours (720h)", s)
	}
	return d, nil
}

// cmdTokenCreate makes an API token for an account and prints it as its last line.
func cmdTokenCreate(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	username := in.fs.String("user", "", "the account the token acts as (required)")
	name := in.fs.String("name", "", "what the token is for, e.g. \"lab interface\" (required)")
	var scopes roleList
	in.fs.Var(&scopes, "scope", "a SMART scope narrowing the token, e.g. user/*.rs or user/Observation.cruds (repeatable; none: the account's whole access)")
	expires := in.fs.String("expires", "90d", "how long the token lives: days (90d) or hours (720h), at most 730d")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *username == "" || *name == "" {
		return errors.New("token create needs --user and --name")
	}
	lifetime, err := parseLifetime(*expires)
	if err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		id, err := st.Users.IDOf(ctx, *username)
		if err != nil {
			return describe(err)
		}
		// The epoch before the account's being active, as the web app's route reads them: a
		// deactivation committing before the insert refuses the token.
		epoch, err := auth.CredentialEpoch(ctx, db, id)
		if err != nil {
			return err
		}
		if ok, err := user.Active(ctx, db, id); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("the account %s is deactivated", *username)
			}
			return err
		}
		token, k, err := apiTokens(db, st).Create(ctx, cliEvent, auth.NewAPIToken{UserID: id, Name: *name, Scopes: strings.Join(scopes, " "), Lifetime: lifetime, Epoch: &epoch})
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(in.stdout, "token %d %q for %s, expires %s; shown this once:\n", k.ID, k.Name, *username, k.ExpiresAt.Format(time.DateOnly))
		fmt.Fprintln(in.stdout, token)
		return nil
	})
}

// cmdTokenList lists the API tokens, of one account or all.
func cmdTokenList(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	username := in.fs.String("user", "", "only this account's tokens")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		var owner int64
		if *username != "" {
			id, err := st.Users.IDOf(ctx, *username)
			if err != nil {
				return describe(err)
			}
			owner = id
		}
		list, err := apiTokens(db, st).List(ctx, owner)
		if err != nil {
			return err
		}
		ids := make([]int64, len(list))
		for i, k := range list {
			ids[i] = k.UserID
		}
		logins, err := user.Logins(ctx, db, ids)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(in.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tACCOUNT\tNAME\tSCOPES\tEXPIRES\tLAST USED\tSTATE")
		for _, k := range list {
			state := "live"
			switch {
			case k.RevokedAt != nil:
				state = "revoked " + k.RevokedAt.Format(time.DateOnly)
			case !k.ExpiresAt.After(time.Now()):
				state = "expired"
			}
			used := "never"
			if k.LastUsedAt != nil {
				used = k.LastUsedAt.Format("2006-01-02 15:04") + " from " + k.LastUsedAddress
			}
			scopes := k.Scopes
			if scopes == "" {
				scopes = "(the account's access)"
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, logins[k.UserID].Username, k.Name, scopes, k.ExpiresAt.Format(time.DateOnly), used, state)
		}
		return w.Flush()
	})
}

// cmdTokenRevoke revokes a token by its id.
func cmdTokenRevoke(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if in.fs.NArg() != 1 {
		return errors.New("token revoke needs the token's id (emr token list shows it)")
	}
	id, err := strconv.ParseInt(in.fs.Arg(0), 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a token id", in.fs.Arg(0))
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		k, err := apiTokens(db, st).Revoke(ctx, cliEvent, id, 0)
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(in.stdout, "revoked token %d %q\n", k.ID, k.Name)
		return nil
	})
}

// cmdClientCreate registers a backend client and prints its client_id as the last line.
func cmdClientCreate(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	name := in.fs.String("name", "", "the system, e.g. \"Health ministry registry\" (required)")
	var scopes roleList
	in.fs.Var(&scopes, "scope", "a system/ scope it may be given, e.g. system/Patient.rs (repeatable, or several in one; at least one)")
	jwksFile := in.fs.String("jwks-file", "", "a file with the client's public keys as a JWK Set (required)")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *name == "" || *jwksFile == "" || len(scopes) == 0 {
		return errors.New("client create needs --name, --scope and --jwks-file")
	}
	jwks, err := os.ReadFile(*jwksFile)
	if err != nil {
		return fmt.Errorf("read the JWK Set: %w", err)
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		k, err := (&auth.Clients{DB: db}).Register(ctx, cliEvent, auth.NewClient{Name: *name, Scopes: strings.Join(scopes, " "), JWKS: string(jwks)})
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(in.stdout, "client %d %q with scopes %s and keys %s; its client_id:\n", k.ID, k.Name, k.Scopes, strings.Join(k.Keys, ", "))
		fmt.Fprintln(in.stdout, k.ClientID)
		return nil
	})
}

// cmdClientList lists the backend clients.
func cmdClientList(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		clients := &auth.Clients{DB: db}
		list, err := clients.List(ctx)
		if err != nil {
			return err
		}
		restored, err := clients.EndedByRestore(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(in.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tCLIENT_ID\tNAME\tSCOPES\tKEYS\tLAST TOKEN\tSTATE")
		for _, k := range list {
			state, used := "live", "never"
			if k.RevokedAt != nil {
				state = "revoked " + k.RevokedAt.Format(time.DateOnly)
				if restored[k.ID] {
					state = "ended by a restore " + k.RevokedAt.Format(time.DateOnly) + " (emr client enable " + strconv.FormatInt(k.ID, 10) + ")"
				}
			}
			if k.LastUsedAt != nil {
				used = k.LastUsedAt.Format("2006-01-02 15:04") + " from " + k.LastUsedAddress
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.ClientID, k.Name, k.Scopes, strings.Join(k.Keys, ","), used, state)
		}
		return w.Flush()
	})
}

// cmdClientRevoke revokes a backend client by its id.
func cmdClientRevoke(ctx context.Context, in invocation) error {
	return onClient(ctx, in, "revoke", (*auth.Clients).Revoke, "revoked client %d %q\n")
}

// cmdClientEnable lets a backend client a restore ended ask for tokens again, on the
// restored database that now serves the clinic.
func cmdClientEnable(ctx context.Context, in invocation) error {
	return onClient(ctx, in, "enable", (*auth.Clients).EnableRestored, "enabled client %d %q: it may ask for tokens again\n")
}

// onClient runs act, audited as the command line's, on the backend client whose id is the
// command's one argument, and says what was done (done takes the client's id and name).
func onClient(ctx context.Context, in invocation, verb string, act func(*auth.Clients, context.Context, audit.Event, int64) (auth.Client, error), done string) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if in.fs.NArg() != 1 {
		return fmt.Errorf("client %s needs the client's id (emr client list shows it)", verb)
	}
	id, err := strconv.ParseInt(in.fs.Arg(0), 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a client id", in.fs.Arg(0))
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		clients := &auth.Clients{DB: db}
		if _, err := clients.Get(ctx, id); err != nil {
			return describe(err)
		}
		k, err := act(clients, ctx, cliEvent, id)
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(in.stdout, done, k.ID, k.Name)
		return nil
	})
}

// cmdExport writes the clinic's records as FHIR R4 NDJSON files, one per resource type, into
// a new folder: the bulk export, offline.
func cmdExport(ctx context.Context, in invocation) error {
	var cfg config.Config
	config.BindDatabase(in.fs, &cfg)
	dir := in.fs.String("to", "", "a folder to create for the files (required; it must not exist, or be empty)")
	types := in.fs.String("type", "", "the resource types, comma-separated (default: "+strings.Join(fhir.ExportTypes, ",")+")")
	since := in.fs.String("since", "", "only what changed at or after this instant (RFC 3339, e.g. 2026-01-01T00:00:00Z)")
	doctor := in.fs.String("doctor", "", "only the patients of this doctor (a username)")
	if err := in.fs.Parse(in.args); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("export needs --to DIR")
	}
	spec := fhir.ExportSpec{Types: fhir.ExportTypes}
	if *types != "" {
		spec.Types = nil
		for _, kind := range strings.Split(*types, ",") {
			if !slices.Contains(fhir.ExportTypes, strings.TrimSpace(kind)) {
				return fmt.Errorf("--type %q: the types are %s", kind, strings.Join(fhir.ExportTypes, ", "))
			}
			spec.Types = append(spec.Types, strings.TrimSpace(kind))
		}
	}
	if *since != "" {
		t, err := time.Parse(time.RFC3339Nano, *since)
		if err != nil {
			return fmt.Errorf("--since %q: write an instant such as 2026-01-01T00:00:00Z", *since)
		}
		spec.Since = &t
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return err
	}
	if entries, err := os.ReadDir(*dir); err != nil || len(entries) > 0 {
		return fmt.Errorf("--to %s must be a new or empty folder", *dir)
	}
	return withDB(ctx, cfg, func(db *database.DB) error {
		st := storesOf(db, cfg)
		if *doctor != "" {
			var err error
			if spec.GroupDoctor, err = st.Users.IDOf(ctx, *doctor); err != nil {
				return describe(err)
			}
		}
		h := &fhir.Handler{DB: db, Patients: st.Patients, Visits: st.Appointments, Prescriptions: st.Prescriptions, Results: st.Results, Documents: st.Documents}
		e := cliEvent
		e.Action, e.EntityType, e.Outcome, e.Detail = "fhir.bulk.export", "bulk_export", audit.Success, "to "+*dir
		if err := audit.Access(ctx, db, e); err != nil {
			return err
		}
		start := time.Now()
		counts, err := h.Export(ctx, spec, &fhir.DirSink{Dir: *dir}, func(map[string]int) (bool, error) { return true, nil })
		if err != nil {
			return err
		}
		for _, kind := range spec.Types {
			fmt.Fprintf(in.stdout, "%-20s %d\n", kind, counts[kind])
		}
		fmt.Fprintf(in.stdout, "written to %s in %s\n", *dir, time.Since(start).Round(time.Millisecond))
		return nil
	})
}
