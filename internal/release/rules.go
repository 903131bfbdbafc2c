// Package release decides what a patient may see of their record (issue 56, item 5; ADR 45):
// the clinic's rules (a setting), the doctor's choice per item (released, or held with a
// reason), and what is never released whatever either says — a critical value before a doctor
// acknowledged it, a result not yet reviewed, a value withdrawn, a cancelled document. It
// owns release_decisions and release_openings; it reads results, documents and prescriptions
// through their stores, and serves the chart's view and the Go API the patient portal calls.
package release

import (
	"context"
	"database/sql"
	"slices"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/document"
	"emr/internal/settings"
)

// Kinds of item a patient may be shown.
const (
	KindResult       = "result"       // a lab order with its current results
	KindDocument     = "document"     // an issued document (certificate, referral, summary…)
	KindPrescription = "prescription" // a printed prescription
)

// Rules for results: released once a doctor reviewed them unless held, or only by hand.
const (
	ResultsReviewed = "reviewed"
	ResultsManual   = "manual"
)

// Rules for a kind of document: released when it is issued (printed), or only by hand.
const (
	DocumentsIssued = "issued"
	DocumentsManual = "manual"
)

// DocumentKinds are the kinds a document rule names: the document kinds, and prescriptions.
var DocumentKinds = append(slices.Clone(document.Kinds), KindPrescription)

// Settings are the clinic's rules of what its patients see.
type Settings struct {
	Results   string            `json:"results"`
	Documents map[string]string `json:"documents"`
	Version   int               `json:"version"`
}

const settingsKey = "patient_release"

// Defaults are the rules until an administrator saves others: results once reviewed; a
// document when issued, except a results report and a visit summary (they print result
// values: ADR 45, the clinician's review C1) and a custom document (what it says is the
// clinic's own), which wait for a hand.
func Defaults() Settings {
	docs := map[string]string{}
	for _, k := range DocumentKinds {
		docs[k] = DocumentsIssued
	}
	docs["results_report"], docs["visit_summary"], docs["custom"] = DocumentsManual, DocumentsManual, DocumentsManual
	return Settings{Results: ResultsReviewed, Documents: docs}
}

// ReadSettings returns the clinic's rules (Defaults until saved; a kind added since, its default).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	s := Defaults()
	stored := Settings{}
	version, err := settings.Read(ctx, q, settingsKey, &stored)
	if err != nil {
		return s, err
	}
	if stored.Results != "" {
		s.Results = stored.Results
	}
	for k, v := range stored.Documents {
		if _, ok := s.Documents[k]; ok {
			s.Documents[k] = v
		}
	}
	s.Version = version
	return s, nil
}

func (s *Settings) clean() error {
	var v apperr.Validation
	if s.Results != ResultsReviewed && s.Results != ResultsManual {
		v.Add("results", "validation.invalid_choice")
	}
	docs := Defaults().Documents
	for k, rule := range s.Documents {
		if _, ok := docs[k]; !ok {
			v.Add("documents."+k, "document.bad_kind")
			continue
		}
		if rule != DocumentsIssued && rule != DocumentsManual {
			v.Add("documents."+k, "validation.invalid_choice")
			continue
		}
		docs[k] = rule
	}
	s.Documents = docs
	return v.Err()
}

// SaveSettings stores the rules if in.Version is still the stored one (else 409), audited.
func SaveSettings(ctx context.Context, db *database.DB, e audit.Event, in Settings) (Settings, error) {
	if err := in.clean(); err != nil {
		return Settings{}, err
	}
	e.Action = "settings.patient_release"
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		stored := in
		stored.Version = 0
		version, err := settings.Save(ctx, tx, e, settingsKey, stored, in.Version)
		in.Version = version
		return err
	})
	return in, err
}

// automatic says whether rules release an item of kind (docKind: a document's kind) without a hand.
func (s Settings) automatic(kind, docKind string) bool {
	switch kind {
	case KindResult:
		return s.Results == ResultsReviewed
	case KindPrescription:
		return s.Documents[KindPrescription] == DocumentsIssued
	}
	return s.Documents[docKind] == DocumentsIssued
}
