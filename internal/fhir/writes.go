package fhir

import (
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

// observationIn is a vital-sign Observation as a client writes it.
type observationIn struct {
	Observation
	Text json.RawMessage `json:"text,omitempty"`
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
func measured(q *Quantity, ucum, expression string) (float64, error) {
	if q == nil {
		return 0, invalid("fhir.vital_value", expression)
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
func applyVital(o Observation, v *appointment.Vitals) (string, error) {
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
				x, err := measured(comp.ValueQuantity, "mm[Hg]", expr)
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
	case codes["39156-5"]:
		return "", invalid("fhir.vital_bmi", "Observation.code")
	}
	for _, m := range vitals {
		if !codes[m.loinc] || m.part == "bmi" {
			continue
		}
		x, err := measured(o.ValueQuantity, m.ucum, "Observation.valueQuantity")
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
		}
		return m.part, nil
	}
	return "", invalid("fhir.vital_code", "Observation.code")
}

// writeVital records one vital sign of a visit: a new one (id "") or the one with id, at the
// visit's version (If-Match for an update). The visit's own rules decide: its ranges, a
// visit arrived or in progress only, a signed visit amended in the web app.
func (h *Handler) writeVital(w http.ResponseWriter, r *http.Request, id string) {
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var in observationIn
	if err := decodeStrict(data, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	if in.Encounter == nil || !strings.HasPrefix(in.Encounter.Reference, "Encounter/") {
		WriteError(w, r, invalid("fhir.vital_encounter", "Observation.encounter"))
		return
	}
	visitID, err := strconv.ParseInt(strings.TrimPrefix(in.Encounter.Reference, "Encounter/"), 10, 64)
	if err != nil {
		WriteError(w, r, invalid("fhir.vital_encounter", "Observation.encounter"))
		return
	}
	lang := i18n.FromRequest(r)
	visit, err := h.Visits.Visit(r.Context(), visitID, lang)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = invalid("fhir.vital_encounter", "Observation.encounter")
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.Visits.Get(r.Context(), visitID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if in.Subject == nil || in.Subject.Reference != "Patient/"+strconv.FormatInt(a.PatientID, 10) {
		WriteError(w, r, invalid("fhir.vital_subject", "Observation.subject"))
		return
	}
	version := visit.Version
	if id != "" {
		if aid, _, err := splitID("Observation", id); err != nil || aid != visitID || in.ID != id {
			WriteError(w, r, invalid("fhir.id_mismatch", "Observation.id"))
			return
		}
		match := r.Header.Get("If-Match")
		if match == "" {
			WriteError(w, r, &Error{Status: http.StatusPreconditionRequired, Code: "required", Key: "fhir.if_match_required", Expression: "If-Match"})
			return
		}
		if version, err = ifMatch(match); err != nil {
			WriteError(w, r, err)
			return
		}
	} else if in.ID != "" {
		WriteError(w, r, invalid("fhir.id_on_create", "Observation.id"))
		return
	}
	// Vitals copied forward from an earlier visit were not measured at this one: a measurement
	// written now replaces them, and they are not kept as if measured today.
	vitalsNow := visit.Vitals
	if visit.VitalsCopiedFrom != "" {
		vitalsNow = appointment.Vitals{}
	}
	part, err := applyVital(in.Observation, &vitalsNow)
	if err == nil && id != "" && !strings.HasSuffix(id, "-"+part) {
		err = invalid("fhir.id_mismatch", "Observation.code")
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	err = h.Visits.SaveVitals(r.Context(), auth.AuditEvent(r), visitID, version, vitalsNow)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Key == "error.conflict" {
		status := http.StatusConflict
		if id != "" {
			status = http.StatusPreconditionFailed
		}
		err = &Error{Status: status, Code: "conflict", Key: "fhir.version_conflict", Args: []any{version}}
	}
	if err != nil {
		if errors.As(err, &ae) && len(ae.Fields) > 0 {
			err = invalid("fhir.vital_range", "Observation.value", i18n.T(lang, firstKey(ae.Fields)))
		}
		WriteError(w, r, err)
		return
	}
	recs, err := h.Visits.Records(r.Context(), appointment.RecordFilter{IDs: []int64{visitID}, Limit: 1})
	if err != nil || len(recs) == 0 {
		WriteError(w, r, err)
		return
	}
	for _, res := range toObservations(recs[0]) {
		if res.ResourceID() == strconv.FormatInt(visitID, 10)+"-"+part {
			obs := res.(Observation)
			w.Header().Set("Location", location(h.baseURL(r), "Observation", obs.ID, obs.Meta.VersionID))
			status := http.StatusCreated
			if id != "" {
				status = http.StatusOK
			}
			respond(w, status, obs)
			return
		}
	}
	WriteError(w, r, errors.New("the vital sign written is not in the visit"))
}

func firstKey(fields map[string][]string) string {
	for _, keys := range fields {
		if len(keys) > 0 {
			return keys[0]
		}
	}
	return "validation.failed"
}

func (h *Handler) createObservation(w http.ResponseWriter, r *http.Request) { h.writeVital(w, r, "") }
func (h *Handler) updateObservation(w http.ResponseWriter, r *http.Request) {
	h.writeVital(w, r, r.PathValue("id"))
}

// ---- Appointment: booked, rescheduled and cancelled through the appointment book ----

type appointmentIn struct {
	Appointment
	Text json.RawMessage `json:"text,omitempty"`
}

// appointmentInput reads a written Appointment onto the book's input.
func appointmentInput(a Appointment) (appointment.Input, error) {
	var in appointment.Input
	if a.ResourceType != "Appointment" {
		return in, invalid("fhir.wrong_resource_type", "resourceType", "Appointment")
	}
	for _, p := range a.Participant {
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
	in.Type = "new"
	if a.AppointmentType != nil && a.AppointmentType.Text != "" {
		in.Type = a.AppointmentType.Text
	}
	if len(a.ReasonCode) > 1 {
		return in, invalid("fhir.one_reason", "Appointment.reasonCode")
	}
	if len(a.ReasonCode) == 1 {
		in.Reason = a.ReasonCode[0].Text
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

func (h *Handler) createAppointment(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var in appointmentIn
	if err := decodeStrict(data, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	if in.ID != "" {
		WriteError(w, r, invalid("fhir.id_on_create", "Appointment.id"))
		return
	}
	if in.Status != "" && in.Status != "booked" {
		WriteError(w, r, invalid("fhir.appointment_status", "Appointment.status"))
		return
	}
	input, err := appointmentInput(in.Appointment)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.Visits.Create(r.Context(), auth.AuditEvent(r), input)
	if err != nil {
		WriteError(w, r, renameFields(err, appointmentFields))
		return
	}
	res := toAppointment(a)
	w.Header().Set("Location", location(h.baseURL(r), "Appointment", res.ID, res.Meta.VersionID))
	respond(w, http.StatusCreated, res)
}

// statusActions are the status changes an Appointment update may make, with the book's own
// rules (a cancellation needs its reason).
var statusActions = map[string]appointment.Action{"cancelled": appointment.Cancel, "arrived": appointment.Arrive, "noshow": appointment.MarkNoShow}

func (h *Handler) updateAppointment(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	var in appointmentIn
	if err := decodeStrict(data, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	id, err := pathID(r, "Appointment")
	if err == nil && in.ID != r.PathValue("id") {
		err = invalid("fhir.id_mismatch", "Appointment.id")
	}
	match := r.Header.Get("If-Match")
	if err == nil && match == "" {
		err = &Error{Status: http.StatusPreconditionRequired, Code: "required", Key: "fhir.if_match_required", Expression: "If-Match"}
	}
	var version int
	if err == nil {
		version, err = ifMatch(match)
	}
	var old appointment.Appointment
	if err == nil {
		old, err = h.Visits.Get(r.Context(), id)
		if apperr.KindOf(err) == apperr.KindNotFound {
			err = notFound("Appointment", r.PathValue("id"))
		}
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	e := auth.AuditEvent(r)
	var a appointment.Appointment
	if in.Status != "" && in.Status != appointmentStatus[old.Status] {
		act, ok := statusActions[in.Status]
		if !ok {
			WriteError(w, r, invalid("fhir.appointment_status", "Appointment.status"))
			return
		}
		reason := ""
		if in.CancelationReason != nil {
			reason = in.CancelationReason.Text
		}
		a, err = h.Visits.Transition(r.Context(), e, id, act, version, reason)
	} else {
		input, ierr := appointmentInput(in.Appointment)
		if ierr != nil {
			WriteError(w, r, ierr)
			return
		}
		a, err = h.Visits.Update(r.Context(), e, id, version, input)
	}
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Key == "error.conflict" {
		err = &Error{Status: http.StatusPreconditionFailed, Code: "conflict", Key: "fhir.version_conflict", Args: []any{version}, Expression: "If-Match"}
	}
	if err != nil {
		WriteError(w, r, renameFields(err, appointmentFields))
		return
	}
	res := toAppointment(a)
	w.Header().Set("Location", location(h.baseURL(r), "Appointment", res.ID, res.Meta.VersionID))
	respond(w, http.StatusOK, res)
}
