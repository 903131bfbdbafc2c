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
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
	"emr/internal/user"
)

// RetractInput withdraws results entered in error: one current result of the order (Result,
// a result's id), or every current result of it (Result 0: the whole report), with the
// reason, against the order's version read.
type RetractInput struct {
	Version int    `json:"version"`
	Result  int64  `json:"result_id"`
	Reason  string `json:"reason"`
}

// Retract marks results of order id entered in error: each row stays, no longer current,
// with status entered_in_error, the reason, who and when, so that it leaves the current
// results, the trends, the delta checks and the critical-result lists, and stays in the
// order's history struck through. Nothing is deleted.
//
// Whoever was told of what is withdrawn is told it is withdrawn (ISO 15189:2022 §7.4.1.8;
// RCPath G158): a critical alert on a retracted result is closed as withdrawn, with who,
// when and why (never as acknowledged), and shows as withdrawn to those it reached until the
// order is reviewed; each person its escalation e-mailed gets a withdrawal e-mail; and the
// order always goes back to its ordering doctor's review, marked as holding a withdrawal
// (the patient may have been told, or treated, on the value), preliminary orders too. An
// order left with no current result waits for its result again (ordered, not collected: a
// result entered in error calls for the test again), so the overdue list chases it.
func (s *Store) Retract(ctx context.Context, e audit.Event, id int64, in RetractInput, lang string) (Detail, error) {
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		reason, err := apperr.Reason(in.Reason)
		if err != nil {
			return err
		}
		o, err := s.lockOrder(ctx, tx, id)
		if err != nil {
			return err
		}
		if o.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		rows, left, err := s.toRetract(ctx, tx, o.ID, in.Result)
		if err != nil {
			return err
		}
		now := s.now()
		var names []string
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET status = $1, is_current = 0, retract_reason = $2, retracted_at = $3,
				retracted_by = $4 WHERE id = $5`, EnteredInError, reason, now, actor(e), r.ID); err != nil {
				return fmt.Errorf("retract result: %w", err)
			}
			if err := s.withdrawAlerts(ctx, tx, e, r.ID, reason, now); err != nil {
				return err
			}
			names = append(names, r.Analyte)
		}
		if err := s.reopen(ctx, tx, e, o, left, now); err != nil {
			return err
		}
		if err := s.keep(ctx, tx, now, o.ID); err != nil {
			return err
		}
		detail := audit.Phrases(audit.Phrase{Key: "audit.detail.entered_in_error", Args: []string{strings.Join(names, ", ")}})
		if left == 0 {
			detail = audit.WithPhrase(detail, audit.Phrase{Key: "audit.detail.ordered_again"})
		}
		return s.event(ctx, tx, e, o.ID, o.PatientID, EnteredInError, reason, now, detail)
	})
	if err != nil {
		return Detail{}, err
	}
	return s.Detail(ctx, id, lang)
}

// reopen sends order o, after a retraction that left it left current results, back to its
// ordering doctor's review with the withdrawal marked: a final or reviewed order is final
// again (as after a correction), a preliminary one stays preliminary, and one with no result
// left is ordered again, its collection and result times cleared (the repeat's are its own).
func (s *Store) reopen(ctx context.Context, tx *sql.Tx, e audit.Event, o Order, left int, now time.Time) error {
	attention, err := orderAttention(ctx, tx, o.ID)
	if err != nil {
		return err
	}
	status, collected, resulted := o.Status, o.CollectedAt, o.ResultedAt
	switch {
	case left == 0:
		status, collected, resulted = Ordered, nil, nil
	case o.Status == Reviewed:
		status = Final
	}
	if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, to_review = 1, withdrawn_to_review = 1, attention = $2,
		collected_at = $3, resulted_at = $4, reviewed_at = NULL, reviewed_by = NULL, updated_at = $5, updated_by = $6, version = version + 1
		WHERE id = $7`, status, attention, collected, resulted, now, actor(e), o.ID); err != nil {
		return fmt.Errorf("update order: %w", err)
	}
	return nil
}

