package fhir

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/patient"
)

// MaxResource is the largest resource a write accepts.
const MaxResource = 1 << 20

// readBody reads a request's resource: JSON, within MaxResource.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if !isJSON(r.Header.Get("Content-Type")) {
		return nil, &Error{Status: http.StatusUnsupportedMediaType, Code: "not-supported", Key: "fhir.json_only"}
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, &Error{Status: http.StatusRequestEntityTooLarge, Code: "too-long", Key: "fhir.too_large"}
	}
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return nil, invalid("fhir.bad_json", "")
	}
	return data, nil
}

// decodeStrict decodes a request's frame (a Bundle, an import's line), refusing an element
// it does not know; a resource written is read by decodeResource, which keeps or drops.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var wrong *json.UnmarshalTypeError
		switch {
		case errors.As(err, &wrong):
			return invalid("fhir.wrong_type", wrong.Field, wrong.Field)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.unsupported_element", Args: []any{field}, Expression: field}
		}
		return invalid("fhir.bad_json", "")
	}
	if dec.More() {
		return invalid("fhir.bad_json", "")
	}
	return nil
}

// patientIn is a Patient as a client writes it: the elements the register keeps, and the
// narrative (text), which is ignored (it is generated from the same elements).
type patientIn struct {
	Patient
	Text json.RawMessage `json:"text,omitempty"`
	// Active is whether the client said active, and what (it shadows Patient.Active).
	Active *bool `json:"active,omitempty"`
	// Extension is read for a registration's distinct-from confirmations (distinctFrom); the
	// others are dropped.
	Extension json.RawMessage `json:"extension,omitempty"`
}

// nativeFields names, for a register's validation error, the element of Patient at fault.
var nativeFields = map[string]string{
	"first_name": "Patient.name.given", "middle_name": "Patient.name.given", "last_name": "Patient.name.family",
	"sex": "Patient.gender", "birth_date": "Patient.birthDate", "phone": "Patient.telecom", "email": "Patient.telecom",
	"address": "Patient.address", "civil_status": "Patient.maritalStatus", "emergency_contact.name": "Patient.contact.name",
	"emergency_contact.relation": "Patient.contact.relationship", "emergency_contact.phone": "Patient.contact.telecom",
}

// asFHIR renames a validation error's fields from the register's to Patient's elements.
func asFHIR(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || len(ae.Fields) == 0 {
		return err
	}
	fields := map[string][]string{}
	for f, keys := range ae.Fields {
		name := nativeFields[f]
		if name == "" {
			name = "Patient"
		}
		fields[name] = append(fields[name], keys...)
	}
	out := *ae
	out.Fields = fields
	return &out
}

// toInput reads a written Patient onto the register's fields it carries, over base (what
// the record holds besides: its medical history, remarks and the rest stay as they are).
// An extension of the birth date the register does not keep is noted in dropped.
func toInput(p Patient, base patient.Input, dropped *notes) (patient.Input, error) {
	in := base
	if p.ResourceType != "Patient" {
		return in, invalid("fhir.wrong_resource_type", "resourceType", "Patient")
	}
	if len(p.Name) == 0 {
		return in, invalid("fhir.one_name", "Patient.name")
	}
	n := p.Name[officialName(p.Name)]
	if len(n.Given) == 0 && n.Text != "" && n.Family == "" {
		return in, invalid("fhir.name_parts", "Patient.name")
	}
	in.LastName, in.FirstName, in.MiddleName = n.Family, "", ""
	if len(n.Given) > 0 {
		in.FirstName, in.MiddleName = n.Given[0], strings.Join(n.Given[1:], " ")
	}
	in.Sex = p.Gender
	if in.Sex == "" {
		in.Sex = "unknown"
	}
	in.BirthDate, in.BirthDateEstimated = p.BirthDate, false
	if p.BirthDateExt != nil {
		for i, x := range p.BirthDateExt.Extension {
			if x.URL != extensionEstimated || x.ValueBoolean == nil {
				dropped.drop("extension", "Patient._birthDate.extension["+strconv.Itoa(i)+"]", x.URL)
				continue
			}
			in.BirthDateEstimated = *x.ValueBoolean
		}
	}
	// The first phone and e-mail are the register's; the others are kept beside (receivedOf).
	in.Phone, in.Email = "", ""
	for _, c := range p.Telecom {
		switch {
		case c.System == "phone" && in.Phone == "":
			in.Phone = c.Value
		case c.System == "email" && in.Email == "":
			in.Email = c.Value
		}
	}
	in.Address = ""
	if len(p.Address) > 0 {
		in.Address = addressText(p.Address[0])
	}
	in.CivilStatus = ""
	if p.MaritalStatus != nil {
		found := false
		for native, code := range maritalCodes {
			for _, c := range p.MaritalStatus.Coding {
				if c.Code == code[0] {
					in.CivilStatus, found = native, true
				}
			}
		}
		if !found {
			return in, invalid("fhir.bad_value", "Patient.maritalStatus", "maritalStatus")
		}
	}
	in.EmergencyContact = patient.Contact{}
	switch len(p.Contact) {
	case 0:
	case 1:
		c := p.Contact[0]
		if c.Name != nil {
			in.EmergencyContact.Name = strings.TrimSpace(strings.Join(append([]string{c.Name.Text}, append(c.Name.Given, c.Name.Family)...), " "))
		}
		if len(c.Relationship) > 0 {
			in.EmergencyContact.Relation = c.Relationship[0].Text
			if in.EmergencyContact.Relation == "" && len(c.Relationship[0].Coding) > 0 {
				in.EmergencyContact.Relation = c.Relationship[0].Coding[0].Display
			}
		}
		for _, t := range c.Telecom {
			if t.System == "phone" {
				in.EmergencyContact.Phone = t.Value
			}
		}
	default:
		return in, invalid("fhir.one_contact", "Patient.contact")
	}
	return in, nil
}

