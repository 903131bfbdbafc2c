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
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/role"
	"emr/internal/settings"
	"emr/internal/user"
)

// Settings are the clinic's critical-result settings: how long an alert may wait for the
// ordering doctor before it escalates to the covering role (level 1), how long it may then
// wait before it escalates to the clinic's medical lead (level 2), and who those are.
type Settings struct {
	EscalateAfterMinutes int    `json:"escalate_after_minutes"`
	CoveringRole         string `json:"covering_role"`
	LeadAfterMinutes     int    `json:"lead_after_minutes"`
	MedicalLeadID        *int64 `json:"medical_lead_id"`
	// MedicalLeadName and Email are read, not saved: the lead's name, and whether
	// escalations also leave the app by e-mail (the server runs with --smtp-url).
	MedicalLeadName string `json:"medical_lead_name"`
	Email           bool   `json:"email"`
	Version         int    `json:"version"`
}

// stored is what the settings row keeps.
type stored struct {
	EscalateAfterMinutes int    `json:"escalate_after_minutes"`
	CoveringRole         string `json:"covering_role"`
	LeadAfterMinutes     int    `json:"lead_after_minutes,omitempty"`
	MedicalLeadID        *int64 `json:"medical_lead_id,omitempty"`
}

const settingsKey = "results"

// Defaults of a clinic that has not set them, and the limits of each interval: a critical
// result waits at most an hour at each level (CAP Laboratory General checklist, critical
// results: notification within a time the clinic defines, with escalation when the
// responsible clinician is not reached; Joint Commission NPSG.02.03.01: timely reporting).
const (
	DefaultEscalateMinutes = 30
	DefaultLeadMinutes     = 30
	DefaultCoveringRole    = "doctor"
	MinEscalateMinutes     = 5
	MaxEscalateMinutes     = 60
)

// ReadSettings returns the results settings (the defaults until an administrator sets them).
// An interval stored before the hour's limit existed is read as the limit.
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	var in stored
	version, err := settings.Read(ctx, q, settingsKey, &in)
	if err != nil {
		return Settings{}, err
	}
	st := Settings{EscalateAfterMinutes: in.EscalateAfterMinutes, CoveringRole: in.CoveringRole, LeadAfterMinutes: in.LeadAfterMinutes,
		MedicalLeadID: in.MedicalLeadID, Version: version}
	for _, m := range []*int{&st.EscalateAfterMinutes, &st.LeadAfterMinutes} {
		if *m <= 0 {
			*m = DefaultEscalateMinutes
		}
		*m = min(*m, MaxEscalateMinutes)
	}
	if st.CoveringRole == "" {
		st.CoveringRole = DefaultCoveringRole
	}
	if st.MedicalLeadID != nil {
		names, err := user.Names(ctx, q, []int64{*st.MedicalLeadID})
		if err != nil {
			return st, err
		}
		st.MedicalLeadName = names[*st.MedicalLeadID]
	}
	return st, nil
}

// KeepsLead refuses a change to account id (deactivated, or roles taken away) that would
// leave the clinic's critical results without the medical lead they escalate to: the lead
// must stay an active clinician who acknowledges and reviews results until another is chosen.
// The user store asks it inside the change's transaction, after the change.
func KeepsLead(ctx context.Context, tx *sql.Tx, id int64) error {
	st, err := ReadSettings(ctx, tx)
	if err != nil || st.MedicalLeadID == nil || *st.MedicalLeadID != id {
		return err
	}
	active, err := user.Active(ctx, tx, id)
	if err != nil {
		return err
	}
	if active {
		m, err := role.Of(ctx, tx, id)
		if err != nil {
			return err
		}
		if slices.Contains(m.Permissions, auth.AcknowledgeCritical) && slices.Contains(m.Permissions, auth.ReviewResults) {
			return nil
		}
	}
	return apperr.Conflict("result.lead_leaving")
}

