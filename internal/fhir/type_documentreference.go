package fhir

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"

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

func documentReferenceOf(d document.Document) DocumentReference {
	status := "current"
	if d.Status == "cancelled" {
		status = "entered-in-error" // withdrawn: no longer to be relied on
	}
	out := DocumentReference{
		base:       newBase("DocumentReference", strconv.FormatInt(d.ID, 10), d.Version, latest(d.IssuedAt, d.CancelledAt)),
		Identifier: []Identifier{{System: "urn:emr:document-number", Value: d.Number}}, Status: status,
		Type: &CodeableConcept{Coding: []Coding{{System: systemDocumentKind, Code: d.Kind}}, Text: d.Kind}, Subject: ref("Patient", d.PatientID), Date: instant(d.IssuedAt),
		Custodian: &Reference{Reference: "Organization/" + clinicID}, Description: d.Title,
		Content: []DocumentContent{{Attachment: Attachment{ContentType: "text/html", Language: d.Language, Title: d.Title, Creation: instant(d.IssuedAt),
			Data: base64.StdEncoding.EncodeToString([]byte(d.HTML()))}}},
	}
	if d.Doctor.ID != 0 {
		out.Author = []Reference{{Reference: "Practitioner/" + strconv.FormatInt(d.Doctor.ID, 10), Display: d.Doctor.Name}}
	}
	if d.AppointmentID != nil {
		out.Context = &DocumentContext{Encounter: []Reference{*ref("Encounter", *d.AppointmentID)}}
	}
	return out
}

var documentParams = map[string]paramKind{"patient": kindReference, "subject": kindReference, "status": kindToken, "type": kindToken}

// documentTokens are DocumentReference's token parameters, tested on the documents built.
var documentTokens = map[string]tokenParam{
	"status": codeParam(systemDocumentStatus, func(res Resource) string { return res.(DocumentReference).Status }),
	"type":   codingParam(func(res Resource) []Coding { return codingsOf(res.(DocumentReference).Type) }, systemDocumentKind),
}

// DocumentReference is an issued document with its page attached.
type DocumentReference struct {
	base
	Identifier  []Identifier      `json:"identifier,omitempty"`
	Status      string            `json:"status"`
	Type        *CodeableConcept  `json:"type,omitempty"`
	Subject     *Reference        `json:"subject"`
	Date        string            `json:"date,omitempty"`
	Author      []Reference       `json:"author,omitempty"`
	Custodian   *Reference        `json:"custodian,omitempty"`
	Description string            `json:"description,omitempty"`
	Content     []DocumentContent `json:"content"`
	Context     *DocumentContext  `json:"context,omitempty"`
}

// DocumentContent is a document's attachment.
type DocumentContent struct {
	Attachment Attachment `json:"attachment"`
}

// Attachment is a document's page, inline.
type Attachment struct {
	ContentType string `json:"contentType"`
	Language    string `json:"language,omitempty"`
	Data        string `json:"data"`
	Title       string `json:"title,omitempty"`
	Creation    string `json:"creation,omitempty"`
}

// DocumentContext is the visit a document was issued at.
type DocumentContext struct {
	Encounter []Reference `json:"encounter,omitempty"`
}

func (h *Handler) documentSource(ids []int64, patientID int64, match bool) source {
	return h.documents(ids, patientID).source(match, func(d document.Document) []Resource { return []Resource{documentReferenceOf(d)} })
}

const (
	// systemDocumentStatus is the code system of DocumentReference.status.
	systemDocumentStatus = "http://hl7.org/fhir/document-reference-status"
	// systemDocumentKind is the code system of the clinic's kinds of document (document.Kinds:
	// medical_certificate, referral…), its own, so that type= finds them.
	systemDocumentKind = "urn:emr:document-kind"
)
