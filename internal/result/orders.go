package result

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
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// SyncOrders keeps a visit's lab orders in step with the tests its form orders, inside the
// visit's save: a test newly on the form is ordered (by the visit's doctor, due after the
// test's turnaround); a test taken off the form is cancelled while nothing has happened to
// it, and refused once a specimen or a result exists (it must be cancelled or marked not
// done on its own, with a reason). It is the appointment store's OrdersChanged hook.
func (s *Store) SyncOrders(ctx context.Context, tx *sql.Tx, e audit.Event, a appointment.Appointment, orders []appointment.Order) error {
	existing, err := scanOrders(tx.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE o.appointment_id = $1 AND o.status NOT IN ('cancelled', 'not_done') ORDER BY o.id`, a.ID))
	if err != nil {
		return err
	}
	wanted := map[string]string{}
	var codes []string
	for _, o := range orders {
		if _, dup := wanted[o.Code]; !dup {
			codes = append(codes, o.Code)
		}
		wanted[o.Code] = o.Note
	}
	now := s.now()
	for _, o := range existing {
		note, keep := wanted[o.Test]
		switch {
		case keep && note != o.Note:
			if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET note = $1, updated_at = $2, updated_by = $3, version = version + 1
				WHERE id = $4`, note, now, e.Actor(), o.ID); err != nil {
				return fmt.Errorf("update order note: %w", err)
			}
			if err := s.keep(ctx, tx, now, o.ID); err != nil {
				return err
			}
		case keep:
		case o.Status != Ordered:
			return apperr.Conflict("result.order_started", o.Test)
		default:
			if err := s.setState(ctx, tx, e, o, Cancelled, "removed from the visit", now); err != nil {
				return err
			}
		}
		delete(wanted, o.Test)
	}
	if len(wanted) == 0 {
		return nil
	}
	tests, err := catalogue.OrderedTests(ctx, tx, unique(codes), "en")
	if err != nil {
		return err
	}
	for _, code := range codes {
		note, add := wanted[code]
		if !add {
			continue
		}
		due := now.Add(time.Duration(max(tests[code].TurnaroundHours, 1)) * time.Hour)
		// The ordering clinician is whoever ordered (the acting doctor), not the appointment's
		// doctor: a critical result goes to the one who ordered it (NPSG.02.03.01).
		orderedBy := e.Actor()
		if orderedBy == nil {
			orderedBy = a.DoctorID
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO lab_orders (appointment_id, patient_id, test, note, status, ordered_at, ordered_by,
			due_at, updated_at, updated_by) VALUES ($1, $2, $3, $4, 'ordered', $5, $6, $7, $5, $8) RETURNING id`,
			a.ID, a.PatientID, code, note, now, orderedBy, due, e.Actor()).Scan(&id); err != nil {
			return fmt.Errorf("order %s: %w", code, err)
		}
		if err := s.keep(ctx, tx, now, id); err != nil {
			return err
		}
		if err := s.event(ctx, tx, e, id, a.PatientID, Ordered, "", now, ""); err != nil {
			return err
		}
		if s.Charges != nil {
			if err := s.chargeAgain(ctx, tx, a.ID, code, id); err != nil {
				return err
			}
			if err := s.Charges.ChargeOrder(ctx, tx, e, a.ID, id, tests[code].ServiceCode); err != nil {
				return err
			}
		}
	}
	return nil
}

// chargeAgain gives new order id, of test on visit appointmentID, the charge a withdrawn order
// of that test on the visit kept (a specimen rejected once collected, then ordered again): the
// patient is charged once for the test, not once per specimen (ADR 41).
func (s *Store) chargeAgain(ctx context.Context, tx *sql.Tx, appointmentID int64, test string, id int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM lab_orders WHERE appointment_id = $1 AND test = $2
		AND status IN ('cancelled', 'not_done') AND id <> $3 ORDER BY id DESC`, appointmentID, test, id)
	if err != nil {
		return fmt.Errorf("read orders: %w", err)
	}
	var before []int64
	for rows.Next() {
		var o int64
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return err
		}
		before = append(before, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range before {
		if moved, err := s.Charges.MoveCharge(ctx, tx, o, id); err != nil || moved {
			return err
		}
	}
	return nil
}

// event keeps a change of an order's state (who, when, why) and audits it, with an audit
// detail of its own (which analytes; never a value).
func (s *Store) event(ctx context.Context, tx *sql.Tx, e audit.Event, orderID, patientID int64, status, reason string, at time.Time, detail string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO lab_order_events (order_id, status, reason, at, by_user) VALUES ($1, $2, $3, $4, $5)`,
		orderID, status, reason, at, e.Actor()); err != nil {
		return fmt.Errorf("record order event: %w", err)
	}
	if reason != "" {
		detail = audit.WithPhrase(detail, audit.Phrase{Key: "audit.detail.reason_given"})
	}
	return s.audit(ctx, tx, e, "lab_order."+status, orderID, patientID, detail, at)
}

func (s *Store) audit(ctx context.Context, tx *sql.Tx, e audit.Event, action string, orderID, patientID int64, detail string, at time.Time) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = action, "lab_order", strconv.FormatInt(orderID, 10), audit.Success, at, detail
	e.PatientID = patientID
	return audit.Record(ctx, tx, e)
}

// setState moves order o to status (cancelled, not done, collected) and keeps the event.
func (s *Store) setState(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, status, reason string, now time.Time) error {
	collectedAt := o.CollectedAt
	if status == Collected {
		collectedAt = &now
	}
	res, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, reason = $2, collected_at = $3, updated_at = $4, updated_by = $5,
		version = version + 1 WHERE id = $6 AND version = $7`, status, reason, collectedAt, now, e.Actor(), o.ID, o.Version)
	if err != nil {
		return fmt.Errorf("change order: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Conflict("error.conflict")
	}
	if err := s.keep(ctx, tx, now, o.ID); err != nil {
		return err
	}
	// An order withdrawn before its specimen was taken cost the clinic nothing: its charge
	// comes off the bill (ADR 41).
	if o.Status == Ordered && (status == Cancelled || status == NotDone) && s.Charges != nil {
		if err := s.Charges.UnchargeOrder(ctx, tx, e, o.ID); err != nil {
			return err
		}
	}
	return s.event(ctx, tx, e, o.ID, o.PatientID, status, reason, now, "")
}

// lockOrder reads order id for a change; on PostgreSQL the row lock orders concurrent
// writers (the version check then refuses the later one).
func (s *Store) lockOrder(ctx context.Context, tx *sql.Tx, id int64) (Order, error) {
	q := `SELECT ` + orderColumns + ` FROM lab_orders o WHERE o.id = $1`
	if s.DB.Engine == database.Postgres {
		q += ` FOR UPDATE`
	}
	o, err := scanOrder(tx.QueryRowContext(ctx, q, id))
	if errors.Is(err, sql.ErrNoRows) {
		return o, apperr.NotFound("result.order_not_found")
	}
	if err != nil {
		return o, fmt.Errorf("read order: %w", err)
	}
	return o, nil
}

// StateInput is a change of an order's state: the version read, and the reason where one
// is needed.
type StateInput struct {
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

// transitions are the states each change may leave, and the message when it may not.
var transitions = map[string]struct {
	states []string
	notNow string
}{
	Collected: {[]string{Ordered}, "result.not_now.collect"},
	Cancelled: {[]string{Ordered, Collected}, "result.not_now.cancel"},
	NotDone:   {[]string{Ordered, Collected, Preliminary}, "result.not_now.not_done"},
}

// Transition moves an order to collected, cancelled or not done: a specimen is collected
// from an ordered test; an order is cancelled (with a reason) before any result, or marked
// not done (with a reason: specimen rejected, patient never went) before its final result.
func (s *Store) Transition(ctx context.Context, e audit.Event, id int64, status string, in StateInput) error {
	reason := strings.TrimSpace(in.Reason)
	if status != Collected {
		var err error
		if reason, err = apperr.Reason(reason); err != nil {
			return err
		}
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		o, err := s.lockOrder(ctx, tx, id)
		if err != nil {
			return err
		}
		if o.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		from, ok := transitions[status]
		if !ok {
			return apperr.Invalid("result.bad_state")
		}
		if !slices.Contains(from.states, o.Status) {
			return apperr.Conflict(from.notNow)
		}
		now := s.now()
		if status == NotDone && o.Status == Preliminary {
			// A preliminary result that will never be final is no longer waiting for review;
			// a critical one among them no longer stands: its alerts are withdrawn, the order
			// waits for its doctor's review, marked, and the test is chased again.
			if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET to_review = 0 WHERE id = $1`, o.ID); err != nil {
				return err
			}
			if _, err := s.withdraw(ctx, tx, e, withdrawal{orderID: o.ID, category: WithdrawnNotDone, reason: reason, now: now}); err != nil {
				return err
			}
			// Chased whenever a critical value of it was ever reported, even one a later
			// preliminary replaced before (P15): someone was alerted to a result never made final.
			if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET repeat_needed = 1 WHERE id = $1
				AND EXISTS (SELECT 1 FROM critical_alerts WHERE order_id = $1)`, o.ID); err != nil {
				return err
			}
		}
		if err := s.setState(ctx, tx, e, o, status, reason, now); err != nil {
			return err
		}
		if status != NotDone {
			return nil
		}
		// Its preliminary values leave the trend and the delta checks: later values flagged
		// against them are flagged again against what stands (M2 of the laboratory
		// clinician's review, 2026-11-29).
		left, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 AND r.is_current = 1`, o.ID))
		if err != nil {
			return err
		}
		for _, r := range left {
			later, err := s.redelta(ctx, tx, o.PatientID, r.Analyte, r.ObservedAt, now)
			if err != nil {
				return err
			}
			if err := s.keep(ctx, tx, now, later...); err != nil {
				return err
			}
		}
		return nil
	})
}

// VisitOrders lists the orders of a visit with their current results, labels in lang.
func (s *Store) VisitOrders(ctx context.Context, appointmentID int64, lang string) ([]Order, error) {
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.appointment_id = $1 ORDER BY o.id`, appointmentID))
	if err != nil {
		return nil, err
	}
	return list, s.complete(ctx, s.DB, list, lang, true)
}