// location is where a version of a resource is read.
func location(base, kind, id, version string) string {
	return base + "/" + kind + "/" + id + "/_history/" + version
}

func lastModified(instant string) string {
	t, err := time.Parse(time.RFC3339Nano, instant)
	if err != nil {
		return ""
	}
	return t.UTC().Format(http.TimeFormat)
}

func (h *Handler) createPatient(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, status, dropped, err := h.writePatient(r, h.direct(), data, "", r.Header.Get("If-None-Exist"), "")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	h.answer(w, r, written{res: res, status: status, matched: status == http.StatusOK, withheld: res.withheld, dropped: dropped})
}

func (h *Handler) updatePatient(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r, MaxResource)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, status, dropped, err := h.writePatient(r, h.direct(), data, r.PathValue("id"), "", r.Header.Get("If-Match"))
	if err != nil {
		WriteError(w, r, err)
		return
	}
	h.answer(w, r, written{res: res, status: status, dropped: dropped})
}

// ifMatch reads If-Match's version: W/"3" (or "3").
func ifMatch(v string) (int, error) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
	n, err := strconv.Atoi(strings.Trim(v, `"`))
	if err != nil || n < 1 {
		return 0, &Error{Status: http.StatusBadRequest, Code: "invalid", Key: "fhir.if_match", Expression: "If-Match"}
	}
	return n, nil
}

