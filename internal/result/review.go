package result

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/user"
)

// QueueLimit is how many orders a list across patients shows at once (the review queue, the
// overdue orders); the rest follow as the first are dealt with.
const QueueLimit = 50

// ToReview lists the results waiting for doctorID's review: first the orders a result of
// which was withdrawn as entered in error (whatever their state: the patient may have been
// told, or treated, on it), then the final results, critical first, then abnormal, then the
// oldest, with each order's patient. Two index ranges serve it (lab_orders_withdrawn,
// lab_orders_review). The medical lead also reviews the orders of doctors no longer active
// (J4: a withdrawal, or a result, never waits for one who left).
func (s *Store) ToReview(ctx context.Context, doctorID int64, lang string) ([]Order, error) {
	doctors, err := s.reviewedBy(ctx, doctorID)
	if err != nil {
		return nil, err
	}
	in, args := database.InIDs(s.DB, "o.ordered_by", doctors, 2)
	list, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE `+in+` AND o.withdrawn_to_review = 1 ORDER BY o.id LIMIT $1`, append([]any{QueueLimit}, args...)...))
	if err != nil {
		return nil, err
	}
	rest, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE `+in+` AND o.to_review = 1 AND o.withdrawn_to_review = 0 ORDER BY o.attention DESC, o.resulted_at, o.id LIMIT $1`,
		append([]any{QueueLimit - len(list)}, args...)...))
	if err != nil {
		return nil, err
	}
	list = append(list, rest...)
	if err := s.complete(ctx, s.DB, list, lang, true); err != nil {
		return nil, err
	}
	if err := s.corrections(ctx, list, lang); err != nil {
		return nil, err
	}
	return list, withPatients(ctx, s.DB, list)
}

