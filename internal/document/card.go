package document

import (
	"context"
	"net/http"
	"slices"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// CardPapers are the papers an immunisation card prints on.
var CardPapers = []string{"a6-portrait", "a5-portrait"}

// CardInput asks for a child's immunisation card on a paper, in a language.
type CardInput struct {
	Paper    string `json:"paper"`
	Language string `json:"language"`
}

// IssueCard issues patient patientID's immunisation card from the clinic's active template
// of the kind in the language, on the paper asked for (the templates install themselves the
// first time, as every starter template does).
func (s *Store) IssueCard(ctx context.Context, e audit.Event, patientID int64, in CardInput) (Document, error) {
	var v apperr.Validation
	if !slices.Contains(CardPapers, in.Paper) {
		v.Add("paper", "document.bad_paper")
	}
	if !slices.Contains(i18n.Languages, in.Language) {
		v.Add("language", "document.bad_language")
	}
	if err := v.Err(); err != nil {
		return Document{}, err
	}
	list, err := s.Templates(ctx, TemplateQuery{Kind: "immunisation_card", Language: in.Language})
	if err != nil {
		return Document{}, err
	}
	for _, t := range list {
		if t.Paper == in.Paper && !t.NeedsVisit {
			return s.Issue(ctx, e, IssueInput{TemplateID: t.ID, PatientID: patientID, Fields: map[string]string{}})
		}
	}
	v.Add("paper", "document.card_no_template")
	return Document{}, v.Err()
}

// CardRoutes is the immunisation card's route: whoever records immunisations or issues
// documents, and may see the patient.
func (h *Handler) CardRoutes() []auth.Route {
	return []auth.Route{
		{Method: "POST", Path: "/api/patients/{id}/immunisation-card", Access: auth.NeedAny(auth.RecordImmunisations, auth.IssueDocuments),
			Announces: auth.ChangesDocuments, Handler: h.issueCard},
	}
}

func (h *Handler) issueCard(w http.ResponseWriter, r *http.Request) {
	if !auth.PrincipalFrom(r.Context()).Can(auth.ViewPatient) {
		httpjson.Error(w, r, apperr.Forbidden("auth.forbidden"))
		return
	}
	id, in, ok := httpjson.DecodeOn[CardInput](w, r, "patient.not_found")
	if !ok {
		return
	}
	d, err := h.Store.IssueCard(r.Context(), auth.AuditEvent(r), id, in)
	httpjson.Result(w, r, http.StatusCreated, d, err)
}
