// Package backups writes archives of the database in the background on a schedule, keeps
// the newest, and tells administrators how they stand (GET /api/backups).
package backups

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/httpjson"
	"emr/internal/patient"
)

// prefix and suffix name the archives the scheduler writes: emr-20261125-020000.emr.
const (
	prefix = "emr-"
	suffix = ".emr"
	layout = "20060102-150405"
)

// Scheduler writes an archive into Dir every Every and keeps the newest Keep. Off (Dir
// empty), it only answers that scheduled backups are off.
type Scheduler struct {
	DB      *database.DB
	Dir     string
	Every   time.Duration
	Keep    int
	Options archive.Options // what the product adds to an archive (no progress)
	Now     func() time.Time

	mu      sync.Mutex
	running bool
	failure *Failure // the last run's, nil after a success
}

// Failure is a run that wrote no archive.
type Failure struct {
	At    time.Time `json:"at"`
	Error string    `json:"error"`
}

// File is one archive in the folder.
type File struct {
	Name    string    `json:"name"`
	Size    int64     `json:"size"`
	Written time.Time `json:"written"`
}

// Status is what the administrators' screen shows.
type Status struct {
	Enabled bool   `json:"enabled"`
	Dir     string `json:"dir,omitempty"`
	// Every is the interval in seconds; Keep how many archives are kept.
	Every   int64 `json:"every_seconds,omitempty"`
	Keep    int   `json:"keep,omitempty"`
	Running bool  `json:"running"`
	// Files are the archives kept, newest first; LastSuccess is the newest one's time.
	Files       []File     `json:"files"`
	LastSuccess *time.Time `json:"last_success,omitempty"`
	LastFailure *Failure   `json:"last_failure,omitempty"`
	// Overdue is true when the newest archive is older than the interval (with a margin
	// for the backup itself) — or there is none after the first interval.
	Overdue bool `json:"overdue"`
	// Encrypted says the archives are encrypted to Recipients (age public keys); false
	// when they are written plain on purpose (--backup-plaintext).
	Encrypted  bool     `json:"encrypted"`
	Recipients []string `json:"recipients"`
}

func (s *Scheduler) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// files lists the archives in Dir, newest first.
func (s *Scheduler) files() ([]File, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range entries {
		name := e.Name()
		// A regular file only (a link or a pipe planted in the folder is neither listed nor
		// served), and never one dated ahead of now: a name from the future would hold off
		// every scheduled backup and push the real ones out of those kept.
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
			continue
		}
		at, err := time.ParseInLocation(layout, strings.TrimSuffix(strings.TrimPrefix(name, prefix), suffix), time.UTC)
		if err != nil || at.After(s.now().Add(time.Hour)) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, File{Name: name, Size: info.Size(), Written: at})
	}
	slices.SortFunc(out, func(a, b File) int { return b.Written.Compare(a.Written) })
	return out, nil
}

// started is when the scheduler began, for an overdue first backup.
var started = time.Now()

// Status reports the archives kept and whether the newest is overdue; a folder that cannot
// be read is reported as the last failure.
func (s *Scheduler) Status() Status {
	if s.Dir == "" {
		return Status{Files: []File{}, Recipients: []string{}}
	}
	files, listErr := s.files()
	s.mu.Lock()
	st := Status{Enabled: true, Dir: s.Dir, Every: int64(s.Every / time.Second), Keep: s.Keep, Running: s.running, Files: files, LastFailure: s.failure,
		Encrypted: len(s.Options.Recipients) > 0, Recipients: s.Options.RecipientNames}
	s.mu.Unlock()
	if listErr != nil && st.LastFailure == nil {
		st.LastFailure = &Failure{At: s.now().UTC(), Error: listErr.Error()}
	}
	if st.Files == nil {
		st.Files = []File{}
	}
	if !st.Encrypted || st.Recipients == nil {
		st.Recipients = []string{}
	}
	grace := s.Every + s.Every/10 + time.Minute
	if len(files) > 0 {
		st.LastSuccess = &files[0].Written
		st.Overdue = s.now().Sub(files[0].Written) > grace
	} else {
		st.Overdue = s.now().Sub(started) > grace
	}
	return st
}

// LastSuccessAge is how long ago the newest archive was written (false: none, or off).
func (s *Scheduler) LastSuccessAge() (time.Duration, bool) {
	if s.Dir == "" {
		return 0, false
	}
	files, err := s.files()
	if err != nil || len(files) == 0 {
		return 0, false
	}
	return s.now().Sub(files[0].Written), true
}

// Run backs up whenever the newest archive is an interval old (at once when there is none),
// until ctx ends. Backups read a snapshot: requests never wait for them.
func (s *Scheduler) Run(ctx context.Context) {
	if s.Dir == "" {
		return
	}
	for {
		wait := time.Duration(0)
		if files, err := s.files(); err == nil && len(files) > 0 {
			wait = time.Until(files[0].Written.Add(s.Every))
		}
		s.mu.Lock()
		if s.failure != nil {
			wait = max(wait, min(s.Every, 5*time.Minute)) // a failed run is tried again, not at once
		}
		s.mu.Unlock()
		if wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		if ctx.Err() != nil {
			return
		}
		if errors.Is(s.BackUp(ctx), ErrRunning) {
			// One asked for by hand is being written: the next run counts from it.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Minute):
			}
		}
	}
}

// ErrRunning refuses a backup while another is being written: two at once would compete
// for the same disk, and the second would hold nothing the first does not.
var ErrRunning = apperr.Conflict("backup.running")

