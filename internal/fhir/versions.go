package fhir

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/result"
	"emr/internal/settings"
	"emr/internal/user"
)

// The versions of every resource type: a resource is made from one record of a domain (a
// Patient or an AllergyIntolerance from a patient, an Encounter from an appointment, an
// Observation from a visit form or a lab order), its versionId is that record's version, and a version of
// the resource is the record's version as its store kept it, mapped as the live one is.
// Records not changed since versions were kept have their current version only.

// version is one version of a record and the resources it gives.
type version struct {
	seq       int64 // its place among the kept versions (0: the live record)
	recordID  int64
	version   int
	at        time.Time // when it was kept (zero: the live record, not kept)
	patientID int64
	resources []Resource
}

// versionSource is one kind of record whose versions give resources of a type.
type versionSource struct {
	entity string // the audit event's entity type: the record's
	// record is the record a resource id names (false: not one of this source's).
	record func(id string) (int64, bool)
	// kept reads the kept versions q selects.
	kept func(ctx context.Context, q database.KeptQuery, lang string) ([]version, error)
	// live reads the record as it is now (false: there is none).
	live func(ctx context.Context, id int64, lang string) (version, bool, error)
}

// sourceOf makes a versionSource of records of type T kept under kind.
func sourceOf[T any](entity string, record func(id string) (int64, bool),
	kept func(ctx context.Context, q database.KeptQuery, lang string) ([]database.Kept[T], error),
	live func(ctx context.Context, id int64, lang string) (T, bool, error),
	expand func(T) []Resource, patientOf func(T) int64) versionSource {
	return versionSource{
		entity: entity,
		record: record,
		kept: func(ctx context.Context, q database.KeptQuery, lang string) ([]version, error) {
			list, err := kept(ctx, q, lang)
			out := make([]version, len(list))
			for i, k := range list {
				out[i] = version{seq: k.Seq, recordID: k.RecordID, version: k.Version, at: k.RecordedAt, patientID: patientOf(k.Record), resources: expand(k.Record)}
			}
			return out, err
		},
		live: func(ctx context.Context, id int64, lang string) (version, bool, error) {
			x, ok, err := live(ctx, id, lang)
			if !ok || err != nil {
				return version{}, false, err
			}
			v := version{recordID: id, patientID: patientOf(x), resources: expand(x)}
			if len(v.resources) > 0 {
				v.version, _ = strconv.Atoi(v.resources[0].VersionID())
			}
			return v, true, nil
		},
	}
}

// keptOf reads a domain's kept versions of kind as they were written.
func keptOf[T any](db database.Querier, kind string) func(ctx context.Context, q database.KeptQuery, lang string) ([]database.Kept[T], error) {
	return func(ctx context.Context, q database.KeptQuery, _ string) ([]database.Kept[T], error) {
		return database.ReadKept[T](ctx, db, kind, q)
	}
}

// typeVersions is how one type's versions are read.
type typeVersions struct {
	kind    string
	action  string // the audit actions' stem: fhir.<action>.read
	sources []versionSource
}

// firstOf is the first item of a one-record page, and whether there was one.
func firstOf[T any](list []T, err error) (T, bool, error) {
	var zero T
	if err != nil || len(list) == 0 {
		return zero, false, err
	}
	return list[0], true, nil
}

func wholeID(id string) (int64, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil && n > 0
}

func headID(id string) (int64, bool) {
	n, _, err := splitID("", id)
	return n, err == nil
}

func labID(id string) (int64, bool) {
	rest, ok := strings.CutPrefix(id, "lab-")
	if !ok {
		return 0, false
	}
	return headID(rest)
}

func visitID(id string) (int64, bool) {
	if strings.HasPrefix(id, "lab-") {
		return 0, false
	}
	return headID(id)
}

// recordSources make the versionSources of the kinds of record resources are made from,
// each given how one record's version expands to a type's resources.
type recordSources struct {
	appointments func(expand func(appointment.Record) []Resource) versionSource
	visits       func(expand func(appointment.Record) []Resource) versionSource
	orders       func(record func(string) (int64, bool), expand func(result.Order) []Resource) versionSource
	patients     func(record func(string) (int64, bool), expand func(patient.Patient) []Resource) versionSource
	// A staff account gives its Practitioner and PractitionerRole; the clinic's settings its
	// Organization and Location.
	staff  func(expand func(user.User) []Resource) versionSource
	clinic func(expand func(settings.Clinic) []Resource) versionSource
}

