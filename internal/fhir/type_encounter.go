package fhir

import (
	"net/http"
	"strconv"
	"time"

	"emr/internal/appointment"
	"emr/internal/auth"
)

// typeEncounter describes Encounter: who reads it, its search, its versions and its writes.
var typeEncounter = resourceType{
	kind:    "Encounter",
	reads:   []ReadRule{{"Encounter", "", []auth.Permission{auth.ViewAppointment}, "GET /api/appointments/{id}"}},
	params:  encounterParams,
	filters: encounterTokens,
	plan:    encounterPlan,
	action:  "encounter",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.appointments(func(rec appointment.Record) []Resource { return []Resource{toEncounter(rec.Appointment)} })}
	},
	// An Encounter is a walk-in visit: registered as the front desk registers one (booked
	// and arrived); starting or finishing it asks the diagnosis permission too (handler).
	write: &writable{need: auth.ManageAppointment, write: (*Handler).writeEncounter, announces: auth.ChangesAppointments},
}

// encounterPlan reads an Encounter search: visit records, by the appointment book's query
// (patient, date, ids, statuses).
func encounterPlan(h *Handler, _ *http.Request, q *query, coded bool) (searchPlan, error) {
	f, match, err := bookFilter(*q, systemEncounterStatus, encounterStatus)
	if err != nil {
		return searchPlan{}, err
	}
	return h.clinicalPlan(*q, f, match && coded, func(rec appointment.Record) []Resource { return []Resource{toEncounter(rec.Appointment)} }), nil
}

// bookFilter reads a search of the appointment book (Encounter, Appointment): the patient,
// the date and the ids of the visit records, and their statuses, codes of system the native
// statuses map to (mapping); match is false when nothing can match.
func bookFilter(q query, system string, mapping map[string]string) (f appointment.RecordFilter, match bool, err error) {
	if f, match, err = recordFilter(q, true); err != nil {
		return f, false, err
	}
	f.Statuses, match, err = nativeStatuses(q, system, mapping, match)
	return f, match, err
}

func toEncounter(a appointment.Appointment) Encounter {
	e := Encounter{
		base:    newBase("Encounter", strconv.FormatInt(a.ID, 10), a.Version, a.UpdatedAt),
		Status:  encounterStatus[a.Status],
		Class:   Coding{System: systemActCode, Code: "AMB", Display: "ambulatory"},
		Subject: ref("Patient", a.PatientID),
		Period:  &Period{Start: instant(a.StartsAt)},
	}
	if e.Status == "" {
		e.Status = "unknown"
	}
	if a.Type != "" {
		// The appointment book's own types (appointment.Types), coded so that type= finds them.
		e.Type = []CodeableConcept{{Coding: []Coding{{System: systemVisitType, Code: a.Type}}, Text: a.Type}}
	}
	doctor := ref("Practitioner", a.DoctorID)
	doctor.Display = a.DoctorName
	e.Participant = []Participant{{Individual: doctor}}
	if a.Status == appointment.Completed {
		e.Period.End = instant(a.StartsAt.Add(time.Duration(a.DurationMinutes) * time.Minute))
	}
	if a.Reason != "" {
		e.ReasonCode = []CodeableConcept{{Text: a.Reason}}
	}
	e.claim(profileEncounter, encounterConforms(e))
	return e
}

var encounterParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "date": kindDate, "status": kindToken, "class": kindToken, "type": kindToken,
}

// encounterTokens are Encounter's token parameters tested on the encounters built (status
// is the appointment book's query's: nativeStatuses).
var encounterTokens = map[string]tokenParam{
	"class": codingParam(func(res Resource) []Coding { return []Coding{res.(Encounter).Class} }, systemActCode),
	"type":  codingParam(func(res Resource) []Coding { return conceptCodings(res.(Encounter).Type...) }, systemVisitType),
}