// BackUp writes one archive now and removes the oldest beyond Keep; ErrRunning while
// another run writes one.
func (s *Scheduler) BackUp(ctx context.Context) error {
	_, err := s.backUp(ctx)
	return err
}

// backUp is BackUp, naming the archive it wrote.
func (s *Scheduler) backUp(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return "", ErrRunning
	}
	s.running = true
	s.mu.Unlock()
	start, began := s.now().UTC(), time.Now()
	path := filepath.Join(s.Dir, prefix+start.Format(layout)+suffix)
	w, err := archive.Write(ctx, s.DB, path, s.Options)
	s.mu.Lock()
	s.running = false
	if err != nil {
		s.failure = &Failure{At: start, Error: err.Error()}
	} else {
		s.failure = nil
	}
	s.mu.Unlock()
	if err != nil {
		slog.Error("scheduled backup failed", "dir", s.Dir, "err", err)
		return "", err
	}
	slog.Info("scheduled backup written", "file", path, "bytes", w.Size, "rows", w.Manifest.Rows(), "took", time.Since(began).Round(time.Millisecond))
	files, err := s.files()
	if err != nil {
		return "", err
	}
	for _, f := range files[min(len(files), s.Keep):] {
		if err := os.Remove(filepath.Join(s.Dir, f.Name)); err != nil {
			slog.Error("remove an old backup", "file", f.Name, "err", err)
		}
	}
	return filepath.Base(path), nil
}

// Routes are the backups' API routes.
func (s *Scheduler) Routes() []auth.Route {
	return []auth.Route{
		{Method: "GET", Path: "/api/backups", Access: auth.Need(auth.ManageSettings), Handler: s.status},
		// A copy of the whole database (accounts included) is made and taken by a person signed
		// in, never by an API token.
		{Method: "POST", Path: "/api/backups", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: s.backUpNow},
		{Method: "GET", Path: "/api/backups/{name}", Access: auth.Need(auth.ManageSettings), SessionOnly: true, Handler: s.download},
	}
}

func (s *Scheduler) status(w http.ResponseWriter, r *http.Request) {
	httpjson.Respond(w, http.StatusOK, s.Status())
}

// backUpNow writes an archive at an administrator's request (before an upgrade, after a
// day's work) and answers with the status that lists it. The request waits for the archive:
// the screen says when it is there.
func (s *Scheduler) backUpNow(w http.ResponseWriter, r *http.Request) {
	if s.Dir == "" {
		httpjson.Error(w, r, apperr.Conflict("backup.off"))
		return
	}
	if _, err := s.BackUpNow(r.Context(), auth.AuditEvent(r)); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, s.Status())
}

// BackUpNow writes an archive at a person's request, audited as e's whether it was written
// or failed; ErrRunning (not audited: nothing was tried) while another is being written.
func (s *Scheduler) BackUpNow(ctx context.Context, e audit.Event) (string, error) {
	name, err := s.backUp(ctx)
	if errors.Is(err, ErrRunning) {
		return "", err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome = "backup.create", "backup", name, audit.Success
	if err != nil {
		e.Outcome, e.Detail = audit.Failure, err.Error()
	}
	if auditErr := recordBackup(ctx, s.DB, e); err == nil {
		err = auditErr
	}
	return name, err
}

// recordBackup appends a backup's event: the archive is a file, not a row, so its event is
// a transaction of its own.
func recordBackup(ctx context.Context, db *database.DB, e audit.Event) error {
	return db.Tx(ctx, func(tx *sql.Tx) error { return audit.Record(ctx, tx, e) })
}

// download streams one archive kept. Only a name the folder lists is served, so no name can
// reach a file outside it ("../", an absolute path, another file in the folder).
func (s *Scheduler) download(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	files, err := s.files()
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if !slices.ContainsFunc(files, func(f File) bool { return f.Name == name }) {
		httpjson.Error(w, r, apperr.NotFound("backup.not_found"))
		return
	}
	f, err := os.Open(filepath.Join(s.Dir, name))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	defer f.Close()
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome = "backup.download", "backup", name, audit.Success
	if err := audit.Access(r.Context(), s.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	info, err := f.Stat()
	if err == nil {
		w.Header().Set("Content-Length", strconv.FormatInt(info.Size(), 10))
	}
	if _, err := io.Copy(w, f); err != nil {
		slog.Warn("backup download ended early", "file", name, "err", err)
	}
}

// ExportTables hold the files of FHIR bulk exports (their jobs and NDJSON chunks): copies of
// records made for one caller, kept a day. A backup leaves them out — an archive holds the
// records once, not every export of them — and a restored clinic starts with none.
var ExportTables = []string{"bulk_exports", "bulk_export_chunks"}

// ArchiveOptions are what the product adds to an archive of version app: the audit chain's
// head, and what a restore rebuilds per engine (the patient search index and numbering, the
// totals). The caller adds the clinic's key file (Keys), which authenticates the archive.
func ArchiveOptions(app string) archive.Options {
	return archive.Options{
		App: app,
		Head: func(ctx context.Context, q database.Querier) (archive.Head, error) {
			seq, hash, err := audit.ReadHead(ctx, q)
			return archive.Head{Seq: seq, Hash: hash}, err
		},
		After:     []func(context.Context, database.Querier, database.Engine) error{patient.AfterRestore, database.FoldTotalsIn},
		Ephemeral: slices.Concat(auth.EphemeralTables, ExportTables),
	}
}
