package fhir

import (
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/i18n"
)

// ---- Observation (vital signs): written into the visit's vitals ----

// observationIn is a vital-sign Observation as a client writes it: only what the writer
// reads, so that every other element is named as dropped (or, for a modifier, refuses the
// write) rather than silently ignored. Its meta and narrative are the server's own.
type observationIn struct {
	ResourceType string            `json:"resourceType"`
	ID           string            `json:"id"`
	Meta         json.RawMessage   `json:"meta"`
	Text         json.RawMessage   `json:"text"`
	Status       string            `json:"status"`
	Category     []CodeableConcept `json:"category"`
	Code         *CodeableConcept  `json:"code"`
	Subject      *Reference        `json:"subject"`
	Encounter    *Reference        `json:"encounter"`
	// Read to be compared with the visit's own (notKept).
	EffectiveDateTime string              `json:"effectiveDateTime"`
	Interpretation    []CodeableConcept   `json:"interpretation"`
	Value             *quantityIn         `json:"valueQuantity"`
	Component         []observationPartIn `json:"component"`
}

// observationPartIn is a written component (blood pressure's two pressures).
type observationPartIn struct {
	Code  *CodeableConcept `json:"code"`
	Value *quantityIn      `json:"valueQuantity"`
}

// quantityIn is a written measurement. Its comparator is read to be refused: a censored
// value ("< 40") is not a measurement the visit can keep.
type quantityIn struct {
	Value      float64 `json:"value"`
	Comparator string  `json:"comparator"`
	Unit       string  `json:"unit"`
	System     string  `json:"system"`
	Code       string  `json:"code"`
}

// vitalStatuses are the statuses a written vital sign may have: a result, as the visit keeps
// it. One that says there is no value (registered, cancelled, unknown) or that the value is
// wrong (entered-in-error) is refused: a vital is corrected by writing the right value.
var vitalStatuses = map[string]bool{"": true, "preliminary": true, "final": true, "amended": true, "corrected": true}

// observationRules checks what the writer reads beyond the measurement: the status, and a
// category other than vital-signs, which the server does not keep (it writes its own).
func observationRules(in observationIn, dropped *notes) error {
	if !vitalStatuses[in.Status] {
		return &Error{Status: http.StatusUnprocessableEntity, Code: "not-supported", Key: "fhir.vital_status", Args: []any{in.Status}, Expression: "Observation.status"}
	}
	for i, c := range in.Category {
		for j, x := range c.Coding {
			if x.System != vitalSigns[0].Coding[0].System || x.Code != vitalSigns[0].Coding[0].Code {
				dropped.drop("not-supported", "Observation.category["+strconv.Itoa(i)+"].coding["+strconv.Itoa(j)+"]", "")
			}
		}
	}
	return nil
}

// unitConversions turns a measurement written in another UCUM unit into the one the visit
// keeps: pounds to kilograms, inches to centimetres, Fahrenheit to Celsius.
var unitConversions = map[string]map[string]func(float64) float64{
	"kg":  {"[lb_av]": func(x float64) float64 { return x * 0.45359237 }, "g": func(x float64) float64 { return x / 1000 }},
	"cm":  {"[in_i]": func(x float64) float64 { return x * 2.54 }, "m": func(x float64) float64 { return x * 100 }},
	"Cel": {"[degF]": func(x float64) float64 { return (x - 32) * 5 / 9 }},
}

// measured reads a quantity in the unit the visit keeps, converting from another UCUM unit
// of the same dimension; a quantity without a UCUM code, or in another dimension, is refused.
func measured(q *quantityIn, ucum, expression string) (float64, error) {
	if q == nil {
		return 0, invalid("fhir.vital_value", expression)
	}
	if q.Comparator != "" {
		return 0, &Error{Status: http.StatusUnprocessableEntity, Code: "not-supported", Key: "fhir.vital_comparator", Args: []any{q.Comparator}, Expression: expression + ".comparator"}
	}
	if q.System != systemUCUM {
		return 0, invalid("fhir.vital_unit", expression+".system", ucum)
	}
	if q.Code == ucum {
		return q.Value, nil
	}
	if convert, ok := unitConversions[ucum][q.Code]; ok {
		return math.Round(convert(q.Value)*10) / 10, nil
	}
	return 0, invalid("fhir.vital_unit", expression+".code", ucum)
}

