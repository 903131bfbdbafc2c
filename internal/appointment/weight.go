package appointment

import (
	"context"
	"encoding/json"
	"fmt"

	"emr/internal/database"
)

// Weight is a patient's weight in kg as a visit recorded it, and the day it was measured
// (the earlier visit's day when the vitals were copied forward and not measured again).
type Weight struct {
	Kg float64 `json:"kg"`
	On string  `json:"on"`
}

// LatestWeight is the patient's most recently measured weight on a visit of today (YYYY-MM-DD)
// or before; nil when no visit recorded one. A doctor doses a child by it (issue 59, item 6).
func LatestWeight(ctx context.Context, q database.Querier, patientID int64, today string) (*Weight, error) {
	rows, err := q.QueryContext(ctx, `SELECT a.day, v.content FROM visits v JOIN appointments a ON a.id = v.appointment_id
		WHERE v.patient_id = $1 AND a.day <= $2 ORDER BY a.day DESC, a.starts_at DESC, a.id DESC LIMIT 100`, patientID, today)
	if err != nil {
		return nil, fmt.Errorf("read weights: %w", err)
	}
	defer rows.Close()
	var best *Weight
	for rows.Next() {
		var day, content string
		if err := rows.Scan(&day, &content); err != nil {
			return nil, err
		}
		if best != nil && best.On >= day {
			break // no older visit measured later than the weight found
		}
		var c struct {
			Vitals           Vitals `json:"vitals"`
			VitalsCopiedFrom string `json:"vitals_copied_from"`
		}
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return nil, fmt.Errorf("visit content: %w", err)
		}
		if c.Vitals.Weight == nil {
			continue
		}
		on := day
		if c.VitalsCopiedFrom != "" && c.VitalsCopiedFrom < day {
			on = c.VitalsCopiedFrom // copied forward: measured that day
		}
		if best == nil || on > best.On {
			best = &Weight{Kg: *c.Vitals.Weight, On: on}
		}
	}
	return best, rows.Err()
}

// Measured is a visit's measured vitals and its day.
type Measured struct {
	On     string
	Vitals Vitals
}

// MeasuredVitals are the vitals measured at a patient's completed or signed visits, oldest
// first, leaving out vitals copied forward from an earlier visit (that visit's own row holds
// them): a child's growth is read from them (issue 59, item 5).
func MeasuredVitals(ctx context.Context, q database.Querier, patientID int64) ([]Measured, error) {
	rows, err := q.QueryContext(ctx, `SELECT a.day, v.content FROM visits v JOIN appointments a ON a.id = v.appointment_id
		WHERE v.patient_id = $1 AND (v.status = 'signed' OR a.status = 'completed') ORDER BY a.day, a.starts_at, a.id`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read visits: %w", err)
	}
	defer rows.Close()
	out := []Measured{}
	for rows.Next() {
		var day, content string
		if err := rows.Scan(&day, &content); err != nil {
			return nil, err
		}
		var c struct {
			Vitals           Vitals `json:"vitals"`
			VitalsCopiedFrom string `json:"vitals_copied_from"`
		}
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return nil, fmt.Errorf("visit content: %w", err)
		}
		if c.VitalsCopiedFrom == "" {
			out = append(out, Measured{On: day, Vitals: c.Vitals})
		}
	}
	return out, rows.Err()
}
