package result

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/user"
)

// Misfiled is a result retracted because it was recorded against the wrong patient: until
// someone finds whose it was and records it there (or says why it cannot be), the right
// patient is without it, so it stays on the results desk's list (M6 of the clinician's review
// of withdrawals).
type Misfiled struct {
	ResultID  int64     `json:"result_id"`
	OrderID   int64     `json:"order_id"`
	Test      string    `json:"test"`
	TestLabel string    `json:"test_label"`
	Result    Result    `json:"result"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"retracted_at"`
	By        string    `json:"retracted_by"`
	// Patient is the one it was wrongly recorded against: where the specimen's trail starts.
	Patient *patient.Summary `json:"patient"`
	// Critical: the value was flagged critical, as judged for the patient it was recorded
	// against (that one's age and sex): its owner may be in danger and does not know (C2 of
	// the laboratory clinician's review, 2026-11-29). It ranks first, and escalates until it
	// is resolved (raiseMisfiled).
	Critical bool `json:"critical"`
	// Version is the task's, read with the list: a resolution sent against an older one is a
	// conflict.
	Version int `json:"version"`
}

// The ways a misfiled value is resolved (C3 of the laboratory clinician's review): recorded
// on an order of the right patient; a new sample asked for, the original patient's order
// chased again (the right patient unknown, or the sample unusable); or its owner cannot be
// identified, with the reason.
const (
	MisfiledRefiled      = "refiled"
	MisfiledRecollect    = "recollect"
	MisfiledUnidentified = "unidentified"
)

// misfiledOpen is the condition of an unresolved wrong-patient retraction (lab_results r),
// through the lab_results_misfiled index.
const misfiledOpen = `r.retract_category = 'wrong_patient' AND r.misfiled_resolved_at IS NULL`

// MisfiledCount is how many wrong-patient retractions wait to be resolved (the list's count).
func (s *Store) MisfiledCount(ctx context.Context) (int, error) {
	var n int
	err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_results r WHERE `+misfiledOpen).Scan(&n)
	return n, err
}

// Misfiled lists a page (from 1, perPage long) of the wrong-patient retractions nobody has
// resolved, those flagged critical first, then oldest first, and how many there are.
func (s *Store) Misfiled(ctx context.Context, page, perPage int, lang string) ([]Misfiled, int, error) {
	total, err := s.MisfiledCount(ctx)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT `+resultColumns+`, r.misfiled_version FROM lab_results r WHERE `+misfiledOpen+`
		ORDER BY CASE WHEN r.flag IN ($1, $2, $3) THEN 0 ELSE 1 END, r.retracted_at, r.id LIMIT $4 OFFSET $5`,
		catalogue.FlagCriticalLow, catalogue.FlagCriticalHigh, catalogue.FlagCritical, perPage, (page-1)*perPage)
	if err != nil {
		return nil, 0, fmt.Errorf("read misfiled results: %w", err)
	}
	results, versions, err := scanMisfiled(rows)
	if err != nil {
		return nil, 0, err
	}
	if err := s.label(ctx, s.DB, results, lang); err != nil {
		return nil, 0, err
	}
	// Their orders in one read, named and with their patients.
	ids := make([]int64, 0, len(results))
	var people []int64
	for _, r := range results {
		ids = append(ids, r.OrderID)
		if r.RetractedBy != nil {
			people = append(people, *r.RetractedBy)
		}
	}
	orders := []Order{}
	if len(ids) > 0 {
		in, args := database.InIDs(s.DB, "o.id", unique(ids), 1)
		if orders, err = scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+in, args...)); err != nil {
			return nil, 0, err
		}
	}
	if err := s.complete(ctx, s.DB, orders, lang, false); err != nil {
		return nil, 0, err
	}
	if err := withPatients(ctx, s.DB, orders); err != nil {
		return nil, 0, err
	}
	byID := make(map[int64]Order, len(orders))
	for _, o := range orders {
		byID[o.ID] = o
	}
	names, err := user.Names(ctx, s.DB, unique(people))
	if err != nil {
		return nil, 0, err
	}
	out := make([]Misfiled, 0, len(results))
	for i, r := range results {
		o := byID[r.OrderID]
		m := Misfiled{ResultID: r.ID, OrderID: r.OrderID, Test: o.Test, TestLabel: o.TestLabel, Result: r, Reason: r.RetractReason, Patient: o.Patient,
			Critical: catalogue.Critical(r.Flag), Version: versions[i]}
		if r.RetractedAt != nil {
			m.At = *r.RetractedAt
		}
		if r.RetractedBy != nil {
			m.By = names[*r.RetractedBy]
		}
		out = append(out, m)
	}
	return out, total, nil
}