// recordSources are h's sources of records' versions.
func (h *Handler) recordSources() recordSources {
	liveRecord := func(ctx context.Context, id int64, _ string) (appointment.Record, bool, error) {
		rec, err := h.record(ctx, id)
		if rec == nil || err != nil {
			return appointment.Record{}, false, err
		}
		return *rec, true, nil
	}
	recordPatient := func(rec appointment.Record) int64 { return rec.PatientID }
	return recordSources{
		appointments: func(expand func(appointment.Record) []Resource) versionSource {
			return sourceOf("appointment", wholeID, keptOf[appointment.Record](h.DB, appointment.VersionKind), liveRecord, expand, recordPatient)
		},
		visits: func(expand func(appointment.Record) []Resource) versionSource {
			return sourceOf("appointment", visitID, keptOf[appointment.Record](h.DB, appointment.VisitVersionKind), liveRecord, expand, recordPatient)
		},
		orders: func(record func(string) (int64, bool), expand func(result.Order) []Resource) versionSource {
			return sourceOf("lab_order", record, h.Results.Kept, func(ctx context.Context, id int64, lang string) (result.Order, bool, error) {
				return firstOf(h.Results.Page(ctx, []int64{id}, 0, 0, false, 1, lang))
			}, expand, func(o result.Order) int64 { return o.PatientID })
		},
		patients: func(record func(string) (int64, bool), expand func(patient.Patient) []Resource) versionSource {
			return sourceOf("patient", record, func(ctx context.Context, q database.KeptQuery, _ string) ([]database.Kept[patient.Patient], error) {
				return h.Patients.Kept(ctx, q)
			}, func(ctx context.Context, id int64, _ string) (patient.Patient, bool, error) {
				p, err := h.Patients.Get(ctx, id)
				if apperr.KindOf(err) == apperr.KindNotFound {
					return p, false, nil
				}
				return p, err == nil, err
			}, expand, func(p patient.Patient) int64 { return p.ID })
		},
		staff: func(expand func(user.User) []Resource) versionSource {
			return sourceOf("user", wholeID, keptOf[user.User](h.DB, user.VersionKind),
				func(ctx context.Context, id int64, _ string) (user.User, bool, error) {
					u, err := user.Get(ctx, h.DB, id)
					if apperr.KindOf(err) == apperr.KindNotFound {
						return u, false, nil
					}
					return u, err == nil, err
				}, expand, func(user.User) int64 { return 0 })
		},
		clinic: func(expand func(settings.Clinic) []Resource) versionSource {
			return sourceOf("settings", func(id string) (int64, bool) { return settings.ClinicRecordID, id == clinicID },
				keptOf[settings.Clinic](h.DB, settings.ClinicVersionKind),
				func(ctx context.Context, _ int64, _ string) (settings.Clinic, bool, error) {
					c, err := settings.ReadClinic(ctx, h.DB)
					return c, err == nil, err
				}, expand, func(settings.Clinic) int64 { return 0 })
		},
	}
}

// versioned lists the types whose versions the API serves, and how (resourceTypes).
func (h *Handler) versioned() []typeVersions {
	s := h.recordSources()
	var out []typeVersions
	for _, t := range resourceTypes {
		if t.versions != nil {
			out = append(out, typeVersions{kind: t.kind, action: t.action, sources: t.versions(h, s)})
		}
	}
	return out
}

// pick is the resource of kind with id among list.
func pick(list []Resource, kind, id string) Resource {
	for _, res := range list {
		if res.ResourceKind() == kind && res.ResourceID() == id {
			return res
		}
	}
	return nil
}

// sourceFor is t's source of the record resource id is made from.
func (t typeVersions) sourceFor(id string) (versionSource, int64, bool) {
	for _, src := range t.sources {
		if n, ok := src.record(id); ok {
			return src, n, true
		}
	}
	return versionSource{}, 0, false
}

func (t typeVersions) audit(h *Handler, r *http.Request, action, entity string, recordID, patientID int64, detail string) error {
	id := ""
	if recordID != 0 {
		id = strconv.FormatInt(recordID, 10)
	}
	return h.audited(r, "fhir."+t.action+action, entity, id, patientID, detail)
}

