package result

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/settings"
	"emr/internal/user"
)

// Why a critical value stopped standing: the categories a retraction is given (the first
// four), a correction to a value that is not critical, and a test marked not done after a
// preliminary result.
const (
	WithdrawnSpecimen      = "specimen" // haemolysed, clotted, contaminated: the test is needed again
	WithdrawnWrongPatient  = "wrong_patient"
	WithdrawnTranscription = "transcription"
	WithdrawnOther         = "other"
	WithdrawnCorrected     = "corrected"
	WithdrawnSuperseded    = "superseded" // a preliminary value the later report changed
	WithdrawnNotDone       = "not_done"
)

// RetractCategories are the categories one retracting a result chooses among.
var RetractCategories = []string{WithdrawnSpecimen, WithdrawnWrongPatient, WithdrawnTranscription, WithdrawnOther}

// Followups are what may have been done about a withdrawn critical value, one of which closes
// the withdrawal (its acknowledgement, or the order's review): the patient told and the test
// repeated, a treatment given on it stopped or changed, whoever was told of it told it no
// longer holds, a repeat ordered, or nothing, as nothing was acted on.
var Followups = []string{"patient_contacted", "treatment_changed", "receiver_told", "repeat_ordered", "no_action_needed"}

// withdrawal is a critical value of an order that no longer stands: one analyte's ("" for
// every analyte of the order), why (category and the typed reason) and when.
type withdrawal struct {
	orderID          int64
	analyte          string
	category, reason string
	now              time.Time
	// keepOpen: the new value is critical too; an alert nobody acknowledged yet is carried
	// to it (replaceAlerts), only acknowledged ones are withdrawn.
	keepOpen bool
}

// withdraw is the one place a critical value stops standing, whichever way: retracted as
// entered in error, corrected to a value that is not critical, or its test marked not done.
// Every alert of the order's analyte not yet withdrawn, on the current row or on one a
// correction replaced, acknowledged or not, is withdrawn with who, when, why and the
// category (ISO 15189:2022 §7.4.1.8; CLIA 42 CFR 493.1291(k)). A withdrawal is itself a
// communication that must reach someone responsible (NPSG.02.03.01): the alert stays open,
// withdrawn and unseen, and the sweep escalates it (Escalate) until one it reached records
// the follow-up. Its "critical result waiting" e-mails not yet sent are cancelled; those it
// reached by e-mail, its ordering doctor and whoever acknowledged it are e-mailed that it was
// withdrawn; each is audited; and the order waits for its doctor's review, marked. It
// reports how many alerts it withdrew.
func (s *Store) withdraw(ctx context.Context, tx *sql.Tx, e audit.Event, w withdrawal) (int, error) {
	ids, err := database.Column[int64](tx.QueryContext(ctx, `SELECT a.id FROM critical_alerts a JOIN lab_results r ON r.id = a.result_id
		WHERE a.order_id = $1 AND a.withdrawn_at IS NULL AND a.misfiled = 0 AND ($2 = '' OR r.analyte = $2) AND ($3 = 0 OR a.acknowledged_at IS NOT NULL)
		ORDER BY a.id`, w.orderID, w.analyte, boolInt(w.keepOpen)))
	if err != nil {
		return 0, fmt.Errorf("read alerts to withdraw: %w", err)
	}
	for _, id := range ids {
		var patientID int64
		if err := tx.QueryRowContext(ctx, `UPDATE critical_alerts SET is_open = 1, withdrawn_at = $1, withdrawn_by = $2, withdrawn_reason = $3,
			withdrawn_category = $4 WHERE id = $5 RETURNING patient_id`, w.now, e.Actor(), w.reason, w.category, id).Scan(&patientID); err != nil {
			return 0, fmt.Errorf("withdraw alert: %w", err)
		}
		cancelled, err := mail.Cancel(ctx, tx, w.now, mailTopics, id)
		if err != nil {
			return 0, err
		}
		sent, err := s.mailWithdrawal(ctx, tx, id, e.ActorID, w.now)
		if err != nil {
			return 0, err
		}
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = "critical_alert.withdraw", "critical_alert", strconv.FormatInt(id, 10), audit.Success, w.now
		ev.PatientID = patientID
		ev.Detail = "category: " + w.category + "; e-mails: " + strconv.Itoa(sent) + "; waiting e-mails cancelled: " + strconv.Itoa(cancelled)
		if err := audit.Record(ctx, tx, ev); err != nil {
			return 0, err
		}
	}
	if len(ids) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET to_review = 1, withdrawn_to_review = 1 WHERE id = $1`, w.orderID); err != nil {
			return 0, fmt.Errorf("mark the order withdrawn: %w", err)
		}
	}
	return len(ids), nil
}

// withdrawnTopic is the outbox topic of the e-mail saying an alert was withdrawn.
const withdrawnTopic = "critical_alert.withdrawn"

// mailWithdrawal writes, for alert id, one e-mail saying a critical result was withdrawn to
// each person its escalations e-mailed (whatever became of that message) and, when e-mail is
// on, to its ordering doctor, whoever acknowledged it and whoever recorded that the patient
// was not reached — never to the one who withdrew it (by, who knows). Like the escalation's,
// it names no patient, result, value or reason. It reports how many it wrote.
func (s *Store) mailWithdrawal(ctx context.Context, tx *sql.Tx, id, by int64, now time.Time) (int, error) {
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
	if s.Email {
		var doctor, acknowledger, notReachedBy *int64
		if err := tx.QueryRowContext(ctx, `SELECT doctor_id, acknowledged_by, not_reached_by FROM critical_alerts WHERE id = $1`, id).
			Scan(&doctor, &acknowledger, &notReachedBy); err != nil {
			return 0, fmt.Errorf("read alert: %w", err)
		}
		for _, p := range []*int64{doctor, acknowledger, notReachedBy} {
			if p != nil {
				to = append(to, *p)
			}
		}
	}
	to = slices.DeleteFunc(unique(to), func(uid int64) bool { return uid == by })
	return len(to), s.mailAlert(ctx, tx, withdrawnTopic, id, to, "result.mail_withdrawn_subject", "result.mail_withdrawn", now)
}

// mailAlert writes one e-mail about alert id per recipient into the outbox, under topic:
// subject and body are message keys, in the four languages (staff accounts carry no
// language of their own), with where to open EMR.
func (s *Store) mailAlert(ctx context.Context, tx *sql.Tx, topic string, id int64, to []int64, subjectKey, bodyKey string, now time.Time) error {
	if len(to) == 0 {
		return nil
	}
	addresses, err := user.Addresses(ctx, tx, to)
	if err != nil {
		return err
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return err
	}
	var subject []string
	var body strings.Builder
	for _, lang := range i18n.Languages {
		subject = append(subject, i18n.T(lang, subjectKey))
		body.WriteString(i18n.T(lang, bodyKey) + "\n")
		if clinic.PublicURL != "" {
			body.WriteString(i18n.T(lang, "result.mail_open", clinic.PublicURL+"/") + "\n\n")
		} else {
			body.WriteString(i18n.T(lang, "result.mail_open_app") + "\n\n")
		}
	}
	for _, uid := range to {
		err := mail.Enqueue(ctx, tx, now, mail.Message{Topic: topic, TopicID: id, UserID: uid, To: addresses[uid],
			Subject: "EMR: " + strings.Join(subject, " · "), Body: body.String()})
		if err != nil {
			return err
		}
	}
	return nil
}
