package catalogue

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Handler serves the catalogue API.
type Handler struct {
	Store *Store
	// MaxImport is the largest CSV file an import reads, in bytes.
	MaxImport int64
	// Progress, when set, tells the importing user how far an import of list ("codes",
	// "medicines") has got, after each batch.
	Progress func(r *http.Request, list string, done, total int)
}

// Routes is the catalogue API's route table.
func (h *Handler) Routes() []auth.Route {
	diagnose := auth.Need(auth.WriteDiagnosis)
	routes := []auth.Route{
		{Method: "GET", Path: "/api/diagnosis-codes", Access: diagnose, Handler: h.searchCodes},
		{Method: "POST", Path: "/api/diagnosis-codes/import", Access: auth.Need(auth.ManageCatalogue), Handler: h.importCodes},
		{Method: "GET", Path: "/api/lab-tests", Access: diagnose, Handler: h.labTests},
		{Method: "GET", Path: "/api/lab-tests/{code}", Access: auth.NeedAny(auth.WriteDiagnosis, auth.ManageCatalogue, auth.RecordResults, auth.ReviewResults), Handler: h.testResults},
		{Method: "GET", Path: "/api/lab-analytes", Access: auth.Need(auth.ManageCatalogue), Handler: h.analytes},
		{Method: "GET", Path: "/api/lab-test-definitions", Access: auth.Need(auth.ManageCatalogue), Handler: h.testDefinitions},
		{Method: "PUT", Path: "/api/lab-test-definitions/{code}", Access: auth.Need(auth.ManageCatalogue), Handler: h.saveTestDefinition},
		{Method: "GET", Path: "/api/lab-analytes/export", Access: auth.Need(auth.ManageCatalogue), Handler: h.exportAnalytes},
		{Method: "POST", Path: "/api/lab-analytes/import", Access: auth.Need(auth.ManageCatalogue), Handler: h.importAnalytes},
		{Method: "PUT", Path: "/api/lab-analytes/{code}", Access: auth.Need(auth.ManageCatalogue), Handler: h.saveAnalyte},
		// The nurse searches it too, recording the medicines a patient takes (issue 55, M4).
		{Method: "GET", Path: "/api/medicines", Access: auth.NeedAny(auth.WritePrescription, auth.ManageCatalogue, auth.RecordVitals), Handler: h.medicines},
		{Method: "POST", Path: "/api/medicines", Access: auth.Need(auth.ManageCatalogue), Handler: h.createMedicine},
		{Method: "PUT", Path: "/api/medicines/{id}", Access: auth.Need(auth.ManageCatalogue), Handler: h.updateMedicine},
		{Method: "POST", Path: "/api/medicines/import", Access: auth.Need(auth.ManageCatalogue), Handler: h.importMedicines},
	}
	return append(routes, h.knowledgeRoutes()...)
}

func (h *Handler) searchCodes(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Search(r.Context(), r.URL.Query().Get("q"), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) labTests(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.LabTests(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

// testResults answers what a test reports: its analytes with their units, answers and ranges.
func (h *Handler) testResults(w http.ResponseWriter, r *http.Request) {
	t, err := h.Store.TestResults(r.Context(), NormalizeCode(r.PathValue("code")), i18n.FromRequest(r))
	if errors.Is(err, sql.ErrNoRows) {
		err = apperr.NotFound("catalogue.test_not_found")
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, t)
}

// importCodes reads one multipart field "file" (a CSV) and imports it; the answer lists
// the rejected lines with messages in the caller's language.
func (h *Handler) importCodes(w http.ResponseWriter, r *http.Request) {
	h.importFile(w, r, "diagnosis_codes", h.Store.ImportCodes)
}

// importMedicines imports a medicines CSV as importCodes does codes.
func (h *Handler) importMedicines(w http.ResponseWriter, r *http.Request) {
	h.importFile(w, r, "medicines", h.Store.ImportMedicines)
}

func (h *Handler) importFile(w http.ResponseWriter, r *http.Request, list string, importer func(context.Context, audit.Event, []byte) (ImportReport, error)) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	ctx := r.Context()
	if h.Progress != nil {
		ctx = WithProgress(ctx, func(done, total int) { h.Progress(r, list, done, total) })
	}
	rep, err := importer(ctx, auth.AuditEvent(r), data)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	localiseReport(r, &rep)
	httpjson.Respond(w, http.StatusOK, rep)
}

// localiseReport words an import's rejected lines in the caller's language.
func localiseReport(r *http.Request, rep *ImportReport) {
	lang := i18n.FromRequest(r)
	for i := range rep.Errors {
		rep.Errors[i].Message = i18n.T(lang, rep.Errors[i].Key)
	}
}

// medicines searches the catalogue; ?all=1 (catalogue managers only) includes withdrawn
// entries.
func (h *Handler) medicines(w http.ResponseWriter, r *http.Request) {
	get := r.URL.Query().Get
	var v apperr.Validation
	q := MedicineQuery{Q: get("q"), All: get("all") == "1" && auth.PrincipalFrom(r.Context()).Can(auth.ManageCatalogue)}
	q.Page, q.PerPage = httpjson.Page(get, &v)
	if err := v.Err(); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	list, total, err := h.Store.Medicines(r.Context(), q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	lang := i18n.FromRequest(r)
	for i := range list {
		list[i].Localise(lang)
	}
	httpjson.Respond(w, http.StatusOK, httpjson.ListBody[Medicine]{Data: list, Meta: httpjson.ListMeta{Total: total, Page: q.Page, PerPage: q.PerPage}})
}

func (h *Handler) createMedicine(w http.ResponseWriter, r *http.Request) {
	var in MedicineInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	m, err := h.Store.CreateMedicine(r.Context(), auth.AuditEvent(r), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, m)
}

func (h *Handler) updateMedicine(w http.ResponseWriter, r *http.Request) {
	id, err := httpjson.PathID(r, "id", "medicine.not_found")
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var in MedicineInput
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	m, err := h.Store.UpdateMedicine(r.Context(), auth.AuditEvent(r), id, in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, m)
}

func (h *Handler) analytes(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Analytes(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) exportAnalytes(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Analytes(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="results-catalogue.csv"`)
	_ = WriteAnalytesCSV(w, list)
}

func (h *Handler) importAnalytes(w http.ResponseWriter, r *http.Request) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rep, err := h.Store.ImportAnalytes(r.Context(), auth.AuditEvent(r), data)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	localiseReport(r, &rep)
	httpjson.Respond(w, http.StatusOK, rep)
}

func (h *Handler) saveAnalyte(w http.ResponseWriter, r *http.Request) {
	var in AnalyteEdit
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out, err := h.Store.SaveAnalyte(r.Context(), auth.AuditEvent(r), r.PathValue("code"), in)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, out)
}

func (h *Handler) testDefinitions(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.TestDefinitions(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.List(w, list)
}

func (h *Handler) saveTestDefinition(w http.ResponseWriter, r *http.Request) {
	var in TestDefinition
	if err := httpjson.Decode(w, r, &in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if err := h.Store.SaveTestDefinition(r.Context(), auth.AuditEvent(r), NormalizeCode(r.PathValue("code")), in); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	h.testResults(w, r)
}
