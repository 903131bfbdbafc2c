// Package result closes the order loop (issue 35, ADR 29): a test ordered on a visit
// becomes a lab order that is collected, resulted (preliminary, final, corrected), flagged
// against the range that applied, reviewed by the ordering doctor, and, when a value is
// critical, acknowledged by a doctor before it leaves the screen. It owns lab_orders,
// lab_order_events, lab_results and critical_alerts; the catalogue's arithmetic (units,
// ranges, flags) is the catalogue package's.
package result

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// Order states: ordered → collected → preliminary → final → reviewed; cancelled (with a
// reason) before a result; not done (specimen rejected, patient never went). An order whose
// every result was retracted as entered in error is ordered again (Store.Retract).
const (
	Ordered     = "ordered"
	Collected   = "collected"
	Preliminary = "preliminary"
	Final       = "final"
	Reviewed    = "reviewed"
	Cancelled   = "cancelled"
	NotDone     = "not_done"
)

// Result states: a result is preliminary or final as recorded; a correction of a final
// result is "corrected" (the rows it replaces stay, not current); a result retracted as
// entered in error keeps its row, not current, with the reason (Store.Retract).
const (
	Corrected      = "corrected"
	EnteredInError = "entered_in_error"
)

// open are the states of an order still waiting for its result (the overdue list's).
var open = []string{Ordered, Collected}

// Attention ranks what an order's current results hold, for the review queue's order.
const (
	AttentionNormal   = 0
	AttentionAbnormal = 1 // a value outside its range, an abnormal answer, or a delta
	AttentionCritical = 2
)

// Range is the range that applied to a result, as stored with it (canonical unit); its
// source is the catalogue, the lab's printed range, or none (the critical limits, the
// analyte's own, may apply without a reference interval). Note says why there is no
// interval or that it is not sex-specific (catalogue.NoteAnySex, NoteNoBand,
// NoteNoBirthDate, NoteCensored), "" otherwise.
type Range struct {
	Low          *string `json:"low"`
	High         *string `json:"high"`
	CriticalLow  *string `json:"critical_low"`
	CriticalHigh *string `json:"critical_high"`
	Source       string  `json:"source"`
	Note         string  `json:"note"`
}

// Result is one analyte's result. Numbers are decimal text with "." as the point (the
// reader localises them): value in the canonical unit, entered as typed in entered_unit.
type Result struct {
	ID          int64     `json:"id"`
	OrderID     int64     `json:"order_id"`
	Analyte     string    `json:"analyte"`
	Label       string    `json:"label"`
	LOINC       string    `json:"loinc"`
	Type        string    `json:"type"`
	Entered     string    `json:"entered"`
	EnteredUnit string    `json:"entered_unit"`
	Value       *string   `json:"value"`
	Comparator  string    `json:"comparator"` // of a censored value: <, <=, >, >= (the value is the limit)
	Unit        string    `json:"unit"`
	Answer      string    `json:"answer"`
	Text        string    `json:"text"`
	Range       Range     `json:"range"`
	Flag        string    `json:"flag"`
	Delta       string    `json:"delta"`
	Status      string    `json:"status"`
	Current     bool      `json:"current"`
	Replaces    *int64    `json:"replaces"`
	ObservedAt  time.Time `json:"observed_at"`
	RecordedAt  time.Time `json:"recorded_at"`
	RecordedBy  *int64    `json:"recorded_by"`
	Recorder    string    `json:"recorded_by_name"`
	// Performer is the laboratory that performed the test, as named when the result was
	// entered; "" is the clinic itself.
	Performer string `json:"performer"`
	// Of a result retracted as entered in error: why, when and by whom.
	RetractReason string     `json:"retract_reason,omitempty"`
	RetractedAt   *time.Time `json:"retracted_at,omitempty"`
	RetractedBy   *int64     `json:"retracted_by,omitempty"`
	Retractor     string     `json:"retracted_by_name,omitempty"`
	// Of a value withdrawn as another patient's, how that was resolved (the Misfiled outcomes;
	// "note" for one resolved with a note alone before the outcomes existed) and, refiled,
	// the row it was recorded as on the right patient's order (RefiledTo). RefiledFrom is,
	// on that row, the withdrawn one it came from: each names the other.
	MisfiledOutcome string `json:"misfiled_outcome,omitempty"`
	RefiledTo       *int64 `json:"refiled_to,omitempty"`
	RefiledFrom     *int64 `json:"refiled_from,omitempty"`
}

