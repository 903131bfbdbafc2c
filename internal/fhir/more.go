package fhir

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/document"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/settings"
	"emr/internal/user"
)

// ---- Practitioner: a staff account ----

// Practitioner is a member of the clinic's staff.
type Practitioner struct {
	base
	Identifier []Identifier   `json:"identifier,omitempty"`
	Active     bool           `json:"active"`
	Name       []HumanName    `json:"name,omitempty"`
	Telecom    []ContactPoint `json:"telecom,omitempty"`
}

// UsernameSystem is the identifier system of staff usernames.
const UsernameSystem = "urn:emr:username"

func toPractitioner(u user.User) Practitioner {
	p := Practitioner{base: newBase("Practitioner", strconv.FormatInt(u.ID, 10), u.Version, u.UpdatedAt), Active: u.Active,
		Identifier: []Identifier{{System: UsernameSystem, Value: u.Username}}, Name: []HumanName{{Text: u.Name}}}
	if u.Email != "" {
		p.Telecom = []ContactPoint{{System: "email", Value: u.Email, Use: "work"}}
	}
	return p
}

var practitionerParams = map[string]paramKind{"name": kindString, "active": kindToken, "identifier": kindToken}

// practitionerTokens are Practitioner's token parameters, tested on the accounts read.
var practitionerTokens = map[string]tokenParam{
	"identifier": codingParam(func(res Resource) []Coding { return identifierCodings(res.(Practitioner).Identifier) }, UsernameSystem),
	"active":     codingParam(func(res Resource) []Coding { return []Coding{{Code: strconv.FormatBool(res.(Practitioner).Active)}} }, ""),
}

