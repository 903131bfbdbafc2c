package fhir

import (
	"net/http"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/patient"
)

// historyEntry is one version of a patient in a history Bundle.
func historyEntry(base string, v patient.Version) BundleEntry {
	res := toPatient(v.Patient)
	method, status := "PUT", "200"
	if v.Patient.Version == 1 {
		method, status = "POST", "201"
	}
	return BundleEntry{
		FullURL: base + "/Patient/" + res.ID, Resource: res,
		Request:  &EntryRequest{Method: method, URL: "Patient/" + res.ID},
		Response: &EntryResponse{Status: status, Etag: `W/"` + res.Meta.VersionID + `"`, LastModified: res.Meta.LastUpdated},
	}
}

func (h *Handler) vreadPatient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "Patient")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	vid, err := strconv.Atoi(r.PathValue("vid"))
	if err != nil || vid < 1 {
		WriteError(w, r, notFound("Patient", r.PathValue("id")+"/_history/"+r.PathValue("vid")))
		return
	}
	p, err := h.Patients.VersionOf(r.Context(), id, vid)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = notFound("Patient", r.PathValue("id")+"/_history/"+r.PathValue("vid"))
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if err := h.audited(r, "fhir.patient.read", "patient", strconv.FormatInt(id, 10), id, "version "+strconv.Itoa(vid)); err != nil {
		WriteError(w, r, err)
		return
	}
	res := toPatient(p)
	w.Header().Set("Last-Modified", lastModified(res.Meta.LastUpdated))
	respond(w, http.StatusOK, res)
}

// historyPage reads _count and the cursor (the version, or the change, to go on below).
func historyPage(r *http.Request) (count int, below int64, since time.Time, err error) {
	count = DefaultCount
	q := r.URL.Query()
	if s := q.Get("_count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, 0, since, invalid("fhir.bad_value", "_count", "_count")
		}
		count = min(n, MaxCount)
	}
	if s := q.Get("_cursor"); s != "" {
		c, err := decodeCursor(s)
		if err != nil {
			return 0, 0, since, invalid("fhir.bad_cursor", "_cursor")
		}
		below = c.ID
	}
	if s := q.Get("_since"); s != "" {
		start, _, prefix, err := parseDate(s)
		if err != nil || prefix != "" {
			return 0, 0, since, invalid("fhir.bad_date", "_since", "_since")
		}
		since = start
	}
	return count, below, since, nil
}

func (h *Handler) historyBundle(w http.ResponseWriter, r *http.Request, path string, entries []BundleEntry, next int64) {
	base := h.baseURL(r)
	b := Bundle{base: base0("Bundle"), BundleType: "history", Timestamp: instant(time.Now()), Entry: entries}
	b.Link = []BundleLink{{Relation: "self", URL: base + path + "?" + r.URL.RawQuery}}
	if next > 0 {
		v := r.URL.Query()
		v.Set("_cursor", cursor{ID: next}.encode())
		b.Link = append(b.Link, BundleLink{Relation: "next", URL: base + path + "?" + v.Encode()})
	}
	write(w, http.StatusOK, b)
}

func (h *Handler) patientHistory(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "Patient")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	count, below, _, err := historyPage(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	list, err := h.Patients.VersionsOf(r.Context(), id, int(below), count+1)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = notFound("Patient", r.PathValue("id"))
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var next int64
	if len(list) > count {
		list = list[:count]
		next = int64(list[count-1].Patient.Version)
	}
	base := h.baseURL(r)
	entries := make([]BundleEntry, len(list))
	for i, v := range list {
		entries[i] = historyEntry(base, v)
	}
	if err := h.audited(r, "fhir.patient_history.list", "patient", strconv.FormatInt(id, 10), id, ""); err != nil {
		WriteError(w, r, err)
		return
	}
	h.historyBundle(w, r, "/Patient/"+r.PathValue("id")+"/_history", entries, next)
}

func (h *Handler) patientTypeHistory(w http.ResponseWriter, r *http.Request) {
	count, below, since, err := historyPage(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	list, err := h.Patients.Changes(r.Context(), below, since, count+1)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var next int64
	if len(list) > count {
		list = list[:count]
		next = list[count-1].Seq
	}
	base := h.baseURL(r)
	entries := make([]BundleEntry, len(list))
	ids := ""
	for i, v := range list {
		entries[i] = historyEntry(base, v)
		if i > 0 {
			ids += ","
		}
		ids += entries[i].Resource.ResourceID()
	}
	if err := h.audited(r, "fhir.patient_history.list", "patient", "", 0, "Patient history: "+ids); err != nil {
		WriteError(w, r, err)
		return
	}
	h.historyBundle(w, r, "/Patient/_history", entries, next)
}