// VisitsWithOrders answers which of the visits ids have a lab order (any, cancelled too),
// through the (appointment_id, id) index: the desk's day list reads the rest no further.
func (s *Store) VisitsWithOrders(ctx context.Context, ids []int64) ([]int64, error) {
	var out []int64
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(s.DB, "appointment_id", chunk, 1)
		found, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT DISTINCT appointment_id FROM lab_orders WHERE `+in, args...))
		out = append(out, found...)
		return err
	})
	return out, err
}

// PatientOrders lists a patient's orders, newest first, a page at a time (before: the last
// id of the page before, 0 for the first), with their current results.
func (s *Store) PatientOrders(ctx context.Context, patientID, before int64, limit int, lang string) ([]Order, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.patient_id = $1 AND o.id < $2
		ORDER BY o.id DESC LIMIT $3`, patientID, before, limit))
	if err != nil {
		return nil, err
	}
	return list, s.complete(ctx, s.DB, list, lang, true)
}

// Detail reads one order with its results, the results a correction replaced and its events.
func (s *Store) Detail(ctx context.Context, id int64, lang string) (Detail, error) {
	o, err := scanOrder(s.DB.QueryRowContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE o.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Detail{}, apperr.NotFound("result.order_not_found")
	}
	if err != nil {
		return Detail{}, fmt.Errorf("read order: %w", err)
	}
	list := []Order{o}
	if err := s.complete(ctx, s.DB, list, lang, true); err != nil {
		return Detail{}, err
	}
	d := Detail{Order: list[0], Events: []Event{}}
	if d.Replaced, err = scanResults(s.DB.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 AND r.is_current = 0
		ORDER BY r.id`, id)); err != nil {
		return d, err
	}
	if err := s.label(ctx, s.DB, d.Replaced, lang); err != nil {
		return d, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT status, reason, at, by_user FROM lab_order_events WHERE order_id = $1 ORDER BY id`, id)
	if err != nil {
		return d, fmt.Errorf("read order events: %w", err)
	}
	defer rows.Close()
	var people []int64
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.Status, &ev.Reason, &ev.At, &ev.By); err != nil {
			return d, err
		}
		if ev.By != nil {
			people = append(people, *ev.By)
		}
		d.Events = append(d.Events, ev)
	}
	if err := rows.Err(); err != nil {
		return d, err
	}
	names, err := user.Names(ctx, s.DB, unique(people))
	if err != nil {
		return d, err
	}
	for i := range d.Events {
		if by := d.Events[i].By; by != nil {
			d.Events[i].ByName = names[*by]
		}
	}
	alerts, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a WHERE a.order_id = $1 ORDER BY a.id`, id))
	if err != nil {
		return d, err
	}
	if d.Alerts, err = s.fill(ctx, s.DB, alerts, lang); err != nil {
		return d, err
	}
	if d.SameDraw, err = s.sameDraw(ctx, s.DB, o); err != nil {
		return d, err
	}
	return d, s.complete(ctx, s.DB, d.SameDraw, lang, true)
}

// AttachReport stores the lab's own report (a PDF or an image) as one of the patient's
// attachments and links it to order id, in one transaction, if version is still the order's.
// A report attached again replaces the link (the earlier file stays among the attachments).
func (s *Store) AttachReport(ctx context.Context, e audit.Event, id int64, version int, name string, data []byte) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		o, err := s.lockOrder(ctx, tx, id)
		if err != nil {
			return err
		}
		switch {
		case o.Version != version:
			return apperr.Conflict("error.conflict")
		case o.Status == Cancelled || o.Status == NotDone:
			return apperr.Conflict("result.order_closed")
		}
		now := s.now()
		f, err := patient.AddFileIn(ctx, tx, e, o.PatientID, patient.KindAttachment, name, data, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET report_file_id = $1, updated_at = $2, updated_by = $3, version = version + 1
			WHERE id = $4`, f.ID, now, e.Actor(), o.ID); err != nil {
			return fmt.Errorf("link report: %w", err)
		}
		if err := s.keep(ctx, tx, now, o.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, e, "lab_order.report", o.ID, o.PatientID, fmt.Sprintf("file %d", f.ID), now)
	})
}