// applyVital sets on v the measurement an Observation carries; it answers the id's part.
func applyVital(o observationIn, v *appointment.Vitals) (string, error) {
	if o.ResourceType != "Observation" {
		return "", invalid("fhir.wrong_resource_type", "resourceType", "Observation")
	}
	if o.Code == nil {
		return "", invalid("fhir.vital_code", "Observation.code")
	}
	codes := map[string]bool{}
	for _, c := range o.Code.Coding {
		if c.System == systemLOINC {
			codes[c.Code] = true
		}
	}
	// An SpO2 sent by its pulse-oximetry code alone is the same measurement (the API writes both).
	codes["2708-6"] = codes["2708-6"] || codes[pulseOximetry.Code]
	switch {
	case codes["85354-9"]:
		var sys, dia *float64
		for i, comp := range o.Component {
			expr := "Observation.component[" + strconv.Itoa(i) + "].valueQuantity"
			for _, c := range comp.Code.Coding {
				if c.System != systemLOINC || (c.Code != "8480-6" && c.Code != "8462-4") {
					continue
				}
				x, err := measured(comp.Value, "mm[Hg]", expr)
				if err != nil {
					return "", err
				}
				if c.Code == "8480-6" {
					sys = &x
				} else {
					dia = &x
				}
			}
		}
		if sys == nil || dia == nil {
			return "", invalid("fhir.vital_bp", "Observation.component")
		}
		v.BPSystolic, v.BPDiastolic = sys, dia
		return "bp", nil
	case codes["39156-5"], codes[bmiPercentile]:
		return "", invalid("fhir.vital_bmi", "Observation.code")
	}
	for _, m := range vitals {
		if !codes[m.loinc] || m.part == "bmi" {
			continue
		}
		x, err := measured(o.Value, m.ucum, "Observation.valueQuantity")
		if err != nil {
			return "", err
		}
		switch m.part {
		case "hr":
			v.HeartRate = &x
		case "rr":
			v.RespRate = &x
		case "temp":
			v.Temperature = &x
		case "spo2":
			v.SpO2 = &x
		case "weight":
			v.Weight = &x
		case "height":
			v.Height = &x
		case "head":
			v.HeadCirc = &x
		}
		return m.part, nil
	}
	return "", invalid("fhir.vital_code", "Observation.code")
}

// writeObservation records one vital sign of a visit inside tx: a new one (id "") or the
// one with id, at the visit's version (If-Match for an update). The visit's own rules
// decide: its ranges, a visit arrived or in progress only, a signed visit amended in the web
// app.
func (h *Handler) writeObservation(r *http.Request, tx *sql.Tx, data []byte, id string, c conditions) (written, error) {
	var in observationIn
	var dropped notes
	if err := decodeResource(data, "Observation", &in, &dropped); err != nil {
		return written{}, err
	}
	if err := observationRules(in, &dropped); err != nil {
		return written{}, err
	}
	if in.Encounter == nil || !strings.HasPrefix(in.Encounter.Reference, "Encounter/") {
		return written{}, invalid("fhir.vital_encounter", "Observation.encounter")
	}
	visitID, err := strconv.ParseInt(strings.TrimPrefix(in.Encounter.Reference, "Encounter/"), 10, 64)
	if err != nil {
		return written{}, invalid("fhir.vital_encounter", "Observation.encounter")
	}
	visit, err := appointment.BasicsOf(r.Context(), tx, visitID)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = invalid("fhir.vital_encounter", "Observation.encounter")
	}
	if err != nil {
		return written{}, err
	}
	if in.Subject == nil || in.Subject.Reference != "Patient/"+strconv.FormatInt(visit.PatientID, 10) {
		return written{}, invalid("fhir.vital_subject", "Observation.subject")
	}
	if err := vitalOnVisitDay(in.EffectiveDateTime, visit.StartsAt, h.Visits.Loc); err != nil {
		return written{}, err
	}
	version := appointment.AnyVersion
	if id != "" {
		if aid, _, err := splitID("Observation", id); err != nil || aid != visitID || in.ID != id {
			return written{}, invalid("fhir.id_mismatch", "Observation.id")
		}
		if version, err = c.version(); err != nil {
			return written{}, err
		}
	} else if in.ID != "" {
		return written{}, invalid("fhir.id_on_create", "Observation.id")
	}
	// The measurement's own checks first (its code, unit and part), on nothing stored.
	part, err := applyVital(in, &appointment.Vitals{})
	if err == nil && id != "" && !strings.HasSuffix(id, "-"+part) {
		err = invalid("fhir.id_mismatch", "Observation.code")
	}
	if err != nil {
		return written{}, err
	}
	// A create makes a new resource (http.html#create): a vital the visit already has is
	// changed by an update at its version, never overwritten by a create. Checked on the
	// vitals as the write reads them, so that two creates at once cannot both pass.
	recorded := false
	_, err = h.Visits.ChangeVitalsIn(r.Context(), tx, auth.AuditEvent(r), visitID, version, func(measured appointment.Vitals) appointment.Vitals {
		recorded = id == "" && hasVital(measured, part)
		_, _ = applyVital(in, &measured) // checked above
		return measured
	})
	if err == nil && recorded {
		vid := strconv.FormatInt(visitID, 10) + "-" + part
		return written{}, &Error{Status: http.StatusConflict, Code: "duplicate", Key: "fhir.vital_exists", Args: []any{vid, vid}, Expression: "Observation.code"}
	}
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae) && ae.Key == "error.conflict":
		return written{}, &Error{Status: http.StatusPreconditionFailed, Code: "conflict", Key: "fhir.version_conflict", Args: []any{version}, Expression: "If-Match"}
	case errors.As(err, &ae) && len(ae.Fields) > 0:
		return written{}, invalid("fhir.vital_range", "Observation.value", i18n.T(i18n.FromRequest(r), firstKey(ae.Fields)))
	case err != nil:
		return written{}, err
	}
	recs, err := appointment.RecordsIn(r.Context(), tx, appointment.RecordFilter{IDs: []int64{visitID}, Limit: 1})
	if err != nil {
		return written{}, err
	}
	for _, rec := range recs {
		for _, res := range toObservations(rec) {
			if res.ResourceID() == strconv.FormatInt(visitID, 10)+"-"+part {
				notKept(in, res.(Observation), &dropped)
				return written{res: res, status: createdOr(id), dropped: dropped}, nil
			}
		}
	}
	return written{}, errors.New("the vital sign written is not in the visit")
}

