package release

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/document"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/user"
)

// Store reads and writes what patients may see.
type Store struct {
	DB            *database.DB
	Results       *result.Store
	Documents     *document.Store
	Prescriptions *prescription.Store
	Now           func() time.Time
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Decision is what a doctor chose for an item.
type Decision struct {
	Decision string `json:"decision"`
	// A hold's: its kind (HoldDiscuss, HoldWithhold), the category of its reason, and the day
	// (YYYY-MM-DD) by which a doctor reviews it.
	HoldKind  string    `json:"hold_kind"`
	Category  string    `json:"category"`
	ReviewBy  string    `json:"review_by"`
	Reason    string    `json:"reason"`
	DecidedAt time.Time `json:"decided_at"`
	DecidedBy *int64    `json:"-"`
	ByName    string    `json:"decided_by_name"`
	Version   int       `json:"version"`
}

// entry is one item of a patient's record as the rules see it.
type entry struct {
	facts
	ID        int64
	PatientID int64
	Title     string
	Date      time.Time
	order     *result.Order
	doc       *document.Document
	rx        *prescription.Prescription
}

// orderEntries judges orders; unacknowledged are the ids of their critical values no doctor acknowledged.
func orderEntries(orders []result.Order, unacknowledged map[int64]bool) []entry {
	out := make([]entry, 0, len(orders))
	for i := range orders {
		o := &orders[i]
		f := facts{Kind: KindResult, HasValue: len(o.Results) > 0, Final: o.Status == result.Final || o.Status == result.Reviewed,
			Withdrawn: o.WithdrawnToReview, Reviewed: o.Status == result.Reviewed && !o.ToReview}
		for _, r := range o.Results {
			if r.Status == result.Preliminary {
				f.Final = false
			}
			if unacknowledged[r.ID] {
				f.Critical = true
			}
		}
		date := o.OrderedAt
		if o.ResultedAt != nil {
			date = *o.ResultedAt
		}
		f.Sensitive = OrderSensitivity(o)
		out = append(out, entry{facts: f, ID: o.ID, PatientID: o.PatientID, Title: o.TestLabel, Date: date, order: o})
	}
	return out
}

// documentEntry judges d, named to a reader of lang (a starter template's name is its kind's).
func documentEntry(d *document.Document, lang string) entry {
	return entry{facts: facts{Kind: KindDocument, DocKind: d.Kind, Cancelled: d.Status == document.Cancelled, Sensitive: documentSensitivity(d)},
		ID: d.ID, PatientID: d.PatientID, Title: document.TitleIn(lang, d.Kind, d.Title), Date: d.IssuedAt, doc: d}
}

func prescriptionEntry(rx *prescription.Prescription, lang string) entry {
	// Named by its medicines, as the print lists them.
	title := i18n.T(lang, "release.title.prescription")
	if len(rx.Items) > 0 {
		names := make([]string, 0, len(rx.Items))
		for _, it := range rx.Items {
			names = append(names, it.Medicine)
		}
		title = strings.Join(names, ", ")
	}
	e := entry{facts: facts{Kind: KindPrescription, Cancelled: rx.Status == prescription.Cancelled, NotPrinted: prescription.Editable(rx.Status)},
		ID: rx.ID, Title: title, Date: rx.CreatedAt, rx: rx}
	if rx.PatientID != nil {
		e.PatientID = *rx.PatientID
	}
	if rx.IssuedAt != nil {
		e.Date = *rx.IssuedAt
	}
	return e
}

// entries reads every item of patientID's record the rules judge, newest first within each
// kind, and for judging the orders documents printed that are older than those judged at once
// (read by id, so that a document is judged against them rather than barred for not finding them).
func (s *Store) entries(ctx context.Context, patientID int64, lang string) (list, judging []entry, err error) {
	orders, unacknowledged, err := s.Results.ForRelease(ctx, patientID, nil, lang)
	if err != nil {
		return nil, nil, err
	}
	out := orderEntries(orders, unacknowledged)
	docs, err := s.Documents.List(ctx, patientID, 0)
	if err != nil {
		return nil, nil, err
	}
	for i := range docs {
		out = append(out, documentEntry(&docs[i], lang))
	}
	listed := map[int64]bool{}
	for _, o := range orders {
		listed[o.ID] = true
	}
	var older []int64
	for _, d := range docs {
		for _, p := range d.PrintedResults {
			if !listed[p.Order] && !slices.Contains(older, p.Order) {
				older = append(older, p.Order)
			}
		}
	}
	if len(older) > 0 {
		more, unacked, err := s.Results.ForRelease(ctx, patientID, older, lang)
		if err != nil {
			return nil, nil, err
		}
		judging = orderEntries(more, unacked)
	}
	rxs, err := s.Prescriptions.ForPatient(ctx, patientID)
	if err != nil {
		return nil, nil, err
	}
	for i := range rxs {
		out = append(out, prescriptionEntry(&rxs[i], lang))
	}
	slices.SortStableFunc(out, func(a, b entry) int { return b.Date.Compare(a.Date) })
	return out, judging, nil
}

// one reads one item as the rules judge it.
func (s *Store) one(ctx context.Context, kind string, id, viewerID int64, lang string) (entry, error) {
	switch kind {
	case KindResult:
		orders, unacknowledged, err := s.Results.ForRelease(ctx, 0, []int64{id}, lang)
		if err != nil {
			return entry{}, err
		}
		if len(orders) == 0 {
			return entry{}, apperr.NotFound("result.order_not_found")
		}
		return orderEntries(orders, unacknowledged)[0], nil
	case KindDocument:
		d, err := s.Documents.Get(ctx, id)
		if err != nil {
			return entry{}, err
		}
		return documentEntry(&d, lang), nil
	case KindPrescription:
		rx, err := s.Prescriptions.Get(ctx, id, viewerID, lang)
		if err != nil {
			return entry{}, err
		}
		if rx.PatientID == nil {
			return entry{}, apperr.NotFound("prescription.not_found")
		}
		return prescriptionEntry(&rx, lang), nil
	}
	return entry{}, apperr.NotFound("release.not_found")
}

type key struct {
	kind string
	id   int64
}

// decisions reads patientID's decisions by item.
func decisions(ctx context.Context, q database.Querier, patientID int64) (map[key]Decision, error) {
	rows, err := q.QueryContext(ctx, `SELECT kind, item_id, decision, hold_kind, hold_category, review_by, reason, decided_at, decided_by, version
		FROM release_decisions WHERE patient_id = $1`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read release decisions: %w", err)
	}
	defer rows.Close()
	out := map[key]Decision{}
	for rows.Next() {
		var k key
		var d Decision
		var reviewBy sql.NullString
		if err := rows.Scan(&k.kind, &k.id, &d.Decision, &d.HoldKind, &d.Category, &reviewBy, &d.Reason, &d.DecidedAt, &d.DecidedBy, &d.Version); err != nil {
			return nil, err
		}
		d.ReviewBy = reviewBy.String
		d.DecidedAt = d.DecidedAt.UTC()
		out[k] = d
	}
	return out, rows.Err()
}

// apply sets on each entry of list and judging what a doctor chose for it, then marks each
// document of list that printed a result the patient may not see now (WhyCarriesHidden); list
// and judging hold the patient's orders the documents are judged against.
func apply(rules Settings, list, judging []entry, chosen map[key]Decision) {
	orders := map[int64]*entry{}
	for _, l := range [][]entry{list, judging} {
		for i := range l {
			en := &l[i]
			if d, ok := chosen[key{en.Kind, en.ID}]; ok && !lapsed(en, d) {
				en.Decision, en.HoldKind = d.Decision, d.HoldKind
			}
			if en.order != nil {
				orders[en.ID] = en
			}
		}
	}
	for i := range list {
		if en := &list[i]; en.doc != nil {
			en.CarriesHidden = carriesHidden(rules, printed(en.doc, orders), orders)
		}
	}
}

// lapsed says whether a doctor's release of result en no longer applies: a value was recorded
// (a correction) after the release. The doctor released the values they saw, not the ones that
// replaced them: the corrected result waits for a hand again, or the rule (ADR 45).
func lapsed(en *entry, d Decision) bool {
	if d.Decision != Released || en.order == nil {
		return false
	}
	return slices.ContainsFunc(en.order.Results, func(r result.Result) bool { return r.RecordedAt.After(d.DecidedAt) })
}

// printed are the results a document printed. A document issued before they were kept: a
// visit summary or results report of a visit printed, as far as is known, each of the visit's
// orders that has (or had) a value.
func printed(d *document.Document, orders map[int64]*entry) []document.PrintedResult {
	if d.PrintedResults != nil {
		return d.PrintedResults
	}
	if d.AppointmentID == nil || (d.Kind != "visit_summary" && d.Kind != "results_report") {
		return nil
	}
	var out []document.PrintedResult
	for id, o := range orders {
		if o.order.AppointmentID == *d.AppointmentID && (len(o.order.Results) > 0 || len(o.order.Retracted) > 0 || o.order.WithdrawnToReview) {
			out = append(out, document.PrintedResult{Order: id})
		}
	}
	return out
}

// carriesHidden says whether any of the printed results is one the patient may not see now
// under rules (an order not among the patient's, one never seen, held, withheld, waiting for a
// hand, given in person), or a value printed has since been replaced or withdrawn.
func carriesHidden(rules Settings, printed []document.PrintedResult, orders map[int64]*entry) bool {
	for _, p := range printed {
		o, ok := orders[p.Order]
		if !ok {
			return true
		}
		if visible, _ := judge(rules, o.facts); !visible {
			return true
		}
		for _, id := range p.Results {
			if !slices.ContainsFunc(o.order.Results, func(r result.Result) bool { return r.ID == id }) {
				return true
			}
		}
	}
	return false
}

// judged reads item en's decision and, for a document, the patient's orders it printed, and
// gives en as the rules judge it.
func (s *Store) judged(ctx context.Context, en entry, rules Settings, chosen map[key]Decision, lang string) (entry, error) {
	list := []entry{}
	if en.doc != nil {
		// The orders it printed (by id), or for a document from before they were kept, the
		// patient's orders its visit's are among.
		var ids []int64
		if en.doc.PrintedResults != nil {
			ids = make([]int64, 0, len(en.doc.PrintedResults))
			for _, p := range en.doc.PrintedResults {
				ids = append(ids, p.Order)
			}
		}
		orders, unacknowledged, err := s.Results.ForRelease(ctx, en.PatientID, ids, lang)
		if err != nil {
			return en, err
		}
		list = orderEntries(orders, unacknowledged)
	}
	list = append(list, en)
	apply(rules, list, nil, chosen)
	return list[len(list)-1], nil
}

// Openings are when the patient opened an item: the latest few, newest first, and how many in all.
type Openings struct {
	Count  int         `json:"count"`
	Latest []time.Time `json:"latest"`
}

// openingsShown is how many openings of an item the chart lists.
const openingsShown = 5

func openings(ctx context.Context, q database.Querier, patientID int64) (map[key]Openings, error) {
	rows, err := q.QueryContext(ctx, `SELECT kind, item_id, opened_at FROM release_openings WHERE patient_id = $1
		ORDER BY opened_at DESC, id DESC`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read openings: %w", err)
	}
	defer rows.Close()
	out := map[key]Openings{}
	for rows.Next() {
		var k key
		var at time.Time
		if err := rows.Scan(&k.kind, &k.id, &at); err != nil {
			return nil, err
		}
		o := out[k]
		o.Count++
		if len(o.Latest) < openingsShown {
			o.Latest = append(o.Latest, at.UTC())
		}
		out[k] = o
	}
	return out, rows.Err()
}

// Opened records that the patient (actor: "patient:ID", or a guardian's) opened item kind/id of
// patientID's record, in tx (the portal's read, audited there): the chart shows when.
func Opened(ctx context.Context, tx *sql.Tx, patientID int64, kind string, id int64, actor string, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO release_openings (patient_id, kind, item_id, opened_at, actor) VALUES ($1, $2, $3, $4, $5)`,
		patientID, kind, id, at.UTC(), actor); err != nil {
		return fmt.Errorf("record opening: %w", err)
	}
	return nil
}

// Status is an item of a patient's record as the chart shows it: whether the patient sees
// it, why (not), what a doctor chose, whether one may release or hold it, and when the patient
// opened it.
type Status struct {
	Kind         string    `json:"kind"`
	ID           int64     `json:"id"`
	Title        string    `json:"title"`
	Date         time.Time `json:"date"`
	DocumentKind string    `json:"document_kind"`
	Visible      bool      `json:"visible"`
	// Why: by_rule, by_doctor (seen); held (shown as "your doctor will discuss this with you");
	// withheld (not seen at all); waiting (the rule waits for a hand); in_person (a sensitive
	// result: released only by hand); no_result, not_final, critical, withdrawn, not_reviewed,
	// cancelled, carries_hidden, not_issued (never seen while so).
	Why      string    `json:"why"`
	Decision *Decision `json:"decision"`
	// HoldDue: a hold whose review-by day has come: a doctor looks at it again.
	HoldDue bool `json:"hold_due"`
	// Sensitive is a result's category usually given in person (Sensitivity), "" for none.
	Sensitive string `json:"sensitive"`
	// Abnormal: a result with a value outside the usual range (the chart confirms its release).
	Abnormal bool `json:"abnormal"`
	// PrintsResults: a document that printed result values (the chart says to check them).
	PrintsResults bool `json:"prints_results"`
	// Withdrawn: the patient opened it and now may not see it: they see that the clinic
	// withdrew it (title and date only).
	Withdrawn  bool     `json:"withdrawn"`
	CanRelease bool     `json:"can_release"`
	CanHold    bool     `json:"can_hold"`
	Version    int      `json:"version"`
	Openings   Openings `json:"openings"`
}

func (s *Store) statuses(ctx context.Context, patientID int64, lang string) ([]Status, Settings, error) {
	rules, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return nil, rules, err
	}
	list, judging, err := s.entries(ctx, patientID, lang)
	if err != nil {
		return nil, rules, err
	}
	chosen, err := decisions(ctx, s.DB, patientID)
	if err != nil {
		return nil, rules, err
	}
	opened, err := openings(ctx, s.DB, patientID)
	if err != nil {
		return nil, rules, err
	}
	var people []int64
	for _, d := range chosen {
		if d.DecidedBy != nil {
			people = append(people, *d.DecidedBy)
		}
	}
	slices.Sort(people)
	names, err := user.Names(ctx, s.DB, slices.Compact(people))
	if err != nil {
		return nil, rules, err
	}
	apply(rules, list, judging, chosen)
	today := s.now().Format(time.DateOnly)
	out := make([]Status, 0, len(list))
	for _, en := range list {
		k := key{en.Kind, en.ID}
		st := Status{Kind: en.Kind, ID: en.ID, Title: en.Title, Date: en.Date, DocumentKind: en.DocKind, Openings: opened[k]}
		if en.order != nil { // a document's category keeps it only from the adolescent's portal view
			st.Sensitive = en.Sensitive
		}
		if st.Openings.Latest == nil {
			st.Openings.Latest = []time.Time{}
		}
		if d, ok := chosen[k]; ok {
			if d.DecidedBy != nil {
				d.ByName = names[*d.DecidedBy]
			}
			st.Decision, st.Version = &d, d.Version
			if lapsed(&en, d) {
				// A release a correction overtook: shown as no choice; its version still guards the next.
				st.Decision = nil
			}
			st.HoldDue = d.Decision == Held && d.ReviewBy != "" && d.ReviewBy <= today
		}
		if en.order != nil {
			st.Abnormal = slices.ContainsFunc(en.order.Results, func(r result.Result) bool { return r.Flag != "" && r.Flag != catalogue.FlagNormal })
		}
		if en.doc != nil {
			st.PrintsResults = len(printed(en.doc, nil)) > 0 || (en.doc.PrintedResults == nil && (en.DocKind == "visit_summary" || en.DocKind == "results_report"))
		}
		st.Visible, st.Why = judge(rules, en.facts)
		st.Withdrawn = Never(st.Why) && st.Openings.Count > 0
		barred := never(en.facts) != ""
		st.CanRelease = !barred && !(st.Visible && en.Decision != Held && (en.Decision == Released || rules.automatic(en.Kind, en.DocKind)))
		// A hold may be made again: to change its kind, category or review-by day.
		st.CanHold = !en.Cancelled
		out = append(out, st)
	}
	return out, rules, nil
}

// Statuses is the chart's view of what patientID may see, read by e (audited).
func (s *Store) Statuses(ctx context.Context, e audit.Event, patientID int64, lang string) ([]Status, error) {
	list, _, err := s.statuses(ctx, patientID, lang)
	if err != nil {
		return nil, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "release.list", "patient", strconv.FormatInt(patientID, 10), audit.Success, patientID
	return list, audit.Access(ctx, s.DB, e)
}

// Input is a doctor's choice for one item: release it, or hold it with a reason; version is
// the decision's as the doctor saw it (0: none yet).
type Input struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
	// A hold's: its kind (HoldKinds), the category of its reason (HoldCategories) and the day
	// by which a doctor reviews it (YYYY-MM-DD; "": in holdReviewDays).
	HoldKind string `json:"hold_kind"`
	Category string `json:"category"`
	ReviewBy string `json:"review_by"`
	Version  int    `json:"version"`
}

// A hold is due for review in holdReviewDays unless the doctor says when; at most in maxReviewDays.
const (
	holdReviewDays = 30
	maxReviewDays  = 366
)

// Actions a doctor takes.
const (
	ActRelease = "release"
	ActHold    = "hold"
)

// Decide records e's choice for item kind/id (release, or hold with a reason) in one
// transaction with its audit event. A release of an item that may never be shown while it is
// so is refused (409, release.barred_*, whatever the rules), as is any choice on a cancelled
// one; a hold may come before the review (it holds the result once reviewed). A stale
// version is 409 error.conflict.
func (s *Store) Decide(ctx context.Context, e audit.Event, kind string, id int64, in Input, lang string) (Status, error) {
	var v apperr.Validation
	if in.Action != ActRelease && in.Action != ActHold {
		v.Add("action", "validation.invalid_choice")
	}
	reason, holdKind, category, reviewBy := "", "", "", any(nil)
	if in.Action == ActHold {
		var err error
		if reason, err = apperr.Reason(in.Reason); err != nil {
			return Status{}, err
		}
		if apperr.ReasonTooShort(reason) {
			v.Add("reason", "release.reason_short")
		}
		holdKind, category = in.HoldKind, in.Category
		if !slices.Contains(HoldKinds, holdKind) {
			v.Add("hold_kind", "validation.invalid_choice")
		}
		if !slices.Contains(HoldCategories, category) {
			v.Add("category", "validation.invalid_choice")
		}
		today := s.now().Truncate(24 * time.Hour)
		day := today.AddDate(0, 0, holdReviewDays)
		if in.ReviewBy != "" {
			d, err := time.Parse(time.DateOnly, strings.TrimSpace(in.ReviewBy))
			switch {
			case err != nil:
				v.Add("review_by", "validation.date_format")
			case d.Before(today) || d.After(today.AddDate(0, 0, maxReviewDays)):
				v.Add("review_by", "release.bad_review_by")
			}
			day = d
		}
		reviewBy = day.Format(time.DateOnly)
	}
	if err := v.Err(); err != nil {
		return Status{}, err
	}
	en, err := s.one(ctx, kind, id, e.ActorID, lang)
	if err != nil {
		return Status{}, err
	}
	rules, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return Status{}, err
	}
	chosen, err := decisions(ctx, s.DB, en.PatientID)
	if err != nil {
		return Status{}, err
	}
	if en, err = s.judged(ctx, en, rules, chosen, lang); err != nil {
		return Status{}, err
	}
	if why := never(en.facts); why != "" && (in.Action == ActRelease || why == WhyCancelled) {
		return Status{}, apperr.Conflict("release.barred_" + why)
	}
	decision := Released
	if in.Action == ActHold {
		decision = Held
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var version int
		err := tx.QueryRowContext(ctx, `SELECT version FROM release_decisions WHERE kind = $1 AND item_id = $2`, kind, id).Scan(&version)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read release decision: %w", err)
		}
		if version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		now := s.now()
		var res sql.Result
		if version == 0 {
			res, err = tx.ExecContext(ctx, `INSERT INTO release_decisions (kind, item_id, patient_id, decision, reason, decided_at, decided_by, version,
				hold_kind, hold_category, review_by) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10) ON CONFLICT (kind, item_id) DO NOTHING`,
				kind, id, en.PatientID, decision, reason, now, e.ActorID, holdKind, category, reviewBy)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE release_decisions SET decision = $1, reason = $2, decided_at = $3, decided_by = $4,
				version = version + 1, hold_kind = $5, hold_category = $6, review_by = $7 WHERE kind = $8 AND item_id = $9 AND version = $10`,
				decision, reason, now, e.ActorID, holdKind, category, reviewBy, kind, id, version)
		}
		if err != nil {
			return fmt.Errorf("save release decision: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return apperr.Conflict("error.conflict")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID, e.At = "release."+in.Action, kind, strconv.FormatInt(id, 10), audit.Success, en.PatientID, now
		if reason != "" {
			e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.reason_given"})
		}
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Status{}, err
	}
	list, _, err := s.statuses(ctx, en.PatientID, lang)
	if err != nil {
		return Status{}, err
	}
	for _, st := range list {
		if st.Kind == kind && st.ID == id {
			return st, nil
		}
	}
	return Status{}, apperr.NotFound("release.not_found")
}