// Page lists orders with their current results for programs (the FHIR API), in id order
// from after (below it when desc): of patientID when it is not 0, among ids when there are
// any; up to limit. Labels are in lang.
func (s *Store) Page(ctx context.Context, ids []int64, patientID, after int64, desc bool, limit int, lang string) ([]Order, error) {
	where, tail, args := database.KeysetPage(s.DB, "o.id", ids, "o.patient_id", patientID, after, desc, limit)
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+where+tail, args...))
	if err != nil {
		return nil, err
	}
	return list, s.complete(ctx, s.DB, list, lang, true)
}

// OfPatients lists the orders of any of patientIDs with their current results, in id order
// after `after`, up to limit (the FHIR API's reverse includes). Labels are in lang.
func (s *Store) OfPatients(ctx context.Context, patientIDs []int64, after int64, limit int, lang string) ([]Order, error) {
	where, tail, args := database.KeysetAmong(s.DB, "o.id", "o.patient_id", patientIDs, after, limit)
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+where+tail, args...))
	if err != nil {
		return nil, err
	}
	return list, s.complete(ctx, s.DB, list, lang, true)
}

// VersionKind names the kept versions of lab orders (database.KeepVersion): each an Order with
// its current results as they were when its version was written.
const VersionKind = "lab_order"

