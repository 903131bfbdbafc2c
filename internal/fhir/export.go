package fhir

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/document"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
)

// ExportTypes are the resource types a bulk export writes, in the order it writes them.
var ExportTypes = []string{"Patient", "AllergyIntolerance", "Encounter", "Appointment", "Condition", "Observation", "ServiceRequest",
	"DiagnosticReport", "MedicationRequest", "DocumentReference"}

// ExportSpec is what an export writes: its types, the resources changed since a time (nil:
// all), and the patients of one doctor (0: every patient).
type ExportSpec struct {
	Types       []string
	Since       *time.Time
	GroupDoctor int64
	// LeftOut are categories of the types left out ("Observation:laboratory"): its
	// requester may not read them (ReadAccess). A whole type left out is not in Types.
	LeftOut []string
}

// Sink receives an export's NDJSON lines, one resource per line, per type.
type Sink interface {
	Line(kind string, line []byte) error
	Close() error
}

// exportBatch is how many records an export reads at a time; exportPause the pause it takes
// after each batch, so that interactive requests are served between them.
const (
	exportBatch = 500
	exportPause = 2 * time.Millisecond
)

// Export writes spec's resources to sink, streaming: a batch of records at a time, so the
// memory it takes does not grow with the clinic. progress is called after every batch with
// the counts so far; when it answers false the export stops (cancelled).
func (h *Handler) Export(ctx context.Context, spec ExportSpec, sink Sink, progress func(counts map[string]int) (bool, error)) (map[string]int, error) {
	counts := map[string]int{}
	want := func(kind string) bool { return slices.Contains(spec.Types, kind) }
	emit := func(res Resource) error {
		if !want(res.ResourceKind()) || slices.Contains(spec.LeftOut, res.ResourceKind()+":"+categoryOf(res)) {
			return nil
		}
		if spec.Since != nil && res.ResourceKind() != "Patient" && res.ResourceKind() != "AllergyIntolerance" {
			if t, err := time.Parse(time.RFC3339Nano, lastUpdatedOf(res)); err == nil && t.Before(*spec.Since) {
				return nil
			}
		}
		line, err := json.Marshal(res)
		if err != nil {
			return err
		}
		counts[res.ResourceKind()]++
		return sink.Line(res.ResourceKind(), line)
	}
	step := func() error {
		ok, err := progress(counts)
		if err == nil && !ok {
			err = errCancelled
		}
		time.Sleep(exportPause)
		return err
	}
	// The patients' own resources, one pass over the patients.
	patients := want("Patient") || want("AllergyIntolerance")
	records := want("Encounter") || want("Appointment") || want("Condition") || want("Observation")
	others := want("ServiceRequest") || want("Observation") || want("DiagnosticReport") || want("MedicationRequest") || want("DocumentReference")
	expand := func(rec appointment.Record) []Resource {
		out := []Resource{toEncounter(rec.Appointment), toAppointment(rec.Appointment)}
		out = append(out, toConditions(rec)...)
		return append(out, toObservations(rec)...)
	}
	if spec.GroupDoctor == 0 {
		if patients {
			f := patient.Filter{Limit: exportBatch, UpdatedGE: spec.Since}
			for {
				list, _, err := h.Patients.Page(ctx, f)
				if err != nil {
					return counts, err
				}
				for _, p := range list {
					if err := emit(toPatient(p)); err != nil {
						return counts, err
					}
					for _, a := range toAllergies(p) {
						if err := emit(a); err != nil {
							return counts, err
						}
					}
				}
				if err := step(); err != nil {
					return counts, err
				}
				if len(list) < exportBatch {
					break
				}
				f.After = list[len(list)-1].ID
			}
		}
		if records {
			f := appointment.RecordFilter{Limit: exportBatch, ChangedSince: spec.Since}
			for {
				list, err := h.Visits.Records(ctx, f)
				if err != nil {
					return counts, err
				}
				for _, rec := range list {
					for _, res := range expand(rec) {
						if err := emit(res); err != nil {
							return counts, err
						}
					}
				}
				if err := step(); err != nil {
					return counts, err
				}
				if len(list) < exportBatch {
					break
				}
				f.After = list[len(list)-1].ID
			}
		}
		if others {
			if err := h.exportOthers(ctx, 0, spec, emit, step); err != nil {
				return counts, err
			}
		}
		return counts, sink.Close()
	}
	// A doctor's patients: their ids a batch at a time, then each one's records.
	var after int64
	for {
		ids, err := h.Visits.PatientsOf(ctx, spec.GroupDoctor, after, exportBatch)
		if err != nil {
			return counts, err
		}
		if len(ids) == 0 {
			break
		}
		after = ids[len(ids)-1]
		if patients {
			list, _, err := h.Patients.Page(ctx, patient.Filter{IDs: ids, UpdatedGE: spec.Since, Limit: len(ids)})
			if err != nil {
				return counts, err
			}
			for _, p := range list {
				if err := emit(toPatient(p)); err != nil {
					return counts, err
				}
				for _, a := range toAllergies(p) {
					if err := emit(a); err != nil {
						return counts, err
					}
				}
			}
		}
		if records {
			for _, pid := range ids {
				f := appointment.RecordFilter{PatientID: pid, Limit: exportBatch, ChangedSince: spec.Since}
				for {
					list, err := h.Visits.Records(ctx, f)
					if err != nil {
						return counts, err
					}
					for _, rec := range list {
						for _, res := range expand(rec) {
							if err := emit(res); err != nil {
								return counts, err
							}
						}
					}
					if len(list) < exportBatch {
						break
					}
					f.After = list[len(list)-1].ID
				}
			}
		}
		if others {
			for _, pid := range ids {
				if err := h.exportOthers(ctx, pid, spec, emit, func() error { return nil }); err != nil {
					return counts, err
				}
			}
		}
		if err := step(); err != nil {
			return counts, err
		}
		if len(ids) < exportBatch {
			break
		}
	}
	return counts, sink.Close()
}