// writePatient creates (id "") or updates a patient from a written resource: a create
// is conditional when ifNoneExist holds a search; an update needs If-Match's version.
// It answers the resource written (or found), the HTTP status and the elements not kept.
func (h *Handler) writePatient(r *http.Request, pw patientWriter, data []byte, id, ifNoneExist, match string) (Patient, int, notes, error) {
	var in patientIn
	var dropped notes
	if err := decodeResource(data, "Patient", &in, &dropped); err != nil {
		return Patient{}, 0, nil, err
	}
	if in.ResourceType != "Patient" {
		return Patient{}, 0, nil, invalid("fhir.wrong_resource_type", "resourceType", "Patient")
	}
	own := h.ownSystems(r.Context())
	e := auth.AuditEvent(r)
	if id == "" {
		input, err := createInput(in, own, &dropped)
		if err != nil {
			return Patient{}, 0, nil, err
		}
		distinct, err := h.distinctFrom(r.Context(), in, true, &dropped)
		if err != nil {
			return Patient{}, 0, nil, err
		}
		if ifNoneExist != "" {
			res, status, err := h.createIfNone(r, pw, e, input, distinct, ifNoneExist, own)
			if err != nil || status != http.StatusOK {
				return res, status, dropped, err
			}
			res, status, err = matched(r, pw, res)
			return res, status, nil, err // nothing was written: nothing was dropped
		}
		p, err := pw.create(r.Context(), e, input, distinct)
		if err != nil {
			return Patient{}, 0, nil, h.duplicateRefusal(r.Context(), err)
		}
		return toPatient(p, own[0]), http.StatusCreated, dropped, nil
	}
	if match == "" {
		return Patient{}, 0, nil, &Error{Status: http.StatusPreconditionRequired, Code: "required", Key: "fhir.if_match_required", Expression: "If-Match"}
	}
	version, err := ifMatch(match)
	if err != nil {
		return Patient{}, 0, nil, err
	}
	if in.ID != id {
		return Patient{}, 0, nil, invalid("fhir.id_mismatch", "Patient.id")
	}
	pid, err := strconv.ParseInt(id, 10, 64)
	if err != nil || pid <= 0 {
		return Patient{}, 0, nil, notFound("Patient", id)
	}
	old, err := pw.get(r.Context(), pid)
	if apperr.KindOf(err) == apperr.KindNotFound {
		return Patient{}, 0, nil, notFound("Patient", id) // an update never creates: the register numbers its patients
	}
	if err != nil {
		return Patient{}, 0, nil, err
	}
	foreign, err := foreignIdentifiers(in.Identifier, own, old.MRN)
	if err != nil {
		return Patient{}, 0, nil, err
	}
	if in.Active != nil && *in.Active == old.Archived {
		return Patient{}, 0, nil, invalid("fhir.active_in_app", "Patient.active")
	}
	input, err := toInput(in.Patient, old.Input, &dropped)
	if err != nil {
		return Patient{}, 0, nil, err
	}
	if _, err := h.distinctFrom(r.Context(), in, false, &dropped); err != nil {
		return Patient{}, 0, nil, err
	}
	input.Received = receivedOf(in.Patient, foreign)
	p, err := pw.update(r.Context(), e, pid, version, input)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Key == "error.conflict" {
		return Patient{}, 0, nil, &Error{Status: http.StatusPreconditionFailed, Code: "conflict", Key: "fhir.version_conflict", Args: []any{version}, Expression: "If-Match"}
	}
	if err != nil {
		return Patient{}, 0, nil, asFHIR(err)
	}
	return toPatient(p, own[0]), http.StatusOK, dropped, nil
}

// createInput reads a Patient to register: no id, no number of the clinic's (it assigns
// them), not inactive; what it carries beside the register's fields is kept.
func createInput(in patientIn, own []string, dropped *notes) (patient.Input, error) {
	if in.ID != "" {
		return patient.Input{}, invalid("fhir.id_on_create", "Patient.id")
	}
	if in.Active != nil && !*in.Active {
		return patient.Input{}, invalid("fhir.active_on_create", "Patient.active")
	}
	foreign, err := foreignIdentifiers(in.Identifier, own, "")
	if err != nil {
		return patient.Input{}, err
	}
	input, err := toInput(in.Patient, patient.Input{}, dropped)
	if err != nil {
		return patient.Input{}, err
	}
	input.Received = receivedOf(in.Patient, foreign)
	return input, nil
}

// createIfNone is a conditional create: the search in If-None-Exist finds nothing (create,
// 201, unless a possible duplicate is not confirmed by distinct), one patient (200,
// unchanged) or several (412).
func (h *Handler) createIfNone(r *http.Request, pw patientWriter, e audit.Event, input patient.Input, distinct []int64, condition string, own []string) (Patient, int, error) {
	values, err := url.ParseQuery(condition)
	if err != nil || len(values) == 0 {
		return Patient{}, 0, invalid("fhir.bad_value", "If-None-Exist", "If-None-Exist")
	}
	// Its answer says how many patients match (201 none, 200 one, 412 several): to a caller
	// who may not read patients that would be a search of the register by any criteria. Such a
	// caller may condition a create on the patient's number alone — the idempotency key a
	// program resends with — which names at most one patient it already knows of.
	if p := auth.PrincipalFrom(r.Context()); !searchesRegister(p) {
		for name := range values {
			if name != "identifier" {
				return Patient{}, 0, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.conditional_identifier_only", Expression: "If-None-Exist"}
			}
		}
	}
	probe := &http.Request{URL: &url.URL{RawQuery: values.Encode()}, Header: http.Header{"Prefer": {"handling=strict"}}}
	q, err := parseQuery(probe, patientParams)
	if err != nil {
		return Patient{}, 0, err
	}
	f, any, err := patientFilter(q, own)
	if err != nil {
		return Patient{}, 0, err
	}
	if !any {
		f.IDs = []int64{-1}
	}
	p, created, err := pw.createIfNone(r.Context(), e, input, distinct, f, values.Encode())
	switch {
	case errors.Is(err, patient.ErrAmbiguous):
		// A search that found several: audited as the search it was (a Bundle's is recorded in
		// its transaction, and goes with the entry when the entry is rolled back).
		a := auth.AuditEvent(r)
		a.Action, a.EntityType, a.Outcome, a.Detail = "fhir.patient.list", "patient", audit.Success, "conditional create: several patients match "+values.Encode()
		if err := pw.access(r.Context(), a); err != nil {
			return Patient{}, 0, err
		}
		return Patient{}, 0, &Error{Status: http.StatusPreconditionFailed, Code: "multiple-matches", Key: "fhir.several_match", Expression: "If-None-Exist"}
	case err != nil:
		return Patient{}, 0, h.duplicateRefusal(r.Context(), err)
	case created:
		return toPatient(p, own[0]), http.StatusCreated, nil
	}
	return toPatient(p, own[0]), http.StatusOK, nil
}

