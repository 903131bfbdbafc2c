package result

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"emr/internal/apperr"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
)

// Point is one result of a trend: when the specimen was taken, the canonical value (or the
// coded answer), its flags, and the range that applied to it.
type Point struct {
	OrderID    int64     `json:"order_id"`
	ObservedAt time.Time `json:"observed_at"`
	Value      *string   `json:"value"`
	Comparator string    `json:"comparator"`
	Answer     string    `json:"answer"`
	Flag       string    `json:"flag"`
	Delta      string    `json:"delta"`
	Range      Range     `json:"range"`
	Status     string    `json:"status"`
}

// Trend is one analyte of one patient over time, with what the chart needs to draw it:
// the canonical unit, the other units it may be shown in, and today's range for the patient
// (the shaded band).
type Trend struct {
	Analyte catalogue.Analyte `json:"analyte"`
	Band    *Band             `json:"band"`
	Points  []Point           `json:"points"`
}

// Band is today's reference interval of the patient (nil bounds: none) and the analyte's
// critical limits at their age; Note as Range's.
type Band struct {
	Low          *float64 `json:"low"`
	High         *float64 `json:"high"`
	CriticalLow  *float64 `json:"critical_low"`
	CriticalHigh *float64 `json:"critical_high"`
	Note         string   `json:"note"`
}

// MaxTrendPoints bounds a trend: a chart of more points than this is unreadable anyway.
const MaxTrendPoints = 2000

// Trend reads patient id's current results of analyte from from on, oldest first. One
// index range (lab_results_trend) serves it.
func (s *Store) Trend(ctx context.Context, patientID int64, analyte string, from time.Time, lang string) (Trend, error) {
	var t Trend
	a, err := catalogue.ReadAnalyte(ctx, s.DB, analyte, lang)
	if err != nil {
		return t, err
	}
	t.Analyte, t.Points = a, []Point{}
	people, err := patient.Summaries(ctx, s.DB, []int64{patientID})
	if err != nil {
		return t, err
	}
	pt, ok := people[patientID]
	if !ok {
		return t, apperr.NotFound("patient.not_found")
	}
	months := -1
	if birth, err := time.Parse(time.DateOnly, pt.BirthDate); err == nil {
		months = catalogue.MonthsOld(birth, s.now())
	}
	if a.Type == catalogue.Numeric {
		l := a.LimitsFor(pt.Sex, months)
		t.Band = &Band{Low: l.Low, High: l.High, CriticalLow: l.CriticalLow, CriticalHigh: l.CriticalHigh, Note: l.Note}
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT order_id, observed_at, value, comparator, answer, flag, delta, range_low, range_high,
		critical_low, critical_high, range_source, range_note, status FROM lab_results
		WHERE patient_id = $1 AND analyte = $2 AND observed_at >= $3 AND is_current = 1 AND `+standing+` ORDER BY observed_at, id LIMIT $4`,
		patientID, analyte, from, MaxTrendPoints)
	if err != nil {
		return t, err
	}
	defer rows.Close()
	for rows.Next() {
		var p Point
		if err := rows.Scan(&p.OrderID, &p.ObservedAt, &p.Value, &p.Comparator, &p.Answer, &p.Flag, &p.Delta, &p.Range.Low, &p.Range.High,
			&p.Range.CriticalLow, &p.Range.CriticalHigh, &p.Range.Source, &p.Range.Note, &p.Status); err != nil {
			return t, err
		}
		t.Points = append(t.Points, p)
	}
	return t, rows.Err()
}

// Latest is a patient's most recent current result of one analyte.
type Latest struct {
	Analyte    string    `json:"analyte"`
	Value      string    `json:"value"`
	Unit       string    `json:"unit"`
	ObservedAt time.Time `json:"observed_at"`
}

// LatestOf reads patient id's most recent current results of the analytes named (codes as
// the catalogue writes them); an analyte without one is left out. One index range
// (lab_results_trend) each.
func (s *Store) LatestOf(ctx context.Context, patientID int64, analytes []string, lang string) ([]Latest, error) {
	out := []Latest{}
	for _, code := range analytes {
		a, err := catalogue.ReadAnalyte(ctx, s.DB, code, lang)
		if err != nil {
			if errors.Is(err, apperr.ErrNotFound) {
				continue
			}
			return nil, err
		}
		var l Latest
		var value, answer sql.NullString
		err = s.DB.QueryRowContext(ctx, `SELECT value, answer, observed_at FROM lab_results
			WHERE patient_id = $1 AND analyte = $2 AND is_current = 1 AND `+standing+` ORDER BY observed_at DESC, id DESC LIMIT 1`,
			patientID, a.Code).Scan(&value, &answer, &l.ObservedAt)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read latest result: %w", err)
		}
		l.Analyte, l.ObservedAt = a.Code, l.ObservedAt.UTC()
		if value.Valid {
			l.Value, l.Unit = value.String, a.Unit
		} else {
			l.Value = answer.String
		}
		out = append(out, l)
	}
	return out, nil
}

// HasResults tells whether a result of analyte was ever recorded (current or not): its
// values are stored in the analyte's canonical unit, which is then fixed.
func (s *Store) HasResults(ctx context.Context, q database.Querier, analyte string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM lab_results WHERE analyte = $1 LIMIT 1) x`, analyte).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read results of %s: %w", analyte, err)
	}
	return n > 0, nil
}
