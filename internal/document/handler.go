package document

import (
	"net/http"
	"slices"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/profile"
)

// Handler serves the documents API and the public verify page.
type Handler struct {
	Store *Store
	// Verify limits the verify page's look-ups per address.
	Verify *Limiter
}

// Routes is the documents' route table.
func (h *Handler) Routes() []auth.Route {
	templates := auth.NeedAny(auth.ManageTemplates, auth.IssueDocuments)
	manage := auth.Need(auth.ManageTemplates)
	view := auth.Need(auth.ViewPatient)
	issue := auth.Need(auth.IssueDocuments)
	return []auth.Route{
		{Method: "GET", Path: "/api/document-templates", Access: templates, Handler: h.templates},
		{Method: "GET", Path: "/api/document-templates/placeholders", Access: templates, Handler: h.placeholders},
		{Method: "GET", Path: "/api/document-templates/{id}", Access: templates, Handler: h.template},
		{Method: "POST", Path: "/api/document-templates", Access: manage, Announces: auth.ChangesDocuments, Handler: h.createTemplate},
		{Method: "PUT", Path: "/api/document-templates/{id}", Access: manage, Announces: auth.ChangesDocuments, Handler: h.updateTemplate},
		{Method: "POST", Path: "/api/document-templates/starter", Access: manage, Announces: auth.ChangesDocuments, Handler: h.installStarter},
		{Method: "POST", Path: "/api/document-templates/preview", Access: templates, Handler: h.preview},
		{Method: "GET", Path: "/api/documents", Access: view, Handler: h.list},
		{Method: "POST", Path: "/api/documents", Access: issue, Announces: auth.ChangesDocuments, Handler: h.issue},
		{Method: "GET", Path: "/api/documents/{id}", Access: view, Handler: h.get},
		{Method: "POST", Path: "/api/documents/{id}/print", Access: view, Handler: h.print},
		{Method: "POST", Path: "/api/documents/{id}/cancel", Access: issue, Announces: auth.ChangesDocuments, Handler: h.cancel},
		{Method: "GET", Path: "/api/documents/{id}/signature", Access: view, Handler: h.signature},
		{Method: "GET", Path: "/verify/{code}", Access: auth.Public, Handler: h.verify},
	}
}

func (h *Handler) templates(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	tq := TemplateQuery{All: q.Get("all") == "1" && auth.PrincipalFrom(r.Context()).Can(auth.ManageTemplates), Kind: q.Get("kind"), Language: q.Get("language")}
	var v apperr.Validation
	if tq.Kind != "" && !slices.Contains(Kinds, tq.Kind) {
		v.Add("kind", "document.bad_kind")
	}
	if tq.Language != "" && !slices.Contains(i18n.Languages, tq.Language) {
		v.Add("language", "document.bad_language")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.Templates(r.Context(), tq)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// PlaceholderList is what a template may name, for the editor's side panel.
type PlaceholderList struct {
	Placeholders []string `json:"placeholders"`
	Kinds        []string `json:"kinds"`
	Papers       []string `json:"papers"`
	FieldTypes   []string `json:"field_types"`
}

func (h *Handler) placeholders(w http.ResponseWriter, r *http.Request) {
	httpjson.Respond(w, http.StatusOK, PlaceholderList{Placeholders: Placeholders, Kinds: Kinds, Papers: Papers, FieldTypes: FieldTypes})
}

func (h *Handler) template(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "document.template_not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	t, err := h.Store.Template(r.Context(), id)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

func (h *Handler) createTemplate(w http.ResponseWriter, r *http.Request) {
	var in TemplateInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	t, err := h.Store.CreateTemplate(r.Context(), auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusCreated, t, err)
}

func (h *Handler) updateTemplate(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[TemplateInput](w, r, "document.template_not_found")
	if !ok {
		return
	}
	t, err := h.Store.UpdateTemplate(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusOK, t, err)
}

// Installed answers how many starter templates were added.
type Installed struct {
	Added int `json:"added"`
}

func (h *Handler) installStarter(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.InstallStarter(r.Context(), auth.AuditEvent(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, Installed{Added: n})
}

// PreviewOut is a template rendered for a patient.
type PreviewOut struct {
	Content []Block `json:"content"`
}

func (h *Handler) preview(w http.ResponseWriter, r *http.Request) {
	var in PreviewInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	// Templates are managed by some who may not read patients: the preview, which shows a
	// patient's data, needs that too.
	if !auth.PrincipalFrom(r.Context()).Can(auth.ViewPatient) {
		httpjson.Error(w, r, apperr.Forbidden("auth.forbidden"))
		return
	}
	content, err := h.Store.Preview(r.Context(), auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusOK, PreviewOut{Content: content}, err)
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	var v apperr.Validation
	id := func(name string) int64 {
		s := r.URL.Query().Get(name)
		if s == "" {
			return 0
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			v.Add(name, "validation.query")
		}
		return n
	}
	patientID, appointmentID := id("patient_id"), id("appointment_id")
	if patientID == 0 && appointmentID == 0 {
		v.Add("patient_id", "validation.required")
	}
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, err := h.Store.ReadList(r.Context(), auth.AuditEvent(r), patientID, appointmentID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) issue(w http.ResponseWriter, r *http.Request) {
	var in IssueInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Issue(r.Context(), auth.AuditEvent(r), in)
	httpjson.Result(w, r, http.StatusCreated, d, err)
}

func docID(r *http.Request) (int64, error) { return httpjson.PathID(r, "id", "document.not_found") }

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id, err := docID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Read(r.Context(), auth.AuditEvent(r), id)
	httpjson.Result(w, r, http.StatusOK, d, err)
}

func (h *Handler) print(w http.ResponseWriter, r *http.Request) {
	id, err := docID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Print(r.Context(), auth.AuditEvent(r), id, auth.PrincipalFrom(r.Context()).Can(auth.ManagePortal))
	httpjson.Result(w, r, http.StatusOK, d, err)
}

type cancelInput struct {
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) {
	id, in, ok := httpjson.DecodeOn[cancelInput](w, r, "document.not_found")
	if !ok {
		return
	}
	d, err := h.Store.Cancel(r.Context(), auth.AuditEvent(r), id, in.Version, in.Reason)
	httpjson.Result(w, r, http.StatusOK, d, err)
}

func (h *Handler) signature(w http.ResponseWriter, r *http.Request) {
	id, err := docID(r)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	d, err := h.Store.Signature(r.Context(), id)
	profile.WriteSignature(w, r, d, err)
}