// identifierCodings are identifiers as a token parameter reads them: system and value.
func identifierCodings(list []Identifier) []Coding {
	out := make([]Coding, len(list))
	for i, id := range list {
		out[i] = Coding{System: id.System, Code: id.Value}
	}
	return out
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// ---- Organization: the clinic ----

// Organization is the clinic.
type Organization struct {
	base
	Identifier []Identifier   `json:"identifier,omitempty"`
	Active     bool           `json:"active"`
	Name       string         `json:"name,omitempty"`
	Telecom    []ContactPoint `json:"telecom,omitempty"`
	Address    []Address      `json:"address,omitempty"`
}

// clinicID is the clinic's Organization id.
const clinicID = "clinic"

// organizationOf is the clinic's settings as its Organization.
func (h *Handler) organizationOf(c settings.Clinic) Organization {
	o := Organization{base: newBase("Organization", clinicID, c.Version, started), Active: true, Name: c.Name}
	if o.Name == "" {
		o.Name = "EMR"
	}
	if c.TaxID != "" {
		o.Identifier = []Identifier{{System: systemTaxID, Value: c.TaxID}}
	}
	if c.Phone != "" {
		o.Telecom = []ContactPoint{{System: "phone", Value: c.Phone, Use: "work"}}
	}
	if c.Address != "" {
		o.Address = []Address{{Text: c.Address}}
	}
	o.claim(profileOrganization, organizationConforms(o))
	return o
}

// organizationParams are the clinic's Organization's search parameters.
var organizationParams = map[string]paramKind{"identifier": kindToken}

// organizationTokens are Organization's token parameters, tested on the clinic's.
var organizationTokens = map[string]tokenParam{
	"identifier": codingParam(func(res Resource) []Coding { return identifierCodings(res.(Organization).Identifier) }, systemTaxID),
}

// systemTaxID is the identifier system of the clinic's tax number.
const systemTaxID = "urn:emr:tax-id"

func flat(values [][]string) []string {
	var out []string
	for _, v := range values {
		out = append(out, v...)
	}
	return out
}

// ---- ServiceRequest: a test ordered at a visit; laboratory Observations: its results ----

// ServiceRequest is a laboratory or imaging order.
type ServiceRequest struct {
	base
	Status     string            `json:"status"`
	Intent     string            `json:"intent"`
	Category   []CodeableConcept `json:"category,omitempty"`
	Code       *CodeableConcept  `json:"code,omitempty"`
	Subject    *Reference        `json:"subject"`
	Encounter  *Reference        `json:"encounter,omitempty"`
	AuthoredOn string            `json:"authoredOn,omitempty"`
	Requester  *Reference        `json:"requester,omitempty"`
	Note       []Annotation      `json:"note,omitempty"`
}

// Annotation is a note.
type Annotation struct {
	Text string `json:"text"`
}

var orderStatus = map[string]string{
	result.Ordered: "active", result.Collected: "active", result.Preliminary: "active", result.Final: "completed",
	result.Reviewed: "completed", result.Cancelled: "revoked", result.NotDone: "revoked",
}

func testCode(loinc, label, test string) *CodeableConcept {
	c := &CodeableConcept{Text: label}
	if c.Text == "" {
		c.Text = test
	}
	if loinc != "" {
		c.Coding = []Coding{{System: systemLOINC, Code: loinc, Display: label}}
	}
	return c
}

func toServiceRequest(o result.Order) ServiceRequest {
	s := ServiceRequest{
		base:   newBase("ServiceRequest", strconv.FormatInt(o.ID, 10), o.Version, latest(o.OrderedAt, o.CollectedAt, o.ResultedAt, o.ReviewedAt)),
		Status: orderStatus[o.Status], Intent: "order", Code: testCode(o.LOINC, o.TestLabel, o.Test),
		Subject: ref("Patient", o.PatientID), Encounter: ref("Encounter", o.AppointmentID), AuthoredOn: instant(o.OrderedAt),
	}
	if s.Status == "" {
		s.Status = "unknown"
	}
	switch resultCategory(o) {
	case "imaging":
		s.Category = []CodeableConcept{*concept(systemSNOMED, "363679005", "Imaging")}
	case "procedure":
		s.Category = []CodeableConcept{*concept(systemSNOMED, "103693007", "Diagnostic procedure")}
	default:
		s.Category = []CodeableConcept{*concept(systemSNOMED, "108252007", "Laboratory procedure")}
	}
	if o.OrderedBy != nil {
		s.Requester = ref("Practitioner", *o.OrderedBy)
		s.Requester.Display = o.OrderedByName
	}
	if o.Note != "" {
		s.Note = []Annotation{{Text: o.Note}}
	}
	s.claim(profileServiceRequest, serviceRequestConforms(s))
	return s
}

func latest(first time.Time, more ...*time.Time) time.Time {
	for _, t := range more {
		if t != nil && t.After(first) {
			first = *t
		}
	}
	return first
}

var interpretations = map[string][2]string{
	"H": {"H", "High"}, "L": {"L", "Low"}, "HH": {"HH", "Critical high"}, "LL": {"LL", "Critical low"}, "A": {"A", "Abnormal"}, "AA": {"AA", "Critical abnormal"},
}

const systemInterpretation = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"

// ObservationRange is a result's reference range.
type ObservationRange struct {
	Low  *SimpleQuantity `json:"low,omitempty"`
	High *SimpleQuantity `json:"high,omitempty"`
	Text string          `json:"text,omitempty"`
}

// rangeNotes say, in a reference range's text, why it is not the patient's own sex's or why
// none applied (issue 52).
var rangeNotes = map[string]string{
	"any_sex":       "Not sex-specific: the union of the male and female reference ranges",
	"no_band":       "No reference range for the patient's age and sex",
	"no_birth_date": "No reference range: the birth date is unknown",
	"censored":      "Beyond the measuring range: not compared with the reference range",
}

// SimpleQuantity is a quantity without a comparator.
type SimpleQuantity struct {
	Value  float64 `json:"value"`
	Unit   string  `json:"unit,omitempty"`
	System string  `json:"system,omitempty"`
	Code   string  `json:"code,omitempty"`
}

// labBound is a reference range's limit in a result's unit, coded as the result is.
func labBound(value float64, unit string) *SimpleQuantity {
	q := labQuantity(value, unit)
	return &SimpleQuantity{Value: q.Value, Unit: q.Unit, System: q.System, Code: q.Code}
}

var labCategory = []CodeableConcept{*concept(systemObsCategory, "laboratory", "Laboratory")}

// imagingFunctional are the catalogue's functional tests that are imaging: the echocardiogram
// is an ultrasound study.
var imagingFunctional = map[string]bool{"ECHO": true}

// resultCategory is what o's test is: "laboratory", "imaging" (an X-ray, an ultrasound, the
// echocardiogram) or "procedure" (the ECG and the catalogue's other functional tests).
func resultCategory(o result.Order) string {
	switch {
	case o.Kind == "imaging" || (o.Kind == "functional" && imagingFunctional[o.Test]):
		return "imaging"
	case o.Kind == "functional":
		return "procedure"
	}
	return "laboratory"
}

// toLabObservations are an order's current results, one per analyte ("lab-{order}-{analyte}",
// labResultID): a correction is a new version of the same Observation (the order's version,
// as its kept versions are), never a new resource.
func toLabObservations(o result.Order) []Resource {
	var out []Resource
	for _, x := range o.Results {
		obs := Observation{
			base:   newBase("Observation", labResultID(o.ID, x.Analyte), o.Version, x.RecordedAt),
			Status: labStatus(o, x), Category: labCategory, Code: testCode(x.LOINC, x.Label, x.Analyte),
			Subject: ref("Patient", o.PatientID), Encounter: ref("Encounter", o.AppointmentID), EffectiveDateTime: instant(x.ObservedAt),
			Issued: instant(x.RecordedAt), BasedOn: []Reference{*ref("ServiceRequest", o.ID)},
		}
		if obs.Status == "cancelled" {
			// The order was closed before this result was reported: why, in the order's words.
			obs.Note = []Annotation{{Text: closedNote(o)}}
		}
		switch {
		case x.Value != nil:
			if v, err := strconv.ParseFloat(*x.Value, 64); err == nil {
				obs.ValueQuantity = labQuantity(v, x.Unit)
				obs.ValueQuantity.Decimal = *x.Value
				obs.ValueQuantity.Comparator = x.Comparator
			}
		case x.Answer != "":
			obs.ValueCodeable = answerConcept(x.Answer)
		case x.Text != "":
			obs.ValueString = x.Text
		}
		if obs.ValueQuantity == nil && obs.ValueCodeable == nil && obs.ValueString == "" {
			obs.DataAbsentReason = unknownValue
		}
		if m, ok := interpretations[x.Flag]; ok {
			obs.Interpretation = []CodeableConcept{*concept(systemInterpretation, m[0], m[1])}
		}
		var rng ObservationRange
		if x.Range.Low != nil {
			if v, err := strconv.ParseFloat(*x.Range.Low, 64); err == nil {
				rng.Low = labBound(v, x.Unit)
			}
		}
		if x.Range.High != nil {
			if v, err := strconv.ParseFloat(*x.Range.High, 64); err == nil {
				rng.High = labBound(v, x.Unit)
			}
		}
		rng.Text = rangeNotes[x.Range.Note]
		if rng.Low != nil || rng.High != nil || rng.Text != "" {
			obs.ReferenceRange = []ObservationRange{rng}
		}
		// Results of imaging and functional tests are not laboratory results, whatever
		// category they are read under: only a laboratory order's claim the profile.
		obs.claim(profileLabObservation, o.Kind == "lab" && labConforms(obs))
		out = append(out, obs)
	}
	return out
}

// labResultID is the id of an order's result of analyte: "lab-{order}-{analyte}", the
// analyte's code kept where FHIR's id allows it (letters, digits, "-") and every other
// byte written ".XX" in hexadecimal ("NEUT%" → "NEUT.25"), so that two codes never share an
// id. The same whatever result row currently holds the value.
func labResultID(order int64, analyte string) string {
	var b strings.Builder
	b.WriteString("lab-" + strconv.FormatInt(order, 10) + "-")
	for i := 0; i < len(analyte); i++ {
		c := analyte[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteByte(c)
			continue
		}
		b.WriteString("." + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
	}
	return b.String()
}

// labStatus is a result's Observation status: as recorded (preliminary, final, corrected),
// and, on an order cancelled or not done, "cancelled" for any result not reported final —
// never "final" for a value the laboratory did not report.
func labStatus(o result.Order, x result.Result) string {
	status := x.Status
	if status != result.Preliminary && status != result.Final && status != result.Corrected {
		status = "unknown"
	}
	closed := o.Status == result.Cancelled || o.Status == result.NotDone
	if closed && status != result.Final && status != result.Corrected {
		return "cancelled"
	}
	return status
}

// closedNote says why an order's results were not all reported: its closing and the reason
// given for it.
func closedNote(o result.Order) string {
	what := "Order cancelled"
	if o.Status == result.NotDone {
		what = "Test not done"
	}
	if o.Reason == "" {
		return what + "; this result was not reported."
	}
	return what + ": " + o.Reason + ". This result was not reported."
}

// qualitativeAnswers are the SNOMED CT qualifier values of the catalogue's qualitative
// answers (the codes HL7's laboratory value sets use for them); an answer not listed here
// (trace, 1+, a clinic's own) is written as text alone.
var qualitativeAnswers = map[string]Coding{
	"negative":      {System: systemSNOMED, Code: "260385009", Display: "Negative"},
	"positive":      {System: systemSNOMED, Code: "10828004", Display: "Positive"},
	"detected":      {System: systemSNOMED, Code: "260373001", Display: "Detected"},
	"not detected":  {System: systemSNOMED, Code: "260415000", Display: "Not detected"},
	"not_detected":  {System: systemSNOMED, Code: "260415000", Display: "Not detected"},
	"reactive":      {System: systemSNOMED, Code: "11214006", Display: "Reactive"},
	"non-reactive":  {System: systemSNOMED, Code: "131194007", Display: "Non-reactive"},
	"indeterminate": {System: systemSNOMED, Code: "82334004", Display: "Indeterminate"},
}

// answerConcept is a qualitative result: its SNOMED CT code where there is one, and the
// answer as recorded.
func answerConcept(answer string) *CodeableConcept {
	c := &CodeableConcept{Text: answer}
	if coding, ok := qualitativeAnswers[strings.ToLower(strings.TrimSpace(answer))]; ok {
		c.Coding = []Coding{coding}
	}
	return c
}

// orderSource pages a patient's (or every) order, each expanded.
func (h *Handler) orderSource(ids []int64, patientID int64, match bool, lang string, expand func(result.Order) []Resource) source {
	return h.orders(ids, patientID, lang).source(match, expand)
}

var serviceRequestParams = map[string]paramKind{"patient": kindReference, "subject": kindReference, "status": kindToken, "code": kindToken, "category": kindToken}

// systemRequestStatus is the code system of ServiceRequest.status.
const systemRequestStatus = "http://hl7.org/fhir/request-status"

// serviceRequestTokens are ServiceRequest's token parameters, tested on the orders built.
var serviceRequestTokens = map[string]tokenParam{
	"status":   codeParam(systemRequestStatus, func(res Resource) string { return res.(ServiceRequest).Status }),
	"code":     codingParam(func(res Resource) []Coding { return codingsOf(res.(ServiceRequest).Code) }, systemLOINC),
	"category": codingParam(func(res Resource) []Coding { return conceptCodings(res.(ServiceRequest).Category...) }, systemSNOMED),
}

// patientOf reads a search's patient (or subject): 0 when absent, -1 when it names none.
func patientOf(q query) (int64, error) {
	var pid int64
	for _, name := range []string{"patient", "subject"} {
		p, err := q.reference(name, "Patient")
		if err != nil {
			return 0, err
		}
		if p < 0 || (p > 0 && pid > 0 && p != pid) {
			return -1, nil
		}
		if p > 0 {
			pid = p
		}
	}
	return pid, nil
}

// ---- MedicationRequest: a prescription's lines ----

// MedicationRequest is one line of a prescription.
type MedicationRequest struct {
	base
	Status                    string           `json:"status"`
	Intent                    string           `json:"intent"`
	MedicationCodeableConcept *CodeableConcept `json:"medicationCodeableConcept"`
	Subject                   *Reference       `json:"subject"`
	Encounter                 *Reference       `json:"encounter,omitempty"`
	AuthoredOn                string           `json:"authoredOn,omitempty"`
	Requester                 *Reference       `json:"requester,omitempty"`
	Note                      []Annotation     `json:"note,omitempty"`
	DosageInstruction         []Dosage         `json:"dosageInstruction,omitempty"`
	DispenseRequest           *DispenseRequest `json:"dispenseRequest,omitempty"`
}

// Dosage is how a medicine is taken, as the prescription says it.
type Dosage struct {
	Text  string           `json:"text,omitempty"`
	Route *CodeableConcept `json:"route,omitempty"`
}

// DispenseRequest is how much to dispense, and how many refills.
type DispenseRequest struct {
	NumberOfRepeatsAllowed *int            `json:"numberOfRepeatsAllowed,omitempty"`
	Quantity               *SimpleQuantity `json:"quantity,omitempty"`
}

var prescriptionStatus = map[string]string{prescription.Draft: "draft", prescription.Issued: "active", prescription.Cancelled: "cancelled"}

func toMedicationRequests(rx prescription.Prescription) []Resource {
	if rx.PatientID == nil {
		return nil // a blank-form prescription names no patient of the register
	}
	status := prescriptionStatus[rx.Status]
	if status == "" {
		status = "unknown"
	}
	updated := rx.UpdatedAt
	authored := rx.CreatedAt
	if rx.IssuedAt != nil {
		authored = *rx.IssuedAt
	}
	var out []Resource
	for i, it := range rx.Items {
		m := MedicationRequest{
			base:   newBase("MedicationRequest", strconv.FormatInt(rx.ID, 10)+"-"+strconv.Itoa(i+1), rx.Version, updated),
			Status: status, Intent: "order", MedicationCodeableConcept: &CodeableConcept{Text: it.Medicine},
			Subject: ref("Patient", *rx.PatientID), AuthoredOn: instant(authored),
		}
		if rx.AppointmentID != nil {
			m.Encounter = ref("Encounter", *rx.AppointmentID)
		}
		if rx.Prescriber != nil && rx.Prescriber.ID != 0 {
			m.Requester = ref("Practitioner", rx.Prescriber.ID)
			m.Requester.Display = rx.Prescriber.Name
		}
		var parts []string
		for _, p := range []string{it.Dose, it.Frequency, it.Duration, it.Instructions} {
			if strings.TrimSpace(p) != "" {
				parts = append(parts, strings.TrimSpace(p))
			}
		}
		if len(parts) > 0 || it.Route != "" {
			d := Dosage{Text: strings.Join(parts, "; ")}
			if it.Route != "" {
				d.Route = &CodeableConcept{Text: it.Route}
			}
			m.DosageInstruction = []Dosage{d}
		}
		dr := DispenseRequest{}
		if it.Refills > 0 {
			refills := it.Refills
			dr.NumberOfRepeatsAllowed = &refills
		}
		if it.Quantity != nil {
			if v, err := strconv.ParseFloat(string(*it.Quantity), 64); err == nil {
				dr.Quantity = &SimpleQuantity{Value: v, Unit: it.Unit}
			}
		}
		if dr.NumberOfRepeatsAllowed != nil || dr.Quantity != nil {
			m.DispenseRequest = &dr
		}
		if rx.Notes != "" {
			m.Note = []Annotation{{Text: rx.Notes}}
		}
		m.claim(profileMedicationReq, medicationRequestConforms(m))
		out = append(out, m)
	}
	return out
}

func (h *Handler) prescriptionSource(ids []int64, patientID int64, match bool, expand func(prescription.Prescription) []Resource) source {
	return h.prescriptions(ids, patientID).source(match, expand)
}

var medicationRequestParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "status": kindToken, "intent": kindToken, "authoredon": kindDate, "encounter": kindReference,
}

// Code systems of MedicationRequest's status and intent.
const (
	systemMedRequestStatus = "http://hl7.org/fhir/CodeSystem/medicationrequest-status"
	systemMedRequestIntent = "http://hl7.org/fhir/CodeSystem/medicationrequest-intent"
)

// medicationRequestTokens are MedicationRequest's token parameters, tested on the lines built.
var medicationRequestTokens = map[string]tokenParam{
	"status": codeParam(systemMedRequestStatus, func(res Resource) string { return res.(MedicationRequest).Status }),
	"intent": codeParam(systemMedRequestIntent, func(res Resource) string { return res.(MedicationRequest).Intent }),
}

// ---- Appointment ----

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

// ---- DocumentReference: an issued document ----

// DocumentReference is an issued document with its page attached.
type DocumentReference struct {
	base
	Identifier  []Identifier      `json:"identifier,omitempty"`
	Status      string            `json:"status"`
	Type        *CodeableConcept  `json:"type,omitempty"`
	Subject     *Reference        `json:"subject"`
	Date        string            `json:"date,omitempty"`
	Author      []Reference       `json:"author,omitempty"`
	Custodian   *Reference        `json:"custodian,omitempty"`
	Description string            `json:"description,omitempty"`
	Content     []DocumentContent `json:"content"`
	Context     *DocumentContext  `json:"context,omitempty"`
}

// DocumentContent is a document's attachment.
type DocumentContent struct {
	Attachment Attachment `json:"attachment"`
}

// Attachment is a document's page, inline.
type Attachment struct {
	ContentType string `json:"contentType"`
	Language    string `json:"language,omitempty"`
	Data        string `json:"data"`
	Title       string `json:"title,omitempty"`
	Creation    string `json:"creation,omitempty"`
}

// DocumentContext is the visit a document was issued at.
type DocumentContext struct {
	Encounter []Reference `json:"encounter,omitempty"`
}

func documentReferenceOf(d document.Document) DocumentReference {
	status := "current"
	if d.Status == "cancelled" {
		status = "entered-in-error" // withdrawn: no longer to be relied on
	}
	out := DocumentReference{
		base:       newBase("DocumentReference", strconv.FormatInt(d.ID, 10), d.Version, latest(d.IssuedAt, d.CancelledAt)),
		Identifier: []Identifier{{System: "urn:emr:document-number", Value: d.Number}}, Status: status,
		Type: &CodeableConcept{Coding: []Coding{{System: systemDocumentKind, Code: d.Kind}}, Text: d.Kind}, Subject: ref("Patient", d.PatientID), Date: instant(d.IssuedAt),
		Custodian: &Reference{Reference: "Organization/" + clinicID}, Description: d.Title,
		Content: []DocumentContent{{Attachment: Attachment{ContentType: "text/html", Language: d.Language, Title: d.Title, Creation: instant(d.IssuedAt),
			Data: base64.StdEncoding.EncodeToString([]byte(d.HTML()))}}},
	}
	if d.Doctor.ID != 0 {
		out.Author = []Reference{{Reference: "Practitioner/" + strconv.FormatInt(d.Doctor.ID, 10), Display: d.Doctor.Name}}
	}
	if d.AppointmentID != nil {
		out.Context = &DocumentContext{Encounter: []Reference{*ref("Encounter", *d.AppointmentID)}}
	}
	return out
}

func (h *Handler) documentSource(ids []int64, patientID int64, match bool) source {
	return h.documents(ids, patientID).source(match, func(d document.Document) []Resource { return []Resource{documentReferenceOf(d)} })
}

var documentParams = map[string]paramKind{"patient": kindReference, "subject": kindReference, "status": kindToken, "type": kindToken}

const (
	// systemDocumentStatus is the code system of DocumentReference.status.
	systemDocumentStatus = "http://hl7.org/fhir/document-reference-status"
	// systemDocumentKind is the code system of the clinic's kinds of document (document.Kinds:
	// medical_certificate, referral…), its own, so that type= finds them.
	systemDocumentKind = "urn:emr:document-kind"
)

// documentTokens are DocumentReference's token parameters, tested on the documents built.
var documentTokens = map[string]tokenParam{
	"status": codeParam(systemDocumentStatus, func(res Resource) string { return res.(DocumentReference).Status }),
	"type":   codingParam(func(res Resource) []Coding { return codingsOf(res.(DocumentReference).Type) }, systemDocumentKind),
}