// read answers one resource as it is now.
func (t typeVersions) read(h *Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		src, recordID, ok := t.sourceFor(id)
		if !ok {
			WriteError(w, r, notFound(t.kind, id))
			return
		}
		v, found, err := src.live(r.Context(), recordID, i18n.FromRequest(r))
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if !found {
			v.resources = nil
		}
		if pick(v.resources, t.kind, id) == nil && h.movedLab(w, r, t.kind, id, recordID, v) {
			return
		}
		missing := notFound(t.kind, id)
		if found && pick(v.resources, t.kind, id) == nil {
			// A resource worked out of its record that an earlier version had and this one has not
			// (a vital removed from the form; a BMI percentile past the tables' ages after a
			// corrected birth date) is gone, not unknown (R4 HTTP: 410 after a delete).
			if gone, err := t.wasKept(r, src, database.KeptQuery{ID: recordID, Limit: maxKeptRead}, id); err != nil {
				WriteError(w, r, err)
				return
			} else if gone {
				missing = goneError(t.kind, id)
			}
		}
		t.answer(h, w, r, src, recordID, v, id, missing, "")
	}
}

// goneError answers a resource that an earlier version had and this one has not (410).
func goneError(kind, id string) *Error {
	return &Error{Status: http.StatusGone, Code: "deleted", Key: "fhir.gone", Args: []any{kind + "/" + id}}
}

// wasKept says whether a kept version q selects held resource id, readable by the caller (one
// it may not read is not said to have been).
func (t typeVersions) wasKept(r *http.Request, src versionSource, q database.KeptQuery, id string) (bool, error) {
	list, err := src.kept(r.Context(), q, i18n.FromRequest(r))
	if err != nil {
		return false, err
	}
	p := auth.PrincipalFrom(r.Context())
	return slices.ContainsFunc(list, func(v version) bool {
		res := pick(v.resources, t.kind, id)
		return res != nil && readRefusal(p, res, auth.ActRead, notFound(t.kind, id)) == nil
	}), nil
}

// maxKeptRead bounds the kept versions of one record read to tell a resource gone.
const maxKeptRead = 1000

// movedLab answers a read of a laboratory Observation by its old id, "lab-{order}-{result
// row}", with 301 Moved Permanently to its id now, "lab-{order}-{analyte}" (labResultID),
// when the row is one of that order's and its analyte's Observation is among v's resources,
// readable by the caller; it reports whether it answered.
func (h *Handler) movedLab(w http.ResponseWriter, r *http.Request, kind, id string, orderID int64, v version) bool {
	prefix := "lab-" + strconv.FormatInt(orderID, 10) + "-"
	row, err := strconv.ParseInt(strings.TrimPrefix(id, prefix), 10, 64)
	if kind != "Observation" || !strings.HasPrefix(id, prefix) || err != nil || row < 1 {
		return false
	}
	analyte, ok, err := h.Results.AnalyteOf(r.Context(), orderID, row)
	if err != nil || !ok {
		return false
	}
	moved := pick(v.resources, kind, labResultID(orderID, analyte))
	if moved == nil || !readable(auth.PrincipalFrom(r.Context()), moved, auth.ActRead) {
		return false
	}
	lang := i18n.FromRequest(r)
	w.Header().Set("Location", h.baseURL(r)+"/"+kind+"/"+moved.ResourceID())
	write(w, http.StatusMovedPermanently, OperationOutcome{base: base{ResourceType: "OperationOutcome"}, Issue: []Issue{{
		Severity: "information", Code: "informational",
		Diagnostics: i18n.T(lang, "fhir.moved", kind+"/"+id, kind+"/"+moved.ResourceID()),
	}}})
	return true
}

