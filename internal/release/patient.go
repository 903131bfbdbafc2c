package release

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/document"
	"emr/internal/i18n"
	"emr/internal/prescription"
	"emr/internal/result"
)

// Value is one result as the patient reads it, in their language: the value with its unit,
// the flag and a sentence of it in plain words, the reference range that applied.
type Value struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Unit     string `json:"unit"`
	Flag     string `json:"flag"`
	FlagText string `json:"flag_text"`
	Range    string `json:"range"`
	// RangeNote says, in plain words, why a value was judged against no range or a range not
	// the patient's own (no range for the age and sex, the birth date unknown, beyond the
	// measuring range, the sex not recorded), as the printed report does: never blank, as if
	// normal.
	RangeNote string `json:"range_note,omitempty"`
	Corrected bool   `json:"corrected"`
}

// Item is an item of the record as the patient sees it. A held item says only Note ("your
// doctor will discuss this with you"): no value, nothing to open. A withdrawn item is one the
// patient opened that they may no longer see (a value withdrawn, a document cancelled): its
// title and date and Note ("this was withdrawn by the clinic…"), no value, nothing to open.
// A withheld item is not there at all.
type Item struct {
	Kind         string    `json:"kind"`
	ID           int64     `json:"id"`
	Title        string    `json:"title"`
	Date         time.Time `json:"date"`
	DocumentKind string    `json:"document_kind,omitempty"`
	Held         bool      `json:"held"`
	Withdrawn    bool      `json:"withdrawn"`
	Note         string    `json:"note,omitempty"`
	Corrected    bool      `json:"corrected"`
	Results      []Value   `json:"results,omitempty"`
	// Sensitive is a result's category a clinic gives in person (Sensitivity): a portal keeps
	// it from a parent reading an adolescent's record.
	Sensitive string `json:"-"`
}

// plain is a flag in plain words in lang ("" for none).
func plain(lang, flag string) string {
	if flag == "" {
		return ""
	}
	return i18n.T(lang, "release.flag."+flag)
}

func values(o *result.Order, lang string) ([]Value, bool) {
	out := make([]Value, 0, len(o.Results))
	corrected := false
	for _, r := range o.Results {
		v := Value{Name: r.Label, Value: r.ValueIn(lang), Flag: r.Flag, FlagText: plain(lang, r.Flag), Range: r.RangeIn(lang),
			Corrected: r.Status == result.Corrected}
		if r.Type == "numeric" {
			v.Unit = result.UnitIn(lang, r.Unit)
		}
		if r.Range.Note != "" && (v.Range != "" || r.Type == "numeric") {
			v.RangeNote = i18n.T(lang, "result.print.note."+r.Range.Note)
		}
		corrected = corrected || v.Corrected
		out = append(out, v)
	}
	return out, corrected
}

// tombstoneNote is what an item the patient opened, and may not see now, says in its place:
// withdrawn when a value was withdrawn or the document cancelled; else it changed (a
// correction, a value since marked critical) and waits for the doctor again.
func tombstoneNote(why string) string {
	switch why {
	case WhyWithdrawn, WhyNoResult, WhyCancelled:
		return "release.withdrawn_note"
	}
	return "release.changed_note"
}

// released is what the patient sees of the items of list (apply'd) under rules; opened are
// the items the patient opened (an item opened that may never be seen now is a tombstone).
func released(rules Settings, list []entry, opened map[key]Openings, lang string) []Item {
	out := []Item{}
	for _, en := range list {
		visible, why := judge(rules, en.facts)
		withdrawn := !visible && Never(why) && opened[key{en.Kind, en.ID}].Count > 0
		if !visible && why != WhyHeld && !withdrawn {
			continue
		}
		it := Item{Kind: en.Kind, ID: en.ID, Title: en.Title, Date: en.Date, DocumentKind: en.DocKind, Sensitive: en.Sensitive}
		switch {
		case withdrawn:
			it.Withdrawn, it.Note = true, i18n.T(lang, tombstoneNote(why))
		case why == WhyHeld:
			it.Held, it.Note = true, i18n.T(lang, "release.held_note")
		case en.order != nil:
			it.Results, it.Corrected = values(en.order, lang)
		}
		out = append(out, it)
	}
	return out
}

