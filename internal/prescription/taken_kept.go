package prescription

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/user"
)

// A finding of the list's review kept knowingly (ADR 25): a prescriber who keeps both
// medicines of a duplicate or an interaction on purpose (warfarin with low-dose aspirin after
// a stent) says why, and the pair is no longer one to resolve: it is shown as kept, by whom,
// when and why. The keep names each medicine by its stable key and what it is, so that it
// lapses by itself when either stops, is entered in error, is corrected to another medicine
// or is replaced by a new prescription. A line prescribed here over the same finding with a
// reason (its override) is kept by that reason, by its prescriber, on its day.

// PairRef names a finding of the list's review: this medicine and the other by their stable
// keys (a recorded entry "taken-ID", a line of a prescription here "rx-ID-LINE"), and the
// finding by its kind and the substance or rule that makes it ("interaction:warfarin-nsaid").
type PairRef struct {
	This    string `json:"this"`
	Other   string `json:"other"`
	Finding string `json:"finding"`
}

// Kept says a finding of the list's review is kept knowingly: by whom, when, why.
type Kept struct {
	By     string    `json:"by"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	// Prescribed: the reason was given when the line here was prescribed (its override).
	Prescribed bool `json:"prescribed"`
}

// KeepInput keeps a finding of the list's review knowingly, for a reason.
type KeepInput struct {
	PairRef
	Reason string `json:"reason"`
}

// entryKey names a current medicine stably: a recorded entry by its id, a line here by its
// prescription and line (a new prescription is another medicine).
func entryKey(t Taken) string {
	if t.ID != 0 || t.PrescriptionID == nil || t.Line == nil {
		return "taken-" + strconv.FormatInt(t.ID, 10)
	}
	return fmt.Sprintf("rx-%d-%d", *t.PrescriptionID, *t.Line)
}

// entryWhat is what a medicine is: its catalogue entry, or its words; and how it is taken —
// its dose, frequency and route — so that a keep lapses when any of them is corrected
// (simvastatin kept at 20 mg beside amlodipine is to be reviewed again at 80 mg: the
// pharmacist's review of 2026-11-29, M4; MHRA Drug Safety Update, August 2012).
func entryWhat(t Taken) string {
	what := "n:" + folded(t.Medicine)
	if t.MedicineID != nil {
		what = "m:" + strconv.FormatInt(*t.MedicineID, 10)
	}
	return what + "|d:" + folded(t.Dose) + "|f:" + folded(t.Frequency) + "|r:" + t.Route
}

// folded is a text in lower case with its spaces made one.
func folded(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// pairSide is one medicine of a kept pair.
type pairSide struct{ key, what string }

// pairID is a kept pair's identity: its two medicines in key order, and its finding.
func pairID(a, b pairSide, finding string) string {
	if b.key < a.key {
		a, b = b, a
	}
	return a.key + "|" + a.what + "|" + b.key + "|" + b.what + "|" + finding
}

// renewalID is a kept pair's identity with each line here named by what it is, not by its
// prescription: a keep carries over to the renewal of the same product at the same dose,
// frequency and route, and lapses on any other change (the pharmacist's review of
// 2026-11-29, M9: a routine renewal reopened every keep; alert fatigue, van der Sijs, JAMIA
// 2006; Baysari, JAMIA 2012).
func renewalID(a, b pairSide, finding string) string {
	for _, side := range []*pairSide{&a, &b} {
		if strings.HasPrefix(side.key, "rx-") {
			side.key = "rx"
		}
	}
	return "renewal:" + pairID(a, b, finding)
}

// keptPairs reads a patient's kept pairs, the newest row of each: nil when it reopened the
// pair (to be reviewed again); and, under renewalID, the newest of those with a line here.
func keptPairs(ctx context.Context, q database.Querier, patientID int64) (map[string]*Kept, error) {
	rows, err := q.QueryContext(ctx, `SELECT first_key, first_what, second_key, second_what, finding_key, reason, kept_at, COALESCE(kept_by, 0), reopened
		FROM medicine_pairs_kept WHERE patient_id = $1 ORDER BY id DESC LIMIT 500`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read kept pairs: %w", err)
	}
	type row struct {
		id, renewal string
		k           Kept
		by          int64
		reopened    bool
	}
	var got []row
	for rows.Next() {
		var a, b pairSide
		var finding string
		var r row
		if err := rows.Scan(&a.key, &a.what, &b.key, &b.what, &finding, &r.k.Reason, &r.k.At, &r.by, &r.reopened); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read a kept pair: %w", err)
		}
		r.id = pairID(a, b, finding)
		if strings.HasPrefix(a.key, "rx-") || strings.HasPrefix(b.key, "rx-") {
			r.renewal = renewalID(a, b, finding)
		}
		got = append(got, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var ids []int64
	for _, r := range got {
		ids = append(ids, r.by)
	}
	names, err := user.Names(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]*Kept{}
	for _, r := range got {
		r.k.By = names[r.by]
		for _, id := range []string{r.id, r.renewal} {
			if _, ok := out[id]; !ok && id != "" { // newest first
				k := r.k
				out[id] = &k
				if r.reopened {
					out[id] = nil
				}
			}
		}
	}
	return out, nil
}

// prescribedKeep is the keep a line here gives a finding with recorded entry takenID: its
// override's reason when the override covers that finding (the line was prescribed beside
// the recorded medicine, and the prescriber gave a reason for it).
func prescribedKeep(here Taken, takenID int64, finding string) *Kept {
	if here.override == "" {
		return nil
	}
	var key string
	switch {
	case strings.HasPrefix(finding, "duplicate:"):
		key = fmt.Sprintf("taken:%d:%s", takenID, strings.TrimPrefix(finding, "duplicate:"))
	case strings.HasPrefix(finding, "interaction:"):
		key = fmt.Sprintf("%s:taken:%d", finding, takenID)
	}
	if key == "" || !slices.Contains(here.overrides, key) {
		return nil
	}
	return &Kept{By: here.Prescriber, At: here.RecordedAt, Reason: here.override, Prescribed: true}
}

// KeepPair keeps a finding of the patient's list's review knowingly, for a reason: it is
// then shown as kept and no longer counted as one to resolve, until either medicine changes.
func (s *Store) KeepPair(ctx context.Context, e audit.Event, patientID int64, in KeepInput, lang string) (Finding, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	var v apperr.Validation
	switch {
	case apperr.ReasonTooShort(in.Reason):
		v.Add("reason", "medication.keep_reason_short")
	case utf8.RuneCountInString(in.Reason) > 500:
		v.Add("reason", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return Finding{}, err
	}
	return s.markPair(ctx, e, patientID, in, lang)
}

// ReviewPairAgain withdraws a keep of a finding of the list's review — a prescriber's, or the
// reason a line here was prescribed with — so that it is one to resolve again. A finding not
// kept is answered as it is.
func (s *Store) ReviewPairAgain(ctx context.Context, e audit.Event, patientID int64, in PairRef, lang string) (Finding, error) {
	return s.markPair(ctx, e, patientID, KeepInput{PairRef: in}, lang)
}

// markPair keeps a finding of the list's review for in.Reason, or reopens it when there is
// none; the finding must be on the patient's list now.
func (s *Store) markPair(ctx context.Context, e audit.Event, patientID int64, in KeepInput, lang string) (Finding, error) {
	reopen := in.Reason == ""
	list, err := s.currentList(ctx, patientID)
	if err != nil {
		return Finding{}, err
	}
	if err := s.reviewList(ctx, patientID, list, lang); err != nil {
		return Finding{}, err
	}
	var found *Finding
	var this, other Taken
	for _, t := range list {
		for i, f := range t.Findings {
			if f.Pair != nil && f.Pair.This == in.This && f.Pair.Other == in.Other && f.Pair.Finding == in.Finding {
				found, this = &t.Findings[i], t
			}
		}
	}
	if found == nil {
		return Finding{}, apperr.Conflict("medication.pair_gone")
	}
	if reopen && found.Kept == nil {
		return *found, nil
	}
	for _, t := range list {
		if t.Active() && entryKey(t) == in.Other {
			other = t
		}
	}
	a, b := pairSide{entryKey(this), entryWhat(this)}, pairSide{entryKey(other), entryWhat(other)}
	names := [2]string{this.Medicine, other.Medicine}
	if b.key < a.key {
		a, b, names = b, a, [2]string{other.Medicine, this.Medicine}
	}
	now := s.now()
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.checkPatient(ctx, tx, patientID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO medicine_pairs_kept (patient_id, first_key, first_what, second_key, second_what, finding_key,
			reason, kept_at, kept_by, reopened) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			patientID, a.key, a.what, b.key, b.what, in.Finding, in.Reason, now, e.Actor(), reopen); err != nil {
			return fmt.Errorf("keep a pair: %w", err)
		}
		by, err := user.Names(ctx, tx, []int64{e.ActorID})
		if err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "medication.pair_kept", "patient", strconv.FormatInt(patientID, 10), patientID, audit.Success
		e.Detail = fmt.Sprintf("patient %d %s (%s) with %s (%s), %s; reason: %s", patientID, names[0], a.key, names[1], b.key, in.Finding, in.Reason)
		found.Kept = &Kept{By: by[e.ActorID], At: now, Reason: in.Reason}
		if reopen {
			e.Action, found.Kept = "medication.pair_reopened", nil
			e.Detail = fmt.Sprintf("patient %d %s (%s) with %s (%s), %s", patientID, names[0], a.key, names[1], b.key, in.Finding)
		}
		return audit.Record(ctx, tx, e)
	})
	return *found, err
}
