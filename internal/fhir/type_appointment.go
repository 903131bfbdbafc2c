package fhir

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"emr/internal/appointment"
	"emr/internal/auth"
)

// typeAppointment describes Appointment: who reads it, its search, its versions and its writes.
var typeAppointment = resourceType{
	kind:    "Appointment",
	reads:   []ReadRule{{"Appointment", "", []auth.Permission{auth.ViewAppointment}, "GET /api/appointments/{id}"}},
	params:  appointmentParams,
	filters: map[string]tokenParam{},
	plan:    appointmentPlan,
	action:  "appointment",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.appointments(func(rec appointment.Record) []Resource { return []Resource{toAppointment(rec.Appointment)} })}
	},
	write: &writable{need: auth.ManageAppointment, write: (*Handler).writeAppointment, announces: auth.ChangesAppointments},
}

// appointmentPlan reads an Appointment search: the appointment book's query (patient, date,
// ids, statuses), the doctor tested on the appointments built.
func appointmentPlan(h *Handler, _ *http.Request, q *query, _ bool) (searchPlan, error) {
	f, match, err := bookFilter(*q, systemAppointmentStatus, appointmentStatus)
	if err != nil {
		return searchPlan{}, err
	}
	var doctor int64
	for _, name := range []string{"practitioner", "actor"} {
		d, err := q.reference(name, "Practitioner")
		if err != nil {
			return searchPlan{}, err
		}
		if d != 0 {
			doctor = d
		}
	}
	if doctor > 0 {
		actor := ref("Practitioner", doctor)
		q.test(func(res Resource) bool {
			return slices.ContainsFunc(res.(Appointment).Participant, func(p AppointmentParticipant) bool { return p.Actor != nil && p.Actor.Reference == actor.Reference })
		})
	}
	expand := func(rec appointment.Record) []Resource { return []Resource{toAppointment(rec.Appointment)} }
	return h.clinicalPlan(*q, f, match && doctor >= 0, expand), nil
}

func toAppointment(a appointment.Appointment) Appointment {
	out := Appointment{
		base:   newBase("Appointment", strconv.FormatInt(a.ID, 10), a.Version, a.UpdatedAt),
		Status: appointmentStatus[a.Status], Start: instant(a.StartsAt), End: instant(a.StartsAt.Add(time.Duration(a.DurationMinutes) * time.Minute)),
		MinutesDuration: a.DurationMinutes, Comment: a.Remarks,
	}
	if out.Status == "" {
		out.Status = "booked"
	}
	if a.Type != "" {
		out.AppointmentType = &CodeableConcept{Text: a.Type}
	}
	if a.Reason != "" {
		out.ReasonCode = []CodeableConcept{{Text: a.Reason}}
	}
	if a.CancelReason != "" {
		out.CancelationReason = &CodeableConcept{Text: a.CancelReason}
	}
	doctor := ref("Practitioner", a.DoctorID)
	doctor.Display = a.DoctorName
	out.Participant = []AppointmentParticipant{{Actor: ref("Patient", a.PatientID), Status: "accepted"}, {Actor: doctor, Status: "accepted"}}
	return out
}

var appointmentParams = map[string]paramKind{"patient": kindReference, "date": kindDate, "status": kindToken, "practitioner": kindReference, "actor": kindReference}

// Appointment is a booking.
type Appointment struct {
	base
	Status            string                   `json:"status"`
	CancelationReason *CodeableConcept         `json:"cancelationReason,omitempty"`
	AppointmentType   *CodeableConcept         `json:"appointmentType,omitempty"`
	ReasonCode        []CodeableConcept        `json:"reasonCode,omitempty"`
	Start             string                   `json:"start"`
	End               string                   `json:"end"`
	MinutesDuration   int                      `json:"minutesDuration,omitempty"`
	Comment           string                   `json:"comment,omitempty"`
	Participant       []AppointmentParticipant `json:"participant"`
}

// AppointmentParticipant is the patient or the doctor of an appointment.
type AppointmentParticipant struct {
	Actor  *Reference `json:"actor,omitempty"`
	Status string     `json:"status"`
}

var appointmentStatus = map[string]string{
	appointment.Booked: "booked", appointment.Arrived: "arrived", appointment.InProgress: "checked-in",
	appointment.Completed: "fulfilled", appointment.Cancelled: "cancelled", appointment.NoShow: "noshow",
}
