package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
)

// OrderToCharge is a lab order of a day's visit the desk should act on: ordered and not
// charged on the visit's bill (Problem "not_charged"; Linked false: no price-list service is
// linked to its test), or withdrawn before its specimen was taken and still charged
// ("cancelled_charged": a refund or a removal to make, until the refund credits its line).
type OrderToCharge struct {
	AppointmentID int64      `json:"appointment_id"`
	StartsAt      time.Time  `json:"starts_at"`
	Patient       PatientRef `json:"patient"`
	Doctor        string     `json:"doctor"`
	// BillID is the visit's bill in force, where the desk acts (nil: the visit has none yet).
	BillID  *int64 `json:"bill_id"`
	Problem string `json:"problem"`
	OrderCharge
}

// worklistVisits bounds the visits of one day the worklist reads.
const worklistVisits = 2000

// OrdersToCharge lists the orders of clinic day day's visits that are not charged, or
// withdrawn and still charged, in visit order, labels in lang: the desk's day list (ADR 41),
// so an order placed after the patient paid and left, or cancelled after payment, is seen.
func (s *Store) OrdersToCharge(ctx context.Context, day, lang string) ([]OrderToCharge, error) {
	out := []OrderToCharge{}
	from, err := time.ParseInLocation(time.DateOnly, day, s.loc())
	if err != nil {
		var v apperr.Validation
		v.Add("day", "validation.date_format")
		return out, v.Err()
	}
	to := from.AddDate(0, 0, 1)
	visits, err := appointment.RecordsIn(ctx, s.DB, appointment.RecordFilter{From: &from, To: &to, WithVisit: true, Limit: worklistVisits})
	if err != nil {
		return out, err
	}
	if s.Ordered != nil && len(visits) > 0 {
		ids := make([]int64, len(visits))
		for i, a := range visits {
			ids[i] = a.ID
		}
		ordered, err := s.Ordered(ctx, ids)
		if err != nil {
			return out, err
		}
		has := make(map[int64]bool, len(ordered))
		for _, id := range ordered {
			has[id] = true
		}
		visits = slices.DeleteFunc(visits, func(a appointment.Record) bool { return !has[a.ID] })
	}
	var patients []int64
	for _, a := range visits {
		charges, err := s.OrdersOf(ctx, a.ID, lang)
		if err != nil {
			return out, err
		}
		var bill *int64
		for _, o := range charges.Orders {
			problem := ""
			switch {
			case o.Withdrawn && o.LineID != nil && !o.Collected && !o.ZeroPrice:
				// Withdrawn before collection and not yet credited: a refund or a removal to
				// make. A specimen taken keeps its charge; a refunded line is settled (M2).
				problem = "cancelled_charged"
			case !o.Withdrawn && (o.LineID == nil || o.ZeroPrice):
				problem = "not_charged"
			default:
				continue
			}
			if bill == nil {
				if bill, err = s.billInForce(ctx, a.ID); err != nil {
					return out, err
				}
			}
			out = append(out, OrderToCharge{AppointmentID: a.ID, StartsAt: a.StartsAt, Patient: PatientRef{ID: a.PatientID},
				Doctor: a.DoctorName, BillID: bill, Problem: problem, OrderCharge: o})
			patients = append(patients, a.PatientID)
		}
	}
	refs, err := patientRefs(ctx, s.DB, patients)
	for i := range out {
		out[i].Patient = refs[out[i].Patient.ID]
	}
	return out, err
}

// billInForce answers the id of visit appointmentID's bill not void, nil when it has none.
func (s *Store) billInForce(ctx context.Context, appointmentID int64) (*int64, error) {
	var id int64
	err := s.DB.QueryRowContext(ctx, `SELECT id FROM bills WHERE appointment_id = $1 AND status <> 'void' ORDER BY id DESC LIMIT 1`, appointmentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read bill: %w", err)
	}
	return &id, nil
}
