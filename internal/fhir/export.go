package fhir

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
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
	"emr/internal/immunisation"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/settings"
	"emr/internal/user"
)

// ExportTypes are the resource types a bulk export writes, in the order it writes them.
// The staff, the clinic and its premises come last: every export writes them whole (once,
// they are few), so that no reference in it dangles.
var ExportTypes = []string{"Patient", "AllergyIntolerance", "Encounter", "Appointment", "Condition", "Observation", "ServiceRequest",
	"DiagnosticReport", "MedicationRequest", "MedicationStatement", "DocumentReference", "Immunization", "ImmunizationRecommendation",
	"Practitioner", "PractitionerRole", "Organization", "Location"}

// ExportSpec is what an export writes: its types, the resources changed since a time (nil:
// all), and the patients of one doctor (0: every patient).
type ExportSpec struct {
	Types       []string
	Since       *time.Time
	GroupDoctor int64
	// Patients, when not nil, are the only patients exported (the kick-off's patient
	// parameter; within the doctor's group when there is one).
	Patients []int64
	// Filters are the _typeFilter queries: of a type that has some, only what meets one.
	Filters exportFilters
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
		if !want(res.ResourceKind()) || slices.Contains(spec.LeftOut, res.ResourceKind()+":"+categoryOf(res)) || !spec.Filters.keeps(res) {
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
	if err := h.exportClinic(ctx, spec, emit); err != nil {
		return counts, err
	}
	// The patients' own resources, one pass over the patients.
	patients := want("Patient") || want("AllergyIntolerance")
	records := want("Encounter") || want("Appointment") || want("Condition") || want("Observation")
	others := want("ServiceRequest") || want("Observation") || want("DiagnosticReport") || want("MedicationRequest") || want("MedicationStatement") || want("DocumentReference") ||
		want("Immunization") || want("ImmunizationRecommendation")
	expand := func(rec appointment.Record) []Resource {
		out := []Resource{toEncounter(rec.Appointment), toAppointment(rec.Appointment)}
		out = append(out, toConditions(rec)...)
		return append(out, toObservations(rec)...)
	}
	if spec.GroupDoctor == 0 && spec.Patients == nil {
		if patients {
			f := patient.Filter{Limit: exportBatch, UpdatedGE: spec.Since}
			for {
				list, _, err := h.Patients.Page(ctx, f)
				if err != nil {
					return counts, err
				}
				for _, p := range list {
					if err := emit(toPatient(p, h.numberSystem(ctx))); err != nil {
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
		return counts, h.closeExport(ctx, spec, sink, counts, step)
	}
	// A doctor's patients, or those named: their ids a batch at a time, then each one's records.
	next := func(after int64) ([]int64, error) {
		if spec.Patients != nil {
			i, _ := slices.BinarySearch(spec.Patients, after+1)
			return spec.Patients[i:min(i+exportBatch, len(spec.Patients))], nil
		}
		return h.Visits.PatientsOf(ctx, spec.GroupDoctor, after, exportBatch)
	}
	var after int64
	for {
		ids, err := next(after)
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
				if err := emit(toPatient(p, h.numberSystem(ctx))); err != nil {
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
	return counts, h.closeExport(ctx, spec, sink, counts, step)
}

// closeExport writes the export's deletions and closes its files.
func (h *Handler) closeExport(ctx context.Context, spec ExportSpec, sink Sink, counts map[string]int, step func() error) error {
	if err := h.exportDeletions(ctx, spec, sink, counts, step); err != nil {
		return err
	}
	return sink.Close()
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
		if err := s.flush(kind + deletedSuffix); err != nil {
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

// kickOffParams are a kick-off's parameters: its query's and, in a POST, those of its
// Parameters body besides (the Bulk Data IG's POST kick-off), as one list.
func kickOffParams(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	q := r.URL.Query()
	if r.Method != http.MethodPost || r.ContentLength == 0 {
		return q, nil
	}
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		return nil, err
	}
	var body struct {
		ResourceType string `json:"resourceType"`
		Parameter    []struct {
			Name           string     `json:"name"`
			ValueString    *string    `json:"valueString"`
			ValueInstant   *string    `json:"valueInstant"`
			ValueCode      *string    `json:"valueCode"`
			ValueReference *Reference `json:"valueReference"`
		} `json:"parameter"`
	}
	if err := json.Unmarshal(data, &body); err != nil || body.ResourceType != "Parameters" {
		return nil, invalid("fhir.export_body", "")
	}
	for _, p := range body.Parameter {
		var v *string
		switch {
		case p.ValueString != nil:
			v = p.ValueString
		case p.ValueInstant != nil:
			v = p.ValueInstant
		case p.ValueCode != nil:
			v = p.ValueCode
		case p.ValueReference != nil:
			v = &p.ValueReference.Reference
		}
		if p.Name == "" || v == nil {
			return nil, invalid("fhir.export_body", "Parameters.parameter")
		}
		q.Add(p.Name, *v)
	}
	return q, nil
}

// commaList reads a parameter a client may give as comma-separated values, repeated or not.
func commaList(q url.Values, name string) []string {
	var out []string
	for _, v := range q[name] {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" && !slices.Contains(out, part) {
				out = append(out, part)
			}
		}
	}
	return out
}

// unsupportedExport are the Bulk Data IG's optional kick-off parameters the export does not
// implement.
var unsupportedExport = []string{"_elements", "includeAssociatedData"}

// ignoredExport takes the unsupported parameters out of q when the client asked for lenient
// handling (Bulk Data IG, kick-off: a server MAY then process the request without them), and
// names what it took out; without it, exportParams refuses them.
func ignoredExport(r *http.Request, q url.Values) []string {
	if preferHandling(r) != "lenient" {
		return nil
	}
	var ignored []string
	for _, name := range unsupportedExport {
		if q.Has(name) {
			ignored = append(ignored, name)
			q.Del(name)
		}
	}
	return ignored
}

// exportParams reads a kick-off's parameters (but patient: exportPatients) into a spec.
func exportParams(q url.Values, p *auth.Principal) (ExportSpec, error) {
	var spec ExportSpec
	for _, name := range unsupportedExport {
		if q.Has(name) {
			return spec, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.export_parameter", Args: []any{name}, Expression: name}
		}
	}
	for _, f := range q["_outputFormat"] {
		switch f {
		case "", "application/fhir+ndjson", "application/ndjson", "ndjson":
		default:
			return spec, invalid("fhir.export_format", "_outputFormat", f)
		}
	}
	for _, kind := range commaList(q, "_type") {
		if !slices.Contains(ExportTypes, kind) {
			return spec, invalid("fhir.export_type", "_type", kind, strings.Join(ExportTypes, ", "))
		}
		spec.Types = append(spec.Types, kind)
	}
	if len(q["_since"]) > 1 {
		return spec, invalid("fhir.one_value", "_since", "_since")
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
	filters, err := parseTypeFilters(q["_typeFilter"], spec.Types)
	if err != nil {
		return spec, err
	}
	if len(filters) > 0 {
		spec.Filters = filters
	}
	return spec, nil
}

// maxExportPatients is how many patients a kick-off's patient parameter names at most.
const maxExportPatients = 1000

// exportPatients reads a kick-off's patient parameter: the only patients exported, each in
// the register and, at Group level, in the group (one that is not is refused, naming it, as
// the Bulk Data IG asks). It is taken in a POST at Patient or Group level only.
func (h *Handler) exportPatients(r *http.Request, refs []string, system bool, doctor int64) ([]int64, error) {
	if r.Method != http.MethodPost || system {
		return nil, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.export_patient_post", Expression: "patient"}
	}
	if len(refs) > maxExportPatients {
		return nil, invalid("fhir.export_patients_many", "patient", maxExportPatients)
	}
	var ids []int64
	for _, v := range refs {
		i := strings.LastIndex(v, "Patient/")
		if i < 0 {
			return nil, invalid("fhir.bad_reference", "patient", "patient")
		}
		id, ok := wholeID(v[i+len("Patient/"):])
		if !ok {
			return nil, invalid("fhir.bad_reference", "patient", "patient")
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	found, _, err := h.Patients.Page(r.Context(), patient.Filter{IDs: ids, Limit: len(ids), WithoutHistory: true})
	if err != nil {
		return nil, err
	}
	known := make([]int64, len(found))
	for i, p := range found {
		known[i] = p.ID
	}
	if doctor != 0 {
		if known, err = h.Visits.PatientsAmong(r.Context(), doctor, known); err != nil {
			return nil, err
		}
	}
	for _, id := range ids {
		if !slices.Contains(known, id) {
			return nil, invalid("fhir.export_patient", "patient", "Patient/"+strconv.FormatInt(id, 10))
		}
	}
	return ids, nil
}

// exportable reports whether p may export kind: search it by scope, and read some of it.
func exportable(p *auth.Principal, kind string) bool {
	return p.ScopeAllows(kind, auth.ActSearch) && !slices.Contains(leftOut(p, []string{kind}), kind)
}

// kickOff starts a bulk export (system, Patient or Group level; GET, or POST with a
// Parameters body) in the background and answers 202 with where to ask how it goes.
func (h *Handler) kickOff(level string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(strings.ToLower(r.Header.Get("Prefer")), "respond-async") {
			WriteError(w, r, &Error{Status: http.StatusBadRequest, Code: "invalid", Key: "fhir.export_async", Expression: "Prefer"})
			return
		}
		p := auth.PrincipalFrom(r.Context())
		q, err := kickOffParams(w, r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		asked := maps.Clone(q) // the audit names what was asked, ignored parameters too
		ignored := ignoredExport(r, q)
		spec, err := exportParams(q, p)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if level == "group" {
			doctor, err := h.doctorOf(r, r.PathValue("id"))
			if err != nil {
				WriteError(w, r, err)
				return
			}
			spec.GroupDoctor = doctor.ID
		}
		if q.Has("patient") {
			if spec.Patients, err = h.exportPatients(r, q["patient"], level == "system", spec.GroupDoctor); err != nil {
				WriteError(w, r, err)
				return
			}
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
		// The audit names every parameter, a POST body's too.
		detail := r.Method + " " + r.URL.Path
		if len(asked) > 0 {
			detail += "?" + asked.Encode()
		}
		if err := h.audited(r, "fhir.bulk.export", "bulk_export", job.Job, 0, detail); err != nil {
			WriteError(w, r, err)
			return
		}
		go h.runExport(id, spec)
		w.Header().Set("Content-Location", h.baseURL(r)+"/bulkdata/"+job.Job)
		if len(ignored) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		// The kick-off's answer may carry an OperationOutcome: it names what was ignored.
		oo := &OperationOutcome{base: base0("OperationOutcome")}
		for _, name := range ignored {
			oo.Issue = append(oo.Issue, Issue{Severity: "warning", Code: "not-supported", Expression: []string{name},
				Diagnostics: i18n.T(i18n.FromRequest(r), "fhir.export_ignored", name)})
		}
		respond(w, http.StatusAccepted, oo)
	}
}

// runExport runs an export to its end, away from the request that started it.
func (h *Handler) runExport(id int64, spec ExportSpec) {
	// The clinic's settings are read once, before the export holds any rows (withClinic).
	ctx := context.WithValue(context.Background(), clinicKey{}, h.readClinic(context.Background()))
	store := exports{h.DB}
	sink := newChunkSink(ctx, store, id)
	counts, err := h.Export(ctx, spec, sink, func(counts map[string]int) (bool, error) {
		// X-Progress says it in fewer than 100 characters, as the Bulk Data IG asks.
		total := 0
		for _, n := range counts {
			total += n
		}
		return store.beat(ctx, id, fmt.Sprintf("%d resources written", total), counts)
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
	if err != nil {
		WriteError(w, r, err)
		return nil, false
	}
	p := auth.PrincipalFrom(r.Context())
	if j == nil || j.UserID != p.UserID || j.ClientID != p.ClientID || j.TokenID != p.TokenID || j.Status == exportCancelled || j.Status == exportExpired {
		WriteError(w, r, notFound("bulkdata", r.PathValue("job")))
		return nil, false
	}
	// A finished job always has its finish time (finish sets both); without one it never expires
	// here rather than failing the request.
	if until := j.expires(); j.Status == exportDone && until != nil && !exportNow().Before(*until) {
		if err := store.expire(r.Context(), j.ID); err != nil {
			WriteError(w, r, err)
			return nil, false
		}
		WriteError(w, r, notFound("bulkdata", r.PathValue("job")))
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
		outputs, errs, deleted := []output{}, []output{}, []output{}
		for _, kind := range j.Types {
			if n := j.Counts[kind]; n > 0 {
				outputs = append(outputs, output{Type: kind, URL: base + "/bulkdata/" + j.Job + "/" + kind + ".ndjson", Count: n})
			}
			// Since a time: what was there and is no more, a type's deletions in a file of
			// transaction Bundles (Bulk Data 2.0's "deleted").
			if n := j.Counts[kind+deletedSuffix]; n > 0 {
				deleted = append(deleted, output{Type: "Bundle", URL: base + "/bulkdata/" + j.Job + "/" + kind + deletedSuffix + ".ndjson", Count: n})
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
			"output": outputs, "error": errs, "deleted": deleted,
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
	name := kind // the file's: a type's, or its deletions'
	kind = strings.TrimSuffix(kind, deletedSuffix)
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
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "fhir.bulk_file.download", "bulk_export", j.Job, audit.Success, name
	if err := audit.Access(r.Context(), h.DB, e); err != nil {
		WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/fhir+ndjson")
	w.Header().Set("Cache-Control", "no-store")
	if err := (exports{h.DB}).eachChunk(r.Context(), j.ID, name, func(data string) error {
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
	if slices.Contains(spec.Types, "MedicationRequest") || slices.Contains(spec.Types, "MedicationStatement") {
		if err := h.prescriptions(nil, patientID).each(ctx, func(rx prescription.Prescription) error {
			if since(instant(rx.UpdatedAt)) {
				return emitAll(toMedicationRequests(rx))
			}
			return nil
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "MedicationStatement") {
		if err := h.taken(nil, patientID).each(ctx, func(t prescription.Taken) error {
			if since(instant(t.UpdatedAt)) {
				return emitAll(toTakenStatements(t))
			}
			return nil
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "DocumentReference") {
		if err := h.documents(nil, patientID).each(ctx, func(d document.Document) error {
			if res := documentReferenceOf(d); since(res.Meta.LastUpdated) {
				return emit(res)
			}
			return nil
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "Immunization") {
		if err := h.immunisations(nil, patientID, spec.Since).each(ctx, func(x immunisation.Recorded) error {
			return emit(toImmunization(x, "en"))
		}, step); err != nil {
			return err
		}
	}
	if slices.Contains(spec.Types, "ImmunizationRecommendation") {
		// Worked out now: as new as the export, whatever _since says.
		return h.recommendationsEach(ctx, patientID, "en", emit, step)
	}
	return nil
}

// exportClinic writes the clinic's staff (every account: a record may name one who has
// since left), the clinic and its premises, once per export: they are few, and the patients'
// resources refer to them.
func (h *Handler) exportClinic(ctx context.Context, spec ExportSpec, emit func(Resource) error) error {
	want := func(kind string) bool { return slices.Contains(spec.Types, kind) }
	if want("Practitioner") || want("PractitionerRole") {
		var after int64
		for {
			list, err := user.Page(ctx, h.DB, after, false, exportBatch)
			if err != nil {
				return err
			}
			for _, u := range list {
				after = u.ID
				if spec.Since != nil && u.UpdatedAt.Before(*spec.Since) {
					continue
				}
				if err := emit(toPractitioner(u)); err != nil {
					return err
				}
				if !want("PractitionerRole") {
					continue
				}
				if u, err = user.Get(ctx, h.DB, u.ID); err != nil {
					return err
				}
				if err := emit(toPractitionerRole(u)); err != nil {
					return err
				}
			}
			if len(list) < exportBatch {
				break
			}
		}
	}
	if !want("Organization") && !want("Location") {
		return nil
	}
	c, err := settings.ReadClinic(ctx, h.DB)
	if err != nil {
		return err
	}
	if err := emit(h.organizationOf(c)); err != nil {
		return err
	}
	return emit(locationOf(c))
}
