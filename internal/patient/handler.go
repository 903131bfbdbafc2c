package patient

import (
	"mime"
	"net/http"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// Handler serves the patient API.
type Handler struct {
	Store *Store
	// Upload limits in bytes.
	MaxPhoto, MaxAttachment int64
}

// Routes is the patient API's route table.
func (h *Handler) Routes() []auth.Route {
	view, manage := auth.Need(auth.ViewPatient), auth.Need(auth.ManagePatient)
	return []auth.Route{
		{Method: "GET", Path: "/api/patients", Access: view, Handler: h.list},
		{Method: "POST", Path: "/api/patients", Access: manage, Announces: auth.ChangesPatients, Handler: h.create},
		{Method: "POST", Path: "/api/patients/duplicates", Access: manage, Handler: h.duplicates},
		{Method: "GET", Path: "/api/patients/{id}", Access: view, Handler: h.get},
		{Method: "PUT", Path: "/api/patients/{id}", Access: manage, Announces: auth.ChangesPatients, Handler: h.update},
		{Method: "POST", Path: "/api/patients/{id}/archive", Access: manage, Announces: auth.ChangesPatients, Handler: h.archive},
		{Method: "POST", Path: "/api/patients/{id}/restore", Access: manage, Announces: auth.ChangesPatients, Handler: h.restore},
		{Method: "GET", Path: "/api/patients/{id}/photo", Access: view, Handler: h.download},
		{Method: "PUT", Path: "/api/patients/{id}/photo", Access: manage, Announces: auth.ChangesPatients, Handler: h.upload(KindPhoto)},
		{Method: "GET", Path: "/api/patients/{id}/files", Access: view, Handler: h.files},
		{Method: "POST", Path: "/api/patients/{id}/files", Access: manage, Announces: auth.ChangesPatients, Handler: h.upload(KindAttachment)},
		{Method: "GET", Path: "/api/patients/{id}/files/{file}", Access: view, Handler: h.download},
		{Method: "DELETE", Path: "/api/patients/{id}/files/{file}", Access: manage, Announces: auth.ChangesPatients, Handler: h.deleteFile},
	}
}

// event starts an audit event for the request's user and address.
func event(r *http.Request) audit.Event { return auth.AuditEvent(r) }

func pathID(r *http.Request, name string) (int64, error) {
	if name == "file" {
		return httpjson.PathID(r, name, "file.not_found")
	}
	return httpjson.PathID(r, name, "patient.not_found")
}

// ListResponse is a page of patients.
type ListResponse struct {
	Data []Summary `json:"data"`
	Meta struct {
		Total      int  `json:"total"`
		TotalExact bool `json:"total_exact"`
		Page       int  `json:"page"`
		PerPage    int  `json:"per_page"`
	} `json:"meta"`
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q, err := ParseListQuery(r.URL.Query().Get)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	res, err := h.Store.List(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var out ListResponse
	out.Data, out.Meta.Total, out.Meta.TotalExact, out.Meta.Page, out.Meta.PerPage = res.Data, res.Total, res.TotalExact, q.Page, q.PerPage
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Input
		// DistinctFrom are the possible duplicates the registrar saw and confirmed to be
		// other people.
		DistinctFrom []int64 `json:"distinct_from"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Store.Create(r.Context(), event(r), in.Input, in.DistinctFrom)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, p)
}

func (h *Handler) duplicates(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Input
		Except int64 `json:"except"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Duplicates(r.Context(), in.Input, in.Except)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Store.Get(r.Context(), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	e := event(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome = "patient.read", "patient", strconv.FormatInt(id, 10), audit.Success
	if err := audit.Access(r.Context(), h.Store.DB, e); err != nil {
		httpjson.Error(w, r, err) // a read that cannot be audited is not served
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Input
		Version int `json:"version"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if in.Version <= 0 {
		var v apperr.Validation
		v.Add("version", "validation.required")
		httpjson.Error(w, r, v.Err())
		return
	}
	p, err := h.Store.Update(r.Context(), event(r), id, in.Version, in.Input)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

func (h *Handler) archive(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in struct {
		Reason string `json:"reason"`
	}
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Store.Archive(r.Context(), event(r), id, in.Reason)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

func (h *Handler) restore(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	p, err := h.Store.Restore(r.Context(), event(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, p)
}

func (h *Handler) files(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Files(r.Context(), id, auth.PrincipalFrom(r.Context()).Can(auth.RecordResults))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// upload reads one multipart field "file" within the kind's size limit.
func (h *Handler) upload(kind string) http.HandlerFunc {
	limit := h.MaxAttachment
	if kind == KindPhoto {
		limit = h.MaxPhoto
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r, "id")
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		data, name, err := httpjson.File(w, r, limit)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		f, err := h.Store.AddFile(r.Context(), event(r), id, kind, name, data)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		httpjson.Respond(w, http.StatusCreated, f)
	}
}

func (h *Handler) download(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var fileID int64 // 0: the photo
	if r.PathValue("file") != "" {
		if fileID, err = pathID(r, "file"); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	f, data, err := h.Store.Open(r.Context(), event(r), id, fileID, auth.PrincipalFrom(r.Context()).Can(auth.RecordResults))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	disposition := "attachment"
	if f.Kind == KindPhoto {
		disposition = "inline"
	}
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
	_, _ = w.Write(data)
}

func (h *Handler) deleteFile(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	fileID, err := pathID(r, "file")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.DeleteFile(r.Context(), event(r), id, fileID); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.NoContent(w)
}