var errCancelled = fmt.Errorf("export cancelled")

// holdsAll reports whether every item of some is in all.
func holdsAll(some, all []string) bool {
	for _, x := range some {
		if !slices.Contains(all, x) {
			return false
		}
	}
	return true
}

func lastUpdatedOf(res Resource) string {
	switch r := res.(type) {
	case Encounter:
		return r.Meta.LastUpdated
	case Appointment:
		return r.Meta.LastUpdated
	case Condition:
		return r.Meta.LastUpdated
	case Observation:
		return r.Meta.LastUpdated
	}
	return ""
}

// chunkSink writes an export's lines into the database, a chunk of lines at a time.
type chunkSink struct {
	ctx   context.Context
	store exports
	id    int64
	buf   map[string][]byte
	lines map[string]int
	seq   map[string]int
}

const chunkBytes = 1 << 20

func newChunkSink(ctx context.Context, store exports, id int64) *chunkSink {
	return &chunkSink{ctx: ctx, store: store, id: id, buf: map[string][]byte{}, lines: map[string]int{}, seq: map[string]int{}}
}

func (s *chunkSink) Line(kind string, line []byte) error {
	s.buf[kind] = append(append(s.buf[kind], line...), '\n')
	s.lines[kind]++
	if len(s.buf[kind]) >= chunkBytes {
		return s.flush(kind)
	}
	return nil
}

func (s *chunkSink) flush(kind string) error {
	if s.lines[kind] == 0 {
		return nil
	}
	if err := s.store.chunk(s.ctx, s.id, kind, s.seq[kind], s.lines[kind], s.buf[kind]); err != nil {
		return err
	}
	s.seq[kind]++
	s.buf[kind], s.lines[kind] = s.buf[kind][:0], 0
	return nil
}

func (s *chunkSink) Close() error {
	for _, kind := range ExportTypes {
		if err := s.flush(kind); err != nil {
			return err
		}
	}
	return nil
}

// DirSink writes an export's lines into one file per type in a folder (emr export).
type DirSink struct {
	Dir   string
	files map[string]*os.File
	bufs  map[string]*bufio.Writer
}