// answer answers the resource with id among v's, audited as a read of the record, or
// missing when it is not there.
func (t typeVersions) answer(h *Handler, w http.ResponseWriter, r *http.Request, src versionSource, recordID int64, v version, id string, missing *Error, detail string) {
	res := pick(v.resources, t.kind, id)
	if res == nil {
		WriteError(w, r, missing)
		return
	}
	if e := readRefusal(auth.PrincipalFrom(r.Context()), res, auth.ActRead, missing); e != nil {
		WriteError(w, r, e)
		return
	}
	if err := t.audit(h, r, ".read", src.entity, recordID, v.patientID, strings.TrimSpace(t.kind+"/"+id+" "+detail)); err != nil {
		WriteError(w, r, err)
		return
	}
	w.Header().Set("Last-Modified", lastModified(updatedOf(res)))
	respond(w, http.StatusOK, res)
}

// vread answers version vid of one resource: as kept, or the live one when it is at vid.
func (t typeVersions) vread(h *Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, vid := r.PathValue("id"), r.PathValue("vid")
		missing := notFound(t.kind, id+"/_history/"+vid)
		n, err := strconv.Atoi(vid)
		src, recordID, ok := t.sourceFor(id)
		if err != nil || n < 1 || !ok {
			WriteError(w, r, missing)
			return
		}
		lang := i18n.FromRequest(r)
		list, err := src.kept(r.Context(), database.KeptQuery{ID: recordID, Version: n, Limit: 1}, lang)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if len(list) == 0 {
			live, found, err := src.live(r.Context(), recordID, lang)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			if found && live.version == n {
				list = []version{live}
			}
		}
		var v version
		if len(list) > 0 {
			v = list[0]
			if pick(v.resources, t.kind, id) == nil {
				// The version at which it stopped being worked out (the one just below had it): gone
				// (R4 vread of a deleted version); a later one without it, as one before it was, not found.
				if gone, err := t.wasKept(r, src, database.KeptQuery{ID: recordID, Before: int64(n), Limit: 1}, id); err != nil {
					WriteError(w, r, err)
					return
				} else if gone {
					missing = goneError(t.kind, id+"/_history/"+vid)
				}
			}
		}
		t.answer(h, w, r, src, recordID, v, id, missing, "version "+vid)
	}
}

// history answers the versions of one resource, newest first: each version of its record
// that gives it, and each that dropped it (a DELETE entry). Versions of the record without it
// either way (before it was first recorded) are passed over, so a page is full but the last,
// and a record's id that was never this resource is unknown (404).
func (t typeVersions) history(h *Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		count, below, since, err := historyPage(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		src, recordID, ok := t.sourceFor(id)
		if !ok {
			WriteError(w, r, notFound(t.kind, id))
			return
		}
		lang := i18n.FromRequest(r)
		// The live record leads when no version of it was kept (changed before versions were).
		live, found, err := src.live(r.Context(), recordID, lang)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		base := h.baseURL(r)
		p := auth.PrincipalFrom(r.Context())
		type item struct {
			entry   BundleEntry
			version int
		}
		var items []item
		var patientID int64
		scanned, cursor, more := 0, below, true
		for more && len(items) <= count && scanned < maxKeptRead {
			list, err := src.kept(r.Context(), database.KeptQuery{ID: recordID, Before: cursor, Limit: count + 1}, lang)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			more = len(list) == count+1
			if scanned == 0 && found && (below == 0 || int64(live.version) < below) && (len(list) == 0 || list[0].version < live.version) {
				list = append([]version{live}, list...)
			}
			if len(list) == 0 {
				break
			}
			gone, err := src.deletions(r.Context(), t.kind, list, lang)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			for _, v := range list {
				if v.at.Before(since) { // _since: the versions from then (newest first: the rest are older)
					more, list = false, nil
					break
				}
				if res := pick(v.resources, t.kind, id); res != nil {
					if e := readRefusal(p, res, auth.ActRead, notFound(t.kind, id)); e != nil {
						WriteError(w, r, e)
						return
					}
					items = append(items, item{versionEntry(base, res), v.version})
				} else if slices.ContainsFunc(gone, func(d deletion) bool { return d.at.version == v.version && d.was.ResourceID() == id }) {
					// The version that no longer has it: its deletion (R4 history: a DELETE entry).
					items = append(items, item{deleteEntry(base, t.kind, id, v), v.version})
				}
				patientID = v.patientID
			}
			if len(list) == 0 {
				break
			}
			scanned += len(list)
			cursor = int64(list[len(list)-1].version)
		}
		if len(items) == 0 && below == 0 {
			// Nothing since _since of a resource that is, or was: an empty page; else unknown.
			res := pick(live.resources, t.kind, id)
			known := !since.IsZero() && found && res != nil && readRefusal(p, res, auth.ActRead, nil) == nil
			if !known && !since.IsZero() {
				if known, err = t.wasKept(r, src, database.KeptQuery{ID: recordID, Limit: maxKeptRead}, id); err != nil {
					WriteError(w, r, err)
					return
				}
			}
			if !known {
				WriteError(w, r, notFound(t.kind, id))
				return
			}
		}
		var next int64
		switch {
		case len(items) > count:
			items, next = items[:count], int64(items[count-1].version)
		case more && scanned >= maxKeptRead:
			next = cursor // a long run of versions without it: go on below them
		}
		entries := make([]BundleEntry, len(items))
		for i, it := range items {
			entries[i] = it.entry
		}
		if err := t.audit(h, r, "_history.list", src.entity, recordID, patientID, t.kind+"/"+id); err != nil {
			WriteError(w, r, err)
			return
		}
		h.historyBundle(w, r, "/"+t.kind+"/"+id+"/_history", entries, next)
	}
}

