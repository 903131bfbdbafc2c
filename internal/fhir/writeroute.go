package fhir

import (
	"database/sql"
	"net/http"
	"strings"

	"emr/internal/auth"
	"emr/internal/i18n"
)

// conditions are a write's preconditions: If-None-Exist of a create, If-Match of an update,
// from the request's headers or a Bundle entry's request.
type conditions struct{ ifNoneExist, ifMatch string }

// version is If-Match's version: an update needs one, so that no one's change is lost.
func (c conditions) version() (int, error) {
	if c.ifMatch == "" {
		return 0, &Error{Status: http.StatusPreconditionRequired, Code: "required", Key: "fhir.if_match_required", Expression: "If-Match"}
	}
	return ifMatch(c.ifMatch)
}

// written is what a write made: the resource and the status (201 created, 200 updated or a
// conditional create's match); withheld when the match is one the caller may not read.
type written struct {
	res      Resource
	status   int
	matched  bool // a conditional create found it: nothing was written
	withheld bool
	dropped  notes // what the resource sent held that the clinic's record does not keep
	// finishing is the visit a finished Encounter's create registered in progress, to be
	// completed (finishVisit) once the writes into it are done: at once for a write on its
	// own or a batch's entry, after the other entries for a transaction's.
	finishing int64
}

// writable is how a type is written through the API, alone or in a Bundle (every write of
// a transaction Bundle, whatever its type, is one database transaction): the native
// permission a write of it needs (a token's scope must allow it too), the write inside the
// caller's transaction (id "" creates), what it changes, and, when a type has its own, the
// create and update routes' handlers (nil: writeRoute).
type writable struct {
	need      auth.Permission
	write     func(h *Handler, r *http.Request, tx *sql.Tx, data []byte, id string, c conditions) (written, error)
	announces auth.Change
	create    func(h *Handler) http.HandlerFunc
	update    func(h *Handler) http.HandlerFunc
}

// writeOf writes a resource of kind inside tx. Only a Patient's create may be conditional:
// the other types' searches are not the register's, and a condition ignored would make a
// duplicate the caller meant to avoid.
func (h *Handler) writeOf(r *http.Request, tx *sql.Tx, kind string, data []byte, id string, c conditions) (written, error) {
	if c.ifNoneExist != "" && kind != "Patient" {
		return written{}, &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.conditional_create_type", Args: []any{kind}, Expression: "If-None-Exist"}
	}
	t, _ := writableOf(kind)
	return t.write(h, r, tx, data, id, c)
}

// writePatientIn is a Patient's write inside tx.
func (h *Handler) writePatientIn(r *http.Request, tx *sql.Tx, data []byte, id string, c conditions) (written, error) {
	res, status, dropped, err := h.writePatient(r, txWriter{h.Patients, tx}, data, id, c.ifNoneExist, c.ifMatch)
	return written{res: res, status: status, matched: id == "" && status == http.StatusOK, withheld: res.withheld, dropped: dropped}, err
}

// writeRoute answers a create (POST Type) or an update (PUT Type/{id}) of kind, in one
// transaction with its audit.
func (h *Handler) writeRoute(kind string, update bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := readBody(w, r, MaxResource)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		var id string
		c := conditions{ifNoneExist: r.Header.Get("If-None-Exist")}
		if update {
			id, c = r.PathValue("id"), conditions{ifMatch: r.Header.Get("If-Match")}
		}
		// One write in one transaction with its audit, as a Bundle's writes are (the
		// refusal, a *patient.StepError, unwraps to the write's own error).
		var out written
		_, err = h.Patients.Batch(r.Context(), true, 1, func(_ int, tx *sql.Tx) error {
			var err error
			out, err = h.writeOf(r, tx, kind, data, id, c)
			if err != nil {
				return err
			}
			out, err = h.finishVisit(r, tx, out)
			return err
		})
		if err != nil {
			WriteError(w, r, err)
			return
		}
		h.answer(w, r, out)
	}
}

// answer answers a write: where the version written is, its ETag and time, the elements it
// did not keep, and the resource or what the caller preferred (Prefer: return=minimal,
// return=OperationOutcome, FHIR R4 http.html#ins-ret). A conditional create's match the
// caller may not read answers where it is and that it exists, never the patient.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, out written) {
	res := out.res
	w.Header().Set("Location", location(h.baseURL(r), res.ResourceKind(), res.ResourceID(), res.VersionID()))
	if modified := lastModified(metaOf(res).LastUpdated); modified != "" {
		w.Header().Set("Last-Modified", modified)
	}
	w.Header().Set("ETag", `W/"`+res.VersionID()+`"`)
	droppedHeader(w, out.dropped)
	switch prefer := preferReturn(r); {
	case prefer == "minimal":
		w.WriteHeader(out.status)
	case prefer == "OperationOutcome" || out.withheld:
		write(w, out.status, writtenOutcome(r, out))
	default:
		respond(w, out.status, res)
	}
}

// metaOf is a resource's meta (never nil: an empty one when it has none).
func metaOf(res Resource) Meta {
	if m, ok := res.(interface{ metaOf() *Meta }); ok && m.metaOf() != nil {
		return *m.metaOf()
	}
	return Meta{}
}

// preferReturn is what the caller asks a write to answer (Prefer: return=…, FHIR R4
// http.html#ins-ret): "minimal", "OperationOutcome" or "representation" (the default).
func preferReturn(r *http.Request) string {
	for part := range strings.SplitSeq(r.Header.Get("Prefer"), ",") {
		for pref := range strings.SplitSeq(part, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(pref), "return="); ok && (v == "minimal" || v == "OperationOutcome") {
				return v
			}
		}
	}
	return "representation"
}

// writtenOutcome says what a write did, for Prefer: return=OperationOutcome and a withheld
// match, with a warning for each element it did not keep.
func writtenOutcome(r *http.Request, out written) OperationOutcome {
	lang := i18n.FromRequest(r)
	name := out.res.ResourceKind() + "/" + out.res.ResourceID()
	issue := Issue{Severity: "information", Code: "informational", Diagnostics: i18n.T(lang, "fhir.written", name, out.res.VersionID())}
	switch {
	case out.withheld:
		issue = Issue{Severity: "information", Code: "duplicate", Diagnostics: i18n.T(lang, "fhir.conditional_match", name)}
	case out.matched:
		issue = Issue{Severity: "information", Code: "duplicate", Diagnostics: i18n.T(lang, "fhir.conditional_found", name)}
	}
	return OperationOutcome{base: base0("OperationOutcome"), Issue: append([]Issue{issue}, out.dropped.issues(lang)...)}
}