// DueHold is a hold whose review-by day has come, on the doctors' work list: whose item, what,
// who held it and by when a doctor was to look at it again.
type DueHold struct {
	Kind     string          `json:"kind"`
	ID       int64           `json:"id"`
	Title    string          `json:"title"`
	Patient  patient.Summary `json:"patient"`
	HoldKind string          `json:"hold_kind"`
	Category string          `json:"category"`
	ReviewBy string          `json:"review_by"`
	HeldAt   time.Time       `json:"held_at"`
	HeldBy   string          `json:"held_by_name"`
}

// dueHoldsShown is how many due holds the work list reads at most (the oldest due first).
const dueHoldsShown = 200

// HoldsDue lists the holds whose review-by day has come (today included), the longest due
// first, read by e: each patient named is audited as a list read (release_holds.list). A hold
// shows on the chart only; this is how one due comes back to a doctor (ADR 45).
func (s *Store) HoldsDue(ctx context.Context, e audit.Event, lang string) ([]DueHold, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT kind, item_id, patient_id, hold_kind, hold_category, review_by, decided_at, decided_by
		FROM release_decisions WHERE decision = $1 AND review_by IS NOT NULL AND review_by <= $2 ORDER BY review_by, decided_at, kind, item_id LIMIT $3`,
		Held, s.now().Format(time.DateOnly), dueHoldsShown)
	if err != nil {
		return nil, fmt.Errorf("read due holds: %w", err)
	}
	var out []DueHold
	var patients, people []int64
	by := map[int]*int64{}
	for rows.Next() {
		var h DueHold
		var decidedBy *int64
		if err := rows.Scan(&h.Kind, &h.ID, &h.Patient.ID, &h.HoldKind, &h.Category, &h.ReviewBy, &h.HeldAt, &decidedBy); err != nil {
			rows.Close()
			return nil, err
		}
		h.HeldAt = h.HeldAt.UTC()
		if decidedBy != nil {
			by[len(out)] = decidedBy
			people = append(people, *decidedBy)
		}
		patients = append(patients, h.Patient.ID)
		out = append(out, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(people)
	names, err := user.Names(ctx, s.DB, slices.Compact(people))
	if err != nil {
		return nil, err
	}
	slices.Sort(patients)
	patients = slices.Compact(patients)
	summaries, err := patient.Summaries(ctx, s.DB, patients)
	if err != nil {
		return nil, err
	}
	for i := range out {
		h := &out[i]
		if id := by[i]; id != nil {
			h.HeldBy = names[*id]
		}
		h.Patient = summaries[h.Patient.ID]
		// The item's title as the chart names it; an item since gone keeps its kind only.
		if en, err := s.one(ctx, h.Kind, h.ID, e.ActorID, lang); err == nil {
			h.Title = en.Title
		} else if !errors.Is(err, apperr.ErrNotFound) {
			return nil, err
		}
	}
	events := make([]audit.Event, 0, len(patients))
	for _, id := range patients {
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.PatientID = "release_holds.list", "patient", strconv.FormatInt(id, 10), audit.Success, id
		events = append(events, ev)
	}
	if err := audit.AccessAll(ctx, s.DB, events); err != nil {
		return nil, err
	}
	return out, nil
}
