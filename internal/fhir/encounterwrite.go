package fhir

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/auth"
)

// ---- Encounter: a visit the patient has come to, registered in the appointment book ----
//
// An Encounter is an appointment the patient arrived at (ADR 35): one POSTed is a walk-in
// registered as the front desk registers it — booked with the doctor for its period, then
// arrived, and, when the Encounter says so, started and finished (each change audited as the
// app's own). A visit still to come is an Appointment, not an Encounter.

// encounterIn is an Encounter as a client writes it: only what the writer reads.
type encounterIn struct {
	ResourceType string            `json:"resourceType"`
	ID           string            `json:"id"`
	Meta         json.RawMessage   `json:"meta"`
	Text         json.RawMessage   `json:"text"`
	Status       string            `json:"status"`
	Class        Coding            `json:"class"`
	Type         []CodeableConcept `json:"type"`
	Subject      *Reference        `json:"subject"`
	Participant  []Participant     `json:"participant"`
	Period       *Period           `json:"period"`
	ReasonCode   []CodeableConcept `json:"reasonCode"`
}

// WalkInMinutes is a visit's length when its Encounter gives no end.
const WalkInMinutes = 15

// encounterArrivals are the statuses an Encounter is registered in, as the book's.
var encounterArrivals = map[string]string{"arrived": appointment.Arrived, "in-progress": appointment.InProgress, "finished": appointment.Completed}

// encounterActions are the status changes an Encounter update may make.
// (An arrived visit is cancelled in the app, with its reason, which Encounter does not carry.)
var encounterActions = map[string]appointment.Action{"in-progress": appointment.Start, "finished": appointment.Complete}

// clinical are the statuses the doctor's part of a visit starts: only whoever writes the
// diagnosis may start or complete a visit, as in the app.
var clinical = map[string]bool{appointment.InProgress: true, appointment.Completed: true}

var encounterFields = map[string]string{
	"patient_id": "Encounter.subject", "doctor_id": "Encounter.participant", "starts_at": "Encounter.period.start",
	"duration_minutes": "Encounter.period.end", "type": "Encounter.type", "reason": "Encounter.reasonCode",
}

// encounterInput reads a written Encounter onto the book's input; minutes is the length
// when it gives no end; dropped notes a reason's codes the book does not keep.
func encounterInput(e encounterIn, minutes int, dropped *notes) (appointment.Input, error) {
	var in appointment.Input
	if e.ResourceType != "Encounter" {
		return in, invalid("fhir.wrong_resource_type", "resourceType", "Encounter")
	}
	if e.Class.Code != "AMB" || (e.Class.System != "" && e.Class.System != systemActCode) {
		return in, invalid("fhir.encounter_class", "Encounter.class")
	}
	if e.Subject != nil {
		in.PatientID = idOf(e.Subject.Reference, "Patient")
	}
	if len(e.Participant) == 1 && e.Participant[0].Individual != nil {
		in.DoctorID = idOf(e.Participant[0].Individual.Reference, "Practitioner")
	}
	if in.PatientID == 0 || in.DoctorID == 0 {
		return in, invalid("fhir.encounter_participants", "Encounter.participant")
	}
	if e.Period == nil || e.Period.Start == "" {
		return in, invalid("fhir.bad_date", "Encounter.period.start", "period.start")
	}
	start, err := time.Parse(time.RFC3339Nano, e.Period.Start)
	if err != nil {
		return in, invalid("fhir.bad_date", "Encounter.period.start", "period.start")
	}
	in.StartsAt, in.DurationMinutes = start.UTC().Format(time.RFC3339), minutes
	if e.Period.End != "" {
		end, err := time.Parse(time.RFC3339Nano, e.Period.End)
		if err != nil {
			return in, invalid("fhir.bad_date", "Encounter.period.end", "period.end")
		}
		if end.Before(start) {
			// per-1: a period's start is not after its end.
			return in, &Error{Status: http.StatusUnprocessableEntity, Code: "invariant", Key: "fhir.encounter_period_order",
				Args: []any{e.Period.End, e.Period.Start}, Expression: "Encounter.period.end"}
		}
		in.DurationMinutes = int(end.Sub(start) / time.Minute)
	}
	in.Type = "walk-in"
	switch {
	case len(e.Type) > 1:
		return in, invalid("fhir.one_value", "Encounter.type", "type")
	case len(e.Type) == 1:
		in.Type = conceptText(e.Type[0]) // the book checks it is one of its types
	}
	switch {
	case len(e.ReasonCode) > 1:
		return in, invalid("fhir.one_reason", "Encounter.reasonCode")
	case len(e.ReasonCode) == 1:
		in.Reason = reasonText(e.ReasonCode[0], "Encounter.reasonCode[0]", dropped)
	}
	return in, nil
}

