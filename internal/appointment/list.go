package appointment

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/database"
)

// ListQuery selects appointments in one of three ways: a day's queue (Date), a calendar
// range (From..To, at most MaxRangeDays), or a patient's history (PatientID, paged).
type ListQuery struct {
	Date, From, To string
	DoctorID       int64
	PatientID      int64
	Status         string
	Page, PerPage  int
}

// MaxRangeDays bounds a calendar query.
const MaxRangeDays = 42

var pageSizes = []int{10, 15, 20, 30, 50}

// Statuses lists every status, in the order of the visit.
var Statuses = []string{Booked, Arrived, InProgress, Completed, Cancelled, NoShow}

// ParseListQuery reads the list's query parameters.
func ParseListQuery(get func(string) string) (ListQuery, error) {
	q := ListQuery{Date: get("date"), From: get("from"), To: get("to"), Status: get("status"), Page: 1, PerPage: 15}
	var v apperr.Validation
	num := func(name string) int64 {
		s := get(name)
		if s == "" {
			return 0
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			v.Add(name, "validation.query")
		}
		return n
	}
	q.DoctorID, q.PatientID = num("doctor_id"), num("patient_id")
	if p := num("page"); p > 0 {
		q.Page = int(min(p, 100000))
	}
	if n := num("per_page"); n > 0 {
		if !slices.Contains(pageSizes, int(n)) {
			v.Add("per_page", "validation.query")
		}
		q.PerPage = int(n)
	}
	date := func(name, s string) time.Time {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			v.Add(name, "validation.date_format")
		}
		return t
	}
	switch {
	case q.Date != "":
		date("date", q.Date)
	case q.From != "" || q.To != "":
		from, to := date("from", q.From), date("to", q.To)
		if to.Before(from) || to.Sub(from) > MaxRangeDays*24*time.Hour {
			v.Add("to", "appointment.bad_range")
		}
	case q.PatientID == 0:
		v.Add("date", "validation.required")
	}
	if q.Status != "" && !slices.Contains(Statuses, q.Status) {
		v.Add("status", "validation.invalid_choice")
	}
	return q, v.Err()
}

// ListResult is a page of appointments.
type ListResult struct {
	Data  []Appointment
	Total int
}

// List runs q. Each shape is one indexed query: (day, doctor_id, queue_number) for a day
// or a range of days, (patient_id, starts_at) for a patient's history. withDiagnoses adds
// the visits' diagnoses, labelled in lang.
func (s *Store) List(ctx context.Context, q ListQuery, withDiagnoses bool, lang string) (ListResult, error) {
	var where string
	var args []any
	order := " ORDER BY a.day, a.doctor_id, a.queue_number"
	switch {
	case q.Date != "":
		where, args = "a.day = $1", []any{q.Date}
	case q.From != "":
		where, args = "a.day >= $1 AND a.day <= $2", []any{q.From, q.To}
		order = " ORDER BY a.starts_at, a.id"
	default:
		where, args = "a.patient_id = $1", []any{q.PatientID}
		order = " ORDER BY a.starts_at DESC, a.id DESC"
	}
	if q.DoctorID != 0 {
		args = append(args, q.DoctorID)
		where += fmt.Sprintf(" AND a.doctor_id = $%d", len(args))
	}
	if q.PatientID != 0 && q.Date+q.From != "" {
		args = append(args, q.PatientID)
		where += fmt.Sprintf(" AND a.patient_id = $%d", len(args))
	}
	if q.Status != "" {
		args = append(args, q.Status)
		where += fmt.Sprintf(" AND a.status = $%d", len(args))
	}
	var res ListResult
	limit := ""
	if q.Date == "" && q.From == "" {
		if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM appointments a WHERE `+where, args...).Scan(&res.Total); err != nil {
			return res, fmt.Errorf("count appointments: %w", err)
		}
		args = append(args, q.PerPage, (q.Page-1)*q.PerPage)
		limit = fmt.Sprintf(" LIMIT $%d OFFSET $%d", len(args)-1, len(args))
	} else {
		args = append(args, 2000) // a day or a few weeks: bounded all the same
		limit = fmt.Sprintf(" LIMIT $%d", len(args))
	}
	columns := appointmentColumns
	if withDiagnoses {
		columns = appointmentColumnsWithContent
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT `+columns+appointmentFrom+` WHERE `+where+order+limit, args...)
	if err != nil {
		return res, fmt.Errorf("list appointments: %w", err)
	}
	defer rows.Close()
	res.Data = []Appointment{}
	var codes []string
	for rows.Next() {
		a, content, err := scanAppointment(rows)
		if err != nil {
			return res, err
		}
		if withDiagnoses && content != "" {
			var c Content
			if err := json.Unmarshal([]byte(content), &c); err != nil {
				return res, fmt.Errorf("visit %d: %w", a.ID, err)
			}
			a.Diagnoses = c.Diagnoses
			for _, d := range c.Diagnoses {
				if d.Code != "" {
					codes = append(codes, d.Code)
				}
			}
		}
		res.Data = append(res.Data, a)
	}
	if err := rows.Err(); err != nil {
		return res, err
	}
	rows.Close()
	if err := named(ctx, s.DB, res.Data); err != nil {
		return res, err
	}
	if res.Total == 0 {
		res.Total = len(res.Data)
	}
	if len(codes) > 0 {
		labels, err := s.Codes.Labels(ctx, s.DB, codes, lang)
		if err != nil {
			return res, err
		}
		for i := range res.Data {
			labelDiagnoses(res.Data[i].Diagnoses, labels)
		}
	}
	return res, nil
}

// DoctorDay counts a doctor's appointments of a day by status: one range of the
// (day, doctor_id) index.
func DoctorDay(ctx context.Context, q database.Querier, day string, doctorID int64) (map[string]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT status, COUNT(*) FROM appointments WHERE day = $1 AND doctor_id = $2 GROUP BY status`, day, doctorID)
	if err != nil {
		return nil, fmt.Errorf("count a doctor's day: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return nil, fmt.Errorf("count a doctor's day: %w", err)
		}
		out[status] = n
	}
	return out, rows.Err()
}

// Basics are what another domain checks of an appointment before writing on it.
type Basics struct {
	PatientID int64
	DoctorID  int64
	Type      string
	Status    string
	StartsAt  time.Time
}

// BasicsOf reads appointment id's basics; NotFound when there is none. Inside a writer's
// transaction, they are what the write sees.
func BasicsOf(ctx context.Context, q database.Querier, id int64) (Basics, error) {
	var b Basics
	err := q.QueryRowContext(ctx, `SELECT patient_id, doctor_id, type, status, starts_at FROM appointments WHERE id = $1`, id).
		Scan(&b.PatientID, &b.DoctorID, &b.Type, &b.Status, &b.StartsAt)
	if errors.Is(err, sql.ErrNoRows) {
		return b, apperr.NotFound("appointment.not_found")
	}
	if err != nil {
		return b, fmt.Errorf("read appointment: %w", err)
	}
	return b, nil
}

// EarlierOf lists the ids of a patient's appointments that start before t.
func EarlierOf(ctx context.Context, q database.Querier, patientID int64, t time.Time) ([]int64, error) {
	ids, err := database.Column[int64](q.QueryContext(ctx, `SELECT id FROM appointments WHERE patient_id = $1 AND starts_at < $2`, patientID, t))
	if err != nil {
		return nil, fmt.Errorf("list earlier appointments: %w", err)
	}
	return ids, nil
}