// scanMisfiled reads result rows followed by their misfiled_version.
func scanMisfiled(rows *sql.Rows) ([]Result, []int, error) {
	defer rows.Close()
	var out []Result
	var versions []int
	for rows.Next() {
		var r Result
		var current, version int
		if err := rows.Scan(&r.ID, &r.OrderID, &r.Analyte, &r.LOINC, &r.Type, &r.Entered, &r.EnteredUnit, &r.Value, &r.Comparator, &r.Unit,
			&r.Answer, &r.Text, &r.Range.Low, &r.Range.High, &r.Range.CriticalLow, &r.Range.CriticalHigh, &r.Range.Source, &r.Range.Note,
			&r.Flag, &r.Delta, &r.Status, &current, &r.Replaces, &r.ObservedAt, &r.RecordedAt, &r.RecordedBy, &r.Performer,
			&r.RetractReason, &r.RetractedAt, &r.RetractedBy, &r.MisfiledOutcome, &r.RefiledTo, &r.RefiledFrom, &version); err != nil {
			return nil, nil, err
		}
		r.Current = current == 1
		out, versions = append(out, r), append(versions, version)
	}
	return out, versions, rows.Err()
}

// raiseMisfiled raises, for result resultID of order o withdrawn as another patient's while
// critical, an alert of its own (misfiled): whoever owns the value may be in danger and
// nobody knows who. It is open, escalated by the sweep as any alert (the covering role, then
// the medical lead, on the clinic's intervals), and closes only when the value is resolved
// (C2 of the laboratory clinician's review).
func (s *Store) raiseMisfiled(ctx context.Context, tx *sql.Tx, o Order, resultID int64, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO critical_alerts (result_id, order_id, patient_id, doctor_id, raised_at, misfiled)
		VALUES ($1, $2, $3, $4, $5, 1)`, resultID, o.ID, o.PatientID, o.OrderedBy, now); err != nil {
		return fmt.Errorf("raise misfiled alert: %w", err)
	}
	return nil
}

// misfiledResult reads, in q, unresolved or not, wrong-patient retraction resultID with its
// version and the order it was recorded on (404 when there is none).
func (s *Store) misfiledResult(ctx context.Context, q database.Querier, resultID int64) (Result, int, *time.Time, Order, error) {
	var resolved *time.Time
	rows, err := q.QueryContext(ctx, `SELECT `+resultColumns+`, r.misfiled_version FROM lab_results r
		WHERE r.id = $1 AND r.retract_category = $2`, resultID, WithdrawnWrongPatient)
	if err != nil {
		return Result{}, 0, nil, Order{}, fmt.Errorf("read result: %w", err)
	}
	list, versions, err := scanMisfiled(rows)
	if err != nil {
		return Result{}, 0, nil, Order{}, err
	}
	if len(list) == 0 {
		return Result{}, 0, nil, Order{}, apperr.NotFound("result.misfiled_not_found")
	}
	if err := q.QueryRowContext(ctx, `SELECT misfiled_resolved_at FROM lab_results WHERE id = $1`, resultID).Scan(&resolved); err != nil {
		return Result{}, 0, nil, Order{}, fmt.Errorf("read result: %w", err)
	}
	o, err := scanOrder(q.QueryRowContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.id = $1`, list[0].OrderID))
	if err != nil {
		return Result{}, 0, nil, Order{}, fmt.Errorf("read order: %w", err)
	}
	return list[0], versions[0], resolved, o, nil
}