// matched answers the patient a conditional create found: whole to a caller who may read
// patients (permission and scope), its id and version alone (withheld) to anyone else; either
// way it is audited as a read of that patient, in the write's transaction when there is one.
func matched(r *http.Request, pw patientWriter, res Patient) (Patient, int, error) {
	p := auth.PrincipalFrom(r.Context())
	detail := "conditional create matched"
	if !readable(p, res, auth.ActRead) || !p.ScopeAllows("Patient", auth.ActRead) {
		res, detail = withhold(res), "conditional create matched; its content withheld"
	}
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "fhir.patient.read", "patient", res.ID, audit.Success, detail
	if err := pw.access(r.Context(), e); err != nil {
		return Patient{}, 0, err
	}
	return res, http.StatusOK, nil
}

// patientWriter writes patients: on their own (a single request's write) or inside the
// transaction of a batch or a transaction Bundle.
type patientWriter interface {
	get(ctx context.Context, id int64) (patient.Patient, error)
	// create registers in; distinctFrom are exactly the possible duplicates the caller
	// confirmed to be other people (patient.Store.CreateExactly).
	create(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64) (patient.Patient, error)
	update(ctx context.Context, e audit.Event, id int64, version int, in patient.Input) (patient.Patient, error)
	createIfNone(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64, f patient.Filter, key string) (patient.Patient, bool, error)
	// access records a read: on its own, or in the Bundle's transaction (whose answer it is).
	access(ctx context.Context, e audit.Event) error
}

type directWriter struct{ s *patient.Store }

func (h *Handler) direct() patientWriter { return directWriter{h.Patients} }

func (d directWriter) get(ctx context.Context, id int64) (patient.Patient, error) {
	return d.s.Get(ctx, id)
}
func (d directWriter) create(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64) (patient.Patient, error) {
	return d.s.CreateExactly(ctx, e, in, distinctFrom)
}
func (d directWriter) update(ctx context.Context, e audit.Event, id int64, version int, in patient.Input) (patient.Patient, error) {
	return d.s.Update(ctx, e, id, version, in)
}
func (d directWriter) createIfNone(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64, f patient.Filter, key string) (patient.Patient, bool, error) {
	return d.s.CreateIfNone(ctx, e, in, distinctFrom, f, key)
}
func (d directWriter) access(ctx context.Context, e audit.Event) error {
	return audit.Access(ctx, d.s.DB, e)
}

type txWriter struct {
	s  *patient.Store
	tx *sql.Tx
}

func (t txWriter) get(ctx context.Context, id int64) (patient.Patient, error) {
	return t.s.GetIn(ctx, t.tx, id)
}
func (t txWriter) create(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64) (patient.Patient, error) {
	return t.s.CreateExactlyIn(ctx, t.tx, e, in, distinctFrom)
}
func (t txWriter) update(ctx context.Context, e audit.Event, id int64, version int, in patient.Input) (patient.Patient, error) {
	return t.s.UpdateIn(ctx, t.tx, e, id, version, in)
}
func (t txWriter) createIfNone(ctx context.Context, e audit.Event, in patient.Input, distinctFrom []int64, f patient.Filter, key string) (patient.Patient, bool, error) {
	return t.s.CreateIfNoneIn(ctx, t.tx, e, in, distinctFrom, f, key)
}
func (t txWriter) access(ctx context.Context, e audit.Event) error { return audit.Record(ctx, t.tx, e) }