// Order is a test ordered on a visit, with its current results.
type Order struct {
	ID            int64      `json:"id"`
	AppointmentID int64      `json:"appointment_id"`
	PatientID     int64      `json:"patient_id"`
	Test          string     `json:"test"`
	TestLabel     string     `json:"test_label"`
	Kind          string     `json:"kind"`
	LOINC         string     `json:"loinc"`
	Note          string     `json:"note"`
	Status        string     `json:"status"`
	Reason        string     `json:"reason"`
	OrderedAt     time.Time  `json:"ordered_at"`
	OrderedBy     *int64     `json:"ordered_by"`
	OrderedByName string     `json:"ordered_by_name"`
	DueAt         time.Time  `json:"due_at"`
	Overdue       bool       `json:"overdue"`
	CollectedAt   *time.Time `json:"collected_at"`
	ResultedAt    *time.Time `json:"resulted_at"`
	ReviewedAt    *time.Time `json:"reviewed_at"`
	ReviewedBy    *int64     `json:"reviewed_by"`
	ReviewerName  string     `json:"reviewed_by_name"`
	ReviewComment string     `json:"review_comment"`
	ToReview      bool       `json:"to_review"`
	// WithdrawnToReview: a result of the order was retracted as entered in error and its
	// ordering doctor has not yet reviewed the order since (on its own: the patient may have
	// been told, or treated, on the value withdrawn). It ranks first in the review queue.
	WithdrawnToReview bool `json:"withdrawn_to_review"`
	// RepeatNeeded: a result of it was withdrawn for a reason that calls for the test again
	// (a specimen problem; "not done" after a critical preliminary): the overdue list chases
	// it until a result is recorded or its doctor reviews the withdrawal.
	RepeatNeeded bool `json:"repeat_needed"`
	// RepeatCategory is, on the overdue list, the category of the latest retraction of an
	// order needing the test again: a specimen problem or a wrong patient's sample calls for
	// a new sample (M6 of the laboratory clinician's review, 2026-11-29).
	RepeatCategory string   `json:"repeat_category,omitempty"`
	Attention      int      `json:"attention"`
	Corrections    int      `json:"corrections"`
	ReportFileID   *int64   `json:"report_file_id"`
	Version        int      `json:"version"`
	Results        []Result `json:"results"`
	// Retracted are the results entered in error of analytes that have no current result
	// since: what a receiving system was told and must now hear withdrawn (the FHIR API's).
	Retracted []Result `json:"retracted,omitempty"`
	// Correction is, in the review queue, what the last correction of a corrected order
	// changed and why: the values it replaced (one per analyte) and the reason given, so the
	// reviewer sees old and new side by side; nil elsewhere.
	Correction *Correction `json:"correction,omitempty"`
	// Patient names the order's patient in lists across patients (the review queue, the
	// overdue list); nil on a patient's or a visit's own list.
	Patient *patient.Summary `json:"patient,omitempty"`
}

// Correction is what a correction of a final result replaced, and the reason it was given.
type Correction struct {
	Reason   string   `json:"reason"`
	Replaced []Result `json:"replaced"`
}

