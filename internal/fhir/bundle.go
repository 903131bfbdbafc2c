package fhir

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// MaxEntries is how many entries one batch or transaction may hold; MaxBundle its size.
const (
	MaxEntries = 1000
	MaxBundle  = 16 << 20
)

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
	for i, e := range b.Entry {
		ew := &entryWork{index: i, in: e}
		if e.Request == nil || e.Request.Method == "" || e.Request.URL == "" {
			WriteError(w, r, invalid("fhir.entry_request", "Bundle.entry["+strconv.Itoa(i)+"].request", i))
			return
		}
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
	var failures []error
	if creates(writes) {
		// Registrations alone (a register loaded in bulk): a few statements for all of them.
		failures, err = h.createAll(r, writes, refs, transaction)
	} else {
		failures, err = h.Patients.Batch(r.Context(), transaction, len(writes), func(i int, tx *sql.Tx) error {
			resp, err := h.writeEntry(r, txWriter{h.Patients, tx}, writes[i], refs)
			writes[i].response = resp
			return err
		})
	}
	var failed *patient.StepError
	if errors.As(err, &failed) {
		status, oo := Outcome(lang, failed.Err)
		index := writes[failed.Step].index
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
	// Reads come last, after the writes are committed, each through the API's own route
	// (its permission, its audit) as the caller.
	for _, ew := range ordered {
		if ew.method == "GET" || ew.method == "HEAD" {
			ew.response = h.dispatchRead(r, ew.in.Request.URL, refs)
		}
	}
	out := Bundle{base: base0("Bundle"), BundleType: b.Type + "-response", Timestamp: instant(time.Now())}
	out.Entry = make([]BundleEntry, len(work))
	for i, ew := range work {
		out.Entry[i] = ew.response
	}
	write(w, http.StatusOK, out)
}

// resolve replaces the urn:uuid references written so far in data.
func resolve(data []byte, refs map[string]string) []byte {
	for urn, ref := range refs {
		data = bytes.ReplaceAll(data, []byte(`"`+urn+`"`), []byte(`"`+ref+`"`))
	}
	return data
}

// writeEntry performs one write of a Bundle inside its transaction.
func (h *Handler) writeEntry(r *http.Request, pw patientWriter, ew *entryWork, refs map[string]string) (BundleEntry, error) {
	p := auth.PrincipalFrom(r.Context())
	action := map[string]byte{"POST": auth.ActCreate, "PUT": auth.ActUpdate}[ew.method]
	if ew.kind != "Patient" || action == 0 || (ew.method == "POST" && ew.id != "") || (ew.method == "PUT" && ew.id == "") {
		return BundleEntry{}, &Error{Status: http.StatusMethodNotAllowed, Code: "not-supported", Key: "fhir.entry_unsupported", Args: []any{ew.method + " " + ew.in.Request.URL}}
	}
	if !p.MayFHIR(auth.ManagePatient) {
		return BundleEntry{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "auth.forbidden"}
	}
	if !p.ScopeAllows("Patient", action) {
		return BundleEntry{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "auth.scope"}
	}
	if len(ew.in.Resource) == 0 {
		return BundleEntry{}, invalid("fhir.bad_json", "resource")
	}
	res, status, err := h.writePatient(r, pw, resolve(ew.in.Resource, refs), ew.id, ew.in.Request.IfNoneExist, ew.in.Request.IfMatch)
	if err != nil {
		return BundleEntry{}, err
	}
	if strings.HasPrefix(ew.in.FullURL, "urn:uuid:") {
		refs[ew.in.FullURL] = "Patient/" + res.ID
	}
	base := h.baseURL(r)
	return BundleEntry{
		FullURL: base + "/Patient/" + res.ID, Resource: res,
		Response: &EntryResponse{Status: strconv.Itoa(status) + " " + http.StatusText(status), Location: location(base, "Patient", res.ID, res.Meta.VersionID),
			Etag: `W/"` + res.Meta.VersionID + `"`, LastModified: res.Meta.LastUpdated},
	}, nil
}

// recorder keeps what a route answered to a read of a Bundle.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *recorder) Header() http.Header         { return c.header }
func (c *recorder) Write(b []byte) (int, error) { return c.body.Write(b) }
func (c *recorder) WriteHeader(status int)      { c.status = status }

// dispatchRead answers a read entry through the API's own route, as the caller.
func (h *Handler) dispatchRead(r *http.Request, rawURL string, refs map[string]string) BundleEntry {
	for urn, ref := range refs {
		rawURL = strings.ReplaceAll(rawURL, urn, ref)
	}
	path := strings.TrimPrefix(rawURL, h.baseURL(r))
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	req, err := http.NewRequestWithContext(context.WithoutCancel(r.Context()), http.MethodGet, Base+path, nil)
	if err != nil || h.Dispatch == nil {
		e, _ := entryError(i18n.FromRequest(r), invalid("fhir.bad_value", "request.url", "url"))
		return e
	}
	for _, name := range []string{"Authorization", "Cookie", "Accept-Language"} {
		if v := r.Header.Get(name); v != "" {
			req.Header.Set(name, v)
		}
	}
	req.Host, req.RemoteAddr, req.TLS = r.Host, r.RemoteAddr, r.TLS
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	h.Dispatch.ServeHTTP(rec, req)
	res := rawResource{RawMessage: bytes.TrimSpace(rec.body.Bytes())}
	var head struct {
		ResourceType string `json:"resourceType"`
		ID           string `json:"id"`
		Meta         *Meta  `json:"meta"`
	}
	_ = json.Unmarshal(res.RawMessage, &head)
	res.kind, res.id = head.ResourceType, head.ID
	if head.Meta != nil {
		res.version = head.Meta.VersionID
	}
	entry := BundleEntry{Response: &EntryResponse{Status: strconv.Itoa(rec.status) + " " + http.StatusText(rec.status), Etag: rec.header.Get("ETag")}}
	if rec.status >= 400 {
		var oo OperationOutcome
		if json.Unmarshal(res.RawMessage, &oo) == nil && oo.ResourceType == "OperationOutcome" {
			entry.Response.Outcome = &oo
		}
		return entry
	}
	if len(res.RawMessage) > 0 {
		entry.Resource = res
		if head.ID != "" && head.ResourceType != "Bundle" {
			entry.FullURL = h.baseURL(r) + "/" + head.ResourceType + "/" + head.ID
		}
	}
	return entry
}

// creates reports whether every write is a plain registration (POST Patient, no condition).
func creates(writes []*entryWork) bool {
	for _, ew := range writes {
		if ew.method != "POST" || ew.kind != "Patient" || ew.id != "" || ew.in.Request.IfNoneExist != "" {
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
	for i, ew := range writes {
		var in patientIn
		err := decodeStrict(ew.in.Resource, &in)
		switch {
		case err != nil:
		case in.ID != "":
			err = invalid("fhir.id_on_create", "Patient.id")
		case len(in.Identifier) > 0:
			err = invalid("fhir.identifier_assigned", "Patient.identifier")
		case in.Active != nil && !*in.Active:
			err = invalid("fhir.active_on_create", "Patient.active")
		}
		var input patient.Input
		if err == nil {
			input, err = toInput(in.Patient, patient.Input{})
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
		return nil, &patient.StepError{Step: at[step.Step], Err: asFHIR(step.Err)}
	}
	if err != nil {
		return nil, err
	}
	base := h.baseURL(r)
	for k, i := range at {
		if errs[k] != nil {
			failures[i] = asFHIR(errs[k])
			continue
		}
		res := toPatient(made[k])
		if strings.HasPrefix(writes[i].in.FullURL, "urn:uuid:") {
			refs[writes[i].in.FullURL] = "Patient/" + res.ID
		}
		writes[i].response = BundleEntry{FullURL: base + "/Patient/" + res.ID, Resource: res,
			Response: &EntryResponse{Status: "201 Created", Location: location(base, "Patient", res.ID, res.Meta.VersionID), Etag: `W/"1"`, LastModified: res.Meta.LastUpdated}}
	}
	return failures, nil
}