// SaveSettings replaces the results settings if in.Version is still the stored one. Each
// interval is 5–60 minutes (refused, never changed, outside); the covering role and the
// medical lead must be able to see and acknowledge what they are sent.
func (s *Store) SaveSettings(ctx context.Context, e audit.Event, in Settings) (Settings, error) {
	var v apperr.Validation
	in.CoveringRole = strings.TrimSpace(in.CoveringRole)
	for field, m := range map[string]int{"escalate_after_minutes": in.EscalateAfterMinutes, "lead_after_minutes": in.LeadAfterMinutes} {
		if m < MinEscalateMinutes || m > MaxEscalateMinutes {
			v.Add(field, "result.escalate_range")
		}
	}
	if in.CoveringRole == "" {
		v.Add("covering_role", "validation.required")
	}
	if in.MedicalLeadID == nil {
		v.Add("medical_lead_id", "result.lead_required")
	}
	if err := v.Err(); err != nil {
		return in, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		known, err := role.Exists(ctx, tx, in.CoveringRole)
		if err != nil {
			return err
		}
		if !known {
			v.Add("covering_role", "role.not_found")
		} else if ok, err := role.Grants(ctx, tx, in.CoveringRole, auth.AcknowledgeCritical); err != nil {
			return err
		} else if !ok {
			v.Add("covering_role", "result.covering_cannot_acknowledge")
		}
		active, err := user.Active(ctx, tx, *in.MedicalLeadID)
		if err != nil {
			return err
		}
		if !active {
			v.Add("medical_lead_id", "result.lead_not_found")
		} else if m, err := role.Of(ctx, tx, *in.MedicalLeadID); err != nil {
			return err
		} else if !slices.Contains(m.Permissions, auth.AcknowledgeCritical) {
			v.Add("medical_lead_id", "result.lead_cannot_acknowledge")
		} else if !slices.Contains(m.Permissions, auth.ReviewResults) {
			// The last level is a clinician who can act on any result: one who reviews results
			// (a doctor), not only one who may acknowledge (a nurse may cover, not lead).
			v.Add("medical_lead_id", "result.lead_not_clinician")
		}
		if err := v.Err(); err != nil {
			return err
		}
		e.Action = "settings.results"
		version, err := settings.Save(ctx, tx, e, settingsKey, stored{EscalateAfterMinutes: in.EscalateAfterMinutes, CoveringRole: in.CoveringRole,
			LeadAfterMinutes: in.LeadAfterMinutes, MedicalLeadID: in.MedicalLeadID}, in.Version)
		in.Version = version
		return err
	})
	if err != nil {
		return in, err
	}
	st, err := ReadSettings(ctx, s.DB)
	st.Email = s.Email
	return st, err
}

// Alert is a critical result and what became of it: raised for the ordering doctor,
// escalated to the covering role (level 1) and to the medical lead (level 2) while nobody
// acknowledges it, the attempts that did not reach the patient, and its acknowledgement.
type Alert struct {
	ID              int64           `json:"id"`
	OrderID         int64           `json:"order_id"`
	AppointmentID   int64           `json:"appointment_id"`
	Patient         patient.Summary `json:"patient"`
	DoctorID        *int64          `json:"doctor_id"`
	DoctorName      string          `json:"doctor_name"`
	Result          Result          `json:"result"`
	TestLabel       string          `json:"test_label"`
	RaisedAt        time.Time       `json:"raised_at"`
	EscalatedAt     *time.Time      `json:"escalated_at"`
	EscalatedLeadAt *time.Time      `json:"escalated_lead_at"`
	Open            bool            `json:"open"`
	AcknowledgedAt  *time.Time      `json:"acknowledged_at"`
	AcknowledgedBy  *int64          `json:"acknowledged_by"`
	Acknowledger    string          `json:"acknowledged_by_name"`
	Contact         string          `json:"contact"`
	Action          string          `json:"action"`
	ReceivedBy      string          `json:"received_by"`
	ReadBack        string          `json:"read_back"`
	// The last attempt that did not reach the patient (the alert stays open), and how many.
	NotReachedAt     *time.Time `json:"not_reached_at"`
	NotReachedBy     *int64     `json:"-"`
	NotReachedByName string     `json:"not_reached_by_name"`
	NotReachedNote   string     `json:"not_reached_note"`
	NotReachedCount  int        `json:"not_reached_count"`
	// MinutesToAcknowledge is how long the alert waited (the report's figure); nil while open.
	MinutesToAcknowledge *int `json:"minutes_to_acknowledge"`
	// Of an alert whose value stopped standing (retracted, corrected to a value not critical,
	// or its test marked not done): when, by whom, why and in which category (Withdrawals).
	// It stays open, withdrawn and unseen, and escalates as the alert did, until one it
	// reached records the follow-up; an acknowledgement made before is kept.
	WithdrawnAt       *time.Time `json:"withdrawn_at"`
	WithdrawnBy       *int64     `json:"withdrawn_by"`
	Withdrawer        string     `json:"withdrawn_by_name"`
	WithdrawnReason   string     `json:"withdrawn_reason"`
	WithdrawnCategory string     `json:"withdrawn_category"`
	// WithdrawnByRecipient: the withdrawal was made by one the alert was for (its ordering
	// doctor) or who acknowledged it: allowed (a doctor fixes his own typo), shown in the report.
	WithdrawnByRecipient bool `json:"withdrawn_by_recipient"`
	// The withdrawal's follow-up: who recorded it, when, what was done (Followups) and a note.
	WithdrawalSeenAt   *time.Time `json:"withdrawal_seen_at"`
	WithdrawalSeenBy   *int64     `json:"-"`
	WithdrawalSeenName string     `json:"withdrawal_seen_by_name"`
	WithdrawalFollowup string     `json:"withdrawal_followup"`
	WithdrawalNote     string     `json:"withdrawal_note"`
	// Standing is, of a withdrawn alert, the value of its analyte that now stands on the order
	// (nil: none, as after a retraction or a test not done): the notice shows it beside the
	// withdrawn one, and says so when it is itself critical (a newer alert of its own).
	Standing *Result `json:"standing"`
	// Misfiled: the alert is not a value of this patient's but a critical value recorded
	// against them that belonged to someone not yet found (C2 of the laboratory clinician's
	// review): open, escalating as any alert, until the value is resolved from the misfiled
	// list (ResolveMisfiled); it cannot be acknowledged.
	Misfiled bool `json:"misfiled"`
	// Emails are the messages its escalations sent out of the app, with what became of each.
	Emails []Email `json:"emails"`
}