// corrections gives each corrected order of list its last correction: the values it replaced
// (the latest replaced value of each analyte, not one entered in error) and its reason. A
// queue holds at most QueueLimit orders, and few of them corrected.
func (s *Store) corrections(ctx context.Context, list []Order, lang string) error {
	for i := range list {
		o := &list[i]
		if o.Corrections == 0 {
			continue
		}
		replaced, err := scanResults(s.DB.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 AND r.is_current = 0
			AND r.status <> 'entered_in_error' ORDER BY r.id`, o.ID))
		if err != nil {
			return err
		}
		latest := map[string]int{}
		var last []Result
		for _, r := range replaced {
			if k, ok := latest[r.Analyte]; ok {
				last[k] = r
				continue
			}
			latest[r.Analyte] = len(last)
			last = append(last, r)
		}
		// A value sent again as it was (the correction form sends every result) was not corrected.
		last = slices.DeleteFunc(last, func(r Result) bool {
			return slices.ContainsFunc(o.Results, func(c Result) bool { return c.Analyte == r.Analyte && sameReading(c, r) })
		})
		if err := s.label(ctx, s.DB, last, lang); err != nil {
			return err
		}
		c := &Correction{Replaced: last}
		err = s.DB.QueryRowContext(ctx, `SELECT reason FROM lab_order_events WHERE order_id = $1 AND status = $2 ORDER BY id DESC LIMIT 1`,
			o.ID, Corrected).Scan(&c.Reason)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read correction: %w", err)
		}
		o.Correction = c
	}
	return nil
}

// reviewedBy are the ordering doctors whose results doctorID reviews: their own, and, for the
// medical lead, those of every account no longer active.
func (s *Store) reviewedBy(ctx context.Context, doctorID int64) ([]int64, error) {
	st, err := ReadSettings(ctx, s.DB)
	if err != nil || st.MedicalLeadID == nil || *st.MedicalLeadID != doctorID {
		return []int64{doctorID}, err
	}
	gone, err := user.Deactivated(ctx, s.DB)
	return append([]int64{doctorID}, gone...), err
}

// ToReviewCount is how many results wait for doctorID's review (the dashboard's figure).
func (s *Store) ToReviewCount(ctx context.Context, doctorID int64) (int, error) {
	doctors, err := s.reviewedBy(ctx, doctorID)
	if err != nil {
		return 0, err
	}
	in, args := database.InIDs(s.DB, "ordered_by", doctors, 1)
	var n int
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_orders WHERE `+in+` AND (to_review = 1 OR withdrawn_to_review = 1)`, args...).Scan(&n)
	return n, err
}

// Overdue lists the orders past their test's turnaround with no result yet, and those
// marked as needing the test again (RepeatNeeded), the longest overdue first, so that the
// patient can be called back.
func (s *Store) Overdue(ctx context.Context, lang string) ([]Order, error) {
	now := s.now()
	var list []Order
	for _, status := range open {
		part, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
			WHERE o.status = $1 AND o.due_at < $2 ORDER BY o.due_at, o.id LIMIT $3`, status, now, QueueLimit))
		if err != nil {
			return nil, err
		}
		list = append(list, part...)
	}
	// An order whose result was withdrawn for a reason that calls for the test again is
	// chased whatever its state (lab_orders_repeat).
	repeat, err := scanOrders(s.DB.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o
		WHERE o.repeat_needed = 1 ORDER BY o.due_at, o.id LIMIT $1`, QueueLimit))
	if err != nil {
		return nil, err
	}
	for _, o := range repeat {
		if !slices.ContainsFunc(list, func(x Order) bool { return x.ID == o.ID }) {
			list = append(list, o)
		}
	}
	sortByDue(list)
	if len(list) > QueueLimit {
		list = list[:QueueLimit]
	}
	if err := s.complete(ctx, s.DB, list, lang, false); err != nil {
		return nil, err
	}
	for i := range list {
		if !list[i].RepeatNeeded {
			continue
		}
		err := s.DB.QueryRowContext(ctx, `SELECT retract_category FROM lab_results WHERE order_id = $1 AND retracted_at IS NOT NULL
			ORDER BY retracted_at DESC, id DESC LIMIT 1`, list[i].ID).Scan(&list[i].RepeatCategory)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read retraction: %w", err)
		}
	}
	return list, withPatients(ctx, s.DB, list)
}

func sortByDue(list []Order) {
	slices.SortFunc(list, func(a, b Order) int { return cmp.Or(a.DueAt.Compare(b.DueAt), cmp.Compare(a.ID, b.ID)) })
}

// withPatients names each order's patient.
func withPatients(ctx context.Context, q database.Querier, list []Order) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(list))
	for _, o := range list {
		ids = append(ids, o.PatientID)
	}
	people, err := patient.Summaries(ctx, q, unique(ids))
	if err != nil {
		return err
	}
	for i := range list {
		p := people[list[i].PatientID]
		list[i].Patient = &p
	}
	return nil
}

// ReviewItem is an order to mark reviewed, at the version the doctor saw.
type ReviewItem struct {
	ID      int64 `json:"id"`
	Version int   `json:"version"`
}

// ReviewInput marks one or many final results reviewed, with an optional comment; an order
// holding a withdrawal is reviewed with its follow-up (one of Followups; the comment is its
// note).
type ReviewInput struct {
	Orders   []ReviewItem `json:"orders"`
	Comment  string       `json:"comment"`
	Followup string       `json:"followup"`
}

// MaxReview is how many orders one review marks.
const MaxReview = 100