// idOf is the id of a reference to kind ("Patient/12"), 0 when it is not one.
func idOf(reference, kind string) int64 {
	id, ok := strings.CutPrefix(reference, kind+"/")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// writeEncounter registers a walk-in visit (id "") or changes one inside tx: a change of
// status is the book's status change (start, complete, cancel), any other change the
// visit's time, doctor, type or reason, while the book allows it.
func (h *Handler) writeEncounter(r *http.Request, tx *sql.Tx, data []byte, id string, c conditions) (written, error) {
	var in encounterIn
	var dropped notes
	if err := decodeResource(data, "Encounter", &in, &dropped); err != nil {
		return written{}, err
	}
	p, e := auth.PrincipalFrom(r.Context()), auth.AuditEvent(r)
	if id == "" {
		if in.ID != "" {
			return written{}, invalid("fhir.id_on_create", "Encounter.id")
		}
		status, ok := encounterArrivals[in.Status]
		if !ok {
			return written{}, invalid("fhir.encounter_status", "Encounter.status")
		}
		if clinical[status] && !p.MayFHIR(auth.WriteDiagnosis) {
			return written{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.encounter_clinical", Expression: "Encounter.status"}
		}
		input, err := encounterInput(in, WalkInMinutes, &dropped)
		if err != nil {
			return written{}, err
		}
		if status == appointment.Completed {
			return h.recordVisit(r, tx, input, in.Period.Start, dropped)
		}
		a, err := h.Visits.CreateVisitIn(r.Context(), tx, e, input, status)
		if err != nil {
			return written{}, renameFields(err, encounterFields)
		}
		return written{res: toEncounter(a), status: http.StatusCreated, dropped: dropped}, nil
	}
	aid, version, old, err := h.updated(r, tx, "Encounter", id, in.ID, c)
	if err != nil {
		return written{}, err
	}
	var a appointment.Appointment
	if in.Status != encounterStatus[old.Status] {
		act, ok := encounterActions[in.Status]
		if !ok {
			return written{}, invalid("fhir.encounter_status", "Encounter.status")
		}
		if clinical[act.To] && !p.MayFHIR(auth.WriteDiagnosis) {
			return written{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.encounter_clinical", Expression: "Encounter.status"}
		}
		a, err = h.Visits.TransitionIn(r.Context(), tx, e, aid, act, version, "")
	} else {
		input, ierr := encounterInput(in, old.DurationMinutes, &dropped)
		if ierr != nil {
			return written{}, ierr
		}
		if input.PatientID != old.PatientID {
			return written{}, invalid("fhir.vital_subject", "Encounter.subject")
		}
		a, err = h.Visits.UpdateIn(r.Context(), tx, e, aid, version, input)
	}
	if err != nil {
		return written{}, versionConflict(renameFields(err, encounterFields), version)
	}
	return written{res: toEncounter(a), status: http.StatusOK, dropped: dropped}, nil
}

// recordVisit registers a finished Encounter: a visit that has happened, on its own day
// however long ago (never one still to begin), left in progress for what was measured at it
// to be written under the visit's rules — a transaction's vital signs that reference it —
// and completed once they are (finishVisit): at once for a write on its own.
func (h *Handler) recordVisit(r *http.Request, tx *sql.Tx, input appointment.Input, start string, dropped notes) (written, error) {
	now := time.Now
	if h.Visits.Now != nil {
		now = h.Visits.Now // the book's clock
	}
	if at, err := time.Parse(time.RFC3339, input.StartsAt); err == nil && at.After(now()) {
		return written{}, &Error{Status: http.StatusUnprocessableEntity, Code: "business-rule", Key: "fhir.encounter_finished_future",
			Args: []any{start}, Expression: "Encounter.period.start"}
	}
	if err := h.bornBy(r, tx, input); err != nil {
		return written{}, err
	}
	a, err := h.Visits.RecordVisitIn(r.Context(), tx, auth.AuditEvent(r), input)
	if err != nil {
		return written{}, renameFields(err, encounterFields)
	}
	return written{res: toEncounter(a), status: http.StatusCreated, dropped: dropped, finishing: a.ID}, nil
}

// bornBy refuses a visit recorded on a day before its patient was born: however long ago a
// visit may be recorded (a register moved from another system), it happened in the patient's
// life. The patient is read in tx: a transaction's new patient is not yet seen outside it.
func (h *Handler) bornBy(r *http.Request, tx *sql.Tx, input appointment.Input) error {
	at, err := time.Parse(time.RFC3339, input.StartsAt)
	if err != nil {
		return nil // the book refuses a start it cannot read
	}
	p, err := h.Patients.GetIn(r.Context(), tx, input.PatientID)
	if err != nil {
		return nil // the book refuses a patient it does not have
	}
	birth := p.BirthDate
	if h.Visits.Loc != nil {
		at = at.In(h.Visits.Loc)
	}
	if day := at.Format(time.DateOnly); day < birth[:min(len(birth), 10)] {
		return &Error{Status: http.StatusUnprocessableEntity, Code: "business-rule", Key: "fhir.encounter_before_birth",
			Args: []any{day, birth}, Expression: "Encounter.period.start"}
	}
	return nil
}

// finishVisit completes, inside tx, the visit a finished Encounter's create left in progress
// (written.finishing), as the doctor completes one, and answers the write as finished.
func (h *Handler) finishVisit(r *http.Request, tx *sql.Tx, out written) (written, error) {
	if out.finishing == 0 {
		return out, nil
	}
	a, err := h.Visits.TransitionIn(r.Context(), tx, auth.AuditEvent(r), out.finishing, appointment.Complete, 0, "")
	if err != nil {
		return written{}, renameFields(err, encounterFields)
	}
	out.res, out.finishing = toEncounter(a), 0
	return out, nil
}