// keep keeps orders ids as they now are in q (the change's transaction), each with its
// current results, as the version it now has: one read for all. Labels and names are left out
// (Kept fills them in the reader's language).
func (s *Store) keep(ctx context.Context, q database.Querier, at time.Time, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := database.InIDs(q, "o.id", ids, 1)
	list, err := scanOrders(q.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+in, args...))
	if err != nil {
		return err
	}
	if len(list) != len(ids) {
		return fmt.Errorf("keep lab orders %v: %d found", ids, len(list))
	}
	results, err := currentResults(ctx, q, list)
	if err != nil {
		return err
	}
	attach(list, results)
	for _, o := range list {
		if err := database.KeepVersion(ctx, q, VersionKind, o.ID, o.Version, at, o); err != nil {
			return err
		}
	}
	return nil
}

// Kept reads the kept versions of orders k selects, their tests' and analytes' labels in lang.
func (s *Store) Kept(ctx context.Context, k database.KeptQuery, lang string) ([]database.Kept[Order], error) {
	kept, err := database.ReadKept[Order](ctx, s.DB, VersionKind, k)
	if err != nil || len(kept) == 0 {
		return kept, err
	}
	orders := make([]Order, len(kept))
	var results []Result
	for i, v := range kept {
		orders[i] = v.Record
		results = append(results, v.Record.Results...)
	}
	if err := s.complete(ctx, s.DB, orders, lang, false); err != nil {
		return nil, err
	}
	if err := s.label(ctx, s.DB, results, lang); err != nil {
		return nil, err
	}
	n := 0
	for i := range kept {
		kept[i].Record = orders[i]
		kept[i].Record.Results = results[n : n+len(orders[i].Results)]
		n += len(orders[i].Results)
	}
	return kept, nil
}
