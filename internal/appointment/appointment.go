// Package appointment keeps the clinic's appointments (visits): booking without double
// booking, the day's queue per doctor, the week calendar, the status of each visit, and the
// diagnosis form filled in during it (vitals, findings, coded diagnoses, orders, plan),
// which is signed and afterwards only amended.
package appointment

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
)

// Statuses of an appointment.
const (
	Booked     = "booked"
	Arrived    = "arrived"
	InProgress = "in-progress"
	Completed  = "completed"
	Cancelled  = "cancelled"
	NoShow     = "no-show"
)

// Types of appointment.
var Types = []string{"new", "follow-up", "walk-in"}

// Durations bound an appointment's length in minutes.
const (
	MinDuration = 5
	MaxDuration = 240
)

// Action is a status change that a route performs.
type Action struct {
	Name string   // as in the route and the audit log: "arrive", "start", …
	From []string // the statuses it may start from
	To   string
	// NotAllowedKey is the message when the appointment's status is not one of From.
	NotAllowedKey string
}

// The status changes: booked → arrived → in-progress → completed, or cancelled / no-show.
var (
	Arrive     = Action{"arrive", []string{Booked}, Arrived, "appointment.cannot_arrive"}
	Start      = Action{"start", []string{Arrived}, InProgress, "appointment.cannot_start"}
	Complete   = Action{"complete", []string{InProgress}, Completed, "appointment.cannot_complete"}
	Cancel     = Action{"cancel", []string{Booked, Arrived}, Cancelled, "appointment.cannot_cancel"}
	MarkNoShow = Action{"no-show", []string{Booked}, NoShow, "appointment.cannot_no_show"}
)

// Allowed reports whether the action may start from status.
func (a Action) Allowed(status string) bool { return slices.Contains(a.From, status) }

// PatientRef is the patient as queue and calendar rows show them.
type PatientRef struct {
	MRN        string `json:"mrn"`
	FirstName  string `json:"first_name"`
	MiddleName string `json:"middle_name"`
	LastName   string `json:"last_name"`
	Sex        string `json:"sex"`
	BirthDate  string `json:"birth_date"`
}

// Appointment is a stored appointment with the names its screens show.
type Appointment struct {
	ID              int64      `json:"id"`
	PatientID       int64      `json:"patient_id"`
	Patient         PatientRef `json:"patient"`
	DoctorID        int64      `json:"doctor_id"`
	DoctorName      string     `json:"doctor_name"`
	StartsAt        time.Time  `json:"starts_at"`
	DurationMinutes int        `json:"duration_minutes"`
	Day             string     `json:"day"`
	QueueNumber     int        `json:"queue_number"`
	Type            string     `json:"type"`
	Reason          string     `json:"reason"`
	Remarks         string     `json:"remarks"`
	Status          string     `json:"status"`
	CancelReason    string     `json:"cancel_reason"`
	FollowUpOf      *int64     `json:"follow_up_of"`
	// ConfirmedAt is when the patient confirmed it from a message's link (nil: not yet, or
	// not since it was last moved).
	ConfirmedAt *time.Time `json:"confirmed_at"`
	// VisitStatus is the diagnosis form's state: "" (none yet), "draft" or "signed".
	VisitStatus string `json:"visit_status"`
	// Diagnoses are listed only for callers who may read visits.
	Diagnoses []Diagnosis `json:"diagnoses,omitempty"`
	CreatedAt time.Time   `json:"created_at"`
	UpdatedAt time.Time   `json:"updated_at"`
	Version   int         `json:"version"`
}

// Input is what booking or rescheduling writes.
type Input struct {
	PatientID       int64  `json:"patient_id"`
	DoctorID        int64  `json:"doctor_id"`
	StartsAt        string `json:"starts_at"`
	DurationMinutes int    `json:"duration_minutes"`
	Type            string `json:"type"`
	Reason          string `json:"reason"`
	Remarks         string `json:"remarks"`
}

// Clean trims and checks the input; today is the clinic's current date in loc. It returns
// the parsed start time.
func (in *Input) Clean(loc *time.Location, today string) (time.Time, error) {
	in.Reason, in.Remarks, in.Type = strings.TrimSpace(in.Reason), strings.TrimSpace(in.Remarks), strings.TrimSpace(in.Type)
	var v apperr.Validation
	if in.PatientID <= 0 {
		v.Add("patient_id", "validation.required")
	}
	if in.DoctorID <= 0 {
		v.Add("doctor_id", "validation.required")
	}
	var start time.Time
	if in.StartsAt == "" {
		v.Add("starts_at", "validation.required")
	} else if t, err := time.Parse(time.RFC3339, in.StartsAt); err != nil {
		v.Add("starts_at", "validation.datetime_format")
	} else {
		start = t.UTC().Truncate(time.Minute)
		if t.In(loc).Format(time.DateOnly) < today {
			v.Add("starts_at", "appointment.in_the_past")
		}
	}
	if in.DurationMinutes < MinDuration || in.DurationMinutes > MaxDuration {
		v.Add("duration_minutes", "appointment.bad_duration")
	}
	if in.Type == "" {
		v.Add("type", "validation.required")
	} else if !slices.Contains(Types, in.Type) {
		v.Add("type", "validation.invalid_choice")
	}
	if utf8.RuneCountInString(in.Reason) > 500 {
		v.Add("reason", "validation.too_long")
	}
	if utf8.RuneCountInString(in.Remarks) > 1000 {
		v.Add("remarks", "validation.too_long")
	}
	return start, v.Err()
}
