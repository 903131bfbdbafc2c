package catalogue

import (
	"fmt"
	"net/http"

	"emr/internal/account"
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
}

// Routes is the catalogue API's route table.
func (h *Handler) Routes() []auth.Route {
	diagnose := auth.Need(auth.WriteDiagnosis)
	return []auth.Route{
		{Method: "GET", Path: "/api/diagnosis-codes", Access: diagnose, Handler: h.searchCodes},
		{Method: "POST", Path: "/api/diagnosis-codes/import", Access: auth.Need(auth.ManageCatalogue), Handler: h.importCodes},
		{Method: "GET", Path: "/api/lab-tests", Access: diagnose, Handler: h.labTests},
	}
}

func (h *Handler) searchCodes(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.Search(r.Context(), r.URL.Query().Get("q"), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list})
}

func (h *Handler) labTests(w http.ResponseWriter, r *http.Request) {
	list, err := h.Store.LabTests(r.Context(), i18n.FromRequest(r))
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list})
}

// importCodes reads one multipart field "file" (a CSV) and imports it; the answer lists
// the rejected lines with messages in the caller's language.
func (h *Handler) importCodes(w http.ResponseWriter, r *http.Request) {
	data, _, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rep, err := h.Store.ImportCodes(r.Context(), data)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	lang := i18n.FromRequest(r)
	for i := range rep.Errors {
		rep.Errors[i].Message = i18n.T(lang, rep.Errors[i].Key)
	}
	e := account.Event(r)
	e.Action, e.EntityType, e.Outcome = "catalogue.import", "diagnosis_codes", audit.Success
	e.Detail = fmt.Sprintf("inserted %d, updated %d, unchanged %d, rejected %d", rep.Inserted, rep.Updated, rep.Unchanged, rep.Rejected)
	if err := audit.Record(r.Context(), h.Store.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, rep)
}
