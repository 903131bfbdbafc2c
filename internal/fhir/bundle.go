package fhir

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	pathpkg "path"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// Bounds of one batch or transaction (ADR 35), so that one request cannot grow the server
// by more than tens of megabytes:
//   - MaxEntries entries: a clinic's register of a thousand patients loads in one Bundle.
//   - MaxBundle bytes of request: 8 MB (it was 16) is eight kilobytes an entry at the most
//     entries, several times a registration's size, and the body is held twice while it is
//     decoded (the bytes and the entries' resources).
//   - The answer is streamed to the caller entry by entry once the writes are committed:
//     only the entry being answered is held. A read's answer over MaxEntryAnswer is not
//     kept (the entry says to page it), and once the reads have answered MaxBundleAnswer
//     bytes the rest are not run (each says so): one Bundle cannot keep the server reading
//     for the whole clinic. A read's page is the search's own (_count at most MaxCount).
//   - Writes in Bundles count against the credential's rate, BundleWritesPerMinute.
const (
	MaxEntries      = 1000
	MaxBundle       = 8 << 20
	MaxEntryAnswer  = 16 << 20 // a Patient/$everything of MaxEverything resources fits
	MaxBundleAnswer = 64 << 20
)

// answerLimits are MaxBundleAnswer and MaxEntryAnswer as the handler applies them (tests
// lower them rather than read 64 MB).
var answerLimits = struct{ total, entry int }{MaxBundleAnswer, MaxEntryAnswer}

// bundleIn is a batch or transaction Bundle as a client sends it.
type bundleIn struct {
	ResourceType string          `json:"resourceType"`
	ID           string          `json:"id,omitempty"`
	Meta         json.RawMessage `json:"meta,omitempty"`
	Type         string          `json:"type"`
	Timestamp    string          `json:"timestamp,omitempty"`
	Entry        []entryIn       `json:"entry"`
}

type entryIn struct {
	FullURL  string          `json:"fullUrl,omitempty"`
	Resource json.RawMessage `json:"resource,omitempty"`
	Request  *EntryRequest   `json:"request"`
}

// rawResource is a resource answered by another route, as it answered it.
type rawResource struct {
	json.RawMessage
	kind, id, version string
}

func (r rawResource) ResourceKind() string         { return r.kind }
func (r rawResource) ResourceID() string           { return r.id }
func (r rawResource) VersionID() string            { return r.version }
func (r rawResource) MarshalJSON() ([]byte, error) { return r.RawMessage, nil }

// entryWork is one entry of a Bundle being processed.
type entryWork struct {
	index    int
	in       entryIn
	method   string
	kind, id string
	order    int // DELETE, POST, PUT, GET: the order a transaction processes them in
	// after are the entries whose fullUrl it references: written before it, whatever the
	// order of the Bundle, so that its references name what they became.
	after    []*entryWork
	response BundleEntry
}

var methodOrder = map[string]int{"DELETE": 0, "POST": 1, "PUT": 2, "PATCH": 2, "GET": 3, "HEAD": 3}

// entryError is a refusal of one entry.
func entryError(lang string, err error) (BundleEntry, int) {
	status, oo := Outcome(lang, err)
	return BundleEntry{Response: &EntryResponse{Status: strconv.Itoa(status) + " " + http.StatusText(status), Outcome: &oo}}, status
}

