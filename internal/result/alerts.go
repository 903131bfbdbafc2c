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
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/role"
	"emr/internal/settings"
	"emr/internal/user"
)

// Settings are the clinic's critical-result settings: how long an alert may wait for the
// ordering doctor before it escalates, and the role it escalates to.
type Settings struct {
	EscalateAfterMinutes int    `json:"escalate_after_minutes"`
	CoveringRole         string `json:"covering_role"`
	Version              int    `json:"version"`
}

const settingsKey = "results"

// Defaults of a clinic that has not set them.
const (
	DefaultEscalateMinutes = 30
	DefaultCoveringRole    = "doctor"
)

// ReadSettings returns the results settings (the defaults until an administrator sets them).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	var st Settings
	version, err := settings.Read(ctx, q, settingsKey, &st)
	st.Version = version
	if st.EscalateAfterMinutes <= 0 {
		st.EscalateAfterMinutes = DefaultEscalateMinutes
	}
	if st.CoveringRole == "" {
		st.CoveringRole = DefaultCoveringRole
	}
	return st, err
}

// SaveSettings replaces the results settings if in.Version is still the stored one.
func (s *Store) SaveSettings(ctx context.Context, e audit.Event, in Settings) (Settings, error) {
	var v apperr.Validation
	in.CoveringRole = strings.TrimSpace(in.CoveringRole)
	if in.EscalateAfterMinutes < 5 || in.EscalateAfterMinutes > 24*60 {
		v.Add("escalate_after_minutes", "result.escalate_range")
	}
	if in.CoveringRole == "" {
		v.Add("covering_role", "validation.required")
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
			return v.Err()
		}
		version, err := settings.Save(ctx, tx, e, settingsKey, Settings{EscalateAfterMinutes: in.EscalateAfterMinutes, CoveringRole: in.CoveringRole}, in.Version)
		in.Version = version
		return err
	})
	return in, err
}

// Alert is a critical result and what became of it.
type Alert struct {
	ID             int64           `json:"id"`
	OrderID        int64           `json:"order_id"`
	AppointmentID  int64           `json:"appointment_id"`
	Patient        patient.Summary `json:"patient"`
	DoctorID       *int64          `json:"doctor_id"`
	DoctorName     string          `json:"doctor_name"`
	Result         Result          `json:"result"`
	TestLabel      string          `json:"test_label"`
	RaisedAt       time.Time       `json:"raised_at"`
	EscalatedAt    *time.Time      `json:"escalated_at"`
	Open           bool            `json:"open"`
	AcknowledgedAt *time.Time      `json:"acknowledged_at"`
	AcknowledgedBy *int64          `json:"acknowledged_by"`
	Acknowledger   string          `json:"acknowledged_by_name"`
	Contact        string          `json:"contact"`
	Action         string          `json:"action"`
	ReadBack       string          `json:"read_back"`
	// MinutesToAcknowledge is how long the alert waited (the report's figure); nil while open.
	MinutesToAcknowledge *int `json:"minutes_to_acknowledge"`
}

const alertColumns = `a.id, a.result_id, a.order_id, a.patient_id, a.doctor_id, a.raised_at, a.escalated_at, a.is_open,
	a.acknowledged_at, a.acknowledged_by, a.contact, a.action, a.read_back`

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
		var open int
		if err := rows.Scan(&a.ID, &a.resultID, &a.OrderID, &a.patientID, &a.DoctorID, &a.RaisedAt, &a.EscalatedAt, &open,
			&a.AcknowledgedAt, &a.AcknowledgedBy, &a.Contact, &a.Action, &a.ReadBack); err != nil {
			return nil, err
		}
		a.Open = open == 1
		if a.AcknowledgedAt != nil {
			m := int(a.AcknowledgedAt.Sub(a.RaisedAt).Minutes())
			a.MinutesToAcknowledge = &m
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// fill completes alerts with their results, orders, patients and people.
func (s *Store) fill(ctx context.Context, q database.Querier, rows []alertRow, lang string) ([]Alert, error) {
	out := make([]Alert, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var resultIDs, orderIDs, patientIDs, people []int64
	for _, a := range rows {
		resultIDs, orderIDs, patientIDs = append(resultIDs, a.resultID), append(orderIDs, a.OrderID), append(patientIDs, a.patientID)
		for _, p := range []*int64{a.DoctorID, a.AcknowledgedBy} {
			if p != nil {
				people = append(people, *p)
			}
		}
	}
	results := map[int64]Result{}
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
	names, err := user.Names(ctx, q, unique(people))
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		a := row.Alert
		a.Result, a.Patient = results[row.resultID], patients[row.patientID]
		o := orders[a.OrderID]
		a.AppointmentID, a.TestLabel = o.AppointmentID, o.TestLabel
		if a.DoctorID != nil {
			a.DoctorName = names[*a.DoctorID]
		}
		if a.AcknowledgedBy != nil {
			a.Acknowledger = names[*a.AcknowledgedBy]
		}
		out = append(out, a)
	}
	return out, nil
}

// OpenAlerts lists the open critical alerts userID must see: those of the results they
// ordered, and, when they hold the covering role, every escalated one; the oldest first.
func (s *Store) OpenAlerts(ctx context.Context, userID int64, roles []string, lang string) ([]Alert, error) {
	rows, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
		WHERE a.doctor_id = $1 AND a.is_open = 1 ORDER BY a.raised_at, a.id`, userID))
	if err != nil {
		return nil, err
	}
	st, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	if slices.Contains(roles, st.CoveringRole) || slices.Contains(roles, "admin") {
		escalated, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
			WHERE a.is_open = 1 AND a.escalated_at IS NOT NULL ORDER BY a.raised_at, a.id`))
		if err != nil {
			return nil, err
		}
		for _, a := range escalated {
			if !slices.ContainsFunc(rows, func(b alertRow) bool { return b.ID == a.ID }) {
				rows = append(rows, a)
			}
		}
	}
	slices.SortFunc(rows, func(a, b alertRow) int { return a.RaisedAt.Compare(b.RaisedAt) })
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