// RefileOrders lists the orders of patient patientID a misfiled value resultID may be refiled
// to (refileable): of the same test, neither cancelled nor not done, placed before the value's
// sample was taken, without a sample of their own and without any value of its analyte; when
// another value of the same sample was refiled already, only the order it went to; newest
// first. The patient must be another than the one it was wrongly recorded against.
func (s *Store) RefileOrders(ctx context.Context, resultID, patientID int64, lang string) ([]Order, error) {
	r, _, _, from, err := s.misfiledResult(ctx, s.DB, resultID)
	if err != nil {
		return nil, err
	}
	if patientID == from.PatientID {
		var v apperr.Validation
		v.Add("patient_id", "result.refile_same_patient")
		return nil, v.Err()
	}
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.patient_id = $1 AND o.test = $2
		AND o.status NOT IN ('cancelled', 'not_done') AND o.ordered_at < $3
		AND (o.collected_at IS NULL OR `+sameSample+`)
		AND NOT EXISTS (SELECT 1 FROM lab_results c WHERE c.order_id = o.id AND c.analyte = $4 AND c.is_current = 1)
		AND NOT EXISTS (SELECT 1 FROM lab_results w JOIN lab_results n ON n.id = w.refiled_to
			WHERE w.order_id = $5 AND w.observed_at = $3 AND w.retract_category = 'wrong_patient' AND n.order_id <> o.id)
		ORDER BY o.id DESC LIMIT $6`, patientID, from.Test, r.ObservedAt, r.Analyte, from.ID, QueueLimit))
	if err != nil {
		return nil, err
	}
	return list, s.complete(ctx, s.DB, list, lang, true)
}

// sameSample is the condition that order o (lab_orders o) holds values refiled from the sample
// of order $5 taken at $3: its collection time is that sample's.
const sameSample = `EXISTS (SELECT 1 FROM lab_results c JOIN lab_results w ON w.id = c.refiled_from
	WHERE c.order_id = o.id AND w.order_id = $5 AND w.observed_at = $3)`

// refileable refuses, 422, to refile withdrawn value r (of order from, its sample taken at
// r.ObservedAt) on order o of the right patient unless o was placed before that sample was
// taken, has no sample of its own (not collected, or its collection is this sample, refiled
// there before) and no value of r's analyte, and the rest of the sample, if refiled, went to
// o: a wrong-patient specimen is whole, one patient's, and an order holding this sample can
// never take the laboratory's later result for a sample of its own as a "correction" of it
// (the clinician's review of the refiling, 2026-11-29).
func refileable(ctx context.Context, tx *sql.Tx, r Result, from, o Order) error {
	var v apperr.Validation
	var split, own, held int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_results w JOIN lab_results n ON n.id = w.refiled_to
		WHERE w.order_id = $1 AND w.observed_at = $2 AND w.retract_category = 'wrong_patient' AND n.order_id <> $3`,
		from.ID, r.ObservedAt, o.ID).Scan(&split); err != nil {
		return fmt.Errorf("read the sample's refiled values: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_results c JOIN lab_results w ON w.id = c.refiled_from
		WHERE c.order_id = $1 AND w.order_id = $2 AND w.observed_at = $3`, o.ID, from.ID, r.ObservedAt).Scan(&own); err != nil {
		return fmt.Errorf("read the order's sample: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_results WHERE order_id = $1 AND analyte = $2 AND is_current = 1`, o.ID, r.Analyte).Scan(&held); err != nil {
		return fmt.Errorf("read order results: %w", err)
	}
	switch {
	case split > 0:
		v.Add("order_id", "result.refile_sample_split")
	case !o.OrderedAt.Before(r.ObservedAt):
		v.Add("order_id", "result.refile_later_order")
	case o.CollectedAt != nil && own == 0:
		v.Add("order_id", "result.refile_own_sample")
	case held > 0:
		v.Add("order_id", "result.refile_has_value")
	}
	return v.Err()
}

// ResolveMisfiledInput says how a wrong-patient retraction was resolved: the outcome (one of
// the Misfiled outcomes), against the task's version read; refiled, the right patient's order and
// its version read; a note (required, as a reason, when the owner cannot be identified).
type ResolveMisfiledInput struct {
	Version      int    `json:"version"`
	Outcome      string `json:"outcome"`
	OrderID      int64  `json:"order_id"`
	OrderVersion int    `json:"order_version"`
	Note         string `json:"note"`
}

// check refuses an outcome not among the Misfiled outcomes, a refiling naming no order, an
// unidentifiable owner without its reason, and a note too long; it returns the note trimmed.
func (in ResolveMisfiledInput) check() (string, error) {
	var v apperr.Validation
	note := strings.TrimSpace(in.Note)
	switch in.Outcome {
	case MisfiledRefiled:
		if in.OrderID <= 0 {
			v.Add("order_id", "result.refile_order_required")
		}
	case MisfiledRecollect:
	case MisfiledUnidentified:
		if note == "" || apperr.ReasonTooShort(note) {
			v.Add("note", "result.misfiled_unidentified_reason")
		}
	default:
		v.Add("outcome", "result.misfiled_outcome_required")
	}
	if utf8.RuneCountInString(note) > apperr.MaxReason {
		v.Add("note", "validation.too_long")
	}
	return note, v.Err()
}