// Email is one escalation message, or one saying the alert was withdrawn (Withdrawal, level
// 0), to one person and its delivery.
type Email struct {
	Level      int        `json:"level"`
	Withdrawal bool       `json:"withdrawal"`
	UserID     *int64     `json:"user_id"`
	Name       string     `json:"name"`
	Status     string     `json:"status"` // pending, sent, failed, no_address (internal/mail)
	Attempts   int        `json:"attempts"`
	LastError  string     `json:"last_error"`
	SentAt     *time.Time `json:"sent_at"`
}

// mailTopics are the outbox topics of the two escalation levels, in level order.
var mailTopics = []string{"critical_alert.1", "critical_alert.2"}

const alertColumns = `a.id, a.result_id, a.order_id, a.patient_id, a.doctor_id, a.raised_at, a.escalated_at, a.escalated_lead_at, a.is_open,
	a.acknowledged_at, a.acknowledged_by, a.contact, a.action, a.received_by, a.read_back,
	a.not_reached_at, a.not_reached_by, a.not_reached_note, a.not_reached_count, a.withdrawn_at, a.withdrawn_by, a.withdrawn_reason,
	a.withdrawn_category, a.withdrawal_seen_at, a.withdrawal_seen_by, a.withdrawal_followup, a.withdrawal_note, a.misfiled`

type alertRow struct {
	Alert
	resultID, patientID int64
}

func scanAlerts(rows *sql.Rows, err error) ([]alertRow, error) {
	if err != nil {
		return nil, fmt.Errorf("read alerts: %w", err)
	}
	defer rows.Close()
	var out []alertRow
	for rows.Next() {
		var a alertRow
		var open, misfiled int
		if err := rows.Scan(&a.ID, &a.resultID, &a.OrderID, &a.patientID, &a.DoctorID, &a.RaisedAt, &a.EscalatedAt, &a.EscalatedLeadAt, &open,
			&a.AcknowledgedAt, &a.AcknowledgedBy, &a.Contact, &a.Action, &a.ReceivedBy, &a.ReadBack,
			&a.NotReachedAt, &a.NotReachedBy, &a.NotReachedNote, &a.NotReachedCount, &a.WithdrawnAt, &a.WithdrawnBy, &a.WithdrawnReason,
			&a.WithdrawnCategory, &a.WithdrawalSeenAt, &a.WithdrawalSeenBy, &a.WithdrawalFollowup, &a.WithdrawalNote, &misfiled); err != nil {
			return nil, err
		}
		a.Open, a.Misfiled = open == 1, misfiled == 1
		same := func(p *int64) bool { return p != nil && a.WithdrawnBy != nil && *p == *a.WithdrawnBy }
		a.WithdrawnByRecipient = same(a.DoctorID) || same(a.AcknowledgedBy)
		if a.AcknowledgedAt != nil {
			m := int(a.AcknowledgedAt.Sub(a.RaisedAt).Minutes())
			a.MinutesToAcknowledge = &m
		}
		a.Emails = []Email{}
		out = append(out, a)
	}
	return out, rows.Err()
}