// processBundle answers a batch or a transaction (POST to the base).
func (h *Handler) processBundle(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r, MaxBundle)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var b bundleIn
	if err := decodeStrict(data, &b); err != nil {
		WriteError(w, r, err)
		return
	}
	switch {
	case b.ResourceType != "Bundle":
		WriteError(w, r, invalid("fhir.wrong_resource_type", "resourceType", "Bundle"))
		return
	case b.Type != "batch" && b.Type != "transaction":
		WriteError(w, r, invalid("fhir.bundle_type", "Bundle.type"))
		return
	case len(b.Entry) > MaxEntries:
		WriteError(w, r, &Error{Status: http.StatusRequestEntityTooLarge, Code: "too-costly", Key: "fhir.too_many_entries", Args: []any{len(b.Entry), MaxEntries}, Expression: "Bundle.entry"})
		return
	}
	work := make([]*entryWork, len(b.Entry))
	fullURLs := map[string]int{} // two entries with one fullUrl: references to it name neither (bdl-7)
	for i, e := range b.Entry {
		ew := &entryWork{index: i, in: e}
		if e.Request == nil || e.Request.Method == "" || e.Request.URL == "" {
			WriteError(w, r, invalid("fhir.entry_request", "Bundle.entry["+strconv.Itoa(i)+"].request", i))
			return
		}
		if first, seen := fullURLs[e.FullURL]; seen && e.FullURL != "" {
			WriteError(w, r, invalid("fhir.fullurl_repeated", "Bundle.entry["+strconv.Itoa(i)+"].fullUrl", e.FullURL, first))
			return
		}
		fullURLs[e.FullURL] = i
		ew.method = strings.ToUpper(e.Request.Method)
		ew.order = methodOrder[ew.method]
		path, _, _ := strings.Cut(strings.TrimPrefix(e.Request.URL, h.baseURL(r)+"/"), "?")
		ew.kind, ew.id, _ = strings.Cut(strings.Trim(path, "/"), "/")
		work[i] = ew
	}
	lang := i18n.FromRequest(r)
	ordered := slices.Clone(work)
	slices.SortStableFunc(ordered, func(a, b *entryWork) int { return a.order - b.order })
	refs := map[string]string{} // urn:uuid fullUrls → the references of what they became

	transaction := b.Type == "transaction"
	var writes []*entryWork
	for _, ew := range ordered {
		if ew.method != "GET" && ew.method != "HEAD" {
			writes = append(writes, ew)
		}
	}
	if len(writes) > 0 {
		wait, err := h.takeBundleWrites(r, len(writes))
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if wait > 0 {
			seconds := auth.Seconds(wait)
			w.Header().Set("Retry-After", strconv.Itoa(seconds))
			WriteError(w, r, &Error{Status: http.StatusTooManyRequests, Code: "throttled", Key: "fhir.bundle_writes_throttled",
				Args: []any{BundleWritesPerMinute, seconds}, Expression: "Bundle.entry"})
			return
		}
	}
	targets := createdURLs(work)
	var refused []error // a batch's entries refused before any write, by position in writes
	if writes, refused, err = planWrites(writes, targets, transaction); err != nil {
		WriteError(w, r, err)
		return
	}
	var failures []error
	if creates(writes) && !slices.ContainsFunc(refused, func(err error) bool { return err != nil }) {
		// Registrations alone (a register loaded in bulk): a few statements for all of them.
		failures, err = h.createAll(r, writes, refs, transaction)
	} else {
		// Each entry's answer is the last run's: a transaction run again starts afresh. A
		// transaction's finished visits are completed in a last step, once the entries that
		// write into them (their vital signs) are written.
		failures = make([]error, len(writes))
		var finishing []finishingEntry
		steps := len(writes)
		if transaction && steps > 0 {
			steps++
		}
		_, err = h.Patients.Batch(r.Context(), transaction, steps, func(i int, tx *sql.Tx) error {
			if i == 0 {
				clear(refs)
				finishing = finishing[:0]
			}
			if i == len(writes) {
				return h.finishVisits(r, tx, finishing)
			}
			if refused[i] != nil {
				failures[i] = refused[i]
				return refused[i]
			}
			out, err := h.writeEntry(r, tx, writes[i], refs, targets)
			if err != nil {
				failures[i] = err
				return err
			}
			if out.finishing != 0 && transaction {
				finishing = append(finishing, finishingEntry{writes[i], out})
			} else if out, err = h.finishVisit(r, tx, out); err != nil {
				failures[i] = err
				return err
			}
			writes[i].response = h.entryOf(r, out)
			failures[i] = nil
			return nil
		})
	}
	var failed *patient.StepError
	if errors.As(err, &failed) {
		var late *entryFailure
		index := 0
		if errors.As(failed.Err, &late) {
			index, failed.Err = late.index, late.err
		} else {
			index = writes[failed.Step].index
		}
		status, oo := Outcome(lang, failed.Err)
		for i := range oo.Issue {
			oo.Issue[i].Expression = append([]string{"Bundle.entry[" + strconv.Itoa(index) + "]"}, oo.Issue[i].Expression...)
		}
		write(w, status, oo)
		return
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	for i, ferr := range failures {
		if ferr != nil {
			writes[i].response, _ = entryError(lang, ferr)
		}
	}
	h.streamBundle(w, r, b.Type+"-response", work, refs)
}