// notKept notes what a written vital said that the visit does not keep: a time other than
// the visit's (its vitals are the visit's), an interpretation other than the clinic's own
// (computed from its bands). The same as kept, as when a read vital is written back, is no
// loss.
func notKept(in observationIn, kept Observation, dropped *notes) {
	if in.EffectiveDateTime != "" {
		sent, err := time.Parse(time.RFC3339Nano, in.EffectiveDateTime)
		at, _ := time.Parse(time.RFC3339Nano, kept.EffectiveDateTime)
		if err != nil || !sent.Equal(at) {
			dropped.drop("not-supported", "Observation.effectiveDateTime", "")
		}
	}
	if in.Interpretation != nil && codesOf(in.Interpretation) != codesOf(kept.Interpretation) {
		dropped.drop("not-supported", "Observation.interpretation", "")
	}
}

// codesOf is concepts' codings as one comparable text.
func codesOf(concepts []CodeableConcept) string {
	var b strings.Builder
	for _, c := range concepts {
		for _, x := range c.Coding {
			b.WriteString(x.System + "|" + x.Code + " ")
		}
	}
	return b.String()
}

// hasVital reports whether the visit's vitals hold the measurement part (the id's part).
func hasVital(v appointment.Vitals, part string) bool {
	if part == "bp" {
		return v.BPSystolic != nil || v.BPDiastolic != nil
	}
	for _, m := range vitals {
		if m.part == part {
			return m.value(v) != nil
		}
	}
	return false
}

// createdOr is a write's status: 201 for a create (no id), 200 for an update.
func createdOr(id string) int {
	if id == "" {
		return http.StatusCreated
	}
	return http.StatusOK
}

func firstKey(fields map[string][]string) string {
	for _, keys := range fields {
		if len(keys) > 0 {
			return keys[0]
		}
	}
	return "validation.failed"
}

// ---- Appointment: booked, rescheduled and cancelled through the appointment book ----

// appointmentIn is an Appointment as a client writes it: only what the writer reads.
type appointmentIn struct {
	ResourceType      string            `json:"resourceType"`
	ID                string            `json:"id"`
	Meta              json.RawMessage   `json:"meta"`
	Text              json.RawMessage   `json:"text"`
	Status            string            `json:"status"`
	CancelationReason *CodeableConcept  `json:"cancelationReason"`
	AppointmentType   *CodeableConcept  `json:"appointmentType"`
	ReasonCode        []CodeableConcept `json:"reasonCode"`
	Start             string            `json:"start"`
	End               string            `json:"end"`
	MinutesDuration   int               `json:"minutesDuration"`
	Comment           string            `json:"comment"`
	Participant       []participantIn   `json:"participant"`
}

