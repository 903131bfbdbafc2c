package fhir

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/document"
	"emr/internal/prescription"
	"emr/internal/result"
	"emr/internal/settings"
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
	if status == result.EnteredInError {
		return "entered-in-error"
	}
	if status != result.Preliminary && status != result.Final && status != result.Corrected {
		status = "unknown"
	}
	closed := o.Status == result.Cancelled || o.Status == result.NotDone
	if closed && status != result.Final && status != result.Corrected {
		return "cancelled"
	}
	return status
}

// labRows are the results an order's Observations are made of: its current results and
// those retracted as entered in error (each an Observation that says so), in id order.
func labRows(o result.Order) []result.Result {
	rows := append(slices.Clone(o.Results), o.Retracted...)
	slices.SortFunc(rows, func(a, b result.Result) int { return cmp.Compare(a.ID, b.ID) })
	return rows
}

// withdrawal is why a withdrawn result (status cancelled or entered-in-error) has no value:
// a note, and the DataAbsentReason. A result entered in error is an error, said in fixed
// words: the reason typed is the clinic's (it may name the patient whose sample it was) and
// stays in its own screens and audit, never in what the patient's apps read; a closed
// order's preliminary result was withdrawn (withdrawnValue).
func withdrawal(o result.Order, x result.Result) ([]Annotation, *CodeableConcept) {
	if x.Status == result.EnteredInError {
		return []Annotation{{Text: "Entered in error"}}, concept(systemAbsent, "error", "Error")
	}
	return []Annotation{{Text: closedNote(o)}}, withdrawnValue(o)
}

// labPerformer is the laboratory that performed a result: the clinic's Organization when
// it is the clinic's own, an external laboratory by its name alone (it has no resource here).
func labPerformer(x result.Result) Reference {
	if x.Performer == "" {
		return Reference{Reference: "Organization/" + clinicID}
	}
	return Reference{Display: x.Performer}
}

// labPerformers are the laboratories that performed an order's results, each once.
func labPerformers(rows []result.Result) []Reference {
	var out []Reference
	for _, x := range rows {
		if p := labPerformer(x); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// closedNote says why a closed order's preliminary results were withdrawn: its closing and
// the reason given for it.
func closedNote(o result.Order) string {
	what := "Order cancelled"
	if o.Status == result.NotDone {
		what = "Test not done"
	}
	if o.Reason == "" {
		return what + "; the preliminary result was withdrawn."
	}
	return what + ": " + o.Reason + ". The preliminary result was withdrawn."
}

// withdrawnValue is why a closed order's result has no value (DataAbsentReason): a test not
// done after a preliminary result ended in error (a specimen rejected, say); a cancelled
// order's was never performed.
func withdrawnValue(o result.Order) *CodeableConcept {
	if o.Status == result.NotDone {
		return concept(systemAbsent, "error", "Error")
	}
	return concept(systemAbsent, "not-performed", "Not Performed")
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

// systemRequestStatus is the code system of ServiceRequest.status.
const systemRequestStatus = "http://hl7.org/fhir/request-status"

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

func (h *Handler) prescriptionSource(ids []int64, patientID int64, match bool, expand func(prescription.Prescription) []Resource) source {
	return h.prescriptions(ids, patientID).source(match, expand)
}

// Code systems of MedicationRequest's status and intent.
const (
	systemMedRequestStatus = "http://hl7.org/fhir/CodeSystem/medicationrequest-status"
	systemMedRequestIntent = "http://hl7.org/fhir/CodeSystem/medicationrequest-intent"
)

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

func (h *Handler) documentSource(ids []int64, patientID int64, match bool) source {
	return h.documents(ids, patientID).source(match, func(d document.Document) []Resource { return []Resource{documentReferenceOf(d)} })
}

const (
	// systemDocumentStatus is the code system of DocumentReference.status.
	systemDocumentStatus = "http://hl7.org/fhir/document-reference-status"
	// systemDocumentKind is the code system of the clinic's kinds of document (document.Kinds:
	// medical_certificate, referral…), its own, so that type= finds them.
	systemDocumentKind = "urn:emr:document-kind"
)