// streamBundle writes the answer Bundle entry by entry, in the order of the request's
// entries, the writes (committed by now) as they were answered and each read (GET, HEAD) as
// it is run, after the writes, through the API's own route (its permission, its audit) as
// the caller. Only one entry's answer is held at a time; every entry has a status, and one
// that could not be answered an OperationOutcome: never an empty 200.
func (h *Handler) streamBundle(w http.ResponseWriter, r *http.Request, kind string, work []*entryWork, refs map[string]string) {
	lang := i18n.FromRequest(r)
	head, err := json.Marshal(Bundle{base: base0("Bundle"), BundleType: kind, Timestamp: instant(time.Now())})
	if err != nil {
		WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	out := bufio.NewWriterSize(w, 64<<10)
	out.Write(head[:len(head)-1])
	out.WriteString(`,"entry":[`)
	answered := 0 // bytes of the reads' answers so far
	for i, ew := range work {
		if r.Context().Err() != nil {
			return // the caller has gone: the reads left are not run
		}
		entry := ew.response
		if ew.method == "GET" || ew.method == "HEAD" {
			if answered >= answerLimits.total {
				entry, _ = entryError(lang, &Error{Status: http.StatusBadRequest, Code: "too-costly", Key: "fhir.bundle_answer_too_large", Args: []any{max(answerLimits.total>>20, 1)},
					Expression: "Bundle.entry[" + strconv.Itoa(i) + "]"})
			} else {
				var size int
				entry, size = h.dispatchRead(r, ew.in.Request.URL, refs)
				answered += size
			}
		}
		if entry.Response == nil || entry.Response.Status == "" {
			entry, _ = entryError(lang, errors.New("bundle: entry "+strconv.Itoa(i)+" has no answer"))
		}
		data, err := json.Marshal(entry)
		if err != nil {
			slog.ErrorContext(r.Context(), "write a Bundle entry", "err", err)
			entry, _ = entryError(lang, err)
			data, _ = json.Marshal(entry)
		}
		if i > 0 {
			out.WriteByte(',')
		}
		if _, err := out.Write(data); err != nil {
			return // the caller has gone
		}
	}
	out.WriteString("]}\n")
	if err := out.Flush(); err != nil {
		slog.DebugContext(r.Context(), "write a Bundle's answer", "err", err)
	}
}

// finishingEntry is a transaction's finished Encounter whose visit is completed after the
// other entries (written.finishing).
type finishingEntry struct {
	ew  *entryWork
	out written
}

// entryFailure is a refusal of a transaction's entry made after the entries' own steps.
type entryFailure struct {
	index int
	err   error
}

func (e *entryFailure) Error() string { return e.err.Error() }
func (e *entryFailure) Unwrap() error { return e.err }

// finishVisits completes the visits of a transaction's finished Encounters, each entry then
// answered as finished.
func (h *Handler) finishVisits(r *http.Request, tx *sql.Tx, list []finishingEntry) error {
	for _, f := range list {
		out, err := h.finishVisit(r, tx, f.out)
		if err != nil {
			return &entryFailure{index: f.ew.index, err: err}
		}
		f.ew.response = h.entryOf(r, out)
	}
	return nil
}

// writeEntry performs one write of a Bundle inside its transaction, its references first
// resolved: those to other entries' fullUrls, to what they became; conditional ones
// (Patient?identifier=…), to the one patient they find.
func (h *Handler) writeEntry(r *http.Request, tx *sql.Tx, ew *entryWork, refs map[string]string, targets map[string]*entryWork) (written, error) {
	p := auth.PrincipalFrom(r.Context())
	action := map[string]byte{"POST": auth.ActCreate, "PUT": auth.ActUpdate}[ew.method]
	t, ok := writableOf(ew.kind)
	if !ok || action == 0 || (ew.method == "POST" && ew.id != "") || (ew.method == "PUT" && ew.id == "") {
		return written{}, &Error{Status: http.StatusMethodNotAllowed, Code: "not-supported", Key: "fhir.entry_unsupported", Args: []any{ew.method + " " + ew.in.Request.URL}}
	}
	if !p.MayFHIR(t.need) {
		return written{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "auth.forbidden"}
	}
	if !p.ScopeAllows(ew.kind, action) {
		return written{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "auth.scope"}
	}
	if len(ew.in.Resource) == 0 {
		return written{}, invalid("fhir.bad_json", "resource")
	}
	data, err := resolveReferences(ew.in.Resource, func(ref string) (string, error) {
		if to, ok := refs[ref]; ok {
			return to, nil
		}
		if _, ok := targets[ref]; ok {
			return "", &Error{Status: http.StatusFailedDependency, Code: "processing", Key: "fhir.reference_failed", Args: []any{ref}}
		}
		if kind, query, ok := strings.Cut(ref, "?"); ok && !strings.Contains(kind, "/") {
			return h.conditionalReference(r, tx, kind, query)
		}
		return ref, nil
	})
	if err != nil {
		return written{}, err
	}
	c := conditions{ifNoneExist: ew.in.Request.IfNoneExist}
	if ew.method == "PUT" {
		c = conditions{ifMatch: ew.in.Request.IfMatch}
	}
	out, err := h.writeOf(r, tx, ew.kind, data, ew.id, c)
	if err != nil {
		return written{}, err
	}
	if ew.method == "POST" && ew.in.FullURL != "" {
		refs[ew.in.FullURL] = out.res.ResourceKind() + "/" + out.res.ResourceID()
	}
	return out, nil
}

// entryOf is a write's entry in the answer (FHIR R4 bundle.html#transaction-response): its
// status, where the version written is, its ETag and time, and the resource, or what the
// caller preferred (Prefer: return=minimal, return=OperationOutcome). A conditional
// create's match the caller may not read answers where it is and that it exists, never the
// patient.
func (h *Handler) entryOf(r *http.Request, out written) BundleEntry {
	res, base := out.res, h.baseURL(r)
	entry := BundleEntry{
		FullURL: base + "/" + res.ResourceKind() + "/" + res.ResourceID(), Resource: res,
		Response: &EntryResponse{Status: strconv.Itoa(out.status) + " " + http.StatusText(out.status), Location: location(base, res.ResourceKind(), res.ResourceID(), res.VersionID()),
			Etag: `W/"` + res.VersionID() + `"`, LastModified: metaOf(res).LastUpdated},
	}
	prefer := preferReturn(r)
	if out.withheld || prefer != "representation" {
		entry.Resource = nil
	}
	if out.withheld || prefer == "OperationOutcome" || len(out.dropped) > 0 {
		oo := writtenOutcome(r, out)
		entry.Response.Outcome = &oo
	}
	return entry
}

// createdURLs are the fullUrls of the entries that create (urn:uuid:…, or an address
// elsewhere): a reference to one names what the entry creates.
func createdURLs(work []*entryWork) map[string]*entryWork {
	out := map[string]*entryWork{}
	for _, ew := range work {
		if ew.method == "POST" && ew.in.FullURL != "" {
			out[ew.in.FullURL] = ew
		}
	}
	return out
}

// planWrites finds what each write references and orders the writes so that an entry is
// written after those it references (then by method, then as sent). A reference to a
// urn:uuid no entry has is refused, naming the entry: a transaction's whole, a batch's entry
// alone (its refusal in the list returned, at its place). References in a circle are a
// Bundle that cannot be written.
func planWrites(writes []*entryWork, targets map[string]*entryWork, atomic bool) ([]*entryWork, []error, error) {
	refusals := map[*entryWork]error{}
	for _, ew := range writes {
		_, err := resolveReferences(ew.in.Resource, func(ref string) (string, error) {
			target, ok := targets[ref]
			switch {
			case ok && target == ew:
				return "", invalid("fhir.reference_cycle", "Bundle.entry["+strconv.Itoa(ew.index)+"]", ref)
			case ok:
				ew.after = append(ew.after, target)
			case strings.HasPrefix(ref, "urn:uuid:") || strings.HasPrefix(ref, "urn:oid:"):
				return "", invalid("fhir.reference_unknown", "Bundle.entry["+strconv.Itoa(ew.index)+"]", ref)
			}
			return ref, nil
		})
		var fe *Error
		if errors.As(err, &fe) && fe.Key == "fhir.reference_cycle" {
			return nil, nil, err
		}
		if err != nil && atomic {
			return nil, nil, err
		}
		if err != nil {
			refusals[ew] = err
		}
	}
	ordered, cycle := dependencyOrder(writes)
	if cycle != nil {
		return nil, nil, invalid("fhir.reference_cycle", "Bundle.entry["+strconv.Itoa(cycle.index)+"]", cycle.in.FullURL)
	}
	refused := make([]error, len(ordered))
	for i, ew := range ordered {
		refused[i] = refusals[ew]
	}
	return ordered, refused, nil
}

// dependencyOrder orders writes (sorted by method, then as sent) so that each comes after
// the entries it references, otherwise keeping their order; it answers an entry in a circle
// of references when there is one.
func dependencyOrder(writes []*entryWork) ([]*entryWork, *entryWork) {
	waiting := map[*entryWork]int{} // how many of its entries are still to be written
	users := map[*entryWork][]*entryWork{}
	for _, ew := range writes {
		for _, d := range ew.after {
			waiting[ew]++
			users[d] = append(users[d], ew)
		}
	}
	out := make([]*entryWork, 0, len(writes))
	done := map[*entryWork]bool{}
	for len(out) < len(writes) {
		next := -1
		for i, ew := range writes {
			if !done[ew] && waiting[ew] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			for _, ew := range writes {
				if !done[ew] {
					return nil, ew
				}
			}
		}
		ew := writes[next]
		done[ew] = true
		out = append(out, ew)
		for _, u := range users[ew] {
			waiting[u]--
		}
	}
	return out, nil
}

// resolveReferences answers the resource with each Reference.reference replaced by what
// resolve makes of it: the values of reference elements alone, never other strings. A
// resource that is not JSON is answered as it is (its write refuses it).
func resolveReferences(data []byte, resolve func(string) (string, error)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers kept as written
	var tree any
	if dec.Decode(&tree) != nil {
		return data, nil
	}
	changed, err := eachReference(tree, resolve)
	if err != nil || !changed {
		return data, err
	}
	return json.Marshal(tree)
}

func eachReference(v any, resolve func(string) (string, error)) (bool, error) {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s, ok := x[k].(string); ok && k == "reference" {
				to, err := resolve(s)
				if err != nil {
					return false, err
				}
				changed = changed || to != s
				x[k] = to
				continue
			}
			c, err := eachReference(x[k], resolve)
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
	case []any:
		for _, item := range x {
			c, err := eachReference(item, resolve)
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
	}
	return changed, nil
}

// conditionalReference resolves a reference by search (Patient?identifier=system|value)
// inside the transaction: exactly one patient is the reference; none or several fail the
// entry (412). Patients alone are searched so; a caller who may not read patients may name
// one by its number alone, as in a conditional create. The search is audited with the write.
func (h *Handler) conditionalReference(r *http.Request, tx *sql.Tx, kind, query string) (string, error) {
	ref := kind + "?" + query
	if kind != "Patient" {
		return "", &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.conditional_reference_type", Args: []any{ref}}
	}
	values, err := url.ParseQuery(query)
	if err != nil || len(values) == 0 {
		return "", invalid("fhir.bad_reference", "reference", ref)
	}
	if p := auth.PrincipalFrom(r.Context()); !searchesRegister(p) {
		for name := range values {
			if name != "identifier" {
				return "", &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.conditional_identifier_only", Expression: "reference"}
			}
		}
	}
	probe := &http.Request{URL: &url.URL{RawQuery: values.Encode()}, Header: http.Header{"Prefer": {"handling=strict"}}}
	q, err := parseQuery(probe, patientParams)
	if err != nil {
		return "", err
	}
	f, matches, err := patientFilter(q, h.ownSystems(r.Context()))
	if err != nil {
		return "", err
	}
	if !matches {
		f.IDs = []int64{-1}
	}
	f.Limit, f.After = 2, 0
	found, _, err := h.Patients.PageIn(r.Context(), tx, f)
	if err != nil {
		return "", err
	}
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.Outcome, e.Detail = "fhir.patient.list", "patient", audit.Success, "conditional reference "+ref+": "+strconv.Itoa(len(found))+" found"
	if len(found) == 1 {
		e.EntityID, e.PatientID = strconv.FormatInt(found[0].ID, 10), found[0].ID
	}
	if err := audit.Record(r.Context(), tx, e); err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", &Error{Status: http.StatusPreconditionFailed, Code: "not-found", Key: "fhir.conditional_reference_none", Args: []any{ref}}
	case 1:
		return "Patient/" + strconv.FormatInt(found[0].ID, 10), nil
	}
	return "", &Error{Status: http.StatusPreconditionFailed, Code: "multiple-matches", Key: "fhir.conditional_reference_several", Args: []any{ref}}
}