// fill completes alerts with their results, orders, patients, people and e-mails.
func (s *Store) fill(ctx context.Context, q database.Querier, rows []alertRow, lang string) ([]Alert, error) {
	out := make([]Alert, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var resultIDs, orderIDs, patientIDs, alertIDs, people []int64
	for _, a := range rows {
		resultIDs, orderIDs, patientIDs, alertIDs = append(resultIDs, a.resultID), append(orderIDs, a.OrderID), append(patientIDs, a.patientID), append(alertIDs, a.ID)
		for _, p := range []*int64{a.DoctorID, a.AcknowledgedBy, a.NotReachedBy, a.WithdrawnBy, a.WithdrawalSeenBy} {
			if p != nil {
				people = append(people, *p)
			}
		}
	}
	results := map[int64]Result{}
	standing := map[string]Result{} // the current result of each order's analyte, by order and analyte
	orders := map[int64]Order{}
	err := database.InChunks(unique(resultIDs), 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "r.id", chunk, 1)
		list, err := scanResults(q.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE `+in, args...))
		if err == nil {
			err = s.label(ctx, q, list, lang)
		}
		for _, r := range list {
			results[r.ID] = r
		}
		return err
	})
	if err == nil {
		err = database.InChunks(unique(orderIDs), 500, func(chunk []int64) error {
			in, args := database.InIDs(q, "r.order_id", chunk, 1)
			list, err := scanResults(q.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.is_current = 1 AND `+in, args...))
			if err == nil {
				err = s.label(ctx, q, list, lang)
			}
			for _, r := range list {
				standing[strconv.FormatInt(r.OrderID, 10)+" "+r.Analyte] = r
			}
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	err = database.InChunks(unique(orderIDs), 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "o.id", chunk, 1)
		list, err := scanOrders(q.QueryContext(ctx, `SELECT `+orderColumns+` FROM lab_orders o WHERE `+in, args...))
		if err == nil {
			err = s.complete(ctx, q, list, lang, false)
		}
		for _, o := range list {
			orders[o.ID] = o
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	patients, err := patient.Summaries(ctx, q, unique(patientIDs))
	if err != nil {
		return nil, err
	}
	// The withdrawal's own e-mails too (J4): one that found no address is seen, not lost.
	sent, err := mail.Deliveries(ctx, q, append(slices.Clone(mailTopics), withdrawnTopic), alertIDs)
	if err != nil {
		return nil, err
	}
	emails := map[int64][]Email{}
	for _, d := range sent {
		e := Email{Level: slices.Index(mailTopics, d.Topic) + 1, Withdrawal: d.Topic == withdrawnTopic, UserID: d.UserID, Status: d.Status,
			Attempts: d.Attempts, LastError: d.LastError, SentAt: d.SentAt}
		if d.UserID != nil {
			people = append(people, *d.UserID)
		}
		emails[d.TopicID] = append(emails[d.TopicID], e)
	}
	names, err := user.Names(ctx, q, unique(people))
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		a := row.Alert
		a.Result, a.Patient = results[row.resultID], patients[row.patientID]
		o := orders[a.OrderID]
		a.AppointmentID, a.TestLabel = o.AppointmentID, o.TestLabel
		if now, ok := standing[strconv.FormatInt(a.OrderID, 10)+" "+a.Result.Analyte]; ok && a.WithdrawnAt != nil && now.ID != a.Result.ID {
			a.Standing = &now
		}
		if a.DoctorID != nil {
			a.DoctorName = names[*a.DoctorID]
		}
		if a.AcknowledgedBy != nil {
			a.Acknowledger = names[*a.AcknowledgedBy]
		}
		if a.NotReachedBy != nil {
			a.NotReachedByName = names[*a.NotReachedBy]
		}
		if a.WithdrawnBy != nil {
			a.Withdrawer = names[*a.WithdrawnBy]
		}
		if a.WithdrawalSeenBy != nil {
			a.WithdrawalSeenName = names[*a.WithdrawalSeenBy]
		}
		for _, e := range emails[a.ID] {
			if e.UserID != nil {
				e.Name = names[*e.UserID]
			}
			a.Emails = append(a.Emails, e)
		}
		out = append(out, a)
	}
	return out, nil
}

// Recipient is who asks for or acts on alerts: an account, its roles, and whether it reviews
// results (a doctor may acknowledge any alert, covering a colleague).
type Recipient struct {
	UserID  int64
	Roles   []string
	Reviews bool
}

// sentTo says which open alerts reach r: its own orders' always; every escalated one when
// it holds the covering role (or is an administrator); every one at level 2 when it is the
// medical lead.
func sentTo(st Settings, r Recipient) (covering, lead bool) {
	covering = slices.Contains(r.Roles, st.CoveringRole) || slices.Contains(r.Roles, auth.AdminRole)
	lead = st.MedicalLeadID != nil && *st.MedicalLeadID == r.UserID
	return covering, lead
}