// typeHistory answers every kept version of the type's records, newest first.
func (t typeVersions) typeHistory(h *Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		count, below, since, err := historyPage(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		lang := i18n.FromRequest(r)
		var list []version
		dropped := map[int64][]deletion{} // a version's seq → what it dropped
		for _, src := range t.sources {
			kept, err := src.kept(r.Context(), database.KeptQuery{Before: below, Since: since, Limit: count + 1}, lang)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			gone, err := src.deletions(r.Context(), t.kind, kept, lang)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			for _, d := range gone {
				dropped[d.at.seq] = append(dropped[d.at.seq], d)
			}
			list = append(list, kept...)
		}
		slices.SortFunc(list, func(a, b version) int { return cmp.Compare(b.seq, a.seq) })
		more := len(list) > count
		if more {
			list = list[:count]
		}
		base := h.baseURL(r)
		var entries []BundleEntry
		var ids []string
		var next int64
		p := auth.PrincipalFrom(r.Context())
		// A page holds at most _count entries (a version gives one or more: a visit's vitals, what
		// it dropped), and a version whole: the next page starts below the last one given.
		for i, v := range list {
			var these []BundleEntry
			var theirs []string
			for _, res := range v.resources {
				if res.ResourceKind() == t.kind && readable(p, res, auth.ActSearch) {
					these = append(these, versionEntry(base, res))
					theirs = append(theirs, res.ResourceID())
				}
			}
			// What the version no longer gives: its deletion, said to whoever could read it.
			for _, d := range dropped[v.seq] {
				if readable(p, d.was, auth.ActSearch) {
					these = append(these, deleteEntry(base, t.kind, d.was.ResourceID(), v))
					theirs = append(theirs, d.was.ResourceID())
				}
			}
			if i > 0 && len(entries)+len(these) > count {
				more = true
				break
			}
			entries, ids, next = append(entries, these...), append(ids, theirs...), v.seq
		}
		if !more {
			next = 0
		}
		if err := t.audit(h, r, "_history.list", t.sources[0].entity, 0, 0, t.kind+" history: "+strings.Join(ids, ",")); err != nil {
			WriteError(w, r, err)
			return
		}
		h.historyBundle(w, r, "/"+t.kind+"/_history", entries, next)
	}
}

// versionEntry is one version of a resource in a history Bundle.
func versionEntry(base string, res Resource) BundleEntry {
	method, status := "PUT", "200"
	if res.VersionID() == "1" {
		method, status = "POST", "201"
	}
	updated := updatedOf(res)
	return BundleEntry{
		FullURL: base + "/" + res.ResourceKind() + "/" + res.ResourceID(), Resource: res,
		Request:  &EntryRequest{Method: method, URL: res.ResourceKind() + "/" + res.ResourceID()},
		Response: &EntryResponse{Status: status, Etag: `W/"` + res.VersionID() + `"`, LastModified: updated},
	}
}

// updatedOf is a resource's meta.lastUpdated.
func updatedOf(res Resource) string {
	if b, ok := res.(interface{ metaOf() *Meta }); ok && b.metaOf() != nil {
		return b.metaOf().LastUpdated
	}
	return ""
}