// toRetract reads the current results of order orderID a retraction withdraws: resultID's
// (it must be a current result of that order), or all of them when resultID is 0; and how
// many current results the retraction leaves.
func (s *Store) toRetract(ctx context.Context, tx *sql.Tx, orderID, resultID int64) ([]Result, int, error) {
	rows, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 ORDER BY r.id`, orderID))
	if err != nil {
		return nil, 0, err
	}
	current := slices.DeleteFunc(slices.Clone(rows), func(r Result) bool { return !r.Current })
	if resultID == 0 {
		if len(current) == 0 {
			return nil, 0, apperr.Conflict("result.nothing_to_retract")
		}
		return current, 0, nil
	}
	i := slices.IndexFunc(rows, func(r Result) bool { return r.ID == resultID })
	switch {
	case i < 0:
		return nil, 0, apperr.NotFound("result.result_not_found")
	case !rows[i].Current:
		// Replaced by a correction or retracted already: only what the record now says
		// can be withdrawn.
		return nil, 0, apperr.Conflict("result.not_current")
	}
	return rows[i : i+1], len(current) - 1, nil
}

// withdrawAlerts closes every critical alert of result row resultID as withdrawn, with who,
// when and why (an acknowledged one keeps its acknowledgement: the patient may have been
// acted on), audits each, and writes a withdrawal e-mail to each person its escalation
// e-mailed. The route's live event makes the screens that show alerts read them again.
func (s *Store) withdrawAlerts(ctx context.Context, tx *sql.Tx, e audit.Event, resultID int64, reason string, now time.Time) error {
	ids, err := database.Column[int64](tx.QueryContext(ctx, `SELECT id FROM critical_alerts WHERE result_id = $1 AND withdrawn_at IS NULL ORDER BY id`, resultID))
	if err != nil {
		return fmt.Errorf("read alerts of a retracted result: %w", err)
	}
	for _, id := range ids {
		var patientID int64
		if err := tx.QueryRowContext(ctx, `UPDATE critical_alerts SET is_open = 0, withdrawn_at = $1, withdrawn_by = $2, withdrawn_reason = $3
			WHERE id = $4 RETURNING patient_id`, now, actor(e), reason, id).Scan(&patientID); err != nil {
			return fmt.Errorf("withdraw alert: %w", err)
		}
		sent, err := s.mailWithdrawal(ctx, tx, id, now)
		if err != nil {
			return err
		}
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = "critical_alert.withdraw", "critical_alert", strconv.FormatInt(id, 10), audit.Success, now
		ev.PatientID, ev.Detail = patientID, "result entered in error; e-mails: "+strconv.Itoa(sent)
		if err := audit.Record(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}

// withdrawnTopic is the outbox topic of the e-mail saying an alert was withdrawn.
const withdrawnTopic = "critical_alert.withdrawn"

// mailWithdrawal writes, for alert id, one e-mail to each person its escalations e-mailed
// (whatever became of that message: one still pending goes out too), saying a critical
// result they were told of was withdrawn as entered in error. Like the escalation's, it
// names no patient, result, value or reason. It reports how many it wrote.
func (s *Store) mailWithdrawal(ctx context.Context, tx *sql.Tx, id int64, now time.Time) (int, error) {
	sent, err := mail.Deliveries(ctx, tx, mailTopics, []int64{id})
	if err != nil {
		return 0, err
	}
	var to []int64
	for _, d := range sent {
		if d.UserID != nil {
			to = append(to, *d.UserID)
		}
	}
	to = unique(to)
	if len(to) == 0 {
		return 0, nil
	}
	addresses, err := user.Addresses(ctx, tx, to)
	if err != nil {
		return 0, err
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return 0, err
	}
	var subject []string
	var body strings.Builder
	for _, lang := range i18n.Languages {
		subject = append(subject, i18n.T(lang, "result.mail_withdrawn_subject"))
		body.WriteString(i18n.T(lang, "result.mail_withdrawn") + "\n")
		if clinic.PublicURL != "" {
			body.WriteString(i18n.T(lang, "result.mail_open", clinic.PublicURL+"/") + "\n\n")
		} else {
			body.WriteString(i18n.T(lang, "result.mail_open_app") + "\n\n")
		}
	}
	for _, uid := range to {
		err := mail.Enqueue(ctx, tx, now, mail.Message{Topic: withdrawnTopic, TopicID: id, UserID: uid, To: addresses[uid],
			Subject: "EMR: " + strings.Join(subject, " · "), Body: body.String()})
		if err != nil {
			return 0, err
		}
	}
	return len(to), nil
}

// AnalyteOf is the analyte of result row resultID of order orderID, and whether the order
// has that row (any row: current, replaced or retracted). The FHIR API's old laboratory
// Observation ids named result rows.
func (s *Store) AnalyteOf(ctx context.Context, orderID, resultID int64) (string, bool, error) {
	var analyte string
	err := s.DB.QueryRowContext(ctx, `SELECT analyte FROM lab_results WHERE id = $1 AND order_id = $2`, resultID, orderID).Scan(&analyte)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read result: %w", err)
	}
	return analyte, true, nil
}
