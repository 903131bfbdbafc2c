// Package audit appends events to the audit log: who did what, when, from where, and how
// it ended. The log is append-only (the database refuses updates and deletes) and a hash
// chain: each event's hash covers its content and the previous event's hash, so an event
// edited, removed or slipped in directly in the database is found by Verify.
package audit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/database"
)

// Outcomes of an audited action.
const (
	Success = "success"
	Failure = "failure"
	Denied  = "denied"
)

// Event is one audit record. ActorID is 0 when nobody is logged in (e.g. a failed login).
type Event struct {
	At         time.Time
	ActorID    int64
	ActorName  string // the user's username, or the username tried at a failed login
	Action     string // e.g. "auth.login", "patient.read"
	EntityType string
	EntityID   string
	// PatientID is the patient the event concerns, 0 for none. An event whose entity is a
	// patient concerns that patient without saying so here.
	PatientID int64
	Address   string
	Outcome   string
	Detail    string // never a password; patient data only by reference (ids)
	// Emergency marks an action taken under an emergency-access grant.
	Emergency bool
	// Credential is the API token or backend client the request came with, as kind, id and
	// name ('token:17 "Lab script"', 'client:emr-abc "Lab interface"'); "" for a browser
	// session or no request.
	Credential string
}

// Actor is who acted as a column's value (a record's created_by, an order event's by_user):
// the account's id, or NULL for an event without one (the command line, a patient).
func (e Event) Actor() any { return nullID(e.ActorID) }

// Record appends e inside tx, the transaction of the write it records: the write and its
// event are committed together or not at all. Appending takes no shared row: the event is
// written outside the chain, and the sealer chains it within SealBound.
func Record(ctx context.Context, tx *sql.Tx, e Event) error {
	return record(ctx, tx, e)
}

// Access appends an event that records no write: a read, an export, a print, a check, a
// sign-in, or an attempt that failed or was refused. It runs in a transaction of its own (on
// SQLite group-committed with others by the one writer; on PostgreSQL the single INSERT). An
// event that says a write succeeded is refused: that write records it with Record, in its own
// transaction.
func Access(ctx context.Context, db *database.DB, e Event) error {
	if !IsAccess(e) {
		return fmt.Errorf("audit event %s is a write's: record it in the write's transaction", e.Action)
	}
	if db.Engine == database.SQLite {
		return db.Tx(ctx, func(tx *sql.Tx) error { return record(ctx, tx, e) })
	}
	return record(ctx, db, e) // on PostgreSQL outside a transaction: one statement, committed as it runs
}

// AccessAll appends events that record no write in one transaction: the reads one answer
// makes (a FHIR page's included records, a read of each patient) are audited together, in
// one commit rather than one each, or not at all.
func AccessAll(ctx context.Context, db *database.DB, events []Event) error {
	for _, e := range events {
		if !IsAccess(e) {
			return fmt.Errorf("audit event %s is a write's: record it in the write's transaction", e.Action)
		}
	}
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, e := range events {
			if err := record(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// accessVerbs end the actions that change nothing ("patient.read", "bill.print").
var accessVerbs = []string{"read", "list", "view", "preview", "download", "export", "print", "check", "trend", "verify", "search"}

// IsAccess reports whether e records no write: an attempt that did not succeed, a sign-in or
// sign-out, or an action whose last word is one of accessVerbs.
func IsAccess(e Event) bool {
	if e.Outcome != Success || strings.HasPrefix(e.Action, "auth.") {
		return true
	}
	verb := e.Action[strings.LastIndexByte(e.Action, '.')+1:]
	return slices.Contains(accessVerbs, verb)
}

func record(ctx context.Context, q database.Querier, e Event) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	e = normalize(e)
	if e.PatientID == 0 && e.EntityType == "patient" {
		// An event about a patient record itself concerns that patient. The log knows no
		// domain table: an event about anything else of a patient's (an appointment, a
		// visit, a prescription) is given its PatientID by the domain that records it.
		if id, err := strconv.ParseInt(e.EntityID, 10, 64); err == nil {
			e.PatientID = id
		}
	}
	_, err := q.ExecContext(ctx, `INSERT INTO audit_events (at, actor_id, actor_name, action, entity_type, entity_id, patient_id, address, outcome, detail, emergency, credential)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		e.At, nullID(e.ActorID), e.ActorName, e.Action, e.EntityType, e.EntityID, e.PatientID, e.Address, e.Outcome, e.Detail, e.Emergency, nullText(e.Credential))
	if err != nil {
		return fmt.Errorf("record audit event %s: %w", e.Action, err)
	}
	return nil
}

// normalize is e as it will be stored: both engines keep microseconds, and the hash is
// taken over what is stored.
func normalize(e Event) Event {
	e.At = e.At.UTC().Truncate(time.Microsecond)
	e.ActorName, e.Detail, e.Credential = truncate(e.ActorName, 200), truncate(e.Detail, 2000), truncate(e.Credential, 200)
	return e
}

// Chained returns e as it is stored at position seq after the event hashed prev, and its
// hash: for loaders that write many chained events in one statement (demo data), which then
// move the head with MoveHead in the same transaction.
func Chained(prev string, seq int64, e Event) (Event, string) {
	e = normalize(e)
	return e, chainHash(prev, seq, e)
}

// chainHash is the hex SHA-256 of the previous hash and the event's stored fields, in a
// fixed order and encoding. The credential is a field only when the event has one: every
// event written before it existed (and every browser session's) hashes as it always did.
func chainHash(prev string, seq int64, e Event) string {
	values := []any{seq, e.At.UTC().Format(time.RFC3339Nano), e.ActorID, e.ActorName, e.Action,
		e.EntityType, e.EntityID, e.PatientID, e.Address, e.Outcome, e.Detail, e.Emergency}
	if e.Credential != "" {
		values = append(values, e.Credential)
	}
	fields, _ := json.Marshal(values)
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(fields)
	return hex.EncodeToString(h.Sum(nil))
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