// participantIn is an Appointment's patient or doctor. The book keeps who, not how they
// answered: every participant is read back as accepted, so another status is noted dropped.
type participantIn struct {
	Actor  *Reference `json:"actor"`
	Status string     `json:"status"`
}

// appointmentTypes are HL7 v2 table 0276's appointment reasons the book has a type for:
// FOLLOWUP and WALKIN are the book's follow-up and walk-in; ROUTINE, which v2 says is the
// default when none is valued, is the book's default, new. CHECKUP and EMERGENCY have no type
// of the book's and are refused rather than filed as another.
var appointmentTypes = map[string]string{"FOLLOWUP": "follow-up", "WALKIN": "walk-in", "ROUTINE": "new"}

const systemApptReason = "http://terminology.hl7.org/CodeSystem/v2-0276"

// appointmentType is the book's type of a written appointmentType: a v2-0276 code first (a
// system's text beside it, "Follow-up visit", is its own wording of the code), else its text
// or a coding's display (which the book then checks); "new" only when none is sent.
func appointmentType(c *CodeableConcept) (string, error) {
	if c == nil {
		return "new", nil
	}
	for _, x := range c.Coding {
		if t, ok := appointmentTypes[x.Code]; ok && x.System == systemApptReason {
			return t, nil
		}
	}
	if text := conceptText(*c); text != "" {
		return text, nil
	}
	return "", &Error{Status: http.StatusUnprocessableEntity, Code: "not-supported", Key: "fhir.appointment_type", Expression: "Appointment.appointmentType"}
}

// conceptText is what the clinic keeps of a CodeableConcept, which it keeps as text: its
// text, else its first coding's display.
func conceptText(c CodeableConcept) string {
	if c.Text != "" {
		return c.Text
	}
	for _, x := range c.Coding {
		if x.Display != "" {
			return x.Display
		}
	}
	return ""
}

// reasonText is the reason the book keeps of a reasonCode at expression; one with codings
// but no text nor display is noted dropped, for the book keeps no code.
func reasonText(c CodeableConcept, expression string, dropped *notes) string {
	text := conceptText(c)
	if text == "" && len(c.Coding) > 0 {
		dropped.drop("not-supported", expression+".coding", "")
	}
	return text
}

// appointmentInput reads a written Appointment onto the book's input; dropped notes a
// participant's status the book does not keep.
func appointmentInput(a appointmentIn, dropped *notes) (appointment.Input, error) {
	var in appointment.Input
	if a.ResourceType != "Appointment" {
		return in, invalid("fhir.wrong_resource_type", "resourceType", "Appointment")
	}
	for i, p := range a.Participant {
		if p.Status != "" && p.Status != "accepted" {
			dropped.drop("not-supported", "Appointment.participant["+strconv.Itoa(i)+"].status", "")
		}
		if p.Actor == nil {
			continue
		}
		kind, id, _ := strings.Cut(p.Actor.Reference, "/")
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return in, invalid("fhir.bad_reference", "Appointment.participant.actor", "actor")
		}
		switch kind {
		case "Patient":
			in.PatientID = n
		case "Practitioner":
			in.DoctorID = n
		default:
			return in, invalid("fhir.bad_reference", "Appointment.participant.actor", "actor")
		}
	}
	if in.PatientID == 0 || in.DoctorID == 0 {
		return in, invalid("fhir.appointment_participants", "Appointment.participant")
	}
	start, err := time.Parse(time.RFC3339Nano, a.Start)
	if err != nil {
		return in, invalid("fhir.bad_date", "Appointment.start", "start")
	}
	in.StartsAt = start.UTC().Format(time.RFC3339)
	in.DurationMinutes = a.MinutesDuration
	if a.End != "" {
		end, err := time.Parse(time.RFC3339Nano, a.End)
		if err != nil {
			return in, invalid("fhir.bad_date", "Appointment.end", "end")
		}
		if in.DurationMinutes == 0 {
			in.DurationMinutes = int(end.Sub(start) / time.Minute)
		} else if int(end.Sub(start)/time.Minute) != in.DurationMinutes {
			return in, invalid("fhir.appointment_duration", "Appointment.end")
		}
	}
	if in.Type, err = appointmentType(a.AppointmentType); err != nil {
		return in, err
	}
	if len(a.ReasonCode) > 1 {
		return in, invalid("fhir.one_reason", "Appointment.reasonCode")
	}
	if len(a.ReasonCode) == 1 {
		in.Reason = reasonText(a.ReasonCode[0], "Appointment.reasonCode[0]", dropped)
	}
	in.Remarks = a.Comment
	return in, nil
}