// OpenAlerts lists the open critical alerts r must see (sentTo), the oldest first. An alert
// whose patient was not reached stays here, escalated, until someone records that they were.
// An alert withdrawn (its value no longer stands) stays here, as withdrawn, for those it
// reached and whoever acknowledged it, until one of them records its follow-up (followUp; an
// alert withdrawn before follow-ups were kept: until the order's doctor reviews the order):
// whoever was told of the value is told it was withdrawn.
func (s *Store) OpenAlerts(ctx context.Context, r Recipient, lang string) ([]Alert, error) {
	st, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	covering, lead := sentTo(st, r)
	rows, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
		WHERE (a.is_open = 1 OR (a.withdrawn_at IS NOT NULL AND a.withdrawal_seen_at IS NULL
			AND EXISTS (SELECT 1 FROM lab_orders o WHERE o.id = a.order_id AND o.withdrawn_to_review = 1)))
		AND (a.doctor_id = $1 OR ($2 AND a.escalated_at IS NOT NULL) OR ($3 AND a.escalated_lead_at IS NOT NULL)
			OR (a.withdrawn_at IS NOT NULL AND a.acknowledged_by = $1))
		ORDER BY a.raised_at, a.id`, r.UserID, covering, lead))
	if err != nil {
		return nil, err
	}
	return s.fill(ctx, s.DB, rows, lang)
}

// Escalated lists every open escalated alert (the dashboard shows them with their age).
func (s *Store) Escalated(ctx context.Context, lang string) ([]Alert, error) {
	rows, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
		WHERE a.is_open = 1 AND a.escalated_at IS NOT NULL ORDER BY a.raised_at, a.id LIMIT $1`, QueueLimit))
	if err != nil {
		return nil, err
	}
	return s.fill(ctx, s.DB, rows, lang)
}