// ResolveMisfiled resolves result resultID, retracted as recorded against the wrong patient,
// in one transaction, as in.Outcome says (C3 of the laboratory clinician's review):
//   - refiled: the value is recorded on the right patient's order (refile) with its original
//     observation time, entered text, comparator, laboratory range and performer, judged for
//     that patient (flags, critical limits, deltas, alerts, later deltas again) as any new
//     value; the new row and the withdrawn one name each other; the laboratory's report the
//     retraction marked as another patient's moves to the right patient and that order (C4);
//   - recollect: the original patient's order is chased again for the analyte (the overdue
//     list), unless a value of it stands there already;
//   - unidentified: recorded, with the reason.
//
// The task leaves the list, its misfiled alert (C2) closes and its waiting e-mails are
// cancelled; the resolution is audited on the patient it was wrongly recorded against, and a
// refiling on the right patient too. A task resolved meanwhile, or read at an older version,
// is a conflict. It returns the outcome's new row (refiled) or 0.
func (s *Store) ResolveMisfiled(ctx context.Context, e audit.Event, resultID int64, in ResolveMisfiledInput, lang string) (int64, error) {
	note, err := in.check()
	if err != nil {
		return 0, err
	}
	var refiled int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		r, version, resolved, from, err := s.misfiledResult(ctx, tx, resultID)
		if err != nil {
			return err
		}
		switch {
		case resolved != nil:
			return apperr.Conflict("result.misfiled_resolved")
		case version != in.Version:
			return apperr.Conflict("error.conflict")
		}
		now := s.now()
		detail := []audit.Phrase{{Key: "audit.detail.misfiled_outcome", Terms: []string{"audit.misfiled." + in.Outcome}}}
		switch in.Outcome {
		case MisfiledRefiled:
			if refiled, err = s.refile(ctx, tx, e, r, from, in, note, lang, now); err != nil {
				return err
			}
			detail = append(detail, audit.Phrase{Key: "audit.detail.refiled_to", Args: []string{strconv.FormatInt(in.OrderID, 10)}})
		case MisfiledRecollect:
			if err := s.recollect(ctx, tx, e, r, from, now); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE lab_results SET misfiled_resolved_at = $1, misfiled_resolved_by = $2, misfiled_note = $3,
			misfiled_outcome = $4, refiled_to = $5, misfiled_version = misfiled_version + 1
			WHERE id = $6 AND misfiled_resolved_at IS NULL AND misfiled_version = $7`,
			now, e.Actor(), note, in.Outcome, nullID(refiled), resultID, in.Version)
		if err != nil {
			return fmt.Errorf("resolve misfiled result: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("error.conflict")
		}
		closed, err := s.closeMisfiledAlerts(ctx, tx, e, resultID, in.Outcome, now)
		if err != nil {
			return err
		}
		if closed > 0 {
			detail = append(detail, audit.Phrase{Key: "audit.detail.misfiled_alert_closed"})
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_order_events (order_id, status, reason, at, by_user) VALUES ($1, $2, $3, $4, $5)`,
			from.ID, "misfiled_"+in.Outcome, note, now, e.Actor()); err != nil {
			return fmt.Errorf("record order event: %w", err)
		}
		if note != "" {
			detail = append(detail, audit.Phrase{Key: "audit.detail.reason_given"})
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "lab_result.misfiled_resolved", "lab_result", strconv.FormatInt(resultID, 10), from.PatientID, audit.Success, now
		e.Detail = audit.Phrases(detail...)
		return audit.Record(ctx, tx, e)
	})
	return refiled, err
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// closeMisfiledAlerts closes the misfiled alert of result resultID (C2), as taken in hand by
// e's actor with how it was resolved, and cancels its escalation e-mails not yet sent; it
// reports how many it closed.
func (s *Store) closeMisfiledAlerts(ctx context.Context, tx *sql.Tx, e audit.Event, resultID int64, outcome string, now time.Time) (int, error) {
	ids, err := database.Column[int64](tx.QueryContext(ctx, `SELECT id FROM critical_alerts WHERE result_id = $1 AND misfiled = 1 AND is_open = 1`, resultID))
	if err != nil {
		return 0, fmt.Errorf("read misfiled alerts: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE critical_alerts SET is_open = 0, acknowledged_at = $1, acknowledged_by = $2, action = $3
			WHERE id = $4`, now, e.Actor(), "misfiled: "+outcome, id); err != nil {
			return 0, fmt.Errorf("close misfiled alert: %w", err)
		}
		if _, err := mail.Cancel(ctx, tx, now, mailTopics, id); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// refileStatus is the status the laboratory had reported withdrawn value r with: the
// original order's last report before the retraction (preliminary, or final once final or
// corrected).
func refileStatus(ctx context.Context, tx *sql.Tx, r Result) (string, error) {
	var last string
	err := tx.QueryRowContext(ctx, `SELECT status FROM lab_order_events WHERE order_id = $1 AND status IN ('preliminary', 'final', 'corrected')
		AND at <= $2 ORDER BY id DESC LIMIT 1`, r.OrderID, r.RetractedAt).Scan(&last)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Final, nil
	case err != nil:
		return "", fmt.Errorf("read the report's status: %w", err)
	case last == Preliminary:
		return Preliminary, nil
	}
	return Final, nil
}

// refile records withdrawn value r (of order from, the wrong patient's) on order in.OrderID
// of the right patient, as ResolveMisfiled says, and returns the new row's id.
func (s *Store) refile(ctx context.Context, tx *sql.Tx, e audit.Event, r Result, from Order, in ResolveMisfiledInput, note, lang string, now time.Time) (int64, error) {
	o, err := s.lockOrder(ctx, tx, in.OrderID)
	if err != nil {
		return 0, err
	}
	var v apperr.Validation
	switch {
	case o.Version != in.OrderVersion:
		return 0, apperr.Conflict("error.conflict")
	case o.PatientID == from.PatientID:
		v.Add("order_id", "result.refile_same_patient")
	case o.Test != from.Test:
		v.Add("order_id", "result.refile_other_test")
	case o.Status == Cancelled || o.Status == NotDone:
		return 0, apperr.Conflict("result.order_closed")
	}
	if err := v.Err(); err != nil {
		return 0, err
	}
	if err := refileable(ctx, tx, r, from, o); err != nil {
		return 0, err
	}
	test, err := catalogue.ReadTestResults(ctx, tx, o.Test, lang)
	if err != nil {
		return 0, fmt.Errorf("read test %s: %w", o.Test, err)
	}
	people, err := patient.Summaries(ctx, tx, []int64{o.PatientID})
	if err != nil {
		return 0, err
	}
	// The value as the laboratory reported it (entered is kept with "." as its decimal sign,
	// read back in a language that writes it so), judged afresh for the right patient at the
	// time the sample was taken.
	x := ResultInput{Analyte: r.Analyte, Value: r.Entered, Comparator: r.Comparator, Unit: r.EnteredUnit, Answer: r.Answer, Text: r.Text}
	if r.Range.Source == "lab" {
		if r.Range.Low != nil {
			x.LabLow = *r.Range.Low
		}
		if r.Range.High != nil {
			x.LabHigh = *r.Range.High
		}
		x.labUnit = r.Unit
	}
	rows, err := s.build(ctx, tx, test, people[o.PatientID], o, []ResultInput{x}, "en", r.ObservedAt)
	if err != nil {
		return 0, err
	}
	row := rows[0]
	row.Performer = r.Performer
	status, err := refileStatus(ctx, tx, r)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO lab_results (order_id, patient_id, analyte, loinc, type, entered, entered_unit,
		value, comparator, unit, answer, text, range_low, range_high, critical_low, critical_high, range_source, range_note, flag, delta, status,
		is_current, observed_at, recorded_at, recorded_by, performer, refiled_from)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, 1, $22, $23, $24, $25, $26) RETURNING id`,
		o.ID, o.PatientID, row.Analyte, row.LOINC, row.Type, row.Entered, row.EnteredUnit, row.Value, row.Comparator, row.Unit, row.Answer, row.Text,
		row.Range.Low, row.Range.High, row.Range.CriticalLow, row.Range.CriticalHigh, row.Range.Source, row.Range.Note, row.Flag, row.Delta, status,
		r.ObservedAt, now, e.Actor(), row.Performer, r.ID).Scan(&id); err != nil {
		return 0, fmt.Errorf("refile result %s: %w", row.Analyte, err)
	}
	alerts, _, err := s.replaceAlerts(ctx, tx, e, o.ID, row, id, nil, "", now)
	if err != nil {
		return 0, err
	}
	attention, err := orderAttention(ctx, tx, o.ID)
	if err != nil {
		return 0, err
	}
	next, toReview := Preliminary, 0
	if status == Final || o.Status == Final || o.Status == Reviewed {
		next, toReview = Final, 1
	}
	if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, to_review = $2, attention = $3, collected_at = COALESCE(collected_at, $4),
		resulted_at = COALESCE(resulted_at, $5), reviewed_at = NULL, reviewed_by = NULL, review_comment = '', updated_at = $5, updated_by = $6,
		version = version + 1,
		repeat_needed = CASE WHEN EXISTS (SELECT 1 FROM lab_results x WHERE x.order_id = $7 AND x.retracted_at IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM lab_results c WHERE c.order_id = x.order_id AND c.analyte = x.analyte AND c.is_current = 1))
			THEN repeat_needed ELSE 0 END WHERE id = $7`,
		next, toReview, attention, r.ObservedAt, now, e.Actor(), o.ID); err != nil {
		return 0, fmt.Errorf("update order: %w", err)
	}
	if err := s.moveReport(ctx, tx, e, from, o, now); err != nil {
		return 0, err
	}
	if err := s.keep(ctx, tx, now, o.ID); err != nil {
		return 0, err
	}
	later, err := s.redelta(ctx, tx, o.PatientID, row.Analyte, r.ObservedAt, now)
	if err != nil {
		return 0, err
	}
	if err := s.keep(ctx, tx, now, later...); err != nil {
		return 0, err
	}
	detail := audit.WithPhrase(resultDetail([]Result{row}, alerts),
		audit.Phrase{Key: "audit.detail.refiled_from", Args: []string{strconv.FormatInt(from.ID, 10)}})
	if err := s.event(ctx, tx, e, o.ID, o.PatientID, "refiled", note, now, detail); err != nil {
		return 0, err
	}
	return id, nil
}

// moveReport moves the laboratory's report that the wrong-patient retraction of order from
// marked as another patient's (unlinkReport) to the patient of order to, its owner, and links
// it to that order unless it has a report already (C4 of the laboratory clinician's review);
// audited on both patients. Nothing when no report was marked. The caller keeps order to's
// new version.
func (s *Store) moveReport(ctx context.Context, tx *sql.Tx, e audit.Event, from, to Order, now time.Time) error {
	file, err := patient.MoveOtherPatientIn(ctx, tx, e, from.ID, to.PatientID, now)
	if err != nil || file == 0 {
		return err
	}
	if to.ReportFileID == nil {
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET report_file_id = $1 WHERE id = $2`, file, to.ID); err != nil {
			return fmt.Errorf("link report: %w", err)
		}
	}
	for _, o := range []Order{from, to} {
		detail := audit.Phrases(audit.Phrase{Key: "audit.detail.report_refiled", Args: []string{strconv.FormatInt(file, 10),
			strconv.FormatInt(from.ID, 10), strconv.FormatInt(to.ID, 10)}})
		if err := s.audit(ctx, tx, e, "lab_order.report_refiled", o.ID, o.PatientID, detail, now); err != nil {
			return err
		}
	}
	return nil
}

// recollect chases withdrawn value r's analyte again on order from, the original patient's
// (a new sample: the right patient unknown, or the sample unusable), unless a value of it
// stands there already or the order was cancelled.
func (s *Store) recollect(ctx context.Context, tx *sql.Tx, e audit.Event, r Result, from Order, now time.Time) error {
	if from.Status == Cancelled {
		return apperr.Conflict("result.order_closed")
	}
	res, err := tx.ExecContext(ctx, `UPDATE lab_orders SET repeat_needed = 1, updated_at = $1, updated_by = $2, version = version + 1
		WHERE id = $3 AND NOT EXISTS (SELECT 1 FROM lab_results c WHERE c.order_id = $3 AND c.analyte = $4 AND c.is_current = 1)`,
		now, e.Actor(), from.ID, r.Analyte)
	if err != nil {
		return fmt.Errorf("chase the order again: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return s.keep(ctx, tx, now, from.ID)
	}
	return nil
}