// Released lists what patientID sees of their record, as they see it, in lang (newest first):
// what the portal shows, and what the chart previews. The read is audited as e's (the patient
// as actor on the portal, a staff member on the chart).
func (s *Store) Released(ctx context.Context, e audit.Event, patientID int64, lang string) ([]Item, error) {
	rules, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	list, judging, err := s.entries(ctx, patientID, lang)
	if err != nil {
		return nil, err
	}
	chosen, err := decisions(ctx, s.DB, patientID)
	if err != nil {
		return nil, err
	}
	opened, err := openings(ctx, s.DB, patientID)
	if err != nil {
		return nil, err
	}
	apply(rules, list, judging, chosen)
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "release.view", "patient", strconv.FormatInt(patientID, 10), audit.Success, patientID
	return released(rules, list, opened, lang), audit.Access(ctx, s.DB, e)
}

// Printed is one released item as it was printed: a document's blocks (and the same as a page
// of HTML, every text escaped), a prescription as issued (its lines, prescriber, diagnoses —
// the record the print is drawn from, which cannot change once printed), or a result's values.
// The clinic prints in the browser: no PDF is kept on the server.
type Printed struct {
	Item
	Content []document.Block `json:"content,omitempty"`
	// Language is a document's, as it was printed.
	Language     string                     `json:"language,omitempty"`
	HTML         string                     `json:"html,omitempty"`
	Prescription *prescription.Prescription `json:"prescription,omitempty"`
}

// ofPatient reads item kind/id of patientID's record as the rules judge it (not found when it
// is not theirs). A prescription is read from the patient's list: read alone, a draft would be
// previewed for a prescriber, and the patient is none.
func (s *Store) ofPatient(ctx context.Context, patientID int64, kind string, id int64, lang string) (entry, error) {
	if kind != KindPrescription {
		return s.one(ctx, kind, id, 0, lang)
	}
	list, err := s.Prescriptions.ForPatient(ctx, patientID)
	if err != nil {
		return entry{}, err
	}
	for i := range list {
		if list[i].ID == id {
			return prescriptionEntry(&list[i], lang), nil
		}
	}
	return entry{}, apperr.NotFound("release.not_found")
}

// Open gives patientID item kind/id as printed, if they may see it now (else 404
// release.not_found: a held or withdrawn item too, which has nothing to open, and one hide
// leaves out — the adolescent's view — judged before anything is recorded), records the
// opening (actor: "patient:ID" or a guardian's) and audits the read as e's, in one transaction.
func (s *Store) Open(ctx context.Context, e audit.Event, patientID int64, kind string, id int64, actor, lang string, hide func(Item) bool) (Printed, error) {
	rules, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return Printed{}, err
	}
	en, err := s.ofPatient(ctx, patientID, kind, id, lang)
	if errors.Is(err, apperr.ErrNotFound) || (err == nil && en.PatientID != patientID) {
		return Printed{}, apperr.NotFound("release.not_found")
	}
	if err != nil {
		return Printed{}, err
	}
	chosen, err := decisions(ctx, s.DB, patientID)
	if err != nil {
		return Printed{}, err
	}
	if en, err = s.judged(ctx, en, rules, chosen, lang); err != nil {
		return Printed{}, err
	}
	items := released(rules, []entry{en}, nil, lang)
	if len(items) == 0 || items[0].Held || items[0].Withdrawn || (hide != nil && hide(items[0])) {
		return Printed{}, apperr.NotFound("release.not_found")
	}
	out := Printed{Item: items[0]}
	switch {
	case en.doc != nil:
		out.Content, out.HTML, out.Language = en.doc.Content, en.doc.HTML(), en.doc.Language
	case en.rx != nil:
		rx := *en.rx
		rx.Safety, rx.Warnings = nil, nil
		out.Prescription = &rx
	}
	now := s.now()
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := Opened(ctx, tx, patientID, kind, id, actor, now); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID, e.At = "release.open", kind, strconv.FormatInt(id, 10), audit.Success, patientID, now
		return audit.Record(ctx, tx, e)
	})
	return out, err
}