// Escalate moves the open alerts that waited too long up a level: to the covering role
// after the first interval, to the medical lead after the second (counted from level 1).
// Each move, its audit event and its e-mails are written in one transaction; it reports how
// many moved (the caller tells who reviews results).
func (s *Store) Escalate(ctx context.Context) (int, error) {
	st, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return 0, err
	}
	now := s.now()
	// A withdrawal escalates as its alert did: on the alert's own clock while the alert was
	// never acknowledged (the same communication, still unanswered), on the withdrawal's once
	// it had been (a new one).
	first, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT id FROM critical_alerts
		WHERE is_open = 1 AND escalated_at IS NULL AND raised_at <= $1 AND (acknowledged_at IS NULL OR withdrawn_at <= $1)
		ORDER BY raised_at, id LIMIT 500`,
		now.Add(-time.Duration(st.EscalateAfterMinutes)*time.Minute)))
	if err != nil {
		return 0, fmt.Errorf("escalate alerts: %w", err)
	}
	second, err := database.Column[int64](s.DB.QueryContext(ctx, `SELECT id FROM critical_alerts
		WHERE is_open = 1 AND escalated_at <= $1 AND escalated_lead_at IS NULL AND (acknowledged_at IS NULL OR withdrawn_at <= $1)
		ORDER BY raised_at, id LIMIT 500`,
		now.Add(-time.Duration(st.LeadAfterMinutes)*time.Minute)))
	if err != nil {
		return 0, fmt.Errorf("escalate alerts: %w", err)
	}
	moved := 0
	for level, ids := range [][]int64{first, second} {
		for _, id := range ids {
			err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
				ok, err := s.escalate(ctx, tx, audit.Event{}, st, id, level+1, now)
				if ok {
					moved++
				}
				return err
			})
			if err != nil {
				return moved, err
			}
		}
	}
	return moved, nil
}

// escalate moves alert id to level (1: the covering role; 2: the medical lead) in tx, if
// nobody did first: it audits the move as e's (the system's when e has no actor) and, when
// e-mail is on, writes each recipient's message into the outbox.
func (s *Store) escalate(ctx context.Context, tx *sql.Tx, e audit.Event, st Settings, id int64, level int, now time.Time) (bool, error) {
	var res sql.Result
	var err error
	if level == 1 {
		res, err = tx.ExecContext(ctx, `UPDATE critical_alerts SET escalated_at = $1 WHERE id = $2 AND is_open = 1 AND escalated_at IS NULL`, now, id)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE critical_alerts SET escalated_lead_at = $1 WHERE id = $2 AND is_open = 1
			AND escalated_at IS NOT NULL AND escalated_lead_at IS NULL`, now, id)
	}
	if err != nil {
		return false, fmt.Errorf("escalate alert: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // acknowledged meanwhile, or another instance moved it
	}
	var patientID int64
	var withdrawn *time.Time
	var misfiled int
	if err := tx.QueryRowContext(ctx, `SELECT patient_id, withdrawn_at, misfiled FROM critical_alerts WHERE id = $1`, id).Scan(&patientID, &withdrawn, &misfiled); err != nil {
		return false, fmt.Errorf("read alert: %w", err)
	}
	var to []int64
	detail := "level 1: covering role " + st.CoveringRole
	if level == 1 {
		holders, err := user.ActiveHolders(ctx, tx, st.CoveringRole)
		if err != nil {
			return false, err
		}
		for _, h := range holders {
			to = append(to, h.ID)
		}
	} else {
		detail = "level 2: medical lead"
		if st.MedicalLeadID != nil {
			to = append(to, *st.MedicalLeadID)
			detail += " #" + strconv.FormatInt(*st.MedicalLeadID, 10)
		}
	}
	if s.Email {
		// A withdrawal not yet seen says what it is: never "a critical result waits".
		var err error
		switch {
		case misfiled == 1:
			// A critical value recorded against the wrong patient, its owner not yet found.
			detail = "misfiled " + detail
			err = s.mailAlert(ctx, tx, mailTopics[level-1], id, to, "result.mail_misfiled_subject", "result.mail_misfiled", now)
		case withdrawn != nil:
			detail = "withdrawal " + detail
			err = s.mailAlert(ctx, tx, withdrawnTopic, id, to, "result.mail_withdrawn_subject", "result.mail_withdrawn", now)
		default:
			err = s.mailEscalation(ctx, tx, id, level, to, now)
		}
		if err != nil {
			return false, err
		}
		detail += "; e-mails: " + strconv.Itoa(len(to))
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "critical_alert.escalate", "critical_alert", strconv.FormatInt(id, 10), audit.Success, now
	e.PatientID, e.Detail = patientID, detail
	return true, audit.Record(ctx, tx, e)
}

// mailEscalation writes one e-mail per recipient into the outbox. The message names no
// patient, result or value (an e-mail crosses servers the clinic does not run): it says that
// a critical result waits and where to open EMR.
func (s *Store) mailEscalation(ctx context.Context, tx *sql.Tx, id int64, level int, to []int64, now time.Time) error {
	return s.mailAlert(ctx, tx, mailTopics[level-1], id, to, "result.mail_subject", "result.mail_level"+strconv.Itoa(level), now)
}

// Contacts are the ways an acknowledgement says the patient was reached (or not).
var Contacts = []string{"phone", "in_person", "message", "not_reached", "no_contact_needed"}

// NotReached is the contact that keeps an alert open: nobody reached the patient yet.
const NotReached = "not_reached"

// ReceivedBy are the ways the one acknowledging got the result: in EMR itself, or by
// telephone (from the laboratory or a colleague), which needs its read-back (Joint
// Commission NPSG.02.03.01: the receiver reads a verbally reported critical result back).
var ReceivedBy = []string{"system", "telephone"}

// AckInput acknowledges a critical alert: how the patient was reached, what was done, how
// the result was received, and its read-back when that was by telephone. Of a withdrawn
// alert, it records the withdrawal seen: what was done about the value that no longer stands
// (one of Followups) and a note.
type AckInput struct {
	// Result is the result row the acknowledgement was written for (the alert's result_id as
	// the dialog showed it): once a correction carried the alert to another value, the
	// acknowledgement is refused (409), never closing the new value with words about the old.
	Result     int64  `json:"result_id"`
	Contact    string `json:"contact"`
	Action     string `json:"action"`
	ReceivedBy string `json:"received_by"`
	ReadBack   string `json:"read_back"`
	Followup   string `json:"followup"`
	Note       string `json:"note"`
}

// Acknowledge closes alert id with who, when and what was done; or, when the patient was not
// reached, records the attempt and keeps it open and escalated. Only one the alert reaches
// (sentTo), or one who reviews results, may. A withdrawn alert not yet seen is closed by its
// follow-up (followUp), by those and by whoever acknowledged it before; one sent without a
// follow-up is a conflict (the dialog was opened before the withdrawal: its user is told).
func (s *Store) Acknowledge(ctx context.Context, e audit.Event, who Recipient, id int64, in AckInput) error {
	in.Contact, in.Action, in.ReadBack = strings.TrimSpace(in.Contact), strings.TrimSpace(in.Action), strings.TrimSpace(in.ReadBack)
	in.ReceivedBy = strings.TrimSpace(in.ReceivedBy)
	st, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var patientID, orderID, resultID int64
		var doctorID, acknowledgedBy *int64
		var escalated, escalatedLead, withdrawn *time.Time
		var open, misfiled int
		err := tx.QueryRowContext(ctx, `SELECT patient_id, order_id, result_id, doctor_id, escalated_at, escalated_lead_at, is_open, withdrawn_at, acknowledged_by,
			misfiled FROM critical_alerts WHERE id = $1`, id).
			Scan(&patientID, &orderID, &resultID, &doctorID, &escalated, &escalatedLead, &open, &withdrawn, &acknowledgedBy, &misfiled)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.NotFound("result.alert_not_found")
		}
		if err != nil {
			return err
		}
		// Who may act first, then the alert's state: an alert not sent to the caller says
		// nothing of whether it was acknowledged.
		covering, lead := sentTo(st, who)
		mine := func(p *int64) bool { return p != nil && *p == who.UserID }
		if !who.Reviews && !mine(doctorID) && !(covering && escalated != nil) && !(lead && escalatedLead != nil) &&
			!(withdrawn != nil && mine(acknowledgedBy)) {
			return apperr.Forbidden("result.alert_not_yours")
		}
		if misfiled == 1 {
			// A critical value whose owner is not found closes only when it is resolved: refiled,
			// recollection ordered, or its owner said not to be identifiable (ResolveMisfiled).
			return apperr.Conflict("result.alert_misfiled")
		}
		now := s.now()
		if withdrawn != nil {
			// A withdrawal closed before follow-ups were kept (open 0, never seen) is followed up
			// here too (P11); one already seen is refused by followUp.
			if strings.TrimSpace(in.Followup) == "" {
				return apperr.Conflict("result.alert_withdrawn")
			}
			return s.followUp(ctx, tx, e, []int64{id}, in.Followup, in.Note, now)
		}
		if open == 0 {
			return apperr.Conflict("result.alert_acknowledged")
		}
		if changed, err := valueChanged(ctx, tx, id, resultID, in.Result); err != nil {
			return err
		} else if changed {
			return apperr.Conflict("result.alert_value_changed")
		}
		if err := in.check(); err != nil {
			return err
		}
		var res sql.Result
		if in.Contact == NotReached {
			res, err = tx.ExecContext(ctx, `UPDATE critical_alerts SET not_reached_at = $1, not_reached_by = $2, not_reached_note = $3,
				not_reached_count = not_reached_count + 1, received_by = $4, read_back = $5 WHERE id = $6 AND is_open = 1`,
				now, e.Actor(), in.Action, in.ReceivedBy, in.ReadBack, id)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE critical_alerts SET is_open = 0, acknowledged_at = $1, acknowledged_by = $2, contact = $3,
				action = $4, received_by = $5, read_back = $6 WHERE id = $7 AND is_open = 1`, now, e.Actor(), in.Contact, in.Action, in.ReceivedBy, in.ReadBack, id)
		}
		if err != nil {
			return fmt.Errorf("acknowledge alert: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("result.alert_acknowledged")
		}
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = "critical_alert.acknowledge", "critical_alert", strconv.FormatInt(id, 10), audit.Success, now
		if in.Contact == NotReached {
			ev.Action = "critical_alert.not_reached"
		}
		ev.PatientID, ev.Detail = patientID, "contact: "+in.Contact+"; received by: "+in.ReceivedBy+"; order "+strconv.FormatInt(orderID, 10)
		if err := audit.Record(ctx, tx, ev); err != nil {
			return err
		}
		if in.Contact == NotReached && escalated == nil { // a patient not reached needs the covering role now
			_, err = s.escalate(ctx, tx, e, st, id, 1, now)
		}
		return err
	})
}

// valueChanged reports whether alert id, now on result row current, no longer shows the
// value an acknowledgement was written for: seen, the row the dialog showed; a client that
// names none (0) is taken to have seen the value the alert was raised on (the row of its
// analyte recorded as it was raised), so only a value since changed is refused.
func valueChanged(ctx context.Context, tx *sql.Tx, id, current, seen int64) (bool, error) {
	if seen != 0 {
		return seen != current, nil
	}
	var same int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM critical_alerts a JOIN lab_results c ON c.id = a.result_id
		JOIN lab_results r ON r.order_id = c.order_id AND r.analyte = c.analyte AND r.recorded_at = a.raised_at
		WHERE a.id = $1 AND COALESCE(r.value, '') = COALESCE(c.value, '') AND r.comparator = c.comparator AND r.unit = c.unit
		AND r.answer = c.answer AND r.text = c.text`, id).Scan(&same)
	return same == 0, err
}