// Line appends a line to its type's file, creating it at the first line.
func (d *DirSink) Line(kind string, line []byte) error {
	if d.files == nil {
		d.files, d.bufs = map[string]*os.File{}, map[string]*bufio.Writer{}
	}
	w, ok := d.bufs[kind]
	if !ok {
		f, err := os.OpenFile(filepath.Join(d.Dir, kind+".ndjson"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		d.files[kind], w = f, bufio.NewWriterSize(f, 1<<20)
		d.bufs[kind] = w
	}
	if _, err := w.Write(line); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// Close flushes and closes every file.
func (d *DirSink) Close() error {
	var first error
	for kind, w := range d.bufs {
		if err := w.Flush(); err != nil && first == nil {
			first = err
		}
		if err := d.files[kind].Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// exportParams reads a kick-off's parameters into a spec.
func exportParams(r *http.Request, p *auth.Principal) (ExportSpec, error) {
	var spec ExportSpec
	q := r.URL.Query()
	for _, name := range []string{"_typeFilter", "_elements", "patient", "includeAssociatedData"} {
		if q.Has(name) {
			return spec, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.export_parameter", Args: []any{name}, Expression: name}
		}
	}
	switch f := q.Get("_outputFormat"); f {
	case "", "application/fhir+ndjson", "application/ndjson", "ndjson":
	default:
		return spec, invalid("fhir.export_format", "_outputFormat", f)
	}
	if s := q.Get("_type"); s != "" {
		for _, kind := range strings.Split(s, ",") {
			kind = strings.TrimSpace(kind)
			if !slices.Contains(ExportTypes, kind) {
				return spec, invalid("fhir.export_type", "_type", kind)
			}
			if !slices.Contains(spec.Types, kind) {
				spec.Types = append(spec.Types, kind)
			}
		}
	}
	if s := q.Get("_since"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return spec, invalid("fhir.bad_date", "_since", "_since")
		}
		spec.Since = &t
	}
	// The types asked for must each be readable, in part at least; without _type, every type
	// the caller may read is exported, and the rest left out. Either way, what the caller may
	// not read of a type is left out and named.
	var left []string
	if len(spec.Types) > 0 {
		for _, kind := range spec.Types {
			if !exportable(p, kind) {
				return spec, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.export_forbidden", Args: []any{kind}, Expression: "_type"}
			}
		}
	} else {
		for _, kind := range ExportTypes {
			if exportable(p, kind) {
				spec.Types = append(spec.Types, kind)
			} else {
				left = append(left, kind)
			}
		}
		if len(spec.Types) == 0 {
			return spec, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.export_forbidden", Args: []any{named(left)}, Expression: "_type"}
		}
	}
	spec.LeftOut = append(left, leftOut(p, spec.Types)...)
	return spec, nil
}

// exportable reports whether p may export kind: search it by scope, and read some of it.
func exportable(p *auth.Principal, kind string) bool {
	return p.ScopeAllows(kind, auth.ActSearch) && !slices.Contains(leftOut(p, []string{kind}), kind)
}

// kickOff starts a bulk export (system, Patient or Group level) in the background and
// answers 202 with where to ask how it goes.
func (h *Handler) kickOff(group bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(strings.ToLower(r.Header.Get("Prefer")), "respond-async") {
			WriteError(w, r, &Error{Status: http.StatusBadRequest, Code: "invalid", Key: "fhir.export_async", Expression: "Prefer"})
			return
		}
		p := auth.PrincipalFrom(r.Context())
		spec, err := exportParams(r, p)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if group {
			id := r.PathValue("id")
			doctor, err := strconv.ParseInt(strings.TrimPrefix(id, "doctor-"), 10, 64)
			if !strings.HasPrefix(id, "doctor-") || err != nil || doctor <= 0 {
				WriteError(w, r, notFound("Group", id))
				return
			}
			spec.GroupDoctor = doctor
		}
		store := exports{h.DB}
		if err := store.sweep(r.Context()); err != nil {
			WriteError(w, r, err)
			return
		}
		job := exportJob{Job: auth.NewToken()[:24], UserID: p.UserID, ClientID: p.ClientID, TokenID: p.TokenID, Request: r.URL.String(), Types: spec.Types,
			LeftOut: spec.LeftOut, Since: spec.Since, GroupDoctor: spec.GroupDoctor, TransactionTime: time.Now().UTC()}
		id, err := store.start(r.Context(), job)
		if err == errBusy {
			w.Header().Set("Retry-After", "60")
			WriteError(w, r, &Error{Status: http.StatusTooManyRequests, Code: "throttled", Key: "fhir.export_busy"})
			return
		}
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if err := h.audited(r, "fhir.bulk.export", "bulk_export", job.Job, 0, r.URL.String()); err != nil {
			WriteError(w, r, err)
			return
		}
		go h.runExport(id, spec)
		w.Header().Set("Content-Location", h.baseURL(r)+"/bulkdata/"+job.Job)
		w.WriteHeader(http.StatusAccepted)
	}
}

// runExport runs an export to its end, away from the request that started it.
func (h *Handler) runExport(id int64, spec ExportSpec) {
	ctx := context.Background()
	store := exports{h.DB}
	sink := newChunkSink(ctx, store, id)
	counts, err := h.Export(ctx, spec, sink, func(counts map[string]int) (bool, error) {
		parts := make([]string, 0, len(counts))
		for _, kind := range ExportTypes {
			if n, ok := counts[kind]; ok {
				parts = append(parts, fmt.Sprintf("%s %d", kind, n))
			}
		}
		return store.beat(ctx, id, strings.Join(parts, ", "), counts)
	})
	status, message := exportDone, ""
	switch {
	case err == errCancelled:
		return
	case err != nil:
		slog.Error("bulk export", "export", id, "err", err)
		status, message = exportFailed, err.Error()
	}
	if err := store.finish(ctx, id, status, message, counts); err != nil {
		slog.Error("finish a bulk export", "export", id, "err", err)
	}
}

// ownExport reads the export of the path's job if the caller's credential started it (the
// same API token, backend client, or the account's browser sessions) and its files have not
// expired; one found past its expiry has its files deleted now.
func (h *Handler) ownExport(w http.ResponseWriter, r *http.Request) (*exportJob, bool) {
	store := exports{h.DB}
	j, err := store.get(r.Context(), r.PathValue("job"))
	p := auth.PrincipalFrom(r.Context())
	if err == nil && (j == nil || j.UserID != p.UserID || j.ClientID != p.ClientID || j.TokenID != p.TokenID || j.Status == exportCancelled || j.Status == exportExpired) {
		err = notFound("bulkdata", r.PathValue("job"))
	}
	if err == nil && j.Status == exportDone && !exportNow().Before(*j.expires()) {
		if err = store.expire(r.Context(), j.ID); err == nil {
			err = notFound("bulkdata", r.PathValue("job"))
		}
	}
	if err != nil {
		WriteError(w, r, err)
		return nil, false
	}
	return j, true
}

// exportStatus answers how an export goes: 202 while it runs, the manifest once done.
func (h *Handler) exportStatus(w http.ResponseWriter, r *http.Request) {
	j, ok := h.ownExport(w, r)
	if !ok {
		return
	}
	switch {
	case j.Status == exportRunning && time.Since(j.HeartbeatAt) > exportStale:
		WriteError(w, r, &Error{Status: http.StatusInternalServerError, Code: "exception", Key: "fhir.export_failed"})
	case j.Status == exportRunning:
		w.Header().Set("X-Progress", cmpOr(j.Progress, "starting"))
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusAccepted)
	case j.Status == exportFailed:
		WriteError(w, r, &Error{Status: http.StatusInternalServerError, Code: "exception", Key: "fhir.export_failed"})
	default:
		base := h.baseURL(r)
		type output struct {
			Type  string `json:"type"`
			URL   string `json:"url"`
			Count int    `json:"count"`
		}
		outputs, errs := []output{}, []output{}
		for _, kind := range j.Types {
			if n := j.Counts[kind]; n > 0 {
				outputs = append(outputs, output{Type: kind, URL: base + "/bulkdata/" + j.Job + "/" + kind + ".ndjson", Count: n})
			}
		}
		// What was left out is said in an OperationOutcome file, as the Bulk Data spec's
		// error files are.
		if len(j.LeftOut) > 0 {
			errs = append(errs, output{Type: "OperationOutcome", URL: base + "/bulkdata/" + j.Job + "/" + leftOutFile, Count: 1})
		}
		w.Header().Set("Expires", j.expires().Format(http.TimeFormat))
		httpjson.Respond(w, http.StatusOK, map[string]any{
			"transactionTime": instant(j.TransactionTime), "request": base + strings.TrimPrefix(j.Request, Base), "requiresAccessToken": true,
			"output": outputs, "error": errs,
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// cancelExport stops an export and deletes its files.
func (h *Handler) cancelExport(w http.ResponseWriter, r *http.Request) {
	j, ok := h.ownExport(w, r)
	if !ok {
		return
	}
	if err := (exports{h.DB}).cancel(r.Context(), j.ID); err != nil {
		WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// leftOutFile is the export's error file that names what it left out.
const leftOutFile = "OperationOutcome.ndjson"

// exportFile streams one type's NDJSON file of a finished export to its requester, while
// they may still read all it holds: their permissions and scopes are read again at each
// download.
func (h *Handler) exportFile(w http.ResponseWriter, r *http.Request) {
	j, ok := h.ownExport(w, r)
	if !ok {
		return
	}
	kind, found := strings.CutSuffix(r.PathValue("file"), ".ndjson")
	if j.Status == exportDone && r.PathValue("file") == leftOutFile && len(j.LeftOut) > 0 {
		oo := OperationOutcome{base: base0("OperationOutcome"), Issue: []Issue{{Severity: "information", Code: "suppressed",
			Diagnostics: i18n.T(i18n.FromRequest(r), "fhir.everything_omitted", named(j.LeftOut))}}}
		line, _ := json.Marshal(oo)
		w.Header().Set("Content-Type", "application/fhir+ndjson")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(append(line, '\n'))
		return
	}
	if j.Status != exportDone || !found || !slices.Contains(j.Types, kind) {
		WriteError(w, r, notFound("bulkdata", r.PathValue("job")+"/"+r.PathValue("file")))
		return
	}
	p := auth.PrincipalFrom(r.Context())
	if !p.ScopeAllows(kind, auth.ActSearch) || !holdsAll(leftOut(p, []string{kind}), j.LeftOut) {
		WriteError(w, r, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.export_file_forbidden", Args: []any{kind}})
		return
	}
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "fhir.bulk_file.download", "bulk_export", j.Job, audit.Success, kind
	if err := audit.Access(r.Context(), h.DB, e); err != nil {
		WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/fhir+ndjson")
	w.Header().Set("Cache-Control", "no-store")
	if err := (exports{h.DB}).eachChunk(r.Context(), j.ID, kind, func(data string) error {
		_, err := w.Write([]byte(data))
		return err
	}); err != nil {
		slog.ErrorContext(r.Context(), "stream a bulk export file", "err", err)
	}
}

// exportOthers writes the orders, their results and reports, prescriptions and documents (of patientID, or
// of everyone when it is 0), a batch at a time.
func (h *Handler) exportOthers(ctx context.Context, patientID int64, spec ExportSpec, emit func(Resource) error, step func() error) error {
	emitAll := func(list []Resource) error {
		for _, res := range list {
			if err := emit(res); err != nil {
				return err
			}
		}
		return nil
	}
	since := func(updated string) bool { return spec.Since == nil || updated >= instant(*spec.Since) }
	if slices.Contains(spec.Types, "ServiceRequest") || slices.Contains(spec.Types, "Observation") || slices.Contains(spec.Types, "DiagnosticReport") {
		if err := h.orders(nil, patientID, "en").each(ctx, func(o result.Order) error {
			if sr := toServiceRequest(o); since(sr.Meta.LastUpdated) {
				return emitAll(append(append([]Resource{sr}, toLabObservations(o)...), toDiagnosticReports(o)...))
			}
			return nil
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "MedicationRequest") {
		if err := h.prescriptions(nil, patientID).each(ctx, func(rx prescription.Prescription) error {
			if since(instant(rx.UpdatedAt)) {
				return emitAll(toMedicationRequests(rx))
			}
			return nil
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "DocumentReference") {
		return h.documents(nil, patientID).each(ctx, func(d document.Document) error {
			if res := documentReferenceOf(d); since(res.Meta.LastUpdated) {
				return emit(res)
			}
			return nil
		}, step)
	}
	return nil
}
