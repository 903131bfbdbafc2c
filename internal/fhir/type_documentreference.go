package fhir

import (
	"context"
	"net/http"

	"emr/internal/auth"
	"emr/internal/document"
)

// typeDocumentReference describes DocumentReference: who reads it, its search, its versions.
var typeDocumentReference = resourceType{
	kind:    "DocumentReference",
	reads:   []ReadRule{{"DocumentReference", "", []auth.Permission{auth.ViewPatient}, "GET /api/documents/{id}"}},
	params:  documentParams,
	filters: documentTokens,
	plan:    documentReferencePlan,
	action:  "documentreference",
	versions: func(h *Handler, _ recordSources) []versionSource {
		return []versionSource{sourceOf("document", wholeID, keptOf[document.Document](h.DB, document.VersionKind),
			func(ctx context.Context, id int64, _ string) (document.Document, bool, error) {
				return firstOf(h.Documents.Page(ctx, []int64{id}, 0, 0, false, 1))
			}, func(d document.Document) []Resource { return []Resource{documentReferenceOf(d)} },
			func(d document.Document) int64 { return d.PatientID })}
	},
}

// documentReferencePlan reads a DocumentReference search: the issued documents (the
// patient's, those of _id).
func documentReferencePlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	pid, err := patientOf(*q)
	if err != nil {
		return searchPlan{}, err
	}
	ids, idGiven := q.ids()
	src := h.documentSource(ids, max(pid, 0), pid >= 0 && coded && (!idGiven || len(ids) > 0))
	return searchPlan{src: src, entity: "document", patient: max(pid, 0)}, nil
}