// Escalate marks the open alerts that have waited past the clinic's interval as escalated;
// it reports how many it marked (the caller tells the covering role when any).
func (s *Store) Escalate(ctx context.Context) (int, error) {
	st, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return 0, err
	}
	now := s.now()
	res, err := s.DB.ExecContext(ctx, `UPDATE critical_alerts SET escalated_at = $1 WHERE is_open = 1 AND escalated_at IS NULL AND raised_at <= $2`,
		now, now.Add(-time.Duration(st.EscalateAfterMinutes)*time.Minute))
	if err != nil {
		return 0, fmt.Errorf("escalate alerts: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Contacts are the ways an acknowledgement says the patient was reached (or not).
var Contacts = []string{"phone", "in_person", "message", "not_reached", "no_contact_needed"}

// AckInput acknowledges a critical alert: how the patient was reached, what was done, and
// the read-back of a result taken by phone.
type AckInput struct {
	Contact  string `json:"contact"`
	Action   string `json:"action"`
	ReadBack string `json:"read_back"`
}

// Acknowledge closes alert id with who, when and what was done.
func (s *Store) Acknowledge(ctx context.Context, e audit.Event, id int64, in AckInput) error {
	var v apperr.Validation
	in.Contact, in.Action, in.ReadBack = strings.TrimSpace(in.Contact), strings.TrimSpace(in.Action), strings.TrimSpace(in.ReadBack)
	if !slices.Contains(Contacts, in.Contact) {
		v.Add("contact", "result.contact_required")
	}
	if in.Action == "" {
		v.Add("action", "result.action_required")
	}
	for field, text := range map[string]string{"action": in.Action, "read_back": in.ReadBack} {
		if utf8.RuneCountInString(text) > apperr.MaxReason {
			v.Add(field, "validation.too_long")
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var patientID, orderID int64
		err := tx.QueryRowContext(ctx, `SELECT patient_id, order_id FROM critical_alerts WHERE id = $1`, id).Scan(&patientID, &orderID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.NotFound("result.alert_not_found")
		}
		if err != nil {
			return err
		}
		now := s.now()
		res, err := tx.ExecContext(ctx, `UPDATE critical_alerts SET is_open = 0, acknowledged_at = $1, acknowledged_by = $2, contact = $3,
			action = $4, read_back = $5 WHERE id = $6 AND is_open = 1`, now, actor(e), in.Contact, in.Action, in.ReadBack, id)
		if err != nil {
			return fmt.Errorf("acknowledge alert: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("result.alert_acknowledged")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "critical_alert.acknowledge", "critical_alert", strconv.FormatInt(id, 10), audit.Success, now
		e.PatientID, e.Detail = patientID, "contact: "+in.Contact+"; order "+strconv.FormatInt(orderID, 10)
		return audit.Record(ctx, tx, e)
	})
}

// AlertReport lists every critical alert raised in [from, to) with its time to
// acknowledge, the oldest first.
func (s *Store) AlertReport(ctx context.Context, from, to time.Time, lang string) ([]Alert, error) {
	rows, err := scanAlerts(s.DB.QueryContext(ctx, `SELECT `+alertColumns+` FROM critical_alerts a
		WHERE a.raised_at >= $1 AND a.raised_at < $2 ORDER BY a.raised_at, a.id LIMIT 5000`, from, to))
	if err != nil {
		return nil, err
	}
	return s.fill(ctx, s.DB, rows, lang)
}