// recorder keeps what a route answered to a read of a Bundle, up to limit bytes: past it,
// the answer is dropped and over set.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	limit  int
	over   bool
}

func (c *recorder) Header() http.Header { return c.header }
func (c *recorder) Write(b []byte) (int, error) {
	if c.over || c.body.Len()+len(b) > c.limit {
		if !c.over {
			c.over, c.body = true, bytes.Buffer{}
		}
		return len(b), nil
	}
	return c.body.Write(b)
}
func (c *recorder) WriteHeader(status int) { c.status = status }

// notInBundle are the operations a Bundle does not run: an export's kick-off answers later,
// at an address of its own, and its files are not resources.
func notInBundle(path string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return first == "bulkdata" || strings.Contains(path, "$export")
}

// issueCodes are the issue types of the statuses a read may answer without saying why.
var issueCodes = map[int]string{http.StatusBadRequest: "invalid", http.StatusUnauthorized: "login", http.StatusForbidden: "forbidden",
	http.StatusNotFound: "not-found", http.StatusMethodNotAllowed: "not-supported", http.StatusNotAcceptable: "not-supported",
	http.StatusGone: "deleted", http.StatusTooManyRequests: "throttled"}

// dispatchRead answers a read entry through the API's own route, as the caller, and says
// how many bytes its answer took. A read that fails has its status and an OperationOutcome;
// one whose route answered nothing usable, an OperationOutcome that says so.
func (h *Handler) dispatchRead(r *http.Request, rawURL string, refs map[string]string) (BundleEntry, int) {
	lang := i18n.FromRequest(r)
	for urn, ref := range refs {
		rawURL = strings.ReplaceAll(rawURL, urn, ref)
	}
	path := strings.TrimPrefix(rawURL, h.baseURL(r))
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	only, _, _ := strings.Cut(path, "?")
	if cleaned := pathpkg.Clean(only); cleaned != only && cleaned+"/" != only {
		e, _ := entryError(lang, invalid("fhir.entry_url", "request.url", rawURL))
		return e, 0
	}
	if notInBundle(only) {
		e, _ := entryError(lang, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.entry_not_in_bundle", Args: []any{rawURL}, Expression: "request.url"})
		return e, 0
	}
	req, err := http.NewRequestWithContext(context.WithoutCancel(r.Context()), http.MethodGet, Base+path, nil)
	if err != nil || h.Dispatch == nil {
		e, _ := entryError(lang, invalid("fhir.bad_value", "request.url", "url"))
		return e, 0
	}
	for _, name := range []string{"Authorization", "Cookie", "Accept-Language"} {
		if v := r.Header.Get(name); v != "" {
			req.Header.Set(name, v)
		}
	}
	req.Host, req.RemoteAddr, req.TLS = r.Host, r.RemoteAddr, r.TLS
	rec := &recorder{header: http.Header{}, status: http.StatusOK, limit: answerLimits.entry}
	h.Dispatch.ServeHTTP(rec, req)
	size := rec.body.Len()
	if rec.over {
		e, _ := entryError(lang, &Error{Status: http.StatusBadRequest, Code: "too-costly", Key: "fhir.entry_answer_too_large", Args: []any{max(answerLimits.entry>>20, 1)}, Expression: "request.url"})
		return e, answerLimits.entry
	}
	res := rawResource{RawMessage: bytes.TrimSpace(rec.body.Bytes())}
	var head struct {
		ResourceType string `json:"resourceType"`
		ID           string `json:"id"`
		Meta         *Meta  `json:"meta"`
	}
	parsed := json.Unmarshal(res.RawMessage, &head) == nil && head.ResourceType != ""
	res.kind, res.id = head.ResourceType, head.ID
	if head.Meta != nil {
		res.version = head.Meta.VersionID
	}
	switch {
	case rec.status >= 400:
		entry := BundleEntry{Response: &EntryResponse{Status: strconv.Itoa(rec.status) + " " + http.StatusText(rec.status)}}
		var oo OperationOutcome
		if parsed && head.ResourceType == "OperationOutcome" && json.Unmarshal(res.RawMessage, &oo) == nil {
			entry.Response.Outcome = &oo
		} else {
			code := issueCodes[rec.status]
			if code == "" {
				code = "exception"
			}
			_, oo = Outcome(lang, &Error{Status: rec.status, Code: code, Key: "fhir.entry_failed", Args: []any{strconv.Itoa(rec.status) + " " + http.StatusText(rec.status)}})
			entry.Response.Outcome = &oo
		}
		return entry, size
	case rec.status >= 300 || rec.status < 200:
		// A redirect (a path the router would have cleaned): not a read's answer.
		e, _ := entryError(lang, invalid("fhir.entry_url", "request.url", rawURL))
		return e, size
	case !parsed:
		slog.ErrorContext(r.Context(), "a Bundle's read answered no resource", "status", rec.status, "bytes", size)
		e, _ := entryError(lang, errors.New("bundle: a read answered no resource"))
		return e, size
	}
	entry := BundleEntry{Resource: res, Response: &EntryResponse{Status: strconv.Itoa(rec.status) + " " + http.StatusText(rec.status), Etag: rec.header.Get("ETag")}}
	if head.ID != "" && head.ResourceType != "Bundle" {
		entry.FullURL = h.baseURL(r) + "/" + head.ResourceType + "/" + head.ID
	}
	return entry, size
}

// creates reports whether every write is a plain registration (POST Patient, no condition,
// no identifier: another patient may have one, which is checked a registration at a time; no
// confirmation that it is a different person from a possible duplicate, which is too).
func creates(writes []*entryWork) bool {
	for _, ew := range writes {
		if ew.method != "POST" || ew.kind != "Patient" || ew.id != "" || ew.in.Request.IfNoneExist != "" || bytes.Contains(ew.in.Resource, []byte(`"identifier"`)) ||
			bytes.Contains(ew.in.Resource, []byte(distinctFromName)) {
			return false
		}
	}
	return len(writes) > 1
}

// createAll registers a Bundle's patients through patient.Store.CreateMany: the same checks
// as one by one, in a few statements. It answers each entry's error (a transaction's first
// as a *patient.StepError).
func (h *Handler) createAll(r *http.Request, writes []*entryWork, refs map[string]string, atomic bool) ([]error, error) {
	p := auth.PrincipalFrom(r.Context())
	failures := make([]error, len(writes))
	if !p.MayFHIR(auth.ManagePatient) || !p.ScopeAllows("Patient", auth.ActCreate) {
		key := "auth.forbidden"
		if p.MayFHIR(auth.ManagePatient) {
			key = "auth.scope"
		}
		err := &Error{Status: http.StatusForbidden, Code: "forbidden", Key: key}
		if atomic {
			return nil, &patient.StepError{Step: 0, Err: err}
		}
		for i := range failures {
			failures[i] = err
		}
		return failures, nil
	}
	inputs := make([]patient.Input, 0, len(writes))
	at := make([]int, 0, len(writes)) // the write each input is
	dropped := make([]notes, len(writes))
	own := h.ownSystems(r.Context())
	for i, ew := range writes {
		var in patientIn
		var input patient.Input
		err := decodeResource(ew.in.Resource, "Patient", &in, &dropped[i])
		if err == nil && in.ResourceType != "Patient" {
			err = invalid("fhir.wrong_resource_type", "resourceType", "Patient")
		}
		if err == nil {
			input, err = createInput(in, own, &dropped[i])
		}
		if err == nil {
			_, err = h.distinctFrom(r.Context(), in, false, &dropped[i]) // none confirms: creates
		}
		if err != nil {
			if atomic {
				return nil, &patient.StepError{Step: i, Err: err}
			}
			failures[i] = err
			continue
		}
		inputs, at = append(inputs, input), append(at, i)
	}
	made, errs, err := h.Patients.CreateMany(r.Context(), auth.AuditEvent(r), inputs, atomic)
	var step *patient.StepError
	if errors.As(err, &step) {
		return nil, &patient.StepError{Step: at[step.Step], Err: h.duplicateRefusal(r.Context(), step.Err)}
	}
	if err != nil {
		return nil, err
	}
	for k, i := range at {
		if errs[k] != nil {
			failures[i] = h.duplicateRefusal(r.Context(), errs[k])
			continue
		}
		res := toPatient(made[k], own[0])
		if writes[i].in.FullURL != "" {
			refs[writes[i].in.FullURL] = "Patient/" + res.ID
		}
		writes[i].response = h.entryOf(r, written{res: res, status: http.StatusCreated, dropped: dropped[i]})
	}
	return failures, nil
}