// Event is one change of an order's state: who, when, why.
type Event struct {
	Status string    `json:"status"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
	By     *int64    `json:"by"`
	ByName string    `json:"by_name"`
}

// Detail is an order with its history: the results a correction replaced, and every change
// of state.
type Detail struct {
	Order
	Replaced []Result `json:"replaced"`
	Events   []Event  `json:"events"`
	// Alerts are the critical alerts its results raised and what became of each: one who
	// retracts a value sees whether it reached a doctor, and the order keeps their history.
	Alerts []Alert `json:"alerts"`
	// SameDraw are the other orders of the visit collected with a current result (sameDraw):
	// a wrong-patient retraction offers to withdraw them too.
	SameDraw []Order `json:"same_draw"`
}

// Store reads and writes orders and results.
type Store struct {
	DB  *database.DB
	Now func() time.Time
	// Loc is the clinic's time zone: a patient's age on the day a specimen was taken is
	// counted on the clinic's calendar (nil: UTC).
	Loc *time.Location
	// Email sends each escalation of a critical result by e-mail too, through the outbox
	// (the server runs with --smtp-url).
	Email bool
	// Charges, when set, is told of each test ordered on a visit and of each order withdrawn
	// before a specimen was taken, inside the change's transaction (the billing store: the
	// order's charge on the visit's bill).
	Charges OrderCharges
}

// OrderCharges keeps the charges of lab orders on their visits' bills.
type OrderCharges interface {
	// ChargeOrder charges order orderID, of a test charged as serviceCode ('' for none), on
	// the bill of visit appointmentID, once.
	ChargeOrder(ctx context.Context, tx *sql.Tx, e audit.Event, appointmentID, orderID int64, serviceCode string) error
	// UnchargeOrder takes order orderID's charge off its bill while that bill may change.
	UnchargeOrder(ctx context.Context, tx *sql.Tx, e audit.Event, orderID int64) error
	// MoveCharge makes the charge of withdrawn order from (if it still has one) the charge of
	// order to, its test ordered again on the visit; it says whether there was one to move.
	MoveCharge(ctx context.Context, tx *sql.Tx, from, to int64) (bool, error)
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

const orderColumns = `o.id, o.appointment_id, o.patient_id, o.test, o.note, o.status, o.reason, o.ordered_at, o.ordered_by,
	o.due_at, o.collected_at, o.resulted_at, o.reviewed_at, o.reviewed_by, o.review_comment, o.to_review, o.attention,
	o.corrections, o.report_file_id, o.version, o.withdrawn_to_review, o.repeat_needed`

func scanOrder(row interface{ Scan(...any) error }) (Order, error) {
	var o Order
	var toReview, withdrawn, repeat int
	err := row.Scan(&o.ID, &o.AppointmentID, &o.PatientID, &o.Test, &o.Note, &o.Status, &o.Reason, &o.OrderedAt, &o.OrderedBy,
		&o.DueAt, &o.CollectedAt, &o.ResultedAt, &o.ReviewedAt, &o.ReviewedBy, &o.ReviewComment, &toReview, &o.Attention,
		&o.Corrections, &o.ReportFileID, &o.Version, &withdrawn, &repeat)
	o.ToReview, o.WithdrawnToReview, o.RepeatNeeded, o.Results = toReview == 1, withdrawn == 1, repeat == 1, []Result{}
	return o, err
}

func scanOrders(rows *sql.Rows, err error) ([]Order, error) {
	if err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	defer rows.Close()
	out := []Order{}
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

const resultColumns = `r.id, r.order_id, r.analyte, r.loinc, r.type, r.entered, r.entered_unit, r.value, r.comparator, r.unit, r.answer, r.text,
	r.range_low, r.range_high, r.critical_low, r.critical_high, r.range_source, r.range_note, r.flag, r.delta, r.status, r.is_current,
	r.replaces, r.observed_at, r.recorded_at, r.recorded_by, r.performer, r.retract_reason, r.retracted_at, r.retracted_by,
	r.misfiled_outcome, r.refiled_to, r.refiled_from`

func scanResults(rows *sql.Rows, err error) ([]Result, error) {
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer rows.Close()
	out := []Result{}
	for rows.Next() {
		var r Result
		var current int
		if err := rows.Scan(&r.ID, &r.OrderID, &r.Analyte, &r.LOINC, &r.Type, &r.Entered, &r.EnteredUnit, &r.Value, &r.Comparator, &r.Unit,
			&r.Answer, &r.Text, &r.Range.Low, &r.Range.High, &r.Range.CriticalLow, &r.Range.CriticalHigh, &r.Range.Source, &r.Range.Note,
			&r.Flag, &r.Delta, &r.Status, &current, &r.Replaces, &r.ObservedAt, &r.RecordedAt, &r.RecordedBy, &r.Performer,
			&r.RetractReason, &r.RetractedAt, &r.RetractedBy, &r.MisfiledOutcome, &r.RefiledTo, &r.RefiledFrom); err != nil {
			return nil, err
		}
		r.Current = current == 1
		out = append(out, r)
	}
	return out, rows.Err()
}

// complete fills in what orders show beyond their rows: test and analyte labels in lang,
// the names of the people, whether each is overdue, and (withResults) their current results.
func (s *Store) complete(ctx context.Context, q database.Querier, orders []Order, lang string, withResults bool) error {
	if len(orders) == 0 {
		return nil
	}
	var codes []string
	var people []int64
	for _, o := range orders {
		codes = append(codes, o.Test)
		for _, p := range []*int64{o.OrderedBy, o.ReviewedBy} {
			if p != nil {
				people = append(people, *p)
			}
		}
	}
	tests, err := catalogue.OrderedTests(ctx, q, unique(codes), lang)
	if err != nil {
		return err
	}
	now := s.now()
	for i := range orders {
		o := &orders[i]
		t := tests[o.Test]
		o.TestLabel, o.Kind, o.LOINC = t.Label, t.Kind, t.LOINC
		o.Overdue = slices.Contains(open, o.Status) && now.After(o.DueAt)
	}
	if withResults {
		results, err := currentResults(ctx, q, orders)
		if err != nil {
			return err
		}
		if err := s.label(ctx, q, results, lang); err != nil {
			return err
		}
		attach(orders, results)
	}
	names, err := user.Names(ctx, q, unique(people))
	if err != nil {
		return err
	}
	for i := range orders {
		o := &orders[i]
		if o.OrderedBy != nil {
			o.OrderedByName = names[*o.OrderedBy]
		}
		if o.ReviewedBy != nil {
			o.ReviewerName = names[*o.ReviewedBy]
		}
	}
	return nil
}

// currentResults reads the current results of orders, and those retracted as entered in
// error, by order and id.
func currentResults(ctx context.Context, q database.Querier, orders []Order) ([]Result, error) {
	ids := make([]int64, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	var results []Result
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "r.order_id", chunk, 1)
		list, err := scanResults(q.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE `+in+`
			AND (r.is_current = 1 OR r.status = 'entered_in_error') ORDER BY r.order_id, r.id`, args...))
		results = append(results, list...)
		return err
	})
	return results, err
}