var appointmentFields = map[string]string{
	"patient_id": "Appointment.participant", "doctor_id": "Appointment.participant", "starts_at": "Appointment.start",
	"duration_minutes": "Appointment.minutesDuration", "type": "Appointment.appointmentType", "reason": "Appointment.reasonCode", "remarks": "Appointment.comment",
}

func renameFields(err error, names map[string]string) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || len(ae.Fields) == 0 {
		return err
	}
	out := *ae
	out.Fields = map[string][]string{}
	for f, keys := range ae.Fields {
		name := names[f]
		if name == "" {
			name = "Appointment"
		}
		out.Fields[name] = append(out.Fields[name], keys...)
	}
	return &out
}

// statusActions are the status changes an Appointment update may make, with the book's own
// rules (a cancellation needs its reason).
var statusActions = map[string]appointment.Action{"cancelled": appointment.Cancel, "arrived": appointment.Arrive, "noshow": appointment.MarkNoShow}

// writeAppointment books (id "") or changes an appointment inside tx: a change of status
// is the book's status change, any other change a reschedule or an edit.
func (h *Handler) writeAppointment(r *http.Request, tx *sql.Tx, data []byte, id string, c conditions) (written, error) {
	var in appointmentIn
	var dropped notes
	if err := decodeResource(data, "Appointment", &in, &dropped); err != nil {
		return written{}, err
	}
	e := auth.AuditEvent(r)
	if id == "" {
		if in.ID != "" {
			return written{}, invalid("fhir.id_on_create", "Appointment.id")
		}
		if in.Status != "" && in.Status != "booked" {
			return written{}, invalid("fhir.appointment_status", "Appointment.status")
		}
		input, err := appointmentInput(in, &dropped)
		if err != nil {
			return written{}, err
		}
		a, err := h.Visits.CreateIn(r.Context(), tx, e, input)
		if err != nil {
			return written{}, renameFields(err, appointmentFields)
		}
		return written{res: toAppointment(a), status: http.StatusCreated, dropped: dropped}, nil
	}
	aid, version, old, err := h.updated(r, tx, "Appointment", id, in.ID, c)
	if err != nil {
		return written{}, err
	}
	var a appointment.Appointment
	if in.Status != "" && in.Status != appointmentStatus[old.Status] {
		act, ok := statusActions[in.Status]
		if !ok {
			return written{}, invalid("fhir.appointment_status", "Appointment.status")
		}
		reason := ""
		if in.CancelationReason != nil {
			reason = in.CancelationReason.Text
		}
		a, err = h.Visits.TransitionIn(r.Context(), tx, e, aid, act, version, reason)
	} else {
		input, ierr := appointmentInput(in, &dropped)
		if ierr != nil {
			return written{}, ierr
		}
		a, err = h.Visits.UpdateIn(r.Context(), tx, e, aid, version, input)
	}
	if err != nil {
		return written{}, versionConflict(renameFields(err, appointmentFields), version)
	}
	return written{res: toAppointment(a), status: http.StatusOK, dropped: dropped}, nil
}

// updated reads what an update of an appointment-made resource (Appointment, Encounter)
// changes: its id (matching the body's), If-Match's version, and the appointment as stored.
func (h *Handler) updated(r *http.Request, tx *sql.Tx, kind, id, bodyID string, c conditions) (int64, int, appointment.Appointment, error) {
	aid, err := strconv.ParseInt(id, 10, 64)
	if err != nil || aid <= 0 {
		return 0, 0, appointment.Appointment{}, notFound(kind, id)
	}
	if bodyID != id {
		return 0, 0, appointment.Appointment{}, invalid("fhir.id_mismatch", kind+".id")
	}
	version, err := c.version()
	if err != nil {
		return 0, 0, appointment.Appointment{}, err
	}
	recs, err := appointment.RecordsIn(r.Context(), tx, appointment.RecordFilter{IDs: []int64{aid}, Limit: 1})
	if err != nil {
		return 0, 0, appointment.Appointment{}, err
	}
	if len(recs) == 0 {
		return 0, 0, appointment.Appointment{}, notFound(kind, id)
	}
	return aid, version, recs[0].Appointment, nil
}

// versionConflict says a version conflict as a failed If-Match.
func versionConflict(err error, version int) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Key == "error.conflict" {
		return &Error{Status: http.StatusPreconditionFailed, Code: "conflict", Key: "fhir.version_conflict", Args: []any{version}, Expression: "If-Match"}
	}
	return err
}