// check refuses an acknowledgement that does not say how the patient was reached, what was
// done, how the result was received, or (by telephone) its read-back.
func (in AckInput) check() error {
	var v apperr.Validation
	if !slices.Contains(Contacts, in.Contact) {
		v.Add("contact", "result.contact_required")
	}
	if in.Action == "" {
		v.Add("action", "result.action_required")
	}
	if !slices.Contains(ReceivedBy, in.ReceivedBy) {
		v.Add("received_by", "result.received_by_required")
	} else if in.ReceivedBy == "telephone" && in.ReadBack == "" {
		v.Add("read_back", "result.read_back_required")
	}
	for field, text := range map[string]string{"action": in.Action, "read_back": in.ReadBack} {
		if utf8.RuneCountInString(text) > apperr.MaxReason {
			v.Add(field, "validation.too_long")
		}
	}
	return v.Err()
}

// followUp closes withdrawn alerts ids not yet seen with what was done about the value
// withdrawn (one of Followups) and an optional note, as seen by e's actor, and audits each;
// it refuses (nothing changed) a follow-up not among Followups or a note too long.
func (s *Store) followUp(ctx context.Context, tx *sql.Tx, e audit.Event, ids []int64, followup, note string, now time.Time) error {
	var v apperr.Validation
	followup, note = strings.TrimSpace(followup), strings.TrimSpace(note)
	if !slices.Contains(Followups, followup) {
		v.Add("followup", "result.followup_required")
	}
	if utf8.RuneCountInString(note) > apperr.MaxReason {
		v.Add("note", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return err
	}
	// Who closes a withdrawal answers for what was done about it (J3): a clinician, holding a
	// clinical role (one that reviews results or acknowledges critical ones: the administrator
	// role alone is no such), and never the one who withdrew it — the one who withdrew a value
	// is not the check that its withdrawal reached someone.
	if ok, err := clinician(ctx, tx, e.ActorID); err != nil {
		return err
	} else if !ok {
		return apperr.Forbidden("result.followup_not_clinician")
	}
	for _, id := range ids {
		var withdrawer *int64
		var acknowledged *time.Time
		if err := tx.QueryRowContext(ctx, `SELECT withdrawn_by, acknowledged_at FROM critical_alerts WHERE id = $1`, id).Scan(&withdrawer, &acknowledged); err != nil {
			return fmt.Errorf("read a withdrawal: %w", err)
		}
		if withdrawer != nil && *withdrawer == e.ActorID {
			return apperr.Conflict("result.followup_own_withdrawal")
		}
		// An acknowledged value was acted on (the acknowledgement says what was done): "no
		// action needed: nothing was acted on" cannot be its follow-up.
		if acknowledged != nil && followup == "no_action_needed" {
			v.Add("followup", "result.followup_acted_on")
			return v.Err()
		}
	}
	for _, id := range ids {
		var patientID int64
		err := tx.QueryRowContext(ctx, `UPDATE critical_alerts SET is_open = 0, withdrawal_seen_at = $1, withdrawal_seen_by = $2,
			withdrawal_followup = $3, withdrawal_note = $4 WHERE id = $5 AND withdrawn_at IS NOT NULL AND withdrawal_seen_at IS NULL
			RETURNING patient_id`, now, e.Actor(), followup, note, id).Scan(&patientID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.Conflict("result.alert_withdrawn")
		}
		if err != nil {
			return fmt.Errorf("follow up a withdrawal: %w", err)
		}
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = "critical_alert.withdrawal_seen", "critical_alert", strconv.FormatInt(id, 10), audit.Success, now
		ev.PatientID, ev.Detail = patientID, "follow-up: "+followup
		if err := audit.Record(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}

// clinician reports whether account id holds a role other than the administrator's that
// reviews results or acknowledges critical results.
func clinician(ctx context.Context, tx *sql.Tx, id int64) (bool, error) {
	m, err := role.Of(ctx, tx, id)
	if err != nil {
		return false, err
	}
	for _, name := range m.Names {
		if name == auth.AdminRole {
			continue
		}
		for _, p := range []auth.Permission{auth.ReviewResults, auth.AcknowledgeCritical} {
			if ok, err := role.Grants(ctx, tx, name, p); err != nil || ok {
				return ok, err
			}
		}
	}
	return false, nil
}

// AlertReport lists every critical alert raised in [from, to) with each level's times and
// its time to acknowledge, the oldest first.
func (s *Store) AlertReport(ctx context.Context, from, to time.Time, lang string) ([]Alert, error) {
	rows, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
		WHERE a.raised_at >= $1 AND a.raised_at < $2 ORDER BY a.raised_at, a.id LIMIT 5000`, from, to))
	if err != nil {
		return nil, err
	}
	return s.fill(ctx, s.DB, rows, lang)
}