// attach hands each of results to its order among orders: a current result to its results,
// a retracted one to its retracted results unless its analyte has been recorded again (the
// latest retraction of an analyte only).
func attach(orders []Order, results []Result) {
	byID := make(map[int64]int, len(orders))
	for i, o := range orders {
		byID[o.ID] = i
	}
	for _, r := range results {
		o := &orders[byID[r.OrderID]]
		if r.Current {
			o.Results = append(o.Results, r)
		}
	}
	for _, r := range results {
		o := &orders[byID[r.OrderID]]
		if r.Current || slices.ContainsFunc(o.Results, func(x Result) bool { return x.Analyte == r.Analyte }) {
			continue
		}
		if i := slices.IndexFunc(o.Retracted, func(x Result) bool { return x.Analyte == r.Analyte }); i >= 0 {
			o.Retracted[i] = r // rows come in id order: the later retraction
			continue
		}
		o.Retracted = append(o.Retracted, r)
	}
}

// label fills in results' analyte labels in lang and their recorders' names.
func (s *Store) label(ctx context.Context, q database.Querier, results []Result, lang string) error {
	if len(results) == 0 {
		return nil
	}
	var codes []string
	var people []int64
	for _, r := range results {
		codes = append(codes, r.Analyte)
		for _, p := range []*int64{r.RecordedBy, r.RetractedBy} {
			if p != nil {
				people = append(people, *p)
			}
		}
	}
	analytes, err := catalogue.AnalyteNames(ctx, q, unique(codes), lang)
	if err != nil {
		return err
	}
	names, err := user.Names(ctx, q, unique(people))
	if err != nil {
		return err
	}
	for i := range results {
		r := &results[i]
		r.Label = analytes[r.Analyte].Label
		if r.RecordedBy != nil {
			r.Recorder = names[*r.RecordedBy]
		}
		if r.RetractedBy != nil {
			r.Retractor = names[*r.RetractedBy]
		}
	}
	return nil
}

// unique is values sorted, each once.
func unique[T int64 | string](values []T) []T {
	out := slices.Clone(values)
	slices.Sort(out)
	return slices.Compact(out)
}