// Review marks final results reviewed (all or none): each must be final and unchanged
// since the doctor read it (a correction since sends it back, and a stale version is a
// conflict rather than a review of what the doctor did not see). An order holding a result
// withdrawn as entered in error is reviewed on its own, never in a batch (its doctor decides
// whether to tell the patient or repeat the test); whatever its state, the review clears the
// withdrawal, and marks it reviewed only when it is final (a preliminary order, or one
// waiting for its result again, keeps its state).
func (s *Store) Review(ctx context.Context, e audit.Event, in ReviewInput) (int, error) {
	var v apperr.Validation
	in.Comment = strings.TrimSpace(in.Comment)
	switch {
	case len(in.Orders) == 0:
		v.Add("orders", "validation.required")
	case len(in.Orders) > MaxReview:
		v.Add("orders", "validation.too_many")
	}
	if utf8.RuneCountInString(in.Comment) > apperr.MaxReason {
		v.Add("comment", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return 0, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var reviewed []int64
		for _, item := range in.Orders {
			o, err := s.lockOrder(ctx, tx, item.ID)
			if err != nil {
				return err
			}
			switch {
			case o.Version != item.Version:
				return apperr.Conflict("error.conflict")
			case o.WithdrawnToReview && len(in.Orders) > 1:
				return apperr.Conflict("result.review_withdrawn_alone")
			case o.Status != Final && !o.WithdrawnToReview:
				return apperr.Conflict("result.not_now.reviewed")
			}
			if o.WithdrawnToReview {
				// The doctor says what was done about the value withdrawn: its alerts not yet
				// seen close with that follow-up (none: nothing was acted on, still said).
				ids, err := database.Column[int64](tx.QueryContext(ctx, `SELECT id FROM critical_alerts WHERE order_id = $1
					AND withdrawn_at IS NOT NULL AND withdrawal_seen_at IS NULL ORDER BY id`, o.ID))
				if err != nil {
					return fmt.Errorf("read withdrawn alerts: %w", err)
				}
				if err := s.followUp(ctx, tx, e, ids, in.Followup, in.Comment, now); err != nil {
					return err
				}
			}
			if err := s.markReviewed(ctx, tx, e, o, in.Comment, in.Followup != "no_action_needed", now); err != nil {
				return err
			}
			detail := ""
			if in.Comment != "" {
				detail = audit.Phrases(audit.Phrase{Key: "audit.detail.comment_given"})
			}
			if o.WithdrawnToReview {
				detail = audit.WithPhrase(detail, audit.Phrase{Key: "audit.detail.withdrawn_reviewed", Terms: []string{"audit.followup." + in.Followup}})
			}
			if err := s.event(ctx, tx, e, o.ID, o.PatientID, Reviewed, "", now, detail); err != nil {
				return err
			}
			reviewed = append(reviewed, o.ID)
		}
		return s.keep(ctx, tx, now, reviewed...)
	})
	return len(in.Orders), err
}

// markReviewed clears order o from its doctor's review: reviewed when it is final; a
// withdrawal reviewed on an order not final leaves its state (and its review fields, which
// speak of a final report) as they were.
// A test chased again (repeat_needed) stays chased until a result of it is recorded (Record),
// whatever the review says, unless its doctor decides nothing more is needed (follow-up
// no_action_needed; keepChasing false): "repeat ordered" names an intention, not a result.
func (s *Store) markReviewed(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, comment string, keepChasing bool, now time.Time) error {
	var err error
	if o.Status == Final {
		_, err = tx.ExecContext(ctx, `UPDATE lab_orders SET status = 'reviewed', to_review = 0, withdrawn_to_review = 0,
			repeat_needed = CASE WHEN $5 THEN repeat_needed ELSE 0 END, reviewed_at = $1,
			reviewed_by = $2, review_comment = $3, updated_at = $1, updated_by = $2, version = version + 1 WHERE id = $4`,
			now, e.Actor(), comment, o.ID, keepChasing)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE lab_orders SET to_review = 0, withdrawn_to_review = 0, repeat_needed = CASE WHEN $4 THEN repeat_needed ELSE 0 END,
			updated_at = $1, updated_by = $2, version = version + 1 WHERE id = $3`, now, e.Actor(), o.ID, keepChasing)
	}
	if err != nil {
		return fmt.Errorf("review order: %w", err)
	}
	return nil
}
